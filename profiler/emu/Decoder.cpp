//===- Decoder.cpp - from the PTX syntax tree to a KernelProgram ----------===//
///
/// \file
/// KernelBuilder lowers one .entry and the device functions it reaches:
///
/// 1. Collects the functions reachable through calls and function-address
///    uses.
/// 2. Phase A walks every body and allocates register slots, predicates,
///    call-frame offsets (.local variables, call-site .param variables,
///    formal parameters and results) and shared-memory offsets.
/// 3. Phase B walks them again with the scoped symbol tables and decodes
///    every instruction into one Inst (control flow here, data operations
///    through the group decoders); immediates get constant slots after the
///    registers.
/// 4. Computes reconvergence points (Cfg.cpp), recursion and stack sizes.
//===----------------------------------------------------------------------===//
#include "Decoder.h"
#include "FloatUtil.h"
#include "ModuleImpl.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace klaraptor::emu {

using ptx::Space;
using ptx::Type;

void computeReconvergence(KernelProgram &P, const FunctionInfo &F);

//===----------------------------------------------------------------------===//
// Mods
//===----------------------------------------------------------------------===//

Mods::Mods(const std::vector<std::string> &P)
    : Parts(P.begin() + (P.empty() ? 0 : 1), P.end()), Used(Parts.size(), false) {}

bool Mods::take(std::string_view S) {
  for (size_t I = 0; I < Parts.size(); ++I)
    if (!Used[I] && Parts[I] == S) {
      Used[I] = true;
      return true;
    }
  return false;
}

int Mods::takeOneOf(std::initializer_list<std::string_view> Options) {
  for (size_t I = 0; I < Parts.size(); ++I) {
    if (Used[I])
      continue;
    int K = 0;
    for (std::string_view O : Options) {
      if (Parts[I] == O) {
        Used[I] = true;
        return K;
      }
      ++K;
    }
  }
  return -1;
}

ptx::Type Mods::takeType() {
  for (size_t I = 0; I < Parts.size(); ++I)
    if (!Used[I]) {
      Type T = ptx::parseType(Parts[I]);
      if (T != Type::None) {
        Used[I] = true;
        return T;
      }
    }
  return Type::None;
}

int Mods::takeRound() { return takeOneOf({"rn", "rz", "rm", "rp"}); }
int Mods::takeIntRound() { return takeOneOf({"rni", "rzi", "rmi", "rpi"}); }

ptx::Space Mods::takeSpace() {
  static const struct {
    const char *N;
    Space S;
  } Tab[] = {{"global", Space::Global},        {"shared", Space::Shared},
             {"shared::cta", Space::Shared},   {"shared::cluster", Space::Shared},
             {"local", Space::Local},          {"const", Space::Const},
             {"param", Space::Param},          {"param::entry", Space::Param},
             {"param::func", Space::Param}};
  for (size_t I = 0; I < Parts.size(); ++I) {
    if (Used[I])
      continue;
    for (const auto &E : Tab)
      if (Parts[I] == E.N) {
        Used[I] = true;
        return E.S;
      }
  }
  return Space::None;
}

void Mods::takeIgnorable() {
  static const char *Words[] = {
      "ca",  "cg",      "cs",      "lu",     "cv",      "wb",   "wt",
      "volatile", "relaxed", "acquire", "release", "acq_rel", "weak", "mmio",
      "sc",  "cta",     "gpu",     "sys",    "cluster", "nc",   "unified"};
  for (size_t I = 0; I < Parts.size(); ++I) {
    if (Used[I])
      continue;
    const std::string &P = Parts[I];
    if (P.compare(0, 4, "L1::") == 0 || P.compare(0, 4, "L2::") == 0) {
      Used[I] = true;
      continue;
    }
    for (const char *W : Words)
      if (P == W) {
        Used[I] = true;
        break;
      }
  }
}

std::string Mods::leftover() const {
  std::string R;
  for (size_t I = 0; I < Parts.size(); ++I)
    if (!Used[I])
      R += "." + Parts[I];
  return R;
}

//===----------------------------------------------------------------------===//
// KernelBuilder
//===----------------------------------------------------------------------===//

class KernelBuilder {
public:
  KernelBuilder(ModuleImpl &M, const ptx::Function &Entry, KernelProgram &P)
      : M(M), Entry(Entry), P(P) {}

  void build();

  struct SymInfo {
    enum Kind : uint8_t { Reg, Pred, Frame, Shared, KParam } K = Reg;
    uint32_t Index = 0;
    uint32_t Bytes = 0;
  };

  ModuleImpl &M;
  const ptx::Function &Entry;
  KernelProgram &P;

  std::vector<const ptx::Function *> Funcs;
  std::unordered_map<std::string, uint32_t> FuncLocal;
  std::vector<std::unordered_map<std::string, uint32_t>> Labels;
  std::vector<std::unordered_map<std::string, SymInfo>> Scopes;
  std::unordered_map<const ptx::VarDecl *, uint32_t> DeclIndex;
  std::unordered_map<std::string, uint32_t> ModuleSharedOff;
  std::unordered_map<uint64_t, uint32_t> ConstMap;
  /// Register parameters (`.reg` in a parameter list): slot per function.
  std::vector<std::vector<uint32_t>> ParamSlots, RetSlots;
  uint32_t NextSlot = NumSpecialSlots, NextPred = 0;
  uint32_t PredTrue = 0, PredFalse = 0, PredSink = 0, CarryPred = ~0u;
  uint32_t SharedTop = 0;
  uint32_t DynAlign = 16;
  bool DecodingEntry = false;
  uint32_t CurFunc = 0;

