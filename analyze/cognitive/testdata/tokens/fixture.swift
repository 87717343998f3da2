// Hand-scored fixture (docs/analyze.md).
import Foundation

struct Fixture {
    var name: String?

    // cognitive: branches 3 params 2 nesting 1
    func branches(a: Int, b: Int) -> Int {
        if a > b { // +1
            return 1
        } else if a < b { // +1
            return 2
        } else { // +1
            return 3
        }
    }

    // cognitive: loops 10 nesting 3
    func loops(xs: [Int]) throws {
        outer: for x in xs { // +1
            var y = x
            while y > 0 { // +2
                repeat { // +3
                    y -= 1
                    continue outer // +1
                } while y > 5
            }
        }
        do {
            try run()
        } catch { // +1
            if name != nil { // +2
                throw error
            }
        }
    }

    // cognitive: switches 4
    func switches(x: Int?) -> Int {
        guard let v = x else { return 0 } // +1
        switch v { // +1
        case 0:
            return v > 1 ? 1 : 2 // +2 (nesting 1)
        default:
            return 3
        }
    }

    // cognitive: logic 3
    func logic(a: Bool, b: Bool, c: Bool, d: Bool) -> Bool {
        let y = f(a || b) // +1
        return a && b && c || d // +1 +1
    }

    // cognitive: fact 2 params 1
    func fact(_ n: Int) -> Int {
        if n <= 1 { return 1 } // +1
        return n * fact(n - 1) // +1
    }

    // cognitive: closures 4 params 1 nesting 1
    func closures(xs: [Int]) -> Int {
        let ys = xs.filter { x in x > 0 && x < 9 } // a closure: && +1
        let n = ys.first ?? 0 // 0
        return xs.map { x in
            if x > n { return 1 } // +2 (closure nesting)
            return 0
        }.reduce(0, +) + (n > 0 ? 1 : 0) // +1
    }
}
