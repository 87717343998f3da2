# Hand-scored fixture (docs/analyze.md).
module Fixtures
  class Fixture
    # cognitive: branches 3 params 2 nesting 1
    def branches(a, b)
      if a > b # +1
        1
      elsif a < b # +1
        2
      else # +1
        3
      end
    end

    # cognitive: loops 8 nesting 1
    def loops(xs)
      xs.each do |x| # nesting +1 (a block)
        while x > 0 # +2
          x -= 1
        end
      end
      for y in xs do # +1
        puts y unless y.nil? # +2 (modifier, nesting 1)
      end
      begin
        run
      rescue StandardError => e # +1
        raise e if e # +1 (modifier, nesting 0)
      end
      case xs.size # +1
      when 0 then nil
      end
    end

    # cognitive: logic 3
    def logic(a, b, c, d)
      y = f(a || b) # +1
      a && b && c or d # +1 +1
    end

    # cognitive: fact 3 params 1
    def fact(n)
      return 1 if n <= 1 # +1
      n > 2 ? n * fact(n - 1) : n # +1 ternary, +1 recursion
    end

    # cognitive: blocks 3
    def blocks(xs)
      xs.select { |x| x.positive? && x.even? } # && +1
        .map { |x| x > 1 ? x : 0 } # +2 ternary in a block (nesting 1)
    end

    # cognitive: more 5 params 1 nesting 2
    def more(xs)
      until xs.empty? # +1
        x = xs.pop
        unless x.nil? # +2
          next # 0
        end
      end
      f = ->(v) { v > 0 ? 1 : 0 } # a lambda (nesting +1): ?: +2
      f.call(1)
    end
  end
end
