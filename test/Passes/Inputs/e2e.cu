// Kernels and launches for test/Passes/io-builder-e2e.test: the host code is
// compiled with the IO-builder and linked with Inputs/e2e-harness.cpp, which
// fakes the CUDA runtime and the klaraptor hooks.
#include <cuda.h>

#define KLARAPTOR(spec) __attribute__((annotate(spec)))

__global__ void KLARAPTOR("klaraptor v1\nkernel saxpy\nloc e2e.cu:8:9\n"
                          "param 3 n i32\ndata N $3\nblock bx\n"
                          "grid ceildiv(N, bx)\ncandidates pow2\n")
saxpy(float *y, const float *x, float a, int n) {}

__global__ void KLARAPTOR("klaraptor v1\nkernel transpose\nloc e2e.cu:13:9\n"
                          "param 2 rows i32\nparam 3 cols i32\n"
                          "data R $2\ndata C $3\nblock bx by\n"
                          "grid ceildiv(C, bx)\ngrid ceildiv(R, by)\n"
                          "candidates pow2\n")
transpose(float *out, const float *in, int rows, int cols) {}

__global__ void KLARAPTOR("klaraptor v1\nkernel ratio\nloc e2e.cu:20:9\n"
                          "param 0 a i64\nparam 1 b i32\n"
                          "data Q ($0 / $1)\ndata S ceildiv($0, 256)\n"
                          "block bx\ngrid ceildiv(Q, bx)\ncandidates warp\n")
ratio(long a, int b) {}

struct Big {
  int a;
  double b;
  char c[20];
};

__global__ void KLARAPTOR("klaraptor v1\nkernel after_struct\n"
                          "loc e2e.cu:31:9\nparam 1 m i64\nparam 2 n u16\n"
                          "data M $1\ndata N $2\nblock bx\n"
                          "grid ceildiv((M * N), bx)\ncandidates pow2\n")
after_struct(Big s, long m, unsigned short n) {}

__global__ void plain(int *p) {}

extern "C" {
void run_saxpy(int n, unsigned grid, unsigned block) {
  saxpy<<<grid, block>>>(nullptr, nullptr, 2.0f, n);
}
void run_transpose(int rows, int cols) {
  transpose<<<dim3((cols + 15) / 16, (rows + 15) / 16), dim3(16, 16), 64,
              (cudaStream_t)0x5>>>(nullptr, nullptr, rows, cols);
}
void run_ratio(long a, int b) { ratio<<<7, 96>>>(a, b); }
void run_struct(long m, unsigned short n) {
  Big s = {1, 2.0, "x"};
  after_struct<<<2, 64>>>(s, m, n);
}
void run_plain() { plain<<<3, 32>>>(nullptr); }
void run_template(int n) {
  int *p = nullptr;
  float a = 1.0f;
  void *args[] = {&p, &p, &a, &n};
  cudaLaunchKernel(saxpy, dim3(9), dim3(64), args, 0, nullptr);
}
const void *saxpy_handle() { return (const void *)saxpy; }
void run_pointer(const void *kernel, void **args) {
  cudaLaunchKernel(kernel, dim3(5, 6, 7), dim3(8, 4, 2), args, 32, nullptr);
}
CUresult run_driver(CUfunction f, void **params) {
  return cuLaunchKernel(f, 10, 11, 12, 13, 14, 15, 16, (CUstream)0x9, params,
                        nullptr);
}
}
