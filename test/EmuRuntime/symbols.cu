// __constant__ and __device__ variables: the host writes and reads them with
// cudaMemcpyToSymbol / cudaMemcpyFromSymbol, finds their device address,
// and kernels see what the host wrote.
// RUN: %klaraptor-clangxx --klaraptor-emulate %s -o %t
// RUN: %t 2>&1 | FileCheck %s
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>

__constant__ float coef[4];
__device__ int counter;
__device__ int initialized = 17;

__global__ void polynomial(float *out, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    out[i] = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3]));
    atomicAdd(&counter, 1);
  }
}

#define SHOW(call) std::printf("%s -> %s\n", #call, cudaGetErrorName(call))

int main() {
  const float c[4] = {1.0f, 2.0f, 0.5f, 0.25f};
  SHOW(cudaMemcpyToSymbol(coef, c, sizeof c));
  // CHECK: cudaMemcpyToSymbol(coef, c, sizeof c) -> cudaSuccess
  float back[4] = {0, 0, 0, 0};
  SHOW(cudaMemcpyFromSymbol(back, coef, sizeof back));
  // CHECK-NEXT: -> cudaSuccess
  std::printf("coef back: %g %g %g %g\n", back[0], back[1], back[2], back[3]);
  // CHECK-NEXT: coef back: 1 2 0.5 0.25
  int init = 0;
  SHOW(cudaMemcpyFromSymbol(&init, initialized, sizeof init));
  // CHECK-NEXT: -> cudaSuccess
  std::printf("initialized: %d\n", init);
  // CHECK-NEXT: initialized: 17

  size_t size = 0;
  void *addr = nullptr;
  SHOW(cudaGetSymbolSize(&size, coef));
  // CHECK-NEXT: -> cudaSuccess
  SHOW(cudaGetSymbolAddress(&addr, counter));
  // CHECK-NEXT: -> cudaSuccess
  std::printf("coef size %zu, counter address set: %d\n", size, addr != nullptr);
  // CHECK-NEXT: coef size 16, counter address set: 1
  // The device address is memory the host can copy to.
  int zero = 0;
  SHOW(cudaMemcpy(addr, &zero, sizeof zero, cudaMemcpyHostToDevice));
  // CHECK-NEXT: -> cudaSuccess

  SHOW(cudaMemcpyToSymbol(coef, c, sizeof c, 8));
  // CHECK-NEXT: cudaMemcpyToSymbol(coef, c, sizeof c, 8) -> cudaErrorInvalidValue
  SHOW(cudaMemcpyToSymbol(coef, c, sizeof c, 0, cudaMemcpyDeviceToHost));
  // CHECK-NEXT: -> cudaErrorInvalidMemcpyDirection
  SHOW(cudaMemcpyToSymbol(c, c, sizeof c));
  // CHECK-NEXT: cudaMemcpyToSymbol(c, c, sizeof c) -> cudaErrorInvalidSymbol
  SHOW(cudaMemcpyToSymbol(coef, c, 8, 8));
  // CHECK-NEXT: cudaMemcpyToSymbol(coef, c, 8, 8) -> cudaSuccess
  SHOW(cudaMemcpyToSymbol(coef, c + 2, 8, 8));
  // CHECK-NEXT: -> cudaSuccess

  const int n = 300;
  float hx[n], hout[n];
  for (int i = 0; i < n; ++i)
    hx[i] = 0.01f * float(i);
  float *x, *out;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&out, sizeof hout);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  polynomial<<<3, 128>>>(out, x, n);
  SHOW(cudaDeviceSynchronize());
  // CHECK-NEXT: cudaDeviceSynchronize() -> cudaSuccess
  cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float v = hx[i];
    float want = c[0] + v * (c[1] + v * (c[2] + v * c[3]));
    // nvcc contracts the polynomial into fused multiply-adds.
    bad += std::fabs(hout[i] - want) > 1e-6f * std::fabs(want);
  }
  std::printf("kernel used the constants: %s\n", bad ? "FAILED" : "ok");
  // CHECK-NEXT: kernel used the constants: ok
  int count = 0;
  cudaMemcpyFromSymbol(&count, counter, sizeof count);
  std::printf("counter: %d\n", count);
  // CHECK-NEXT: counter: 300
  return 0;
}
