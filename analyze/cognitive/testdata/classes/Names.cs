class Names {
    // Rule: C# nullable types (string?) are types, verbatim and member names are not keywords.
    // cognitive: nullable 1
    string? nullable(string? a, int? b) {
        int? c = b;
        return a ?? (c > 0 ? "x" : null); // +1 ?: (?? counts nothing)
    }
    // Rule: verbatim names (@if), named arguments (when: 1) and
    // contextual keywords (from, where, select, value, get, await) are no
    // control flow; a catch's when filter adds nothing to its catch.
    // cognitive: contextual 0 params 1
    void contextual(Foo o) {
        var x = o.@if + o.@for + @while;
        f(when: 1, @switch: 2);
        var q = from c in list where c > 0 select c;
        var v = value; var g = get; var y = await Task;
    }
    // cognitive: filtered 3 params 1
    void filtered(int[][] xs) {
        foreach (var r in xs) { // +1 foreach
            try { f(); } catch (Exception e) when (e is IOException) { } // +2 catch (nesting 1)
        }
    }
    // cognitive: switched 1 params 1
    int switched(object o) => o switch { int i when i > 0 => 1, _ => 0 }; // +1 switch expression
}
