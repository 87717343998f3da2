// Rule: keywords as names: members, object and type keys, optional keys.
interface Opts { if?: string; for: number; catch(): void }
// cognitive: members 0
function members(o: Opts, p: Promise<number>): number {
  p.catch(() => 0);
  const k = { if: o.if, for: o.for, catch: 1 };
  return k.for;
}
// cognitive: foreachIsAName 0
function foreachIsAName(xs: number[]) {
  foreach(xs); goto(1); elseif(2); except(3);
}
