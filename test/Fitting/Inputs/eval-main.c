/* Evaluates the emitted klaraptor_fit_y at the points on the command line
   (NARGS values each) and prints "%.17g" per point, as `klaraptor fit-table
   --eval` does. Compiled with -DNARGS=1, 2 or 3, and -DREAL for double
   arguments. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef REAL
typedef double arg_t;
#define PARSE(s) strtod((s), NULL)
#else
typedef int64_t arg_t;
#define PARSE(s) strtoll((s), NULL, 10)
#endif

#if NARGS == 1
double klaraptor_fit_y(arg_t);
#define CALL(a) klaraptor_fit_y(a[0])
#elif NARGS == 2
double klaraptor_fit_y(arg_t, arg_t);
#define CALL(a) klaraptor_fit_y(a[0], a[1])
#else
double klaraptor_fit_y(arg_t, arg_t, arg_t);
#define CALL(a) klaraptor_fit_y(a[0], a[1], a[2])
#endif

int main(int argc, char **argv) {
  int i, k;
  for (i = 1; i + NARGS - 1 < argc; i += NARGS) {
    arg_t a[NARGS];
    double v;
    for (k = 0; k < NARGS; ++k)
      a[k] = PARSE(argv[i + k]);
    v = CALL(a);
    if (isnan(v))
      printf("nan\n");
    else
      printf("%.17g\n", v);
  }
  return 0;
}
