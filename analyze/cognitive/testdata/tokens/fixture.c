/* Hand-scored fixture (docs/analyze.md). */
#include <stdio.h>

struct point { int x, y; };

/* cognitive: branches 3 params 2 nesting 1 */
int branches(int a, int b)
{
    if (a > b) { /* +1 */
        return 1;
    } else if (a < b) { /* +1 */
        return 2;
    } else { /* +1 */
        return 3;
    }
}

/* cognitive: loops 13 nesting 3 */
static void loops(int *xs, int n)
{
    for (int i = 0; i < n; i++) { /* +1 */
        while (xs[i] > 0) { /* +2 */
            do { /* +3 */
                xs[i]--;
            } while (xs[i] > 5);
        }
    }
    switch (n) { /* +1 */
    case 0:
        break;
    default:
        if (n > 3) /* +2 */
            goto done; /* +1 */
    }
    n = n > 0 ? n : -n; /* +1 */
    if (n && xs) /* +1, && +1 */
        return;
done:
    return;
}

/* cognitive: fact 2 params 1 */
unsigned long fact(unsigned n)
{
    if (n <= 1) return 1; /* +1 */
    return n * fact(n - 1); /* +1 */
}

/* cognitive: logic 3 params 0 */
int logic(void)
{
    int a = 1, b = 0, c = 1, d = 0;
    int y = f(a || b); /* +1 */
    return a && b && c || d; /* +1 +1 */
}

/* cognitive: nested 10 nesting 4 */
int nested(int a, int b, int c, int d)
{
    if (a) /* +1 */
        if (b) /* +2 */
            if (c) /* +3 */
                if (d) /* +4 */
                    return 1;
    return 0;
}

/* cognitive: plain 3 params 1 nesting 2 */
int plain(int n)
{
    for (;;) { /* +1 */
        if (n-- < 0) /* +2 */
            break; /* a plain break: 0 */
        continue; /* 0 */
    }
    return n;
}
