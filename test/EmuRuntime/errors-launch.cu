// Launch configurations the device cannot run fail as on a GPU, with
// CUDA's error codes and messages, and cudaGetLastError reports and clears
// them.
// RUN: %klaraptor-clangxx --klaraptor-emulate %s -o %t
// RUN: %t 2>&1 | FileCheck %s
#include <cuda_runtime.h>
#include <cstdio>

__global__ void touch(float *p) { p[threadIdx.x] = 1.0f; }

static void report(const char *what) {
  cudaError_t e = cudaGetLastError();
  std::printf("%s: %s (%d): %s\n", what, cudaGetErrorName(e), int(e), cudaGetErrorString(e));
}

int main() {
  float *p = nullptr;
  cudaMalloc(&p, 4096 * sizeof(float));

  touch<<<1, 2048>>>(p);
  report("2048 threads");
  // CHECK: 2048 threads: cudaErrorInvalidConfiguration (9): invalid configuration argument
  report("again");
  // CHECK-NEXT: again: cudaSuccess (0): no error

  touch<<<1, dim3(32, 2, 65)>>>(p);
  report("block z 65");
  // CHECK-NEXT: block z 65: cudaErrorInvalidConfiguration (9): invalid configuration argument
  touch<<<dim3(1, 65536), 32>>>(p);
  report("grid y 65536");
  // CHECK-NEXT: grid y 65536: cudaErrorInvalidConfiguration (9): invalid configuration argument
  touch<<<0, 32>>>(p);
  report("empty grid");
  // CHECK-NEXT: empty grid: cudaErrorInvalidConfiguration (9): invalid configuration argument

  // Dynamic shared memory beyond the 48 KB default needs an opt-in.
  touch<<<1, 32, 64 * 1024>>>(p);
  report("64 KB dynamic shared");
  // CHECK: 64 KB dynamic shared: cudaErrorInvalidValue (1): invalid argument
  cudaFuncSetAttribute(touch, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  report("opt in to 64 KB");
  // CHECK-NEXT: opt in to 64 KB: cudaSuccess (0): no error
  touch<<<1, 32, 64 * 1024>>>(p);
  report("64 KB dynamic shared after opt-in");
  // CHECK-NEXT: 64 KB dynamic shared after opt-in: cudaSuccess (0): no error
  cudaFuncSetAttribute(touch, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024);
  report("opt in to 300 KB");
  // CHECK-NEXT: opt in to 300 KB: cudaErrorInvalidValue (1): invalid argument

  // A pointer that is no kernel.
  void *args[] = {&p};
  cudaLaunchKernel(reinterpret_cast<const void *>(&report), dim3(1), dim3(1), args, 0, 0);
  report("not a kernel");
  // CHECK-NEXT: not a kernel: cudaErrorInvalidDeviceFunction (98): invalid device function

  touch<<<1, 256>>>(p);
  report("valid launch");
  // CHECK-NEXT: valid launch: cudaSuccess (0): no error
  std::printf("peek: %s\n", cudaGetErrorName(cudaPeekAtLastError()));
  // CHECK-NEXT: peek: cudaSuccess

  std::printf("%s / %s\n", cudaGetErrorName(cudaError_t(12345)), cudaGetErrorString(cudaError_t(12345)));
  // CHECK-NEXT: unrecognized error code / unrecognized error code
  std::printf("%s: %s\n", cudaGetErrorName(cudaErrorLaunchFailure), cudaGetErrorString(cudaErrorLaunchFailure));
  // CHECK-NEXT: cudaErrorLaunchFailure: unspecified launch failure
  std::printf("%s\n", cudaGetErrorString(cudaErrorNoKernelImageForDevice));
  // CHECK-NEXT: no kernel image is available for execution on the device
  return 0;
}
