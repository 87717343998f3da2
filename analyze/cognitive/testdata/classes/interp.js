// Rule: the code of a template literal's ${…} is scored like any code.
// cognitive: label 4
function label(n, user) {
  return `${n} item${n === 1 ? "" : "s"} for ${user ? `${user.admin ? "admin " : ""}${user.name}` : "nobody"}`;
  // +1 ?: ; +1 ?: ; +2 ?: (nesting 1: it is in the branch of the second)
}
