// saxpy.cu - the annotated kernel and its launcher.
#include <cuda_runtime.h>

#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
__global__ void saxpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

cudaError_t runSaxpy(float *y, const float *x, float a, int n) {
  const int threads = 256;
  saxpy<<<(n + threads - 1) / threads, threads>>>(y, x, a, n);
  return cudaGetLastError();
}
