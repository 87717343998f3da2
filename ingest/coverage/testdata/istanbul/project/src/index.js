'use strict';
const { Cart } = require('./lib/cart');
const money = require('./lib/money');

function run(args) {
  const c = new Cart();
  c.add(1999).add(5);
  try { c.add(-1); } catch (e) { console.log('rejected:', e.message); }
  console.log(c.describe());
  console.log(c.discounted(10));
  console.log(money.parse('12.34'));
  if (args.length > 0) {
    console.log('args given');
  }
}

module.exports = { run };
