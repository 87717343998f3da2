package com.acme.shop;

import com.acme.util.Money;
import java.util.ArrayList;
import java.util.List;

/** A shopping cart; some paths are exercised by Main, some are not. */
public class Cart {
    private final List<Long> prices = new ArrayList<>();
    private boolean frozen;

    public void add(long cents) {
        if (frozen) {
            throw new IllegalStateException("cart is frozen");
        }
        if (cents < 0) {
            throw new IllegalArgumentException("negative price");
        }
        prices.add(cents);
    }

    public long total() {
        long sum = 0;
        for (long p : prices) {
            sum += p;
        }
        return sum;
    }

    public String describe() {
        return prices.size() + " items, " + Money.format(total());
    }

    public void freeze() {
        frozen = true;
    }

    public long discounted(int percent) {
        long t = total();
        if (percent <= 0 || percent > 100) {
            return t;
        }
        return t - t * percent / 100;
    }

    /** Never called. */
    public void clear() {
        prices.clear();
        frozen = false;
    }

    static class Line {
        final String sku;
        Line(String sku) {
            this.sku = sku;
        }
        int size() { return sku.length(); }
    }
}
