#include <stdio.h>
#include "calc.h"

static void report(const char *what, int v)
{
	printf("%s: %d\n", what, v);
}

int main(int argc, char **argv)
{
	int xs[] = {3, -1, 4, -1, 5};
	(void)argv;

	report("clamp", clamp(-7, 0, 10));
	report("clamp", clamp(7, 0, 10));
	report("sum", sum_positive(xs, 5));
	if (argc > 1) {
		report("args", argc);
		return 1;
	}
	return 0;
}
