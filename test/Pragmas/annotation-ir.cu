// The encoded spec of each annotated kernel lands, verbatim, in
// @llvm.global.annotations on the kernel's host stub (docs/spec-format.md).
// RUN: %host_cuda -fplugin=%plugin -S -emit-llvm -o - %s | FileCheck %s

#include <cstdint>

// One free dimension, the default candidate set, a 1-D grid.
#pragma klaraptor data(N = n) block(bx) where(bx <= N) grid(ceildiv(N, bx))
__global__ void saxpy(float *y, const float *x, float a, int n) {}
// CHECK-DAG: @[[SAXPY:.+]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"klaraptor v1\0Akernel saxpy\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-2]]:9\0Aparam 3 n i32\0Adata N $3\0Ablock bx\0Awhere (bx <= N)\0Agrid ceildiv(N, bx)\0Agrid 1\0Agrid 1\0Acandidates pow2\0A\00", section "llvm.metadata"

// Two data parameters, two free dimensions, several constraints, a 2-D
// grid, clauses out of order and continued over lines, an explicit list of
// (bx, by) shapes.
#pragma klaraptor candidates((32, 8), (16, 16), (64, 4)) \
    grid(ceildiv(C, bx), ceildiv(R, by)) \
    where(bx * by <= 512, bx <= C || C < 32, !(by > R)) \
    block(bx, by) data(R = rows, C = cols)
__global__ void transpose(float *out, const float *in, unsigned rows,
                          unsigned cols) {}
// CHECK-DAG: c"klaraptor v1\0Akernel transpose\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-6]]:9\0Aparam 2 rows u32\0Aparam 3 cols u32\0Adata R $2\0Adata C $3\0Ablock bx by\0Awhere ((bx * by) <= 512)\0Awhere ((bx <= C) || (C < 32))\0Awhere (!(by > R))\0Agrid ceildiv(C, bx)\0Agrid ceildiv(R, by)\0Agrid 1\0Acandidates list 32x8x1 16x16x1 64x4x1\0A\00"

// Three free dimensions, a data parameter computed from two kernel
// parameters, every integer width, hexadecimal and suffixed literals.
#pragma klaraptor data(E = nx * ny, Z = nz + 0x10 - 16u, S = small, B = byte) \
    block(bx, by, bz) where(bz <= 64, bx * by * bz >= 64) \
    grid(ceildiv(E, bx * by), max(1, min(Z / bz, 65535)), (S + B) % 3 + 1) \
    candidates((8, 8, 4), (16, 4, 2))
__global__ void stencil(double *u, int64_t nx, uint64_t ny, long nz,
                        short small, unsigned char byte) {}
// CHECK-DAG: c"klaraptor v1\0Akernel stencil\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-6]]:9\0Aparam 1 nx i64\0Aparam 2 ny u64\0Aparam 3 nz i64\0Aparam 4 small i16\0Aparam 5 byte u8\0Adata E ($1 * $2)\0Adata Z (($3 + 16) - 16)\0Adata S $4\0Adata B $5\0Ablock bx by bz\0Awhere (bz <= 64)\0Awhere (((bx * by) * bz) >= 64)\0Agrid ceildiv(E, (bx * by))\0Agrid max(1, min((Z / bz), 65535))\0Agrid (((S + B) % 3) + 1)\0Acandidates list 8x8x4 16x4x2\0A\00"

// Dynamic shared memory that depends on the block and the data: a line of
// its own after the grid.
#pragma klaraptor data(N = n) block(bx, by) grid(ceildiv(N, bx), 1) \
    shared(4 * (bx + 2) * (by + 2) + min(N, 64))
__global__ void tiled(float *u, int n) {}
// CHECK-DAG: c"klaraptor v1\0Akernel tiled\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-3]]:9\0Aparam 1 n i32\0Adata N $1\0Ablock bx by\0Agrid ceildiv(N, bx)\0Agrid 1\0Agrid 1\0Ashared (((4 * (bx + 2)) * (by + 2)) + min(N, 64))\0Acandidates pow2\0A\00"

// The warp candidate set; a free dimension other than bx; C precedence and
// unary operators.
#pragma klaraptor data(N = n) block(by) candidates(warp) \
    grid(1, -(-N) / by + 2 * 3 - 4 % 3, N == 0 || N != 1 && N >= 2)
