//===- Estimator.h - launch time estimates from the emulator's traces -----===//
///
/// \file
/// Turns one emulated launch into a time estimate for a target GPU:
///
///   resident  = occupancy(device, kernel, block)         (blocks per SM)
///   onSm      = min(resident, ceil(blocks / SMs))
///   waves     = ceil(blocks / (resident * SMs))
///   cycles    = the slower of simulate(the warps of `onSm` traced blocks)
///               for two SMs                               TimingModel.h
///   ns        = cycles * waves / clock + launch overhead
///
/// Only 2 x `onSm` blocks are traced: those SM 0 receives in the first wave
/// when blocks are handed out round-robin, linear ids 0, S, 2S, ... (S =
/// SMs), and those of a middle SM in the middle wave (EstimatedBlocks).
/// TraceCollector is an emu::TraceSink that keeps exactly those;
/// estimateLaunch() runs just those blocks (LaunchOptions::StridedBlocks,
/// SecondStride), so an estimate at a large data size costs one wave of two
/// SMs; the emulated
/// runtime instead traces the launch it runs anyway, and both see the same
/// blocks. With the cache model, the blocks' earlier neighbours on other
/// SMs run too, for their sectors only (addNeighbours, ExtraBlocks): the
/// L2 all SMs share. docs/timing.md.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_TIMING_ESTIMATOR_H
#define KLARAPTOR_PROFILER_EMU_TIMING_ESTIMATOR_H

#include "TimingModel.h"

#include "DeviceProfile.h"
#include "Occupancy.h"
#include "Emulator.h"

#include <memory>
#include <mutex>
#include <string>

namespace klaraptor::emu {
struct KernelProgram;
} // namespace klaraptor::emu