  const SymInfo *lookup(const std::string &Name) const {
    for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
      auto F = It->find(Name);
      if (F != It->end())
        return &F->second;
    }
    return nullptr;
  }
  uint32_t moduleSharedOffset(const std::string &Name, const ptx::VarDecl &D);
  uint32_t constSlot(uint64_t V) {
    auto It = ConstMap.find(V);
    if (It != ConstMap.end())
      return It->second;
    uint32_t S = P.ConstBase + uint32_t(P.ConstValues.size());
    P.ConstValues.push_back(V);
    ConstMap.emplace(V, S);
    return S;
  }
  uint32_t carryPred() {
    if (CarryPred == ~0u)
      CarryPred = P.NumPreds++;
    return CarryPred;
  }

private:
  void collectFunctions();
  void allocate(uint32_t F);
  void decodeFunction(uint32_t F);
  void decodeInst(const ptx::Instruction &PI, Inst &I);
  void decodeControl(DecodeCtx &C, Inst &I, bool &Handled);
  void finishCalls();
};

/// Special registers by name.
static bool specialSlot(const std::string &N, uint32_t &Slot) {
  static const std::unordered_map<std::string, uint32_t> Map = {
      {"%tid.x", SlotTidX},         {"%tid.y", SlotTidY},
      {"%tid.z", SlotTidZ},         {"%ntid.x", SlotNTidX},
      {"%ntid.y", SlotNTidY},       {"%ntid.z", SlotNTidZ},
      {"%ctaid.x", SlotCtaIdX},     {"%ctaid.y", SlotCtaIdY},
      {"%ctaid.z", SlotCtaIdZ},     {"%nctaid.x", SlotNCtaIdX},
      {"%nctaid.y", SlotNCtaIdY},   {"%nctaid.z", SlotNCtaIdZ},
      {"%laneid", SlotLaneId},      {"%warpid", SlotWarpId},
      {"%nwarpid", SlotNWarpId},    {"%smid", SlotSmId},
      {"%nsmid", SlotNSmId},        {"%gridid", SlotGridId},
      {"%lanemask_eq", SlotLaneMaskEq}, {"%lanemask_lt", SlotLaneMaskLt},
      {"%lanemask_le", SlotLaneMaskLe}, {"%lanemask_gt", SlotLaneMaskGt},
      {"%lanemask_ge", SlotLaneMaskGe},
      {"%dynamic_smem_size", SlotDynSmem}, {"%total_smem_size", SlotTotalSmem},
      {"%cluster_ctarank", SlotClusterCtaRank},
      {"%cluster_nctarank", SlotClusterNCtaRank},
      {"%is_explicit_cluster", SlotIsExplicitCluster},
      // A launch without clusters behaves as clusters of one block.
      {"%clusterid.x", SlotCtaIdX},   {"%clusterid.y", SlotCtaIdY},
      {"%clusterid.z", SlotCtaIdZ},   {"%nclusterid.x", SlotNCtaIdX},
      {"%nclusterid.y", SlotNCtaIdY}, {"%nclusterid.z", SlotNCtaIdZ},
      {"%cluster_ctaid.x", SlotZero}, {"%cluster_ctaid.y", SlotZero},
      {"%cluster_ctaid.z", SlotZero}, {"%cluster_nctaid.x", SlotClusterNCtaRank},
      {"%cluster_nctaid.y", SlotClusterNCtaRank},
      {"%cluster_nctaid.z", SlotClusterNCtaRank}};
  auto It = Map.find(N);
  if (It != Map.end()) {
    Slot = It->second;
    return true;
  }
  if (N.compare(0, 7, "%envreg") == 0) {
    Slot = SlotZero;
    return true;
  }
  return false;
}

uint32_t KernelBuilder::moduleSharedOffset(const std::string &Name,
                                           const ptx::VarDecl &D) {
  if (D.Extern || D.byteSize() == 0) {
    DynAlign = std::max<uint32_t>(DynAlign, D.alignment());
    return ~0u; // resolved to the dynamic offset once the static size is known
  }
  auto It = ModuleSharedOff.find(Name);
  if (It != ModuleSharedOff.end())
    return It->second;
  uint32_t A = D.alignment();
  SharedTop = (SharedTop + A - 1) / A * A;
  uint32_t Off = SharedTop;
  SharedTop += uint32_t(D.byteSize());
  ModuleSharedOff.emplace(Name, Off);
  return Off;
}

void KernelBuilder::collectFunctions() {
  auto add = [&](const ptx::Function *F) {
    if (FuncLocal.count(F->Name))
      return;
    FuncLocal.emplace(F->Name, uint32_t(Funcs.size()));
    Funcs.push_back(F);
  };
  add(&Entry);
  // Functions referenced by global initializers (function-pointer tables).
  for (const ptx::VarDecl &G : M.Ast->Globals)
    for (const ptx::InitElem &E : G.Init)
      if (E.K == ptx::InitElem::Addr) {
        auto It = M.FuncIndex.find(E.Sym);
        if (It != M.FuncIndex.end() && !M.Ast->Functions[It->second].IsEntry)
          add(&M.Ast->Functions[It->second]);
      }
  for (size_t K = 0; K < Funcs.size(); ++K) {
    const ptx::Function *F = Funcs[K];
    for (const ptx::Instruction &I : F->Insts) {
      std::function<void(const ptx::Operand &)> visit = [&](const ptx::Operand &O) {
        if (O.K == ptx::Operand::Name || O.K == ptx::Operand::Addr) {
          auto It = M.FuncIndex.find(O.Text);
          if (It != M.FuncIndex.end() && !M.Ast->Functions[It->second].IsEntry)
            add(&M.Ast->Functions[It->second]);
        }
        for (const ptx::Operand &E : O.Elems)
          visit(E);
      };
      for (const ptx::Operand &O : I.Ops)
        visit(O);
    }
  }
}

