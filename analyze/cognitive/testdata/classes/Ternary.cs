class Ternary {
    // Rule: nested conditional expressions nest.
    // cognitive: Pick 3
    int Pick(bool a, bool b) {
        return a ? 1 : b ? 2 : 3; // +1, +2
    }
}
