//===- Compilation.cpp - the commands of one driver run -------------------===//
///
/// \file
/// See Compilation.h; docs/cli.md describes the same rules for users.
//===----------------------------------------------------------------------===//
#include "Compilation.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace klaraptor {

static constexpr const char *DriverName = "klaraptor-clang++";

Compilation::~Compilation() {
  if (TempDir.empty())
    return;
  if (CL.Options.KeepTemps && !CL.Options.DryRun) {
    WithColor::note(errs(), DriverName)
        << "temporary files kept in '" << TempDir << "'\n";
    return;
  }
  sys::fs::remove_directories(TempDir);
}

Expected<std::string> Compilation::tempFile(StringRef Stem,
                                            StringRef Extension) {
  if (TempDir.empty()) {
    SmallString<128> Dir;
    if (std::error_code EC = sys::fs::createUniqueDirectory("klaraptor", Dir))
      return createStringError(EC, "cannot create a temporary directory: %s",
                               EC.message().c_str());
    TempDir = std::string(Dir);
  }
  std::string Name = (Stem + Extension).str();
  for (unsigned N = 1; !TempNames.insert(Name).second; ++N)
    Name = (Stem + "-" + Twine(N) + Extension).str();
  SmallString<128> Path(TempDir);
  sys::path::append(Path, Name);
  if (!CL.Options.KeepTemps)
    sys::RemoveFileOnSignal(Path);
  return std::string(Path);
}

StringRef Compilation::modeFlag() const {
  switch (CL.Mode) {
  case DriverMode::Link:
  case DriverMode::Compile:
    return "-c";
  case DriverMode::Assemble:
    return "-S";
  case DriverMode::Preprocess:
    return "-E";
  case DriverMode::SyntaxOnly:
    return "-fsyntax-only";
  }
  llvm_unreachable("unknown mode");
}

void Compilation::finishCompile(Job &J, const InputFile &In,
                                const std::string &Output) {
  J.Args.push_back(modeFlag().str());
  J.Args.push_back(In.Path);
  if (!Output.empty()) {
    J.Args.push_back("-o");
    J.Args.push_back(Output);
  }
}

void Compilation::addNvcc(const InputFile &In, const std::string &Fatbin) {
  Job J;
  J.Program = Tool::Nvcc;
  // --no-compress leaves the PTX readable in the fatbin, for the emulator.
  J.Args = {"-fatbin", "--no-compress"};
  for (const std::string &Arch : CL.Options.Archs) {
    // Machine code for the GPU, and PTX so newer GPUs can JIT it.
    std::string Virtual = "compute_" + Arch.substr(3);
    J.Args.push_back("-gencode");
    J.Args.push_back("arch=" + Virtual + ",code=" + Arch);
    J.Args.push_back("-gencode");
    J.Args.push_back("arch=" + Virtual + ",code=" + Virtual);
  }
  if (!CL.StdCxx.empty()) {
    std::string Std = nvccStandard(CL.StdCxx);
    if (Std.empty()) {
      Std = "c++20";
      WithColor::warning(errs(), DriverName)
          << "nvcc does not support '-std=" << CL.StdCxx
          << "': device code is compiled as " << Std << "\n";
    }
    J.Args.push_back("-std=" + Std);
  }
  // nvcc's -O is for host code, which it does not compile here; only the
  // levels it knows are passed on.
  if (StringRef Opt = CL.OptLevel; !Opt.empty())
    J.Args.push_back(StringSwitch<std::string>(Opt)
                         .Cases("-O0", "-O1", "-O2", "-O3", Opt.str())
                         .Case("-Ofast", "-O3")
                         .Default("-O1"));
  // -G would change device code generation; -lineinfo keeps it.
  if (CL.DebugInfo)
    J.Args.push_back("-lineinfo");
  J.Args.insert(J.Args.end(), CL.NvccArgs.begin(), CL.NvccArgs.end());
  J.Args.push_back("-I" + TC.RtInclude);
  // What clang's CUDA allows without a flag, and so the host compile
  // accepts: __device__ lambdas and constexpr host functions called from
  // device code. nvcc needs flags for both.
  J.Args.push_back("--extended-lambda");
  J.Args.push_back("--expt-relaxed-constexpr");
  J.Args.insert(J.Args.end(), CL.Options.NvccFlags.begin(),
                CL.Options.NvccFlags.end());
  if (sys::path::extension(In.Path) != ".cu") {
    J.Args.push_back("-x");
    J.Args.push_back("cu");
  }
  J.Args.push_back(In.Path);
  J.Args.push_back("-o");
  J.Args.push_back(Fatbin);
  Jobs.push_back(std::move(J));
}

