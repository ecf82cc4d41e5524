//===- CuptiSweep.cpp - the cupti backend: CUDA events and Range Profiler -===//
///
/// \file
/// cuptiReady() and cuptiSweep() of CuptiSweep.h. The CUDA and CUPTI
/// headers give the types and the structure layouts only: every function is
/// found at run time, the driver in libcuda.so.1, cudaGetFuncBySymbol in the
/// process, CUPTI in libcupti.so, so that nothing here needs them to load.
///
/// The Range Profiler is driven the way cupti_range_profiler.h documents
/// for user range and user replay: per shape, enable the profiler on the
/// context, size and initialize a counter-data image for one range, set the
/// configuration, then Start / PushRange / launch / PopRange / Stop until
/// Stop reports every pass submitted (the program's buffers restored after
/// each pass, so every pass sees the same input), decode, and evaluate the
/// metrics of range 0 with the Profiler Host object. The configuration image
/// (every metric of cuptiMetricNames()) and its pass count are computed once
/// per process.
///
/// Written against the CUDA 13.0 headers without a GPU; ran as written on
/// an NVIDIA H200 (driver 580.159.04) on 2026-11-26 (docs/cupti.md).
//===----------------------------------------------------------------------===//
#include "CuptiSweep.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <string>
#include <vector>

#if __has_include(<cupti_range_profiler.h>) && __has_include(<cuda.h>)
#define KLARAPTOR_CUPTI_HEADERS 1
#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#else
#define KLARAPTOR_CUPTI_HEADERS 0
#endif

#ifndef KLARAPTOR_CUPTI_DEFAULT_LIB
#define KLARAPTOR_CUPTI_DEFAULT_LIB ""
#endif

namespace klaraptor::profiler::cupti {

#if !KLARAPTOR_CUPTI_HEADERS

bool cuptiReady(bool, std::string &, std::string &Error) {
  Error = "this build of klaraptor found no CUPTI headers "
          "(cupti_range_profiler.h of CUDA 12.6 or later), so it has no "
          "'cupti' profiler backend";
  return false;
}

int cuptiSweep(const void *, bool, void *const *, uint64_t, void *,
               const uint32_t *, uint32_t, int, ShapeFn, void *,
               std::string &Error) {
  std::string Device;
  cuptiReady(true, Device, Error);
  return -1;
}

#else

namespace {

/// Resolves \p Name in \p Lib into \p Fn; false when it is missing.
template <typename F> bool sym(void *Lib, const char *Name, F &Fn) {
  Fn = reinterpret_cast<F>(::dlsym(Lib, Name));
  return Fn != nullptr;
}

//===--- The CUDA driver --------------------------------------------------===//

struct Driver {
  decltype(&::cuInit) Init = nullptr;
  decltype(&::cuDeviceGetCount) DeviceGetCount = nullptr;
  decltype(&::cuDeviceGet) DeviceGet = nullptr;
  decltype(&::cuDeviceGetName) DeviceGetName = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) PrimaryCtxRetain = nullptr;
  decltype(&::cuCtxGetCurrent) CtxGetCurrent = nullptr;
  decltype(&::cuCtxSetCurrent) CtxSetCurrent = nullptr;
  decltype(&::cuCtxGetDevice) CtxGetDevice = nullptr;
  decltype(&::cuCtxSynchronize) CtxSynchronize = nullptr;
  decltype(&::cuFuncGetAttribute) FuncGetAttribute = nullptr;
  decltype(&::cuFuncGetParamInfo) FuncGetParamInfo = nullptr; // 12.4+
  decltype(&::cuLaunchKernel) LaunchKernel = nullptr;
  decltype(&::cuPointerGetAttribute) PointerGetAttribute = nullptr;
  decltype(&::cuMemGetAddressRange) MemGetAddressRange = nullptr;
  decltype(&::cuMemAlloc) MemAlloc = nullptr;
  decltype(&::cuMemFree) MemFree = nullptr;
  decltype(&::cuMemcpyDtoD) MemcpyDtoD = nullptr;
  decltype(&::cuMemcpyDtoH) MemcpyDtoH = nullptr;
  decltype(&::cuMemcpyHtoD) MemcpyHtoD = nullptr;
  decltype(&::cuEventCreate) EventCreate = nullptr;
  decltype(&::cuEventDestroy) EventDestroy = nullptr;
  decltype(&::cuEventRecord) EventRecord = nullptr;
  decltype(&::cuEventSynchronize) EventSynchronize = nullptr;
  decltype(&::cuEventElapsedTime) EventElapsedTime = nullptr;
  decltype(&::cuGetErrorName) GetErrorName = nullptr;
  decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor) Occupancy = nullptr;

