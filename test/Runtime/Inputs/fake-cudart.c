/*===- fake-cudart.c - a minimal libcudart stand-in for the runtime's tests -===*
 *
 * \file
 * Defines the CUDA runtime functions libklaraptor_rt looks up with dlsym,
 * with the CUDA 13 structure layouts, so the tests can check the lookup, the
 * device query and the error hygiene without a GPU. Environment:
 *   FAKE_CUDART_NO_DEVICE=1   cudaGetDevice fails (cudaErrorNoDevice)
 *   FAKE_CUDART_FUNC_MAX=N    cudaFuncGetAttributes reports N threads per
 *                             block; unset: it fails with
 *                             cudaErrorInvalidDeviceFunction
 *   FAKE_CUDART_VERSION=V     what cudaRuntimeGetVersion reports
 *===------------------------------------------------------------------------===*/
#include <cuda_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cudaError_t LastError = cudaSuccess;

static cudaError_t fail(cudaError_t E) {
  LastError = E;
  return E;
}

cudaError_t cudaGetDevice(int *Device) {
  const char *No = getenv("FAKE_CUDART_NO_DEVICE");
  if (No && *No == '1')
    return fail(cudaErrorNoDevice);
  *Device = 0;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *P, int Device) {
  if (Device != 0)
    return fail(cudaErrorInvalidDevice);
  memset(P, 0, sizeof(*P));
  snprintf(P->name, sizeof(P->name), "fake cudart device");
  P->major = 8;
  P->minor = 9;
  P->multiProcessorCount = 24;
  P->maxThreadsPerBlock = 512;
  P->maxThreadsDim[0] = 512;
  P->maxThreadsDim[1] = 512;
  P->maxThreadsDim[2] = 64;
  P->maxGridSize[0] = 2147483647;
  P->maxGridSize[1] = 65535;
  P->maxGridSize[2] = 65535;
  P->warpSize = 32;
  P->maxThreadsPerMultiProcessor = 1536;
  P->maxBlocksPerMultiProcessor = 24;
  P->regsPerMultiprocessor = 65536;
  P->regsPerBlock = 65536;
  P->sharedMemPerMultiprocessor = 102400;
  P->sharedMemPerBlock = 49152;
  return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *A,
                                  const void *Func) {
  const char *Max = getenv("FAKE_CUDART_FUNC_MAX");
  if (!Func || !Max)
    return fail(cudaErrorInvalidDeviceFunction);
  memset(A, 0, sizeof(*A));
  A->maxThreadsPerBlock = atoi(Max);
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *V) {
  const char *Env = getenv("FAKE_CUDART_VERSION");
  *V = Env ? atoi(Env) : CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *V, enum cudaDeviceAttr Attr, int D) {
  (void)D;
  switch (Attr) {
  case cudaDevAttrMaxThreadsPerBlock: *V = 128; break;
  case cudaDevAttrMaxBlockDimX: *V = 128; break;
  case cudaDevAttrMaxBlockDimY: *V = 128; break;
  case cudaDevAttrMaxBlockDimZ: *V = 64; break;
  case cudaDevAttrMaxGridDimX: *V = 2147483647; break;
  case cudaDevAttrMaxGridDimY: *V = 65535; break;
  case cudaDevAttrMaxGridDimZ: *V = 65535; break;
  case cudaDevAttrWarpSize: *V = 32; break;
  default: *V = 1; break;
  }
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void) {
  cudaError_t E = LastError;
  LastError = cudaSuccess;
  return E;
}

cudaError_t cudaPeekAtLastError(void) { return LastError; }

const char *cudaGetErrorString(cudaError_t E) {
  switch (E) {
  case cudaErrorNoDevice: return "no CUDA-capable device is detected";
  case cudaErrorInvalidDeviceFunction: return "invalid device function";
  default: return "unknown error";
  }
}
