# Rule: symbols, hash keys, keyword-named methods (x.end, x.class, def end) are names.
# cognitive: symbols 0
def symbols(r)
  h = { if: 1, end: 2, class: 3, while: 4 }
  s = [:if, :end, :unless, :case]
  r.end + r.begin + self.class.name.size
end
# cognitive: end 0
def end
  1
end
# cognitive: after 1
def after(x)
  x.then { |v| v } if x # +1 if (modifier)
end
