// CUDA calls outside the emulated subset exist (the program links and
// runs), say once which call is missing, and fail with
// cudaErrorNotSupported / CUDA_ERROR_NOT_SUPPORTED.
// RUN: %klaraptor-clangxx --klaraptor-emulate %s -o %t
// RUN: %t > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck --check-prefix=ERR --implicit-check-not=cudaGraphCreate %s < %t.err
// The library exports every function of libcudart.so.13 and libcuda that
// returns an error code, under libcudart's version node.
// RUN: nm -D --defined-only %klaraptor_lib/libklaraptor_emu_cudart.so | FileCheck --check-prefix=EXPORTS %s
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

int main() {
  cudaGraph_t g;
  cudaError_t e = cudaGraphCreate(&g, 0);
  std::printf("cudaGraphCreate: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  // CHECK: cudaGraphCreate: cudaErrorNotSupported: operation not supported
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  // CHECK-NEXT: last error: cudaErrorNotSupported
  e = cudaGraphCreate(&g, 0);
  std::printf("again: %s\n", cudaGetErrorName(e));
  // CHECK-NEXT: again: cudaErrorNotSupported
  cudaTextureObject_t tex;
  e = cudaCreateTextureObject(&tex, nullptr, nullptr, nullptr);
  std::printf("cudaCreateTextureObject: %s\n", cudaGetErrorName(e));
  // CHECK-NEXT: cudaCreateTextureObject: cudaErrorNotSupported
  e = cudaDeviceEnablePeerAccess(1, 0);
  std::printf("cudaDeviceEnablePeerAccess: %s\n", cudaGetErrorName(e));
  // CHECK-NEXT: cudaDeviceEnablePeerAccess: cudaErrorNotSupported
  cudaGetLastError();
  cuInit(0);
  CUlibrary lib;
  CUresult r = cuLibraryLoadData(&lib, "", nullptr, nullptr, 0, nullptr, nullptr, 0);
  const char *s = nullptr;
  cuGetErrorName(r, &s);
  std::printf("cuLibraryLoadData: %s\n", s);
  // CHECK-NEXT: cuLibraryLoadData: CUDA_ERROR_NOT_SUPPORTED
  std::printf("runtime last error untouched by the driver call: %s\n",
              cudaGetErrorName(cudaGetLastError()));
  // CHECK-NEXT: runtime last error untouched by the driver call: cudaSuccess
  return 0;
}
// ERR: klaraptor emulator: 'cudaGraphCreate' is not supported
// ERR-NEXT: klaraptor emulator: 'cudaCreateTextureObject' is not supported
// ERR-NEXT: klaraptor emulator: 'cudaDeviceEnablePeerAccess' is not supported
// ERR-NEXT: klaraptor emulator: 'cuLibraryLoadData' is not supported

// EXPORTS-DAG: T cudaGraphLaunch@@libcudart.so.13
// EXPORTS-DAG: T cudaLaunchCooperativeKernel@@libcudart.so.13
// EXPORTS-DAG: T cudaMalloc@@libcudart.so.13
// EXPORTS-DAG: T cudaMemcpy_ptds@@libcudart.so.13
// EXPORTS-DAG: T cuCtxCreate_v4@@libcudart.so.13
// EXPORTS-DAG: T cuMemAlloc_v2@@libcudart.so.13
// EXPORTS-DAG: T cuGraphLaunch@@libcudart.so.13
// EXPORTS-DAG: T __cudaRegisterFatBinary@@libcudart.so.13
// EXPORTS-DAG: T klaraptor_emu_set_launch_observer@@libcudart.so.13
// EXPORTS-NOT: klaraptor{{[0-9a-z_]*}}emurt
