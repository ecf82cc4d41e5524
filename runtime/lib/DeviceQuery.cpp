//===- DeviceQuery.cpp - the limits of the device a launch runs on --------===//
///
/// \file
/// The cudaDeviceProp layout is the one of the CUDA headers the runtime is
/// built with. It is trusted when the CUDA runtime in the process reports
/// the same major version (or does not say, as test stand-ins do); with
/// another version the limits come from cudaDeviceGetAttribute, whose
/// attribute numbers do not change, and only the name, the first field in
/// every layout, from the structure. Buffers handed to CUDA are larger than
/// the structures, in case a library writes a longer one.
///
/// A failing CUDA call records an error that cudaGetLastError would return
/// to the program later; the runtime clears the errors it causes itself,
/// and skips optional queries while the program has an error pending, so
/// that the program's own error checks see what they would see without
/// klaraptor.
//===----------------------------------------------------------------------===//
#include "DeviceQuery.h"

#include <dlfcn.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstring>
#include <vector>

namespace klaraptor {

void DeviceQuery::lookUpLoadedDriver() const {
  if (DriverLookups.fetch_add(1, std::memory_order_relaxed) >= MaxDriverLookups)
    return;
  // RTLD_NOLOAD: only a driver the process has loaded already; the handle
  // is kept (the driver stays loaded for the process's life anyway).
  void *Lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!Lib)
    return;
  auto Cur = reinterpret_cast<CtxGetCurrentFn>(::dlsym(Lib, "cuCtxGetCurrent"));
  auto Dev = reinterpret_cast<CtxGetDeviceFn>(::dlsym(Lib, "cuCtxGetDevice"));
  if (!Cur || !Dev)
    return;
  CtxGetDevice.store(Dev, std::memory_order_release);
  CtxGetCurrent.store(Cur, std::memory_order_release);
  DriverLookups.store(MaxDriverLookups, std::memory_order_relaxed);
}

int DeviceQuery::currentDevice() const {
  int O = OverrideDevice.load(std::memory_order_acquire);
  if (O != INT32_MIN)
    return O;
  int D = -1;
  // cudaSetDevice (CUDA 12 and later) makes the device's primary context
  // current at once, so the current context's device is the runtime's
  // current device; a thread with no context yet asks the runtime.
  CtxGetCurrentFn Cur = CtxGetCurrent.load(std::memory_order_acquire);
  if (!Cur && Api.DriverLoadsLater &&
      DriverLookups.load(std::memory_order_relaxed) < MaxDriverLookups) {
    lookUpLoadedDriver();
    Cur = CtxGetCurrent.load(std::memory_order_acquire);
  }
  if (Cur) {
    void *Ctx = nullptr;
    if (Cur(&Ctx) == 0 && Ctx &&
        CtxGetDevice.load(std::memory_order_relaxed)(&D) == 0 && D >= 0)
      return D;
    D = -1;
  }
  if (Api.GetDevice)
    return Api.GetDevice(&D) == 0 && D >= 0 ? D : -1;
  if (Api.CtxGetDevice)
    return Api.CtxGetDevice(&D) == 0 && D >= 0 ? D : -1;
  return -1;
}

std::string DeviceQuery::whyNoDevice() const {
  int D = -1;
  if (Api.GetDevice) {
    int E = Api.GetDevice(&D);
    return E ? "cudaGetDevice failed: " + Api.runtimeError(E)
             : "cudaGetDevice answered device " + std::to_string(D);
  }
  if (Api.CtxGetDevice) {
    int E = Api.CtxGetDevice(&D);
    return E ? "cuCtxGetDevice failed: " + Api.driverError(E)
             : "cuCtxGetDevice answered device " + std::to_string(D);
  }
  return "neither cudaGetDevice nor cuCtxGetDevice is available in the "
         "process (no CUDA library loaded, or CUDA linked statically)";
}

bool DeviceQuery::plausible(const klaraptor_device_info &I, std::string &Why) {
  auto Bad = [&](const char *Field, long long V) {
    Why = std::string("implausible device limit ") + Field + " = " +
          std::to_string(V);
    return false;
  };
  if (I.max_threads_per_block < 1)
    return Bad("maxThreadsPerBlock", I.max_threads_per_block);
  for (int D = 0; D < 3; ++D) {
    if (I.max_block_dim[D] < 1)
      return Bad("maxThreadsDim", I.max_block_dim[D]);
    if (I.max_grid_dim[D] < 1)
      return Bad("maxGridSize", I.max_grid_dim[D]);
  }
  if (I.warp_size < 1)
    return Bad("warpSize", I.warp_size);
  return true;
}

bool DeviceQuery::setOverride(const klaraptor_device_info *Info,
                              std::string *Why) {
  std::lock_guard<std::mutex> G(M);
  if (!Info) {
    Override.reset();
    OverrideDevice.store(INT32_MIN, std::memory_order_release);
    return true;
  }
  std::string W;
  if (!plausible(*Info, W)) {
    if (Why)
      *Why = W;
    return false;
  }
  Override = std::make_unique<klaraptor_device_info>(*Info);
  Override->size = sizeof(klaraptor_device_info);
  Override->name[sizeof(Override->name) - 1] = 0;
  OverrideDevice.store(Info->device < 0 ? 0 : Info->device,
                       std::memory_order_release);
  Override->device = OverrideDevice.load();
  return true;
}

