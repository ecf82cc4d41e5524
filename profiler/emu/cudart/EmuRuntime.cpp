//===- EmuRuntime.cpp - the state behind the emulated CUDA runtime --------===//
///
/// \file
/// Device profile, modules, memory, handles, errors and the launch path of
/// libklaraptor_emu_cudart (EmuRuntime.h). Environment, read once:
///   KLARAPTOR_EMU_DEVICE   device profile name or file (default h100-sxm)
///   KLARAPTOR_EMU_REPORT   file receiving one JSON line per launch
///   KLARAPTOR_EMU_SAMPLE   execute only N blocks per launch, scale counts
///   KLARAPTOR_EMU_THREADS  host threads per launch (default 1)
///   KLARAPTOR_EMU_ESTIMATE 0: no time estimates in reported launches
///   KLARAPTOR_EMU_EXECUTE  0: launches are checked but not executed (device
///                          memory keeps its contents; for benchmarks that
///                          need only launch decisions and sweeps)
///   KLARAPTOR_EMU_CACHE    0: the estimate without its cache model (on by
///                          default, sized by the device profile;
///                          docs/timing.md)
///   KLARAPTOR_EMU_TIMING_PARAMS  timing parameter overrides (docs/timing.md)
///   KLARAPTOR_EMU_EXPLAIN  file receiving a timing report per launch
///                          (Explain.cpp; KLARAPTOR_EMU_EXPLAIN_LAUNCH=N: the
///                          N-th launch only)
//===----------------------------------------------------------------------===//
#include "EmuRuntime.h"

#include "Backend.h"
#include "backend/EmuBackend.h"

#include <algorithm>
#include <utility>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace klaraptor::emurt {

namespace {

thread_local cudaError_t LastError = cudaSuccess;

bool parseUnsigned(const char *S, uint64_t &V) {
  if (!S || !*S)
    return false;
  errno = 0;
  char *End = nullptr;
  unsigned long long X = std::strtoull(S, &End, 10);
  if (errno || *End || *S == '-')
    return false;
  V = X;
  return true;
}

} // namespace

const char *errorName(cudaError_t E) {
  switch (E) {
#define CUDART_ERROR(Name, Value, Message)                                     \
  case Name:                                                                   \
    return #Name;
#include "RuntimeErrors.def"
  default:
    return "unrecognized error code";
  }
}

// --- Function / LoadedModule ------------------------------------------------

/// cudaFuncSetAttribute on a Function (also behind cuFuncSetAttribute).
cudaError_t setFuncAttribute(Function &F, int Attr, int Value) {
  const devices::DeviceProfile &D = *Runtime::get().device();
  switch (Attr) {
  case cudaFuncAttributeMaxDynamicSharedMemorySize: {
    int64_t Static = F.Info ? F.Info->StaticSharedBytes : 0;
    if (Value < 0 || Value > D.SharedMemPerBlockOptin - Static)
      return cudaErrorInvalidValue;
    F.MaxDynamicShared.store(Value);
    return cudaSuccess;
  }
  case cudaFuncAttributePreferredSharedMemoryCarveout:
    if (Value < -1 || Value > 100)
      return cudaErrorInvalidValue;
    F.Carveout.store(Value);
    return cudaSuccess;
  case cudaFuncAttributeNonPortableClusterSizeAllowed:
  case cudaFuncAttributeClusterSchedulingPolicyPreference:
    return cudaSuccess;
  case cudaFuncAttributeRequiredClusterWidth:
  case cudaFuncAttributeRequiredClusterHeight:
  case cudaFuncAttributeRequiredClusterDepth:
    return Value <= 1
               ? cudaSuccess
               : cudaError_t(Runtime::get().unsupported(
                     "cudaFuncSetAttribute with a required cluster size"));
  default:
    return cudaErrorInvalidValue;
  }
}

devices::KernelResources Function::resources() const {
  devices::KernelResources K;
  K.Registers = Registers;
  K.StaticSharedBytes = Info ? Info->StaticSharedBytes : 0;
  K.MaxDynamicSharedBytes = MaxDynamicShared.load();
  K.CarveoutPercent = Carveout.load();
  K.MaxThreadsPerBlock = Info ? Info->MaxThreads : 0;
  return K;
}

void fillFuncAttributes(cudaFuncAttributes &A, const Function &F,
                        const devices::DeviceProfile &D) {
  std::memset(&A, 0, sizeof A);
  devices::KernelResources K = F.resources();
  A.sharedSizeBytes = size_t(K.StaticSharedBytes);
  A.constSizeBytes = 0;
  // ptxas's stack frame when the cubin describes the kernel, as CUDA
  // reports it; else the emulator's local memory per thread.
  A.localSizeBytes =
      F.InCubin ? F.FrameSize : (F.Info ? F.Info->LocalBytes : 0);
  A.maxThreadsPerBlock = int(devices::maxThreadsPerBlock(D, K));
  A.numRegs = int(F.Registers);
  A.ptxVersion = int(F.Module->Image.PtxArch);
  A.binaryVersion = int(F.Module->Image.CubinArch ? F.Module->Image.CubinArch
                                                  : F.Module->Image.PtxArch);
  A.cacheModeCA = 0;
  A.maxDynamicSharedSizeBytes = int(devices::maxDynamicSharedBytes(D, K));
  A.preferredShmemCarveout = int(K.CarveoutPercent);
}

Function *LoadedModule::function(std::string_view Name) {
  std::lock_guard<std::mutex> G(FunctionsMutex);
  auto It = Functions.find(Name);
  if (It != Functions.end())
    return It->second.get();
  const emu::KernelInfo *Info = M->findKernel(Name);
  if (!Info)
    return nullptr;
  auto F = std::make_unique<Function>();
  F->Module = this;
  F->Name = std::string(Name);
  F->Info = Info;
  auto C = Image.Functions.find(F->Name);
  if (C != Image.Functions.end()) {
    F->Registers = C->second.HasRegisters ? C->second.Registers : 0;
    F->FrameSize = C->second.FrameSize;
    F->InCubin = true;
  }
  if (!F->Registers)
    F->Registers = Info->Registers;
  Function *Raw = F.get();
  Functions.emplace(F->Name, std::move(F));
  return Raw;
}

// --- Runtime: construction, errors ----------------------------------------

Runtime &Runtime::get() {
  // Never destroyed: atexit handlers (__cudaUnregisterFatBinary) and other
  // threads may still call in while the process exits.
  static Runtime *R = new Runtime();
  return *R;
}

