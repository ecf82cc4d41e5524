// Diagnostics point at the offending token: exact line and column, also on
// continuation lines, and at the 'klaraptor' token for the whole pragma.
// The order of the lines depends on when the parser hands declarations
// over, so it is not checked.
// RUN: not %host_cuda -fplugin=%plugin -fsyntax-only -fno-caret-diagnostics %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: --implicit-check-not=note:

// CHECK-DAG: diagnostic-locations.cu:[[#@LINE+1]]:33: error: expected '=' after data parameter 'N'
#pragma klaraptor data(M = m, N n) block(bx) grid(N)
__global__ void k1(int m, int n) {}

// CHECK-DAG: diagnostic-locations.cu:[[#@LINE+1]]:28: error: unknown kernel parameter 'q' in 'data(...)'
#pragma klaraptor data(N = q) block(bx) grid(N)
__global__ void k2(int n) {}

// CHECK-DAG: diagnostic-locations.cu:[[#@LINE+3]]:15: error: expected 'bx', 'by' or 'bz' in 'block(...)'
#pragma klaraptor data(N = n) \
  where(bx <= N) \
    block(bx, bw) grid(N)
__global__ void k3(int n) {}

// CHECK-DAG: diagnostic-locations.cu:[[#@LINE+2]]:11: error: unknown name 'Q' in 'where(...)'
#pragma klaraptor data(N = n) block(bx) \
    where(Q >= bx) grid(N)
__global__ void k4(int n) {}

// CHECK-DAG: diagnostic-locations.cu:[[#@LINE+1]]:9: error: '#pragma klaraptor' expects 'grid(...)' clause
#pragma klaraptor data(N = n) \
    block(bx)
__global__ void k5(int n) {}

// The end of the pragma is just past its last token.
// CHECK-DAG: diagnostic-locations.cu:[[#@LINE+2]]:53: error: expected ')'
// CHECK-DAG: diagnostic-locations.cu:[[#@LINE+1]]:45: note: to match this '('
#pragma klaraptor data(N = n) block(bx) grid((N + 1)
__global__ void k6(int n) {}

// CHECK-DAG: diagnostic-locations.cu:[[#@LINE+1]]:15: error: '#pragma klaraptor' must be followed by a '__global__' function
  #  pragma   klaraptor data(N = n) block(bx) grid(N)
void host(int n) {}

// CHECK-DAG: diagnostic-locations.cu:[[#@LINE+1]]:9: error: '#pragma klaraptor' must be followed by a '__global__' function
#pragma klaraptor data(N = n) block(bx) grid(N)
