// Hand-scored fixture: each "cognitive: NAME SCORE" is worked out by hand
// from the published definition (docs/analyze.md).

// cognitive: branches 3 params 2 nesting 1
function branches(a, b) {
  if (a) { // +1
    return 1;
  } else if (b) { // +1
    return 2;
  } else { // +1
    return 3;
  }
}

// cognitive: loops 10 nesting 3
function loops(xs) {
  for (const x of xs) { // +1
    while (x > 0) { // +2
      do { // +3
        x--;
      } while (x > 5);
    }
  }
  try {
    go();
  } catch (e) { // +1
    if (e) { // +2
      throw e;
    }
  }
  switch (xs.length) { // +1
    case 0:
      break;
    default:
      return;
  }
}

// cognitive: logic 3
function logic(a, b, c, d) {
  const y = f(a || b); // +1
  return a && b && c || d; // +1 +1
}

// cognitive: labels 11
function labels(rows) {
  outer: for (const r of rows) { // +1
    for (const v of r) { // +2
      if (v < 0) break outer; // +3 +1
      if (v === 0) continue outer; // +3 +1
    }
  }
}

// cognitive: ternary 4
function ternary(a, b) {
  const x = a ? 1 : 2; // +1
  if (b) { // +1
    return a ? x : 0; // +2
  }
  return x;
}

// cognitive: fact 2 params 1
function fact(n) {
  if (n <= 1) return 1; // +1
  return n * fact(n - 1); // recursion +1
}

// cognitive: withCallbacks 2
const withCallbacks = (xs) => {
  return xs.map((x) => { // nesting +1
    if (x) { // +2
      return 1;
    }
    return 0;
  });
};

// cognitive: braceless 3
function braceless(xs) {
  let count = 0;
  for (const x of xs) // +1
    if (x) count++; // +2
  return count;
}

class A {
  // cognitive: method 1 params 3
  method(a, { b, c }, ...rest) {
    const o = { k: 1, m: [1, 2] };
    if (a) { return 1; } // +1
    return 0;
  }
}

// cognitive: ignored 1
function ignored(a, b) {
  const x = a ?? b; // null-coalescing: 0
  const y = a?.b?.c; // optional chaining: 0
  try {
    go(x, y);
  } finally { // finally: 0
    stop();
  }
  for (;;) { // +1
    break; // a plain break: 0
  }
}

// cognitive: loopKinds 6 nesting 2
function loopKinds(o, xs) {
  for (const k in o) { // +1
    for (let i = 0; i < xs.length; i++) { // +2
      continue; // 0
    }
  }
  function inner(v) { // a nested function: nesting +1
    return v ? 1 : 2; // +2
  }
  return inner(o) || xs; // +1
}
