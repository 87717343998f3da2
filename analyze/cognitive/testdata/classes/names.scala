// Rule: members named like keywords: Scala's `::` is an operator, not member access.
object Names {
  // cognitive: members 0
  def members(f: Future[Int]) = {
    f.recover { case e => 0 }
  }
  // Rule: quoted names (`if`, `match`), named arguments and Scala 3's
  // soft keywords (given, then, end, using) used as names are names.
  // cognitive: quoted 0 params 1
  def quoted(o: Foo) = {
    val x = o.`if` + o.`match` + `while`
    f(given = 1, then = 2)
    val end = 3
    val using = 4
  }
  // Rule: Scala 3's indentation syntax: the body is the lines indented
  // past the def; end markers (end if, end match) are no control flow.
  // cognitive: sign 2 params 1
  def sign(x: Int): Int =
    if x > 0 then // +1 if
      1
    else // +1 else
      2
    end if
  // cognitive: name 1 params 1
  def name(x: Int) =
    x match // +1 match
      case 1 => "a"
      case _ => "b"
    end match
  // cognitive: each 1 params 1
  def each(xs: List[Int]) =
    for x <- xs do // +1 for; its do starts the body, it is no do loop
      println(x)
    end for
}
