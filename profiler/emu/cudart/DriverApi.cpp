//===- DriverApi.cpp - the driver-API subset of the emulated runtime ------===//
///
/// \file
/// The cu* functions programs written against the driver API and
/// libklaraptor_rt use, with the signatures (and the _v2.. symbol names) of
/// CUDA 13's cuda.h: initialization, device queries, contexts (every
/// context is a handle on the one emulated device), modules loaded from PTX
/// text or fatbins, functions, launches, memory, streams and events. They
/// share the state of the runtime API (EmuRuntime.h), as libcudart and
/// libcuda share a device. Other cu* functions of libcuda are in
/// Unsupported.cpp.
//===----------------------------------------------------------------------===//
#include "EmuRuntime.h"

#include <cstring>
#include <fstream>
#include <sstream>

using namespace klaraptor;
using namespace klaraptor::emurt;

#define API extern "C"

// The driver's numbers for the same things are the runtime's.
static_assert(int(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK) ==
              int(cudaDevAttrMaxThreadsPerBlock));
static_assert(int(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR) ==
              int(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
static_assert(int(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR) ==
              int(cudaDevAttrMaxBlocksPerMultiprocessor));
static_assert(int(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK) ==
              int(cudaDevAttrReservedSharedMemoryPerBlock));
static_assert(int(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) ==
              int(cudaFuncAttributeMaxDynamicSharedMemorySize));
static_assert(int(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) ==
              int(cudaFuncAttributePreferredSharedMemoryCarveout));
static_assert(int(CU_EVENT_DISABLE_TIMING) == int(cudaEventDisableTiming));
// CU_STREAM_LEGACY and CU_STREAM_PER_THREAD are cudaStreamLegacy and
// cudaStreamPerThread: (void *)0x1 and (void *)0x2.

namespace {

Runtime &rt() { return Runtime::get(); }

bool isDriverError(int E) {
  switch (E) {
#define CUDRV_ERROR(Name, Value, Message)                                      \
  case Value:                                                                  \
    return true;
#include "DriverErrors.def"
  default:
    return false;
  }
}

/// The driver's code for a runtime error.
CUresult toDriver(cudaError_t E) {
  switch (E) {
  case cudaErrorInvalidConfiguration:
  case cudaErrorInvalidMemcpyDirection:
  case cudaErrorInvalidPitchValue:
    return CUDA_ERROR_INVALID_VALUE;
  case cudaErrorInvalidDeviceFunction:
    return CUDA_ERROR_INVALID_HANDLE;
  case cudaErrorInvalidSymbol:
    return CUDA_ERROR_NOT_FOUND;
  default:
    return isDriverError(E) ? CUresult(E) : CUDA_ERROR_UNKNOWN;
  }
}

/// cuInit has been called (or the runtime API used) and a device exists.
CUresult initialized() {
  if (!rt().driverInitialized())
    return CUDA_ERROR_NOT_INITIALIZED;
  return rt().device() ? CUDA_SUCCESS : CUDA_ERROR_NO_DEVICE;
}

/// As initialized(), and a context is current on this thread.
CUresult withContext() {
  if (CUresult E = initialized())
    return E;
  return Runtime::currentContext() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/// As withContext(), and no kernel has failed.
CUresult ready(const void *Stream = nullptr) {
  if (CUresult E = withContext())
    return E;
  if (cudaError_t S = rt().sticky())
    return toDriver(S);
  return rt().validStream(Stream) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

void *ptr(CUdeviceptr P) { return reinterpret_cast<void *>(uintptr_t(P)); }

CUresult copy(void *Dst, const void *Src, size_t N, const void *Stream) {
  if (CUresult E = ready(Stream))
    return E;
  if (N && (!Dst || !Src))
    return CUDA_ERROR_INVALID_VALUE;
  if (N)
    std::memmove(Dst, Src, N);
  return CUDA_SUCCESS;
}

template <typename T>
CUresult fill(CUdeviceptr Dst, T Value, size_t N, const void *Stream) {
  if (CUresult E = ready(Stream))
    return E;
  if (N && !Dst)
    return CUDA_ERROR_INVALID_VALUE;
  if (Dst % sizeof(T))
    return CUDA_ERROR_INVALID_VALUE;
  T *P = static_cast<T *>(ptr(Dst));
  for (size_t I = 0; I < N; ++I)
    P[I] = Value;
  return CUDA_SUCCESS;
}

CUresult loadFrom(CUmodule *Module, const void *Image, const char *Call) {
  if (!Module)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = withContext())
    return E;
  LoadedModule *M = nullptr;
  CUresult E = rt().loadModule(Image, Call, M);
  *Module = reinterpret_cast<CUmodule>(M);
  return E;
}

LoadedModule *module(CUmodule M) {
  return rt().isModule(M) ? reinterpret_cast<LoadedModule *>(M) : nullptr;
}

} // namespace

// --- initialization, versions, errors
// -------------------------------------------

API CUresult cuInit(unsigned int Flags) {
  if (Flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (!rt().device())
    return CUDA_ERROR_NO_DEVICE;
  rt().initDriver();
  return CUDA_SUCCESS;
}

API CUresult cuDriverGetVersion(int *driverVersion) {
  if (!driverVersion)
    return CUDA_ERROR_INVALID_VALUE;
  *driverVersion = CUDA_VERSION;
  return CUDA_SUCCESS;
}

API CUresult cuGetErrorName(CUresult error, const char **pStr) {
  if (!pStr)
    return CUDA_ERROR_INVALID_VALUE;
  switch (int(error)) {
#define CUDRV_ERROR(Name, Value, Message)                                      \
  case Value:                                                                  \
    *pStr = #Name;                                                             \
    return CUDA_SUCCESS;
#include "DriverErrors.def"
  default:
    *pStr = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
}

API CUresult cuGetErrorString(CUresult error, const char **pStr) {
  if (!pStr)
    return CUDA_ERROR_INVALID_VALUE;
  switch (int(error)) {
#define CUDRV_ERROR(Name, Value, Message)                                      \
  case Value:                                                                  \
    *pStr = Message;                                                           \
    return CUDA_SUCCESS;
#include "DriverErrors.def"
  default:
    *pStr = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
}

#define CUDRV_ERROR(Name, Value, Message)                                      \
  static_assert(int(Name) == Value, #Name " changed its value");
#include "DriverErrors.def"

// --- devices
// ----------------------------------------------------------------------

API CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (!device)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = initialized())
    return E;
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

API CUresult cuDeviceGetCount(int *count) {
  if (!count)
    return CUDA_ERROR_INVALID_VALUE;
  if (!rt().driverInitialized())
    return CUDA_ERROR_NOT_INITIALIZED;
  *count = rt().device() ? 1 : 0;
  return CUDA_SUCCESS;
}

API CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  if (!name || len <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = initialized())
    return E;
  if (dev != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  std::snprintf(name, size_t(len), "%s", rt().device()->Name.c_str());
  return CUDA_SUCCESS;
}

API CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib,
                                  CUdevice dev) {
  if (!pi)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = initialized())
    return E;
  if (dev != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  return toDriver(rt().attribute(int(attrib), *pi));
}

API CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev) {
  if (!bytes)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = initialized())
    return E;
  if (dev != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *bytes = size_t(rt().device()->TotalGlobalMem);
  return CUDA_SUCCESS;
}

// --- contexts
// ---------------------------------------------------------------------

API CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) {
  if (!pctx)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = initialized())
    return E;
  if (dev != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *pctx = reinterpret_cast<CUcontext>(rt().primaryContext());
  return CUDA_SUCCESS;
}

API CUresult cuDevicePrimaryCtxRelease(CUdevice dev) {
  if (CUresult E = initialized())
    return E;
  return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

API CUresult cuDevicePrimaryCtxReset(CUdevice dev) {
  return cuDevicePrimaryCtxRelease(dev);
}

API CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) {
  static_cast<void>(flags);
  return cuDevicePrimaryCtxRelease(dev);
}

API CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags,
                                        int *active) {
  if (!flags || !active)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = cuDevicePrimaryCtxRelease(dev))
    return E;
  *flags = 0;
  *active = 1;
  return CUDA_SUCCESS;
}

API CUresult cuCtxCreate(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
                         unsigned int flags, CUdevice dev) {
  static_cast<void>(ctxCreateParams);
  static_cast<void>(flags);
  if (!pctx)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = initialized())
    return E;
  if (dev != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  Context *C = rt().createContext();
  Runtime::currentContext() = C;
  *pctx = reinterpret_cast<CUcontext>(C);
  return CUDA_SUCCESS;
}

API CUresult cuCtxDestroy(CUcontext ctx) {
  if (CUresult E = initialized())
    return E;
  Context *C = reinterpret_cast<Context *>(ctx);
  if (C == rt().primaryContext() || !rt().destroyContext(C))
    return CUDA_ERROR_INVALID_CONTEXT;
  if (Runtime::currentContext() == C)
    Runtime::currentContext() = nullptr;
  return CUDA_SUCCESS;
}

API CUresult cuCtxGetCurrent(CUcontext *pctx) {
  if (!pctx)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = initialized())
    return E;
  *pctx = reinterpret_cast<CUcontext>(Runtime::currentContext());
  return CUDA_SUCCESS;
}

