//===- EmuBackend.h - the profiler backend on top of the PTX emulator -----===//
///
/// \file
/// The `emu` backend measures launches that the emulated CUDA runtime
/// (libklaraptor_emu_cudart, profiler/emu/cudart) executes on the CPU: each
/// launch's emu::LaunchMetrics becomes a LaunchRecord with the keys of
/// emuMetrics() (docs/metrics.md).
///
/// The backend talks to the emulated runtime only through the C function
/// klaraptor_emu_set_launch_observer, found with dlsym in the running
/// process, the way libklaraptor_rt finds CUDA functions. So begin() fails
/// with a clear message in a program linked against the real libcudart.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_BACKEND_EMUBACKEND_H
#define KLARAPTOR_PROFILER_BACKEND_EMUBACKEND_H

#include "Backend.h"

#include <mutex>

namespace klaraptor::emu {
struct LaunchMetrics;
} // namespace klaraptor::emu

namespace klaraptor::profiler {

/// Every metric the emu backend reports, in record order.
const std::vector<MetricInfo> &emuMetrics();

/// Fills \p R's values from \p M (every key of emuMetrics() except
/// "active_blocks_per_sm" and "host_seconds", which the caller knows).
void setEmuMetrics(LaunchRecord &R, const emu::LaunchMetrics &M);

class EmuBackend final : public Backend {
public:
  EmuBackend() = default;
  ~EmuBackend() override;
  std::string_view name() const override { return "emu"; }
  const std::vector<MetricInfo> &metricNames() const override {
    return emuMetrics();
  }
  bool begin(std::string &Error) override;
  bool end(std::vector<LaunchRecord> &Records, std::string &Error) override;

private:
  static void observe(void *Ctx, const void *Record);
  using SetObserverFn = int (*)(void (*)(void *, const void *), void *);
  SetObserverFn SetObserver = nullptr;
  bool Active = false;
  std::mutex M;
  std::vector<LaunchRecord> Captured;
};

} // namespace klaraptor::profiler

#endif // KLARAPTOR_PROFILER_BACKEND_EMUBACKEND_H
