'use strict';
const { format } = require('./money');

class Cart {
  constructor() {
    this.prices = [];
    this.frozen = false;
  }

  add(cents) {
    if (this.frozen) throw new Error('cart is frozen');
    if (cents < 0) {
      throw new RangeError('negative price');
    }
    this.prices.push(cents);
    return this;
  }

  total() {
    return this.prices.reduce((a, b) => a + b, 0);
  }

  describe() {
    return `${this.prices.length} items, ${format(this.total())}`;
  }

  discounted(percent) {
    const t = this.total();
    if (percent <= 0 || percent > 100) { return t; }
    return t - Math.floor((t * percent) / 100);
  }

  clear() {
    this.prices = []; this.frozen = false;
  }
}

module.exports = { Cart };
