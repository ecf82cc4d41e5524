//===- DeviceNames.cpp - register kernels under the fatbin's names --------===//
///
/// \file
/// See DeviceNames.h.
//===----------------------------------------------------------------------===//
#include "DeviceNames.h"

#include "FatBinary.h"
#include "HostModule.h"
#include "PassRegistration.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

#include <set>

using namespace llvm;

namespace klaraptor {

namespace {

/// The bytes of the fatbin that \p M embeds: `__cuda_fatbin_wrapper` (clang's
/// { i32 magic, i32 version, ptr data, ptr null }) points at a constant byte
/// array. Empty when there is none (clang made no wrapper, or a relocatable
/// device code build whose fatbin is linked later).
StringRef embeddedFatbin(Module &M) {
  GlobalVariable *Wrapper = M.getNamedGlobal("__cuda_fatbin_wrapper");
  if (!Wrapper || !Wrapper->hasInitializer())
    return {};
  auto *Init = dyn_cast<ConstantStruct>(Wrapper->getInitializer());
  if (!Init || Init->getNumOperands() < 3)
    return {};
  auto *Data =
      dyn_cast<GlobalVariable>(Init->getOperand(2)->stripPointerCasts());
  if (!Data || !Data->hasInitializer())
    return {};
  auto *Bytes = dyn_cast<ConstantDataSequential>(Data->getInitializer());
  if (!Bytes || !Bytes->getElementType()->isIntegerTy(8))
    return {};
  return Bytes->getRawDataValues();
}

/// The names of the functions in \p Fatbin (every PTX and cubin entry the
/// reader can read); empty when it cannot be parsed.
std::set<std::string> fatbinNames(StringRef Fatbin) {
  std::set<std::string> Names;
  std::vector<emurt::FatbinEntry> Entries;
  std::string Error;
  if (!emurt::parseFatbin(reinterpret_cast<const uint8_t *>(Fatbin.data()),
                          Entries, Error, Fatbin.size()))
    return Names;
  for (const emurt::FatbinEntry &E : Entries)
    (void)emurt::entrySymbolNames(E, Names, Error); // what it can read
  return Names;
}

} // namespace

/// \p Name demangled, without the namespaces nvcc adds to make an entity
/// of internal linkage unique to its file (`_INTERNAL_<hash>_<file>...`):
/// the form under which clang's and nvcc's manglings of one entity agree.
/// An unmangled name is its own form.
std::string commonForm(const std::string &Name) {
  std::string D = demangle(Name);
  static constexpr StringRef Internal = "_INTERNAL_";
  for (size_t At = D.find(Internal.data()); At != std::string::npos;
       At = D.find(Internal.data(), At)) {
    size_t End = D.find("::", At);
    if ((At != 0 && (At < 2 || D.compare(At - 2, 2, "::") != 0)) ||
        End == std::string::npos) {
      At += Internal.size();
      continue;
    }
    D.erase(At, End + 2 - At);
  }
  return D;
}

PreservedAnalyses DeviceNamesPass::run(Module &M, ModuleAnalysisManager &) {
  if (isDeviceModule(M))
    return PreservedAnalyses::all();
  // __cudaRegisterFunction(handle, ptr stub, ptr deviceFun, ptr deviceName,
  // ...), __cudaRegisterVar(handle, ptr hostVar, ptr deviceAddress, ptr
  // deviceName, ...) and __cudaRegisterManagedVar(handle, ptr hostVarPtr,
  // ptr deviceAddress, ptr deviceName, ...): clang passes the device name as
  // both strings.
  struct Registration {
    CallBase *Call;
    const char *What;
  };
  SmallVector<Registration, 16> Regs;
  for (auto [Callee, What] :
       {std::pair<const char *, const char *>{"__cudaRegisterFunction",
                                              "kernel"},
        {"__cudaRegisterVar", "variable"},
        {"__cudaRegisterManagedVar", "variable"}})
    if (Function *F = M.getFunction(Callee))
      for (User *U : F->users())
        if (auto *CB = dyn_cast<CallBase>(U))
          if (CB->getCalledOperand() == F && CB->arg_size() >= 4)
            Regs.push_back({CB, What});
  if (Regs.empty())
    return PreservedAnalyses::all();
  StringRef Fatbin = embeddedFatbin(M);
  if (Fatbin.empty())
    return PreservedAnalyses::all();
  std::set<std::string> Names = fatbinNames(Fatbin);
  if (Names.empty())
    return PreservedAnalyses::all();

  // The fatbin's names by their common form; several names for one form
  // make it ambiguous (kept as an empty entry).
  StringMap<std::string> ByForm;
  for (const std::string &N : Names) {
    auto [It, New] = ByForm.try_emplace(commonForm(N), N);
    if (!New)
      It->second.clear();
  }

  bool Changed = false;
  for (const Registration &R : Regs) {
    CallBase *CB = R.Call;
    StringRef Registered;
    if (!getConstantStringInfo(CB->getArgOperand(3)->stripPointerCasts(),
                               Registered) ||
        Names.count(Registered.str()))
      continue;
    auto It = ByForm.find(commonForm(Registered.str()));
    if (It == ByForm.end() || It->second.empty())
      continue;
    GlobalVariable *Name =
        makeCString(M, It->second, "__klaraptor.device_name");
    CB->setArgOperand(2, Name);
    CB->setArgOperand(3, Name);
    Changed = true;
    OptimizationRemarkEmitter ORE(CB->getFunction());
    std::string Msg = (Twine(R.What) + " '" + Registered + "' is '" +
                       It->second + "' in the fatbin: registered under that name")
                          .str();
    ORE.emit([&] {
      return OptimizationRemark(DeviceNamesPass::Name, "DeviceName", CB)
             << Msg;
    });
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

void registerDeviceNames(PassBuilder &PB) {
  registerModulePass<DeviceNamesPass>(PB);
}

} // namespace klaraptor
