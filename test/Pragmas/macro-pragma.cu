// A `_Pragma("klaraptor ...")` that a macro expands right in front of the
// kernel the same macro defines annotates that kernel (issue 16: it went to
// the next one, KERN(a1) left a1 bare and gave a2 its pragma, and a plain
// kernel after them got one too).
// RUN: %host_cuda -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
#define ONE _Pragma("klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))")
#define TWO _Pragma("klaraptor data(N = n) block(bx) grid(ceildiv(N + 1, bx))")
#define KERN(name, P)                                                        \
  P __global__ void name(float *x, int n) {                                  \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                           \
    if (i < n)                                                               \
      x[i] = 1;                                                              \
  }
KERN(a1, ONE) KERN(a2, TWO)
__global__ void plain(float *x, int n) {}

// CHECK-DAG: c"klaraptor v1\0Akernel a1\0A{{[^"]*}}grid ceildiv(N, bx)\0A
// CHECK-DAG: c"klaraptor v1\0Akernel a2\0A{{[^"]*}}grid ceildiv((N + 1), bx)\0A
// CHECK-NOT: kernel plain
