//===- CommandLine.cpp - klaraptor-clang++'s command line -----------------===//
///
/// \file
/// Sorts the driver's arguments into nvcc, clang-compile and link buckets.
/// See CommandLine.h; the rules are documented in docs/cli.md.
//===----------------------------------------------------------------------===//
#include "CommandLine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

using namespace llvm;

namespace klaraptor {

std::optional<unsigned> gpuArchNumber(StringRef Arch) {
  if (!Arch.consume_front("sm_"))
    return std::nullopt;
  if (Arch.ends_with("a") || Arch.ends_with("f"))
    Arch = Arch.drop_back();
  if (Arch.empty() || Arch.front() == '0' || !all_of(Arch, isDigit))
    return std::nullopt;
  unsigned Number = 0;
  if (Arch.getAsInteger(10, Number))
    return std::nullopt;
  return Number;
}

bool isSupportedGpuArch(StringRef Arch) {
  // CUDA 13 dropped everything before Turing.
  std::optional<unsigned> Number = gpuArchNumber(Arch);
  return Number && *Number >= 75;
}

std::string nvccStandard(StringRef Std) {
  // nvcc knows only the ISO spellings, and nothing newer than C++20.
  if (!Std.consume_front("c++"))
    if (!Std.consume_front("gnu++"))
      return "";
  return StringSwitch<std::string>(Std)
      .Cases("98", "03", "c++03")
      .Cases("11", "0x", "c++11")
      .Cases("14", "1y", "c++14")
      .Cases("17", "1z", "c++17")
      .Cases("20", "2a", "c++20")
      .Default("");
}

namespace {

/// Whether \p A asks for relocatable device code (separate compilation of
/// device code), in clang's spelling or nvcc's; \p Off is set for the
/// spellings that turn it off.
bool isRelocatableDeviceCode(StringRef A, bool &Off) {
  Off = A == "-fno-gpu-rdc" || A == "-fno-cuda-rdc" || A == "-rdc=false" ||
        A == "--relocatable-device-code=false";
  return Off || A == "-fgpu-rdc" || A == "-fcuda-rdc" || A == "-dc" ||
         A == "--device-c" || A == "-rdc=true" ||
         A == "--relocatable-device-code=true";
}

/// The error for relocatable device code.
std::string relocatableDeviceCodeError(StringRef A) {
  return ("relocatable device code ('" + A +
          "') is not supported: klaraptor-clang++ compiles each .cu file's "
          "device code whole with nvcc and embeds it in that file's object; "
          "build without it (kernels and the device functions and variables "
          "they use in one .cu file)")
      .str();
}


/// Recognised file name extensions; everything else is a linker input,
/// as with clang.
InputKind kindFromExtension(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  if (Ext == ".cu")
    return InputKind::Cuda;
  if (is_contained({".cpp", ".cc", ".cxx", ".c++", ".cp", ".C", ".CPP", ".CC",
                    ".CXX", ".C++"},
                   Ext))
    return InputKind::Cxx;
  if (Ext == ".c")
    return InputKind::C;
  if (is_contained({".s", ".S", ".sx", ".i", ".ii", ".ll", ".bc"}, Ext))
    return InputKind::Other;
  return InputKind::Linker;
}

/// Objects and libraries stay linker inputs whatever -x says: a build
/// system's "-x c++" is meant for the sources on the line, not for them.
bool isObjectOrLibrary(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  return is_contained({".o", ".obj", ".a", ".so", ".lo", ".dylib"}, Ext) ||
         sys::path::filename(Path).contains(".so.");
}

/// True for a KLARAPTOR_* value that turns a switch on.
bool isTrue(const std::optional<std::string> &Value) {
  if (!Value)
    return false;
  StringRef V = StringRef(*Value).trim();
  return !(V.empty() || V == "0" || V.equals_insensitive("off") ||
           V.equals_insensitive("false") || V.equals_insensitive("no"));
}

class Parser {
public:
  Parser(ArrayRef<std::string> Args, EnvLookup Env) : Args(Args), Env(Env) {}

  Expected<CommandLine> run();

private:
  /// Matches \p Flag spelled "-Fvalue" (when \p Joined) or "-F value" and
  /// stores the value; a missing value records an error.
  bool takeValue(StringRef Arg, StringRef Flag, std::string &Value,
                 bool Joined = true);
  /// Matches "--name=value" or "--name value".
  bool takeLongValue(StringRef Arg, StringRef Flag, std::string &Value);
  void parseKlaraptorOption(StringRef Arg);
  void addArchs(StringRef List);
  void addInput(StringRef Path);
  void fail(const Twine &Message) {
    if (!Error)
      Error = Message.str();
  }

