// candidates(...) is pow2, warp, or a list of block shapes, one positive
// integer per free block dimension.
// RUN: %host_cuda -fplugin=%plugin -fsyntax-only -ferror-limit=0 -Xclang -verify %s

// Valid forms.
#pragma klaraptor data(N = n) block(bx) grid(N) candidates(pow2)
__global__ void ok1(int n) {}
#pragma klaraptor data(N = n) block(bx, by) grid(N) candidates(warp)
__global__ void ok2(int n) {}
#pragma klaraptor data(N = n) block(bx) grid(N) candidates(32, 0x40, (128), 256u)
__global__ void ok3(int n) {}
#pragma klaraptor data(N = n) block(bx, bz) grid(N) candidates((32, 2), (64, 1))
__global__ void ok4(int n) {}

// expected-error@+1 {{expected 'pow2', 'warp' or a list of block shapes in 'candidates(...)'}}
#pragma klaraptor data(N = n) block(bx) grid(N) candidates()
__global__ void k1(int n) {}

// expected-error@+1 {{expected 'pow2', 'warp' or a list of block shapes in 'candidates(...)'}}
#pragma klaraptor data(N = n) block(bx) grid(N) candidates(all)
__global__ void k2(int n) {}

// expected-error@+2 {{expected ')'}}
// expected-note@+1 {{to match this '('}}
#pragma klaraptor data(N = n) block(bx) grid(N) candidates(pow2, 64)
__global__ void k3(int n) {}

// expected-error@+1 {{expected a positive integer literal in 'candidates(...)'}}
#pragma klaraptor data(N = n) block(bx) grid(N) candidates(64, 0, 128)
__global__ void k4(int n) {}

// expected-error@+1 {{expected a positive integer literal in 'candidates(...)'}}
#pragma klaraptor data(N = n) block(bx) grid(N) candidates(-64)
__global__ void k5(int n) {}

// expected-error@+1 {{expected a positive integer literal in 'candidates(...)'}}
#pragma klaraptor data(N = n) block(bx) grid(N) candidates(64.0)
__global__ void k6(int n) {}

// expected-error@+1 {{expected a positive integer literal in 'candidates(...)'}}
#pragma klaraptor data(N = n) block(bx) grid(N) candidates(64, N)
__global__ void k7(int n) {}

// expected-error@+2 {{expected ',' or ')' in 'candidates(...)'}}
// expected-note@+1 {{to match this '('}}
#pragma klaraptor data(N = n) block(bx) grid(N) candidates(32 * 2)
__global__ void k8(int n) {}

// expected-error@+1 {{candidate block dimension '4294967296' is too large}}
#pragma klaraptor data(N = n) block(bx) grid(N) candidates(4294967296)
__global__ void k9(int n) {}

// One value per free dimension, whatever the clause order.
// expected-error@+1 {{candidate shape has 2 dimensions but 'block(...)' has 1 free dimension}}
#pragma klaraptor data(N = n) candidates(64, (32, 2)) block(bx) grid(N)
__global__ void k10(int n) {}

// expected-error@+2 {{candidate shape has 1 dimension but 'block(...)' has 2 free dimensions}}
// expected-error@+1 {{candidate shape has 3 dimensions but 'block(...)' has 2 free dimensions}}
#pragma klaraptor data(N = n) block(bx, by) grid(N) candidates(64, (32, 2), (8, 8, 4))
__global__ void k11(int n) {}

// expected-error@+1 {{candidate shape (16, 16) is listed more than once}}
#pragma klaraptor data(N = n) block(bx, by) grid(N) candidates((16, 16), (32, 8), (16, 16))
__global__ void k12(int n) {}

// expected-error@+1 {{candidate shape 64 is listed more than once}}
#pragma klaraptor data(N = n) block(bx) grid(N) candidates(64, 128, (64))
__global__ void k13(int n) {}

// expected-error@+2 {{expected ')'}}
// expected-note@+1 {{to match this '('}}
#pragma klaraptor data(N = n) block(bx, by) grid(N) candidates((16, 16), (32, 8)
__global__ void k14(int n) {}
