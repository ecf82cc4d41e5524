//===- DeviceNames.cpp - register kernels under the fatbin's names --------===//
///
/// \file
/// See DeviceNames.h.
//===----------------------------------------------------------------------===//
#include "DeviceNames.h"

#include "FatBinary.h"
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
#include "llvm/TargetParser/Triple.h"

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
    (void)emurt::entryFunctionNames(E, Names, Error); // what it can read
  return Names;
}

/// A private constant C string, as clang makes the registration's.
GlobalVariable *makeName(Module &M, StringRef S) {
  Constant *Init = ConstantDataArray::getString(M.getContext(), S, true);
  auto *GV = new GlobalVariable(M, Init->getType(), true,
                                GlobalValue::PrivateLinkage, Init,
                                "__klaraptor.device_name");
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  return GV;
}

} // namespace

PreservedAnalyses DeviceNamesPass::run(Module &M, ModuleAnalysisManager &) {
  Triple T(M.getTargetTriple());
  if (T.isNVPTX() || T.isAMDGPU() || T.isSPIR() || T.isSPIRV())
    return PreservedAnalyses::all();
  // __cudaRegisterFunction(handle, ptr stub, ptr deviceFun, ptr deviceName,
  // i32 limit, ...): clang passes its device name as both strings.
  Function *Reg = M.getFunction("__cudaRegisterFunction");
  if (!Reg)
    return PreservedAnalyses::all();
  SmallVector<CallBase *, 8> Calls;
  for (User *U : Reg->users())
    if (auto *CB = dyn_cast<CallBase>(U))
      if (CB->getCalledOperand() == Reg && CB->arg_size() >= 4)
        Calls.push_back(CB);
  StringRef Fatbin = embeddedFatbin(M);
  if (Calls.empty() || Fatbin.empty())
    return PreservedAnalyses::all();
  std::set<std::string> Names = fatbinNames(Fatbin);
  if (Names.empty())
    return PreservedAnalyses::all();

  // The fatbin's names by their demangled form; several names for one form
  // make it ambiguous (kept as an empty entry).
  StringMap<std::string> ByDemangled;
  for (const std::string &N : Names) {
    std::string D = demangle(N);
    if (D == N)
      continue; // not mangled (extern "C"): clang spells it the same
    auto [It, New] = ByDemangled.try_emplace(D, N);
    if (!New)
      It->second.clear();
  }

  bool Changed = false;
  for (CallBase *CB : Calls) {
    StringRef Registered;
    if (!getConstantStringInfo(CB->getArgOperand(3)->stripPointerCasts(),
                               Registered) ||
        Names.count(Registered.str()))
      continue;
    auto It = ByDemangled.find(demangle(Registered.str()));
    if (It == ByDemangled.end() || It->second.empty())
      continue;
    GlobalVariable *Name = makeName(M, It->second);
    CB->setArgOperand(2, Name);
    CB->setArgOperand(3, Name);
    Changed = true;
    OptimizationRemarkEmitter ORE(CB->getFunction());
    std::string Msg = ("kernel '" + Registered + "' is '" + It->second +
                       "' in the fatbin: registered under that name")
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
