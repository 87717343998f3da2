<?php

declare(strict_types=1);

namespace Acme\Shop;

/** A shopping cart; some paths are exercised by the tests, some are not. */
final class Cart
{
    /** @var list<int> */
    private array $prices = [];
    private bool $frozen = false;

    public function add(int $cents): self
    {
        if ($this->frozen) {
            throw new \LogicException('cart is frozen');
        }
        if ($cents < 0) {
            throw new \InvalidArgumentException('negative price');
        }
        $this->prices[] = $cents;

        return $this;
    }

    public function total(): int
    {
        return array_sum($this->prices);
    }

    public function describe(): string
    {
        return count($this->prices) . ' items, ' . Money::format($this->total());
    }

    public function freeze(): void
    {
        $this->frozen = true;
    }

    public function discounted(int $percent): int
    {
        $t = $this->total();
        if ($percent <= 0 || $percent > 100) {
            return $t;
        }

        return $t - intdiv($t * $percent, 100);
    }

    public function clear(): void
    {
        $this->prices = [];
        $this->frozen = false;
    }
}
