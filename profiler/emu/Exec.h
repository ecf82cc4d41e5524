//===- Exec.h - execution state shared by the interpreter and handlers ----===//
///
/// \file
/// ExecState is what a handler sees while one warp executes: its register
/// and predicate files, the block's shared memory, the local memory of its
/// threads and the counters of the host thread running it. Handlers loop
/// over the guarded lanes with forLanes(); errors (memory faults, traps)
/// are thrown as EmuFault and caught by the block runner, so the fast path
/// pays nothing for them.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_EXEC_H
#define KLARAPTOR_PROFILER_EMU_EXEC_H

#include "Program.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace klaraptor::emu {

/// Per-host-thread counters (summed into LaunchMetrics).
struct Counters {
  uint64_t WarpInst[unsigned(InstClass::Count)] = {};
  uint64_t ThreadInst = 0;
  uint64_t GLdReq = 0, GLdSec = 0, GLdLines = 0, GStReq = 0, GStSec = 0;
  uint64_t GAtReq = 0, GAtSec = 0;
  uint64_t SLdReq = 0, SStReq = 0, SConflicts = 0;
  uint64_t Branches = 0, Divergent = 0;
  /// Global atomic operations (active lanes) per address: where they queue
  /// at one L2 slice (LaunchMetrics::GlobalAtomicMaxAddressOps). At most
  /// MaxAtomicAddresses of them (a Misra-Gries summary: exact while a
  /// launch's atomics touch no more addresses; beyond, every count is low
  /// by at most the operations / (MaxAtomicAddresses + 1), and an address
  /// with more than that many is kept), so that a scatter of millions of
  /// atomics costs a bounded table.
  std::unordered_map<uint64_t, uint64_t> AtomicOpsPerAddress;
  static constexpr size_t MaxAtomicAddresses = 4096;
  void noteAtomic(uint64_t Address);
  void add(const Counters &O);
};

struct EmuFault {
  LaunchStatus Status;
  std::string Message; ///< without the "in kernel ... at PTX line" suffix
  uint32_t Line = 0;
};

struct BlockCtx;
struct WarpCtx;
struct LaunchCtx;

/// The pages one worker's stores wrote (LaunchOptions::WrittenPages): a
/// list, and a direct-mapped table of the pages noted last, so that the
/// warps of a block storing to their own pages over and over add each page
/// about once.
struct WriteLog {
  std::vector<uint64_t> Pages;
  static constexpr unsigned Slots = 256;
  uint64_t Recent[Slots];
  WriteLog() { std::fill(Recent, Recent + Slots, ~uint64_t(0)); }
};

struct ExecState {
  uint64_t *Regs = nullptr;
  uint32_t *Preds = nullptr;
  uint32_t ActiveMask = 0; ///< lanes active at the instruction (pre-guard)
  uint8_t *Shared = nullptr;
  uint64_t SharedSize = 0;
  uint8_t *Local = nullptr;    ///< local memory of the block's thread 0
  uint64_t LocalStride = 0;    ///< bytes per thread
  uint64_t LocalSize = 0;      ///< bytes of the block's local arena
  uint32_t WarpThreadBase = 0; ///< linear thread index of lane 0
  Counters *C = nullptr;
  bool Collect = false; ///< compute memory metrics
  /// When not null (a traced warp whose sink keeps sectors): global
  /// accesses append their distinct sectors (TraceSink::traceSectors).
  std::vector<uint64_t> *SectorOut = nullptr;
  /// When not null (LaunchOptions::WrittenPages): where global stores and
  /// atomics note the 4 KiB pages they write (noteWritten).
  WriteLog *Written = nullptr;
  /// Per memory instruction (a small table indexed by its PTX line), the
  /// LaunchCtx::GlobalRanges range its last access lay in ([OkBegin,
  /// OkEnd); empty at first): an instruction mostly touches one array.
  static constexpr unsigned OkSlots = 16;
  uint64_t OkBegin[OkSlots] = {}, OkEnd[OkSlots] = {};
  const KernelProgram *P = nullptr;
  WarpCtx *W = nullptr;
  BlockCtx *B = nullptr;
  LaunchCtx *L = nullptr;

  uint64_t *reg(uint32_t Slot) const { return Regs + size_t(Slot) * 32; }
  uint8_t *localBase(unsigned Lane) const {
    return Local + (uint64_t(WarpThreadBase) + Lane) * LocalStride;
  }
};

