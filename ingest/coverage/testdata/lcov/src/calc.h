#ifndef CALC_H
#define CALC_H

int clamp(int v, int lo, int hi);
int sum_positive(const int *xs, int n);
int parse_digit(char c);

#endif
