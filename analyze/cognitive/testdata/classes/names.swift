// Rule: Swift argument labels (for:, in:) and optionals (Int?) are no control flow.
// cognitive: labels 0
func labels(for key: Int?, in list: [Int]) -> Int? {
    let x: Int? = list.first
    return index(for: key, in: list) ?? x
}
