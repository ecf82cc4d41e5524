// Launches through cudaLaunchKernelEx (cudaLaunchKernelExC): one plain, one
// with a launch attribute; and through cuLaunchKernelEx (the emulated
// runtime, like the recording stand-in, takes a kernel's host stub as a
// CUfunction); y = 1 * 2 * 3 * 4 checked everywhere
// (test/EmuRuntime/launch-kernel-ex.test).
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>

#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
__global__ void scale(float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= a;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5000;
  float *y; cudaMalloc(&y, n * 4);
  float *h = new float[n]; for (int i = 0; i < n; ++i) h[i] = 1;
  cudaMemcpy(y, h, n * 4, cudaMemcpyHostToDevice);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((n + 255) / 256); cfg.blockDim = dim3(256);
  cudaError_t e1 = cudaLaunchKernelEx(&cfg, scale, y, 2.0f, n);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributePriority; attr[0].val.priority = 0;
  cudaLaunchConfig_t cfg2 = cfg; cfg2.attrs = attr; cfg2.numAttrs = 1;
  cudaError_t e2 = cudaLaunchKernelEx(&cfg2, scale, y, 3.0f, n);
  CUlaunchConfig cucfg = {};
  cucfg.gridDimX = (n + 127) / 128; cucfg.gridDimY = cucfg.gridDimZ = 1;
  cucfg.blockDimX = 128; cucfg.blockDimY = cucfg.blockDimZ = 1;
  float a = 4.0f;
  void *args[] = {&y, &a, &n};
  CUresult e3 = cuLaunchKernelEx(&cucfg, (CUfunction)(void *)scale, args, nullptr);
  cudaMemcpy(h, y, n * 4, cudaMemcpyDeviceToHost);
  int bad = 0; for (int i = 0; i < n; ++i) bad += h[i] != 24;
  printf("ex %s, %s, %d; config block still %u, %u; %s\n", cudaGetErrorString(e1), cudaGetErrorString(e2), int(e3), cfg.blockDim.x, cucfg.blockDimX, bad ? "FAILED" : "ok");
  return bad != 0;
}
