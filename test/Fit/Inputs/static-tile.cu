// A kernel that is correct only for blocks of at most 128 threads (its
// shared tile has 128 floats), under a pragma that admits up to 1024: the
// profile's larger shapes fault (out-of-bounds shared stores), and the fit
// must keep the rational program from choosing them.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
__global__ void doubled(float *out, const float *in, int n) {
  __shared__ float tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = 2.0f * tile[threadIdx.x];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  float *out = nullptr, *in = nullptr;
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&in, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  doubled<<<(n + 127) / 128, 128>>>(out, in, n);
  cudaError_t E = cudaDeviceSynchronize();
  std::printf("doubled N=%d: %s\n", n, cudaGetErrorString(E));
  return E != cudaSuccess;
}
