// Rule: Scala s"${…}" holds code.
object Interp {
  // cognitive: msg 2
  def msg(a: Boolean): String = {
    s"${if (a) 1 else 2}" // +1 if, +1 else
  }
}