static uint32_t alignUp(uint32_t V, uint32_t A) { return (V + A - 1) / A * A; }

void KernelBuilder::allocate(uint32_t FIdx) {
  const ptx::Function &F = *Funcs[FIdx];
  FunctionInfo &FI = P.Funcs[FIdx];
  FI.RegBegin = NextSlot;
  FI.PredBegin = NextPred;
  uint32_t Top = 0;
  auto frameVar = [&](const ptx::VarDecl &D) {
    uint32_t A = std::max<uint32_t>(D.alignment(), 1);
    Top = alignUp(Top, A);
    uint32_t Off = Top;
    Top += uint32_t(std::max<uint64_t>(D.byteSize(), 1));
    return Off;
  };
  ParamSlots[FIdx].assign(F.Params.size(), ~0u);
  RetSlots[FIdx].assign(F.Rets.size(), ~0u);
  if (!F.IsEntry) {
    for (size_t K = 0; K < F.Rets.size(); ++K) {
      const ptx::VarDecl &D = F.Rets[K];
      if (D.S == Space::Reg) {
        RetSlots[FIdx][K] = NextSlot++;
        FI.RetOff.push_back(0);
      } else {
        FI.RetOff.push_back(frameVar(D));
      }
      FI.RetSize.push_back(uint32_t(D.byteSize()));
    }
    for (size_t K = 0; K < F.Params.size(); ++K) {
      const ptx::VarDecl &D = F.Params[K];
      if (D.S == Space::Reg) {
        ParamSlots[FIdx][K] = NextSlot++;
        FI.ParamOff.push_back(0);
      } else {
        FI.ParamOff.push_back(frameVar(D));
      }
      FI.ParamSize.push_back(uint32_t(D.byteSize()));
    }
  }
  for (const ptx::Statement &St : F.Body) {
    if (St.K != ptx::Statement::Decl)
      continue;
    const ptx::VarDecl &D = F.Decls[St.Index];
    switch (D.S) {
    case Space::Reg: {
      uint32_t N = D.RangeCount ? D.RangeCount : 1;
      if (D.T == Type::Pred) {
        DeclIndex[&D] = NextPred;
        NextPred += N;
      } else {
        DeclIndex[&D] = NextSlot;
        NextSlot += N;
      }
      break;
    }
    case Space::Local:
    case Space::Param:
      DeclIndex[&D] = frameVar(D);
      break;
    case Space::Shared:
      if (D.Extern || D.byteSize() == 0) {
        DynAlign = std::max<uint32_t>(DynAlign, D.alignment());
        DeclIndex[&D] = ~0u;
      } else {
        uint32_t A = D.alignment();
        SharedTop = alignUp(SharedTop, A);
        DeclIndex[&D] = SharedTop;
        SharedTop += uint32_t(D.byteSize());
      }
      break;
    default:
      break;
    }
  }
  FI.RegEnd = NextSlot;
  FI.PredEnd = NextPred;
  FI.ParamSlot = ParamSlots[FIdx];
  FI.RetSlot = RetSlots[FIdx];
  FI.FrameSize = alignUp(Top, 16);
}

//===----------------------------------------------------------------------===//
// DecodeCtx
//===----------------------------------------------------------------------===//

DecodeCtx::DecodeCtx(KernelBuilder &B, const ptx::Instruction &PI, bool InEntry)
    : PI(PI), M(PI.Parts), Base(PI.Parts.empty() ? std::string_view()
                                                   : std::string_view(PI.Parts[0])),
      InEntry(InEntry), B(B) {}

void DecodeCtx::unsupported(const std::string &Why) {
  if (Failed)
    return;
  Failed = true;
  IsUnsupported = true;
  Message = "unsupported instruction '" + PI.Opcode + "'";
  if (!Why.empty())
    Message += " (" + Why + ")";
}

void DecodeCtx::invalid(const std::string &Why) {
  if (Failed)
    return;
  Failed = true;
  Message = "invalid instruction '" + PI.Opcode + "': " + Why;
}

bool DecodeCtx::finish() {
  std::string L = M.leftover();
  if (L.empty())
    return true;
  unsupported("qualifier '" + L + "'");
  return false;
}

bool DecodeCtx::wantOps(unsigned N) { return wantOps(N, N); }
bool DecodeCtx::wantOps(unsigned Min, unsigned Max) {
  if (numOps() < Min || numOps() > Max) {
    invalid("expected " + std::to_string(Min) +
            (Max != Min ? "-" + std::to_string(Max) : "") + " operands, found " +
            std::to_string(numOps()));
    return false;
  }
  return true;
}

uint32_t DecodeCtx::constSlot(uint64_t V) { return B.constSlot(V); }
uint32_t DecodeCtx::carryPred() { return B.carryPred(); }

int DecodeCtx::functionIndex(const std::string &Name) {
  auto It = B.FuncLocal.find(Name);
  return It == B.FuncLocal.end() ? -1 : int(It->second);
}

static uint64_t maskTo(uint64_t V, unsigned Bytes) {
  return Bytes >= 8 ? V : (V & ((uint64_t(1) << (8 * Bytes)) - 1));
}