void Compilation::addCudaHost(const InputFile &In, const std::string &Fatbin,
                              const std::string &Output) {
  Job J;
  J.Program = Tool::Clang;
  J.Args = {"-x", "cuda", "--cuda-host-only", "--cuda-path=" + TC.CudaPath};
  for (const std::string &Arch : Toolchain::hostArchs(CL.Options.Archs))
    J.Args.push_back("--cuda-gpu-arch=" + Arch);
  std::string ArchList = Toolchain::cudaArchList(CL.Options.Archs);
  if (!ArchList.empty())
    J.Args.push_back("-D__CUDA_ARCH_LIST__=" + ArchList);
  J.Args.insert(J.Args.end(),
                {"-Wno-unknown-cuda-version", "-isystem", TC.Shim, "-isystem",
                 TC.cudaCcclInclude(), "-include",
                 TC.Shim + "/klaraptor_host_defines.h",
                 "-fplugin=" + TC.Plugin, "-fpass-plugin=" + TC.Plugin});
  if (!Fatbin.empty())
    J.Args.insert(J.Args.end(),
                  {"-Xclang", "-fcuda-include-gpubinary", "-Xclang", Fatbin});
  if (!CL.StdCxx.empty())
    J.Args.push_back("-std=" + CL.StdCxx);
  J.Args.insert(J.Args.end(), CL.CompileArgs.begin(), CL.CompileArgs.end());
  J.Args.push_back("-I" + TC.RtInclude);
  finishCompile(J, In, Output);
  J.Needs = {{"the klaraptor plugin", TC.Plugin},
             {"the CUDA texture shim", TC.Shim}};
  Jobs.push_back(std::move(J));
}

void Compilation::addClang(const InputFile &In, const std::string &Output) {
  Job J;
  J.Program = In.Kind == InputKind::C ? Tool::ClangC : Tool::Clang;
  if (In.Kind == InputKind::Other) {
    if (!In.Language.empty())
      J.Args = {"-x", In.Language};
    if (StringRef(In.Language).starts_with("c++") && !CL.StdCxx.empty())
      J.Args.push_back("-std=" + CL.StdCxx);
    J.Args.insert(J.Args.end(), CL.CompileArgs.begin(), CL.CompileArgs.end());
    finishCompile(J, In, Output);
    Jobs.push_back(std::move(J));
    return;
  }
  bool IsC = In.Kind == InputKind::C;
  // Only the pass plugin: it hooks cuLaunchKernel calls in plain C and C++.
  J.Args = {"-x", IsC ? "c" : "c++", "-fpass-plugin=" + TC.Plugin};
  const std::string &Std = IsC ? CL.StdC : CL.StdCxx;
  if (!Std.empty())
    J.Args.push_back("-std=" + Std);
  J.Args.insert(J.Args.end(), CL.CompileArgs.begin(), CL.CompileArgs.end());
  J.Args.insert(J.Args.end(),
                {"-isystem", TC.cudaInclude(), "-I" + TC.RtInclude});
  finishCompile(J, In, Output);
  J.Needs = {{"the klaraptor plugin", TC.Plugin}};
  Jobs.push_back(std::move(J));
}

