#include "axpy.h"
bool unitA(int n) { return runAxpy<float>(n, 2.0f, 256); }
