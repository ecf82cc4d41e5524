//===- KlaraptorClang.cpp - the klaraptor-clang++ compiler driver ---------===//
///
/// \file
/// klaraptor-clang++ is a drop-in C++/CUDA compiler: use it as CXX in a
/// Makefile or as CMAKE_CXX_COMPILER. It compiles device code with nvcc,
/// host code with clang++ 19 and KlaraptorPlugin.so (the '#pragma klaraptor'
/// frontend and the IO-builder pass), and links libklaraptor_rt:
///
///   klaraptor-clang++ -arch=sm_80 -O2 saxpy.cu main.cpp -o saxpy
///   klaraptor-clang++ --klaraptor-dryrun -c saxpy.cu    # print, do not run
///
/// docs/cli.md documents every option.
//===----------------------------------------------------------------------===//
#include "CommandLine.h"
#include "Compilation.h"
#include "Config.h"
#include "Toolchain.h"

#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace klaraptor;

static constexpr const char *DriverName = "klaraptor-clang++";

static const char HelpText[] =
    R"(OVERVIEW: klaraptor-clang++, a drop-in C++/CUDA compiler whose kernels pick their own launch parameters

USAGE: klaraptor-clang++ [options] file...

  .cu files: device code through nvcc (a fatbin with SASS and PTX for each
  GPU), host code through clang++ 19 with KlaraptorPlugin.so. .cpp/.cc/.cxx/.C
  through clang++ 19 and .c through clang 19, with the IO-builder pass.
  Objects and libraries go to the link, which adds libklaraptor_rt and
  libcudart (and, with --klaraptor-models, the programs and libklaraptor_model). Any other flag goes to clang unchanged.

KLARAPTOR OPTIONS (flag, environment variable; the flag wins):
  --klaraptor-arch=LIST         KLARAPTOR_ARCH        GPUs to build for, comma-separated
                                                      (default sm_90); also -arch=sm_NN,
                                                      -arch sm_NN, --cuda-gpu-arch=sm_NN
  --klaraptor-clang=PATH        KLARAPTOR_CLANG       clang++ 19
  --klaraptor-clang-c=PATH      KLARAPTOR_CLANG_C     clang 19, for C
  --klaraptor-nvcc=PATH         KLARAPTOR_NVCC        nvcc
  --klaraptor-cuda-path=DIR     KLARAPTOR_CUDA_PATH   CUDA toolkit (and its nvcc); also
                                                      --cuda-path=DIR
  --klaraptor-nvcc-flags=FLAGS  KLARAPTOR_NVCC_FLAGS  extra nvcc arguments; also -Xnvcc ARG
  --klaraptor-dryrun, -###      KLARAPTOR_DRYRUN      print the commands, run nothing
  --klaraptor-verbose           KLARAPTOR_VERBOSE     print the commands as they run
  --klaraptor-keep-temps        KLARAPTOR_KEEP_TEMPS  keep the temporary directory
  --klaraptor-emulate           KLARAPTOR_EMULATE     link the CPU emulator instead of
                                                      libcudart and libcuda
  --klaraptor-models=DIR        KLARAPTOR_MODELS      compile the rational programs DIR/*.c
                                                      (from 'klaraptor fit') and link them
                                                      with the MWP-CWP library; also
                                                      --klaraptor-models DIR

COMMON COMPILER OPTIONS:
  -c, -S, -E, -fsyntax-only, -o FILE, -x cuda|cu|c++|c|none, -I, -D, -U,
  -isystem, -include, -std=, -O*, -g* (nvcc gets -lineinfo), -l, -L, -Wl,
  -shared, -fPIC, -MD/-MMD/-MF/-MT, -Xcuda-ptxas ARG, @response-file

  A .cu file is CUDA even after '-x c++' (CMake adds it to sources with
  LANGUAGE CXX); objects and libraries are never compiled whatever -x says.

  --help                  this text
  --version               version and the tools in use
)";

static std::optional<std::string> getEnv(StringRef Name) {
  return sys::Process::GetEnv(Name);
}

static void printVersion(const Toolchain &TC) {
  auto Show = [&](StringRef What, Tool T) {
    outs() << "  " << What << ": ";
    if (Expected<std::string> Path = TC.locate(T)) {
      outs() << *Path << "\n";
    } else {
      consumeError(Path.takeError());
      outs() << TC.configured(T) << " (not found)\n";
    }
  };
  outs() << DriverName << " version " << KLARAPTOR_VERSION_STRING << " (LLVM "
         << KLARAPTOR_LLVM_VERSION_STRING << ")\n";
  Show("clang++", Tool::Clang);
  Show("clang", Tool::ClangC);
  Show("nvcc", Tool::Nvcc);
  outs() << "  CUDA: " << TC.CudaPath << "\n"
         << "  plugin: " << TC.Plugin << "\n"
         << "  runtime: " << TC.Runtime << "\n"
         << "  runtime headers: " << TC.RtInclude << "\n";
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);

  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<const char *, 64> Expanded(Argv + 1, Argv + Argc);
  cl::ExpansionContext Expander(Alloc, cl::TokenizeGNUCommandLine);
  if (Error E = Expander.expandResponseFiles(Expanded)) {
    WithColor::error(errs(), DriverName) << toString(std::move(E)) << "\n";
    return 1;
  }
  std::vector<std::string> Args(Expanded.begin(), Expanded.end());

  Expected<CommandLine> CL = parseCommandLine(Args, getEnv);
  if (!CL) {
    WithColor::error(errs(), DriverName) << toString(CL.takeError()) << "\n";
    return 1;
  }
  if (CL->Options.Help) {
    outs() << HelpText;
    return 0;
  }
  static int Anchor;
  Toolchain TC(CL->Options, sys::fs::getMainExecutable(Argv[0], &Anchor));
  if (CL->Options.Version) {
    printVersion(TC);
    return 0;
  }

  Compilation C(*CL, TC);
  if (Error E = C.build()) {
    WithColor::error(errs(), DriverName) << toString(std::move(E)) << "\n";
    return 1;
  }
  return C.execute();
}
