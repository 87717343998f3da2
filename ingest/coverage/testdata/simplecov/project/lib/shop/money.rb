# frozen_string_literal: true

module Shop
  # Formats and parses cents.
  module Money
    module_function

    def format(cents)
      sign = cents.negative? ? "-" : ""
      abs = cents.abs
      "#{sign}#{abs / 100}.#{pad(abs % 100)}"
    end

    def pad(value)
      if value < 10
        "0#{value}"
      else
        value.to_s
      end
    end

    def parse(text)
      whole, cents = text.split(".", 2)
      return Integer(whole) * 100 unless cents

      (Integer(whole) * 100) + Integer(cents)
    end
  end
end
