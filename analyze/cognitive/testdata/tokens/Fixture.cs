// Hand-scored fixture (docs/analyze.md).
using System;
using System.Collections.Generic;

namespace Fixtures
{
    public class Fixture
    {
        public string Name { get; set; }

        // cognitive: Branches 3 params 2 nesting 1
        public int Branches(int a, int b)
        {
            if (a > b) // +1
            {
                return 1;
            }
            else if (a < b) // +1
            {
                return 2;
            }
            else // +1
            {
                return 3;
            }
        }

        // cognitive: Loops 12 nesting 3
        public void Loops(List<int> xs)
        {
            foreach (var x in xs) // +1
            {
                var y = x;
                while (y > 0) // +2
                {
                    do // +3
                    {
                        y--;
                    } while (y > 5);
                }
            }
            try
            {
                Run();
            }
            catch (InvalidOperationException e) when (e != null) // +1
            {
                if (xs.Count > 0) // +2
                {
                    throw;
                }
            }
            switch (xs.Count) // +1
            {
                case 0:
                    goto default; // +1
                default:
                    break;
            }
            var n = xs.Count > 1 ? 1 : 0; // +1
        }

        // cognitive: Logic 3
        bool Logic(bool a, bool b, bool c, bool d)
        {
            var y = F(a || b); // +1
            return a && b && c || d; // +1 +1
        }

        // cognitive: Fact 2 params 1
        static int Fact(int n)
        {
            if (n <= 1) return 1; // +1
            return n * Fact(n - 1); // +1
        }

        // cognitive: Lambdas 2
        IEnumerable<int> Lambdas(List<int> xs)
        {
            return xs.FindAll(x =>
            {
                if (x > 0) // +2
                {
                    return true;
                }
                return false;
            });
        }

        // cognitive: More 6 params 1 nesting 2
        int More(List<int> xs)
        {
            int Twice(int v) => v > 0 ? 2 * v : 0; // a local function (nesting +1): ?: +2
            var n = xs?.Count ?? 0; // null-conditional and null-coalescing: 0
            for (var i = 0; i < n; i++) // +1
            {
                if (xs[i] < 0) continue; // +2
            }
            return Twice(n) + (n > 1 ? 1 : 0); // +1
        }

        // cognitive: Grade 3 params 1 nesting 1
        static string Grade(int s) => s switch // +1
        {
            > 90 => "A",
            _ => s < 0 ? "?" : "C", // +2 (nesting 1)
        };
    }
}
