// Hand-scored fixture (docs/analyze.md).
package fixtures;

import java.util.List;

public class Fixture {
    private String s = "/* not a comment */";

    // cognitive: branches 3 params 2 nesting 1
    public int branches(int a, int b) {
        if (a > b) { // +1
            return 1;
        } else if (a < b) { // +1
            return 2;
        } else { // +1
            return 3;
        }
    }

    // cognitive: loops 10 nesting 3
    void loops(List<Integer> xs) throws Exception {
        for (int x : xs) { // +1
            while (x > 0) { // +2
                do { // +3
                    x--;
                } while (x > 5);
            }
        }
        try {
            run();
        } catch (IllegalStateException | IllegalArgumentException e) { // +1
            if (e != null) { // +2
                throw e;
            }
        } finally {
            close();
        }
        switch (xs.size()) { // +1
            case 0:
                break;
            default:
                return;
        }
    }

    // cognitive: logic 3
    boolean logic(boolean a, boolean b, boolean c, boolean d) {
        boolean y = f(a || b); // +1
        return a && b && c || d; // +1 +1
    }

    // cognitive: labels 11
    void labels(int[][] rows) {
        outer:
        for (int[] r : rows) { // +1
            for (int v : r) { // +2
                if (v < 0) break outer; // +3 +1
                if (v == 0) continue outer; // +3 +1
            }
        }
    }

    // cognitive: fact 3 params 1
    static int fact(int n) {
        if (n <= 1) return 1; // +1
        return n > 2 ? n * fact(n - 1) : n; // +1 ternary, +1 recursion
    }

    // cognitive: lambdas 2
    List<Integer> lambdas(List<Integer> xs) {
        return xs.stream().filter(x -> {
            if (x > 0) { // +2 (lambda nesting)
                return true;
            }
            return false;
        }).toList();
    }

    // cognitive: more 10 params 2 nesting 2
    int more(int[] xs, String s) {
        int n = 0;
        for (int i = 0; i < xs.length; i++) { // +1
            if (xs[i] < 0) continue; // +2 (a plain continue: 0)
            n += switch (xs[i]) { // +2 (a switch expression, nesting 1)
                case 0 -> 1;
                default -> s == null ? 0 : 2; // +3 (nesting 2)
            };
        }
        return n + (int) java.util.stream.IntStream.of(xs).map(x -> x > 0 ? 1 : 0).sum(); // a lambda (nesting +1): ?: +2
    }
}