Runtime::Runtime() {
  Primary.Primary = true;
  uint64_t V = 0;
  if (const char *T = std::getenv("KLARAPTOR_EMU_THREADS")) {
    if (parseUnsigned(T, V) && V >= 1 && V <= 1024)
      HostThreads = unsigned(V);
    else
      note(std::string("KLARAPTOR_EMU_THREADS='") + T +
           "' is not a number of threads in 1..1024; using 1");
  }
  if (const char *S = std::getenv("KLARAPTOR_EMU_SAMPLE")) {
    if (parseUnsigned(S, V))
      SampleBlocks = V;
    else
      note(std::string("KLARAPTOR_EMU_SAMPLE='") + S +
           "' is not a number of blocks; executing every block");
  }
  if (const char *P = std::getenv("KLARAPTOR_EMU_REPORT"))
    ReportPath = P;
  if (const char *E = std::getenv("KLARAPTOR_EMU_ESTIMATE"))
    Estimate = std::strcmp(E, "0") != 0;
  if (const char *E = std::getenv("KLARAPTOR_EMU_CHECK_MEMORY")) {
    if (std::strcmp(E, "0") == 0)
      CheckMemory = false;
    else if (std::strcmp(E, "1") != 0)
      note(std::string("KLARAPTOR_EMU_CHECK_MEMORY='") + E +
           "' is not 0 or 1; checking every global access");
  }
  if (const char *E = std::getenv("KLARAPTOR_EMU_EXECUTE")) {
    Execute = std::strcmp(E, "0") != 0;
    if (!Execute)
      note("KLARAPTOR_EMU_EXECUTE=0: kernels are not executed; the program's "
           "results are meaningless");
  }
  initExplain();
  // CUDA's documented defaults.
  Limits[cudaLimitStackSize] = 1024;
  Limits[cudaLimitPrintfFifoSize] = 1 << 20;
  Limits[cudaLimitMallocHeapSize] = 8 << 20;
  Limits[cudaLimitDevRuntimeSyncDepth] = 2;
  Limits[cudaLimitDevRuntimePendingLaunchCount] = 2048;
  Limits[cudaLimitMaxL2FetchGranularity] = 64;
  Limits[cudaLimitPersistingL2CacheSize] = 0;
}

cudaError_t Runtime::ret(cudaError_t E) {
  if (E != cudaSuccess)
    LastError = E;
  return E;
}

cudaError_t Runtime::lastError(bool Reset) {
  if (cudaError_t S = sticky())
    return S;
  cudaError_t E = LastError;
  if (Reset)
    LastError = cudaSuccess;
  return E;
}

void Runtime::note(const std::string &Message) {
  {
    std::lock_guard<std::mutex> G(NoteMutex);
    if (!Noted.insert(Message).second)
      return;
  }
  std::string Line = "klaraptor emulator: " + Message + "\n";
  // One write, so that lines of several threads do not interleave.
  if (::write(2, Line.data(), Line.size()) < 0) {
    // stderr is gone; nothing else to tell.
  }
}

int Runtime::unsupported(const char *Call, bool Driver) {
  note(std::string("'") + Call + "' is not supported");
  if (!Driver)
    ret(cudaErrorNotSupported);
  return cudaErrorNotSupported;
}

int reportUnsupported(const char *Call, bool Driver) {
  return Runtime::get().unsupported(Call, Driver);
}

// --- device -----------------------------------------------------------------

const devices::DeviceProfile *Runtime::device() {
  std::call_once(DeviceOnce, [this] {
    const char *Spec = std::getenv("KLARAPTOR_EMU_DEVICE");
    auto P = std::make_unique<devices::DeviceProfile>();
    std::string Error;
    if (devices::loadDeviceProfile(Spec ? Spec : "", *P, Error))
      Device = std::move(P);
    else
      note("error: KLARAPTOR_EMU_DEVICE: " + Error +
           "; no CUDA device is emulated");
  });
  return Device.get();
}

void Runtime::fillProperties(cudaDeviceProp &Prop) {
  std::memset(&Prop, 0, sizeof Prop);
  const devices::DeviceProfile *D = device();
  if (!D)
    return;
  std::snprintf(Prop.name, sizeof Prop.name, "%s", D->Name.c_str());
  // A fixed UUID, so that tools that key on it see one device.
  std::memcpy(Prop.uuid.bytes, "klaraptor-emu-0\0", 16);
  Prop.totalGlobalMem = size_t(D->TotalGlobalMem);
  Prop.sharedMemPerBlock = size_t(D->SharedMemPerBlock);
  Prop.regsPerBlock = int(D->RegsPerBlock);
  Prop.warpSize = int(D->WarpSize);
  Prop.memPitch = size_t(D->MemPitch);
  Prop.maxThreadsPerBlock = int(D->MaxThreadsPerBlock);
  for (int I = 0; I < 3; ++I) {
    Prop.maxThreadsDim[I] = int(D->MaxThreadsDim[I]);
    Prop.maxGridSize[I] = int(D->MaxGridSize[I]);
  }
  Prop.totalConstMem = size_t(D->TotalConstMem);
  Prop.major = int(D->Major);
  Prop.minor = int(D->Minor);
  Prop.textureAlignment = size_t(D->TextureAlignment);
  Prop.texturePitchAlignment = size_t(D->TexturePitchAlignment);
  Prop.multiProcessorCount = int(D->MultiProcessorCount);
  Prop.integrated = int(D->Integrated);
  Prop.canMapHostMemory = int(D->CanMapHostMemory);
  Prop.concurrentKernels = int(D->ConcurrentKernels);
  Prop.ECCEnabled = int(D->ECCEnabled);
  Prop.asyncEngineCount = int(D->AsyncEngineCount);
  Prop.unifiedAddressing = int(D->UnifiedAddressing);
  Prop.memoryBusWidth = int(D->MemoryBusWidth);
  Prop.l2CacheSize = int(D->L2CacheSize);
  Prop.persistingL2CacheMaxSize = int(D->PersistingL2CacheMaxSize);
  Prop.maxThreadsPerMultiProcessor = int(D->MaxThreadsPerMultiProcessor);
  Prop.streamPrioritiesSupported = int(D->StreamPrioritiesSupported);
  Prop.globalL1CacheSupported = int(D->GlobalL1CacheSupported);
  Prop.localL1CacheSupported = int(D->LocalL1CacheSupported);
  Prop.sharedMemPerMultiprocessor = size_t(D->SharedMemPerMultiprocessor);
  Prop.regsPerMultiprocessor = int(D->RegsPerMultiprocessor);
  Prop.managedMemory = int(D->ManagedMemory);
  Prop.concurrentManagedAccess = int(D->ConcurrentManagedAccess);
  Prop.computePreemptionSupported = int(D->ComputePreemptionSupported);
  Prop.cooperativeLaunch = int(D->CooperativeLaunch);
  Prop.sharedMemPerBlockOptin = size_t(D->SharedMemPerBlockOptin);
  Prop.maxBlocksPerMultiProcessor = int(D->MaxBlocksPerMultiProcessor);
  Prop.accessPolicyMaxWindowSize = int(D->AccessPolicyMaxWindowSize);
  Prop.reservedSharedMemPerBlock = size_t(D->ReservedSharedMemPerBlock);
  Prop.hostRegisterSupported = 1;
  Prop.memoryPoolsSupported = int(D->MemoryPoolsSupported);
  Prop.clusterLaunch = int(D->ClusterLaunch);
  Prop.deviceNumaId = -1;
  Prop.hostNumaId = -1;
}

