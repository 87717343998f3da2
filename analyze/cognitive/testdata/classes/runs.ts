// Rule: each run of like boolean operators in an expression is +1 (|| too).
// Where a run ends: a control header's condition, a call's arguments, a
// negated group and each branch of a conditional expression are
// expressions of their own; a statement's end (its ; or its block's })
// ends the run.
// cognitive: headers 6
function headers(a, b, c, d): void {
  if (a && b) { f(); } // +1 if, +1 &&
  if (c && d) { g(); } // +1 if, +1 && (the first if's run ended with its block)
  while (a && c) { h(); } // +1 while, +1 &&
}
// cognitive: afterBlock 3
function afterBlock(a, b, c, d): void {
  if (a && b) { f(); } // +1 if, +1 &&
  return c && d; // +1 &&
}
// Rule: a postfix ++ or -- ends an operand, so the && after it is a
// binary operator.
// cognitive: postfix 2
function postfix(i, c): void {
  while (i-- && c) {} // +1 while, +1 &&
}
// Rule: a negated group is an expression of its own: a && !(b && c) is
// two runs (as sonarjs flattens them: the ! stops the run).
// cognitive: negated 2
function negated(a, b, c): void {
  return a && !(b && c); // +1 &&, +1 && inside !( )
}
// Rule: a conditional expression's branches are expressions of their
// own; the run around it goes on after it.
// cognitive: branch 3
function branch(a, c, d, e): void {
  return a && (c ? d && e : e); // +1 &&, +1 ?:, +1 && in the branch
}
// cognitive: around 2
function around(a, c, d, e, f): void {
  return a && (c ? d : e) && f; // +1 ?:, +1 for one && run around it
}
// Rule: the ?: is +1 plus nesting even when a branch is a function whose
// body holds a ; (the ; does not end the conditional expression).
// cognitive: fnBranch 4
function fnBranch(n): void {
  return n == 2
    ? function (a, b) { return g(a, b); } // +1 ?:
    : function (a) { if (a) { return 1; } return 2; }; // +3 if (nesting 2: the branch, the function)
}