bool DecodeCtx::immValue(const ptx::Operand &O, Type T, uint64_t &V) {
  unsigned Size = ptx::typeSize(T);
  if (O.K == ptx::Operand::Imm) {
    int64_t IV = int64_t(O.IntVal);
    switch (T) {
    case Type::F32: V = f32Bits(float(IV)); return true;
    case Type::F64: V = f64Bits(double(IV)); return true;
    case Type::F16: V = floatToHalf(double(IV)); return true;
    case Type::BF16: V = floatToBf16(double(IV)); return true;
    default: V = maskTo(O.IntVal, Size ? Size : 8); return true;
    }
  }
  if (O.K == ptx::Operand::FImm) {
    double D = O.FloatBits == 32 ? double(bitsF32(uint32_t(O.IntVal)))
               : O.FloatBits == 64 ? bitsF64(O.IntVal)
                                   : O.FVal;
    switch (T) {
    case Type::F32:
      V = O.FloatBits == 32 ? uint32_t(O.IntVal) : f32Bits(float(D));
      return true;
    case Type::F64:
      V = O.FloatBits == 64 ? O.IntVal : f64Bits(D);
      return true;
    case Type::F16: V = floatToHalf(D); return true;
    case Type::BF16: V = floatToBf16(D); return true;
    default:
      if (O.FloatBits == 0)
        return false;
      V = maskTo(O.IntVal, Size ? Size : 8);
      return true;
    }
  }
  return false;
}

bool DecodeCtx::isPred(const ptx::Operand &O) {
  if (O.K != ptx::Operand::Name)
    return false;
  const KernelBuilder::SymInfo *S = B.lookup(O.Text);
  return S && S->K == KernelBuilder::SymInfo::Pred;
}

unsigned DecodeCtx::regBytes(const ptx::Operand &O) {
  if (O.K != ptx::Operand::Name)
    return 0;
  const KernelBuilder::SymInfo *S = B.lookup(O.Text);
  return S && S->K == KernelBuilder::SymInfo::Reg ? S->Bytes : 0;
}

uint32_t DecodeCtx::src(const ptx::Operand &O, Type T) {
  if (Failed)
    return SlotZero;
  switch (O.K) {
  case ptx::Operand::Name: {
    if (O.Neg) {
      invalid("'!' on a non-predicate operand");
      return SlotZero;
    }
    const KernelBuilder::SymInfo *S = B.lookup(O.Text);
    if (S && S->K == KernelBuilder::SymInfo::Reg)
      return S->Index;
    if (S && S->K == KernelBuilder::SymInfo::Pred) {
      invalid("predicate '" + O.Text + "' used as a value");
      return SlotZero;
    }
    uint32_t Slot;
    if (!S && specialSlot(O.Text, Slot)) {
      B.P.SpecialsUsed |= uint64_t(1) << Slot;
      return Slot;
    }
    uint32_t BaseSlot;
    int64_t Off;
    Space Sp;
    if (symbolAddress(O, BaseSlot, Off, Sp)) {
      if (BaseSlot != SlotZero) {
        invalid("the address of '" + O.Text + "' is not a constant here");
        return SlotZero;
      }
      unsigned Size = ptx::typeSize(T);
      return constSlot(maskTo(uint64_t(Off), Size ? Size : 8));
    }
    if (O.Text.size() > 1 && O.Text[0] == '%' && !S) {
      if (O.Text == "%clock" || O.Text == "%clock64" || O.Text == "%globaltimer")
        unsupported("special register '" + O.Text + "' outside 'mov'");
      else
        invalid("unknown register '" + O.Text + "'");
      return SlotZero;
    }
    invalid("unknown symbol '" + O.Text + "'");
    return SlotZero;
  }
  case ptx::Operand::Imm:
  case ptx::Operand::FImm: {
    uint64_t V;
    if (!immValue(O, T, V)) {
      invalid("constant does not fit the operand type");
      return SlotZero;
    }
    return constSlot(V);
  }
  default:
    invalid("unexpected operand form");
    return SlotZero;
  }
}

uint32_t DecodeCtx::dst(const ptx::Operand &O) {
  if (Failed)
    return SlotSink;
  if (O.K == ptx::Operand::Sink)
    return SlotSink;
  if (O.K != ptx::Operand::Name) {
    invalid("expected a destination register");
    return SlotSink;
  }
  const KernelBuilder::SymInfo *S = B.lookup(O.Text);
  if (!S || S->K != KernelBuilder::SymInfo::Reg) {
    invalid("'" + O.Text + "' is not a register");
    return SlotSink;
  }
  return S->Index;
}

uint32_t DecodeCtx::pred(const ptx::Operand &O) {
  if (Failed)
    return B.PredSink;
  if (O.K == ptx::Operand::Sink)
    return B.PredSink;
  const KernelBuilder::SymInfo *S =
      O.K == ptx::Operand::Name ? B.lookup(O.Text) : nullptr;
  if (!S || S->K != KernelBuilder::SymInfo::Pred) {
    invalid("'" + O.Text + "' is not a predicate");
    return B.PredSink;
  }
  return S->Index;
}

uint32_t DecodeCtx::predSrc(const ptx::Operand &O) {
  if (O.K == ptx::Operand::Imm)
    return O.IntVal ? B.PredTrue : B.PredFalse;
  return pred(O);
}

