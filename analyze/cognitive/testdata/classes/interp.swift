// Rule: Swift "\(…)" interpolations hold code.
// cognitive: msg 1
func msg(a: Bool) -> String {
    return "value: \(a ? 1 : 2)" // +1 ?:
}
