'use strict';

function pad(v) {
  return v < 10 ? '0' + v : String(v);
}

function format(cents) {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return sign + Math.floor(abs / 100) + '.' + pad(abs % 100);
}

function parse(s) {
  const dot = s.indexOf('.');
  if (dot < 0) {
    return Number(s) * 100;
  }
  return Number(s.slice(0, dot)) * 100 +
    Number(s.slice(dot + 1));
}

module.exports = { format, parse };
