<?php

declare(strict_types=1);

namespace Acme\Shop;

final class Money
{
    public static function format(int $cents): string
    {
        $sign = $cents < 0 ? '-' : '';
        $abs = abs($cents);

        return $sign . intdiv($abs, 100) . '.' . self::pad($abs % 100);
    }

    private static function pad(int $v): string
    {
        if ($v < 10) {
            return '0' . $v;
        }

        return (string) $v;
    }

    public static function parse(string $s): int
    {
        $dot = strpos($s, '.');
        if ($dot === false) {
            return (int) $s * 100;
        }

        return (int) substr($s, 0, $dot) * 100
            + (int) substr($s, $dot + 1);
    }
}
