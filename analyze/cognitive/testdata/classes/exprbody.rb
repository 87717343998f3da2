# Rule: an endless method (def f(x) = expr, Ruby 3) is a function like one
# with a body ending in "end"; its expression is scored as its body, and it
# ends where the expression ends.
# cognitive: sign 1 params 1
def sign(x) = x > 0 ? 1 : -1 # +1 ?:

# cognitive: answer 0 params 0
def answer = 42

# cognitive: both 1 params 2
def both(a, b) = a &&
  b # +1 &&: a trailing operator carries the expression to the next line

class Box
  attr_reader :v

  # cognitive: initialize 0 params 1
  def initialize(v)
    @v = v
  end

  # cognitive: v 0 params 1
  def v=(w) # a setter, not an endless method: the = touches the name
    @v = w
  end

  # cognitive: if 0 params 1
  def if(a) = a.class # a keyword-named method; .class is a name

  # cognitive: mapped 2 params 1
  def mapped(xs) = xs.map { |x| x > v ? x : v } # +2 ?: (nesting 1: a block)

  # cognitive: chained 1 params 1
  def chained(xs) = xs
    .select { |x| x } # the expression goes on over a leading .method
    .first || 0 # +1 ||

  # cognitive: unless 0 params 0
  def unless; 2; end

  # cognitive: after 1 params 1
  def after(x)
    return 0 if x # +1 if: a full method after the endless ones, not part of them
    1
  end
end

# cognitive: top 2 params 1
def top(x)
  if x # +1 if
    2
  else # +1 else
    3
  end
end
