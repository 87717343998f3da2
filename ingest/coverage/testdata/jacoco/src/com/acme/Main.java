package com.acme;

import com.acme.shop.Cart;
import com.acme.util.Money;

public class Main {
    public static void main(String[] args) {
        Cart c = new Cart();
        c.add(1999);
        c.add(5);
        try {
            c.add(-1);
        } catch (IllegalArgumentException e) {
            System.out.println("rejected: " + e.getMessage());
        }
        System.out.println(c.describe());
        System.out.println(c.discounted(10));
        c.freeze();
        System.out.println(Money.parse("12.34"));
        if (args.length > 0) {
            System.out.println("args given");
        }
    }
}