namespace klaraptor::timing {

/// The parameters of \p D (builtinTimingParams), the cache model turned
/// off by KLARAPTOR_EMU_CACHE=0, then the file named by
/// KLARAPTOR_EMU_TIMING_PARAMS, if set.
bool timingParamsFor(const devices::DeviceProfile &D, TimingParams &P,
                     std::string &Error);
/// Only the profile's parameters (no environment): its `timing.*` keys
/// (docs/timing.md lists them with their sources), keys the profile lacks
/// h100-sxm-like defaults (DRAM gap from its bus width and memory clock),
/// in the estimator's configuration: the cache model sized by the profile's
/// L1 and its SMs' share of the L2, the assembler's order, waves refilled.
TimingParams builtinTimingParams(const devices::DeviceProfile &D);

/// The blocks an estimate simulates: the ones two SMs receive when blocks
/// are handed out round-robin (linear ids Start, Start + Stride, ...; Stride
/// = the number of SMs), PerSm of each. Set 0 is SM 0's first wave; set 1 is
/// the wave holding the grid's middle block, on an odd-numbered SM near the
/// middle (an odd start never falls on the first column of a grid whose
/// width is a power of two). The launch lasts as long as its busiest SM, so
/// the estimate takes the slower of the two: SM 0's first blocks alone can
/// be border blocks that do nothing (a 1x1024 block on column 0).
struct EstimatedBlocks {
  static constexpr uint64_t None = ~uint64_t(0);
  uint64_t PerSm = 0;
  uint64_t Stride = 1;
  uint64_t Start[2] = {0, None}; ///< Start[1] None: one set only
  /// With the cache model (addNeighbours): the grid, and the blocks that
  /// run beside the simulated ones on other SMs and were handed out just
  /// before them: each simulated block's predecessors in x, y and z (the
  /// grid's extents above 1), unless simulated on the same SM. Their loads
  /// reach the L2 that all SMs share (docs/timing.md, "The shared L2").
  emu::Dim3 Grid;
  std::vector<uint64_t> Neighbours; ///< sorted, each once
  /// The blocks in \p Linear's neighbourhood, in x, y, z order (those
  /// that exist in the grid).
  std::vector<uint64_t> neighboursOf(uint64_t Linear) const;
  /// The set (0 or 1) that simulates \p Linear, or -1.
  int setOf(uint64_t Linear) const;
};
EstimatedBlocks estimatedBlocks(const devices::DeviceProfile &D,
                                uint64_t Blocks, int64_t Resident);
/// Fills \p B's Grid and Neighbours for a launch of grid \p Grid.
void addNeighbours(EstimatedBlocks &B, emu::Dim3 Grid);

/// Keeps the instruction streams of the first \p MaxBlocks blocks a launch
/// runs.
class TraceCollector final : public emu::TraceSink {
public:
  /// Keeps blocks 0, Stride, 2*Stride, ... (MaxBlocks of them); Stride 0:
  /// the first MaxBlocks blocks that run, whichever they are.
  /// With \p KeepSectors, also the sectors of the global accesses (for
  /// the cache model: TimingParams::cacheModel()).
  explicit TraceCollector(uint64_t MaxBlocks, uint64_t Stride = 0,
                          bool KeepSectors = false)
      : Est(firstSet(MaxBlocks, Stride)), KeepSectors(KeepSectors) {}
  /// Keeps both sets of \p B, and its neighbours (their sectors only
  /// matter, for the shared L2) when \p KeepSectors.
  TraceCollector(const EstimatedBlocks &B, bool KeepSectors)
      : Est(B), KeepSectors(KeepSectors) {}
  /// The blocks this collector keeps (Stride 0: the first PerSm that run;
  /// Neighbours used only with sectors).
  const EstimatedBlocks Est;
  std::vector<emu::TraceEvent> *traceBlock(uint64_t Linear,
                                           uint32_t Warps) override;
  std::vector<uint64_t> *traceSectors(uint64_t Linear) override;
  /// Set of a neighbour block (EstimatedBlocks::Neighbours).
  static constexpr unsigned NeighbourSet = 2;
  struct Block {
    uint64_t Linear = 0;
    unsigned Set = 0; ///< EstimatedBlocks's set, or NeighbourSet
    std::vector<std::vector<emu::TraceEvent>> Warps;
    std::vector<std::vector<uint64_t>> Sectors; ///< per warp, or none
  };
  std::vector<std::unique_ptr<Block>> Blocks;