  /// Loads the driver the process uses; false with \p Error.
  bool load(std::string &Error) {
    // libcuda.so.1 is the driver whether the runtime loaded it already or
    // not; RTLD_DEFAULT would also find a program's own stand-ins.
    void *Lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!Lib) {
      const char *Why = ::dlerror();
      Error = std::string("cannot load the CUDA driver libcuda.so.1 (") +
              (Why ? Why : "not found") +
              "); the cupti backend needs an NVIDIA GPU and its driver";
      return false;
    }
    std::string Missing;
    auto Need = [&](const char *Name, auto &Fn) {
      if (!sym(Lib, Name, Fn))
        Missing += std::string(Missing.empty() ? "" : ", ") + Name;
    };
    Need("cuInit", Init);
    Need("cuDeviceGetCount", DeviceGetCount);
    Need("cuDeviceGet", DeviceGet);
    Need("cuDeviceGetName", DeviceGetName);
    Need("cuDevicePrimaryCtxRetain", PrimaryCtxRetain);
    Need("cuCtxGetCurrent", CtxGetCurrent);
    Need("cuCtxSetCurrent", CtxSetCurrent);
    Need("cuCtxGetDevice", CtxGetDevice);
    Need("cuCtxSynchronize", CtxSynchronize);
    Need("cuFuncGetAttribute", FuncGetAttribute);
    Need("cuLaunchKernel", LaunchKernel);
    Need("cuPointerGetAttribute", PointerGetAttribute);
    Need("cuMemGetAddressRange_v2", MemGetAddressRange);
    Need("cuMemAlloc_v2", MemAlloc);
    Need("cuMemFree_v2", MemFree);
    Need("cuMemcpyDtoD_v2", MemcpyDtoD);
    Need("cuMemcpyDtoH_v2", MemcpyDtoH);
    Need("cuMemcpyHtoD_v2", MemcpyHtoD);
    Need("cuEventCreate", EventCreate);
    Need("cuEventDestroy_v2", EventDestroy);
    Need("cuEventRecord", EventRecord);
    Need("cuEventSynchronize", EventSynchronize);
    Need("cuGetErrorName", GetErrorName);
    Need("cuOccupancyMaxActiveBlocksPerMultiprocessor", Occupancy);
    // cuEventElapsedTime_v2 (CUDA 12.8+) has the signature of the original.
    if (!sym(Lib, "cuEventElapsedTime_v2", EventElapsedTime))
      Need("cuEventElapsedTime", EventElapsedTime);
    sym(Lib, "cuFuncGetParamInfo", FuncGetParamInfo);
    if (!Missing.empty()) {
      Error = "the CUDA driver libcuda.so.1 lacks " + Missing;
      return false;
    }
    return true;
  }

  std::string name(CUresult R) const {
    const char *S = nullptr;
    if (GetErrorName && GetErrorName(R, &S) == CUDA_SUCCESS && S)
      return S;
    return "CUDA error " + std::to_string(int(R));
  }
};

//===--- CUPTI ------------------------------------------------------------===//

struct Cupti {
  std::string Path;
  decltype(&::cuptiGetResultString) GetResultString = nullptr;
  decltype(&::cuptiProfilerInitialize) ProfilerInitialize = nullptr;
  decltype(&::cuptiProfilerDeviceSupported) DeviceSupported = nullptr;
  decltype(&::cuptiDeviceGetChipName) GetChipName = nullptr;
  decltype(&::cuptiProfilerGetCounterAvailability) CounterAvailability =
      nullptr;
  decltype(&::cuptiProfilerHostInitialize) HostInitialize = nullptr;
  decltype(&::cuptiProfilerHostDeinitialize) HostDeinitialize = nullptr;
  decltype(&::cuptiProfilerHostConfigAddMetrics) ConfigAddMetrics = nullptr;
  decltype(&::cuptiProfilerHostGetConfigImageSize) GetConfigImageSize =
      nullptr;
  decltype(&::cuptiProfilerHostGetConfigImage) GetConfigImage = nullptr;
  decltype(&::cuptiProfilerHostGetNumOfPasses) GetNumOfPasses = nullptr;
  decltype(&::cuptiProfilerHostEvaluateToGpuValues) EvaluateToGpuValues =
      nullptr;
  decltype(&::cuptiRangeProfilerEnable) Enable = nullptr;
  decltype(&::cuptiRangeProfilerDisable) Disable = nullptr;
  decltype(&::cuptiRangeProfilerSetConfig) SetConfig = nullptr;
  decltype(&::cuptiRangeProfilerStart) Start = nullptr;
  decltype(&::cuptiRangeProfilerStop) Stop = nullptr;
  decltype(&::cuptiRangeProfilerPushRange) PushRange = nullptr;
  decltype(&::cuptiRangeProfilerPopRange) PopRange = nullptr;
  decltype(&::cuptiRangeProfilerDecodeData) DecodeData = nullptr;
  decltype(&::cuptiRangeProfilerGetCounterDataSize) GetCounterDataSize =
      nullptr;
  decltype(&::cuptiRangeProfilerCounterDataImageInitialize)
      CounterDataImageInitialize = nullptr;
  decltype(&::cuptiRangeProfilerGetCounterDataInfo) GetCounterDataInfo =
      nullptr;

