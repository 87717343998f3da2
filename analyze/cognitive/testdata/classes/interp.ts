// Rule: conditionals and boolean runs inside ${…} are scored.
// cognitive: msg 2
function msg(a: number, b: boolean): string {
  return `${a > 0 && b ? "yes" : "no"}`; // +1 ?: , +1 &&
}
