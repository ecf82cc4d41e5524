//===- IOBuilder.h - the klaraptor-io-builder module pass -----------------===//
///
/// \file
/// The IO-builder pass connects a host module to the klaraptor runtime. For
/// each kernel whose host stub carries a `#pragma klaraptor` encoding in
/// `@llvm.global.annotations` (docs/spec-format.md) it emits a data function
/// `__klaraptor_data.<kernel>`, a constant descriptor
/// `__klaraptor.desc.<kernel>` and a module constructor `klaraptor.register`
/// that registers every descriptor; before each launch it inserts a runtime
/// hook that may replace the launch's grid and block. USAGE:
///
///   opt -load-pass-plugin=build/lib/KlaraptorPlugin.so
///       -passes=klaraptor-io-builder -S in.ll -o out.ll
///   clang++-19 -x cuda --cuda-host-only ...
///       -fpass-plugin=build/lib/KlaraptorPlugin.so -O2 app.cu
///
/// Launch sites, and what is inserted before each:
///
///  * `cudaLaunchKernel[_ptsz](stub, ...)` whose stub is annotated here:
///    the data function fills an `[N x i64]`, then
///    `__klaraptor_rt_launch(desc, info)`. When the data function fails
///    (division by zero, overflow), `info.data` is null and `info.num_data`
///    is 0: the runtime must then keep the requested launch.
///  * `cudaLaunchKernel[_ptsz](h, ...)` with `h` not a kernel defined in this
///    module (a pointer only known at run time, as in the `cudaLaunchKernel<T>`
///    template of cuda_runtime.h, or a stub declared here and defined
///    elsewhere): `__klaraptor_rt_launch_handle(h, info)` with a null
///    `info.data`; the runtime finds the registered descriptor of `h` and
///    computes the data itself from `info.args`. Stubs defined here without an
///    annotation are left alone.
///  * `cudaLaunchKernelExC[_ptsz](config, h, args)` (cuda_runtime.h's
///    cudaLaunchKernelEx): `__klaraptor_rt_launch_handle(h, info)` with the
///    values of `*config`, and the launch gets a copy of `*config` with the
///    hook's grid, block and shared memory. A null config, or one with
///    launch attributes (clusters, cooperative launches), is kept.
///    `cuLaunchKernelEx[_ptsz](config, f, params, extra)` likewise, through
///    `__klaraptor_rt_launch_cufunction(f, info)`.
///  * `cuLaunchKernel[_ptsz](f, ...)` in any module (the kernel may be
///    annotated in another translation unit):
///    `__klaraptor_rt_launch_cufunction(f, info)` with a null `info.data` and
///    `info.args` = the kernelParams array (null when the launch passes its
///    arguments through `extra`).
///
/// After the hook the grid and block operands of the launch are replaced by
/// `info.grid` / `info.block` when the hook returned KLARAPTOR_OK (0), and
/// keep the requested values otherwise.
///
/// A module without annotations, cuLaunchKernel calls and launches of unknown
/// kernels is not changed. The pass marks what it did (each instrumented call
/// carries `!klaraptor.instrumented`, each descriptor names its stub), so a
/// second run over the same module adds nothing.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PASSES_IOBUILDER_H
#define KLARAPTOR_PASSES_IOBUILDER_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace klaraptor {

/// The `klaraptor-io-builder` pass.
class IOBuilderPass : public llvm::PassInfoMixin<IOBuilderPass> {
public:
  /// Pass name, also the pass name of its remarks (-Rpass=klaraptor).
  static constexpr const char *Name = "klaraptor-io-builder";

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  /// Runs at -O0 and on optnone functions too.
  static bool isRequired() { return true; }
};

/// Makes `-passes=klaraptor-io-builder` parse and adds the pass at the start
/// of every default pipeline (-O0 to -O3, before inlining moves launch sites
/// out of the stubs).
void registerIOBuilder(llvm::PassBuilder &PB);

} // namespace klaraptor

#endif // KLARAPTOR_PASSES_IOBUILDER_H
