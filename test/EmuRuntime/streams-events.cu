// Streams are in-order queues and events time them. The emulated runtime
// executes work eagerly in call order, so every result is ready when the
// call returns; events are stamped with the host's wall clock when recorded.
// RUN: %klaraptor-clangxx --klaraptor-emulate %s -o %t
// RUN: %t | FileCheck %s
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

__global__ void addOne(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

static std::vector<int> Order;
static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *data) {
  Order.push_back(*static_cast<int *>(data));
  std::printf("callback %d, status %s\n", *static_cast<int *>(data), cudaGetErrorName(status));
}
static void CUDART_CB hostFn(void *data) { Order.push_back(*static_cast<int *>(data)); }

#define SHOW(call) std::printf("%s -> %s\n", #call, cudaGetErrorName(call))

int main() {
  const int n = 1000;
  std::vector<int> h(n), out(n, -1);
  for (int i = 0; i < n; ++i)
    h[i] = i;
  int *d = nullptr;
  cudaMalloc(&d, n * sizeof(int));

  cudaStream_t s1, s2;
  SHOW(cudaStreamCreate(&s1));
  // CHECK: cudaStreamCreate(&s1) -> cudaSuccess
  SHOW(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  // CHECK-NEXT: -> cudaSuccess
  unsigned flags = 9;
  cudaStreamGetFlags(s2, &flags);
  int least = 1, greatest = 1;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  std::printf("s2 flags %u, priorities %d..%d\n", flags, least, greatest);
  // CHECK-NEXT: s2 flags 1, priorities 0..-5

  cudaEvent_t start, stop, untimed, never;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming);
  cudaEventCreate(&never);

  int one = 1, two = 2;
  SHOW(cudaEventRecord(start, s1));
  // CHECK-NEXT: cudaEventRecord(start, s1) -> cudaSuccess
  cudaMemcpyAsync(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice, s1);
  for (int k = 0; k < 3; ++k)
    addOne<<<(n + 127) / 128, 128, 0, s1>>>(d, n);
  SHOW(cudaStreamAddCallback(s1, callback, &one, 0));
  // CHECK-NEXT: callback 1, status cudaSuccess
  // CHECK-NEXT: cudaStreamAddCallback(s1, callback, &one, 0) -> cudaSuccess
  cudaMemcpyAsync(out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s1);
  SHOW(cudaLaunchHostFunc(s1, hostFn, &two));
  // CHECK-NEXT: -> cudaSuccess
  SHOW(cudaEventRecord(stop, s1));
  // CHECK-NEXT: -> cudaSuccess
  SHOW(cudaEventSynchronize(stop));
  // CHECK-NEXT: cudaEventSynchronize(stop) -> cudaSuccess
  SHOW(cudaStreamQuery(s1));
  // CHECK-NEXT: cudaStreamQuery(s1) -> cudaSuccess
  SHOW(cudaEventQuery(stop));
  // CHECK-NEXT: cudaEventQuery(stop) -> cudaSuccess
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += out[i] != i + 3;
  std::printf("three launches in order: %s\n", bad ? "FAILED" : "ok");
  // CHECK-NEXT: three launches in order: ok
  std::printf("host work in order: %d %d\n", Order.at(0), Order.at(1));
  // CHECK-NEXT: host work in order: 1 2
  float ms = -1;
  SHOW(cudaEventElapsedTime(&ms, start, stop));
  // CHECK-NEXT: cudaEventElapsedTime(&ms, start, stop) -> cudaSuccess
  std::printf("elapsed >= 0: %d\n", ms >= 0);
  // CHECK-NEXT: elapsed >= 0: 1

  // Event times are host wall-clock times.
  cudaEventRecord(start, s2);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  cudaEventRecord(stop, s2);
  cudaEventElapsedTime(&ms, start, stop);
  std::printf("slept 30 ms, measured >= 29: %d\n", ms >= 29.0f);
  // CHECK-NEXT: slept 30 ms, measured >= 29: 1

  // A second stream works independently.
  cudaMemsetAsync(d, 0, n * sizeof(int), s2);
  addOne<<<8, 125, 0, s2>>>(d, n);
  SHOW(cudaStreamWaitEvent(s1, stop, 0));
  // CHECK-NEXT: -> cudaSuccess
  SHOW(cudaStreamSynchronize(s2));
  // CHECK-NEXT: cudaStreamSynchronize(s2) -> cudaSuccess
  cudaMemcpy(out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("s2 result: %d %d\n", out[0], out[n - 1]);
  // CHECK-NEXT: s2 result: 1 1

  cudaEventRecord(untimed, s1);
  SHOW(cudaEventElapsedTime(&ms, start, untimed));
  // CHECK-NEXT: -> cudaErrorInvalidResourceHandle
  SHOW(cudaEventElapsedTime(&ms, start, never));
  // CHECK-NEXT: -> cudaErrorInvalidResourceHandle
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  // CHECK-NEXT: invalid resource handle

  SHOW(cudaStreamDestroy(s2));
  // CHECK-NEXT: cudaStreamDestroy(s2) -> cudaSuccess
  SHOW(cudaStreamDestroy(s2));
  // CHECK-NEXT: cudaStreamDestroy(s2) -> cudaErrorInvalidResourceHandle
  addOne<<<1, 32, 0, s2>>>(d, n);
  std::printf("launch on a destroyed stream: %s\n", cudaGetErrorName(cudaGetLastError()));
  // CHECK-NEXT: launch on a destroyed stream: cudaErrorInvalidResourceHandle
  SHOW(cudaStreamSynchronize(cudaStreamPerThread));
  // CHECK-NEXT: -> cudaSuccess
  SHOW(cudaEventDestroy(start));
  // CHECK-NEXT: -> cudaSuccess
  SHOW(cudaEventDestroy(start));
  // CHECK-NEXT: -> cudaErrorInvalidResourceHandle
  SHOW(cudaStreamDestroy(s1));
  // CHECK-NEXT: -> cudaSuccess
  SHOW(cudaDeviceSynchronize());
  // CHECK-NEXT: cudaDeviceSynchronize() -> cudaSuccess
  cudaFree(d);
  return 0;
}
