# Rule: a conditional expression in another's else branch nests.
# cognitive: pick 3
def pick(a, b):
    return 1 if a else 2 if b else 3  # +1, +2
# cognitive: two 2
def two(a, b):
    return (1 if a else 2, 3 if b else 4)  # +1, +1: a , ends the first