  bool load(std::string &Error) {
    std::vector<std::string> Candidates;
    const char *Env = std::getenv("KLARAPTOR_CUPTI_LIB");
    if (Env && *Env) {
      Candidates.push_back(Env);
    } else {
      // The library path first (LD_LIBRARY_PATH, ldconfig), then the
      // toolkit this build was configured with.
      Candidates = {"libcupti.so", "libcupti.so.13", "libcupti.so.12"};
      if (*KLARAPTOR_CUPTI_DEFAULT_LIB)
        Candidates.push_back(KLARAPTOR_CUPTI_DEFAULT_LIB);
    }
    void *Lib = nullptr;
    std::string Why;
    for (const std::string &C : Candidates) {
      Lib = ::dlopen(C.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (Lib) {
        Path = C;
        break;
      }
      const char *E = ::dlerror();
      if (Why.empty() && E)
        Why = E;
    }
    if (!Lib) {
      Error = "cannot load libcupti (" + Why +
              "); set KLARAPTOR_CUPTI_LIB to the libcupti.so of CUDA 12.6 or "
              "later (in the toolkit's lib64 or extras/CUPTI/lib64), or "
              "KLARAPTOR_CUPTI_METRICS=0 to record times only";
      return false;
    }
    std::string Missing;
    auto Need = [&](const char *Name, auto &Fn) {
      if (!sym(Lib, Name, Fn))
        Missing += std::string(Missing.empty() ? "" : ", ") + Name;
    };
    Need("cuptiGetResultString", GetResultString);
    Need("cuptiProfilerInitialize", ProfilerInitialize);
    Need("cuptiProfilerDeviceSupported", DeviceSupported);
    Need("cuptiDeviceGetChipName", GetChipName);
    Need("cuptiProfilerGetCounterAvailability", CounterAvailability);
    Need("cuptiProfilerHostInitialize", HostInitialize);
    Need("cuptiProfilerHostDeinitialize", HostDeinitialize);
    Need("cuptiProfilerHostConfigAddMetrics", ConfigAddMetrics);
    Need("cuptiProfilerHostGetConfigImageSize", GetConfigImageSize);
    Need("cuptiProfilerHostGetConfigImage", GetConfigImage);
    Need("cuptiProfilerHostGetNumOfPasses", GetNumOfPasses);
    Need("cuptiProfilerHostEvaluateToGpuValues", EvaluateToGpuValues);
    Need("cuptiRangeProfilerEnable", Enable);
    Need("cuptiRangeProfilerDisable", Disable);
    Need("cuptiRangeProfilerSetConfig", SetConfig);
    Need("cuptiRangeProfilerStart", Start);
    Need("cuptiRangeProfilerStop", Stop);
    Need("cuptiRangeProfilerPushRange", PushRange);
    Need("cuptiRangeProfilerPopRange", PopRange);
    Need("cuptiRangeProfilerDecodeData", DecodeData);
    Need("cuptiRangeProfilerGetCounterDataSize", GetCounterDataSize);
    Need("cuptiRangeProfilerCounterDataImageInitialize",
         CounterDataImageInitialize);
    Need("cuptiRangeProfilerGetCounterDataInfo", GetCounterDataInfo);
    if (!Missing.empty()) {
      Error = Path + " is not a CUPTI with the Range Profiler (CUDA 12.6 or "
                     "later): it lacks " + Missing;
      return false;
    }
    return true;
  }

  /// "WHAT failed: NAME (text)", with how to get permission for
  /// CUPTI_ERROR_INSUFFICIENT_PRIVILEGES.
  std::string message(const char *What, CUptiResult R) const {
    const char *S = nullptr;
    if (GetResultString)
      GetResultString(R, &S);
    std::string M = std::string(What) + " failed: " +
                    (S ? S : "CUPTI error " + std::to_string(int(R)));
    if (R == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
        R == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
      M += "; profiling GPU counters is not permitted for this user: run as "
           "root, or load the nvidia kernel module with "
           "NVreg_RestrictProfilingToAdminUsers=0 (e.g. 'options nvidia "
           "NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d/, then "
           "reboot); KLARAPTOR_CUPTI_METRICS=0 records times only";
    else if (R == CUPTI_ERROR_NOT_SUPPORTED || R == CUPTI_ERROR_NOT_COMPATIBLE)
      M += "; this GPU or configuration is not supported by the CUPTI Range "
           "Profiler (compute capability 7.5 or newer is needed); "
           "KLARAPTOR_CUPTI_METRICS=0 records times only";
    return M;
  }
};

/// A CUPTI parameter block: zeroed, structSize set (pPriv stays null).
#define KLARAPTOR_CUPTI_PARAMS(Type, Var)                                      \
  Type Var{};                                                                  \
  Var.structSize = Type##_STRUCT_SIZE

//===--- Process state ----------------------------------------------------===//

struct State {
  std::mutex M;
  // Driver and device.
  bool DriverTried = false, DriverOk = false;
  std::string DriverError;
  Driver D;
  CUcontext Ctx = nullptr;
  CUdevice Dev = 0;
  std::string DeviceName;
  // CUPTI metrics.
  bool MetricsTried = false, MetricsOk = false;
  std::string MetricsError;
  Cupti C;
  CUpti_Profiler_Host_Object *Host = nullptr;
  std::vector<uint8_t> Config;
  std::vector<std::string> Names;
  std::vector<const char *> NamePtrs;
  size_t Passes = 0;
};

State &state() {
  static State *S = new State; // never destroyed: atexit paths may use it
  return *S;
}

bool metricsOff() {
  const char *E = std::getenv("KLARAPTOR_CUPTI_METRICS");
  return E && std::strcmp(E, "0") == 0;
}

bool readyDriver(State &S, std::string &Error) {
  if (S.DriverTried) {
    Error = S.DriverError;
    return S.DriverOk;
  }
  S.DriverTried = true;
  auto Fail = [&](std::string Why) {
    S.DriverError = Error = std::move(Why);
    return false;
  };
  std::string Why;
  if (!S.D.load(Why))
    return Fail(Why);
  Driver &D = S.D;
  if (CUresult R = D.Init(0))
    return Fail(R == CUDA_ERROR_NO_DEVICE
                    ? "no CUDA device (cuInit: CUDA_ERROR_NO_DEVICE)"
                    : "cuInit failed: " + D.name(R));
  int N = 0;
  if (CUresult R = D.DeviceGetCount(&N))
    return Fail("cuDeviceGetCount failed: " + D.name(R));
  if (N == 0)
    return Fail("no CUDA device");
  CUcontext Ctx = nullptr;
  if (CUresult R = D.CtxGetCurrent(&Ctx))
    return Fail("cuCtxGetCurrent failed: " + D.name(R));
  if (!Ctx) {
    // The runtime makes device 0's primary context current lazily; it is
    // the context the program's allocations live in.
    CUdevice Dev0 = 0;
    if (CUresult R = D.DeviceGet(&Dev0, 0))
      return Fail("cuDeviceGet failed: " + D.name(R));
    if (CUresult R = D.PrimaryCtxRetain(&Ctx, Dev0))
      return Fail("cuDevicePrimaryCtxRetain failed: " + D.name(R));
    if (CUresult R = D.CtxSetCurrent(Ctx))
      return Fail("cuCtxSetCurrent failed: " + D.name(R));
  }
  S.Ctx = Ctx;
  if (CUresult R = D.CtxGetDevice(&S.Dev))
    return Fail("cuCtxGetDevice failed: " + D.name(R));
  char Name[256] = "";
  if (CUresult R = D.DeviceGetName(Name, sizeof(Name), S.Dev))
    return Fail("cuDeviceGetName failed: " + D.name(R));
  S.DeviceName = Name;
  S.DriverOk = true;
  return true;
}

/// Adds \p Names to a new host object; the names CUPTI accepted end up in
/// S.Names. Tries them all at once, then one at a time, so that a metric
/// one chip lacks costs that metric only.
bool configure(State &S, const std::string &Chip,
               const std::vector<uint8_t> &Avail, std::string &Error) {
  Cupti &C = S.C;
  auto NewHost = [&](std::string &Why) {
    if (S.Host) {
      KLARAPTOR_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, P);
      P.pHostObject = S.Host;
      C.HostDeinitialize(&P);
      S.Host = nullptr;
    }
    KLARAPTOR_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params, P);
    P.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    P.pChipName = Chip.c_str();
    P.pCounterAvailabilityImage = Avail.data();
    if (CUptiResult R = C.HostInitialize(&P)) {
      Why = C.message("cuptiProfilerHostInitialize", R);
      return false;
    }
    S.Host = P.pHostObject;
    return true;
  };
  auto Add = [&](const std::vector<const char *> &List) {
    KLARAPTOR_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, P);
    P.pHostObject = S.Host;
    P.ppMetricNames = const_cast<const char **>(List.data());
    P.numMetrics = List.size();
    return C.ConfigAddMetrics(&P);
  };
  const std::vector<std::string> All = cuptiMetricNames();
  std::vector<const char *> AllPtrs;
  for (const std::string &N : All)
    AllPtrs.push_back(N.c_str());
  if (!NewHost(Error))
    return false;
  CUptiResult R = Add(AllPtrs);
  if (R == CUPTI_SUCCESS) {
    S.Names = All;
  } else {
    std::string FirstWhy = C.message("cuptiProfilerHostConfigAddMetrics", R);
    if (!NewHost(Error))
      return false;
    S.Names.clear();
    for (const std::string &N : All)
      if (Add({N.c_str()}) == CUPTI_SUCCESS)
        S.Names.push_back(N);
    if (S.Names.empty()) {
      Error = FirstWhy;
      return false;
    }
  }
  S.NamePtrs.clear();
  for (const std::string &N : S.Names)
    S.NamePtrs.push_back(N.c_str());
  KLARAPTOR_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, Sz);
  Sz.pHostObject = S.Host;
  if ((R = C.GetConfigImageSize(&Sz))) {
    Error = C.message("cuptiProfilerHostGetConfigImageSize", R);
    return false;
  }
  S.Config.assign(Sz.configImageSize, 0);
  KLARAPTOR_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, Img);
  Img.pHostObject = S.Host;
  Img.configImageSize = S.Config.size();
  Img.pConfigImage = S.Config.data();
  if ((R = C.GetConfigImage(&Img))) {
    Error = C.message("cuptiProfilerHostGetConfigImage", R);
    return false;
  }
  KLARAPTOR_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params, NP);
  NP.configImageSize = S.Config.size();
  NP.pConfigImage = S.Config.data();
  if ((R = C.GetNumOfPasses(&NP))) {
    Error = C.message("cuptiProfilerHostGetNumOfPasses", R);
    return false;
  }
  S.Passes = NP.numOfPasses;
  return true;
}

