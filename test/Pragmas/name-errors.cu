// Names in a pragma are resolved against its kernel: kernel parameters in
// data(...), data parameters and bx, by, bz in where(...) and grid(...).
// RUN: %host_cuda -fplugin=%plugin -fsyntax-only -ferror-limit=0 -Xclang -verify %s

#include <cstddef>

// expected-error@+1 {{unknown kernel parameter 'm' in 'data(...)'}}
#pragma klaraptor data(N = m) block(bx) grid(N)
__global__ void k1(int n) {}

// Data expressions see kernel parameters only, not other data parameters
// or block dimensions.
// expected-error@+2 {{unknown kernel parameter 'N' in 'data(...)'}}
// expected-error@+1 {{unknown kernel parameter 'bx' in 'data(...)'}}
#pragma klaraptor data(N = n, M = N * 2, B = bx) block(bx) grid(N)
__global__ void k2(int n) {}

// Every bad name is reported, not just the first.
// expected-error@+3 {{unknown name 'Q' in 'where(...)'; expected a data parameter or 'bx', 'by', 'bz'}}
// expected-error@+2 {{unknown name 'P' in 'grid(...)'}}
// expected-error@+1 {{unknown name 'R' in 'grid(...)'}}
#pragma klaraptor data(N = n) block(bx) where(bx <= Q) grid(ceildiv(P, bx), R)
__global__ void k3(int n) {}

// Kernel parameters must go through data(...).
// expected-error@+1 {{kernel parameter 'n' cannot be used in 'grid(...)'; give it a name in 'data(...)'}}
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(n, bx))
__global__ void k4(int n) {}

// expected-error@+1 {{kernel parameter 'm' cannot be used in 'where(...)'}}
#pragma klaraptor data(N = n) block(bx) where(bx <= m) grid(N)
__global__ void k5(int n, int m) {}

// A data parameter may share its kernel parameter's name.
#pragma klaraptor data(n = n) block(bx) where(bx <= n) grid(ceildiv(n, bx))
__global__ void k6(int n) {}

// A block dimension that is not free is 1 and may still be named.
#pragma klaraptor data(N = n) block(bx) where(by == 1) grid(N / (bx * by * bz))
__global__ void k7(int n) {}

// Only integer kernel parameters give data.
// expected-error@+1 {{kernel parameter 'x' of type 'float' is not an integer}}
#pragma klaraptor data(N = x) block(bx) grid(N)
__global__ void k8(float x) {}

// expected-error@+1 {{kernel parameter 'p' of type 'int *' is not an integer}}
#pragma klaraptor data(N = p) block(bx) grid(N)
__global__ void k9(int *p) {}

// expected-error@+1 {{kernel parameter 'b' of type 'bool' is not an integer}}
#pragma klaraptor data(N = b) block(bx) grid(N)
__global__ void k10(bool b) {}

enum Size { Small = 1, Large = 2 };
// expected-error@+1 {{kernel parameter 's' of type 'Size' is not an integer}}
#pragma klaraptor data(N = s) block(bx) grid(N)
__global__ void k11(Size s) {}

typedef double real;
// expected-error@+1 {{kernel parameter 'r' of type 'real' (aka 'double') is not an integer}}
#pragma klaraptor data(N = r) block(bx) grid(N)
__global__ void k12(real r) {}

// expected-error@+1 {{kernel parameter 'w' of type '__int128' is wider than 64 bits}}
#pragma klaraptor data(N = w) block(bx) grid(N)
__global__ void k13(__int128 w) {}

// Typedefs of integer types and qualifiers are fine.
typedef unsigned long long index_t;
#pragma klaraptor data(N = n, M = m, S = s, C = c) block(bx) grid(N + M + S + C)
__global__ void k14(size_t n, const index_t m, const short s, char c) {}

// Unnamed parameters cannot be named.
// expected-error@+1 {{unknown kernel parameter 'n' in 'data(...)'}}
#pragma klaraptor data(N = n) block(bx) grid(N)
__global__ void k15(int) {}

// shared(...) sees data parameters and bx, by, bz, as grid(...) does.
// expected-error@+2 {{unknown name 'T' in 'shared(...)'; expected a data parameter or 'bx', 'by', 'bz'}}
// expected-error@+1 {{kernel parameter 'n' cannot be used in 'shared(...)'; give it a name in 'data(...)'}}
#pragma klaraptor data(N = n) block(bx) grid(N) shared(T * bx + n)
__global__ void k8(int n) {}
