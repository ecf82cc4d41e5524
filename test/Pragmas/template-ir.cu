// A kernel template's pragma annotates each of its specializations with a
// spec of its own: named with the template arguments, with the
// specialization's parameter types (docs/pragmas.md, "Kernel templates").
// RUN: %host_cuda -fplugin=%plugin -S -emit-llvm -o %t.ll %s
// RUN: FileCheck %s < %t.ll
// Each specialization's stub carries exactly one annotation.
// RUN: grep -c 'kernel ns::axpy<float>\\0A' %t.ll | FileCheck --check-prefix=ONCE %s
// RUN: grep -c 'kernel ns::axpy<double>\\0A' %t.ll | FileCheck --check-prefix=ONCE %s
// ONCE: 1

#include <cstdint>

namespace ns {
// Implicit instantiations, used by launches below.
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <typename T>
__global__ void axpy(T *y, const T *x, T a, int n) {}
} // namespace ns

// CHECK-DAG: c"klaraptor v1\0Akernel ns::axpy<float>\0Aloc {{.*}}template-ir.cu:[[#@LINE-5]]:9\0Aparam 3 n i32\0Adata N $3\0Ablock bx\0Agrid ceildiv(N, bx)\0Agrid 1\0Agrid 1\0Acandidates pow2\0A\00"
// CHECK-DAG: c"klaraptor v1\0Akernel ns::axpy<double>\0Aloc {{.*}}template-ir.cu:[[#@LINE-6]]:9\0Aparam 3 n i32\0A

// The data parameter's type is a template parameter: each specialization
// has its own.
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <typename I>
__global__ void fill(float *p, I n) {}
// CHECK-DAG: c"klaraptor v1\0Akernel fill<long>\0Aloc {{.*}}template-ir.cu:[[#@LINE-3]]:9\0Aparam 1 n i64\0A
// CHECK-DAG: c"klaraptor v1\0Akernel fill<unsigned short>\0Aloc {{.*}}template-ir.cu:[[#@LINE-4]]:9\0Aparam 1 n u16\0A

// A non-type template argument; an explicit instantiation definition.
#pragma klaraptor data(N = n) block(bx, by) grid(ceildiv(N, bx), ceildiv(N, by))
template <int Radius>
__global__ void blur(float *out, const float *in, int n) {}
template __global__ void blur<3>(float *, const float *, int);
// CHECK-DAG: c"klaraptor v1\0Akernel blur<3>\0Aloc {{.*}}template-ir.cu:[[#@LINE-4]]:9\0Aparam 2 n i32\0Adata N $2\0Ablock bx by\0A

// An explicit specialization without a pragma of its own takes the
// template's (the parameter names are the template's: by position); one
// with a pragma of its own keeps it.
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <typename T>
__global__ void scale(T *p, int n) {}
template <> __global__ void scale<int>(int *q, int count) {}
#pragma klaraptor data(M = m) block(bx) grid(ceildiv(M, 2 * bx))
template <> __global__ void scale<char>(char *p, int m) {}
// CHECK-DAG: c"klaraptor v1\0Akernel scale<int>\0Aloc {{.*}}template-ir.cu:[[#@LINE-6]]:9\0Aparam 1 n i32\0Adata N $1\0A
// CHECK-DAG: c"klaraptor v1\0Akernel scale<char>\0Aloc {{.*}}template-ir.cu:[[#@LINE-3]]:9\0Aparam 1 m i32\0Adata M $1\0Ablock bx\0Agrid ceildiv(M, (2 * bx))\0A

// A parameter pack after the data parameters.
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <typename... Args>
__global__ void variadic(int n, Args... args) {}
// CHECK-DAG: c"klaraptor v1\0Akernel variadic<float *, int>\0Aloc {{.*}}template-ir.cu:[[#@LINE-3]]:9\0Aparam 0 n i32\0A

void launch(float *f, double *d, int *i, char *c) {
  ns::axpy<<<1, 256>>>(f, f, 2.0f, 10);
  ns::axpy<double><<<1, 256>>>(d, d, 2.0, 10);
  ns::axpy<<<1, 128>>>(f, f, 3.0f, 20); // the same specialization again
  fill<<<1, 64>>>(f, 10L);
  fill<<<1, 64>>>(f, (unsigned short)10);
  scale<<<1, 32>>>(i, 5);
  scale<<<1, 32>>>(c, 5);
  variadic<<<1, 32>>>(7, f, 3);
}

// Every annotated stub is a specialization's.
// CHECK: @llvm.global.annotations = appending global