bool readyMetrics(State &S, std::string &Error) {
  if (S.MetricsTried) {
    Error = S.MetricsError;
    return S.MetricsOk;
  }
  S.MetricsTried = true;
  auto Fail = [&](std::string Why) {
    S.MetricsError = Error = std::move(Why);
    return false;
  };
  std::string Why;
  if (!S.C.load(Why))
    return Fail(Why);
  Cupti &C = S.C;
  {
    KLARAPTOR_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params, P);
    if (CUptiResult R = C.ProfilerInitialize(&P))
      return Fail(C.message("cuptiProfilerInitialize", R));
  }
  {
    KLARAPTOR_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params, P);
    P.cuDevice = S.Dev;
    P.api = CUPTI_PROFILER_RANGE_PROFILING;
    if (CUptiResult R = C.DeviceSupported(&P))
      return Fail(C.message("cuptiProfilerDeviceSupported", R));
    if (P.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
      std::string Reasons;
      auto Note = [&](CUpti_Profiler_Support_Level L, const char *Text) {
        if (L == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED ||
            L == CUPTI_PROFILER_CONFIGURATION_DISABLED)
          Reasons += std::string(Reasons.empty() ? "" : "; ") + Text +
                     (L == CUPTI_PROFILER_CONFIGURATION_DISABLED
                          ? " (disabled)"
                          : " (unsupported)");
      };
      Note(P.architecture, "the GPU architecture (compute capability 7.5 or "
                           "newer is needed)");
      Note(P.sli, "SLI");
      Note(P.vGpu, "profiling on this vGPU");
      Note(P.confidentialCompute, "confidential computing");
      Note(P.cmp, "a crypto-mining processor");
      Note(P.wsl, "WSL");
      return Fail("the CUPTI Range Profiler does not support '" +
                  S.DeviceName + "': " +
                  (Reasons.empty() ? "no reason given" : Reasons) +
                  "; KLARAPTOR_CUPTI_METRICS=0 records times only");
    }
  }
  std::string Chip;
  {
    KLARAPTOR_CUPTI_PARAMS(CUpti_Device_GetChipName_Params, P);
    P.deviceIndex = size_t(S.Dev);
    if (CUptiResult R = C.GetChipName(&P))
      return Fail(C.message("cuptiDeviceGetChipName", R));
    Chip = P.pChipName ? P.pChipName : "";
  }
  std::vector<uint8_t> Avail;
  {
    KLARAPTOR_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params, P);
    P.ctx = S.Ctx;
    if (CUptiResult R = C.CounterAvailability(&P))
      return Fail(C.message("cuptiProfilerGetCounterAvailability", R));
    Avail.assign(P.counterAvailabilityImageSize, 0);
    P.pCounterAvailabilityImage = Avail.data();
    if (CUptiResult R = C.CounterAvailability(&P))
      return Fail(C.message("cuptiProfilerGetCounterAvailability", R));
  }
  if (!configure(S, Chip, Avail, Why))
    return Fail(Why);
  S.MetricsOk = true;
  return true;
}

