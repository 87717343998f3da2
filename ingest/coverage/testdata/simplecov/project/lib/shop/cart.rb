# frozen_string_literal: true

require_relative "money"

module Shop
  # A shopping cart; some paths run in part A, some in part B, some never.
  class Cart
    def initialize
      @prices = []
      @frozen = false
    end

    def add(cents)
      raise "cart is frozen" if @frozen
      if cents.negative?
        raise ArgumentError, "negative price"
      end

      @prices << cents
      self
    end

    def total
      @prices.sum
    end

    def describe
      "#{@prices.size} items, #{Money.format(total)}"
    end

    def freeze!
      @frozen = true
    end

    def discounted(percent)
      t = total
      return t if percent <= 0 || percent > 100

      t - (t * percent / 100)
    end

    def clear
      @prices = []
      @frozen = false
    end
  end
end
