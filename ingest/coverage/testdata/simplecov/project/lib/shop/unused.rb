# frozen_string_literal: true

module Shop
  # Loaded but never called.
  module Unused
    def self.diff(a, b)
      if a > b
        a - b
      else
        b - a
      end
    end
  end
end
