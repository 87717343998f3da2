<?php
// Hand-scored fixture (docs/analyze.md).

# cognitive: branches 3 params 2 nesting 1
function branches($a, $b)
{
    if ($a > $b) { // +1
        return 1;
    } elseif ($a < $b) { // +1
        return 2;
    } else { // +1
        return 3;
    }
}

# cognitive: loops 13 nesting 3
function loops(array $xs)
{
    foreach ($xs as $x) { // +1
        while ($x > 0) { // +2
            do { // +3
                $x--;
            } while ($x > 5);
        }
    }
    try {
        run();
    } catch (Exception $e) { // +1
        if ($e) { // +2
            throw $e;
        }
    }
    for ($i = 0; $i < 3; $i++) { // +1
        if ($i == 2) { // +2
            break 1; // +1 (a numbered break, like a label)
        }
    }
}

class Fixture
{
    // cognitive: logic 4
    public function logic($a, $b, $c, $d)
    {
        $y = f($a || $b); // +1
        $z = $a and $b; // +1
        return $a && $b && $c || $d; // +1 +1
    }

    // cognitive: fact 3 params 1
    public function fact($n)
    {
        if ($n <= 1) return 1; // +1
        return $n > 2 ? $n * $this->fact($n - 1) : $n; // +1 ternary, +1 recursion
    }

    // cognitive: closures 2
    public function closures($xs)
    {
        return array_filter($xs, function ($x) { // nesting +1
            if ($x) { // +2
                return true;
            }
            return false;
        });
    }

    // cognitive: more 10 params 1 nesting 3
    public function more($xs)
    {
        $f = fn($x) => $x > 0 ? 1 : 0; // an arrow function (nesting +1): ?: +2
        foreach ($xs as $k => $v) { // +1
            foreach ($v as $w) { // +2
                if ($w === null) continue 2; // +3, continue 2 +1
            }
        }
        $y = $xs['a'] ?? null; // 0
        return match (true) { // +1
            $y > 1 => 'big',
            default => 'small',
        };
    }

    // cognitive: sw 3 params 1 nesting 2
    public function sw($x)
    {
        switch ($x) { // +1
            case 1:
                if ($x) { // +2
                    return 1;
                }
                break;
        }
        return 0;
    }
}
