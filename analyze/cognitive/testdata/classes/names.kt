// Rule: Kotlin's soft keywords (catch) and members named like keywords.
// cognitive: soft 0
fun soft(p: Deferred<Int>) {
    val catch = 1
    p.catch(catch)
}
// cognitive: labelled 2
fun labelled(xs: List<Int>) {
    xs.forEach loop@{ if (it > 0) return@loop } // +2 if (nesting 1: a lambda); return@loop is no jump to a label of a loop
}
