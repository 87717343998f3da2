// Hand-scored fixture (docs/analyze.md).
package fixtures

object Fixture {
  // cognitive: branches 3 params 2 nesting 1
  def branches(a: Int, b: Int): Int = {
    if (a > b) { // +1
      1
    } else if (a < b) { // +1
      2
    } else { // +1
      3
    }
  }

  // cognitive: loops 6 nesting 2
  def loops(xs: List[Int]): Unit = {
    for (x <- xs) { // +1
      var y = x
      while (y > 0) { // +2
        y -= 1
      }
    }
    try {
      run()
    } catch { // +1
      case e: Exception =>
        if (xs.isEmpty) throw e // +2
    }
  }

  // cognitive: matches 4
  def matches(x: Option[Int]): Int = {
    x match { // +1
      case Some(v) =>
        if (v > 0) 1 else 0 // +2 (nesting 1), else +1
      case None => 0
    }
  }

  // cognitive: logic 3
  def logic(a: Boolean, b: Boolean, c: Boolean, d: Boolean): Boolean = {
    val y = f(a || b) // +1
    a && b && c || d // +1 +1
  }

  // cognitive: fact 2 params 1
  def fact(n: Int): Int = {
    if (n <= 1) return 1 // +1
    n * fact(n - 1) // +1
  }

  // cognitive: lambdas 5 params 1 nesting 1
  def lambdas(xs: List[Int]): List[Int] = {
    val ys = xs.map(x => if (x > 0) 1 else 0) // a lambda (nesting +1): if +2, else +1
    ys.filter { y =>
      y match { // +2 (nesting 1)
        case v if v > 1 => true // a guard: 0
        case _ => false
      }
    }
  }
}
