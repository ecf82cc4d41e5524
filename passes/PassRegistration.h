//===- PassRegistration.h - how the plugin's module passes are added ------===//
///
/// \file
/// Each of the plugin's module passes can be named in `-passes=` (opt) and
/// runs at the start of every default pipeline (-O0 to -O3), before the
/// inliner copies the stubs' launches into their callers, once per module
/// (clang builds one pipeline per module). Passes registered earlier run
/// earlier.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PASSES_PASSREGISTRATION_H
#define KLARAPTOR_PASSES_PASSREGISTRATION_H

#include "llvm/Passes/PassBuilder.h"

namespace klaraptor {

/// Registers \p PassT (a module pass with a static `Name`) both ways.
template <typename PassT> void registerModulePass(llvm::PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](llvm::StringRef Name, llvm::ModulePassManager &MPM,
         llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (Name != PassT::Name)
          return false;
        MPM.addPass(PassT());
        return true;
      });
  PB.registerPipelineStartEPCallback(
      [](llvm::ModulePassManager &MPM, llvm::OptimizationLevel) {
        MPM.addPass(PassT());
      });
}

} // namespace klaraptor

#endif // KLARAPTOR_PASSES_PASSREGISTRATION_H