/// Population counts without a library call on hosts built without
/// -mpopcnt.
inline unsigned popc32(uint32_t V) {
  V = V - ((V >> 1) & 0x55555555u);
  V = (V & 0x33333333u) + ((V >> 2) & 0x33333333u);
  return (((V + (V >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}
inline unsigned popc64(uint64_t V) {
  return popc32(uint32_t(V)) + popc32(uint32_t(V >> 32));
}

/// Runs F(Lane) for every lane in Mask; the dense loop for full warps lets
/// the compiler vectorise simple handlers.
template <class F> inline void forLanes(uint32_t Mask, F &&Fn) {
  if (Mask == 0xffffffffu) {
    for (unsigned L = 0; L < 32; ++L)
      Fn(L);
  } else {
    while (Mask) {
      unsigned L = unsigned(__builtin_ctz(Mask));
      Mask &= Mask - 1;
      Fn(L);
    }
  }
}

[[noreturn]] void throwFault(const Inst &I, LaunchStatus S,
                             const std::string &Msg);

template <class T> inline T bitsTo(uint64_t V) {
  T R;
  if constexpr (sizeof(T) == 8) {
    std::memcpy(&R, &V, 8);
  } else if constexpr (sizeof(T) == 4) {
    uint32_t U = uint32_t(V);
    std::memcpy(&R, &U, 4);
  } else if constexpr (sizeof(T) == 2) {
    uint16_t U = uint16_t(V);
    std::memcpy(&R, &U, 2);
  } else {
    uint8_t U = uint8_t(V);
    std::memcpy(&R, &U, 1);
  }
  return R;
}

/// Stores a value zero-extended from its own width.
template <class T> inline uint64_t toBits(T X) {
  if constexpr (sizeof(T) == 8) {
    uint64_t U;
    std::memcpy(&U, &X, 8);
    return U;
  } else if constexpr (sizeof(T) == 4) {
    uint32_t U;
    std::memcpy(&U, &X, 4);
    return U;
  } else if constexpr (sizeof(T) == 2) {
    uint16_t U;
    std::memcpy(&U, &X, 2);
    return U;
  } else {
    uint8_t U;
    std::memcpy(&U, &X, 1);
    return U;
  }
}

/// Whether this CPU has AVX2: warp-wide counts and checks then take four
/// lanes at a time (Metrics.cpp, OpsMem.cpp); the same results without.
/// Set once when the library loads; tests turn it off between launches to
/// check the scalar paths too.
extern bool HostHasAvx2;

/// Memory metrics helpers (Metrics.cpp).
/// Distinct 32-byte sectors touched by the lanes in Mask, each accessing
/// Bytes bytes at Addr[lane].
unsigned countSectors(const uint64_t *Addr, uint32_t Mask, unsigned Bytes);
/// Distinct 128-byte lines touched by the lanes in Mask (the L1's data path
/// moves about one a cycle: docs/timing.md "One line at a time through the
/// L1").
unsigned countLines(const uint64_t *Addr, uint32_t Mask, unsigned Bytes);

/// Notes in S.Written the 4 KiB pages that lanes \p Mask's accesses of
/// \p Bytes at \p Addr touch, each unless its slot of WriteLog::Recent
/// holds it already.
void noteWritten(ExecState &S, uint32_t Mask, const uint64_t *Addr,
                 unsigned Bytes);
/// Appends to \p Out the distinct 32-byte sectors (address / 32, ascending)
/// the lanes of \p Mask touch with accesses of \p Bytes bytes, each ORed
/// with \p Tag; returns how many (countSectors's figure).
unsigned appendSectors(const uint64_t *Addr, uint32_t Mask, unsigned Bytes,
                       uint64_t Tag, std::vector<uint64_t> &Out);
/// Extra shared-memory wavefronts (bank conflicts) of one warp access.
unsigned countBankConflicts(const uint64_t *Addr, uint32_t Mask,
                            unsigned Bytes);

/// The device heap (malloc/free called by kernels): blocks live across
/// launches, so the check of global accesses against a launch's
/// GlobalRanges also accepts them. Thread-safe.
void deviceHeapAdd(uint64_t Address, uint64_t Size);
/// Removes the block at \p Address; false when there is none (the free of
/// a pointer malloc did not return, which then does nothing).
bool deviceHeapRemove(uint64_t Address);
/// The heap block holding [Address, Address + Bytes) into [Begin, End).
bool deviceHeapFind(uint64_t Address, uint64_t Bytes, uint64_t &Begin,
                    uint64_t &End);

} // namespace klaraptor::emu

#endif // KLARAPTOR_PROFILER_EMU_EXEC_H
