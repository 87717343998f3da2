class A {
  String s = "/*";
  int x; // c
  String t = "*/";
  /* real
  comment */
}
