// Hand-scored fixture (docs/analyze.md).
package fixtures

class Fixture(val name: String?) {
    // cognitive: branches 3 params 2 nesting 1
    fun branches(a: Int, b: Int): Int {
        if (a > b) { // +1
            return 1
        } else if (a < b) { // +1
            return 2
        } else { // +1
            return 3
        }
    }

    // cognitive: loops 7 nesting 3
    fun loops(xs: List<Int>) {
        for (x in xs) { // +1
            var y = x
            while (y > 0) { // +2
                do { // +3
                    y--
                } while (y > 5)
            }
        }
        try {
            run()
        } catch (e: Exception) { // +1
            throw e
        }
    }

    // cognitive: whens 4
    fun whens(x: Int): String {
        val s = name?.length ?: 0
        return when (x) { // +1
            1 -> "a"
            else -> if (x > s) "b" else "c" // +2 (nesting 1) +1 else
        }
    }

    // cognitive: logic 3
    fun logic(a: Boolean, b: Boolean, c: Boolean, d: Boolean): Boolean {
        val y = f(a || b) // +1
        return a && b && c || d // +1 +1
    }

    // cognitive: labels 7
    fun labels(rows: List<List<Int>>) {
        outer@ for (r in rows) { // +1
            for (v in r) { // +2
                if (v < 0) break@outer // +3 +1
            }
        }
    }

    // cognitive: fact 2 params 1
    fun fact(n: Int): Int {
        if (n <= 1) return 1 // +1
        return n * fact(n - 1) // +1
    }

    // cognitive: more 9 params 1 nesting 3
    fun more(xs: List<Int>): Int {
        outer@ for (x in xs) { // +1
            for (y in xs) { // +2
                if (y == x) continue@outer // +3, continue@label +1
            }
        }
        val ys = xs.filter { it > 0 && it < 9 } // a lambda: && +1
        return when { // +1
            ys.isEmpty() -> 1
            else -> 0
        }
    }
}