const klaraptor_device_info *DeviceQuery::limits(int Device, std::string &Why) {
  std::lock_guard<std::mutex> G(M);
  if (Override)
    return Override.get();
  auto &Slot = ByDevice[Device];
  if (!Slot) {
    Slot = std::make_unique<Cached>();
    klaraptor_device_info &I = Slot->Info;
    std::memset(&I, 0, sizeof(I));
    I.size = sizeof(I);
    I.device = Device;
    if (Api.GetDeviceProperties || Api.DeviceGetAttribute)
      Slot->Ok = queryRuntime(Device, I, Slot->Why);
    else if (Api.DrvDeviceGetAttribute)
      Slot->Ok = queryDriver(Device, I, Slot->Why);
    else
      Slot->Why = "neither cudaGetDeviceProperties nor cuDeviceGetAttribute "
                  "is available in the process";
    if (Slot->Ok)
      Slot->Ok = plausible(I, Slot->Why);
  }
  if (!Slot->Ok) {
    Why = Slot->Why;
    return nullptr;
  }
  return &Slot->Info;
}

bool DeviceQuery::queryRuntime(int Device, klaraptor_device_info &I,
                               std::string &Why) {
  bool UserErrorPending = Api.PeekAtLastError && Api.PeekAtLastError() != 0;
  auto Consume = [&] {
    if (!UserErrorPending && Api.GetLastError)
      Api.GetLastError();
  };
  int Version = 0;
  bool SameLayout = true;
  if (Api.RuntimeGetVersion && Api.RuntimeGetVersion(&Version) == 0 &&
      Version / 1000 != CUDART_VERSION / 1000)
    SameLayout = false;

  // Room for a library whose structure is longer than ours.
  std::vector<unsigned char> Buf(sizeof(cudaDeviceProp) + 4096, 0);
  bool HaveProps = false;
  if (Api.GetDeviceProperties) {
    int E = Api.GetDeviceProperties(Buf.data(), Device);
    if (E != 0) {
      Consume();
      if (SameLayout || !Api.DeviceGetAttribute) {
        Why = Api.DevicePropertiesSymbol + "(" + std::to_string(Device) +
              ") failed: " + Api.runtimeError(E);
        return false;
      }
    } else {
      HaveProps = true;
    }
  }
  if (HaveProps) {
    // The name is the first field in every layout.
    std::memcpy(I.name, Buf.data(), sizeof(I.name) - 1);
    I.name[sizeof(I.name) - 1] = 0;
  }
  if (HaveProps && (SameLayout || !Api.DeviceGetAttribute)) {
    cudaDeviceProp P;
    std::memcpy(&P, Buf.data(), sizeof(P));
    I.cc_major = P.major;
    I.cc_minor = P.minor;
    I.sm_count = P.multiProcessorCount;
    I.max_threads_per_block = P.maxThreadsPerBlock;
    for (int D = 0; D < 3; ++D) {
      I.max_block_dim[D] = P.maxThreadsDim[D];
      I.max_grid_dim[D] = P.maxGridSize[D];
    }
    I.max_threads_per_sm = P.maxThreadsPerMultiProcessor;
    I.max_blocks_per_sm = P.maxBlocksPerMultiProcessor;
    I.regs_per_sm = P.regsPerMultiprocessor;
    I.regs_per_block = P.regsPerBlock;
    I.warp_size = P.warpSize;
    I.shared_mem_per_sm = P.sharedMemPerMultiprocessor;
    I.shared_mem_per_block = P.sharedMemPerBlock;
    return true;
  }
  if (!Api.DeviceGetAttribute) {
    Why = "cudaGetDeviceProperties is not available in the process";
    return false;
  }
  struct Field {
    cudaDeviceAttr Attr;
    int32_t *Into;
  };
  int32_t SmemSm = 0, SmemBlock = 0;
  const Field Fields[] = {
      {cudaDevAttrMaxThreadsPerBlock, &I.max_threads_per_block},
      {cudaDevAttrMaxBlockDimX, &I.max_block_dim[0]},
      {cudaDevAttrMaxBlockDimY, &I.max_block_dim[1]},
      {cudaDevAttrMaxBlockDimZ, &I.max_block_dim[2]},
      {cudaDevAttrMaxGridDimX, &I.max_grid_dim[0]},
      {cudaDevAttrMaxGridDimY, &I.max_grid_dim[1]},
      {cudaDevAttrMaxGridDimZ, &I.max_grid_dim[2]},
      {cudaDevAttrWarpSize, &I.warp_size},
      {cudaDevAttrMultiProcessorCount, &I.sm_count},
      {cudaDevAttrComputeCapabilityMajor, &I.cc_major},
      {cudaDevAttrComputeCapabilityMinor, &I.cc_minor},
      {cudaDevAttrMaxThreadsPerMultiProcessor, &I.max_threads_per_sm},
      {cudaDevAttrMaxBlocksPerMultiprocessor, &I.max_blocks_per_sm},
      {cudaDevAttrMaxRegistersPerMultiprocessor, &I.regs_per_sm},
      {cudaDevAttrMaxRegistersPerBlock, &I.regs_per_block},
      {cudaDevAttrMaxSharedMemoryPerMultiprocessor, &SmemSm},
      {cudaDevAttrMaxSharedMemoryPerBlock, &SmemBlock},
  };
  for (const Field &F : Fields) {
    int V = 0;
    int E = Api.DeviceGetAttribute(&V, int(F.Attr), Device);
    if (E != 0) {
      Consume();
      Why = "cudaDeviceGetAttribute(" + std::to_string(int(F.Attr)) + ", " +
            std::to_string(Device) + ") failed: " + Api.runtimeError(E);
      return false;
    }
    *F.Into = V;
  }
  I.shared_mem_per_sm = uint64_t(uint32_t(SmemSm));
  I.shared_mem_per_block = uint64_t(uint32_t(SmemBlock));
  return true;
}