bool readyLocked(State &S, bool TimeOnly, std::string &Error) {
  unsigned Repeats = 0;
  if (!parseRepeats(std::getenv("KLARAPTOR_CUPTI_REPEATS"), Repeats, Error))
    return false;
  if (!readyDriver(S, Error))
    return false;
  if (TimeOnly || metricsOff())
    return true;
  return readyMetrics(S, Error);
}

//===--- Saved memory -----------------------------------------------------===//

/// The allocations a sweep restores: a device copy when there is room,
/// else a host copy.
class SavedMemory {
public:
  explicit SavedMemory(Driver &D) : D(D) {}
  ~SavedMemory() {
    for (Entry &E : Entries)
      if (E.Copy)
        D.MemFree(E.Copy);
  }
  bool save(const std::vector<DeviceBuffer> &Buffers, std::string &Error) {
    for (const DeviceBuffer &B : Buffers) {
      Entry E;
      E.Base = CUdeviceptr(B.Base);
      E.Size = size_t(B.Size);
      CUresult R;
      if (D.MemAlloc(&E.Copy, E.Size) == CUDA_SUCCESS) {
        R = D.MemcpyDtoD(E.Copy, E.Base, E.Size);
      } else {
        E.Copy = 0;
        E.Host.resize(E.Size);
        R = D.MemcpyDtoH(E.Host.data(), E.Base, E.Size);
      }
      if (R != CUDA_SUCCESS) {
        Error = "cannot save the kernel's buffer of " +
                std::to_string(E.Size) + " bytes: " + D.name(R);
        Entries.push_back(std::move(E));
        return false;
      }
      Entries.push_back(std::move(E));
    }
    return sync(Error);
  }
  /// Waits for the GPU (the launch may be on a stream that does not
  /// synchronize with the legacy stream the copies use), then copies back.
  bool restore(std::string &Error) {
    if (!sync(Error))
      return false;
    for (Entry &E : Entries) {
      CUresult R = E.Copy ? D.MemcpyDtoD(E.Base, E.Copy, E.Size)
                          : D.MemcpyHtoD(E.Base, E.Host.data(), E.Size);
      if (R != CUDA_SUCCESS) {
        Error = "cannot restore the kernel's buffer: " + D.name(R);
        return false;
      }
    }
    return sync(Error);
  }
  size_t count() const { return Entries.size(); }

private:
  struct Entry {
    CUdeviceptr Base = 0, Copy = 0;
    size_t Size = 0;
    std::vector<unsigned char> Host;
  };
  Driver &D;
  std::vector<Entry> Entries;
  bool sync(std::string &Error) {
    if (CUresult R = D.CtxSynchronize()) {
      Error = "the GPU failed: " + D.name(R);
      return false;
    }
    return true;
  }
};

//===--- One sweep --------------------------------------------------------===//

