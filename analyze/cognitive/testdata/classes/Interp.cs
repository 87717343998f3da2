class Interp {
    // Rule: C# $"{…}" holds code; {{ is a brace.
    // cognitive: Msg 2
    string Msg(bool a, bool b) {
        return $"{(a ? 1 : 2)} {{x}} {(b ? 3 : 4)}"; // +1 ?: , +1 ?:
    }
}
