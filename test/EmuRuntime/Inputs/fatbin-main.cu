// fatbin-main.cu - one kernel, its attributes and one checked launch; the
// fatbin-formats test builds it with differently made fatbins.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void saxpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, saxpy);
  std::printf("attributes: %s\n", cudaGetErrorName(e));
  if (e != cudaSuccess)
    return 1;
  std::printf("saxpy: numRegs %d, ptx %d, binary %d\n", a.numRegs, a.ptxVersion,
              a.binaryVersion);
  const int n = 1000;
  float hx[n], hy[n], out[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = float(i);
    hy[i] = 1.0f;
  }
  float *x, *y;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hy);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
  saxpy<<<4, 256>>>(y, x, 2.0f, n);
  cudaMemcpy(out, y, sizeof out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += out[i] != 2.0f * hx[i] + 1.0f;
  std::printf("saxpy: %s\n", bad ? "FAILED" : "ok");
  return 0;
}
