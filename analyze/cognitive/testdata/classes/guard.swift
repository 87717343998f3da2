// Swift's guard, scored from SonarSource's Cognitive Complexity (v1.7).
// The definition does not name guard: it is a conditional that breaks the
// linear flow like if ("Increments: if, else if, else, ternary…"), so it is
// scored as an if whose one branch is the early exit. Rule: a structure
// scores +1 and +1 per level of nesting it sits in; its body is one level
// deeper. The else of a guard is that one branch, not an alternative to a
// then-branch: it adds no increment of its own (an if's else does, +1,
// because it is a second path).

// Rule: a guard at the top of a function: +1, nesting 0.
// cognitive: top 1 params 1
func top(x: Int?) -> Int {
    guard let v = x else { return 0 } // +1
    return v
}

// Rule: a guard inside a loop is nested: +1 and +1 for the loop's level.
// cognitive: inLoop 3 params 1
func inLoop(xs: [Int?]) -> Int {
    var n = 0
    for x in xs { // +1 for
        guard let v = x else { continue } // +2 guard (nesting 1); plain continue: 0
        n += v
    }
    return n
}

// Rule: the guard's else block is nested one level deeper, as an if's body.
// cognitive: inElse 3 params 1 nesting 2
func inElse(x: Int?) -> Int {
    guard let v = x else { // +1
        if log { print("none") } // +2 if (nesting 1)
        return 0
    }
    return v
}

// Rule: conditions of a guard: a run of like logical operators is +1,
// commas between conditions are no operators.
// cognitive: conditions 4 params 2
func conditions(a: Int?, b: Int?) -> Int {
    guard let x = a, let y = b, x > 0 && y > 0 else { return 0 } // +1 guard, +1 &&
    guard x < 10 || y < 10 else { return 1 } // +1 guard, +1 ||
    return x + y
}

// Rule: a guard ... else followed by an if ... else: the guard's else is
// not counted, the if's else is (+1).
// cognitive: thenIf 3 params 1
func thenIf(x: Int?) -> Int {
    guard let v = x else { return 0 } // +1
    if v > 1 { // +1
        return 1
    } else { // +1
        return 2
    }
}
