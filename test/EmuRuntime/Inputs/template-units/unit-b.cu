#include "axpy.h"
#include <cstdio>
#include <cstdlib>
bool unitA(int n);
int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 5000;
  bool A = unitA(n), B = runAxpy<float>(n, 3.0f, 128),
       D = runAxpy<double>(n, 0.5, 512);
  std::printf("unit a %s, unit b %s, double %s\n", A ? "ok" : "FAILED",
              B ? "ok" : "FAILED", D ? "ok" : "FAILED");
  return A && B && D ? 0 : 1;
}
