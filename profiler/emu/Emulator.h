//===- Emulator.h - the CPU PTX emulator's public interface ---------------===//
///
/// \file
/// klaraptor's emulator runs the PTX of real CUDA programs on the CPU, with
/// the results the GPU would compute, and counts what a GPU profiler counts.
/// A Module is one PTX text (what nvcc 13 emits for sm_75..sm_90); launch()
/// runs one kernel of it for a grid of blocks, as warps of 32 lanes in
/// lockstep, and fills LaunchMetrics.
///
/// Memory: device pointers are host pointers. Global memory is whatever the
/// caller allocated (the emulated CUDA runtime allocates it on the host);
/// module-scope .global and .const variables are owned by the Module.
/// Shared memory is per block, local memory per thread; generic addresses of
/// both are host addresses inside those buffers, so cvta works as on a GPU.
///
/// This header is the contract between the emulator core (parser,
/// interpreter, metrics) and its users (the emulated CUDA runtime, the
/// profiler's emu backend, tests). No LLVM, no CUDA headers.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_EMULATOR_H
#define KLARAPTOR_PROFILER_EMU_EMULATOR_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace klaraptor::emu {

struct Dim3 {
  uint32_t X = 1, Y = 1, Z = 1;
  uint64_t count() const { return uint64_t(X) * Y * Z; }
};

/// Classes of executed instructions, as a profiler groups them.
enum class InstClass : unsigned {
  Integer,     ///< integer and logic arithmetic, conversions, moves, setp
  Fp32,        ///< single and half precision arithmetic
  Fp64,        ///< double precision arithmetic
  Special,     ///< sqrt rcp rsqrt ex2 lg2 sin cos tanh (.approx, MUFU)
  GlobalLoad,  ///< ld.global / ld generic resolving to global, ld.const, ld.param of kernel params excluded
  GlobalStore, ///< st.global / st generic resolving to global
  SharedLoad,  ///< ld.shared / generic to shared
  SharedStore, ///< st.shared / generic to shared
  LocalLoad,   ///< ld.local
  LocalStore,  ///< st.local
  Branch,      ///< bra, call, ret, exit
  Barrier,     ///< bar / barrier / membar / fence
  Atomic,      ///< atom / red (global and shared)
  Other,       ///< shfl, vote, activemask, nanosleep, ...
  Count
};
const char *name(InstClass C);

/// What one launch did. Instruction counts are warp-level: an instruction
/// issued for a warp counts once whatever its active lanes (as
/// smsp__inst_executed); ThreadInstructions counts active lanes.
struct LaunchMetrics {
  uint64_t WarpInstructions[unsigned(InstClass::Count)] = {};
  uint64_t ThreadInstructions = 0;
  /// Global memory, as the hardware coalesces each warp access: one request
  /// per warp-level ld/st instruction, sectors = distinct 32-byte sectors
  /// touched by the active lanes; for loads also lines = distinct 128-byte
  /// lines (the L1's data path moves about one a cycle).
  uint64_t GlobalLoadRequests = 0, GlobalLoadSectors = 0, GlobalLoadLines = 0;
  uint64_t GlobalStoreRequests = 0, GlobalStoreSectors = 0;
  uint64_t GlobalAtomicRequests = 0, GlobalAtomicSectors = 0;
  /// Global atomic operations (one per active lane) on the address that
  /// has the most: same-address atomics are performed one after another
  /// at the L2, so this bounds the launch's time from below whatever the
  /// shape (docs/metrics.md).
  uint64_t GlobalAtomicMaxAddressOps = 0;
  /// Shared memory: requests and the extra wavefronts caused by bank
  /// conflicts (32 banks of 4 bytes; a broadcast is no conflict).
  uint64_t SharedLoadRequests = 0, SharedStoreRequests = 0;
  uint64_t SharedBankConflicts = 0;
  uint64_t Branches = 0, DivergentBranches = 0;
  uint64_t WarpsLaunched = 0, BlocksLaunched = 0;
  /// Blocks actually executed (fewer than BlocksLaunched when sampling; all
  /// counts above are then scaled to the whole grid).
  uint64_t BlocksExecuted = 0;
  uint32_t RegistersPerThread = 0; ///< from ptxas (0 when unknown)
  uint32_t StaticSharedBytes = 0, DynamicSharedBytes = 0;
  uint32_t LocalBytesPerThread = 0;
  bool Sampled = false;
};

