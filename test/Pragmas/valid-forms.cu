// Every clause, in any order, over continuation lines and in macros, is
// accepted without a diagnostic; '#pragma klaraptor' is a known pragma once
// the plugin is loaded.
// RUN: %host_cuda -fplugin=%plugin -fsyntax-only -Wall -Wunknown-pragmas -Xclang -verify %s
// Without the plugin the same file warns about an unknown pragma.
// RUN: %host_cuda -fsyntax-only -Wunknown-pragmas %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: warning: unknown pragma ignored
// expected-no-diagnostics

#pragma klaraptor data(N = n) block(bx) grid(N)
__global__ void k1(int n) {}
#pragma klaraptor grid(N) block(bx) data(N = n)
__global__ void k2(int n) {}
#pragma klaraptor block(bx) grid(N) data(N = n)
__global__ void k3(int n) {}
#pragma klaraptor where(bx <= N) candidates(warp) grid(N) data(N = n) block(bx)
__global__ void k4(int n) {}
#pragma klaraptor candidates(64, 128) data(N = n) where(bx >= 64) block(bx) grid(N)
__global__ void k5(int n) {}

// The dynamic shared memory, anywhere among the clauses.
#pragma klaraptor data(N = n) block(bx) shared(4 * bx + 16) grid(ceildiv(N, bx))
__global__ void k5s(int n) {}
#pragma klaraptor shared(1024) data(N = n) block(bx) grid(ceildiv(N, bx))
__global__ void k5t(int n) {}

// Data parameters over several kernel parameters.
#pragma klaraptor data(R = rows, C = cols, E = rows * cols) \
                  block(bx, by) \
                  where(bx * by <= 1024, by == 1 || bx == 32, !(E < 0)) \
                  grid(ceildiv(C, bx), ceildiv(R, by), 1)
__global__ void k6(float *m, int rows, int cols) {}

// Three free dimensions and a 3-D grid; every operator and function.
#pragma klaraptor data(X = nx, Y = ny, Z = nz) block(bx, by, bz) \
  where(bx * by * bz >= 32 && bx * by * bz <= 1024, bz <= 64, bx % 32 == 0, \
        X - 1 > -1, Y / 2 != 0, Z >= 1, X < 0x7fffffff + 1) \
  grid(ceildiv(X, bx), max(ceildiv(Y, by), 1, 2), min(Z / bz + (Z % bz != 0), 65535)) \
  candidates((8, 8, 4), (32, 4, 2), (64, 2, 1))
__global__ void k7(float *u, int nx, int ny, int nz) {}