  /// Whether a block of set 1 was kept.
  bool twoSets() const;

private:
  static EstimatedBlocks firstSet(uint64_t MaxBlocks, uint64_t Stride) {
    EstimatedBlocks B;
    B.PerSm = MaxBlocks;
    B.Stride = Stride;
    return B;
  }
  /// The set block \p Linear belongs to (NeighbourSet for a neighbour), or
  /// -1.
  int setOf(uint64_t Linear) const;
  unsigned Kept[2] = {0, 0};
  bool KeepSectors;
  std::mutex M;
};

/// The workload of the collected blocks (of set \p Set only, unless -1),
/// instructions described from \p P. Regions split the code at branch
/// targets and after branches. With \p AssemblerOrder (TimingParams's),
/// each pass of a warp through a region is in the assembler's order
/// (Schedule.h), else in PTX order.
SmWorkload buildWorkload(const emu::KernelProgram &P, const TraceCollector &C,
                         int Set = -1, bool AssemblerOrder = false);

/// Points \p O's strided launch at the blocks of \p B and its neighbours
/// (without running the rest of the grid); \p B must outlive the launch.
void runOnly(const EstimatedBlocks &B, emu::LaunchOptions &O);

/// The SM's cycles per wave of a launch of \p Waves waves whose first wave
/// \p R simulated: the last wave ends with its slowest block (R.Cycles);
/// before it, the SM starts a block whenever one ends, so each of the
/// earlier waves takes what a block takes on average (R.MeanBlockCycles),
/// but no less than its work keeps the busiest resource busy
/// (R.BusiestCycles). One wave: R.Cycles. Used with `wave_refill = 1`
/// (TimingParams::WaveRefill); without it every wave takes R.Cycles.
double cyclesPerWave(const SimResult &R, uint64_t Waves);

struct LaunchEstimate {
  double Ns = 0; ///< estimated launch time
  /// The slower SM's cycles per wave (cyclesPerWave): Ns is this x Waves
  /// / clock + the launch overhead.
  double CyclesPerWave = 0;
  uint64_t Waves = 0;
  uint64_t Blocks = 0;        ///< of the grid
  int64_t ResidentBlocks = 0; ///< per SM, by occupancy
  uint64_t BlocksSimulated = 0;
  /// The set of EstimatedBlocks whose SM was slower (the one simulated for
  /// CyclesPerWave and the analysis).
  int Set = 0;
  /// The other set's cycles per wave (NaN with one set).
  double OtherCycles = 0;
  devices::Occupancy Occ;
  Analysis A; ///< Table/Regions empty unless sensitivity was asked for
  /// The launch's least time by its same-address atomics
  /// (estimateFromTrace's Atomics; 0 without it). Ns is at least this.
  double AtomicBoundNs = 0;
  /// The time the SMs' simulation gives (waves x CyclesPerWave / clock +
  /// launch overhead): Ns unless the atomics' bound is larger.
  double SimulatedNs = 0;
};

/// How many blocks one SM runs in the first wave of a launch of \p Blocks
/// blocks with \p Resident blocks resident per SM.
/// The stride between the blocks one SM receives: the number of SMs.
uint64_t smStride(const devices::DeviceProfile &D);
uint64_t blocksOnOneSm(const devices::DeviceProfile &D, uint64_t Blocks,
                       int64_t Resident);

/// The estimate from a collected trace. \p Regions > 0 asks for the
/// sensitivity analysis (per region for that many regions), 0 for the time
/// alone; -1 for the overall table without regions. With \p Threads >= 2
/// the two SMs' simulations of a long trace run at once (the same results).
/// With TP.atomicBound(), \p Atomics (the traced launch's metrics, which
/// count atomics per address) bounds the time from below: its
/// global_atomic_max_address_ops, taken over the grid in proportion
/// (BlocksLaunched / BlocksExecuted), times TP.AtomicSameAddressCycles,
/// plus the launch overhead (docs/timing.md, "Same-address atomics").
/// \p Simulated, when given, receives the workload of the SM the estimate
/// is from (set E.Set), so that a caller that explains the estimate does
/// not build it again.
bool estimateFromTrace(const emu::KernelProgram &P, const TraceCollector &C,
                       const devices::DeviceProfile &D,
                       const devices::KernelResources &K,
                       const TimingParams &TP, emu::Dim3 Grid,
                       emu::Dim3 Block, uint64_t DynamicShared, int Regions,
                       LaunchEstimate &E, std::string &Error,
                       unsigned Threads = 1,
                       const emu::LaunchMetrics *Atomics = nullptr,
                       SmWorkload *Simulated = nullptr);

/// Runs the blocks the estimate needs (EstimatedBlocks) for \p O's launch of \p Kernel (O.Trace and
/// O.SampleBlocks are overridden) and estimates it. The blocks' stores reach
/// the arguments' memory, as a real launch's would.
bool estimateLaunch(emu::Module &M, std::string_view Kernel,
                    emu::LaunchOptions O, const devices::DeviceProfile &D,
                    const devices::KernelResources &K, const TimingParams &TP,
                    int Regions, LaunchEstimate &E, std::string &Error);

/// The KernelProgram of \p Kernel in \p M, or null.
const emu::KernelProgram *kernelProgram(emu::Module &M,
                                        std::string_view Kernel);

} // namespace klaraptor::timing

#endif // KLARAPTOR_PROFILER_EMU_TIMING_ESTIMATOR_H
