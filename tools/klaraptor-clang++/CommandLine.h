//===- CommandLine.h - klaraptor-clang++'s command line ---------*- C++ -*-===//
///
/// \file
/// The driver's command line, sorted into what goes where: nvcc (device
/// code), clang (host code, C++ and C) and the link. The loop is hand-rolled
/// rather than llvm::cl because a drop-in compiler must accept any clang flag,
/// in any order, and pass the ones it does not know through unchanged.
///
/// Every klaraptor option is a flag and an environment variable; the flag
/// wins. docs/cli.md lists them.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TOOLS_CLANG_COMMANDLINE_H
#define KLARAPTOR_TOOLS_CLANG_COMMANDLINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace klaraptor {

/// What an input file is compiled as.
enum class InputKind {
  Cuda,  ///< device code through nvcc, host code through clang++ -x cuda
  Cxx,   ///< clang++ with the pass plugin
  C,     ///< clang with the pass plugin
  Other, ///< clang++ as is (assembly, IR, headers, other -x languages)
  Linker ///< objects and libraries, only passed to the link
};

/// One input file and how it is compiled.
struct InputFile {
  std::string Path;
  InputKind Kind = InputKind::Linker;
  /// For InputKind::Other: the -x language, or empty to let clang decide.
  std::string Language;
};

/// What the command produces.
enum class DriverMode {
  Link,       ///< an executable or shared library (the default)
  Compile,    ///< -c: objects
  Assemble,   ///< -S: host assembly, no device code
  Preprocess, ///< -E, -M, -MM: preprocessed host code, no device code
  SyntaxOnly  ///< -fsyntax-only: diagnostics only, no device code
};

/// One element of the link line, in command-line order.
struct LinkItem {
  /// Index into CommandLine::Inputs, or -1 when Arg is a plain argument.
  int Input = -1;
  std::string Arg;
};

/// klaraptor's own options after flags and KLARAPTOR_* variables are merged.
struct Settings {
  std::optional<std::string> Clang;  ///< --klaraptor-clang, KLARAPTOR_CLANG
  std::optional<std::string> ClangC; ///< --klaraptor-clang-c, KLARAPTOR_CLANG_C
  std::optional<std::string> Nvcc;   ///< --klaraptor-nvcc, KLARAPTOR_NVCC
  std::optional<std::string> CudaPath; ///< --klaraptor-cuda-path, --cuda-path
  /// GPU architectures (sm_NN, sm_NNa, sm_NNf), deduplicated, in order.
  std::vector<std::string> Archs;
  /// Extra nvcc arguments (-Xnvcc, --klaraptor-nvcc-flags).
  std::vector<std::string> NvccFlags;
  bool DryRun = false;    ///< --klaraptor-dryrun, -###, KLARAPTOR_DRYRUN
  bool KeepTemps = false; ///< --klaraptor-keep-temps, KLARAPTOR_KEEP_TEMPS
  bool Verbose = false;   ///< --klaraptor-verbose, KLARAPTOR_VERBOSE
  bool Emulate = false;   ///< --klaraptor-emulate, KLARAPTOR_EMULATE
  /// --klaraptor-models, KLARAPTOR_MODELS: a directory of rational programs
  /// (`klaraptor fit` output) compiled and linked into the program.
  std::optional<std::string> ModelsDir;
  bool Help = false;
  bool Version = false;
};

/// The parsed command line.
struct CommandLine {
  Settings Options;
  DriverMode Mode = DriverMode::Link;
  std::optional<std::string> Output;
  std::vector<InputFile> Inputs;
  /// Link inputs and link flags; a compiled source stands for its object.
  std::vector<LinkItem> LinkLine;
  /// Arguments for every clang compile (CUDA host, C++, C), in order; the
  /// language standard is kept apart in StdCxx / StdC.
  std::vector<std::string> CompileArgs;
  /// Arguments translated for nvcc, in order.
  std::vector<std::string> NvccArgs;
  std::string StdCxx;        ///< last -std= naming a C++ dialect
  std::string StdC;          ///< last -std= naming a C dialect
  std::string OptLevel;      ///< last -O flag as given, e.g. "-O2"
  bool DebugInfo = false;    ///< a -g flag other than -g0 came last
  bool LinksLibCuda = false; ///< the user asked for -lcuda
  /// -v, -dumpversion, -print-*: with no inputs the command goes to clang++.
  bool HasQuery = false;
  /// Arguments as given (after response files), for query pass-through.
  std::vector<std::string> Raw;
  std::vector<std::string> Warnings;
};

/// Reads a KLARAPTOR_* variable; tests may replace it.
using EnvLookup = std::optional<std::string> (*)(llvm::StringRef Name);

/// Parses the arguments after argv[0] (response files already expanded) and
/// fills unset klaraptor options from the environment.
llvm::Expected<CommandLine> parseCommandLine(llvm::ArrayRef<std::string> Args,
                                             EnvLookup Env);

/// NN of \p Arch when it is sm_NN, sm_NNa or sm_NNf, else nothing.
std::optional<unsigned> gpuArchNumber(llvm::StringRef Arch);

/// True when \p Arch is sm_NN, sm_NNa or sm_NNf with NN >= 75 (CUDA 13).
bool isSupportedGpuArch(llvm::StringRef Arch);

/// The nvcc spelling of a clang -std= value (c++20 for gnu++2a), or empty
/// when nvcc has no such dialect.
std::string nvccStandard(llvm::StringRef Std);

} // namespace klaraptor

#endif // KLARAPTOR_TOOLS_CLANG_COMMANDLINE_H
