// Hand-scored fixture (docs/analyze.md).
interface Shape { area?: number; name: string }

// cognitive: branches 3 params 2 nesting 1
export function branches(a: number, b?: string): number {
  if (a > 0) { // +1
    return 1;
  } else if (b ?? false) { // +1
    return 2;
  } else { // +1
    return 3;
  }
}

// cognitive: loops 9 nesting 3
function loops<T>(xs: Array<T>): void {
  for (const x of xs) { // +1
    while (xs.length > 0) { // +2
      do { // +3
        xs.pop();
      } while (xs.length > 5);
    }
  }
  try {
    go();
  } catch (e: unknown) { // +1
    if (e) { // +2
      throw e;
    }
  }
}

// cognitive: logic 3
function logic(a: boolean, b: boolean, c: boolean, d: boolean): boolean {
  const y = f(a || b); // +1
  return a && b && c || d; // +1 +1
}

// cognitive: ternary 4
function ternary(a?: Shape, b?: boolean): number {
  const x = a?.area ? 1 : 2; // +1
  if (b) { // +1
    return a ? x : 0; // +2
  }
  return x;
}

// cognitive: fact 2 params 1
function fact(n: number): number {
  if (n <= 1) return 1; // +1
  return n * fact(n - 1); // +1
}

class Store<T> {
  private items: T[] = [];
  // cognitive: find 5 params 1
  find(pred: (t: T) => boolean): T | undefined {
    for (const it of this.items) { // +1
      if (pred(it)) { // +2
        return it;
      }
    }
    switch (this.items.length) { // +1
      case 0:
        return undefined;
    }
    return this.items.length > 0 ? this.items[0] : undefined; // +1
  }
}

// cognitive: arrow 2
export const arrow = async (xs: number[]): Promise<number> => {
  return xs.filter((x) => { // nesting +1
    if (x) { // +2
      return true;
    }
    return false;
  }).length;
};
