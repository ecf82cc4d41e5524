// The memory API of the emulated runtime: allocation kinds, copies in every
// direction, memset, 2-D copies, pointer attributes, memory accounting and
// the errors of misuse. No kernel runs here.
// RUN: %klaraptor-clangxx --klaraptor-emulate %s -o %t
// RUN: %t | FileCheck %s
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

#define SHOW(call) std::printf("%s -> %s\n", #call, cudaGetErrorName(call))

int main() {
  size_t free0 = 0, total = 0;
  SHOW(cudaMemGetInfo(&free0, &total));
  // CHECK: cudaMemGetInfo(&free0, &total) -> cudaSuccess
  std::printf("total %zu, free == total: %d\n", total, free0 == total);
  // CHECK-NEXT: total 85899345920, free == total: 1

  float *d = nullptr;
  SHOW(cudaMalloc(&d, 1000 * sizeof(float)));
  // CHECK-NEXT: cudaMalloc(&d, 1000 * sizeof(float)) -> cudaSuccess
  std::printf("aligned to 256: %d\n", int((reinterpret_cast<size_t>(d) % 256) == 0));
  // CHECK-NEXT: aligned to 256: 1
  size_t free1 = 0;
  cudaMemGetInfo(&free1, &total);
  std::printf("used %zu\n", free0 - free1);
  // CHECK-NEXT: used 4000

  float h[1000], back[1000];
  for (int i = 0; i < 1000; ++i)
    h[i] = float(i) * 0.5f;
  SHOW(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  // CHECK-NEXT: -> cudaSuccess
  float *d2 = nullptr;
  cudaMalloc(&d2, sizeof h);
  SHOW(cudaMemcpy(d2, d, sizeof h, cudaMemcpyDeviceToDevice));
  // CHECK-NEXT: -> cudaSuccess
  SHOW(cudaMemcpy(back, d2, sizeof h, cudaMemcpyDeviceToHost));
  // CHECK-NEXT: -> cudaSuccess
  std::printf("round trip equal: %d\n", std::memcmp(h, back, sizeof h) == 0);
  // CHECK-NEXT: round trip equal: 1

  SHOW(cudaMemset(d2, 0x3f, 16));
  // CHECK-NEXT: -> cudaSuccess
  unsigned char bytes[20];
  cudaMemcpy(bytes, d2, 20, cudaMemcpyDefault);
  float after;
  std::memcpy(&after, bytes + 16, sizeof after);
  std::printf("memset: %02x %02x, next float %g\n", bytes[0], bytes[15], after);
  // CHECK-NEXT: memset: 3f 3f, next float 2

  // Async forms on the default stream.
  SHOW(cudaMemsetAsync(d, 0, 8, 0));
  // CHECK-NEXT: cudaMemsetAsync(d, 0, 8, 0) -> cudaSuccess
  SHOW(cudaMemcpyAsync(back, d, 8, cudaMemcpyDeviceToHost, 0));
  // CHECK-NEXT: -> cudaSuccess
  std::printf("after memsetAsync: %g %g\n", back[0], back[1]);
  // CHECK-NEXT: after memsetAsync: 0 0

  // Pitched allocations and 2-D copies.
  float *p = nullptr;
  size_t pitch = 0;
  SHOW(cudaMallocPitch(reinterpret_cast<void **>(&p), &pitch, 10 * sizeof(float), 4));
  // CHECK-NEXT: -> cudaSuccess
  std::printf("pitch %zu\n", pitch);
  // CHECK-NEXT: pitch 512
  float tile[4][10];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 10; ++c)
      tile[r][c] = float(r * 100 + c);
  SHOW(cudaMemcpy2D(p, pitch, tile, sizeof tile[0], sizeof tile[0], 4, cudaMemcpyHostToDevice));
  // CHECK-NEXT: -> cudaSuccess
  float row2[10];
  cudaMemcpy(row2, reinterpret_cast<char *>(p) + 2 * pitch, sizeof row2, cudaMemcpyDeviceToHost);
  std::printf("row 2: %g .. %g\n", row2[0], row2[9]);
  // CHECK-NEXT: row 2: 200 .. 209
  SHOW(cudaMemcpy2D(p, 8, tile, sizeof tile[0], sizeof tile[0], 4, cudaMemcpyHostToDevice));
  // CHECK-NEXT: -> cudaErrorInvalidPitchValue

  // Managed and pinned host memory.
  int *m = nullptr;
  SHOW(cudaMallocManaged(&m, 64 * sizeof(int), cudaMemAttachGlobal));
  // CHECK-NEXT: -> cudaSuccess
  m[63] = 42; // managed memory is usable on the host
  int *pinned = nullptr;
  SHOW(cudaMallocHost(&pinned, 64 * sizeof(int)));
  // CHECK-NEXT: -> cudaSuccess
  void *pinned2 = nullptr;
  SHOW(cudaHostAlloc(&pinned2, 100, cudaHostAllocMapped));
  // CHECK-NEXT: -> cudaSuccess
  void *mapped = nullptr;
  SHOW(cudaHostGetDevicePointer(&mapped, pinned2, 0));
  // CHECK-NEXT: -> cudaSuccess
  std::printf("mapped is the host pointer: %d\n", mapped == pinned2);
  // CHECK-NEXT: mapped is the host pointer: 1

  cudaPointerAttributes a;
  const char *types[] = {"unregistered", "host", "device", "managed"};
  cudaPointerGetAttributes(&a, d + 10);
  std::printf("d+10: %s\n", types[a.type]);
  // CHECK-NEXT: d+10: device
  cudaPointerGetAttributes(&a, m);
  std::printf("m: %s\n", types[a.type]);
  // CHECK-NEXT: m: managed
  cudaPointerGetAttributes(&a, pinned);
  std::printf("pinned: %s\n", types[a.type]);
  // CHECK-NEXT: pinned: host
  cudaPointerGetAttributes(&a, h);
  std::printf("stack array: %s\n", types[a.type]);
  // CHECK-NEXT: stack array: unregistered

  // Misuse.
  SHOW(cudaMemcpy(d, h, 4, cudaMemcpyKind(7)));
  // CHECK-NEXT: -> cudaErrorInvalidMemcpyDirection
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  // CHECK-NEXT: last error: cudaErrorInvalidMemcpyDirection
  std::printf("then: %s\n", cudaGetErrorName(cudaGetLastError()));
  // CHECK-NEXT: then: cudaSuccess
  SHOW(cudaFree(d + 1));
  // CHECK-NEXT: cudaFree(d + 1) -> cudaErrorInvalidValue
  SHOW(cudaFree(pinned));
  // CHECK-NEXT: cudaFree(pinned) -> cudaErrorInvalidValue
  SHOW(cudaFreeHost(d));
  // CHECK-NEXT: cudaFreeHost(d) -> cudaErrorInvalidValue
  void *huge = nullptr;
  SHOW(cudaMalloc(&huge, size_t(1) << 40));
  // CHECK-NEXT: -> cudaErrorMemoryAllocation
  std::printf("%s\n", cudaGetErrorString(cudaErrorMemoryAllocation));
  // CHECK-NEXT: out of memory
  SHOW(cudaFree(nullptr));
  // CHECK-NEXT: cudaFree(nullptr) -> cudaSuccess

  SHOW(cudaFree(d));
  // CHECK-NEXT: cudaFree(d) -> cudaSuccess
  SHOW(cudaFree(d2));
  SHOW(cudaFree(p));
  SHOW(cudaFree(m));
  SHOW(cudaFreeHost(pinned));
  SHOW(cudaFreeHost(pinned2));
  // CHECK-COUNT-5: -> cudaSuccess
  size_t free2 = 0;
  cudaMemGetInfo(&free2, &total);
  std::printf("all freed: %d\n", free2 == free0);
  // CHECK-NEXT: all freed: 1
  return 0;
}