bool DecodeCtx::symbolAddress(const ptx::Operand &O, uint32_t &BaseSlot,
                              int64_t &Off, Space &Sp) {
  if (O.K != ptx::Operand::Name)
    return false;
  const KernelBuilder::SymInfo *S = B.lookup(O.Text);
  if (S) {
    switch (S->K) {
    case KernelBuilder::SymInfo::Frame:
      BaseSlot = SlotFrame;
      B.P.SpecialsUsed |= uint64_t(1) << SlotFrame;
      Off = int64_t(S->Index) + O.Offset;
      Sp = Space::Local;
      return true;
    case KernelBuilder::SymInfo::KParam:
      BaseSlot = SlotParamBase;
      B.P.SpecialsUsed |= uint64_t(1) << SlotParamBase;
      Off = int64_t(S->Index) + O.Offset;
      Sp = Space::Param;
      return true;
    case KernelBuilder::SymInfo::Shared:
      BaseSlot = SlotZero;
      Off = int64_t(S->Index == ~0u ? B.P.DynSharedOffset : S->Index) + O.Offset;
      Sp = Space::Shared;
      return true;
    default:
      return false;
    }
  }
  auto SV = B.M.SharedVars.find(O.Text);
  if (SV != B.M.SharedVars.end()) {
    uint32_t Idx = B.moduleSharedOffset(O.Text, *SV->second);
    BaseSlot = SlotZero;
    Off = int64_t(Idx == ~0u ? B.P.DynSharedOffset : Idx) + O.Offset;
    Sp = Space::Shared;
    return true;
  }
  uint64_t A = B.M.varAddress(O.Text);
  if (A) {
    BaseSlot = SlotZero;
    Off = int64_t(A) + O.Offset;
    Sp = Space::Global;
    return true;
  }
  auto FI = B.M.FuncIndex.find(O.Text);
  if (FI != B.M.FuncIndex.end()) {
    BaseSlot = SlotZero;
    Off = int64_t(FunctionAddressTag | FI->second);
    Sp = Space::None;
    return true;
  }
  return false;
}

