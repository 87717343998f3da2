# frozen_string_literal: true

require_relative "helper"
require_relative "../lib/shop/cart"
require_relative "../lib/shop/unused"

cart = Shop::Cart.new
cart.add(1999).add(5)
begin
  cart.add(-1)
rescue ArgumentError => e
  puts "rejected: #{e.message}"
end
puts cart.describe
