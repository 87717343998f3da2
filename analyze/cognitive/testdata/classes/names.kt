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
// Rule: a quoted name (`if`, `when`) and a named argument named like a
// soft keyword (catch = 1) are names; only a break or continue to a label
// is a jump (+1), return@label is not.
// cognitive: quoted 0 params 1
fun quoted(x: Foo) {
    x.`if`()
    val y = x.`when` + x.`for`
    f(catch = 1, finally = 2)
}
// cognitive: jumps 11 params 1
fun jumps(xs: List<List<Int>>) { // List<List<Int>>: one parameter
    outer@ for (r in xs) { // +1 for
        for (v in r) { // +2 for (nesting 1)
            if (v < 0) break@outer // +3 if (nesting 2), +1 break to a label
            if (v == 0) continue@outer // +3 if (nesting 2), +1 continue to a label
        }
    }
}
// cognitive: softNames 0 params 1
fun softNames(x: Any) {
    val init = 1; val value = x; val field = 2
    val where = 3
    val get = set(where)
}