bool DecodeCtx::address(const ptx::Operand &O, AddrOperand &A) {
  if (O.K != ptx::Operand::Addr) {
    invalid("expected an address");
    return false;
  }
  if (O.Text.empty()) {
    A.BaseSlot = SlotZero;
    A.Offset = O.Offset;
    return true;
  }
  if (O.Text == "<complex>") {
    unsupported("address form");
    return false;
  }
  const KernelBuilder::SymInfo *S = B.lookup(O.Text);
  if (S && S->K == KernelBuilder::SymInfo::Reg) {
    A.BaseSlot = S->Index;
    A.Offset = O.Offset;
    return true;
  }
  uint32_t Slot;
  if (!S && specialSlot(O.Text, Slot)) {
    B.P.SpecialsUsed |= uint64_t(1) << Slot;
    A.BaseSlot = Slot;
    A.Offset = O.Offset;
    return true;
  }
  ptx::Operand N;
  N.K = ptx::Operand::Name;
  N.Text = O.Text;
  N.Offset = O.Offset;
  Space Sp;
  if (symbolAddress(N, A.BaseSlot, A.Offset, Sp)) {
    A.SymSpace = Sp;
    A.FrameRelative = A.BaseSlot == SlotFrame;
    A.KernelParam = A.BaseSlot == SlotParamBase;
    return true;
  }
  invalid("unknown address base '" + O.Text + "'");
  return false;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

void KernelBuilder::decodeControl(DecodeCtx &C, Inst &I, bool &Handled) {
  Handled = true;
  std::string_view B = C.Base;
  if (B == "bra") {
    C.M.take("uni");
    if (!C.wantOps(1))
      return;
    const ptx::Operand &T = C.op(0);
    auto It = Labels[CurFunc].find(T.Text);
    if (T.K != ptx::Operand::Name || It == Labels[CurFunc].end()) {
      C.invalid("unknown label '" + T.Text + "'");
      return;
    }
    I.Kind = InstKind::Bra;
    I.Aux = It->second;
    I.Aux2 = NoPc;
    I.Class = uint8_t(InstClass::Branch);
    C.finish();
    return;
  }
  if (B == "ret" || B == "exit") {
    C.M.take("uni");
    I.Kind = (B == "exit" || DecodingEntry) ? InstKind::Exit : InstKind::Ret;
    I.Class = uint8_t(InstClass::Branch);
    C.finish();
    return;
  }
  if (B == "trap" || B == "brkpt") {
    I.Kind = InstKind::Trap;
    I.Class = uint8_t(InstClass::Other);
    return;
  }
  if (B == "call") {
    C.M.take("uni");
    // call [(rets),] target [, (args)] [, prototype];
    unsigned K = 0;
    const ptx::Operand *Rets = nullptr, *Args = nullptr;
    if (K < C.numOps() && C.op(K).K == ptx::Operand::List)
      Rets = &C.op(K++);
    if (K >= C.numOps() || C.op(K).K != ptx::Operand::Name) {
      C.invalid("expected a call target");
      return;
    }
    const ptx::Operand &Target = C.op(K++);
    if (K < C.numOps() && C.op(K).K == ptx::Operand::List)
      Args = &C.op(K++);
    CallSite CS;
    const SymInfo *TS = lookup(Target.Text);
    if (TS && TS->K == SymInfo::Reg) {
      CS.Indirect = true;
      CS.TargetSlot = TS->Index;
    } else {
      auto MI = M.FuncIndex.find(Target.Text);
      if (MI == M.FuncIndex.end()) {
        C.invalid("call to unknown function '" + Target.Text + "'");
        return;
      }
      const ptx::Function &Callee = M.Ast->Functions[MI->second];
      if (!Callee.HasBody) {
        if (Target.Text == "vprintf")
          CS.B = Builtin::Vprintf;
        else if (Target.Text == "malloc")
          CS.B = Builtin::Malloc;
        else if (Target.Text == "free")
          CS.B = Builtin::Free;
        else if (Target.Text == "__assertfail")
          CS.B = Builtin::AssertFail;
        else {
          C.unsupported("call to external function '" + Target.Text + "'");
          return;
        }
      } else {
        CS.Callee = FuncLocal.at(Target.Text);
      }
    }
    auto argCopy = [&](const ptx::Operand &O, unsigned Index, ArgCopy &AC) {
      AC.Dst = Index;
      if (O.K == ptx::Operand::Name) {
        const SymInfo *S = lookup(O.Text);
        if (S && S->K == SymInfo::Frame) {
          AC.K = ArgCopy::FrameVar;
          AC.Src = S->Index;
          AC.Size = S->Bytes;
          return true;
        }
      }
      AC.K = ArgCopy::Slot;
      AC.Src = C.src(O, Type::B64);
      AC.Size = 8;
      return !C.failed();
    };
    if (Args)
      for (unsigned A = 0; A < Args->Elems.size(); ++A) {
        ArgCopy AC;
        if (!argCopy(Args->Elems[A], A, AC))
          return;
        CS.Args.push_back(AC);
      }
    if (Rets)
      for (unsigned R = 0; R < Rets->Elems.size(); ++R) {
        const ptx::Operand &O = Rets->Elems[R];
        const SymInfo *S = O.K == ptx::Operand::Name ? lookup(O.Text) : nullptr;
        ArgCopy AC;
        AC.Src = R; // the callee's result index
        if (S && S->K == SymInfo::Frame) {
          AC.K = ArgCopy::FrameVar;
          AC.Dst = S->Index;
          AC.Size = S->Bytes;
        } else if (S && S->K == SymInfo::Reg) {
          AC.K = ArgCopy::Slot;
          AC.Dst = S->Index;
          AC.Size = S->Bytes;
        } else {
          C.invalid("call results must be .param variables or registers");
          return;
        }
        CS.Rets.push_back(AC);
      }
    if (!CS.Indirect && CS.B == Builtin::None) {
      const ptx::Function &Callee = *Funcs[CS.Callee];
      if (CS.Args.size() != Callee.Params.size() ||
          CS.Rets.size() > Callee.Rets.size()) {
        C.invalid("call of '" + Target.Text + "' with the wrong number of arguments");
        return;
      }
    }
    I.Kind = InstKind::Call;
    I.Aux = uint32_t(P.Calls.size());
    P.Calls.push_back(std::move(CS));
    I.Class = uint8_t(InstClass::Branch);
    C.finish();
    return;
  }
  if (B == "brx") {
    C.unsupported("indirect branch");
    return;
  }
  Handled = false;
}

/// PTX's operand-size rule for the arithmetic instructions (PTX ISA,
/// "Operand Type Information"): every register operand has the size of the
/// instruction's type, except that `.wide` doubles the destination (and
/// mad's addend). ptxas rejects the rest ("Arguments mismatch"); the
/// emulator used to run them on the register's bytes. ld, st, cvt, mov and
/// the instructions whose operands have types of their own (shifts, selp,
/// setp, ...) are checked by their decoders, not here.
static void checkOperandSizes(DecodeCtx &C, const ptx::Instruction &PI,
                              const std::function<unsigned(const std::string &)> &RegBytes) {
  static const std::string_view Uniform[] = {
      "add", "sub", "mul", "mad", "fma", "min", "max", "neg", "abs", "div",
      "rem", "and", "or", "xor", "not", "sqrt", "rcp", "rsqrt", "sin", "cos",
      "lg2", "ex2", "tanh", "copysign"};
  if (PI.Parts.empty() || std::find(std::begin(Uniform), std::end(Uniform),
                                    PI.Parts[0]) == std::end(Uniform))
    return;
  Type T = Type::None;
  bool Wide = false;
  for (size_t K = 1; K < PI.Parts.size(); ++K) {
    Type P = ptx::parseType(PI.Parts[K]);
    if (P != Type::None)
      T = P;
    Wide |= PI.Parts[K] == "wide";
  }
  unsigned Size = ptx::typeSize(T);
  if (T == Type::Pred || Size == 0)
    return;
  for (size_t K = 0; K < PI.Ops.size(); ++K) {
    const ptx::Operand &O = PI.Ops[K];
    if (O.K != ptx::Operand::Name)
      continue;
    unsigned Have = RegBytes(O.Text);
    if (!Have)
      continue; // not a register: special registers, symbols, predicates
    unsigned Want = Wide && (K == 0 || K == 3) ? 2 * Size : Size;
    if (Have != Want) {
      C.invalid("operand '" + O.Text + "' is a " + std::to_string(8 * Have) +
                "-bit register where ." + ptx::typeName(T) +
                (Wide ? " (.wide)" : "") + " needs " +
                std::to_string(8 * Want) + " bits");
      return;
    }
  }
}

void KernelBuilder::decodeInst(const ptx::Instruction &PI, Inst &I) {
  DecodeCtx C(*this, PI, DecodingEntry);
  checkOperandSizes(C, PI, [&](const std::string &Name) -> unsigned {
    const SymInfo *S = lookup(Name);
    return S && S->K == SymInfo::Reg ? S->Bytes : 0;
  });
  I.Line = PI.Line;
  I.Func = CurFunc;
  size_t Pc = size_t(&I - P.Code.data());
  // Source position (.loc) and predicate operands, for the timing engine.
  if (PI.SrcLine && !P.SrcLine.empty()) {
    P.SrcLine[Pc] = PI.SrcLine;
    for (uint32_t K = 0; K < M.Ast->Files.size(); ++K)
      if (M.Ast->Files[K].first == PI.SrcFile)
        P.SrcFile[Pc] = K + 1;
  }
  {
    PredUse &U = P.PredUses[Pc];
    unsigned NW = 0, NR = 0;
    auto predIndex = [&](const std::string &Name) {
      const SymInfo *S = Name.empty() ? nullptr : lookup(Name);
      return S && S->K == SymInfo::Pred ? S->Index : ~0u;
    };
    for (size_t K = 0; K < PI.Ops.size(); ++K) {
      const ptx::Operand &O = PI.Ops[K];
      if (O.K != ptx::Operand::Name)
        continue;
      uint32_t X = predIndex(O.Text), Y = predIndex(O.Text2);
      for (uint32_t V : {X, Y}) {
        if (V == ~0u)
          continue;
        if (K == 0 && NW < 2)
          U.Written[NW++] = V;
        else if (K != 0 && NR < 3)
          U.Read[NR++] = V;
      }
    }
  }
  if (!PI.GuardReg.empty()) {
    const SymInfo *S = lookup(PI.GuardReg);
    if (!S || S->K != SymInfo::Pred) {
      C.invalid("guard '" + PI.GuardReg + "' is not a predicate");
    } else {
      I.Guard = int32_t(S->Index);
      I.GuardXor = PI.GuardNeg ? ~0u : 0u;
    }
  }
  bool Handled = false;
  if (!C.failed()) {
    decodeControl(C, I, Handled);
    if (!Handled)
      Handled = decodeIntInst(C, I) || decodeFloatInst(C, I) ||
                decodeConvertInst(C, I) || decodeMemInst(C, I) ||
                decodeWarpInst(C, I);
    if (!Handled)
      C.unsupported();
  }
  if (!C.failed() && I.Kind == InstKind::Op && !I.Fn)
    C.unsupported("no handler");
  if (C.failed()) {
    I.Kind = InstKind::Unsupported;
    I.Fn = nullptr;
    I.Aux = uint32_t(P.Messages.size());
    I.Class = uint8_t(InstClass::Other);
    P.Messages.push_back(C.Message);
  }
}

void KernelBuilder::decodeFunction(uint32_t FIdx) {
  const ptx::Function &F = *Funcs[FIdx];
  FunctionInfo &FI = P.Funcs[FIdx];
  CurFunc = FIdx;
  DecodingEntry = F.IsEntry;
  Scopes.clear();
  Scopes.emplace_back();
  auto &Top = Scopes.back();
  if (F.IsEntry) {
    const KernelInfo *KI = nullptr;
    auto It = M.KernelIndex.find(F.Name);
    if (It != M.KernelIndex.end())
      KI = &M.Kernels[It->second];
    for (size_t K = 0; K < F.Params.size(); ++K) {
      SymInfo S;
      S.K = SymInfo::KParam;
      S.Index = KI ? KI->Params[K].Offset : 0;
      S.Bytes = uint32_t(F.Params[K].byteSize());
      Top[F.Params[K].Name] = S;
    }
  } else {
    for (size_t K = 0; K < F.Params.size(); ++K) {
      SymInfo S;
      if (ParamSlots[FIdx][K] != ~0u) {
        S.K = SymInfo::Reg;
        S.Index = ParamSlots[FIdx][K];
        S.Bytes = ptx::typeSize(F.Params[K].T);
      } else {
        S.K = SymInfo::Frame;
        S.Index = FI.ParamOff[K];
        S.Bytes = FI.ParamSize[K];
      }
      Top[F.Params[K].Name] = S;
    }
    for (size_t K = 0; K < F.Rets.size(); ++K) {
      SymInfo S;
      if (RetSlots[FIdx][K] != ~0u) {
        S.K = SymInfo::Reg;
        S.Index = RetSlots[FIdx][K];
        S.Bytes = ptx::typeSize(F.Rets[K].T);
      } else {
        S.K = SymInfo::Frame;
        S.Index = FI.RetOff[K];
        S.Bytes = FI.RetSize[K];
      }
      Top[F.Rets[K].Name] = S;
    }
  }
  uint32_t Pc = FI.EntryPc;
  for (const ptx::Statement &St : F.Body) {
    switch (St.K) {
    case ptx::Statement::Open:
      Scopes.emplace_back();
      break;
    case ptx::Statement::Close:
      if (Scopes.size() > 1)
        Scopes.pop_back();
      break;
    case ptx::Statement::Label:
      break;
    case ptx::Statement::Decl: {
      const ptx::VarDecl &D = F.Decls[St.Index];
      auto &Sc = Scopes.back();
      uint32_t Base = DeclIndex.count(&D) ? DeclIndex[&D] : 0;
      switch (D.S) {
      case Space::Reg:
        if (D.RangeCount) {
          for (uint32_t K = 0; K < D.RangeCount; ++K) {
            SymInfo S;
            S.K = D.T == Type::Pred ? SymInfo::Pred : SymInfo::Reg;
            S.Index = Base + K;
            S.Bytes = ptx::typeSize(D.T) * D.Vec;
            Sc[D.Name + std::to_string(K)] = S;
          }
        } else {
          SymInfo S;
          S.K = D.T == Type::Pred ? SymInfo::Pred : SymInfo::Reg;
          S.Index = Base;
          S.Bytes = ptx::typeSize(D.T) * D.Vec;
          Sc[D.Name] = S;
        }
        break;
      case Space::Local:
      case Space::Param: {
        SymInfo S;
        S.K = SymInfo::Frame;
        S.Index = Base;
        S.Bytes = uint32_t(D.byteSize());
        Sc[D.Name] = S;
        break;
      }
      case Space::Shared: {
        SymInfo S;
        S.K = SymInfo::Shared;
        S.Index = Base;
        S.Bytes = uint32_t(D.byteSize());
        Sc[D.Name] = S;
        break;
      }
      default:
        break;
      }
      break;
    }
    case ptx::Statement::Inst:
      decodeInst(F.Insts[St.Index], P.Code[Pc]);
      ++Pc;
      break;
    }
  }
  // The implicit return at the end of every function.
  Inst &Last = P.Code[Pc];
  Last.Kind = F.IsEntry ? InstKind::Exit : InstKind::Ret;
  Last.Class = uint8_t(InstClass::Branch);
  Last.Line = F.Insts.empty() ? F.Line : F.Insts.back().Line;
  Last.Func = FIdx;
}

void KernelBuilder::build() {
  P.Name = Entry.Name;
  collectFunctions();
  size_t NF = Funcs.size();
  P.Funcs.resize(NF);
  Labels.resize(NF);
  ParamSlots.resize(NF);
  RetSlots.resize(NF);
  // Pcs: each instruction is one Inst, plus an implicit return per function.
  uint32_t Pc = 0;
  for (size_t F = 0; F < NF; ++F) {
    const ptx::Function &Fn = *Funcs[F];
    FunctionInfo &FI = P.Funcs[F];
    FI.Name = Fn.Name;
    auto MI = M.FuncIndex.find(Fn.Name);
    FI.AddressTag = FunctionAddressTag | (MI == M.FuncIndex.end() ? 0 : MI->second);
    FI.EntryPc = Pc;
    uint32_t K = Pc;
    for (const ptx::Statement &St : Fn.Body) {
      if (St.K == ptx::Statement::Label)
        Labels[F][Fn.Labels[St.Index]] = K;
      else if (St.K == ptx::Statement::Inst)
        ++K;
    }
    Pc = K + 1;
    FI.EndPc = Pc;
  }
  P.Code.resize(Pc);
  P.PredUses.resize(Pc);
  bool HasLoc = false;
  for (size_t F = 0; F < NF && !HasLoc; ++F)
    for (const ptx::Instruction &I : Funcs[F]->Insts)
      if (I.SrcLine) {
        HasLoc = true;
        break;
      }
  if (HasLoc) {
    P.SrcFile.assign(Pc, 0);
    P.SrcLine.assign(Pc, 0);
    P.SrcFiles.push_back("");
    for (const auto &Fl : M.Ast->Files)
      P.SrcFiles.push_back(Fl.second);
  }
  // Phase A.
  for (size_t F = 0; F < NF; ++F)
    allocate(uint32_t(F));
  PredTrue = NextPred++;
  PredFalse = NextPred++;
  PredSink = NextPred++;
  P.PredTrue = PredTrue;
  P.PredFalse = PredFalse;
  P.PredSink = PredSink;
  P.NumPreds = NextPred;
  P.ConstBase = NextSlot;
  P.StaticShared = SharedTop; // function-level shared; module-level added below
  // Module-level static shared variables referenced by the code are laid
  // out on first use during decoding; the dynamic offset must come after
  // all of them, so pre-scan the referenced names.
  for (size_t F = 0; F < NF; ++F)
    for (const ptx::Instruction &I : Funcs[F]->Insts)
      for (const ptx::Operand &O : I.Ops) {
        std::function<void(const ptx::Operand &)> visit = [&](const ptx::Operand &X) {
          if (X.K == ptx::Operand::Name || X.K == ptx::Operand::Addr) {
            auto SV = M.SharedVars.find(X.Text);
            if (SV != M.SharedVars.end())
              moduleSharedOffset(X.Text, *SV->second);
          }
          for (const ptx::Operand &E : X.Elems)
            visit(E);
        };
        visit(O);
      }
  P.StaticShared = SharedTop;
  P.DynSharedOffset = alignUp(SharedTop, DynAlign);
  // Phase B.
  for (size_t F = 0; F < NF; ++F)
    decodeFunction(uint32_t(F));
  P.NumSlots = P.ConstBase + uint32_t(P.ConstValues.size());
  if (P.NumPreds < NextPred)
    P.NumPreds = NextPred;
  finishCalls();
  for (const FunctionInfo &FI : P.Funcs)
    computeReconvergence(P, FI);
}

void KernelBuilder::finishCalls() {
  size_t NF = P.Funcs.size();
  // Call graph.
  std::vector<std::vector<uint32_t>> Callees(NF);
  bool AnyIndirect = false;
  for (const Inst &I : P.Code)
    if (I.Kind == InstKind::Call) {
      const CallSite &CS = P.Calls[I.Aux];
      if (CS.Indirect)
        AnyIndirect = true;
      else if (CS.B == Builtin::None)
        Callees[I.Func].push_back(CS.Callee);
    }
  // Recursion: functions on a cycle.
  std::vector<int> Color(NF, 0);
  std::vector<uint32_t> Stack;
  std::vector<uint32_t> Need(NF, 0);
  std::function<void(uint32_t)> dfs = [&](uint32_t F) {
    Color[F] = 1;
    Stack.push_back(F);
    uint32_t Deep = 0;
    for (uint32_t C : Callees[F]) {
      if (Color[C] == 1) {
        for (auto It = Stack.rbegin(); It != Stack.rend(); ++It) {
          P.Funcs[*It].Recursive = true;
          if (*It == C)
            break;
        }
        P.HasRecursion = true;
        continue;
      }
      if (Color[C] == 0)
        dfs(C);
      Deep = std::max(Deep, Need[C]);
    }
    Need[F] = P.Funcs[F].FrameSize + Deep;
    Stack.pop_back();
    Color[F] = 2;
  };
  for (uint32_t F = 0; F < NF; ++F)
    if (Color[F] == 0)
      dfs(F);
  for (uint32_t F = 0; F < NF; ++F)
    P.Funcs[F].StackNeed = Need[F];
  uint64_t Bytes = Need[0];
  P.FrameBytes = alignUp(Need[0], 16);
  if (AnyIndirect) {
    uint32_t Max = 0;
    for (uint32_t N : Need)
      Max = std::max(Max, N);
    Bytes += Max;
  }
  if (P.HasRecursion)
    Bytes += 16384; // room for recursion, checked at every call
  P.StackBytes = uint32_t(alignUp(uint32_t(std::max<uint64_t>(Bytes, 16)), 16));
}

std::unique_ptr<KernelProgram> buildKernel(ModuleImpl &M,
                                           const ptx::Function &Entry) {
  auto P = std::make_unique<KernelProgram>();
  KernelBuilder B(M, Entry, *P);
  B.build();
  return P;
}

} // namespace klaraptor::emu
