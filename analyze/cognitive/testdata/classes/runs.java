// Rule: each run of like boolean operators in an expression is +1 (|| too).
// A control header's condition and a negated group are expressions of
// their own; a statement's end (its ; or its block's }) ends the run.
class Runs {
  // cognitive: headers 6
  void headers(boolean a, boolean b, boolean c, boolean d) {
    if (a && b) { f(); } // +1 if, +1 &&
    if (c && d) { g(); } // +1 if, +1 && (the first if's run ended with its block)
    while (a && c) { h(); } // +1 while, +1 &&
  }
  // cognitive: afterBlock 3
  boolean afterBlock(boolean a, boolean b, boolean c, boolean d) {
    if (a && b) { f(); } // +1 if, +1 &&
    return c && d; // +1 &&
  }
  // Rule: a postfix -- ends an operand: the && after it is binary.
  // cognitive: postfix 2
  void postfix(int i, boolean c) {
    while (i-- > 0 && c) {} // +1 while, +1 &&
  }
  // cognitive: negated 2
  boolean negated(boolean a, boolean b, boolean c) {
    return a && !(b && c); // +1 &&, +1 && inside !( )
  }
  // Rule: a conditional expression's branches are expressions of their own.
  // cognitive: branch 3
  boolean branch(boolean a, boolean c, boolean d, boolean e) {
    return a && (c ? d && e : e); // +1 &&, +1 ?:, +1 && in the branch
  }
}
