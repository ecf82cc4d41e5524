// internal.cu - kernels and variables with internal linkage, which clang
// (the host side) and nvcc (the device side) name differently: a `static`
// kernel and kernels in an anonymous namespace, annotated and not, a static
// `__constant__` the host writes and an anonymous namespace's `__device__`
// variable the host reads (test/Profile/internal-kernels.test).
//
//   internal N [N ...]
//
// For each N: y = factor * x + one, factor = 2 written by
// cudaMemcpyToSymbol, by the three kernels in turn; every element is checked,
// and `one` read back.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

static __constant__ float factor;

#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
static __global__ void twice(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = factor * x[i];
}

namespace {
__device__ float one = 1.0f;

#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
__global__ void plus_one(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += one;
}

// Not annotated: launched as written.
__global__ void copy(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i];
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s N [N ...]\n", argv[0]);
    return 2;
  }
  const float Two = 2.0f;
  float One = 0.0f;
  cudaError_t ToSymbol = cudaMemcpyToSymbol(factor, &Two, sizeof Two);
  cudaError_t FromSymbol = cudaMemcpyFromSymbol(&One, one, sizeof One);
  std::printf("internal: symbols %s, %s; one = %g\n",
              cudaGetErrorString(ToSymbol), cudaGetErrorString(FromSymbol),
              One);
  bool Ok = ToSymbol == cudaSuccess && FromSymbol == cudaSuccess && One == 1;
  for (int A = 1; A < argc; ++A) {
    int n = std::atoi(argv[A]);
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i)
      h[i] = float(i % 100);
    float *x, *y, *z;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&z, n * sizeof(float));
    cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    twice<<<(n + 255) / 256, 256>>>(y, x, n);
    cudaError_t E1 = cudaGetLastError();
    plus_one<<<(n + 127) / 128, 128>>>(y, n);
    cudaError_t E2 = cudaGetLastError();
    copy<<<(n + 63) / 64, 64>>>(z, y, n);
    cudaError_t E3 = cudaGetLastError();
    std::vector<float> out(n);
    cudaMemcpy(out.data(), z, n * sizeof(float), cudaMemcpyDeviceToHost);
    int Bad = 0;
    for (int i = 0; i < n; ++i)
      Bad += out[i] != 2 * float(i % 100) + 1;
    std::printf("internal N=%d: launches %s, %s, %s; %s\n", n,
                cudaGetErrorString(E1), cudaGetErrorString(E2),
                cudaGetErrorString(E3), Bad ? "FAILED" : "ok");
    Ok = Ok && !Bad && E1 == cudaSuccess && E2 == cudaSuccess &&
         E3 == cudaSuccess;
    cudaFree(x);
    cudaFree(y);
    cudaFree(z);
  }
  return Ok ? 0 : 1;
}
