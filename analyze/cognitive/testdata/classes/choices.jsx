// Rule: the choices where the references differ (docs/analyze.md).
// A JSX short-circuit ({cond && <A/>}: one run of like operators in an
// expression container) is markup, as sonarjs decides; mixed operators count.
// cognitive: Panel 2
function Panel({a, b, items}) {
  return (
    <div>
      {a && <A/>}
      {a && b && <B/>}
      {a || b && <C/>}
    </div>
  ); // +1 ||, +1 && in the last container only
}
// Each run of like boolean operators is +1, || and ?? runs as && runs
// (sonarjs 4 counts && runs only); ?? is null-coalescing: nothing.
// cognitive: runs 3
function runs(a, b, c) {
  return (a && b && c) || (a ?? b) || f(a || b); // +1 &&, +1 ||, +1 || (a call's arguments are their own expression)
}
// Recursion is +1 (the definition; sonarjs does not count it).
// cognitive: fact 2
function fact(n) {
  if (n < 2) return 1; // +1
  return n * fact(n - 1); // +1 recursion
}
// A call inside a run does not break it: a && f(x) && b is one run.
// cognitive: callInRun 2
function callInRun(a, b, x) {
  return a && f(x && 1) && b; // +1 for the run a && … && b, +1 for x && 1 (a call's arguments are an expression of their own)
}
