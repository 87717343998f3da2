// Rule: a function with an expression body (fun f(…) = expr) is a function
// like one with a block body; its expression is scored as its body.
// cognitive: sign 2
fun sign(x: Int) = if (x > 0) 1 else -1 // +1 if, +1 else

// cognitive: describe 1
fun describe(x: Int): String = when (x) { // +1 when
    0 -> "zero"
    else -> "many"
}

// cognitive: withDefault 1 params 2
fun withDefault(x: Int, y: Int = 0) = x > 0 && y > 0 // +1 &&; the = of a default value is no body

// cognitive: second 0
fun <T> List<T>.second(): T = this[1] // named by the last name before its parameters

class Box(val v: Int) {
    // cognitive: positive 1
    fun positive() = v > 0 || v == -1 // +1 ||
    // cognitive: mapped 3
    fun mapped(xs: List<Int>) = xs.map { if (it > v) it else v } // +2 if (nesting 1: a lambda), +1 else
    val plain = 1
}

// cognitive: outer 3
fun outer(x: Int): Int {
    fun inner(y: Int) = if (y > 0) y else 0 // a nested function nests: +2 if (nesting 1), +1 else
    return inner(x)
}
