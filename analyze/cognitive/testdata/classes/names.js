// Rule: a keyword used as a name (member after . or ?., object key,
// JSX attribute) is not control flow.
// cognitive: promises 0
function promises(p, o) {
  p.then(f).catch(g).finally(h);
  o?.if(); o?.for;
  const x = {catch: 1, if: 2, for: 3, while: 4, switch: 5};
  return o.if + o.for + o.while + o.switch + o.do;
}
// cognitive: realCatch 1
function realCatch() {
  try { run(); } catch (e) { log(e); } // +1 catch
}
