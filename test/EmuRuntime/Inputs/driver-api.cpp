// driver-api.cpp - a program written against the CUDA driver API only:
//   driver-api KERNELS.ptx KERNELS.fatbin KERNELS.cubin KERNELS-sm100.ptx
#include <cuda.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static const char *name(CUresult r) {
  const char *s = nullptr;
  cuGetErrorName(r, &s);
  return s ? s : "?";
}
#define SHOW(call) std::printf("%s -> %s\n", #call, name(call))

static std::string slurp(const char *path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int main(int argc, char **argv) {
  if (argc != 5)
    return 2;
  CUdevice dev = -1;
  SHOW(cuDeviceGet(&dev, 0));
  SHOW(cuInit(0));
  SHOW(cuDeviceGet(&dev, 0));
  CUcontext ctx = nullptr, cur = nullptr;
  CUmodule mod;
  SHOW(cuModuleLoad(&mod, argv[1]));
  SHOW(cuCtxCreate(&ctx, nullptr, 0, dev));
  cuCtxGetCurrent(&cur);
  CUdevice ctxDev = -1;
  cuCtxGetDevice(&ctxDev);
  std::printf("current is the new context: %d, device %d\n", cur == ctx, ctxDev);

  SHOW(cuModuleLoad(&mod, argv[1]));
  std::string ptx = slurp(argv[1]), fatbin = slurp(argv[2]), cubin = slurp(argv[3]),
              ptx100 = slurp(argv[4]);
  CUmodule fromText, fromFatbin, bad;
  SHOW(cuModuleLoadData(&fromText, ptx.c_str()));
  SHOW(cuModuleLoadDataEx(&fromFatbin, fatbin.data(), 0, nullptr, nullptr));
  SHOW(cuModuleLoadData(&bad, cubin.data()));
  SHOW(cuModuleLoadData(&bad, ptx100.c_str()));
  SHOW(cuModuleLoadData(&bad, "hello"));
  SHOW(cuModuleLoad(&bad, "/nonexistent.ptx"));

  CUfunction scale, addBias, missing;
  SHOW(cuModuleGetFunction(&scale, mod, "scale"));
  SHOW(cuModuleGetFunction(&addBias, fromFatbin, "add_bias"));
  SHOW(cuModuleGetFunction(&missing, mod, "nope"));
  const char *fname = nullptr;
  cuFuncGetName(&fname, scale);
  int regsPtx = -1, regsFatbin = -1, maxThreads = -1, occ = -1;
  cuFuncGetAttribute(&regsPtx, CU_FUNC_ATTRIBUTE_NUM_REGS, scale);
  cuFuncGetAttribute(&regsFatbin, CU_FUNC_ATTRIBUTE_NUM_REGS, addBias);
  cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, scale);
  cuOccupancyMaxActiveBlocksPerMultiprocessor(&occ, scale, 1024, 0);
  std::printf("%s: registers %d (PTX only), add_bias %s registers, max threads %d, "
              "occupancy at 1024: %d\n",
              fname, regsPtx, regsFatbin > 0 ? "has" : "lacks", maxThreads, occ);

  CUdeviceptr biasAddr;
  size_t biasSize = 0;
  SHOW(cuModuleGetGlobal(&biasAddr, &biasSize, fromFatbin, "bias"));
  float biasValue = 0;
  cuMemcpyDtoH(&biasValue, biasAddr, sizeof biasValue);
  std::printf("bias: %zu bytes, initial value %g\n", biasSize, biasValue);
  biasValue = 0.25f;
  cuMemcpyHtoD(biasAddr, &biasValue, sizeof biasValue);

  const int n = 1000;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = float(i);
  CUdeviceptr d;
  SHOW(cuMemAlloc(&d, n * sizeof(float)));
  SHOW(cuMemcpyHtoD(d, h.data(), n * sizeof(float)));
  float s = 2.0f;
  int count = n;
  void *params[] = {&d, &s, &count};
  SHOW(cuLaunchKernel(scale, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  // The same kernel with its arguments packed as its .param space.
  struct {
    CUdeviceptr p;
    float s;
    int n;
  } packed = {d, 3.0f, n};
  size_t packedSize = sizeof packed;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE,
                   &packedSize, CU_LAUNCH_PARAM_END};
  CUstream stream;
  cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
  CUevent e0, e1;
  cuEventCreate(&e0, 0);
  cuEventCreate(&e1, 0);
  cuEventRecord(e0, stream);
  SHOW(cuLaunchKernel(scale, 4, 1, 1, 256, 1, 1, 0, stream, nullptr, extra));
  void *biasParams[] = {&d, &count};
  SHOW(cuLaunchKernel(addBias, 8, 1, 1, 128, 1, 1, 0, stream, biasParams, nullptr));
  cuEventRecord(e1, stream);
  SHOW(cuStreamSynchronize(stream));
  float ms = -1;
  SHOW(cuEventElapsedTime(&ms, e0, e1));
  SHOW(cuLaunchKernel(scale, 1, 1, 1, 2048, 1, 1, 0, nullptr, params, nullptr));
  SHOW(cuCtxSynchronize());
  std::vector<float> out(n);
  SHOW(cuMemcpyDtoH(out.data(), d, n * sizeof(float)));
  int badValues = 0;
  for (int i = 0; i < n; ++i)
    badValues += out[i] != float(i) * 6.0f + 0.25f;
  std::printf("results: %s\n", badValues ? "FAILED" : "ok");

  const char *str = nullptr;
  cuGetErrorString(CUDA_ERROR_NOT_FOUND, &str);
  std::printf("CUDA_ERROR_NOT_FOUND: %s\n", str);
  SHOW(cuMemFree(d));
  SHOW(cuModuleUnload(mod));
  SHOW(cuLaunchKernel(scale, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  SHOW(cuCtxDestroy(ctx));
  SHOW(cuMemAlloc(&d, 16));
  return 0;
}
