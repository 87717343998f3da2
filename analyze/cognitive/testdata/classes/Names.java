class Names {
    // Rule: a keyword after . or :: is a member name, not control flow.
    // cognitive: refs 0
    int refs(Stream<String> s) {
        return s.map(String::valueOf).count();
    }
    // cognitive: realCatch 3
    void realCatch() {
        try { run(); } catch (Exception e) { if (e != null) {} } // +1 catch, +2 if (nesting 1: the catch body)
    }
}
