// In plain C++ there are no '__global__' functions, so a pragma is always an
// error there.
// RUN: %clangxx -fplugin=%plugin -fsyntax-only -Xclang -verify %s
// Where nothing is compiled (-dM, -M) pragmas are not checked.
// RUN: %clangxx -fplugin=%plugin -E -dM %s 2>&1 | FileCheck %s --check-prefix=DM --implicit-check-not=error:
// RUN: %clangxx -fplugin=%plugin -M %s 2>&1 | FileCheck %s --check-prefix=DEPS --implicit-check-not=error:
// DM: #define __cplusplus
// DEPS: non-cuda.o: {{.*}}non-cuda.cpp

// expected-error@+1 {{'#pragma klaraptor' must be followed by a '__global__' function}}
#pragma klaraptor data(N = n) block(bx) grid(N)
void kernel(int n) {}

// Syntax is still checked.
// expected-error@+1 {{expected '=' after data parameter 'N'}}
#pragma klaraptor data(N : n) block(bx) grid(N)
void other(int n) {}
