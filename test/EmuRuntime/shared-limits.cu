// The pragma's shared(...) against the kernel's dynamic shared memory limit:
// with 40000 bytes of static shared memory a kernel may have 49152 - 40000 =
// 9152 bytes of dynamic memory on the H100 profile, so at 64 bytes per thread
// the largest candidate is 128 threads (8192 bytes) and a model asking for
// 1024 gets the closest admissible shape; after cudaFuncSetAttribute raises
// the limit to 180000 bytes, 1024 threads (65536 bytes) are admissible. Each
// launch gets the bytes of its block and runs without an error.
// RUN: %klaraptor-clangxx --klaraptor-emulate -O2 %s %S/../Inputs/models/TargetShapeModel.c -I%rt_include -o %t
// RUN: env KLARAPTOR_TEST_MODEL_KERNELS=k KLARAPTOR_TEST_MODEL_BLOCK=1024,1,1 KLARAPTOR_LOG=%t.default.json %t | FileCheck --check-prefix=OUT %s
// RUN: env KLARAPTOR_TEST_MODEL_KERNELS=k KLARAPTOR_TEST_MODEL_BLOCK=1024,1,1 KLARAPTOR_LOG=%t.optin.json %t optin | FileCheck --check-prefix=OUT %s
// RUN: %python -c "import json; d = json.loads(open('%t.default.json').readline()); print(d['block'], d['shared_mem'], d['candidates'])" | FileCheck --check-prefix=DEFAULT %s
// RUN: %python -c "import json; d = json.loads(open('%t.optin.json').readline()); print(d['block'], d['shared_mem'], d['candidates'])" | FileCheck --check-prefix=OPTIN %s
// OUT: result ok, no error
// DEFAULT: [128, 1, 1] 8192 3
// OPTIN: [1024, 1, 1] 65536 6
#include <cuda_runtime.h>
#include <cstdio>

#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx)) shared(64 * bx)
__global__ void k(float *out, int n) {
  __shared__ float fixed[10000]; // 40000 bytes
  extern __shared__ float dyn[]; // 16 floats per thread
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  fixed[threadIdx.x] = 1.0f;
  dyn[threadIdx.x * 16 + 15] = 2.0f;
  __syncthreads();
  if (i < n)
    out[i] = fixed[threadIdx.x] + dyn[threadIdx.x * 16 + 15];
}

int main(int argc, char **argv) {
  const int n = 4096;
  float *out = nullptr;
  cudaMalloc(&out, n * sizeof(float));
  if (argc > 1)
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         180000);
  k<<<n / 64, 64, 64 * 64>>>(out, n);
  cudaError_t E = cudaDeviceSynchronize();
  float h[n];
  cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
  int Bad = 0;
  for (int I = 0; I < n; ++I)
    Bad += h[I] != 3.0f;
  std::printf("result %s, %s\n", Bad ? "WRONG" : "ok", cudaGetErrorString(E));
  return Bad != 0 || E != cudaSuccess;
}
