//===- Compilation.h - the commands of one driver run -----------*- C++ -*-===//
///
/// \file
/// Turns a parsed command line into commands and runs them. A .cu file
/// becomes two commands, a C++ or C file one, and a link comes last:
///
///   nvcc -fatbin --no-compress -gencode arch=compute_90,code=sm_90
///        -gencode arch=compute_90,code=compute_90 ... k.cu -o T/k.fatbin
///   clang++ -x cuda --cuda-host-only --cuda-path=C --cuda-gpu-arch=sm_90
///        -Wno-unknown-cuda-version -isystem SHIM -fplugin=P -fpass-plugin=P
///        -Xclang -fcuda-include-gpubinary -Xclang T/k.fatbin ... -c k.cu
///        -o k.o
///   clang++ -x c++ -fpass-plugin=P ... -c m.cpp -o m.o
///   clang -x c -O2 -fPIC -I RT -I MODEL -c DIR/kernel.c -o T/kernel.o
///        (each rational program of --klaraptor-models DIR)
///   clang++ k.o m.o T/kernel.o -o app LIB/libklaraptor_model.a
///        LIB/libklaraptor_devices.a -L LIB -lklaraptor_rt -Wl,-rpath,LIB
///        -L C/lib64 -lcudart -Wl,-rpath,C/lib64 -ldl -lpthread
///
/// Intermediate files go to a private temporary directory, removed at exit
/// unless temporaries are kept.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TOOLS_CLANG_COMPILATION_H
#define KLARAPTOR_TOOLS_CLANG_COMPILATION_H

#include "CommandLine.h"
#include "Job.h"
#include "Toolchain.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace klaraptor {

/// The commands of one driver run.
class Compilation {
public:
  Compilation(const CommandLine &CL, const Toolchain &TC) : CL(CL), TC(TC) {}
  ~Compilation();
  Compilation(const Compilation &) = delete;
  Compilation &operator=(const Compilation &) = delete;

  /// Checks the command line and builds the commands.
  llvm::Error build();
  /// Prints and/or runs the commands; returns the exit code.
  int execute();

  const std::vector<Job> &jobs() const { return Jobs; }

private:
  /// A fresh path in the private temporary directory.
  llvm::Expected<std::string> tempFile(llvm::StringRef Stem,
                                       llvm::StringRef Extension);
  /// The flag that selects the mode of a compile: -c, -S, -E, -fsyntax-only.
  llvm::StringRef modeFlag() const;
  void addNvcc(const InputFile &In, const std::string &Fatbin);
  void addCudaHost(const InputFile &In, const std::string &Fatbin,
                   const std::string &Output);
  void addClang(const InputFile &In, const std::string &Output);
  void addLink(const std::vector<std::string> &Objects);
  /// Compiles each rational program of --klaraptor-models (C, -O2, -fPIC)
  /// into ModelObjects; an error when the directory is missing or has no
  /// .c file.
  llvm::Error addModels();
  void addQuery();
  /// Appends the mode flag, the input and -o.
  void finishCompile(Job &J, const InputFile &In, const std::string &Output);

  const CommandLine &CL;
  const Toolchain &TC;
  std::vector<Job> Jobs;
  /// The objects of the rational programs, linked after the inputs.
  std::vector<std::string> ModelObjects;
  std::string TempDir;
  llvm::StringSet<> TempNames;
};

} // namespace klaraptor

#endif // KLARAPTOR_TOOLS_CLANG_COMPILATION_H
