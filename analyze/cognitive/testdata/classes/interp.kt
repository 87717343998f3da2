// Rule: Kotlin "${…}" templates hold code.
// cognitive: msg 2
fun msg(a: Boolean): String {
    return "${if (a) "y" else "n"}" // +1 if, +1 else
}
