//===- TimingModel.h - abstract kernel emulation: latency/gap resources ---===//
///
/// \file
/// The timing engine of klaraptor's GPU-less estimates, in the manner of
/// SAAKE (Hong et al., "GPU Code Optimization using Abstract Kernel
/// Emulation and Sensitivity Analysis", PLDI 2018). An SM is a set of
/// resources, each with a latency L (cycles from start to result) and a gap
/// G (cycles the resource stays busy per unit of work: inverse throughput).
/// Warp schedulers issue at most one instruction per IssueGap cycles,
/// greedy-then-oldest, from the warps of the blocks resident on the SM. An
/// instruction starts when its source registers are ready and its resource
/// admits it; its destinations are ready L + (units - 1) G later. Global
/// accesses pass the load/store unit, then occupy L2 (a fraction
/// L2HitRate of their 32-byte sectors) and DRAM (the rest); shared accesses
/// occupy the shared-memory resource per wavefront. A barrier releases a
/// block's warps BarrierLatency cycles after the last one arrives.
///
/// The engine works on an SmWorkload: a static instruction table (what
/// resource, which registers) and per-warp dynamic streams of indices into
/// it. Estimator.h builds workloads from the emulator's traces; the unit
/// tests build synthetic ones. docs/timing.md describes the model.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_TIMING_TIMINGMODEL_H
#define KLARAPTOR_PROFILER_EMU_TIMING_TIMINGMODEL_H

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace klaraptor::timing {

enum class Resource : uint8_t {
  Int,    ///< integer / logic pipe
  Fp32,   ///< FMA pipe
  Fp64,   ///< double precision pipe
  Sfu,    ///< special-function unit (MUFU)
  Lsu,    ///< load/store unit (address processing, one unit per request)
  Shared, ///< shared-memory banks (one unit per wavefront)
  L2,     ///< L2 cache (one unit per 32-byte sector)
  Dram,   ///< device memory (one unit per 32-byte sector)
  Branch, ///< branch unit (bra, call, ret, exit)
  Count
};
constexpr unsigned NumResources = unsigned(Resource::Count);

/// "int", "fp32", "fp64", "sfu", "lsu", "shared", "l2", "dram", "branch".
const char *resourceName(Resource R);

struct ResourceParams {
  double Latency = 1; ///< cycles
  double Gap = 1;     ///< cycles per unit of work
  /// One copy per warp scheduler (the SM sub-partition's pipes) instead of
  /// one per SM.
  bool PerScheduler = false;
};

/// Everything the engine needs to know about the device.
struct TimingParams {
  ResourceParams Res[NumResources];
  unsigned Schedulers = 4;     ///< warp schedulers per SM
  double IssueGap = 1;         ///< cycles between two issues of a scheduler
  double BarrierLatency = 20;  ///< cycles from the last arrival to release
  double L2HitRate = 0;        ///< fraction of global sectors served by L2
  /// The cache model (used when L1Bytes or L2Bytes is not 0, in place of
  /// L2HitRate for global accesses whose sectors were traced): an L1 of
  /// L1Bytes on the SM, an L2 of L2Bytes, LRU over 128-byte lines of four
  /// 32-byte sectors; loads fill both, stores and atomics only the L2.
  double L1Bytes = 0, L2Bytes = 0;
  double L1Latency = 30; ///< cycles of an L1 hit
  /// Sectors per cycle of the L1's data path, in gaps of the shared-memory
  /// resource (64 B/cycle/SM on Turing, 128 on Volta and later). A global
  /// access passes it one 128-byte line (wavefront) at a time, each the
  /// time of its four sectors, hit or miss: l1WavefrontUnits().
  double L1SectorsPerCycle = 4;
  /// Gaps of the shared resource one wavefront (one line) occupies.
  double l1WavefrontUnits() const { return std::max(1.0, 4 / L1SectorsPerCycle); }
  /// Cycles the SM's path to the L2 is busy per 128-byte line a warp's
  /// access requests from it (its sectors that missed the L1, grouped by
  /// line): a column of 32 rows asks for 32 lines where a coalesced row
  /// asks for one. 0 (the default): only sectors count.
  double L2RequestCycles = 0;
  /// Cycles a stored sector occupies the L2 (its write bandwidth, per SM);
  /// 0 (the default): the L2's gap, as a load's sector.
  double L2StoreGap = 0;
  bool cacheModel() const { return L1Bytes > 0 || L2Bytes > 0; }
  /// Cycles between the starts of two blocks on an SM (the block
  /// scheduler's rate): the SM's k-th block of a wave starts k times this
  /// late. 0 (the shipped profiles: not measured yet): all at once.
  double BlockLaunchCycles = 0;
  /// SM cycles between two atomic operations on one global address, which
  /// the L2 performs one after another: a launch's time is at least this
  /// times the operations on its busiest address (the rational programs
  /// use it, docs/models.md). 0 (the shipped profiles: not measured yet):
  /// no bound.
  double AtomicSameAddressCycles = 0;
  /// Whether estimates have the bound (and launches must count atomics
  /// per address for it: LaunchOptions::Metrics).
  bool atomicBound() const { return AtomicSameAddressCycles > 0; }
  /// Whether each traced pass through a basic block is replayed in the
  /// order an assembler's list scheduler gives it (`assembler_order = 1`,
  /// Schedule.h), or in PTX order (`assembler_order = 0`). The estimator
  /// turns it on (builtinTimingParams); off here, for the engine's tests.
  bool AssemblerOrder = false;
  /// Whether a launch's waves before its last take the simulated wave's
  /// mean block time (at least its busiest resource's), the SM starting a
  /// block whenever one ends (`wave_refill = 1`, cyclesPerWave), or each
  /// the wave's slowest block (`wave_refill = 0`). The estimator turns it
  /// on (builtinTimingParams); off here, for the engine's tests.
  bool WaveRefill = false;
  double ClockGHz = 1;         ///< SM clock
  double LaunchOverheadNs = 0; ///< added once per launch
  std::string Source;          ///< where the values came from

  ResourceParams &operator[](Resource R) { return Res[unsigned(R)]; }
  const ResourceParams &operator[](Resource R) const {
    return Res[unsigned(R)];
  }
};

/// Parses `key = value` lines (`#` comments) over \p P. Keys:
/// `<resource>.latency`, `<resource>.gap` (resource names as
/// resourceName()), `schedulers`, `issue_gap`, `barrier_latency`,
/// `l2_hit_rate`, `clock_ghz`, `launch_overhead_ns`, `block_launch_cycles`,
/// `l1_bytes`,
/// `l2_bytes`, `l1_latency`, `l1_sectors_per_cycle`, `l2_request_cycles`,
/// `l2_store_gap`, `assembler_order` (0 or 1), `wave_refill` (0 or 1).
/// Errors name the line:
/// "<origin>:3: unknown timing key 'foo'".
bool parseTimingParams(std::string_view Text, const std::string &Origin,
                       TimingParams &P, std::string &Error);

/// Where a memory instruction's data comes from (per dynamic instance).
enum class MemTarget : uint8_t { None, Global, Shared, Local };

/// One instruction of the code, as the engine sees it.
struct StaticInst {
  Resource Res = Resource::Int; ///< the pipe; Lsu for memory instructions
  bool Barrier = false;         ///< bar.sync: wait for the block
  uint8_t NumDst = 0, NumSrc = 0;
  uint32_t Dst[4] = {0, 0, 0, 0}; ///< register ids written
  /// Register ids read: operands, then the guard and predicate sources
  /// (Estimator.cpp numbers predicates after the register slots).
  uint32_t Src[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  uint32_t Line = 0;   ///< PTX line (for reports)
  uint32_t Region = 0; ///< code region id (SmWorkload::Regions)
};

/// One executed instance of an instruction by a warp.
struct DynInst {
  uint32_t Idx = 0;    ///< into SmWorkload::Code
  uint32_t Units = 0;  ///< sectors or wavefronts for memory targets
  MemTarget Mem = MemTarget::None;
  /// Global accesses with traced sectors: their Units sectors start at
  /// SmWorkload::Sectors[SecOff]; NoSectors otherwise.
  uint32_t SecOff = NoSectors;
  /// The sectors the neighbouring blocks on other SMs accessed with their
  /// instance of this instruction (the same warp's same global access):
  /// NearUnits of them from SmWorkload::NearSectors[NearOff].
  uint32_t NearOff = 0, NearUnits = 0;
  static constexpr uint32_t NoSectors = 0xffffffffu;
};

struct WarpStream {
  uint32_t Block = 0; ///< index of its block among SmWorkload's blocks
  std::vector<DynInst> Insts;
};

struct CodeRegion {
  uint32_t FirstLine = 0, LastLine = 0; ///< PTX lines
  std::string Name; ///< "kernels.cu:40-43" when the PTX has `.loc`, else "ptx:12-30"
  std::string File; ///< source file (as `.file` names it), empty without `.loc`
  uint32_t FirstSrcLine = 0, LastSrcLine = 0; ///< its lines in File
};

/// What one SM runs: the warps of its resident blocks.
struct SmWorkload {
  std::vector<StaticInst> Code;
  std::vector<WarpStream> Warps; ///< in age order (block, then warp)
  uint32_t NumBlocks = 0;
  uint32_t NumRegs = 0; ///< register ids are below this
  std::vector<CodeRegion> Regions;
  /// The traced sectors (emu::TraceSink::traceSectors's encoding), each
  /// access's in ascending order, as the emulator appends them.
  std::vector<uint64_t> Sectors;
  /// The neighbouring blocks' sectors (DynInst::NearOff), and how many
  /// L2 shares (of TimingParams::L2Bytes each) hold them: the other SMs'
  /// part of the shared L2 that the simulated SM sees.
  std::vector<uint64_t> NearSectors;
  unsigned NearShares = 0;
};

/// A change of the parameters for instructions of one region (or all) on
/// one resource (or all): latency and gap multiplied by the factors.
struct Perturbation {
  int Region = -1;   ///< -1: every region
  int Res = -1;      ///< -1: every resource
  double LatencyFactor = 1, GapFactor = 1;
};

struct SimResult {
  double Cycles = 0;      ///< time of the SM for the workload
  uint64_t Issued = 0;    ///< warp instructions issued
  /// Cycles each resource type was busy (summed over copies).
  double Busy[NumResources] = {};
  /// With the cache model: global sectors served by the L1, by the L2, and
  /// from DRAM.
  double L1HitSectors = 0, L2HitSectors = 0, MissSectors = 0;
  double LoadSectors = 0; ///< of them, loads'
  /// Of the load sectors past the L1: those the L2 (or a neighbour's share
  /// of it) served, and those from DRAM (CUPTI's l2_read_hit_sectors and
  /// the rest of l2_read_sectors).
  double L2ReadHitSectors = 0, L2ReadMissSectors = 0;
  /// The 128-byte lines the L1's misses asked the L2 for (one request per
  /// line of an access).
  double L2Requests = 0;
  /// The lines all traced global accesses touched (hits and misses, loads
  /// and stores, one per line per warp access): the L1 data path's
  /// wavefronts.
  double L1Wavefronts = 0;
  /// When the simulated blocks end, on average, each when its last warp's
  /// last result is there (Cycles is when the last one does).
  double MeanBlockCycles = 0;
  /// The busiest resource's cycles: Busy over its copies (a pipe exists
  /// once per scheduler), or the schedulers' issue slots, the most of them.
  /// However the blocks take turns, the SM needs this long for the work.
  double BusiestCycles = 0;
};

/// Runs the workload on one SM.
SimResult simulate(const SmWorkload &W, const TimingParams &P,
                   const Perturbation *Change = nullptr);

/// Relative change of the time when one resource's latency or gap grows by
/// 10 %.
struct ResourceSensitivity {
  Resource Res = Resource::Int;
  double Latency = 0, Gap = 0; ///< (T' - T) / T
};

struct RegionSensitivity {
  uint32_t Region = 0;
  uint64_t Instructions = 0; ///< dynamic warp instructions in it
  std::vector<ResourceSensitivity> Table; ///< resources it uses
  Resource Bottleneck = Resource::Int;
  bool LatencyBound = false;
  double Impact = 0; ///< the bottleneck's relative change
};

struct Analysis {
  double Cycles = 0;
  uint64_t Issued = 0;
  SimResult Base; ///< the unperturbed simulation (its cache counts)
  std::vector<ResourceSensitivity> Table; ///< every resource, enum order
  Resource Bottleneck = Resource::Int;
  bool LatencyBound = false; ///< the bottleneck's latency outweighs its gap
  double Impact = 0;
  std::vector<RegionSensitivity> Regions; ///< busiest first
};

/// Simulates \p W and re-simulates it with each resource's latency and gap
/// raised by \p Step (0.1: 10 %); with \p MaxRegions > 0 also per code
/// region, for the MaxRegions regions with most dynamic instructions.
Analysis analyze(const SmWorkload &W, const TimingParams &P,
                 unsigned MaxRegions = 0, double Step = 0.1);

/// "fp32 latency-bound" style label of a bottleneck.
std::string bottleneckLabel(Resource R, bool LatencyBound);

} // namespace klaraptor::timing

#endif // KLARAPTOR_PROFILER_EMU_TIMING_TIMINGMODEL_H
