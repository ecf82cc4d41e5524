//===- DeviceQuery.h - the limits of the device a launch runs on ----------===//
///
/// \file
/// Asks the CUDA runtime (or, in a program that uses only the driver API,
/// the driver) which device is current and what its limits are. Limits are
/// queried once per device and cached, failures included. Tests replace the
/// device with setOverride.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_DEVICEQUERY_H
#define KLARAPTOR_RUNTIME_DEVICEQUERY_H

#include "CudaApi.h"
#include "klaraptor/klaraptor_rt.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace klaraptor {

class DeviceQuery {
public:
  explicit DeviceQuery(const CudaApi &Api) : Api(Api) {
    if (Api.CtxGetCurrent && Api.CtxGetDevice) {
      CtxGetCurrent.store(Api.CtxGetCurrent);
      CtxGetDevice.store(Api.CtxGetDevice);
    }
  }

  /// The current device's ordinal, or -1 when no device answers. This is
  /// on the hot path of every launch: the device of the thread's current
  /// driver context (cuCtxGetCurrent, cuCtxGetDevice: about 25 ns on an
  /// H200, flat in the number of threads), else cudaGetDevice (63 ns alone,
  /// 351 ns per call in 4 threads at once), else cuCtxGetDevice.
  int currentDevice() const;
  /// Why currentDevice() answers -1 (asks CUDA again).
  std::string whyNoDevice() const;

  /// The limits of device \p Device, or null with \p Why set when they
  /// cannot be had. The pointer stays valid until the next setOverride.
  const klaraptor_device_info *limits(int Device, std::string &Why);

  /// What a kernel can be launched with; 0 means unknown.
  struct KernelLimits {
    /// Threads per block (register and attribute limits).
    int MaxThreads = 0;
    /// Dynamic shared memory per block, bytes (the device's limit less the
    /// kernel's static shared memory, or what the program raised it to with
    /// cudaFuncAttributeMaxDynamicSharedMemorySize).
    int64_t MaxDynamicShared = 0;
  };
  /// The limits of \p Kernel on \p Device. Asks the driver about
  /// \p CuFunction when given, else the runtime about the host stub
  /// \p HostHandle. Not cached here.
  KernelLimits kernelLimits(const void *HostHandle, void *CuFunction,
                            int Device);

  /// Replaces every device with \p Info (tests, benchmarks); null restores
  /// the CUDA queries. Returns false when \p Info is implausible.
  bool setOverride(const klaraptor_device_info *Info, std::string *Why = nullptr);

  /// While an override is set, kernelLimits answers \p MaxThreads for
  /// the kernel with host stub \p HostHandle (tests); 0 removes the entry.
  void setKernelMaxThreadsOverride(const void *HostHandle, int MaxThreads);

  /// Checks that \p Info describes a device one can launch on.
  static bool plausible(const klaraptor_device_info &Info, std::string &Why);

  const CudaApi &api() const { return Api; }

private:
  struct Cached {
    bool Ok = false;
    std::string Why;
    klaraptor_device_info Info{};
  };

  const CudaApi &Api;
  std::mutex M;
  std::map<int, std::unique_ptr<Cached>> ByDevice;
  std::unique_ptr<klaraptor_device_info> Override;
  std::map<const void *, int> KernelOverride;
  /// Ordinal of the override device, or INT32_MIN when there is none.
  std::atomic<int> OverrideDevice{INT32_MIN};
  /// The driver's cuCtxGetCurrent and cuCtxGetDevice, from the table or
  /// from libcuda.so.1 once the runtime has loaded it (at most
  /// MaxDriverLookups tries: a process may never load it).
  using CtxGetCurrentFn = int (*)(void **);
  using CtxGetDeviceFn = int (*)(int *);
  mutable std::atomic<CtxGetCurrentFn> CtxGetCurrent{nullptr};
  mutable std::atomic<CtxGetDeviceFn> CtxGetDevice{nullptr};
  mutable std::atomic<int> DriverLookups{0};
  static constexpr int MaxDriverLookups = 64;
  void lookUpLoadedDriver() const;

  bool queryRuntime(int Device, klaraptor_device_info &Info, std::string &Why);
  bool queryDriver(int Device, klaraptor_device_info &Info, std::string &Why);
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_DEVICEQUERY_H
