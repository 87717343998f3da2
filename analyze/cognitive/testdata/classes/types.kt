// Rule: nullable types (Int?) and generic bounds are types.
// cognitive: nullable 0
fun <T : Comparable<T>> nullable(a: Int?, b: List<T>?): Int? {
    val c: String? = null
    return a ?: b?.size
}
