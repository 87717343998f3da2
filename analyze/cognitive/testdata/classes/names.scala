// Rule: members named like keywords: Scala's `::` is an operator, not member access.
object Names {
  // cognitive: members 0
  def members(f: Future[Int]) = {
    f.recover { case e => 0 }
  }
}
