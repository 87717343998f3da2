// Rule: type-level syntax is not code: a match type is no match, a type
// lambda (=>>) and a function type (T => Boolean) are no lambdas, bounds
// (T <: Comparable[T]) and union types (T | Null) score nothing.
object Types {
  type Elem[X] = X match {
    case String => Char
    case Array[t] => t
  }
  type Id = [X] =>> X

  // cognitive: pick 2 params 3
  def pick[T <: Comparable[T]](x: Option[T], g: T => Boolean, h: Seq[T] => T): T | Null = {
    if (x.exists(g)) x.get else null // +1 if, +1 else
  }
  // cognitive: given 0 params 1
  def given(using ctx: Ctx): Int = 1
}
