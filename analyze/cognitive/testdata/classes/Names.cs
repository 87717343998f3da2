class Names {
    // Rule: C# nullable types (string?) are types, verbatim and member names are not keywords.
    // cognitive: nullable 1
    string? nullable(string? a, int? b) {
        int? c = b;
        return a ?? (c > 0 ? "x" : null); // +1 ?: (?? counts nothing)
    }
}
