// Rule: a method with an expression body (def f(…) = expr, with or without
// parameters) is a function like one with a block body.
object Shapes {
  // cognitive: sign 2
  def sign(x: Int) = if (x > 0) 1 else -1 // +1 if, +1 else

  // cognitive: kind 1
  def kind(x: Int): String = x match { // +1 match
    case 0 => "zero"
    case _ => "many"
  }

  // cognitive: both 1 params 2
  def both(a: Boolean, b: Boolean = true) = a && b // +1 &&; a default value's = is no body

  // cognitive: block 2
  def block(x: Int): Int = { // a block body after =: the block is the body
    if (x > 0) x else 0 // +1 if, +1 else
  }
}
