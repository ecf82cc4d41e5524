// The layouts of CUDA's cudaLaunchConfig_t (driver_types.h) and
// CUlaunchConfig (cuda.h) on the host target, which the IO-builder's images
// of them (passes/IOBuilder.cpp, launchConfigTy) must match for
// cudaLaunchKernelExC and cuLaunchKernelEx launches (io-builder-launch-ex.ll):
// 56 bytes each, the members in this order.
//
// RUN: %clang_c -std=c11 -I%cuda_path/include %s -o %t
// RUN: %t | FileCheck %s
#include <cuda.h>
#include <driver_types.h>

#include <stddef.h>
#include <stdio.h>

#define FIELD(T, F) printf(#T "." #F " %zu %zu\n", offsetof(T, F), sizeof(((T *)0)->F))

int main(void) {
  // CHECK: cudaLaunchConfig_t 56
  printf("cudaLaunchConfig_t %zu\n", sizeof(cudaLaunchConfig_t));
  // CHECK-NEXT: cudaLaunchConfig_t.gridDim 0 12
  FIELD(cudaLaunchConfig_t, gridDim);
  // CHECK-NEXT: cudaLaunchConfig_t.blockDim 12 12
  FIELD(cudaLaunchConfig_t, blockDim);
  // CHECK-NEXT: cudaLaunchConfig_t.dynamicSmemBytes 24 8
  FIELD(cudaLaunchConfig_t, dynamicSmemBytes);
  // CHECK-NEXT: cudaLaunchConfig_t.stream 32 8
  FIELD(cudaLaunchConfig_t, stream);
  // CHECK-NEXT: cudaLaunchConfig_t.attrs 40 8
  FIELD(cudaLaunchConfig_t, attrs);
  // CHECK-NEXT: cudaLaunchConfig_t.numAttrs 48 4
  FIELD(cudaLaunchConfig_t, numAttrs);
  // CHECK-NEXT: CUlaunchConfig 56
  printf("CUlaunchConfig %zu\n", sizeof(CUlaunchConfig));
  // CHECK-NEXT: CUlaunchConfig.gridDimX 0 4
  FIELD(CUlaunchConfig, gridDimX);
  // CHECK-NEXT: CUlaunchConfig.gridDimZ 8 4
  FIELD(CUlaunchConfig, gridDimZ);
  // CHECK-NEXT: CUlaunchConfig.blockDimX 12 4
  FIELD(CUlaunchConfig, blockDimX);
  // CHECK-NEXT: CUlaunchConfig.blockDimZ 20 4
  FIELD(CUlaunchConfig, blockDimZ);
  // CHECK-NEXT: CUlaunchConfig.sharedMemBytes 24 4
  FIELD(CUlaunchConfig, sharedMemBytes);
  // CHECK-NEXT: CUlaunchConfig.hStream 32 8
  FIELD(CUlaunchConfig, hStream);
  // CHECK-NEXT: CUlaunchConfig.attrs 40 8
  FIELD(CUlaunchConfig, attrs);
  // CHECK-NEXT: CUlaunchConfig.numAttrs 48 4
  FIELD(CUlaunchConfig, numAttrs);
  return 0;
}
