<?php

declare(strict_types=1);

use Acme\Shop\Cart;
use Acme\Shop\Money;
use PHPUnit\Framework\TestCase;

final class CartTest extends TestCase
{
    public function testAddAndDescribe(): void
    {
        $c = (new Cart())->add(1999)->add(5);
        $this->assertSame('2 items, 20.04', $c->describe());
        $this->assertSame(1804, $c->discounted(10));
    }

    public function testNegativePrice(): void
    {
        $this->expectException(InvalidArgumentException::class);
        (new Cart())->add(-1);
    }

    public function testParse(): void
    {
        $this->assertSame(1234, Money::parse('12.34'));
    }
}