__global__ void columns(int n) {}
// CHECK-DAG: c"klaraptor v1\0Akernel columns\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-3]]:9\0Aparam 0 n i32\0Adata N $0\0Ablock by\0Agrid 1\0Agrid ((((-(-N)) / by) + (2 * 3)) - (4 % 3))\0Agrid ((N == 0) || ((N != 1) && (N >= 2)))\0Acandidates warp\0A\00"

// Free dimensions listed out of order: candidate tuples follow the order of
// 'block(...)'.
#pragma klaraptor data(N = n) block(by, bx) grid(N) candidates((2, 64), (4, 32))
__global__ void swapped(int n) {}
// CHECK-DAG: c"klaraptor v1\0Akernel swapped\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-2]]:9\0Aparam 0 n i32\0Adata N $0\0Ablock bx by\0Agrid N\0Agrid 1\0Agrid 1\0Acandidates list 64x2x1 32x4x1\0A\00"

// One free dimension: plain numbers. The pragma is on a declaration; the
// definition below inherits the annotation (once).
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx)) candidates(64, 128, 0x100)
__global__ void declared(int n);
__global__ void declared(int n) {}
// CHECK-DAG: c"klaraptor v1\0Akernel declared\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-3]]:9\0Aparam 0 n i32\0Adata N $0\0Ablock bx\0Agrid ceildiv(N, bx)\0Agrid 1\0Agrid 1\0Acandidates list 64x1x1 128x1x1 256x1x1\0A\00"

// Namespaces and linkage specifications are looked into; the kernel's name
// is qualified.
namespace ns {
inline namespace v1 {
#pragma klaraptor data(N = n) block(bx) grid(N)
__global__ void scale(int n) {}
} // namespace v1
} // namespace ns
// CHECK-DAG: c"klaraptor v1\0Akernel ns::scale\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-4]]:9\0A

// Inside a namespace the definition is parsed before the annotator sees the
// declaration; it gets the annotation all the same.
namespace late {
#pragma klaraptor data(N = n) block(bx) grid(N) candidates(32)
__global__ void declared(int n);
__global__ void declared(int n) {}
} // namespace late
// CHECK-DAG: c"klaraptor v1\0Akernel late::declared\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-4]]:9\0A

#pragma klaraptor data(N = n) block(bx) grid(N)
extern "C" __global__ void c_kernel(int n) {}
// CHECK-DAG: c"klaraptor v1\0Akernel c_kernel\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-2]]:9\0A

extern "C" {
#pragma klaraptor data(N = n) block(bx) grid(N)
__global__ void c_kernel2(int n) {}
}
// CHECK-DAG: c"klaraptor v1\0Akernel c_kernel2\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-3]]:9\0A

// A pragma written with _Pragma in a macro is located at the macro's use.
#define KLARAPTOR_1D \
  _Pragma("klaraptor data(N = len) block(bx) grid(ceildiv(N, bx))")
KLARAPTOR_1D
__global__ void from_macro(int len) {}
// CHECK-DAG: c"klaraptor v1\0Akernel from_macro\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-2]]:1\0Aparam 0 len i32\0Adata N $0\0A

// Macros inside the pragma are expanded.
#define MAX_THREADS 512
#pragma klaraptor data(N = n) block(bx) where(bx <= MAX_THREADS) grid(N)
__global__ void with_macro(int n) {}
// CHECK-DAG: c"klaraptor v1\0Akernel with_macro\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-2]]:9\0Aparam 0 n i32\0Adata N $0\0Ablock bx\0Awhere (bx <= 512)\0A

// Octal and binary literals are read as in C; suffixes are ignored.
#pragma klaraptor data(N = n * 010 + 0b100 + 5ull) block(bx) grid(N)
__global__ void literals(int n) {}
// CHECK-DAG: c"klaraptor v1\0Akernel literals\0Aloc {{.*}}annotation-ir.cu:[[#@LINE-2]]:9\0Aparam 0 n i32\0Adata N ((($0 * 8) + 4) + 5)\0A

// A kernel without a pragma gets no annotation: 13 annotated kernels of 14.
__global__ void plain(int n) {}

// CHECK: @llvm.global.annotations = appending global [14 x { ptr, ptr, ptr, i32, ptr }]
// CHECK-SAME: { ptr @_Z20__device_stub__saxpyPfPKffi, ptr @[[SAXPY]],
// CHECK-SAME: { ptr @_Z23__device_stub__declaredi,
// CHECK-SAME: { ptr @_ZN2ns2v120__device_stub__scaleEi,
// CHECK-SAME: { ptr @_ZN4late23__device_stub__declaredEi,
// CHECK-SAME: { ptr @__device_stub__c_kernel,
