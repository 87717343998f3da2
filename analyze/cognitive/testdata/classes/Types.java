class Types {
    // Rule: generic wildcards (<? extends T>, <?>) are types, not ternaries.
    // cognitive: wild 0
    int wild(List<? extends Number> l, Map<?, ?> m, Class<? super T> c) {
        return l.size();
    }
}
