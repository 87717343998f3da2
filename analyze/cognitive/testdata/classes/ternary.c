/* Rule: nested conditional expressions nest. */
/* cognitive: pick 3 */
int pick(int a, int b) {
    return a ? (b ? 1 : 2) : 3; /* +1, +2 (in a branch) */
}
