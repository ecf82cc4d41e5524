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
/// without the sweep. In an estimate-only sweep a shape's timing simulation
/// runs on a thread of its own while the next shape's blocks run.
//===----------------------------------------------------------------------===//
#include "EmuRuntime.h"
#include "EmuCudart.h"

#include <new>
#include <optional>
#include <system_error>
#include <thread>

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
  if (Flags & ~(KLARAPTOR_EMU_SWEEP_ESTIMATE_ONLY |
                KLARAPTOR_EMU_SWEEP_SHARED_PER_SHAPE)) {
    Error = "unknown sweep flags " + std::to_string(Flags);
    return -1;
  }
  const bool Full = (Flags & KLARAPTOR_EMU_SWEEP_ESTIMATE_ONLY) == 0;
  const bool PerShapeShared =
      (Flags & KLARAPTOR_EMU_SWEEP_SHARED_PER_SHAPE) != 0;
  const size_t Stride = PerShapeShared ? 7 : 6;
  std::lock_guard<std::mutex> L(LaunchMutex);
  SavedMemory Saved(*this, *R.F, /*FollowWrites=*/!Full);
  // Shape I's request; Why says why it is refused, or is empty.
  auto Request = [&](uint32_t I, std::string &Why) {
    LaunchRequest S = R;
    const uint32_t *Shape = Shapes + Stride * size_t(I);
    S.Grid = emu::Dim3{Shape[0], Shape[1], Shape[2]};
    S.Block = emu::Dim3{Shape[3], Shape[4], Shape[5]};
    if (PerShapeShared)
      S.DynamicShared = Shape[6];
    Why.clear();
    if (cudaError_t C = checkLaunch(S))
      Why = std::string("launch refused: ") + errorName(C);
    return S;
  };
  if (!Full) {
    // One SM's wave of each shape, traced, no metrics: cheap at any data
    // size. The timing simulation of a shape reads only its trace, so it
    // runs on a thread of its own while the next shape's blocks run; the
    // records reach Fn in the shapes' order.
    struct Pending {
      uint32_t Index = 0;
      LaunchRequest S;
      TracedShape T;
      timing::LaunchEstimate E;
      std::string Why;
      bool Ok = false;
      std::thread Simulation;
      ~Pending() {
        if (Simulation.joinable())
          Simulation.join();
      }
    };
    std::optional<Pending> P;
    auto Deliver = [&] {
      if (!P)
        return;
      if (P->Simulation.joinable())
        P->Simulation.join();
      if (P->Ok) {
        profiler::LaunchRecord Rec =
            makeRecord(P->S, emu::LaunchMetrics(), 0, &P->E);
        Fn(Ctx, P->Index, &Rec, nullptr);
      } else {
        Fn(Ctx, P->Index, nullptr, P->Why.c_str());
      }
      P.reset();
    };
    for (uint32_t I = 0; I < Count; ++I) {
      std::string Why;
      LaunchRequest S = Request(I, Why);
      TracedShape T;
      bool Ok = Why.empty() && traceShape(*S.F, S, S.Grid, S.Block, T, Why);
      restoreMemory(Saved);
      Deliver(); // the previous shape, simulated meanwhile
      if (!Ok) {
        Fn(Ctx, I, nullptr, Why.c_str());
        continue;
      }
      P.emplace();
      P->Index = I;
      P->S = S;
      P->T = std::move(T);
      Pending *Job = &*P;
      auto Simulate = [Job] {
        try {
          Job->Ok = Job->T.estimate(0, Job->E, nullptr, Job->Why);
        } catch (std::bad_alloc &) {
          Job->Ok = false;
          Job->Why = "out of host memory";
        }
      };
      try {
        P->Simulation = std::thread(Simulate);
      } catch (const std::system_error &) {
        Simulate(); // no thread to be had: here, before the next shape
      }
    }
    Deliver();
    return 0;
  }
  for (uint32_t I = 0; I < Count; ++I) {
    std::string Why;
    LaunchRequest S = Request(I, Why);
    if (!Why.empty()) {
      Fn(Ctx, I, nullptr, Why.c_str());
      continue;
    }
    timing::LaunchEstimate E;
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
