// copy-kernels.cu - launches whose memory traffic is known by hand, for the
// KLARAPTOR_EMU_REPORT test. Buffers come from cudaMalloc (256-byte aligned).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void copy(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

// Lane k reads in[32 k]: 32 different sectors per warp.
__global__ void strided(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * 32];
}

__global__ void saxpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, 4096 * 32 * sizeof(float));
  cudaMalloc(&b, 4096 * 32 * sizeof(float));
  cudaMemset(a, 0, 4096 * 32 * sizeof(float));
  cudaMemset(b, 0, 4096 * 32 * sizeof(float));
  copy<<<32, 128>>>(b, a, 4096);
  strided<<<4, 256>>>(b, a, 1024);
  saxpy<<<4, 256>>>(b, a, 2.0f, 1000);
  copy<<<dim3(2, 2), dim3(32, 4), 512>>>(b, a, 512);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
