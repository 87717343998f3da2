# frozen_string_literal: true

require_relative "helper"
require_relative "../lib/shop/cart"

cart = Shop::Cart.new
cart.add(250)
puts cart.discounted(10)
puts Shop::Money.parse("12.34")
puts Shop::Money.parse("7")
cart.freeze!
