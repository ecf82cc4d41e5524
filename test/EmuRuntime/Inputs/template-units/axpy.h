// A kernel template in a header, instantiated by two translation units
// (test/EmuRuntime/template-two-units.test).
#pragma once
#include <cuda_runtime.h>

#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <typename T>
__global__ void axpy(T *y, const T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

/// y = a * x + y on n elements in a launch of \p threads per block; whether
/// every element is right.
template <typename T> bool runAxpy(int n, T a, int threads) {
  T *x, *y;
  cudaMalloc(&x, n * sizeof(T));
  cudaMalloc(&y, n * sizeof(T));
  T *h = new T[n];
  for (int i = 0; i < n; ++i)
    h[i] = T(i % 10);
  cudaMemcpy(x, h, n * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(y, h, n * sizeof(T), cudaMemcpyHostToDevice);
  axpy<<<(n + threads - 1) / threads, threads>>>(y, x, a, n);
  bool Ok = cudaMemcpy(h, y, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess;
  for (int i = 0; i < n && Ok; ++i)
    Ok = h[i] == T(i % 10) * a + T(i % 10);
  delete[] h;
  cudaFree(x);
  cudaFree(y);
  return Ok;
}