class Sweep {
public:
  Sweep(State &S, CUfunction F, void *const *Args, uint64_t Shared,
        CUstream Stream)
      : S(S), D(S.D), F(F), Args(Args), Shared(Shared), Stream(Stream),
        Saved(S.D) {}
  ~Sweep() {
    if (Start)
      D.EventDestroy(Start);
    if (End)
      D.EventDestroy(End);
  }

  int run(const uint32_t *Shapes, uint32_t Count, bool Metrics,
          bool SharedPerShape, ShapeFn Fn, void *Ctx, std::string &Error);

private:
  State &S;
  Driver &D;
  CUfunction F;
  void *const *Args;
  /// The dynamic shared memory of the shape being run.
  uint64_t Shared;
  CUstream Stream;
  SavedMemory Saved;
  CUevent Start = nullptr, End = nullptr;
  unsigned Repeats = 5;

  CUresult launch(const uint32_t *Shape) {
    return D.LaunchKernel(F, Shape[0], Shape[1], Shape[2], Shape[3], Shape[4],
                          Shape[5], unsigned(Shared), Stream,
                          const_cast<void **>(Args), nullptr);
  }
  bool prepare(std::string &Error);
  /// Times one shape. False with \p Fatal set when the context failed.
  bool time(const uint32_t *Shape, LaunchRecord &R, std::string &Why,
            bool &Fatal);
  bool metrics(const uint32_t *Shape, LaunchRecord &R, std::string &Why,
               bool &Fatal);
};

bool Sweep::prepare(std::string &Error) {
  if (!D.FuncGetParamInfo) {
    Error = "the CUDA driver has no cuFuncGetParamInfo (a driver of CUDA 12.4 "
            "or later is needed to find the kernel's pointer arguments)";
    return false;
  }
  std::vector<uint64_t> Sizes;
  for (size_t I = 0; I < 4096; ++I) {
    size_t Off = 0, Size = 0;
    if (D.FuncGetParamInfo(F, I, &Off, &Size) != CUDA_SUCCESS)
      break; // CUDA_ERROR_INVALID_VALUE past the last parameter
    Sizes.push_back(Size);
  }
  if (!Sizes.empty() && !Args) {
    Error = "the launch has no argument array";
    return false;
  }
  Driver &Dr = D;
  AddressQuery Query = [&Dr](uint64_t A, uint64_t &Base, uint64_t &Size) {
    unsigned Type = 0;
    if (Dr.PointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                               CUdeviceptr(A)) != CUDA_SUCCESS ||
        Type != CU_MEMORYTYPE_DEVICE)
      return false;
    CUdeviceptr B = 0;
    size_t N = 0;
    if (Dr.MemGetAddressRange(&B, &N, CUdeviceptr(A)) != CUDA_SUCCESS)
      return false;
    Base = uint64_t(B);
    Size = uint64_t(N);
    return true;
  };
  if (CUresult R = D.CtxSynchronize()) {
    Error = "an earlier kernel failed (" + D.name(R) + ")";
    return false;
  }
  if (!Saved.save(findArgumentBuffers(Sizes, Args, Query), Error))
    return false;
  if (CUresult R = D.EventCreate(&Start, CU_EVENT_DEFAULT)) {
    Error = "cuEventCreate failed: " + D.name(R);
    return false;
  }
  if (CUresult R = D.EventCreate(&End, CU_EVENT_DEFAULT)) {
    Error = "cuEventCreate failed: " + D.name(R);
    return false;
  }
  return parseRepeats(std::getenv("KLARAPTOR_CUPTI_REPEATS"), Repeats, Error);
}

bool Sweep::time(const uint32_t *Shape, LaunchRecord &R, std::string &Why,
                 bool &Fatal) {
  // Warm-up: the first launch of a shape pays for module loading and cold
  // caches; it is not timed.
  if (CUresult E = launch(Shape)) {
    Why = "launch refused: " + D.name(E);
    return false;
  }
  if (!Saved.restore(Why))
    return !(Fatal = true);
  std::vector<double> Ns;
  for (unsigned K = 0; K < Repeats; ++K) {
    CUresult E = D.EventRecord(Start, Stream);
    if (!E)
      E = launch(Shape);
    if (!E)
      E = D.EventRecord(End, Stream);
    if (!E)
      E = D.EventSynchronize(End);
    float Ms = 0;
    if (!E)
      E = D.EventElapsedTime(&Ms, Start, End);
    if (E) {
      Why = "timing failed: " + D.name(E);
      Fatal = true;
      return false;
    }
    Ns.push_back(double(Ms) * 1e6);
    if (!Saved.restore(Why))
      return !(Fatal = true);
  }
  TimeSpread T = summarizeTimes(Ns);
  R.set("gpu_time_ns", T.Median);
  R.set("gpu_time_ns_min", T.Min);
  R.set("gpu_time_ns_max", T.Max);
  R.set("gpu_time_repeats", T.Count);
  return true;
}