API CUresult cuCtxSetCurrent(CUcontext ctx) {
  if (CUresult E = initialized())
    return E;
  if (ctx && !rt().isContext(ctx))
    return CUDA_ERROR_INVALID_CONTEXT;
  Runtime::currentContext() = reinterpret_cast<Context *>(ctx);
  return CUDA_SUCCESS;
}

static std::vector<Context *> &contextStack() {
  static thread_local std::vector<Context *> Stack;
  return Stack;
}

API CUresult cuCtxPushCurrent(CUcontext ctx) {
  if (CUresult E = initialized())
    return E;
  if (!ctx || !rt().isContext(ctx))
    return CUDA_ERROR_INVALID_CONTEXT;
  contextStack().push_back(Runtime::currentContext());
  Runtime::currentContext() = reinterpret_cast<Context *>(ctx);
  return CUDA_SUCCESS;
}

API CUresult cuCtxPopCurrent(CUcontext *pctx) {
  if (CUresult E = withContext())
    return E;
  if (pctx)
    *pctx = reinterpret_cast<CUcontext>(Runtime::currentContext());
  auto &Stack = contextStack();
  Runtime::currentContext() = Stack.empty() ? nullptr : Stack.back();
  if (!Stack.empty())
    Stack.pop_back();
  return CUDA_SUCCESS;
}

