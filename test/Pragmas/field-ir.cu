// A data expression may read integer fields of a struct parameter passed by
// value: each field is a 'param INDEX.OFFSET' line of its own, at its byte
// offset in the parameter's storage (docs/spec-format.md).
// RUN: %host_cuda -fplugin=%plugin -S -emit-llvm -o - %s | FileCheck %s

#include <cstdint>

struct Dims {
  int rows;
  int64_t cols;
};
#pragma klaraptor data(R = d.rows, C = d.cols) block(bx, by) \
    grid(ceildiv(C, bx), ceildiv(R, by))
__global__ void fill(float *out, Dims d, float v) {}
// CHECK-DAG: c"klaraptor v1\0Akernel fill\0Aloc {{.*}}field-ir.cu:[[#@LINE-3]]:9\0Aparam 1 d.rows i32\0Aparam 1.8 d.cols i64\0Adata R $1\0Adata C $1.8\0Ablock bx by\0Agrid ceildiv(C, bx)\0Agrid ceildiv(R, by)\0Agrid 1\0Acandidates pow2\0A\00"

// Nested structs, an anonymous union member, a packed struct, a field read
// twice and a plain parameter beside them; the param lines are in order of
// position and offset.
struct Extent {
  short pad;
  struct {
    unsigned short x, y;
  } size;
  union {
    uint32_t depth;
    float unused;
  };
};
struct __attribute__((packed)) Packed {
  char tag;
  int n;
};
#pragma klaraptor data(X = e.size.y, D = e.depth, N = p.n + e.size.y, K = k) \
    block(bx) grid(ceildiv(X * D + N + K, bx))
__global__ void nested(Extent e, float *out, Packed p, unsigned char k) {}
// CHECK-DAG: c"klaraptor v1\0Akernel nested\0Aloc {{.*}}field-ir.cu:[[#@LINE-3]]:9\0Aparam 0.4 e.size.y u16\0Aparam 0.8 e.depth u32\0Aparam 2.1 p.n i32\0Aparam 3 k u8\0Adata X $0.4\0Adata D $0.8\0Adata N ($2.1 + $0.4)\0Adata K $3\0A

// The field of a kernel template's parameter whose type depends on the
// template: each specialization has its own offsets.
template <typename T> struct Sized {
  T first;
  int n;
};
#pragma klaraptor data(N = s.n) block(bx) grid(ceildiv(N, bx))
template <typename T> __global__ void generic(Sized<T> s) {}
// CHECK-DAG: c"klaraptor v1\0Akernel generic<char>\0Aloc {{.*}}field-ir.cu:[[#@LINE-2]]:9\0Aparam 0.4 s.n i32\0A
// CHECK-DAG: c"klaraptor v1\0Akernel generic<double>\0Aloc {{.*}}field-ir.cu:[[#@LINE-3]]:9\0Aparam 0.8 s.n i32\0A

void launch() {
  generic<<<1, 32>>>(Sized<char>{});
  generic<<<1, 32>>>(Sized<double>{});
}
