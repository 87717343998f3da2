// Rule: type-level syntax is not code: conditional types, aliases, interfaces, constraints, annotations.
type IsString<T> = T extends string ? true : false;
export type Handler = (event: Event) => void;
type Deep<T> =
  T extends (infer U)[]
    ? Deep<U>
    : T extends object ? { [K in keyof T]: Deep<T[K]> } : T;
interface Shape { area(): number; kind?: "a" | "b"; pick: T extends U ? X : Y }
// cognitive: constrained 1
function constrained<T extends keyof Shape ? string : never>(x: T, y?: number): T extends string ? 1 : 2 {
  const z: IsString<T> extends true ? number : string = y ? 1 : "a"; // +1: the value's ?: only
  return z as any;
}
