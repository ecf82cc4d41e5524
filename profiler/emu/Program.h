//===- Program.h - a kernel decoded for execution -------------------------===//
///
/// \file
/// The pre-decoded form the interpreter runs. A KernelProgram holds one
/// .entry and every device function it can reach, as one array of Inst with
/// resolved operands:
///
/// - Registers live in a per-warp file of uint64 slots, each slot 32 lanes
///   wide (`Regs[Slot * 32 + Lane]`). Slots [0, NumSpecialSlots) hold special
///   registers (%tid, %ctaid, ...); then each function's registers; then
///   one slot per distinct immediate, filled once with the value in all 32
///   lanes, so that every source operand is a slot.
/// - Values are kept zero-extended from the width they were written with.
/// - Predicates are per-warp 32-bit lane masks (`Preds[Index]`).
/// - Each Inst carries a handler (a function pointer specialised for its
///   operation, types and modifiers) or a control kind handled by the
///   warp loop (branch, call, return, exit, barrier).
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_PROGRAM_H
#define KLARAPTOR_PROFILER_EMU_PROGRAM_H

#include "Emulator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace klaraptor::emu {

struct ExecState;
struct Inst;
using Handler = void (*)(ExecState &S, const Inst &I, uint32_t Mask);

enum class InstKind : uint8_t {
  Op,          ///< data operation: call Fn for the guarded lanes
  Bra,         ///< branch to Aux; Aux2 = reconvergence pc
  Call,        ///< Aux = index into KernelProgram::Calls
  Ret,
  Exit,
  Bar,         ///< A[0..] barrier id / count operands; Aux = BarKind
  Trap,        ///< trap / brkpt
  Unsupported, ///< Aux = index into KernelProgram::Messages
  Nop
};

enum class BarKind : uint8_t { Sync, Arrive, RedPopc, RedAnd, RedOr };

/// Slots of the special registers; uniform ones are broadcast to 32 lanes.
enum SpecialSlot : uint32_t {
  SlotTidX, SlotTidY, SlotTidZ,
  SlotNTidX, SlotNTidY, SlotNTidZ,
  SlotCtaIdX, SlotCtaIdY, SlotCtaIdZ,
  SlotNCtaIdX, SlotNCtaIdY, SlotNCtaIdZ,
  SlotLaneId, SlotWarpId, SlotNWarpId, SlotSmId, SlotNSmId, SlotGridId,
  SlotLaneMaskEq, SlotLaneMaskLt, SlotLaneMaskLe, SlotLaneMaskGt,
  SlotLaneMaskGe,
  SlotDynSmem, SlotTotalSmem,
  SlotClusterCtaRank, SlotClusterNCtaRank, SlotIsExplicitCluster,
  SlotParamBase, ///< host address of the launch's kernel parameter buffer
  SlotFrame,     ///< local-space offset of the current call frame
  SlotZero,      ///< constant 0
  SlotSink,      ///< destination `_`
  NumSpecialSlots
};

/// Sentinel pc: "no reconvergence point inside the function".
constexpr uint32_t NoPc = 0xffffffffu;

/// Inst::Flags bits.
enum InstFlags : uint8_t {
  FlagSpaceShared = 1, ///< for metrics of generic accesses etc.
};

struct Inst {
  Handler Fn = nullptr;
  InstKind Kind = InstKind::Op;
  uint8_t Class = 0; ///< InstClass
  uint8_t Flags = 0;
  uint8_t Sub = 0;   ///< handler-specific small parameter
  int32_t Guard = -1;    ///< predicate index, -1 when unguarded
  uint32_t GuardXor = 0; ///< 0, or ~0 for `@!p`
  /// Operand slots (register slots, or predicate indices where the handler
  /// expects predicates). A[0] is the first destination by convention.
  uint32_t A[6] = {0, 0, 0, 0, 0, 0};
  int64_t Imm = 0;   ///< address offset or another constant
  uint32_t Aux = 0;  ///< branch target, call index, sizes, ...
  uint32_t Aux2 = 0; ///< reconvergence pc, ...
  uint32_t Line = 0; ///< PTX source line
  uint32_t Func = 0; ///< index into KernelProgram::Funcs
};

