// Rule: nested conditional expressions nest.
// cognitive: pick 3
func pick(a: Bool, b: Bool) -> Int {
    return a ? 1 : b ? 2 : 3 // +1, +2
}
