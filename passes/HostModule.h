//===- HostModule.h - what the plugin's module passes share ---------*- C++ -*-===//
///
/// \file
/// The plugin's passes (DeviceNames.cpp, IOBuilder.cpp) work on the host
/// side of a CUDA compile: both leave device modules alone, and both add
/// private C strings that the CUDA runtime or klaraptor's reads.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PASSES_HOSTMODULE_H
#define KLARAPTOR_PASSES_HOSTMODULE_H

#include "llvm/ADT/Twine.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

namespace klaraptor {

/// Whether \p M is device code (NVPTX, AMDGPU, SPIR, SPIR-V): it holds
/// kernels, not launches or their registration, and is nvcc's or a device
/// compile's business.
inline bool isDeviceModule(const llvm::Module &M) {
  llvm::Triple T(M.getTargetTriple());
  return T.isNVPTX() || T.isAMDGPU() || T.isSPIR() || T.isSPIRV();
}

/// A private constant C string named \p Name, as clang makes the strings of
/// a kernel's registration.
inline llvm::GlobalVariable *makeCString(llvm::Module &M, llvm::StringRef S,
                                         const llvm::Twine &Name) {
  llvm::Constant *Init =
      llvm::ConstantDataArray::getString(M.getContext(), S, true);
  auto *GV = new llvm::GlobalVariable(M, Init->getType(), true,
                                      llvm::GlobalValue::PrivateLinkage, Init,
                                      Name);
  GV->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(llvm::Align(1));
  return GV;
}

} // namespace klaraptor

#endif // KLARAPTOR_PASSES_HOSTMODULE_H