struct ParamInfo {
  std::string Name;
  uint32_t Size = 0, Align = 1, Offset = 0; ///< Offset in the param space
};

struct KernelInfo {
  std::string Name; ///< the .entry name (mangled)
  std::vector<ParamInfo> Params;
  uint32_t ParamBytes = 0;
  uint32_t StaticSharedBytes = 0; ///< .shared declared in or used by it
  uint32_t LocalBytes = 0;        ///< .local per thread
  uint32_t MaxThreads = 0;        ///< .maxntid product, 0 when absent
  uint32_t Registers = 0;         ///< set by the loader from ptxas info
  uint32_t ReqNTid[3] = {0, 0, 0}; ///< .reqntid, zeros when absent
  /// Instructions of the kernel (or its device functions) the emulator
  /// cannot execute, as "unsupported instruction 'tex.2d...' at PTX line
  /// N". A launch fails only when one of them executes.
  std::vector<std::string> Unsupported;
};

enum class LaunchStatus {
  Ok,
  InvalidConfiguration, ///< block too large, zero dims, too much shared memory
  UnsupportedInstruction,
  MemoryFault,          ///< an access outside any known buffer, when checked
  Trap,                 ///< trap / brkpt / a failed assertion
  Internal
};

struct LaunchResult {
  LaunchStatus Status = LaunchStatus::Ok;
  /// For errors: what and where, e.g. "unsupported instruction 'tex.2d' in
  /// kernel '_Z3fooPf' at PTX line 42".
  std::string Message;
};

class TraceSink;

struct LaunchOptions {
  Dim3 Grid, Block;
  size_t DynamicSharedBytes = 0;
  /// The kernel's arguments, as given to cudaLaunchKernel: Args[i] points at
  /// parameter i.
  void *const *Args = nullptr;
  /// 0: execute every block. N > 0: execute N blocks spread evenly over the
  /// grid and scale the counts (LaunchMetrics::Sampled).
  uint64_t SampleBlocks = 0;
  /// 0: no limit. N > 0 (and SampleBlocks 0): execute only the N blocks
  /// 0, BlockStride, 2*BlockStride, ... in linear order, counts unscaled:
  /// with BlockStride = the number of SMs, the blocks one SM receives in the
  /// first wave when blocks are handed out round-robin (what the timing
  /// engine simulates), without running the rest of the grid.
  uint64_t StridedBlocks = 0;
  uint64_t BlockStride = 1;
  /// With StridedBlocks: also the StridedBlocks blocks SecondStride,
  /// SecondStride + BlockStride, ... (below the grid's size); ~0: none.
  uint64_t SecondStride = ~uint64_t(0);
  /// With StridedBlocks: also these blocks (linear ids below the grid's
  /// size; ids of the strided sets are not run twice): the neighbours of
  /// the estimate's blocks whose sectors the cache model needs.
  const std::vector<uint64_t> *ExtraBlocks = nullptr;
  /// Host threads that run blocks in parallel (results do not depend on it).
  unsigned HostThreads = 1;
  LaunchMetrics *Metrics = nullptr; ///< filled when not null
  /// Device limits checked before the launch (InvalidConfiguration):
  /// threads per block (0: 1024) and shared bytes per block (0: no limit).
  uint32_t MaxThreadsPerBlock = 0;
  size_t MaxSharedBytesPerBlock = 0;
  /// Optional check of every global access (e.g. against the emulated
  /// runtime's allocations): returning false makes the launch fail with
  /// MemoryFault. Null accesses (below 4096) and misaligned accesses always
  /// fault.
  bool (*GlobalCheck)(void *User, uint64_t Address, uint64_t Bytes) = nullptr;
  void *GlobalCheckUser = nullptr;
  /// When not null: sorted, disjoint [begin, end) address ranges (e.g. the
  /// emulated runtime's allocations and module variables) that every global
  /// access must lie in, each access within one range; an access outside
  /// them makes the launch fail with MemoryFault ("out-of-bounds global
  /// load of 4 bytes at address A (lane L): not inside any allocation or
  /// variable", with the PTX line). Must outlive the launch.
  const std::vector<std::pair<uint64_t, uint64_t>> *GlobalRanges = nullptr;
  /// When not 0: a block that executes more warp instructions than this
  /// stops the launch with LaunchStatus::Trap (a kernel that never ends
  /// cannot hang the emulator). Checked every 65536 instructions of a warp.
  uint64_t MaxWarpInstructionsPerBlock = 0;
  /// When not null: the blocks it asks for record every warp instruction
  /// they execute (a separate warp loop; launches without a sink run the
  /// untraced one). Implies the memory metrics are computed.
  TraceSink *Trace = nullptr;
  /// When not null: the 4 KiB pages (address >> 12) that the launch's
  /// global stores and atomics wrote are added to it (it is left sorted and
  /// distinct), also when the launch fails; AllPagesWritten too when they
  /// could not be followed (host memory ran out). What a caller that
  /// restores memory after launches must copy back (the emulated runtime's
  /// sweeps).
  std::vector<uint64_t> *WrittenPages = nullptr;
};

