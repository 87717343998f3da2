class Types {
    // Rule: nullable types (int?, string?) are types, not ternaries.
    // cognitive: Nullable 0
    int? Nullable(string? a, List<int?> b) {
        int? c = null;
        string? d = a;
        return c;
    }
}
