//===- Emulator.cpp - Module: loading PTX and launching kernels -----------===//
///
/// \file
/// Module::load parses the PTX, allocates and initialises module-scope
/// .global/.const variables, lays out each kernel's parameters and decodes
/// every kernel into a KernelProgram; Module::launch runs one.
//===----------------------------------------------------------------------===//
#include "Decoder.h"
#include "FloatUtil.h"
#include "Interpreter.h"
#include "ModuleImpl.h"

#include <cstdlib>
#include <cstring>

namespace klaraptor::emu {

using ptx::Space;
using ptx::Type;

ModuleImpl::~ModuleImpl() {
  for (void *P : Allocations)
    std::free(P);
}

uint64_t ModuleImpl::varAddress(const std::string &Name) const {
  auto It = VarIndex.find(Name);
  if (It == VarIndex.end())
    return 0;
  return uint64_t(Vars[It->second].Data);
}

static void writeScalar(uint8_t *Dst, Type T, unsigned Size,
                        const ptx::InitElem &E, const ModuleImpl &M) {
  uint64_t V = 0;
  if (E.K == ptx::InitElem::Int) {
    int64_t IV = int64_t(E.IntVal);
    switch (T) {
    case Type::F32: V = f32Bits(float(IV)); break;
    case Type::F64: V = f64Bits(double(IV)); break;
    case Type::F16: V = floatToHalf(double(IV)); break;
    case Type::BF16: V = floatToBf16(double(IV)); break;
    default: V = E.IntVal; break;
    }
  } else if (E.K == ptx::InitElem::Float) {
    double D = E.FloatBits == 32 ? double(bitsF32(uint32_t(E.IntVal)))
               : E.FloatBits == 64 ? bitsF64(E.IntVal)
                                   : E.FVal;
    switch (T) {
    case Type::F32: V = E.FloatBits == 32 ? E.IntVal : f32Bits(float(D)); break;
    case Type::F64: V = E.FloatBits == 64 ? E.IntVal : f64Bits(D); break;
    case Type::F16: V = floatToHalf(D); break;
    case Type::BF16: V = floatToBf16(D); break;
    default: V = E.FloatBits ? E.IntVal : uint64_t(int64_t(D)); break;
    }
  } else {
    uint64_t A = M.varAddress(E.Sym);
    if (!A) {
      auto F = M.FuncIndex.find(E.Sym);
      if (F != M.FuncIndex.end())
        A = FunctionAddressTag | F->second;
    }
    V = A + uint64_t(E.Offset);
  }
  std::memcpy(Dst, &V, std::min<unsigned>(Size, 8));
}

bool ModuleImpl::init(std::string &Error) {
  for (size_t K = 0; K < Ast->Functions.size(); ++K) {
    const ptx::Function &F = Ast->Functions[K];
    auto It = FuncIndex.find(F.Name);
    if (It == FuncIndex.end() || (!Ast->Functions[It->second].HasBody && F.HasBody))
      FuncIndex[F.Name] = K;
  }
  // Storage.
  for (const ptx::VarDecl &G : Ast->Globals) {
    if (G.S == Space::Shared) {
      SharedVars[G.Name] = &G;
      continue;
    }
    if (G.S != Space::Global && G.S != Space::Const)
      continue;
    if (G.T == Type::TexRef || G.T == Type::SamplerRef || G.T == Type::SurfRef)
      continue;
    uint64_t Size = G.byteSize();
    if (Size == 0) {
      if (G.Init.empty())
        continue; // an unresolved .extern declaration
      Size = G.Init.size() * ptx::typeSize(G.T);
    }
    if (VarIndex.count(G.Name)) {
      Error = "ptx:" + std::to_string(G.Line) + ": redefinition of '" + G.Name + "'";
      return false;
    }
    unsigned Align = std::max<unsigned>(G.alignment(), 16);
    void *P = nullptr;
    if (posix_memalign(&P, Align, Size) != 0) {
      Error = "out of memory for variable '" + G.Name + "'";
      return false;
    }
    std::memset(P, 0, Size);
    Allocations.push_back(P);
    Var V;
    V.D = &G;
    V.Data = static_cast<uint8_t *>(P);
    V.Size = Size;
    VarIndex[G.Name] = Vars.size();
    Vars.push_back(V);
    if (G.S == Space::Const)
      ConstRanges.push_back({uint64_t(P), Size});
  }
  // Initializers (after all storage exists, for address initializers).
  for (const Var &V : Vars) {
    const ptx::VarDecl &G = *V.D;
    unsigned ES = ptx::typeSize(G.T);
    if (ES == 0)
      continue;
    for (size_t K = 0; K < G.Init.size(); ++K) {
      if ((K + 1) * ES > V.Size) {
        Error = "ptx:" + std::to_string(G.Line) + ": too many initializers for '" +
                G.Name + "'";
        return false;
      }
      writeScalar(V.Data + K * ES, G.T, ES, G.Init[K], *this);
    }
  }
  // Kernels.
  for (const ptx::Function &F : Ast->Functions) {
    if (!F.IsEntry || !F.HasBody)
      continue;
    KernelInfo KI;
    KI.Name = F.Name;
    // CUDA's limit on a kernel's parameters (32764 bytes since CUDA 12.1);
    // also keeps the 32-bit offsets below from wrapping.
    constexpr uint64_t MaxParamBytes = 32764;
    uint64_t Off = 0;
    for (const ptx::VarDecl &D : F.Params) {
      ParamInfo PI;
      PI.Name = D.Name;
      const uint64_t Size = D.byteSize();
      const uint64_t Align = std::max<uint64_t>(D.alignment(), 1);
      Off = (Off + Align - 1) / Align * Align;
      if (Size > MaxParamBytes || Align > MaxParamBytes ||
          Off + Size > MaxParamBytes) {
        Error = "ptx:" + std::to_string(F.Line) + ": the parameters of kernel '" +
                F.Name + "' take more than " + std::to_string(MaxParamBytes) +
                " bytes";
        return false;
      }
      PI.Size = uint32_t(Size);
      PI.Align = uint32_t(Align);
      PI.Offset = uint32_t(Off);
      Off += Size;
      KI.Params.push_back(PI);
    }
    KI.ParamBytes = uint32_t(Off);
    if (KernelIndex.count(F.Name)) {
      Error = "ptx:" + std::to_string(F.Line) + ": kernel '" + F.Name +
              "' is defined twice";
      return false;
    }
    if (F.MaxNTid[0])
      KI.MaxThreads = F.MaxNTid[0] * std::max(1u, F.MaxNTid[1]) * std::max(1u, F.MaxNTid[2]);
    for (unsigned K = 0; K < 3; ++K)
      KI.ReqNTid[K] = F.ReqNTid[K];
    KernelIndex[F.Name] = Kernels.size();
    Kernels.push_back(std::move(KI));
  }
  Programs.resize(Kernels.size());
  for (size_t K = 0; K < Kernels.size(); ++K) {
    const ptx::Function &F = Ast->Functions[FuncIndex.at(Kernels[K].Name)];
    Programs[K] = buildKernel(*this, F);
    KernelProgram &P = *Programs[K];
    Kernels[K].StaticSharedBytes = P.StaticShared;
    Kernels[K].LocalBytes = P.FrameBytes;
    for (const Inst &I : P.Code)
      if (I.Kind == InstKind::Unsupported)
        Kernels[K].Unsupported.push_back(P.Messages[I.Aux] + " at PTX line " +
                                         std::to_string(I.Line));
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::Module(std::unique_ptr<ModuleImpl> I) : Impl(std::move(I)) {}
Module::~Module() = default;
TraceSink::~TraceSink() = default;
std::vector<uint64_t> *TraceSink::traceSectors(uint64_t) { return nullptr; }

std::unique_ptr<Module> Module::load(std::string_view Ptx, std::string &Error) {
  auto Impl = std::make_unique<ModuleImpl>();
  Impl->Ast = ptx::parseModule(Ptx, Error);
  if (!Impl->Ast)
    return nullptr;
  if (!Impl->init(Error))
    return nullptr;
  return std::unique_ptr<Module>(new Module(std::move(Impl)));
}

const KernelInfo *Module::findKernel(std::string_view Name) const {
  auto It = Impl->KernelIndex.find(std::string(Name));
  return It == Impl->KernelIndex.end() ? nullptr : &Impl->Kernels[It->second];
}

std::vector<const KernelInfo *> Module::kernels() const {
  std::vector<const KernelInfo *> R;
  for (const KernelInfo &K : Impl->Kernels)
    R.push_back(&K);
  return R;
}

bool Module::findGlobal(std::string_view Name, void *&Address, size_t &Size) const {
  auto It = Impl->VarIndex.find(std::string(Name));
  if (It == Impl->VarIndex.end())
    return false;
  Address = Impl->Vars[It->second].Data;
  Size = size_t(Impl->Vars[It->second].Size);
  return true;
}

void Module::forEachVariable(
    const std::function<void(const void *, size_t)> &Fn) const {
  for (const ModuleImpl::Var &V : Impl->Vars)
    if (V.Data && V.Size)
      Fn(V.Data, size_t(V.Size));
}

void Module::setRegisters(std::string_view Kernel, uint32_t Registers) {
  auto It = Impl->KernelIndex.find(std::string(Kernel));
  if (It != Impl->KernelIndex.end())
    Impl->Kernels[It->second].Registers = Registers;
}

LaunchResult Module::launch(std::string_view Kernel, const LaunchOptions &Options) {
  auto It = Impl->KernelIndex.find(std::string(Kernel));
  if (It == Impl->KernelIndex.end()) {
    LaunchResult R;
    R.Status = LaunchStatus::InvalidConfiguration;
    R.Message = "no kernel named '" + std::string(Kernel) + "' in the module";
    return R;
  }
  return runLaunch(*Impl, *Impl->Programs[It->second], Impl->Kernels[It->second],
                   Options);
}

} // namespace klaraptor::emu