/// LaunchOptions::WrittenPages when the launch's writes are not known.
constexpr uint64_t AllPagesWritten = ~uint64_t(0);

/// Where a traced memory instruction went (TraceEvent::Space).
enum class TraceSpace : uint8_t { None, Global, Shared, Local };

/// One executed warp instruction, as a timing model needs it
/// (LaunchOptions::Trace; profiler/emu/timing).
struct TraceEvent {
  uint32_t Pc = 0;     ///< index into the kernel's decoded code
  uint32_t Active = 0; ///< lanes that executed it (guard applied)
  /// Global/local: distinct 32-byte sectors; shared: wavefronts (1 + bank
  /// conflict replays); otherwise 0.
  uint32_t Units = 0;
  TraceSpace Space = TraceSpace::None;
};

/// Receives the per-warp instruction streams of the blocks it asks for.
class TraceSink {
public:
  virtual ~TraceSink();
  /// Called before block \p Linear runs, possibly from several host
  /// threads at once: the \p Warps buffers (one per warp of the block) its
  /// events are appended to, or null to run the block untraced.
  virtual std::vector<TraceEvent> *traceBlock(uint64_t Linear,
                                              uint32_t Warps) = 0;
  /// After traceBlock answered buffers for block \p Linear: one buffer per
  /// warp for the 32-byte sectors of its global accesses, or null (the
  /// default) for none. Each global event with Units = n appends its n
  /// distinct sectors, in ascending order: the sector's address / 32, with bit 63 set
  /// for a store and bit 62 for an atomic (the cache model of
  /// profiler/emu/timing/TimingModel.cpp).
  virtual std::vector<uint64_t> *traceSectors(uint64_t Linear);
};

class ModuleImpl;

/// One loaded PTX module.
class Module {
public:
  /// Parses \p Ptx. On failure returns null and sets \p Error to a message
  /// naming the PTX line ("ptx:12: unknown directive '.foo'").
  static std::unique_ptr<Module> load(std::string_view Ptx, std::string &Error);
  ~Module();

  const KernelInfo *findKernel(std::string_view Name) const;
  std::vector<const KernelInfo *> kernels() const;
  /// Module-scope .global / .const variable: its storage and size.
  bool findGlobal(std::string_view Name, void *&Address, size_t &Size) const;
  /// Calls \p Fn with the storage and size of every module-scope .global
  /// and .const variable (what a kernel may address besides allocations).
  void forEachVariable(
      const std::function<void(const void *Data, size_t Size)> &Fn) const;
  /// Sets per-kernel register counts (from ptxas / the cubin's .nv.info).
  void setRegisters(std::string_view Kernel, uint32_t Registers);

  /// Runs one launch of \p Kernel (the .entry name).
  LaunchResult launch(std::string_view Kernel, const LaunchOptions &Options);

  ModuleImpl &impl() { return *Impl; }

private:
  explicit Module(std::unique_ptr<ModuleImpl> I);
  std::unique_ptr<ModuleImpl> Impl;
};

} // namespace klaraptor::emu

#endif // KLARAPTOR_PROFILER_EMU_EMULATOR_H
