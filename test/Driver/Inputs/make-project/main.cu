// main.cu - calls the kernel in saxpy.cu on a few elements.
#include <cstdio>
#include <cuda_runtime.h>

cudaError_t runSaxpy(float *y, const float *x, float a, int n);

int main() {
  const int n = 1000;
  float *x = nullptr, *y = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&y, n * sizeof(float)) != cudaSuccess) {
    std::printf("no CUDA device\n");
    return 0;
  }
  cudaError_t Err = runSaxpy(y, x, 2.0f, n);
  std::printf("saxpy: %s\n", cudaGetErrorString(Err));
  cudaFree(x);
  cudaFree(y);
  return Err == cudaSuccess ? 0 : 1;
}