API CUresult cuCtxGetDevice(CUdevice *device) {
  if (!device)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = withContext())
    return E;
  *device = 0;
  return CUDA_SUCCESS;
}

API CUresult cuCtxSynchronize(void) { return ready(); }

// --- modules and functions
// ----------------------------------------------------------

API CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  return loadFrom(module, image, "cuModuleLoadData");
}

API CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                                unsigned int numOptions, CUjit_option *options,
                                void **optionValues) {
  // JIT options tune ptxas, which the emulator does not run.
  static_cast<void>(numOptions);
  static_cast<void>(options);
  static_cast<void>(optionValues);
  return loadFrom(module, image, "cuModuleLoadDataEx");
}

API CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin) {
  return loadFrom(module, fatCubin, "cuModuleLoadFatBinary");
}

API CUresult cuModuleLoad(CUmodule *module, const char *fname) {
  if (!module || !fname)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = withContext())
    return E;
  std::ifstream In(fname, std::ios::binary);
  if (!In)
    return CUDA_ERROR_FILE_NOT_FOUND;
  std::stringstream SS;
  SS << In.rdbuf();
  std::string Image = SS.str();
  Image.push_back('\0'); // PTX text must end like a C string
  LoadedModule *M = nullptr;
  CUresult E = rt().loadModule(Image.data(),
                               std::string("cuModuleLoad('") + fname + "')", M);
  *module = reinterpret_cast<CUmodule>(M);
  return E;
}

API CUresult cuModuleUnload(CUmodule hmod) {
  if (CUresult E = withContext())
    return E;
  LoadedModule *M = module(hmod);
  if (!M)
    return CUDA_ERROR_INVALID_HANDLE;
  rt().unloadModule(M);
  return CUDA_SUCCESS;
}

API CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
                                 const char *name) {
  if (!hfunc || !name)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = withContext())
    return E;
  LoadedModule *M = module(hmod);
  if (!M)
    return CUDA_ERROR_INVALID_HANDLE;
  Function *F = M->function(name);
  if (!F)
    return CUDA_ERROR_NOT_FOUND;
  rt().adoptFunction(F);
  *hfunc = reinterpret_cast<CUfunction>(F);
  return CUDA_SUCCESS;
}

API CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
                               const char *name) {
  if (!name)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = withContext())
    return E;
  LoadedModule *M = module(hmod);
  if (!M)
    return CUDA_ERROR_INVALID_HANDLE;
  void *Address = nullptr;
  size_t Size = 0;
  if (!M->M->findGlobal(name, Address, Size))
    return CUDA_ERROR_NOT_FOUND;
  if (dptr)
    *dptr = CUdeviceptr(reinterpret_cast<uintptr_t>(Address));
  if (bytes)
    *bytes = Size;
  return CUDA_SUCCESS;
}

API CUresult cuFuncGetName(const char **name, CUfunction hfunc) {
  if (!name)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = initialized())
    return E;
  Function *F = rt().asFunction(hfunc);
  if (!F)
    return CUDA_ERROR_INVALID_HANDLE;
  *name = F->Name.c_str();
  return CUDA_SUCCESS;
}

API CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib,
                                CUfunction hfunc) {
  if (!pi)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = initialized())
    return E;
  Function *F = rt().asFunction(hfunc);
  if (!F)
    return CUDA_ERROR_INVALID_HANDLE;
  cudaFuncAttributes A;
  fillFuncAttributes(A, *F, *rt().device());
  switch (attrib) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *pi = A.maxThreadsPerBlock;
    break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *pi = int(A.sharedSizeBytes);
    break;
  case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    *pi = int(A.constSizeBytes);
    break;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    *pi = int(A.localSizeBytes);
    break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *pi = A.numRegs;
    break;
  case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    *pi = A.ptxVersion;
    break;
  case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
    *pi = A.binaryVersion;
    break;
  case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
    *pi = A.cacheModeCA;
    break;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *pi = A.maxDynamicSharedSizeBytes;
    break;
  case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    *pi = A.preferredShmemCarveout;
    break;
  case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
  case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
  case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    *pi = 0;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

API CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib,
                                int value) {
  if (CUresult E = initialized())
    return E;
  Function *F = rt().asFunction(hfunc);
  if (!F)
    return CUDA_ERROR_INVALID_HANDLE;
  return toDriver(setFuncAttribute(*F, int(attrib), value));
}

API CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) {
  static_cast<void>(config);
  if (CUresult E = initialized())
    return E;
  return rt().asFunction(hfunc) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
  if (!numBlocks || flags > CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = initialized())
    return E;
  Function *F = rt().asFunction(func);
  if (!F)
    return CUDA_ERROR_INVALID_HANDLE;
  *numBlocks =
      int(devices::computeOccupancy(*rt().device(), F->resources(), blockSize,
                                    int64_t(dynamicSMemSize))
              .ActiveBlocks);
  return CUDA_SUCCESS;
}

API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize) {
  return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, func, blockSize, dynamicSMemSize, CU_OCCUPANCY_DEFAULT);
}

API CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
                            unsigned int gridDimY, unsigned int gridDimZ,
                            unsigned int blockDimX, unsigned int blockDimY,
                            unsigned int blockDimZ, unsigned int sharedMemBytes,
                            CUstream hStream, void **kernelParams,
                            void **extra) {
  if (CUresult E = withContext())
    return E;
  LaunchRequest L;
  L.F = rt().asFunction(f);
  if (!L.F)
    return CUDA_ERROR_INVALID_HANDLE;
  if (kernelParams && extra)
    return CUDA_ERROR_INVALID_VALUE;
  L.Grid = {gridDimX, gridDimY, gridDimZ};
  L.Block = {blockDimX, blockDimY, blockDimZ};
  L.DynamicShared = sharedMemBytes;
  L.Stream = hStream;
  std::vector<void *> Packed;
  if (extra) {
    // {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE,
    //  &size, CU_LAUNCH_PARAM_END}: the arguments laid out as the kernel's
    // .param space.
    char *Buffer = nullptr;
    size_t Size = 0;
    for (void **P = extra; *P && *P != CU_LAUNCH_PARAM_END; P += 2) {
      if (*P == CU_LAUNCH_PARAM_BUFFER_POINTER)
        Buffer = static_cast<char *>(P[1]);
      else if (*P == CU_LAUNCH_PARAM_BUFFER_SIZE)
        Size = *static_cast<size_t *>(P[1]);
      else
        return CUDA_ERROR_INVALID_VALUE;
    }
    const emu::KernelInfo &K = *L.F->Info;
    if (!Buffer && !K.Params.empty())
      return CUDA_ERROR_INVALID_VALUE;
    for (const emu::ParamInfo &Param : K.Params) {
      if (Param.Offset + Param.Size > Size)
        return CUDA_ERROR_INVALID_VALUE;
      Packed.push_back(Buffer + Param.Offset);
    }
    L.Args = Packed.data();
  } else {
    L.Args = kernelParams;
  }
  if (!L.Args && !L.F->Info->Params.empty())
    return CUDA_ERROR_INVALID_VALUE;
  return toDriver(rt().launch(L));
}

API CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                              void **kernelParams, void **extra) {
  if (!config || (config->numAttrs && !config->attrs))
    return CUDA_ERROR_INVALID_VALUE;
  for (unsigned I = 0; I < config->numAttrs; ++I) {
    const CUlaunchAttribute &A = config->attrs[I];
    bool Unsupported =
        (A.id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && A.value.cooperative) ||
        (A.id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
         A.value.clusterDim.x * A.value.clusterDim.y * A.value.clusterDim.z >
             1);
    if (Unsupported)
      return toDriver(cudaError_t(Runtime::get().unsupported(
          A.id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE
              ? "cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_COOPERATIVE"
              : "cuLaunchKernelEx with a thread block cluster")));
  }
  return cuLaunchKernel(f, config->gridDimX, config->gridDimY,
                        config->gridDimZ, config->blockDimX, config->blockDimY,
                        config->blockDimZ, config->sharedMemBytes,
                        config->hStream, kernelParams, extra);
}

// --- memory
// ------------------------------------------------------------------------

API CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) {
  if (!dptr || bytesize == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = ready())
    return E;
  void *P = nullptr;
  CUresult E = toDriver(rt().allocate(&P, bytesize, MemoryKind::Device));
  *dptr = CUdeviceptr(reinterpret_cast<uintptr_t>(P));
  return E;
}

API CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
                               unsigned int flags) {
  static_cast<void>(flags);
  if (!dptr || bytesize == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = ready())
    return E;
  void *P = nullptr;
  CUresult E = toDriver(rt().allocate(&P, bytesize, MemoryKind::Managed));
  *dptr = CUdeviceptr(reinterpret_cast<uintptr_t>(P));
  return E;
}

API CUresult cuMemFree(CUdeviceptr dptr) {
  if (CUresult E = withContext())
    return E;
  return toDriver(rt().release(ptr(dptr), /*Host=*/false));
}

API CUresult cuMemAllocHost(void **pp, size_t bytesize) {
  if (CUresult E = withContext())
    return E;
  return toDriver(rt().allocate(pp, bytesize, MemoryKind::Host));
}

API CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags) {
  static_cast<void>(Flags);
  return cuMemAllocHost(pp, bytesize);
}

API CUresult cuMemFreeHost(void *p) {
  if (CUresult E = withContext())
    return E;
  return toDriver(rt().release(p, /*Host=*/true));
}

API CUresult cuMemGetInfo(size_t *free, size_t *total) {
  if (CUresult E = withContext())
    return E;
  size_t F = 0, T = 0;
  rt().memInfo(F, T);
  if (free)
    *free = F;
  if (total)
    *total = T;
  return CUDA_SUCCESS;
}

API CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost,
                          size_t ByteCount) {
  return copy(ptr(dstDevice), srcHost, ByteCount, nullptr);
}

API CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice,
                          size_t ByteCount) {
  return copy(dstHost, ptr(srcDevice), ByteCount, nullptr);
}

API CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                          size_t ByteCount) {
  return copy(ptr(dstDevice), ptr(srcDevice), ByteCount, nullptr);
}

API CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  return copy(ptr(dst), ptr(src), ByteCount, nullptr);
}

API CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost,
                               size_t ByteCount, CUstream hStream) {
  return copy(ptr(dstDevice), srcHost, ByteCount, hStream);
}

API CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice,
                               size_t ByteCount, CUstream hStream) {
  return copy(dstHost, ptr(srcDevice), ByteCount, hStream);
}

API CUresult cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                               size_t ByteCount, CUstream hStream) {
  return copy(ptr(dstDevice), ptr(srcDevice), ByteCount, hStream);
}

API CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
                           CUstream hStream) {
  return copy(ptr(dst), ptr(src), ByteCount, hStream);
}

API CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N) {
  return fill(dstDevice, uc, N, nullptr);
}

API CUresult cuMemsetD16(CUdeviceptr dstDevice, unsigned short us, size_t N) {
  return fill(dstDevice, us, N, nullptr);
}

API CUresult cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N) {
  return fill(dstDevice, ui, N, nullptr);
}

API CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
                             CUstream hStream) {
  return fill(dstDevice, uc, N, hStream);
}

API CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us,
                              size_t N, CUstream hStream) {
  return fill(dstDevice, us, N, hStream);
}

API CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
                              CUstream hStream) {
  return fill(dstDevice, ui, N, hStream);
}

// --- streams and events
// ----------------------------------------------------------

API CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) {
  if (!phStream || Flags > CU_STREAM_NON_BLOCKING)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = withContext())
    return E;
  *phStream = reinterpret_cast<CUstream>(rt().createStream(Flags, 0));
  return CUDA_SUCCESS;
}

API CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags,
                                        int priority) {
  if (!phStream || flags > CU_STREAM_NON_BLOCKING)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = withContext())
    return E;
  priority = std::max(-5, std::min(0, priority));
  *phStream = reinterpret_cast<CUstream>(rt().createStream(flags, priority));
  return CUDA_SUCCESS;
}

API CUresult cuStreamDestroy(CUstream hStream) {
  if (CUresult E = withContext())
    return E;
  return hStream && rt().destroyStream(hStream) ? CUDA_SUCCESS
                                                : CUDA_ERROR_INVALID_HANDLE;
}

API CUresult cuStreamSynchronize(CUstream hStream) { return ready(hStream); }

API CUresult cuStreamQuery(CUstream hStream) { return ready(hStream); }

API CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent,
                               unsigned int Flags) {
  static_cast<void>(Flags);
  if (CUresult E = withContext())
    return E;
  return rt().validStream(hStream) && rt().event(hEvent)
             ? CUDA_SUCCESS
             : CUDA_ERROR_INVALID_HANDLE;
}

API CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags) {
  if (!phEvent)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = withContext())
    return E;
  *phEvent = reinterpret_cast<CUevent>(rt().createEvent(Flags));
  return CUDA_SUCCESS;
}

API CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
  if (CUresult E = withContext())
    return E;
  Event *Ev = rt().event(hEvent);
  if (!Ev || !rt().validStream(hStream))
    return CUDA_ERROR_INVALID_HANDLE;
  Ev->Time = std::chrono::steady_clock::now();
  Ev->Recorded = true;
  return CUDA_SUCCESS;
}

API CUresult cuEventQuery(CUevent hEvent) {
  if (CUresult E = withContext())
    return E;
  return rt().event(hEvent) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

API CUresult cuEventSynchronize(CUevent hEvent) {
  if (CUresult E = withContext())
    return E;
  if (!rt().event(hEvent))
    return CUDA_ERROR_INVALID_HANDLE;
  return toDriver(rt().sticky());
}

API CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart,
                                CUevent hEnd) {
  if (!pMilliseconds)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult E = withContext())
    return E;
  Event *A = rt().event(hStart), *B = rt().event(hEnd);
  if (!A || !B || !A->Recorded || !B->Recorded ||
      ((A->Flags | B->Flags) & CU_EVENT_DISABLE_TIMING))
    return CUDA_ERROR_INVALID_HANDLE;
  *pMilliseconds =
      std::chrono::duration<float, std::milli>(B->Time - A->Time).count();
  return CUDA_SUCCESS;
}

API CUresult cuEventDestroy(CUevent hEvent) {
  if (CUresult E = withContext())
    return E;
  return rt().destroyEvent(hEvent) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

API CUresult cuProfilerStart(void) { return CUDA_SUCCESS; }
API CUresult cuProfilerStop(void) { return CUDA_SUCCESS; }
