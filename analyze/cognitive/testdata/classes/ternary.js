// Rule: a conditional expression's branches nest (a ? 1 : b ? 2 : 3 is 1 + 2).
// cognitive: pick 3
function pick(a, b) {
  return a ? 1 : b ? 2 : 3; // +1, +2 (nesting 1)
}
// cognitive: side 2
function side(a, b) {
  const x = a ? 1 : 2; // +1
  const y = b ? 3 : 4; // +1: the first ended at its ;
  return [x, y];
}
// cognitive: args 2
function args(a, b) {
  return f(a ? 1 : 2, b ? 3 : 4); // +1, +1: a , ends the first
}
