// Every global access is checked against the allocations (cudaMalloc,
// cudaMallocHost, managed, cudaHostRegister), the modules' __device__
// variables and the kernels' own malloc: an access outside them fails the
// launch with cudaErrorIllegalAddress and a message naming the access, the
// lane and the PTX line; the host process goes on (issue 16: it used to read
// host memory or die with SIGSEGV). KLARAPTOR_EMU_CHECK_MEMORY=0 turns the
// check off.
// RUN: %klaraptor-clangxx --klaraptor-emulate -O2 %s -o %t
// RUN: %t ok 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %t past-end 2>&1 | FileCheck %s --check-prefix=END
// RUN: %t far 2>&1 | FileCheck %s --check-prefix=FAR
// RUN: env KLARAPTOR_EMU_CHECK_MEMORY=0 %t ok 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env KLARAPTOR_EMU_CHECK_MEMORY=maybe %t ok 2>&1 | FileCheck %s --check-prefix=BADENV
// OK: in bounds: cudaSuccess
// OK-NEXT: device heap and __device__ variable: cudaSuccess
// OK-NEXT: registered host memory: cudaSuccess
// OK-NEXT: h[63] = 3
// OK-NEXT: klaraptor emulator: error: kernel '_Z3addPili' failed: out-of-bounds global load of 4 bytes at address 0x{{[0-9a-f]+}} (lane 0): not inside any allocation or variable in kernel '_Z3addPili' at PTX line {{[0-9]+}} (block 0,0,0); CUDA calls now return cudaErrorIllegalAddress
// OK-NEXT: unregistered host memory: cudaErrorIllegalAddress
// END: out-of-bounds global load of 4 bytes at address 0x{{[0-9a-f]+}} (lane 31): not inside any allocation or variable in kernel '_Z3addPili' at PTX line {{[0-9]+}} (block 0,0,0)
// END-NEXT: past-end: cudaErrorIllegalAddress
// END-NEXT: the process goes on
// FAR: out-of-bounds global load of 4 bytes at address 0x{{[0-9a-f]+}} (lane 0)
// FAR-NEXT: far: cudaErrorIllegalAddress
// FAR-NEXT: the process goes on
// OFF: unregistered host memory: cudaSuccess
// BADENV: KLARAPTOR_EMU_CHECK_MEMORY='maybe' is not 0 or 1; checking every global access
// BADENV: unregistered host memory: cudaErrorIllegalAddress
#include <cstdio>
#include <cstdlib>
#include <cstring>

__device__ int Counter[4];

__global__ void add(int *p, long off, int v) { p[threadIdx.x + off] += v; }
__global__ void heap(int *out) {
  int *q = (int *)malloc(64 * sizeof(int));
  q[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = q[threadIdx.x] * 2;
  Counter[threadIdx.x % 4] = 1;
  free(q);
}

static void report(const char *What) {
  cudaError_t E = cudaDeviceSynchronize();
  std::printf("%s: %s\n", What, cudaGetErrorName(E));
}

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IONBF, 0); // in order with stderr
  const char *Mode = argc > 1 ? argv[1] : "ok";
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  if (!std::strcmp(Mode, "ok")) {
    add<<<1, 64>>>(d, 0, 1);
    report("in bounds");
    heap<<<1, 32>>>(d);
    report("device heap and __device__ variable");
    int *h = (int *)std::calloc(64, sizeof(int));
    cudaHostRegister(h, 64 * sizeof(int), 0);
    add<<<1, 64>>>(h, 0, 3);
    report("registered host memory");
    std::printf("h[63] = %d\n", h[63]);
    cudaHostUnregister(h);
    add<<<1, 64>>>(h, 0, 3);
    report("unregistered host memory");
    return 0;
  }
  if (!std::strcmp(Mode, "past-end"))
    add<<<1, 64>>>(d, 1, 1); // the last thread writes one int past the end
  else
    add<<<1, 64>>>(d, 1000000000, 1);
  report(Mode);
  std::printf("the process goes on\n");
  return 0;
}
