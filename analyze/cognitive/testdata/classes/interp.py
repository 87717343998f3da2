# Rule: the expressions of an f-string's {…} are scored; {{ }} are braces.
# cognitive: fmt 3
def fmt(a, b):
    return f"{a if b else 0:>10} {{a if b else c}} {a and b or a}"  # +1 if-else, +1 and, +1 or
