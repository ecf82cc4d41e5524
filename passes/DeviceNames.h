//===- DeviceNames.h - the klaraptor-device-names module pass -------------===//
///
/// \file
/// klaraptor-clang++ compiles a `.cu` file's device code with nvcc and its
/// host code with clang, which embeds nvcc's fatbin
/// (`-fcuda-include-gpubinary`). The two compilers name some kernels
/// differently: a kernel with internal linkage is `_ZL4stepPfi` to clang and
/// `_Z4stepPfi` to nvcc, and one in an anonymous namespace is
/// `_ZN12_GLOBAL__N_14stepEPfi` to clang and
/// `_ZN32_GLOBAL__N__6f5c31a8_7_app_cu_main4stepEPfi` to nvcc (a name unique
/// to the file). The host registers each kernel under clang's name
/// (`__cudaRegisterFunction`), the CUDA runtime looks that name up in the
/// fatbin, and the launch fails: an invalid device function on a GPU.
///
/// This pass reads the kernels' names out of the fatbin embedded in the host
/// module (the PTX `.entry` names and the cubins' function symbols) and gives
/// each registration whose name the fatbin lacks the fatbin's name that
/// demangles the same: `(anonymous namespace)::step(float*, int)` is one
/// kernel under both manglings. A name with no such counterpart, or more
/// than one, is left as it is. It runs before the IO-builder, which then
/// sees the names the runtime will see. USAGE:
///
///   opt -load-pass-plugin=build/lib/KlaraptorPlugin.so
///       -passes=klaraptor-device-names -S in.ll -o out.ll
///
/// A module without `__cudaRegisterFunction` calls, or without an embedded
/// fatbin (a module compiled with clang for both sides names the kernels
/// consistently), is not changed. `-Rpass=klaraptor` reports each renaming.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PASSES_DEVICENAMES_H
#define KLARAPTOR_PASSES_DEVICENAMES_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace klaraptor {

/// The `klaraptor-device-names` pass.
class DeviceNamesPass : public llvm::PassInfoMixin<DeviceNamesPass> {
public:
  static constexpr const char *Name = "klaraptor-device-names";

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  /// Runs at -O0 and on optnone functions too.
  static bool isRequired() { return true; }
};

/// Makes `-passes=klaraptor-device-names` parse and adds the pass at the
/// start of every default pipeline; register it before the IO-builder, so
/// that it runs first.
void registerDeviceNames(llvm::PassBuilder &PB);

} // namespace klaraptor

#endif // KLARAPTOR_PASSES_DEVICENAMES_H
