//===- Decoder.h - from the PTX syntax tree to a KernelProgram ------------===//
///
/// \file
/// buildKernel() lowers one .entry (and the device functions it reaches) to
/// a KernelProgram. Instruction semantics are split by group, each group
/// next to its handlers: OpsInt.cpp (integer, logic, setp/selp, mov),
/// OpsFloat.cpp (floating point, cvt), OpsMem.cpp (ld/st/atom/cvta),
/// OpsWarp.cpp (shfl, vote, barriers' helpers, clocks). A group's decode
/// function reads the instruction through DecodeCtx, which resolves
/// operands to slots, and fills the Inst.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_DECODER_H
#define KLARAPTOR_PROFILER_EMU_DECODER_H

#include "Program.h"
#include "PtxAst.h"

#include <string>
#include <string_view>
#include <vector>

namespace klaraptor::emu {

class ModuleImpl;

/// The qualifiers of an opcode after its base name (`ld.global.v4.f32` ->
/// {global, v4, f32}); decode functions take what they understand, and
/// anything left over makes the instruction unsupported.
class Mods {
public:
  std::vector<std::string> Parts;
  std::vector<bool> Used;

  explicit Mods(const std::vector<std::string> &P);
  /// Takes \p S when present.
  bool take(std::string_view S);
  /// Takes the first of \p Options present; returns its index or -1.
  int takeOneOf(std::initializer_list<std::string_view> Options);
  /// Takes the next unused type qualifier (in written order).
  ptx::Type takeType();
  /// Takes a rounding modifier: 0 rn, 1 rz, 2 rm, 3 rp; -1 when none.
  int takeRound();
  /// Takes an integer rounding modifier (rni rzi rmi rpi): 0..3 or -1.
  int takeIntRound();
  /// Takes state-space qualifiers; returns the space (None when absent).
  ptx::Space takeSpace();
  /// Takes cache, eviction, scope, memory-order and similar qualifiers that
  /// do not change results in lockstep execution.
  void takeIgnorable();
  /// Qualifiers nobody took, dot-joined ("" when none).
  std::string leftover() const;
};

/// Resolved address operand `[base + offset]`.
struct AddrOperand {
  uint32_t BaseSlot = SlotZero;
  int64_t Offset = 0;
  /// Where a symbol base lives (None for a register base).
  ptx::Space SymSpace = ptx::Space::None;
  bool FrameRelative = false; ///< function .local/.param symbol
  bool KernelParam = false;   ///< kernel parameter symbol
};

class KernelBuilder;

/// The view of one instruction a decode function works with.
class DecodeCtx {
public:
  DecodeCtx(KernelBuilder &B, const ptx::Instruction &PI, bool InEntry);

  const ptx::Instruction &PI;
  Mods M;
  std::string_view Base; ///< the base opcode
  bool InEntry;          ///< decoding the .entry (not a .func)

  unsigned numOps() const { return unsigned(PI.Ops.size()); }
  const ptx::Operand &op(unsigned I) const { return PI.Ops[I]; }
  /// Requires exactly \p N operands (reports otherwise).
  bool wantOps(unsigned N);
  bool wantOps(unsigned Min, unsigned Max);

  /// Slot of a source operand read as type \p T: a register, an immediate
  /// (given a constant slot) or a special register.
  uint32_t src(const ptx::Operand &O, ptx::Type T);
  uint32_t src(unsigned I, ptx::Type T) { return src(op(I), T); }
  /// Slot of a destination register (`_` gives the sink slot).
  uint32_t dst(const ptx::Operand &O);
  uint32_t dst(unsigned I) { return dst(op(I)); }
  /// Predicate index of a predicate register operand.
  uint32_t pred(const ptx::Operand &O);
  uint32_t pred(unsigned I) { return pred(op(I)); }
  /// Predicate index of `pred | immediate` sources (constants get fixed
  /// all-true / all-false predicates).
  uint32_t predSrc(const ptx::Operand &O);
  bool isPred(const ptx::Operand &O);
  /// Declared bytes of a register operand (0 when not a register).
  unsigned regBytes(const ptx::Operand &O);
  /// Resolves `[reg+off]`, `[sym+off]` or `[off]`.
  bool address(const ptx::Operand &O, AddrOperand &A);
  /// A constant slot holding \p V in all lanes.
  uint32_t constSlot(uint64_t V);
  /// The value of an immediate operand (IsImm false when it is none).
  bool immValue(const ptx::Operand &O, ptx::Type T, uint64_t &V);
  /// For `mov d, symbol`: sets how to compute the symbol's address.
  /// Returns false when \p O is no variable or function symbol.
  bool symbolAddress(const ptx::Operand &O, uint32_t &BaseSlot, int64_t &Off,
                     ptx::Space &S);
  /// The predicate that holds the carry flag (CC.CF) of each lane.
  uint32_t carryPred();
  /// Index of a function by name (for calls); -1 when unknown.
  int functionIndex(const std::string &Name);
  KernelBuilder &builder() { return B; }

  /// Marks the instruction unsupported (an error when it executes).
  void unsupported(const std::string &Why = "");
  /// Marks it malformed (also reported when it executes).
  void invalid(const std::string &Why);
  bool failed() const { return Failed; }
  /// Reports leftover qualifiers as unsupported; returns true when none.
  bool finish();

  std::string Message;
  bool Failed = false;
  bool IsUnsupported = false;

private:
  KernelBuilder &B;
};

/// Group decoders; each returns false when \p C.Base is not its opcode.
bool decodeIntInst(DecodeCtx &C, Inst &I);
bool decodeFloatInst(DecodeCtx &C, Inst &I);
bool decodeConvertInst(DecodeCtx &C, Inst &I);
bool decodeMemInst(DecodeCtx &C, Inst &I);
bool decodeWarpInst(DecodeCtx &C, Inst &I);

/// Lowers kernel \p Entry of \p M. Never fails outright: problems are kept
/// in KernelProgram::Error or as Unsupported instructions.
std::unique_ptr<KernelProgram> buildKernel(ModuleImpl &M,
                                           const ptx::Function &Entry);

} // namespace klaraptor::emu

#endif // KLARAPTOR_PROFILER_EMU_DECODER_H