bool Sweep::metrics(const uint32_t *Shape, LaunchRecord &Rec,
                    std::string &Why, bool &Fatal) {
  Cupti &C = S.C;
  KLARAPTOR_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params, En);
  En.ctx = S.Ctx;
  if (CUptiResult R = C.Enable(&En)) {
    Why = C.message("cuptiRangeProfilerEnable", R);
    return false;
  }
  CUpti_RangeProfiler_Object *Obj = En.pRangeProfilerObject;
  struct Disabler {
    Cupti &C;
    CUpti_RangeProfiler_Object *Obj;
    ~Disabler() {
      KLARAPTOR_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params, P);
      P.pRangeProfilerObject = Obj;
      C.Disable(&P);
    }
  } Off{C, Obj};

  KLARAPTOR_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params, Sz);
  Sz.pRangeProfilerObject = Obj;
  Sz.pMetricNames = S.NamePtrs.data();
  Sz.numMetrics = S.NamePtrs.size();
  Sz.maxNumOfRanges = 1;
  Sz.maxNumRangeTreeNodes = 1;
  if (CUptiResult R = C.GetCounterDataSize(&Sz)) {
    Why = C.message("cuptiRangeProfilerGetCounterDataSize", R);
    return false;
  }
  std::vector<uint8_t> Data(Sz.counterDataSize, 0);
  KLARAPTOR_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params,
                         Init);
  Init.pRangeProfilerObject = Obj;
  Init.counterDataSize = Data.size();
  Init.pCounterData = Data.data();
  if (CUptiResult R = C.CounterDataImageInitialize(&Init)) {
    Why = C.message("cuptiRangeProfilerCounterDataImageInitialize", R);
    return false;
  }
  KLARAPTOR_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params, Cfg);
  Cfg.pRangeProfilerObject = Obj;
  Cfg.configSize = S.Config.size();
  Cfg.pConfig = S.Config.data();
  Cfg.counterDataImageSize = Data.size();
  Cfg.pCounterDataImage = Data.data();
  Cfg.range = CUPTI_UserRange;
  Cfg.replayMode = CUPTI_UserReplay;
  Cfg.maxRangesPerPass = 1;
  Cfg.numNestingLevels = 1;
  Cfg.minNestingLevel = 1;
  Cfg.passIndex = 0;
  Cfg.targetNestingLevel = 1;
  if (CUptiResult R = C.SetConfig(&Cfg)) {
    Why = C.message("cuptiRangeProfilerSetConfig", R);
    return false;
  }
  // One pass per iteration; CUPTI says when it has them all. The bound
  // only guards against a Stop that never reports completion.
  bool AllSubmitted = false;
  size_t Pass = 0;
  for (; !AllSubmitted && Pass < S.Passes + 16; ++Pass) {
    KLARAPTOR_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params, St);
    St.pRangeProfilerObject = Obj;
    if (CUptiResult R = C.Start(&St)) {
      Why = C.message("cuptiRangeProfilerStart", R);
      return false;
    }
    KLARAPTOR_CUPTI_PARAMS(CUpti_RangeProfiler_PushRange_Params, Push);
    Push.pRangeProfilerObject = Obj;
    Push.pRangeName = "klaraptor";
    CUptiResult PushR = C.PushRange(&Push);
    CUresult LaunchR = PushR ? CUDA_SUCCESS : launch(Shape);
    CUresult SyncR = D.CtxSynchronize();
    KLARAPTOR_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params, Pop);
    Pop.pRangeProfilerObject = Obj;
    CUptiResult PopR = PushR ? CUPTI_SUCCESS : C.PopRange(&Pop);
    KLARAPTOR_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params, Sp);
    Sp.pRangeProfilerObject = Obj;
    CUptiResult StopR = C.Stop(&Sp);
    if (SyncR) {
      Why = "the kernel failed under the profiler: " + D.name(SyncR);
      Fatal = true;
      return false;
    }
    if (!Saved.restore(Why))
      return !(Fatal = true);
    if (PushR || LaunchR || PopR || StopR) {
      Why = PushR    ? C.message("cuptiRangeProfilerPushRange", PushR)
            : LaunchR ? "launch refused under the profiler: " + D.name(LaunchR)
            : PopR    ? C.message("cuptiRangeProfilerPopRange", PopR)
                      : C.message("cuptiRangeProfilerStop", StopR);
      return false;
    }
    AllSubmitted = Sp.isAllPassSubmitted != 0;
  }
  if (!AllSubmitted) {
    Why = "the CUPTI Range Profiler asked for more than " +
          std::to_string(Pass) + " passes";
    return false;
  }
  KLARAPTOR_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params, Dec);
  Dec.pRangeProfilerObject = Obj;
  if (CUptiResult R = C.DecodeData(&Dec)) {
    Why = C.message("cuptiRangeProfilerDecodeData", R);
    return false;
  }
  if (Dec.numOfRangeDropped) {
    Why = "the CUPTI Range Profiler dropped the launch's range";
    return false;
  }
  KLARAPTOR_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params, Info);
  Info.pCounterDataImage = Data.data();
  Info.counterDataImageSize = Data.size();
  if (CUptiResult R = C.GetCounterDataInfo(&Info)) {
    Why = C.message("cuptiRangeProfilerGetCounterDataInfo", R);
    return false;
  }
  if (Info.numTotalRanges < 1) {
    Why = "the CUPTI counter data holds no range";
    return false;
  }
  std::vector<double> Values(S.NamePtrs.size(), 0.0);
  KLARAPTOR_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params, Ev);
  Ev.pHostObject = S.Host;
  Ev.pCounterDataImage = Data.data();
  Ev.counterDataImageSize = Data.size();
  Ev.rangeIndex = 0;
  Ev.ppMetricNames = S.NamePtrs.data();
  Ev.numMetrics = S.NamePtrs.size();
  Ev.pMetricValues = Values.data();
  if (CUptiResult R = C.EvaluateToGpuValues(&Ev)) {
    Why = C.message("cuptiProfilerHostEvaluateToGpuValues", R);
    return false;
  }
  setMetricKeys(S.Names, Values, Rec);
  Rec.set("cupti_passes", double(Pass));
  return true;
}

