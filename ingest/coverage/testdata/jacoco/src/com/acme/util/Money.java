package com.acme.util;

public final class Money {
    private Money() {
    }

    public static String format(long cents) {
        String sign = cents < 0 ? "-" : "";
        long abs = Math.abs(cents);
        return sign + (abs / 100) + "." + pad(abs % 100);
    }

    private static String pad(long v) {
        if (v < 10) {
            return "0" + v;
        }
        return Long.toString(v);
    }

    public static long parse(String s) {
        int dot = s.indexOf('.');
        if (dot < 0) {
            return Long.parseLong(s) * 100;
        }
        return Long.parseLong(s.substring(0, dot)) * 100
            + Long.parseLong(s.substring(dot + 1));
    }
}
