// Rule: Swift argument labels (for:, in:) and optionals (Int?) are no control flow.
// cognitive: labels 0
func labels(for key: Int?, in list: [Int]) -> Int? {
    let x: Int? = list.first
    return index(for: key, in: list) ?? x
}
// Rule: members named like keywords (x.default, x.for), quoted names
// (`switch`) and argument labels are names; break to a label is +1.
// cognitive: members 0 params 1
func members(x: Foo) {
    let y = x.default + x.for + x.if + x.while
    let z = Foo.init(in: 1, for: 2, where: 3)
    let w = `switch` + `if`
}
// cognitive: labelled 7 params 1
func labelled(xs: [[Int]]) {
    outer: for r in xs { // +1 for
        for v in r { // +2 for (nesting 1)
            if v < 0 { break outer } // +3 if (nesting 2), +1 break to a label
        }
    }
}
