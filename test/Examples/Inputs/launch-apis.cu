// launch-apis.cu - one annotated kernel launched through every API the
// IO-builder hooks: <<<>>>, cudaLaunchKernel (C and C++ template forms) and
// cuLaunchKernel. Run against the recording stand-in for libcudart, in which a
// CUfunction is the kernel's host handle.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

#pragma klaraptor data(E = rows * cols) block(bx) grid(ceildiv(E, bx))
__global__ void fill(float *p, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols)
    p[i] = 1.0f;
}

// Not annotated: its launches must stay exactly as written.
__global__ void plain(float *p, int n) {}

int main() {
  float *p = nullptr;
  cudaMalloc(&p, 4096 * sizeof(float));
  int rows = 30, cols = 40; // E = 1200
  fill<<<10, 128>>>(p, rows, cols);
  void *args[] = {&p, &rows, &cols};
  rows = 50; // E = 2000
  cudaLaunchKernel((const void *)fill, dim3(16), dim3(128), args, 0, 0);
  rows = 60; // E = 2400
  cudaLaunchKernel(fill, dim3(19), dim3(128), args, 0, 0); // C++ template
  rows = 70; // E = 2800
  cuLaunchKernel((CUfunction)(void *)fill, 22, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr);
  int n = 77;
  plain<<<3, 96>>>(p, n);
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
