// Rule: optionals (Int?, x?.y) are types and chaining, not ternaries.
// cognitive: optionals 0
func optionals(a: Int?, b: [String: Int]?) -> Int? {
    let c: Int? = a
    return b?["x"] ?? c
}
