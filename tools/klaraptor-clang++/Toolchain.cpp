//===- Toolchain.cpp - where klaraptor-clang++ finds its tools ------------===//
///
/// \file
/// See Toolchain.h.
//===----------------------------------------------------------------------===//
#include "Toolchain.h"

#include "CommandLine.h"
#include "Config.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <set>

using namespace llvm;

namespace klaraptor {

namespace {

/// clang 19 next to a given clang++ 19: "clang++-19" gives "clang-19". A
/// name without "clang++" gives itself; the driver names the language of
/// every compile with -x, so clang++ compiles C as C.
std::string cCompilerBeside(StringRef ClangXX) {
  StringRef Name = sys::path::filename(ClangXX);
  size_t Pos = Name.find("clang++");
  if (Pos == StringRef::npos)
    return ClangXX.str();
  SmallString<256> Result = sys::path::parent_path(ClangXX);
  sys::path::append(Result,
                    Name.take_front(Pos) + "clang" + Name.drop_front(Pos + 7));
  return std::string(Result);
}

std::string join(StringRef Dir, StringRef A, StringRef B = "",
                 StringRef C = "") {
  SmallString<256> Path(Dir);
  for (StringRef Part : {A, B, C})
    if (!Part.empty())
      sys::path::append(Path, Part);
  return std::string(Path);
}

} // namespace

Toolchain::Toolchain(const Settings &Options, StringRef ExecutablePath) {
  Clang = Options.Clang.value_or(KLARAPTOR_DEFAULT_CLANG);
  if (Options.ClangC)
    ClangC = *Options.ClangC;
  else if (Options.Clang)
    ClangC = cCompilerBeside(*Options.Clang);
  else
    ClangC = KLARAPTOR_DEFAULT_CLANG_C;
  CudaPath = Options.CudaPath.value_or(KLARAPTOR_DEFAULT_CUDA_PATH);
  while (CudaPath.size() > 1 && StringRef(CudaPath).ends_with("/"))
    CudaPath.pop_back();
  // A CUDA toolkit named at run time brings its own nvcc.
  if (Options.Nvcc)
    Nvcc = *Options.Nvcc;
  else if (Options.CudaPath)
    Nvcc = join(CudaPath, "bin", "nvcc");
  else
    Nvcc = KLARAPTOR_DEFAULT_NVCC;

  SmallString<256> Prefix(ExecutablePath);
  sys::path::remove_dots(Prefix, /*remove_dot_dot=*/true);
  Prefix = sys::path::parent_path(sys::path::parent_path(Prefix));
  LibDir = join(Prefix, "lib");
  Plugin = join(LibDir, "KlaraptorPlugin.so");
  Runtime = join(LibDir, "libklaraptor_rt.so");
  EmuCudart = join(LibDir, "libklaraptor_emu_cudart.so");
  Shim = join(LibDir, "klaraptor", "cuda-shim");
  // The build tree's include/ mirrors an install's (tools/CMakeLists.txt).
  RtInclude = join(Prefix, "include");
  ModelLib = join(LibDir, "libklaraptor_model.a");
  DevicesLib = join(LibDir, "libklaraptor_devices.a");
}

const std::string &Toolchain::configured(Tool T) const {
  switch (T) {
  case Tool::Clang:
    return Clang;
  case Tool::ClangC:
    return ClangC;
  case Tool::Nvcc:
    return Nvcc;
  }
  llvm_unreachable("unknown tool");
}

Expected<std::string> Toolchain::locate(Tool T) const {
  const std::string &Name = configured(T);
  if (StringRef(Name).contains('/')) {
    if (sys::fs::can_execute(Name) && !sys::fs::is_directory(Name))
      return Name;
  } else if (ErrorOr<std::string> Found = sys::findProgramByName(Name)) {
    return *Found;
  }
  StringRef What, Var, Flag;
  switch (T) {
  case Tool::Clang:
    What = "clang++";
    Var = "KLARAPTOR_CLANG";
    Flag = "--klaraptor-clang";
    break;
  case Tool::ClangC:
    What = "clang";
    Var = "KLARAPTOR_CLANG_C";
    Flag = "--klaraptor-clang-c";
    break;
  case Tool::Nvcc:
    What = "nvcc";
    Var = "KLARAPTOR_NVCC";
    Flag = "--klaraptor-nvcc";
    break;
  }
  return createStringError(
      inconvertibleErrorCode(), "cannot find %s '%s': set %s or %s=PATH",
      What.str().c_str(), Name.c_str(), Var.str().c_str(), Flag.str().c_str());
}

std::vector<std::string> Toolchain::hostArchs(ArrayRef<std::string> Archs) {
  // The GPUs clang-19 knows among those CUDA 13 supports.
  static const char *const Known[] = {"sm_75", "sm_80", "sm_86", "sm_87",
                                      "sm_89", "sm_90", "sm_90a"};
  std::vector<std::string> Result;
  for (const std::string &Arch : Archs) {
    std::string Host = is_contained(Known, Arch) ? Arch : "sm_90";
    if (!is_contained(Result, Host))
      Result.push_back(Host);
  }
  return Result;
}

std::string Toolchain::cudaArchList(ArrayRef<std::string> Archs) {
  std::set<unsigned> Numbers;
  for (const std::string &Arch : Archs)
    if (std::optional<unsigned> N = gpuArchNumber(Arch))
      Numbers.insert(*N * 10);
  std::string List;
  for (unsigned N : Numbers)
    List += (List.empty() ? "" : ",") + std::to_string(N);
  return List;
}

} // namespace klaraptor
