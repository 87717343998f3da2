#include <stdio.h>
#define X(a) \
  a // c \
  b
int main(void) { /* x */ return 0; }
// end \
continued
