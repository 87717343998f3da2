class Ternary {
    // Rule: nested conditional expressions nest.
    // cognitive: pick 6
    int pick(boolean a, boolean b, boolean c) {
        return a ? 1 : b ? 2 : c ? 3 : 4; // +1, +2, +3
    }
}
