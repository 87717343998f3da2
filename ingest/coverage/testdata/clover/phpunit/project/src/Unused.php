<?php

declare(strict_types=1);

namespace Acme\Shop;

/** Never used by the tests. */
final class Unused
{
    public static function diff(int $a, int $b): int
    {
        if ($a > $b) {
            return $a - $b;
        }

        return $b - $a;
    }
}
