#include "calc.h"

/* clamp: main never passes a value above hi, so that branch is not taken. */
int clamp(int v, int lo, int hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}

int sum_positive(const int *xs, int n)
{
	int total = 0;
	for (int i = 0; i < n; i++) {
		if (xs[i] > 0)
			total += xs[i];
	}
	return total;
}

/* parse_digit is never called. */
int parse_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	return -1;
}