void Compilation::addLink(const std::vector<std::string> &Objects) {
  Job J;
  J.Program = Tool::Clang;
  for (const LinkItem &Item : CL.LinkLine) {
    // Under emulation libklaraptor_emu_cudart provides both the runtime and
    // the driver API; the real libraries must not come first.
    if (Item.Input < 0 && CL.Options.Emulate &&
        is_contained({"-lcuda", "-lcudart", "-lcudart_static"}, Item.Arg))
      continue;
    if (Item.Input < 0)
      J.Args.push_back(Item.Arg);
    else
      J.Args.push_back(Objects[Item.Input]);
  }
  if (CL.Output) {
    J.Args.push_back("-o");
    J.Args.push_back(*CL.Output);
  }
  // The rational programs call klaraptor_mwp_cwp_ns (libklaraptor_model,
  // which needs libklaraptor_devices); the archives by path, so a shared
  // library of the same name elsewhere cannot stand in.
  if (!ModelObjects.empty()) {
    J.Args.insert(J.Args.end(), ModelObjects.begin(), ModelObjects.end());
    J.Args.insert(J.Args.end(), {TC.ModelLib, TC.DevicesLib});
  }
  J.Args.insert(J.Args.end(), {"-L" + TC.LibDir, "-lklaraptor_rt"});
  if (CL.Options.Emulate)
    J.Args.push_back("-lklaraptor_emu_cudart");
  J.Args.insert(J.Args.end(), {"-Wl,-rpath," + TC.LibDir, "-L" + TC.cudaLib()});
  if (!CL.Options.Emulate)
    J.Args.push_back("-lcudart");
  J.Args.insert(J.Args.end(),
                {"-Wl,-rpath," + TC.cudaLib(), "-ldl", "-lpthread"});
  // libcuda.so is the driver's; link against the stub, but never put the
  // stub directory on the run path.
  if (CL.LinksLibCuda && !CL.Options.Emulate)
    J.Args.push_back("-L" + TC.cudaStubs());
  J.Needs = {{"the klaraptor runtime", TC.Runtime}};
  if (!ModelObjects.empty()) {
    J.Needs.push_back({"the MWP-CWP model library", TC.ModelLib});
    J.Needs.push_back({"the device profiles library", TC.DevicesLib});
  }
  if (CL.Options.Emulate)
    J.Needs.push_back({"the emulated CUDA runtime", TC.EmuCudart});
  Jobs.push_back(std::move(J));
}

Error Compilation::addModels() {
  const std::string &Dir = *CL.Options.ModelsDir;
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "--klaraptor-models: '" + Dir + "': " + Why);
  };
  if (!sys::fs::is_directory(Dir))
    return Fail(sys::fs::exists(Dir)
                    ? "not a directory"
                    : "no such directory (run 'klaraptor fit --out DIR' "
                      "first)");
  std::vector<std::string> Programs;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::path::extension(It->path()) == ".c" &&
        !sys::fs::is_directory(It->path()))
      Programs.push_back(It->path());
  if (EC)
    return Fail("cannot read the directory: " + EC.message());
  if (Programs.empty())
    return Fail("no rational programs (.c files) in the directory");
  llvm::sort(Programs);
  for (const std::string &Program : Programs) {
    Expected<std::string> Object =
        tempFile(sys::path::stem(Program), ".model.o");
    if (!Object)
      return Object.takeError();
    Job J;
    J.Program = Tool::ClangC;
    J.Args = {"-x",
              "c",
              "-O2",
              "-fPIC",
              "-I" + TC.RtInclude,
              "-c",
              Program,
              "-o",
              *Object};
    Jobs.push_back(std::move(J));
    ModelObjects.push_back(*Object);
  }
  return Error::success();
}

void Compilation::addQuery() {
  Job J;
  J.Program = Tool::Clang;
  for (const std::string &Arg : CL.Raw)
    if (!StringRef(Arg).starts_with("--klaraptor-") && Arg != "-###")
      J.Args.push_back(Arg);
  Jobs.push_back(std::move(J));
}

