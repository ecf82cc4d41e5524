// A kernel that fails while running (here: __trap()) does not fail its
// launch call, as on a GPU; the next synchronizing call reports
// cudaErrorLaunchFailure, the error sticks to every call that touches the
// device, and stderr says once what happened. cudaDeviceReset clears it.
// RUN: %klaraptor-clangxx --klaraptor-emulate %s -o %t
// RUN: %t > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=ERR %s < %t.err
#include <cuda_runtime.h>
#include <cassert>
#include <cstdio>

__global__ void trapping(int *p) {
  if (threadIdx.x == 5)
    __trap();
  p[threadIdx.x] = 1;
}

// A failed device-side assert is cudaErrorAssert.
__global__ void asserting(const int *p) { assert(p[threadIdx.x] == 0); }

#define SHOW(call) std::printf("%s -> %s\n", #call, cudaGetErrorName(call))

int main() {
  int *p = nullptr;
  cudaMalloc(&p, 64 * sizeof(int));
  trapping<<<1, 32>>>(p);
  std::printf("launch returned\n");
  // CHECK: launch returned
  SHOW(cudaDeviceSynchronize());
  // CHECK-NEXT: cudaDeviceSynchronize() -> cudaErrorLaunchFailure
  SHOW(cudaGetLastError());
  // CHECK-NEXT: cudaGetLastError() -> cudaErrorLaunchFailure
  SHOW(cudaGetLastError());
  // CHECK-NEXT: cudaGetLastError() -> cudaErrorLaunchFailure
  int h = 0;
  SHOW(cudaMemcpy(&h, p, sizeof h, cudaMemcpyDeviceToHost));
  // CHECK-NEXT: -> cudaErrorLaunchFailure
  void *q = nullptr;
  SHOW(cudaMalloc(&q, 16));
  // CHECK-NEXT: cudaMalloc(&q, 16) -> cudaErrorLaunchFailure
  trapping<<<1, 4>>>(p);
  SHOW(cudaPeekAtLastError());
  // CHECK-NEXT: cudaPeekAtLastError() -> cudaErrorLaunchFailure
  SHOW(cudaDeviceReset());
  // CHECK-NEXT: cudaDeviceReset() -> cudaSuccess
  SHOW(cudaMalloc(&q, 16));
  // CHECK-NEXT: cudaMalloc(&q, 16) -> cudaSuccess
  SHOW(cudaGetLastError());
  // CHECK-NEXT: cudaGetLastError() -> cudaSuccess
  cudaMemset(q, 1, 16);
  asserting<<<1, 4>>>(static_cast<int *>(q));
  SHOW(cudaDeviceSynchronize());
  // CHECK-NEXT: cudaDeviceSynchronize() -> cudaErrorAssert
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  // CHECK-NEXT: device-side assert triggered
  return 0;
}
// ERR: klaraptor emulator: error: kernel '_Z8trappingPi' failed: {{.+}}; CUDA calls now return cudaErrorLaunchFailure
// ERR-NEXT: klaraptor emulator: error: kernel '_Z9assertingPKi' failed: {{.*}}assert{{.*}}; CUDA calls now return cudaErrorAssert
// ERR-NOT: klaraptor emulator