/// How a call copies one argument or result.
struct ArgCopy {
  enum Kind : uint8_t { FrameVar, Slot } K = FrameVar;
  uint32_t Src = 0; ///< FrameVar: frame offset in the caller; Slot: slot
  uint32_t Dst = 0; ///< frame offset in the callee (relative to its frame)
  uint32_t Size = 0;
};

enum class Builtin : uint8_t { None, Vprintf, Malloc, Free, AssertFail };

struct CallSite {
  uint32_t Callee = 0; ///< function index (when not Builtin / indirect)
  Builtin B = Builtin::None;
  bool Indirect = false;
  uint32_t TargetSlot = 0; ///< indirect: the slot holding the target
  std::vector<ArgCopy> Args;
  /// Results: Src = offset in the callee frame, Dst = offset in the caller
  /// frame.
  std::vector<ArgCopy> Rets;
};

struct FunctionInfo {
  std::string Name;
  uint32_t EntryPc = 0, EndPc = 0;
  uint32_t FrameSize = 0; ///< bytes of its call frame (16-aligned)
  uint32_t RegBegin = 0, RegEnd = 0;   ///< its register slots
  uint32_t PredBegin = 0, PredEnd = 0; ///< its predicates
  bool Recursive = false;              ///< on a call-graph cycle
  uint32_t StackNeed = 0;              ///< frame bytes of the deepest chain
  /// Formal parameters / results: offsets in its frame, sizes.
  std::vector<uint32_t> ParamOff, ParamSize, RetOff, RetSize;
  /// For `.reg` parameters/results: their register slot (else ~0u).
  std::vector<uint32_t> ParamSlot, RetSlot;
  /// Address tag for function pointers (`mov.u64 %rd, func`).
  uint64_t AddressTag = 0;
};

/// Predicate registers one instruction writes and reads, besides its guard
/// (for the timing engine's dependences): predicate indices, ~0u when
/// unused. A predicate operand written first in PTX (`setp`, `vote`,
/// `mov.pred`, the `p|q` pair) is written; any other is read.
struct PredUse {
  uint32_t Written[2] = {~0u, ~0u};
  uint32_t Read[3] = {~0u, ~0u, ~0u};
};

/// A kernel ready to run.
struct KernelProgram {
  std::string Name;
  std::vector<Inst> Code;
  std::vector<FunctionInfo> Funcs; ///< Funcs[0] is the entry
  std::vector<CallSite> Calls;
  std::vector<std::string> Messages; ///< for Unsupported instructions
  uint32_t NumSlots = 0;  ///< register-file slots per warp
  uint32_t NumPreds = 0;
  /// Predicates holding constant true / false (immediate predicate
  /// operands) and the scratch predicate `_` destinations write.
  uint32_t PredTrue = 0, PredFalse = 0, PredSink = 0;
  uint32_t ConstBase = 0; ///< first immediate slot
  std::vector<uint64_t> ConstValues;
  uint32_t StaticShared = 0;
  uint32_t DynSharedOffset = 0; ///< where `.extern .shared` arrays start
  uint32_t StackBytes = 0;      ///< local bytes per thread (frames)
  /// The frames of the deepest static call chain (StackBytes without the
  /// reserve for recursion and indirect calls).
  uint32_t FrameBytes = 0;
  bool HasRecursion = false;
  uint64_t SpecialsUsed = 0;    ///< bit per SpecialSlot read
  /// Source positions from `.loc` (PTX compiled with -lineinfo), per pc:
  /// SrcFile[pc] indexes SrcFiles (0: none), SrcLine[pc] is the line (0:
  /// none). Both are empty when the kernel's PTX has no `.loc`.
  std::vector<uint32_t> SrcFile, SrcLine;
  std::vector<std::string> SrcFiles; ///< [0] is ""; then `.file` names
  /// Predicate operands per pc (PredUse).
  std::vector<PredUse> PredUses;
  /// Set when decoding failed in a way that prevents any launch.
  std::string Error;
  LaunchStatus ErrorStatus = LaunchStatus::Ok;
};

} // namespace klaraptor::emu

#endif // KLARAPTOR_PROFILER_EMU_PROGRAM_H