Error Compilation::build() {
  auto Fail = [](const Twine &Message) {
    return createStringError(inconvertibleErrorCode(), Message);
  };
  if (CL.Options.Emulate && !sys::fs::exists(TC.EmuCudart))
    return Fail("'--klaraptor-emulate' needs the emulated CUDA runtime, which "
                "is not built ('" +
                TC.EmuCudart + "' does not exist)");
  if (CL.Inputs.empty()) {
    if (CL.HasQuery) {
      addQuery();
      return Error::success();
    }
    return Fail("no input files");
  }

  unsigned Sources = 0;
  for (const InputFile &In : CL.Inputs) {
    if (In.Kind != InputKind::Linker)
      ++Sources;
    if (std::error_code EC =
            sys::fs::access(In.Path, sys::fs::AccessMode::Exist))
      return Fail("cannot read input file '" + In.Path + "': " + EC.message());
    int FD;
    if (std::error_code EC = sys::fs::openFileForRead(In.Path, FD))
      return Fail("cannot read input file '" + In.Path + "': " + EC.message());
    sys::Process::SafelyCloseFileDescriptor(FD);
  }
  if (CL.Output && Sources > 1 &&
      (CL.Mode == DriverMode::Compile || CL.Mode == DriverMode::Assemble ||
       CL.Mode == DriverMode::Preprocess))
    return Fail("cannot specify '-o' with '" + modeFlag() +
                "' and several input files");

  std::vector<std::string> Objects(CL.Inputs.size());
  for (size_t Index = 0; Index < CL.Inputs.size(); ++Index) {
    const InputFile &In = CL.Inputs[Index];
    StringRef Stem = sys::path::stem(In.Path);
    if (In.Kind == InputKind::Linker) {
      if (CL.Mode != DriverMode::Link)
        WithColor::warning(errs(), DriverName)
            << In.Path << ": linker input unused because linking is not done\n";
      Objects[Index] = In.Path;
      continue;
    }
    std::string Output;
    switch (CL.Mode) {
    case DriverMode::Link: {
      Expected<std::string> Temp = tempFile(Stem, ".o");
      if (!Temp)
        return Temp.takeError();
      Output = *Temp;
      break;
    }
    case DriverMode::Compile:
      Output = CL.Output.value_or((Stem + ".o").str());
      break;
    case DriverMode::Assemble:
      Output = CL.Output.value_or((Stem + ".s").str());
      break;
    case DriverMode::Preprocess:
      Output = CL.Output.value_or("");
      break;
    case DriverMode::SyntaxOnly:
      break;
    }
    Objects[Index] = Output;

    if (In.Kind != InputKind::Cuda) {
      addClang(In, Output);
      continue;
    }
    // Device code only when there is an object to embed it in.
    std::string Fatbin;
    if (CL.Mode == DriverMode::Link || CL.Mode == DriverMode::Compile) {
      Expected<std::string> Temp = tempFile(Stem, ".fatbin");
      if (!Temp)
        return Temp.takeError();
      Fatbin = *Temp;
      addNvcc(In, Fatbin);
    }
    addCudaHost(In, Fatbin, Output);
  }
  if (CL.Options.ModelsDir) {
    if (CL.Mode == DriverMode::Link) {
      if (Error E = addModels())
        return E;
    } else {
      WithColor::warning(errs(), DriverName)
          << "--klaraptor-models unused because linking is not done\n";
    }
  }
  if (CL.Mode == DriverMode::Link)
    addLink(Objects);
  return Error::success();
}

int Compilation::execute() {
  const Settings &S = CL.Options;
  std::vector<std::string> Programs;
  for (const Job &J : Jobs) {
    Expected<std::string> Path = TC.locate(J.Program);
    if (Path) {
      Programs.push_back(*Path);
      continue;
    }
    if (!S.DryRun) {
      WithColor::error(errs(), DriverName)
          << toString(Path.takeError()) << "\n";
      return 1;
    }
    consumeError(Path.takeError());
    Programs.push_back(TC.configured(J.Program));
  }
  if (!S.DryRun)
    for (const Job &J : Jobs)
      for (const auto &[What, Path] : J.Needs)
        if (!sys::fs::exists(Path)) {
          WithColor::error(errs(), DriverName)
              << "cannot find " << What << " '" << Path << "'\n";
          return 1;
        }

  for (size_t Index = 0; Index < Jobs.size(); ++Index) {
    const Job &J = Jobs[Index];
    if (S.DryRun) {
      J.print(outs(), Programs[Index]);
      continue;
    }
    if (S.Verbose) {
      J.print(errs(), Programs[Index]);
      errs().flush();
    }
    std::vector<StringRef> Argv = {Programs[Index]};
    Argv.insert(Argv.end(), J.Args.begin(), J.Args.end());
    std::string ErrMsg;
    bool ExecutionFailed = false;
    int RC = sys::ExecuteAndWait(Programs[Index], Argv, std::nullopt, {}, 0, 0,
                                 &ErrMsg, &ExecutionFailed);
    if (RC == 0)
      continue;
    StringRef Name = sys::path::filename(Programs[Index]);
    if (ExecutionFailed)
      WithColor::error(errs(), DriverName)
          << "cannot run '" << Programs[Index] << "': " << ErrMsg << "\n";
    else if (RC < 0)
      WithColor::error(errs(), DriverName)
          << "'" << Name << "' crashed: " << ErrMsg << "\n";
    else
      WithColor::error(errs(), DriverName)
          << "'" << Name << "' failed with exit code " << RC
          << " (use --klaraptor-verbose to see the command)\n";
    return RC > 0 ? RC : 1;
  }
  return 0;
}

} // namespace klaraptor
