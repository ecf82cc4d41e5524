//===- Toolchain.h - where klaraptor-clang++ finds its tools ----*- C++ -*-===//
///
/// \file
/// The programs the driver runs (clang++ 19, clang 19, nvcc) and the files it
/// hands them (KlaraptorPlugin.so, libklaraptor_rt.so, the CUDA texture shim,
/// the runtime headers). Programs come from flags, KLARAPTOR_* variables or
/// the defaults baked in at configure time; klaraptor's own files are found
/// relative to the driver executable, <prefix>/bin/klaraptor-clang++, so the
/// build tree and an install tree work alike:
///
///   <prefix>/lib/KlaraptorPlugin.so
///   <prefix>/lib/libklaraptor_rt.so
///   <prefix>/lib/klaraptor/cuda-shim/texture_fetch_functions.h
///   <prefix>/include/klaraptor/klaraptor_rt.h   (else the source tree's)
///   <prefix>/lib/libklaraptor_model.a, libklaraptor_devices.a (for
///   --klaraptor-models), <prefix>/include/klaraptor/mwp_cwp.h (else the
///   source tree's)
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TOOLS_CLANG_TOOLCHAIN_H
#define KLARAPTOR_TOOLS_CLANG_TOOLCHAIN_H

#include "CommandLine.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace klaraptor {

/// A program the driver runs.
enum class Tool { Clang, ClangC, Nvcc };

/// Paths of every program and file the driver uses.
class Toolchain {
public:
  /// \p ExecutablePath is the driver's own path.
  Toolchain(const Settings &Options, llvm::StringRef ExecutablePath);

  /// The program as configured: a path, or a name looked up in PATH.
  const std::string &configured(Tool T) const;
  /// The program's path on this machine, or an error naming the flag and
  /// the variable that set it.
  llvm::Expected<std::string> locate(Tool T) const;

  std::string CudaPath;
  std::string LibDir;    ///< <prefix>/lib
  std::string Plugin;    ///< <prefix>/lib/KlaraptorPlugin.so
  std::string Runtime;   ///< <prefix>/lib/libklaraptor_rt.so
  std::string EmuCudart; ///< <prefix>/lib/libklaraptor_emu_cudart.so
  std::string Shim;      ///< <prefix>/lib/klaraptor/cuda-shim
  /// <prefix>/include: the runtime's public headers and mwp_cwp.h (the
  /// rational programs'), in an install tree and in the build tree alike.
  std::string RtInclude;
  /// <prefix>/lib/libklaraptor_model.a, the MWP-CWP model the rational
  /// programs call (it needs libklaraptor_devices.a beside it).
  std::string ModelLib;
  std::string DevicesLib; ///< <prefix>/lib/libklaraptor_devices.a
  std::string cudaInclude() const { return CudaPath + "/include"; }
  /// CCCL (CUB, Thrust, libcu++'s cuda/std), which nvcc puts on the include
  /// path of every CUDA compile.
  std::string cudaCcclInclude() const { return CudaPath + "/include/cccl"; }
  std::string cudaLib() const { return CudaPath + "/lib64"; }
  std::string cudaStubs() const { return CudaPath + "/lib64/stubs"; }

  /// The --cuda-gpu-arch values for a host compile. clang-19 rejects GPUs
  /// newer than sm_90a although host code never depends on the GPU, so
  /// those are named sm_90 there; nvcc still gets the real ones.
  static std::vector<std::string> hostArchs(llvm::ArrayRef<std::string> Archs);
  /// What nvcc defines __CUDA_ARCH_LIST__ to for \p Archs (sm_90 -> 900,
  /// sm_75 and sm_90a -> 750,900): the host compile must define the same,
  /// since CUB and Thrust name their namespaces after it (the host's stub of
  /// a CUB kernel must have the name of the device's kernel).
  static std::string cudaArchList(llvm::ArrayRef<std::string> Archs);

private:
  std::string Clang, ClangC, Nvcc;
};

} // namespace klaraptor

#endif // KLARAPTOR_TOOLS_CLANG_TOOLCHAIN_H
