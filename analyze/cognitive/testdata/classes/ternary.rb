# Rule: nested conditional expressions nest.
# cognitive: pick 3
def pick(a, b)
  a ? 1 : b ? 2 : 3 # +1, +2
end
