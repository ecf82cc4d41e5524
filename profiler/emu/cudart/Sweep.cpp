//===- Sweep.cpp - klaraptor_emu_sweep: one launch, many block shapes -----===//
///
/// \file
/// What `klaraptor profile` and `klaraptor bench` ask of the emulated
/// runtime: run one launch's kernel once per block shape, each on the memory
/// the program had before the launch, and hand back each shape's launch
/// record (metrics and the abstract-emulation time estimate). Every
/// allocation and the module's registered variables are saved once before
/// the sweep and restored after each shape (estimate-only sweeps: just the
/// pages the emulator saw the shape's stores and atomics write), so the
/// program's own launch that follows computes what it would have computed
/// without the sweep.
//===----------------------------------------------------------------------===//
#include "EmuRuntime.h"
#include "EmuCudart.h"

namespace klaraptor::emurt {

int Runtime::sweep(const LaunchRequest &R, const uint32_t *Shapes,
                   uint32_t Count, int Flags,
                   void (*Fn)(void *, uint32_t, const void *, const char *),
                   void *Ctx, std::string &Error) {
  if (cudaError_t S = sticky()) {
    Error = std::string("an earlier kernel failed (") + errorName(S) + ")";
    return -1;
  }
  if (!device()) {
    Error = "no emulated device";
    return -1;
  }
  if (!R.F) {
    Error = "unknown kernel";
    return -1;
  }
  const bool Full = (Flags & KLARAPTOR_EMU_SWEEP_ESTIMATE_ONLY) == 0;
  std::lock_guard<std::mutex> L(LaunchMutex);
  SavedMemory Saved(*this, *R.F, /*FollowWrites=*/!Full);
  for (uint32_t I = 0; I < Count; ++I) {
    LaunchRequest S = R;
    const uint32_t *Shape = Shapes + 6 * size_t(I);
    S.Grid = emu::Dim3{Shape[0], Shape[1], Shape[2]};
    S.Block = emu::Dim3{Shape[3], Shape[4], Shape[5]};
    if (cudaError_t C = checkLaunch(S)) {
      Fn(Ctx, I, nullptr,
         (std::string("launch refused: ") + errorName(C)).c_str());
      continue;
    }
    std::string Why;
    timing::LaunchEstimate E;
    if (!Full) {
      // One SM's wave, traced, no metrics: cheap at any data size.
      bool Ok = estimateShape(*S.F, S, S.Grid, S.Block, 0, E, nullptr, Why);
      restoreMemory(Saved);
      if (!Ok) {
        Fn(Ctx, I, nullptr, Why.c_str());
        continue;
      }
      profiler::LaunchRecord Rec = makeRecord(S, emu::LaunchMetrics(), 0, &E);
      Fn(Ctx, I, &Rec, nullptr);
      continue;
    }
    Measured M;
    emu::LaunchResult Res = runMeasured(S, true, true, M);
    restoreMemory(Saved);
    if (Res.Status != emu::LaunchStatus::Ok) {
      Fn(Ctx, I, nullptr, Res.Message.c_str());
      continue;
    }
    bool HaveEstimate = estimateMeasured(S, M, E, Why);
    profiler::LaunchRecord Rec =
        makeRecord(S, M.Metrics, M.Seconds, HaveEstimate ? &E : nullptr);
    Fn(Ctx, I, &Rec, HaveEstimate ? nullptr : Why.c_str());
  }
  return 0;
}

} // namespace klaraptor::emurt