int Sweep::run(const uint32_t *Shapes, uint32_t Count, bool Metrics,
               bool SharedPerShape, ShapeFn Fn, void *Ctx,
               std::string &Error) {
  if (!prepare(Error))
    return -1;
  int Regs = 0, Static = 0, Local = 0;
  D.FuncGetAttribute(&Regs, CU_FUNC_ATTRIBUTE_NUM_REGS, F);
  D.FuncGetAttribute(&Static, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, F);
  D.FuncGetAttribute(&Local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, F);
  const size_t Stride = SharedPerShape ? 7 : 6;
  for (uint32_t I = 0; I < Count; ++I) {
    const uint32_t *Shape = Shapes + Stride * size_t(I);
    if (SharedPerShape)
      Shared = Shape[6];
    LaunchRecord R;
    R.Backend = "cupti";
    R.Device = S.DeviceName;
    for (int K = 0; K < 3; ++K) {
      R.Grid[K] = Shape[K];
      R.Block[K] = Shape[3 + K];
    }
    R.DynamicSharedBytes = Shared;
    std::string Why;
    bool Fatal = false;
    if (!time(Shape, R, Why, Fatal)) {
      if (Fatal) {
        Error = "block (" + std::to_string(Shape[3]) + "," +
                std::to_string(Shape[4]) + "," + std::to_string(Shape[5]) +
                "): " + Why + "; the program's buffers may have changed";
        return -1;
      }
      Fn(Ctx, I, nullptr, Why.c_str());
      continue;
    }
    R.set("registers_per_thread", Regs);
    R.set("static_shared_bytes", Static);
    R.set("dynamic_shared_bytes_per_block", double(Shared));
    R.set("local_bytes_per_thread", Local);
    int Active = 0;
    if (D.Occupancy(&Active, F, int(Shape[3] * Shape[4] * Shape[5]),
                    size_t(Shared)) == CUDA_SUCCESS)
      R.set("active_blocks_per_sm", Active);
    std::string Note;
    if (Metrics && !metrics(Shape, R, Note, Fatal)) {
      if (Fatal) {
        Error = Note + "; the program's buffers may have changed";
        return -1;
      }
      Note = "no metrics: " + Note;
    }
    Fn(Ctx, I, &R, Note.empty() ? nullptr : Note.c_str());
  }
  return 0;
}

} // namespace

bool cuptiReady(bool TimeOnly, std::string &Device, std::string &Error) {
  State &S = state();
  std::lock_guard<std::mutex> G(S.M);
  if (!readyLocked(S, TimeOnly, Error))
    return false;
  Device = S.DeviceName;
  return true;
}

int cuptiSweep(const void *Function, bool IsCuFunction, void *const *Args,
               uint64_t SharedBytes, void *Stream, const uint32_t *Shapes,
               uint32_t Count, int Flags, ShapeFn Fn, void *Ctx,
               std::string &Error) {
  State &S = state();
  std::lock_guard<std::mutex> G(S.M);
  const bool Metrics = !(Flags & SweepTimeOnly) && !metricsOff();
  if (!readyLocked(S, !Metrics, Error))
    return -1;
  Driver &D = S.D;
  // The program may call from a thread the context is not current on.
  CUcontext Cur = nullptr;
  if (D.CtxGetCurrent(&Cur) != CUDA_SUCCESS || Cur != S.Ctx) {
    if (CUresult R = D.CtxSetCurrent(S.Ctx)) {
      Error = "cuCtxSetCurrent failed: " + D.name(R);
      return -1;
    }
  }
  CUfunction F = nullptr;
  if (IsCuFunction) {
    F = static_cast<CUfunction>(const_cast<void *>(Function));
  } else {
    // cudaGetFuncBySymbol (CUDA 11+) maps the runtime's host stub to its
    // CUfunction; cudaFunction_t is a CUfunction.
    using GetFn = int (*)(CUfunction *, const void *);
    auto Get = reinterpret_cast<GetFn>(
        ::dlsym(RTLD_DEFAULT, "cudaGetFuncBySymbol"));
    if (!Get) {
      Error = "the process exports no cudaGetFuncBySymbol: link the program "
              "with the shared CUDA runtime (-lcudart, as klaraptor-clang++ "
              "does)";
      return -1;
    }
    if (int R = Get(&F, Function)) {
      Error = "cudaGetFuncBySymbol failed (cudaError " + std::to_string(R) +
              ") for the launched kernel";
      return -1;
    }
  }
  if (!F) {
    Error = "unknown kernel";
    return -1;
  }
  Sweep W(S, F, Args, SharedBytes, static_cast<CUstream>(Stream));
  return W.run(Shapes, Count, Metrics, (Flags & SweepSharedPerShape) != 0, Fn,
               Ctx, Error);
}

#endif // KLARAPTOR_CUPTI_HEADERS

} // namespace klaraptor::profiler::cupti
