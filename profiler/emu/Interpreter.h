//===- Interpreter.h - SIMT execution of a KernelProgram ------------------===//
///
/// \file
/// Warps of 32 lanes execute in lockstep under an active mask. Divergent
/// branches push entries on a per-warp SIMT stack and reconverge at the
/// branch's immediate post-dominator (Cfg.cpp); calls push a frame marker.
/// A block's warps run round-robin, each until it reaches a barrier or
/// finishes; bar.sync releases when every unfinished warp of the block (or
/// the requested thread count) has arrived. Blocks run one after another on
/// each host thread; several host threads take blocks from a shared counter.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_INTERPRETER_H
#define KLARAPTOR_PROFILER_EMU_INTERPRETER_H

#include "Exec.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace klaraptor::emu {

class ModuleImpl;

/// One entry of a warp's SIMT stack.
struct StackEntry {
  uint32_t Pc;
  uint32_t Rpc;  ///< reconvergence pc (NoPc: none in this function)
  uint32_t Mask;
  uint32_t Call; ///< for frame markers: index into WarpCtx::Calls, else ~0u
};

struct CallRecord {
  uint32_t Site;        ///< index into KernelProgram::Calls
  uint32_t Callee;      ///< function index
  uint32_t CallerFrame; ///< frame offset of the caller
  uint32_t CalleeFrame;
  uint32_t SaveAt;      ///< offset in WarpCtx::SavedRegs, ~0u when none
  uint32_t SavePredAt;
};

struct WarpCtx {
  enum State : uint8_t { Ready, Waiting, Done };
  std::vector<StackEntry> Stack;
  std::vector<CallRecord> Calls;
  std::vector<uint64_t> SavedRegs;
  std::vector<uint32_t> SavedPreds;
  uint64_t *Regs = nullptr;
  uint32_t *Preds = nullptr;
  uint32_t Index = 0;
  uint32_t Live = 0;   ///< lanes that exist
  uint32_t Exited = 0; ///< lanes that executed exit
  uint32_t FrameBase = 0;
  State St = Ready;
  // Barrier wait.
  uint8_t BarId = 0;
  BarKind WaitKind = BarKind::Sync;
  uint32_t RedDst = 0;  ///< bar.red destination (slot or predicate)
  uint32_t RedMask = 0; ///< lanes that took part
};

struct BarrierState {
  uint32_t ArrivedWarps = 0;
  uint32_t Expected = 0; ///< warps; 0: all unfinished warps
  uint32_t Popc = 0;
  bool AllTrue = true, AnyTrue = false;
  bool Reduce = false;
  std::vector<uint32_t> Waiters;
};

struct BlockCtx {
  uint64_t Linear = 0;
  Dim3 Idx;
  std::vector<WarpCtx> Warps;
  BarrierState Bars[16];
};

/// Read-only facts of one launch, shared by its host threads.
struct LaunchCtx {
  const KernelProgram *P = nullptr;
  ModuleImpl *M = nullptr;
  Dim3 Grid, Block;
  uint32_t ThreadsPerBlock = 0, WarpsPerBlock = 0;
  uint64_t SharedBytes = 0; ///< static + dynamic
  uint32_t DynSharedBytes = 0;
  std::vector<uint8_t> ParamBuf;
  uint64_t GridId = 0;
  bool Collect = false;
  uint64_t MaxWarpInstructions = 0; ///< per block; 0: no limit
  TraceSink *Trace = nullptr;
  bool TrackWrites = false; ///< LaunchOptions::WrittenPages is set
  bool (*GlobalCheck)(void *, uint64_t, uint64_t) = nullptr;
  void *GlobalCheckUser = nullptr;
  /// LaunchOptions::GlobalRanges (sorted, disjoint [begin, end)), or null.
  const std::vector<std::pair<uint64_t, uint64_t>> *GlobalRanges = nullptr;
  /// Ranges of module .const storage (for isspacep.const).
  std::vector<std::pair<uint64_t, uint64_t>> ConstRanges;
  std::mutex PrintMutex;
};

/// Runs a launch; fills Metrics. Defined in Interpreter.cpp.
LaunchResult runLaunch(ModuleImpl &M, const KernelProgram &P,
                       const KernelInfo &KI, const LaunchOptions &O);

} // namespace klaraptor::emu

#endif // KLARAPTOR_PROFILER_EMU_INTERPRETER_H
