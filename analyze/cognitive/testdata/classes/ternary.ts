// Rule: nested conditional expressions nest; so does a ternary in a lambda in a branch.
// cognitive: pick 6
function pick(a: boolean, b: boolean, xs: number[]): number[] | number {
  return a ? xs.map(x => (b ? x : -x)) : b ? 1 : 2; // +1; +3 (nesting 2: branch, lambda); +2 (nesting 1)
}