cudaError_t Runtime::attribute(int Attr, int &Value) {
  const devices::DeviceProfile *D = device();
  if (!D)
    return cudaErrorNoDevice;
  auto I = [](int64_t V) { return int(std::min<int64_t>(V, INT32_MAX)); };
  switch (Attr) {
  case cudaDevAttrMaxThreadsPerBlock:
    Value = I(D->MaxThreadsPerBlock);
    break;
  case cudaDevAttrMaxBlockDimX:
    Value = I(D->MaxThreadsDim[0]);
    break;
  case cudaDevAttrMaxBlockDimY:
    Value = I(D->MaxThreadsDim[1]);
    break;
  case cudaDevAttrMaxBlockDimZ:
    Value = I(D->MaxThreadsDim[2]);
    break;
  case cudaDevAttrMaxGridDimX:
    Value = I(D->MaxGridSize[0]);
    break;
  case cudaDevAttrMaxGridDimY:
    Value = I(D->MaxGridSize[1]);
    break;
  case cudaDevAttrMaxGridDimZ:
    Value = I(D->MaxGridSize[2]);
    break;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    Value = I(D->SharedMemPerBlock);
    break;
  case cudaDevAttrTotalConstantMemory:
    Value = I(D->TotalConstMem);
    break;
  case cudaDevAttrWarpSize:
    Value = I(D->WarpSize);
    break;
  case cudaDevAttrMaxPitch:
    Value = I(D->MemPitch);
    break;
  case cudaDevAttrMaxRegistersPerBlock:
    Value = I(D->RegsPerBlock);
    break;
  case cudaDevAttrClockRate:
    Value = I(D->ClockRate);
    break;
  case cudaDevAttrTextureAlignment:
    Value = I(D->TextureAlignment);
    break;
  case cudaDevAttrGpuOverlap:
    Value = D->AsyncEngineCount > 0;
    break;
  case cudaDevAttrMultiProcessorCount:
    Value = I(D->MultiProcessorCount);
    break;
  case cudaDevAttrKernelExecTimeout:
    Value = 0;
    break;
  case cudaDevAttrIntegrated:
    Value = I(D->Integrated);
    break;
  case cudaDevAttrCanMapHostMemory:
    Value = I(D->CanMapHostMemory);
    break;
  case cudaDevAttrComputeMode:
    Value = cudaComputeModeDefault;
    break;
  case cudaDevAttrConcurrentKernels:
    Value = I(D->ConcurrentKernels);
    break;
  case cudaDevAttrEccEnabled:
    Value = I(D->ECCEnabled);
    break;
  case cudaDevAttrPciBusId:
    Value = 0;
    break;
  case cudaDevAttrPciDeviceId:
    Value = 0;
    break;
  case cudaDevAttrPciDomainId:
    Value = 0;
    break;
  case cudaDevAttrTccDriver:
    Value = 0;
    break;
  case cudaDevAttrMemoryClockRate:
    Value = I(D->MemoryClockRate);
    break;
  case cudaDevAttrGlobalMemoryBusWidth:
    Value = I(D->MemoryBusWidth);
    break;
  case cudaDevAttrL2CacheSize:
    Value = I(D->L2CacheSize);
    break;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    Value = I(D->MaxThreadsPerMultiProcessor);
    break;
  case cudaDevAttrAsyncEngineCount:
    Value = I(D->AsyncEngineCount);
    break;
  case cudaDevAttrUnifiedAddressing:
    Value = I(D->UnifiedAddressing);
    break;
  case cudaDevAttrTexturePitchAlignment:
    Value = I(D->TexturePitchAlignment);
    break;
  case cudaDevAttrComputeCapabilityMajor:
    Value = I(D->Major);
    break;
  case cudaDevAttrComputeCapabilityMinor:
    Value = I(D->Minor);
    break;
  case cudaDevAttrStreamPrioritiesSupported:
    Value = I(D->StreamPrioritiesSupported);
    break;
  case cudaDevAttrGlobalL1CacheSupported:
    Value = I(D->GlobalL1CacheSupported);
    break;
  case cudaDevAttrLocalL1CacheSupported:
    Value = I(D->LocalL1CacheSupported);
    break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    Value = I(D->SharedMemPerMultiprocessor);
    break;
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    Value = I(D->RegsPerMultiprocessor);
    break;
  case cudaDevAttrManagedMemory:
    Value = I(D->ManagedMemory);
    break;
  case cudaDevAttrIsMultiGpuBoard:
    Value = 0;
    break;
  case cudaDevAttrMultiGpuBoardGroupID:
    Value = 0;
    break;
  case cudaDevAttrHostNativeAtomicSupported:
    Value = 0;
    break;
  case cudaDevAttrPageableMemoryAccess:
    Value = 0;
    break;
  case cudaDevAttrConcurrentManagedAccess:
    Value = I(D->ConcurrentManagedAccess);
    break;
  case cudaDevAttrComputePreemptionSupported:
    Value = I(D->ComputePreemptionSupported);
    break;
  case cudaDevAttrCanUseHostPointerForRegisteredMem:
    Value = 1;
    break;
  case cudaDevAttrCooperativeLaunch:
    Value = I(D->CooperativeLaunch);
    break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    Value = I(D->SharedMemPerBlockOptin);
    break;
  case cudaDevAttrCanFlushRemoteWrites:
    Value = 0;
    break;
  case cudaDevAttrHostRegisterSupported:
    Value = 1;
    break;
  case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
    Value = 0;
    break;
  case cudaDevAttrDirectManagedMemAccessFromHost:
    Value = 0;
    break;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    Value = I(D->MaxBlocksPerMultiProcessor);
    break;
  case cudaDevAttrMaxPersistingL2CacheSize:
    Value = I(D->PersistingL2CacheMaxSize);
    break;
  case cudaDevAttrMaxAccessPolicyWindowSize:
    Value = I(D->AccessPolicyMaxWindowSize);
    break;
  case cudaDevAttrReservedSharedMemoryPerBlock:
    Value = I(D->ReservedSharedMemPerBlock);
    break;
  case cudaDevAttrMemoryPoolsSupported:
    Value = I(D->MemoryPoolsSupported);
    break;
  case cudaDevAttrClusterLaunch:
    Value = I(D->ClusterLaunch);
    break;
  case cudaDevAttrNumaConfig:
    Value = 0;
    break;
  case cudaDevAttrNumaId:
    Value = -1;
    break;
  case cudaDevAttrHostNumaId:
    Value = -1;
    break;
  case cudaDevAttrMpsEnabled:
    Value = 0;
    break;
  default:
    note("device attribute " + std::to_string(Attr) +
         " is not described by the device profile; the query fails with "
         "cudaErrorInvalidValue");
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

size_t Runtime::limit(int Which) const {
  std::lock_guard<std::mutex> G(LimitsMutex);
  auto It = Limits.find(Which);
  return It == Limits.end() ? 0 : It->second;
}

void Runtime::setLimit(int Which, size_t Value) {
  std::lock_guard<std::mutex> G(LimitsMutex);
  Limits[Which] = Value;
}

// --- modules and kernels ---------------------------------------------------

void **Runtime::registerFatbin(const void *Wrapper) {
  auto R = std::make_unique<FatbinRecord>();
  R->Wrapper = Wrapper;
  std::lock_guard<std::mutex> G(RegistryMutex);
  Fatbins.push_back(std::move(R));
  return reinterpret_cast<void **>(Fatbins.back().get());
}

void Runtime::registerFunction(void **Handle, const void *HostFun,
                               const char *DeviceName) {
  if (!Handle || !HostFun || !DeviceName)
    return;
  std::lock_guard<std::mutex> G(RegistryMutex);
  HostFunctions[HostFun] = {reinterpret_cast<FatbinRecord *>(Handle),
                            DeviceName};
}

void Runtime::registerVar(void **Handle, const void *HostVar,
                          const char *DeviceName, size_t Size, bool) {
  if (!Handle || !HostVar || !DeviceName)
    return;
  std::lock_guard<std::mutex> G(RegistryMutex);
  HostVars[HostVar] = {reinterpret_cast<FatbinRecord *>(Handle), DeviceName,
                       Size};
}

/// Gives every kernel of \p M the register count ptxas recorded.
static void applyRegisters(LoadedModule &M) {
  for (const emu::KernelInfo *K : M.M->kernels()) {
    auto It = M.Image.Functions.find(K->Name);
    if (It != M.Image.Functions.end() && It->second.HasRegisters)
      M.M->setRegisters(K->Name, It->second.Registers);
  }
}

bool Runtime::ensureLoaded(FatbinRecord &R) {
  std::call_once(R.Once, [&] {
    const devices::DeviceProfile *D = device();
    if (!D) {
      R.Error = cudaErrorNoDevice;
      return;
    }
    std::string Error;
    const uint8_t *Fatbin = nullptr;
    std::vector<FatbinEntry> Entries;
    if (!fatbinFromWrapper(R.Wrapper, Fatbin, Error) ||
        !parseFatbin(Fatbin, Entries, Error)) {
      R.Error = cudaErrorInvalidKernelImage;
      R.Message = "error: cannot read the program's fatbin: " + Error;
      return;
    }
    auto M = std::make_unique<LoadedModule>();
    switch (selectImage(Entries, uint32_t(D->arch()), M->Image, Error)) {
    case ImageError::None:
      break;
    case ImageError::NoImage:
      R.Error = cudaErrorNoKernelImageForDevice;
      R.Message = "error: " + Error;
      return;
    case ImageError::Compressed:
    case ImageError::Invalid:
      R.Error = cudaErrorInvalidKernelImage;
      R.Message = "error: " + Error;
      return;
    }
    M->Origin = "the compute_" + std::to_string(M->Image.PtxArch) +
                " PTX of the program's fatbin";
    M->M = emu::Module::load(M->Image.Ptx, Error);
    if (!M->M) {
      R.Error = cudaErrorInvalidPtx;
      R.Message = "error: cannot load " + M->Origin + ": " + Error;
      return;
    }
    if (M->Image.Functions.empty())
      note("the program's fatbin has no sm_" + std::to_string(D->arch() / 10) +
           "x cubin for compute_" + std::to_string(D->arch()) +
           ": register counts are unknown (0) and occupancy ignores them");
    applyRegisters(*M);
    std::lock_guard<std::mutex> G(RegistryMutex);
    Modules.insert(M.get());
    R.Module = M.release();
  });
  if (R.Error != cudaSuccess && !R.Message.empty())
    note(R.Message);
  return R.Error == cudaSuccess;
}

cudaError_t Runtime::hostFunction(const void *HostFun, Function *&F) {
  F = nullptr;
  FatbinRecord *R = nullptr;
  std::string Name;
  {
    std::lock_guard<std::mutex> G(RegistryMutex);
    auto It = HostFunctions.find(HostFun);
    if (It == HostFunctions.end())
      return cudaErrorInvalidDeviceFunction;
    R = It->second.Fatbin;
    Name = It->second.DeviceName;
  }
  if (!ensureLoaded(*R))
    return R->Error;
  F = R->Module->function(Name);
  if (!F) {
    note("error: kernel '" + Name + "' is not in " + R->Module->Origin);
    return cudaErrorInvalidDeviceFunction;
  }
  std::lock_guard<std::mutex> G(RegistryMutex);
  Functions.insert(F);
  return cudaSuccess;
}

cudaError_t Runtime::hostVariable(const void *HostVar, void *&Address,
                                  size_t &Size) {
  FatbinRecord *R = nullptr;
  std::string Name;
  {
    std::lock_guard<std::mutex> G(RegistryMutex);
    auto It = HostVars.find(HostVar);
    if (It == HostVars.end())
      return cudaErrorInvalidSymbol;
    R = It->second.Fatbin;
    Name = It->second.DeviceName;
  }
  if (!ensureLoaded(*R))
    return R->Error;
  if (!R->Module->M->findGlobal(Name, Address, Size)) {
    note("error: variable '" + Name + "' is not in " + R->Module->Origin);
    return cudaErrorInvalidSymbol;
  }
  return cudaSuccess;
}

CUresult Runtime::loadModule(const void *Image, const std::string &Origin,
                             LoadedModule *&Out) {
  Out = nullptr;
  const devices::DeviceProfile *D = device();
  if (!D)
    return CUDA_ERROR_NO_DEVICE;
  if (!Image)
    return CUDA_ERROR_INVALID_VALUE;
  auto M = std::make_unique<LoadedModule>();
  std::string Error;
  const auto *Bytes = static_cast<const uint8_t *>(Image);
  uint32_t Magic;
  std::memcpy(&Magic, Bytes, sizeof Magic);
  if (Magic == FatbinWrapperMagic || Magic == FatbinMagic) {
    const uint8_t *Fatbin = Bytes;
    std::vector<FatbinEntry> Entries;
    if ((Magic == FatbinWrapperMagic &&
         !fatbinFromWrapper(Image, Fatbin, Error)) ||
        !parseFatbin(Fatbin, Entries, Error)) {
      note("error: " + Origin + ": " + Error);
      return CUDA_ERROR_INVALID_IMAGE;
    }
    switch (selectImage(Entries, uint32_t(D->arch()), M->Image, Error)) {
    case ImageError::None:
      break;
    case ImageError::NoImage:
      note("error: " + Origin + ": " + Error);
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    default:
      note("error: " + Origin + ": " + Error);
      return CUDA_ERROR_INVALID_IMAGE;
    }
    M->Origin =
        Origin + " (its compute_" + std::to_string(M->Image.PtxArch) + " PTX)";
  } else if (std::memcmp(Bytes,
                         "\x7f"
                         "ELF",
                         4) == 0) {
    note("error: " + Origin +
         ": a cubin holds machine code (SASS), which the emulator cannot "
         "run; load PTX (nvcc -ptx) or a fatbin that holds PTX");
    return CUDA_ERROR_INVALID_IMAGE;
  } else {
    M->Image.Ptx = static_cast<const char *>(Image);
    M->Origin = Origin;
    // The JIT refuses PTX for a newer target than the device.
    size_t T = M->Image.Ptx.find(".target");
    if (T != std::string::npos) {
      size_t S = M->Image.Ptx.find("sm_", T);
      if (S != std::string::npos && S < T + 32) {
        unsigned Arch =
            unsigned(std::strtoul(&M->Image.Ptx[S + 3], nullptr, 10));
        M->Image.PtxArch = Arch;
        if (Arch > D->arch()) {
          note("error: " + Origin + ": the PTX targets sm_" +
               std::to_string(Arch) + ", newer than the emulated device (" +
               D->Id + ", compute capability " + std::to_string(D->Major) +
               "." + std::to_string(D->Minor) + ")");
          return CUDA_ERROR_NO_BINARY_FOR_GPU;
        }
      }
    }
  }
  M->M = emu::Module::load(M->Image.Ptx, Error);
  if (!M->M) {
    note("error: cannot load " + M->Origin + ": " + Error);
    return CUDA_ERROR_INVALID_PTX;
  }
  applyRegisters(*M);
  std::lock_guard<std::mutex> G(RegistryMutex);
  Modules.insert(M.get());
  Out = M.release();
  return CUDA_SUCCESS;
}

void Runtime::unloadModule(LoadedModule *M) {
  std::vector<const void *> Fns;
  {
    std::lock_guard<std::mutex> F(M->FunctionsMutex);
    for (auto &[Name, Fn] : M->Functions)
      Fns.push_back(Fn.get());
  }
  std::lock_guard<std::mutex> G(RegistryMutex);
  Modules.erase(M);
  for (const void *Fn : Fns)
    Functions.erase(Fn);
  // The module itself stays allocated: the klaraptor runtime may have
  // cached a CUfunction of it, and a stale handle must fail a lookup, not
  // read freed memory. Modules are few.
}

void Runtime::adoptFunction(Function *F) {
  std::lock_guard<std::mutex> G(RegistryMutex);
  Functions.insert(F);
}

bool Runtime::isFunction(const void *P) {
  std::lock_guard<std::mutex> G(RegistryMutex);
  return Functions.count(P) != 0;
}

bool Runtime::isModule(const void *P) {
  std::lock_guard<std::mutex> G(RegistryMutex);
  return Modules.count(P) != 0;
}

Function *Runtime::asFunction(const void *P) {
  if (!P)
    return nullptr;
  if (isFunction(P))
    return static_cast<Function *>(const_cast<void *>(P));
  Function *F = nullptr;
  if (hostFunction(P, F) == cudaSuccess)
    return F;
  return nullptr;
}

// --- memory
// -------------------------------------------------------------------

cudaError_t Runtime::allocate(void **Ptr, size_t Size, MemoryKind Kind) {
  if (!Ptr)
    return cudaErrorInvalidValue;
  *Ptr = nullptr;
  const devices::DeviceProfile *D = device();
  if (!D)
    return cudaErrorNoDevice;
  if (Size == 0)
    return cudaSuccess;
  std::lock_guard<std::mutex> G(MemoryMutex);
  if (Kind != MemoryKind::Host &&
      (Size > uint64_t(D->TotalGlobalMem) ||
       DeviceBytes > uint64_t(D->TotalGlobalMem) - Size))
    return cudaErrorMemoryAllocation;
  // cudaMalloc's alignment: 256 bytes.
  size_t Rounded = (Size + 255) & ~size_t(255);
  if (Rounded < Size)
    return cudaErrorMemoryAllocation;
  void *P = nullptr;
  if (::posix_memalign(&P, 256, Rounded) != 0 || !P)
    return cudaErrorMemoryAllocation;
  Allocations[reinterpret_cast<uintptr_t>(P)] = {Size, Kind};
  if (Kind != MemoryKind::Host)
    DeviceBytes += Size;
  *Ptr = P;
  return cudaSuccess;
}

cudaError_t Runtime::registerHost(void *Ptr, size_t Size) {
  if (!Ptr || Size == 0)
    return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> G(MemoryMutex);
  uintptr_t P = reinterpret_cast<uintptr_t>(Ptr);
  auto It = Allocations.upper_bound(P + Size - 1);
  if (It != Allocations.begin() && (--It)->first + It->second.Size > P)
    return cudaErrorHostMemoryAlreadyRegistered;
  Allocations[P] = {Size, MemoryKind::Registered};
  return cudaSuccess;
}

cudaError_t Runtime::unregisterHost(void *Ptr) {
  std::lock_guard<std::mutex> G(MemoryMutex);
  auto It = Allocations.find(reinterpret_cast<uintptr_t>(Ptr));
  if (!Ptr || It == Allocations.end() ||
      It->second.Kind != MemoryKind::Registered)
    return cudaErrorHostMemoryNotRegistered;
  Allocations.erase(It);
  return cudaSuccess;
}

MemoryMap Runtime::memoryMap() {
  MemoryMap Map;
  {
    std::lock_guard<std::mutex> G(MemoryMutex);
    for (const auto &[P, A] : Allocations)
      Map.Ranges.emplace_back(P, P + A.Size);
  }
  {
    std::lock_guard<std::mutex> G(RegistryMutex);
    for (const void *P : Modules) {
      const auto *M = static_cast<const LoadedModule *>(P);
      if (M->M)
        M->M->forEachVariable([&](const void *Data, size_t Size) {
          uint64_t B = reinterpret_cast<uintptr_t>(Data);
          Map.Ranges.emplace_back(B, B + Size);
        });
    }
  }
  std::sort(Map.Ranges.begin(), Map.Ranges.end());
  return Map;
}

cudaError_t Runtime::release(void *Ptr, bool Host) {
  if (!Ptr)
    return cudaSuccess;
  std::lock_guard<std::mutex> G(MemoryMutex);
  auto It = Allocations.find(reinterpret_cast<uintptr_t>(Ptr));
  if (It == Allocations.end() || It->second.Kind == MemoryKind::Registered ||
      (It->second.Kind == MemoryKind::Host) != Host)
    return cudaErrorInvalidValue;
  if (It->second.Kind != MemoryKind::Host)
    DeviceBytes -= It->second.Size;
  Allocations.erase(It);
  std::free(Ptr);
  return cudaSuccess;
}

bool Runtime::findAllocation(const void *Ptr, const void *&Base,
                             Allocation &A) {
  std::lock_guard<std::mutex> G(MemoryMutex);
  uintptr_t P = reinterpret_cast<uintptr_t>(Ptr);
  auto It = Allocations.upper_bound(P);
  if (It == Allocations.begin())
    return false;
  --It;
  if (P >= It->first + std::max<size_t>(It->second.Size, 1))
    return false;
  Base = reinterpret_cast<const void *>(It->first);
  A = It->second;
  return true;
}

void Runtime::memInfo(size_t &Free, size_t &Total) {
  const devices::DeviceProfile *D = device();
  Total = D ? size_t(D->TotalGlobalMem) : 0;
  std::lock_guard<std::mutex> G(MemoryMutex);
  Free = Total > DeviceBytes ? Total - DeviceBytes : 0;
}

void Runtime::reset() {
  std::lock_guard<std::mutex> G(MemoryMutex);
  for (auto &[P, A] : Allocations)
    if (A.Kind != MemoryKind::Registered)
      std::free(reinterpret_cast<void *>(P));
  Allocations.clear();
  DeviceBytes = 0;
  clearSticky();
  LastError = cudaSuccess;
}

// --- streams, events, contexts
// -------------------------------------------------

bool Runtime::validStream(const void *S) {
  if (!S || S == cudaStreamLegacy || S == cudaStreamPerThread)
    return true;
  std::lock_guard<std::mutex> G(HandleMutex);
  return Streams.count(S) != 0;
}

Stream *Runtime::createStream(unsigned Flags, int Priority) {
  auto *S = new Stream;
  S->Flags = Flags;
  S->Priority = Priority;
  std::lock_guard<std::mutex> G(HandleMutex);
  Streams.insert(S);
  return S;
}

bool Runtime::destroyStream(const void *S) {
  std::lock_guard<std::mutex> G(HandleMutex);
  if (!Streams.erase(S))
    return false;
  delete static_cast<const Stream *>(S);
  return true;
}

Event *Runtime::createEvent(unsigned Flags) {
  auto *E = new Event;
  E->Flags = Flags;
  std::lock_guard<std::mutex> G(HandleMutex);
  Events.insert(E);
  return E;
}

Event *Runtime::event(const void *E) {
  std::lock_guard<std::mutex> G(HandleMutex);
  return Events.count(E) ? static_cast<Event *>(const_cast<void *>(E))
                         : nullptr;
}

bool Runtime::destroyEvent(const void *E) {
  std::lock_guard<std::mutex> G(HandleMutex);
  if (!Events.erase(E))
    return false;
  delete static_cast<const Event *>(E);
  return true;
}

Context *Runtime::createContext() {
  auto *C = new Context;
  std::lock_guard<std::mutex> G(HandleMutex);
  Contexts.insert(C);
  return C;
}

bool Runtime::isContext(const void *C) {
  if (C == &Primary)
    return true;
  std::lock_guard<std::mutex> G(HandleMutex);
  return Contexts.count(C) != 0;
}

bool Runtime::destroyContext(const void *C) {
  std::lock_guard<std::mutex> G(HandleMutex);
  if (!Contexts.erase(C))
    return false;
  delete static_cast<const Context *>(C);
  return true;
}

Context *&Runtime::currentContext() {
  static thread_local Context *Current = nullptr;
  return Current;
}

std::vector<Runtime::CallConfig> &Runtime::callStack() {
  static thread_local std::vector<CallConfig> Stack;
  return Stack;
}

// --- launches
// -------------------------------------------------------------------

int Runtime::setObserver(void (*Fn)(void *, const void *), void *Ctx) {
  std::lock_guard<std::mutex> G(ObserverMutex);
  if (Fn && Observer)
    return 1;
  Observer = Fn;
  ObserverCtx = Fn ? Ctx : nullptr;
  return 0;
}

cudaError_t Runtime::checkLaunch(const LaunchRequest &R) {
  const devices::DeviceProfile *D = device();
  if (!D)
    return cudaErrorNoDevice;
  if (!R.F)
    return cudaErrorInvalidDeviceFunction;
  if (!validStream(R.Stream))
    return cudaErrorInvalidResourceHandle;
  const Function &F = *R.F;
  const emu::Dim3 &Gr = R.Grid, &Bl = R.Block;
  if (!Gr.X || !Gr.Y || !Gr.Z || !Bl.X || !Bl.Y || !Bl.Z ||
      Bl.X > D->MaxThreadsDim[0] || Bl.Y > D->MaxThreadsDim[1] ||
      Bl.Z > D->MaxThreadsDim[2] ||
      Bl.count() > uint64_t(D->MaxThreadsPerBlock) ||
      Gr.X > D->MaxGridSize[0] || Gr.Y > D->MaxGridSize[1] ||
      Gr.Z > D->MaxGridSize[2])
    return cudaErrorInvalidConfiguration;
  devices::KernelResources K = F.resources();
  if (Bl.count() > uint64_t(devices::maxThreadsPerBlock(*D, K)))
    return cudaErrorLaunchOutOfResources;
  if (R.DynamicShared > uint64_t(devices::maxDynamicSharedBytes(*D, K))) {
    note("kernel '" + F.Name + "' asks for " + std::to_string(R.DynamicShared) +
         " bytes of dynamic shared memory; it may use " +
         std::to_string(devices::maxDynamicSharedBytes(*D, K)) +
         " (raise the limit with cudaFuncSetAttribute("
         "cudaFuncAttributeMaxDynamicSharedMemorySize))");
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

emu::LaunchResult Runtime::runMeasured(const LaunchRequest &R,
                                       bool WantMetrics, bool WantTrace,
                                       Measured &M) {
  const devices::DeviceProfile *D = device();
  const Function &F = *R.F;
  emu::LaunchOptions O;
  O.Grid = R.Grid;
  O.Block = R.Block;
  O.DynamicSharedBytes = R.DynamicShared;
  O.Args = R.Args;
  // Every global access must lie in an allocation or a module variable: an
  // out-of-bounds one is a launch error (cudaErrorIllegalAddress), as under
  // compute-sanitizer, never a read of host memory or a crash.
  if (CheckMemory) {
    M.Memory = memoryMap();
    O.GlobalRanges = &M.Memory.Ranges;
  }
  O.SampleBlocks = SampleBlocks;
  O.HostThreads = HostThreads;
  // Checked by checkLaunch already; the core checks them again for its own
  // users.
  O.MaxThreadsPerBlock = uint32_t(D->MaxThreadsPerBlock);
  O.MaxSharedBytesPerBlock =
      size_t(std::max(D->SharedMemPerBlockOptin, D->SharedMemPerBlock));
  if (WantMetrics)
    O.Metrics = &M.Metrics;
  O.WrittenPages = WrittenPages;
  // The estimate traces the blocks of one wave of two SMs of this launch.
  M.TP = WantTrace ? timingParams() : nullptr;
  M.Prog = M.TP ? timing::kernelProgram(*F.Module->M, F.Name) : nullptr;
  // The estimate's bound by same-address atomics counts them per address.
  if (M.TP && M.TP->atomicBound())
    O.Metrics = &M.Metrics;
  if (M.Prog) {
    devices::Occupancy Occ = devices::computeOccupancy(
        *D, F.resources(), int64_t(R.Block.count()), int64_t(R.DynamicShared));
    if (Occ.ActiveBlocks > 0) {
      // The two SMs' blocks of the estimate (timing::EstimatedBlocks); with
      // KLARAPTOR_EMU_SAMPLE those may not run, so the first sampled blocks
      // stand in for them.
      const bool Sampling = SampleBlocks && SampleBlocks < R.Grid.count();
      const timing::TimingParams *TP = timingParams();
      timing::EstimatedBlocks B =
          timing::estimatedBlocks(*D, R.Grid.count(), Occ.ActiveBlocks);
      if (TP && TP->cacheModel() && !Sampling)
        timing::addNeighbours(B, R.Grid);
      M.Trace = Sampling ? std::make_unique<timing::TraceCollector>(
                               B.PerSm, 0, TP && TP->cacheModel())
                         : std::make_unique<timing::TraceCollector>(
                               B, TP && TP->cacheModel());
      O.Trace = M.Trace.get();
    }
  }
  auto T0 = std::chrono::steady_clock::now();
  emu::LaunchResult Res = F.Module->M->launch(F.Name, O);
  M.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                            T0)
                  .count();
  return Res;
}

bool Runtime::estimateMeasured(const LaunchRequest &R, const Measured &M,
                               timing::LaunchEstimate &E, std::string &Why) {
  if (!M.Trace) {
    Why = M.TP ? "the block does not fit on an SM" : "no timing parameters";
    return false;
  }
  return timing::estimateFromTrace(*M.Prog, *M.Trace, *device(),
                                   R.F->resources(), *M.TP, R.Grid, R.Block,
                                   R.DynamicShared, 0, E, Why, HostThreads,
                                   &M.Metrics);
}

thread_local bool Runtime::EstimateRequested = false;
thread_local double Runtime::LastEstimateNs = -1;

void Runtime::estimateNextLaunch() {
  EstimateRequested = true;
  LastEstimateNs = -1;
}

bool Runtime::lastLaunchEstimate(double &Ns) {
  if (!(LastEstimateNs >= 0))
    return false;
  Ns = std::exchange(LastEstimateNs, -1);
  return true;
}

cudaError_t Runtime::launch(const LaunchRequest &R) {
  // klaraptor_emu_estimate_next_launch: this launch is traced and
  // estimated for the caller (the runtime's online refinement).
  const bool EstimateForCaller = std::exchange(EstimateRequested, false);
  LastEstimateNs = -1;
  if (cudaError_t S = sticky())
    return S;
  if (cudaError_t C = checkLaunch(R))
    return C;
  if (!Execute) {
    if (explainThis())
      explainUnexecuted(R);
    return cudaSuccess;
  }
  const Function &F = *R.F;

  bool WantMetrics = !ReportPath.empty();
  {
    std::lock_guard<std::mutex> G(ObserverMutex);
    WantMetrics |= Observer != nullptr;
  }
  // KLARAPTOR_EMU_EXPLAIN: the candidates are estimated before the launch
  // (on saved and restored memory), the launch's own shape from its trace.
  const bool Explain = explainThis();
  std::string ExplainText;
  double BestNs = -1;
  if (Explain)
    explainCandidates(R, ExplainText, BestNs);
  Measured M;
  emu::LaunchResult Res;
  {
    std::lock_guard<std::mutex> G(LaunchMutex);
    Res = runMeasured(R, WantMetrics, WantMetrics || Explain ||
                                          EstimateForCaller,
                      M);
  }
  cudaError_t E = cudaSuccess;
  switch (Res.Status) {
  case emu::LaunchStatus::Ok:
    if (Explain)
      explainOwn(R, M.Trace.get(), M.Prog, M.Metrics, ExplainText, BestNs);
    if (EstimateForCaller && !WantMetrics) {
      timing::LaunchEstimate Est;
      std::string Why;
      if (estimateMeasured(R, M, Est, Why))
        LastEstimateNs = Est.Ns;
    }
    if (WantMetrics) {
      timing::LaunchEstimate Est;
      std::string Why;
      bool HaveEstimate = estimateMeasured(R, M, Est, Why);
      if (M.Trace && !HaveEstimate)
        note("warning: no time estimate for kernel '" + F.Name + "': " + Why);
      if (HaveEstimate && EstimateForCaller)
        LastEstimateNs = Est.Ns;
      report(R, M.Metrics, M.Seconds, HaveEstimate ? &Est : nullptr);
    }
    return cudaSuccess;
  case emu::LaunchStatus::InvalidConfiguration:
    note("kernel '" + F.Name + "': " + Res.Message);
    return cudaErrorInvalidConfiguration;
  case emu::LaunchStatus::MemoryFault:
    E = cudaErrorIllegalAddress;
    break;
  case emu::LaunchStatus::Trap:
    E = Res.Message.find("assert") != std::string::npos
            ? cudaErrorAssert
            : cudaErrorLaunchFailure;
    break;
  case emu::LaunchStatus::UnsupportedInstruction:
  case emu::LaunchStatus::Internal:
    E = cudaErrorLaunchFailure;
    break;
  }
  // As on a GPU the launch itself succeeds; the failure is reported by the
  // calls that follow, and it sticks.
  note("error: kernel '" + F.Name + "' failed: " + Res.Message +
       "; CUDA calls now return " + errorName(E));
  Sticky.store(int(E));
  return cudaSuccess;
}

const timing::TimingParams *Runtime::timingParams() {
  if (!Estimate)
    return nullptr;
  std::call_once(TimingOnce, [&] {
    const devices::DeviceProfile *D = device();
    if (!D)
      return;
    auto P = std::make_unique<timing::TimingParams>();
    std::string Error;
    if (!timing::timingParamsFor(*D, *P, Error)) {
      note("warning: " + Error + "; launches are reported without estimates");
      return;
    }
    Timing = std::move(P);
  });
  return Timing.get();
}

profiler::LaunchRecord
Runtime::makeRecord(const LaunchRequest &R, const emu::LaunchMetrics &M,
                    double Seconds, const timing::LaunchEstimate *E) {
  const Function &F = *R.F;
  const devices::DeviceProfile &D = *device();
  profiler::LaunchRecord Rec;
  Rec.Kernel = F.Name;
  Rec.Backend = "emu";
  Rec.Device = D.Id;
  Rec.Grid[0] = R.Grid.X;
  Rec.Grid[1] = R.Grid.Y;
  Rec.Grid[2] = R.Grid.Z;
  Rec.Block[0] = R.Block.X;
  Rec.Block[1] = R.Block.Y;
  Rec.Block[2] = R.Block.Z;
  Rec.DynamicSharedBytes = R.DynamicShared;
  profiler::setEmuMetrics(Rec, M);
  // What the runtime knows better than the core, when the core left it out.
  if (!M.RegistersPerThread)
    Rec.set("registers_per_thread", F.Registers);
  if (!M.StaticSharedBytes && F.Info)
    Rec.set("static_shared_bytes", F.Info->StaticSharedBytes);
  Rec.set("dynamic_shared_bytes_per_block", double(R.DynamicShared));
  if (F.InCubin)
    Rec.set("local_bytes_per_thread", F.FrameSize);
  devices::Occupancy Occ = devices::computeOccupancy(
      D, F.resources(), int64_t(R.Block.count()), int64_t(R.DynamicShared));
  Rec.set("active_blocks_per_sm", double(Occ.ActiveBlocks));
  Rec.set("host_seconds", Seconds);
  if (E) {
    // docs/metrics.md, "Time estimates" (docs/timing.md).
    Rec.set("estimated_ns", E->Ns);
    Rec.set("estimated_cycles_per_wave", E->CyclesPerWave);
    Rec.set("estimated_waves", double(E->Waves));
    Rec.set("estimated_blocks_simulated", double(E->BlocksSimulated));
    // The cache model's hit rates (docs/timing.md, "The cache model"), over
    // the simulated blocks: comparable with CUPTI's l1_global_load_hit_sectors
    // / global_load_sectors and (loads only) l2_read_hit_sectors /
    // l2_read_sectors.
    const timing::SimResult &S = E->A.Base;
    if (S.LoadSectors > 0)
      Rec.set("estimated_l1_load_hit_rate", S.L1HitSectors / S.LoadSectors);
    if (S.L2HitSectors + S.MissSectors > 0)
      Rec.set("estimated_l2_hit_rate",
              S.L2HitSectors / (S.L2HitSectors + S.MissSectors));
    if (S.L2ReadHitSectors + S.L2ReadMissSectors > 0)
      Rec.set("estimated_l2_read_hit_rate",
              S.L2ReadHitSectors /
                  (S.L2ReadHitSectors + S.L2ReadMissSectors));
  }
  return Rec;
}

void Runtime::report(const LaunchRequest &R, const emu::LaunchMetrics &M,
                     double Seconds, const timing::LaunchEstimate *E) {
  profiler::LaunchRecord Rec = makeRecord(R, M, Seconds, E);
  if (!ReportPath.empty()) {
    std::string Line = Rec.toJson() + "\n";
    std::lock_guard<std::mutex> G(ObserverMutex);
    if (ReportFd < 0 && !ReportFailed) {
      ReportFd = ::open(ReportPath.c_str(),
                        O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      if (ReportFd < 0) {
        ReportFailed = true;
        note("warning: KLARAPTOR_EMU_REPORT: cannot open '" + ReportPath +
             "': " + std::strerror(errno) + "; launches are not reported");
      }
    }
    if (ReportFd >= 0 &&
        ::write(ReportFd, Line.data(), Line.size()) != ssize_t(Line.size()))
      note("warning: KLARAPTOR_EMU_REPORT: cannot write '" + ReportPath + "'");
  }
  void (*Fn)(void *, const void *) = nullptr;
  void *Ctx = nullptr;
  {
    std::lock_guard<std::mutex> G(ObserverMutex);
    Fn = Observer;
    Ctx = ObserverCtx;
  }
  if (Fn)
    Fn(Ctx, &Rec);
}

} // namespace klaraptor::emurt