bool DeviceQuery::queryDriver(int Device, klaraptor_device_info &I,
                              std::string &Why) {
  struct Field {
    CUdevice_attribute Attr;
    int32_t *Into;
  };
  int32_t SmemSm = 0, SmemBlock = 0;
  const Field Fields[] = {
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &I.max_threads_per_block},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, &I.max_block_dim[0]},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, &I.max_block_dim[1]},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, &I.max_block_dim[2]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, &I.max_grid_dim[0]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, &I.max_grid_dim[1]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, &I.max_grid_dim[2]},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, &I.warp_size},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &I.sm_count},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &I.cc_major},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &I.cc_minor},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
       &I.max_threads_per_sm},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
       &I.max_blocks_per_sm},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, &I.regs_per_sm},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, &I.regs_per_block},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, &SmemSm},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &SmemBlock},
  };
  for (const Field &F : Fields) {
    int V = 0;
    int E = Api.DrvDeviceGetAttribute(&V, int(F.Attr), Device);
    if (E != 0) {
      Why = "cuDeviceGetAttribute(" + std::to_string(int(F.Attr)) + ", " +
            std::to_string(Device) + ") failed: " + Api.driverError(E);
      return false;
    }
    *F.Into = V;
  }
  I.shared_mem_per_sm = uint64_t(uint32_t(SmemSm));
  I.shared_mem_per_block = uint64_t(uint32_t(SmemBlock));
  if (Api.DrvDeviceGetName &&
      Api.DrvDeviceGetName(I.name, int(sizeof(I.name) - 1), Device) != 0)
    I.name[0] = 0;
  I.name[sizeof(I.name) - 1] = 0;
  return true;
}

void DeviceQuery::setKernelMaxThreadsOverride(const void *HostHandle,
                                              int MaxThreads) {
  std::lock_guard<std::mutex> G(M);
  if (MaxThreads > 0)
    KernelOverride[HostHandle] = MaxThreads;
  else
    KernelOverride.erase(HostHandle);
}

DeviceQuery::KernelLimits DeviceQuery::kernelLimits(const void *HostHandle,
                                                   void *CuFunction,
                                                   int Device) {
  (void)Device; // The current device is the one asked about.
  KernelLimits K;
  if (OverrideDevice.load(std::memory_order_acquire) != INT32_MIN) {
    std::lock_guard<std::mutex> G(M);
    auto It = KernelOverride.find(HostHandle);
    K.MaxThreads = It == KernelOverride.end() ? 0 : It->second;
    return K;
  }
  if (CuFunction && Api.FuncGetAttribute) {
    int V = 0;
    if (Api.FuncGetAttribute(&V, int(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
                             CuFunction) == 0 &&
        V > 0)
      K.MaxThreads = V;
    V = 0;
    if (Api.FuncGetAttribute(
            &V, int(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES),
            CuFunction) == 0 &&
        V > 0)
      K.MaxDynamicShared = V;
    return K;
  }
  if (!HostHandle || !Api.FuncGetAttributes)
    return K;
  // An optional query: do not overwrite an error the program has pending.
  if (Api.PeekAtLastError && Api.PeekAtLastError() != 0)
    return K;
  std::vector<unsigned char> Buf(sizeof(cudaFuncAttributes) + 1024, 0);
  if (Api.FuncGetAttributes(Buf.data(), HostHandle) != 0) {
    if (Api.GetLastError)
      Api.GetLastError();
    return K;
  }
  cudaFuncAttributes A;
  std::memcpy(&A, Buf.data(), sizeof(A));
  K.MaxThreads = A.maxThreadsPerBlock > 0 ? A.maxThreadsPerBlock : 0;
  K.MaxDynamicShared =
      A.maxDynamicSharedSizeBytes > 0 ? A.maxDynamicSharedSizeBytes : 0;
  return K;
}

} // namespace klaraptor
