// Rule: nested conditional expressions nest; inside an if they nest once more.
// cognitive: pick 6
int pick(int a, int b) {
    if (a) {                  // +1
        return b ? a ? 1 : 2 : 3; // +2 (nesting 1), +3 (nesting 2)
    }
    return 0;
}