  ArrayRef<std::string> Args;
  EnvLookup Env;
  size_t I = 0;
  CommandLine CL;
  std::optional<std::string> Error;
  std::string Language; ///< the active -x, empty for none
  bool SawCompile = false, SawAssemble = false, SawPreprocess = false,
       SawSyntaxOnly = false;
  std::vector<std::string> FlagArchs;
  std::optional<std::string> FlagNvccFlags;
};

bool Parser::takeValue(StringRef Arg, StringRef Flag, std::string &Value,
                       bool Joined) {
  if (Arg == Flag) {
    if (I + 1 >= Args.size()) {
      fail("argument to '" + Flag + "' is missing (expected 1 value)");
      Value.clear();
      return true;
    }
    Value = Args[++I];
    return true;
  }
  if (Joined && Arg.starts_with(Flag)) {
    Value = Arg.drop_front(Flag.size()).str();
    return true;
  }
  return false;
}

bool Parser::takeLongValue(StringRef Arg, StringRef Flag, std::string &Value) {
  if (Arg.starts_with(Flag) && Arg.drop_front(Flag.size()).starts_with("=")) {
    Value = Arg.drop_front(Flag.size() + 1).str();
    return true;
  }
  return takeValue(Arg, Flag, Value, /*Joined=*/false);
}

void Parser::addArchs(StringRef List) {
  SmallVector<StringRef, 4> Parts;
  List.split(Parts, ',', -1, /*KeepEmpty=*/false);
  if (Parts.empty())
    fail("expected a CUDA GPU architecture such as 'sm_90'");
  for (StringRef P : Parts)
    FlagArchs.push_back(P.trim().str());
}

void Parser::parseKlaraptorOption(StringRef Arg) {
  std::string Value;
  if (Arg == "--klaraptor-dryrun")
    CL.Options.DryRun = true;
  else if (Arg == "--klaraptor-keep-temps")
    CL.Options.KeepTemps = true;
  else if (Arg == "--klaraptor-verbose")
    CL.Options.Verbose = true;
  else if (Arg == "--klaraptor-emulate")
    CL.Options.Emulate = true;
  else if (takeLongValue(Arg, "--klaraptor-clang-c", Value))
    CL.Options.ClangC = Value;
  else if (takeLongValue(Arg, "--klaraptor-clang", Value))
    CL.Options.Clang = Value;
  else if (takeLongValue(Arg, "--klaraptor-nvcc-flags", Value))
    FlagNvccFlags = Value;
  else if (takeLongValue(Arg, "--klaraptor-nvcc", Value))
    CL.Options.Nvcc = Value;
  else if (takeLongValue(Arg, "--klaraptor-cuda-path", Value))
    CL.Options.CudaPath = Value;
  else if (takeLongValue(Arg, "--klaraptor-arch", Value))
    addArchs(Value);
  else if (takeLongValue(Arg, "--klaraptor-models", Value)) {
    if (Value.empty())
      fail("'--klaraptor-models' expects a directory");
    else
      CL.Options.ModelsDir = Value;
  }
  else
    fail("unknown option '" + Arg + "'");
}

void Parser::addInput(StringRef Path) {
  InputFile In;
  In.Path = Path.str();
  InputKind ByExtension = kindFromExtension(Path);
  if (isObjectOrLibrary(Path) || Language.empty() || Language == "none") {
    In.Kind = ByExtension;
  } else if (Language == "cuda" || Language == "cu") {
    In.Kind = InputKind::Cuda;
  } else if (ByExtension == InputKind::Cuda) {
    // A .cu file is CUDA even under "-x c++": CMake adds that flag to
    // sources whose LANGUAGE is CXX (policy CMP0119), which is how a CMake
    // project hands .cu files to a C++ compiler.
    In.Kind = InputKind::Cuda;
  } else if (Language == "c++") {
    In.Kind = InputKind::Cxx;
  } else if (Language == "c") {
    In.Kind = InputKind::C;
  } else {
    In.Kind = InputKind::Other;
    In.Language = Language;
  }
  LinkItem Item;
  Item.Input = static_cast<int>(CL.Inputs.size());
  CL.LinkLine.push_back(Item);
  CL.Inputs.push_back(std::move(In));
}

Expected<CommandLine> Parser::run() {
  auto Compile = [&](StringRef A) { CL.CompileArgs.push_back(A.str()); };
  auto Link = [&](StringRef A) {
    LinkItem Item;
    Item.Arg = A.str();
    CL.LinkLine.push_back(Item);
  };
  auto Nvcc = [&](StringRef A) { CL.NvccArgs.push_back(A.str()); };

  CL.Raw.assign(Args.begin(), Args.end());
  for (I = 0; I < Args.size() && !Error; ++I) {
    StringRef A = Args[I];
    std::string V;
    if (A.empty())
      continue;
    if (A == "-") {
      fail("reading from standard input is not supported");
      break;
    }
    if (A.front() != '-') {
      addInput(A);
      continue;
    }
    if (A.starts_with("--klaraptor-")) {
      parseKlaraptorOption(A);
      continue;
    }
    bool RdcOff = false;
    if (isRelocatableDeviceCode(A, RdcOff)) {
      // Off is the default: nothing to pass on.
      if (!RdcOff) {
        fail(relocatableDeviceCodeError(A));
        break;
      }
      continue;
    }
    if (A == "-###") {
      CL.Options.DryRun = true;
    } else if (A == "--help" || A == "-help") {
      CL.Options.Help = true;
    } else if (A == "--version") {
      CL.Options.Version = true;
    } else if (A == "-c") {
      SawCompile = true;
    } else if (A == "-S") {
      SawAssemble = true;
    } else if (A == "-E") {
      SawPreprocess = true;
    } else if (A == "-fsyntax-only") {
      SawSyntaxOnly = true;
    } else if (A == "-M" || A == "-MM") {
      // Dependency lists only: clang runs the preprocessor.
      SawPreprocess = true;
      Compile(A);
    } else if (is_contained({"-MD", "-MMD", "-MP", "-MG", "-MV"}, A)) {
      Compile(A);
    } else if (takeValue(A, "-MF", V) || takeValue(A, "-MT", V) ||
               takeValue(A, "-MQ", V)) {
      Compile(A.take_front(3));
      Compile(V);
    } else if (takeValue(A, "-o", V)) {
      CL.Output = V;
    } else if (takeValue(A, "-x", V)) {
      Language = V;
    } else if (A.starts_with("-arch=")) {
      addArchs(A.drop_front(6));
    } else if (takeValue(A, "-arch", V, /*Joined=*/false) ||
               takeLongValue(A, "--cuda-gpu-arch", V) ||
               takeLongValue(A, "--offload-arch", V)) {
      addArchs(V);
    } else if (takeLongValue(A, "--cuda-path", V)) {
      CL.Options.CudaPath = V;
    } else if (A == "--cuda-host-only") {
      // The driver adds it to host compiles itself.
    } else if (takeValue(A, "-I", V) || takeValue(A, "-D", V) ||
               takeValue(A, "-U", V)) {
      std::string Joined = (A.take_front(2) + V).str();
      Compile(Joined);
      Nvcc(Joined);
    } else if (is_contained({"-include-pch", "-isystem-after", "-iquote",
                             "-idirafter", "-imacros", "-iprefix",
                             "-iwithprefix", "-iwithprefixbefore",
                             "-iwithsysroot", "-isysroot", "-ivfsoverlay"},
                            A) &&
               takeValue(A, A, V)) {
      // clang-only preprocessor flags; checked before their prefixes below.
      Compile(A);
      Compile(V);
    } else if (takeValue(A, "-isystem", V) || takeValue(A, "-include", V)) {
      StringRef Flag = A.starts_with("-isystem") ? "-isystem" : "-include";
      Compile(Flag);
      Compile(V);
      Nvcc(Flag);
      Nvcc(V);
    } else if (A.starts_with("-std=")) {
      StringRef Std = A.drop_front(5);
      if (Std.contains("++"))
        CL.StdCxx = Std.str();
      else
        CL.StdC = Std.str();
    } else if (A.starts_with("-O")) {
      CL.OptLevel = A.str();
      Compile(A);
    } else if (takeValue(A, "-gcc-toolchain", V, /*Joined=*/false)) {
      Compile(A);
      Compile(V);
      Link(A);
      Link(V);
    } else if (A.starts_with("-g")) {
      CL.DebugInfo = A != "-g0";
      Compile(A);
    } else if (takeValue(A, "-l", V)) {
      CL.LinksLibCuda |= V == "cuda";
      Link("-l" + V);
    } else if (takeValue(A, "-L", V)) {
      Link("-L" + V);
    } else if (A.starts_with("-Wl,") || A.starts_with("-fuse-ld=") ||
               A.starts_with("--ld-path=") ||
               is_contained({"-shared", "-static", "-static-pie", "-rdynamic",
                             "-pie", "-no-pie", "-nostdlib", "-nostdlib++",
                             "-nostartfiles", "-nodefaultlibs",
                             "-static-libstdc++", "-static-libgcc", "-s"},
                            A)) {
      Link(A);
    } else if (is_contained({"-Xlinker", "-z", "-T", "-u"}, A) &&
               takeValue(A, A, V)) {
      Link(A);
      Link(V);
    } else if (A == "-pthread") {
      Compile(A);
      Link(A);
    } else if (is_contained({"-Xclang", "-mllvm", "-Xpreprocessor",
                             "-Xassembler", "-Xanalyzer"},
                            A) &&
               takeValue(A, A, V)) {
      Compile(A);
      Compile(V);
    } else if (takeValue(A, "-Xnvcc", V, /*Joined=*/false)) {
      CL.Options.NvccFlags.push_back(V);
    } else if (takeValue(A, "-Xcuda-ptxas", V, /*Joined=*/false)) {
      Nvcc("-Xptxas");
      Nvcc(V);
    } else if (takeValue(A, "-Xcuda-fatbinary", V, /*Joined=*/false)) {
      Nvcc("-Xfatbin");
      Nvcc(V);
    } else if (is_contained({"-target", "-B", "--sysroot", "--gcc-toolchain",
                             "-Xopenmp-target", "-working-directory"},
                            A) &&
               takeValue(A, A, V)) {
      Compile(A);
      Compile(V);
      Link(A);
      Link(V);
    } else {
      // Unknown to the driver: clang gets it, at compile and link time,
      // as it would if it ran both steps itself.
      CL.HasQuery |= A == "-v" || A.starts_with("-dump") ||
                     A.starts_with("-print-") || A.starts_with("--print-");
      Compile(A);
      Link(A);
    }
  }
  if (Error)
    return createStringError(inconvertibleErrorCode(), *Error);

  if (SawPreprocess)
    CL.Mode = DriverMode::Preprocess;
  else if (SawSyntaxOnly)
    CL.Mode = DriverMode::SyntaxOnly;
  else if (SawAssemble)
    CL.Mode = DriverMode::Assemble;
  else if (SawCompile)
    CL.Mode = DriverMode::Compile;

  // Flags win; the environment fills in the rest.
  Settings &S = CL.Options;
  auto FromEnv = [&](std::optional<std::string> &Field, StringRef Name) {
    if (!Field)
      if (std::optional<std::string> V = Env(Name); V && !V->empty())
        Field = V;
  };
  FromEnv(S.Clang, "KLARAPTOR_CLANG");
  FromEnv(S.ClangC, "KLARAPTOR_CLANG_C");
  FromEnv(S.Nvcc, "KLARAPTOR_NVCC");
  FromEnv(S.CudaPath, "KLARAPTOR_CUDA_PATH");
  FromEnv(S.ModelsDir, "KLARAPTOR_MODELS");
  S.DryRun |= isTrue(Env("KLARAPTOR_DRYRUN"));
  S.KeepTemps |= isTrue(Env("KLARAPTOR_KEEP_TEMPS"));
  S.Verbose |= isTrue(Env("KLARAPTOR_VERBOSE"));
  S.Emulate |= isTrue(Env("KLARAPTOR_EMULATE"));
  if (!FlagNvccFlags)
    FlagNvccFlags = Env("KLARAPTOR_NVCC_FLAGS");
  if (FlagNvccFlags) {
    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    SmallVector<const char *, 8> Tokens;
    cl::TokenizeGNUCommandLine(*FlagNvccFlags, Saver, Tokens);
    std::vector<std::string> Flags(Tokens.begin(), Tokens.end());
    // -Xnvcc arguments come after the variable's, so they can override it.
    Flags.insert(Flags.end(), S.NvccFlags.begin(), S.NvccFlags.end());
    S.NvccFlags = std::move(Flags);
  }
  for (const std::string &F : S.NvccFlags) {
    bool RdcOff = false;
    if (isRelocatableDeviceCode(F, RdcOff) && !RdcOff)
      return createStringError(inconvertibleErrorCode(),
                               relocatableDeviceCodeError(F));
  }
  if (FlagArchs.empty())
    if (std::optional<std::string> V = Env("KLARAPTOR_ARCH"); V && !V->empty())
      addArchs(*V);
  if (FlagArchs.empty())
    FlagArchs.push_back("sm_90");
  for (const std::string &Arch : FlagArchs) {
    if (!isSupportedGpuArch(Arch))
      return createStringError(
          inconvertibleErrorCode(),
          "unsupported CUDA GPU architecture '%s': expected sm_NN, sm_NNa or "
          "sm_NNf with NN >= 75 (CUDA 13 supports sm_75 and newer)",
          Arch.c_str());
    if (!is_contained(S.Archs, Arch))
      S.Archs.push_back(Arch);
  }
  if (Error)
    return createStringError(inconvertibleErrorCode(), *Error);
  return std::move(CL);
}

} // namespace

Expected<CommandLine> parseCommandLine(ArrayRef<std::string> Args,
                                       EnvLookup Env) {
  return Parser(Args, Env).run();
}

} // namespace klaraptor
