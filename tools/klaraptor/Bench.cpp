//===- Bench.cpp - klaraptor bench: the tuning loop against exhaustive search -===//
///
/// \file
/// `klaraptor bench` runs the whole self-tuning loop on each program of a
/// manifest and measures how good its choices are:
///   1. build the program for the emulator (klaraptor-clang++
///      --klaraptor-emulate);
///   2. `klaraptor profile` it at the small training sizes;
///   3. `klaraptor fit` the profile into rational programs;
///   4. rebuild it with `--klaraptor-models`;
///   5. run it at the large test sizes with KLARAPTOR_BENCH (each new
///      decision is followed by an estimate of every admissible shape) and
///      KLARAPTOR_EMU_EXECUTE=0 (the launches themselves are not executed);
///   6. per launch: best/chosen time, where best is the least estimated time
///      over every admissible shape and chosen the estimate of the shape the
///      rational program chose; also best/requested (the program's own
///      shape). Geometric mean and worst case, the costs of profiling and
///      fitting against those of the exhaustive search, the decision cost.
/// On the emulator every time is the abstract-emulation estimate
/// (docs/timing.md) of the device profile chosen with --device. With
/// --backend cupti the programs are built for the GPU, profiled by the cupti
/// backend and every shape at the test sizes is timed with CUDA events
/// (`klaraptor bench --backend cupti` itself has not run on a GPU yet; the
/// backend and the dataset tools have, docs/cupti.md).
///
/// Manifest lines (`#` starts a comment):
///   NAME SOURCE [train=LIST] [test=LIST] -- ARGS...
/// SOURCE is relative to the manifest's folder, which is also an include
/// folder; `{N}` in ARGS is the size.
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "DatasetFile.h"
#include "JsonLine.h"
#include "Options.h"
#include "Process.h"
#include "KernelSpec.h"
#include "klaraptor/model/KernelFit.h"
#include "ProfileDb.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>


namespace klaraptor {
namespace cli {

const char *benchUsage() {
  return "USAGE: klaraptor bench [OPTIONS]\n\n"
         "For each program of the manifest: build it for the emulator, "
         "profile it at the\ntraining sizes, fit, rebuild it with the "
         "rational programs, run it at the test\nsizes and compare each "
         "launch's chosen block shape with the best of every\nadmissible "
         "shape (abstract-emulation estimates on the same device).\n\n"
         "OPTIONS:\n"
         "  --manifest FILE     programs to run (default: the examples' "
         "manifest,\n                      PREFIX/share/klaraptor/examples/"
         "bench.manifest when\n                      installed, else the "
         "source tree's)\n"
         "  --only NAME,...     only these programs of the manifest\n"
         "  --train-sizes LIST  override every program's training sizes\n"
         "  --test-sizes LIST   override every program's test sizes\n"
         "  --device NAME       device profile: the emulated device (default "
         "h100-sxm);\n"
         "                      with cupti, the hardware parameters the "
         "rational programs use\n"
         "  --model NAME        the model the rational programs evaluate: "
         "mwp-cwp-lines\n"
         "                      (default), mwp-cwp, waves or roofline (klaraptor "
         "fit --model)\n"
         "  --backend emu|cupti emu (default): build for the emulator, times "
         "are estimates;\n"
         "                      cupti: build for this GPU, times are "
         "CUDA-event medians\n"
         "  --work DIR          working folder (default klaraptor-bench)\n"
         "  --execute           emu: run the kernels at the test sizes too "
         "(slower), for\n"
         "                      programs whose result check cannot be "
         "turned off\n"
         "  --json FILE         write every launch's figures as JSON\n"
         "  --markdown FILE     write the launch table and summary as "
         "Markdown\n"
         "\n"
         "MANIFEST: one program per line, '#' starts a comment:\n"
         "  NAME SOURCE [train=SIZES] [test=SIZES] [flags=F,...] -- ARGS...\n"
         "  SOURCE      the .cu file, relative to the manifest's folder (also "
         "an include folder)\n"
         "  SIZES       16,32,64 for the placeholder {N} in ARGS, or "
         "R=16,32;C=8,16 for\n"
         "              several ({R}, {C}: every combination); default "
         "train 32,64,128,256,\n"
         "              test 512,1024,2048 (--train-sizes/--test-sizes "
         "take the same forms)\n"
         "  flags=F,... extra compile flags (e.g. flags=-DUSE_X,-std=c++17)\n"
         "  ARGS        the program's arguments; add the program's own option "
         "that skips its\n"
         "              result check (e.g. --no-check): on the emulator the "
         "kernels are not\n"
         "              executed at the test sizes (unless --execute), so "
         "results are\n"
         "              meaningless there\n"
         "Example: gemm gemm/gemm.cu train=16,32,64 test=512 -- {N} {N} "
         "{N} --no-check\n";
}

namespace {

struct Program {
  std::string Name, Source, Train, Test;
  std::vector<std::string> Args;
  std::vector<std::string> Flags; ///< flags=A,B: extra compile flags
  unsigned Line = 0;
};

/// Sizes of one or several data parameters: `16,32,64` (the placeholder
/// {N}) or `R=16,32;C=8,16` (every combination of {R} and {C}), in the
/// order written.
using SizeSpec = std::vector<std::pair<std::string, std::vector<std::string>>>;

bool parseSizeSpec(const std::string &Text, SizeSpec &Out, std::string &Error) {
  Out.clear();
  std::stringstream Parts(Text);
  for (std::string Part; std::getline(Parts, Part, ';');) {
    std::string Name = "N", List = Part;
    if (size_t Eq = Part.find('='); Eq != std::string::npos) {
      Name = Part.substr(0, Eq);
      List = Part.substr(Eq + 1);
    } else if (Text.find('=') != std::string::npos) {
      Error = "'" + Part + "' in '" + Text + "' has no NAME= (give every "
              "parameter a name when there are several)";
      return false;
    }
    bool Ident = !Name.empty() && !std::isdigit((unsigned char)Name[0]);
    for (char C : Name)
      Ident &= std::isalnum((unsigned char)C) || C == '_';
    if (!Ident) {
      Error = "'" + Name + "' in '" + Text + "' is not a parameter name";
      return false;
    }
    for (const auto &KV : Out)
      if (KV.first == Name) {
        Error = "'" + Name + "' is given twice in '" + Text + "'";
        return false;
      }
    std::vector<int64_t> Numbers;
    if (!parseList(List, Numbers, Error, Text))
      return false;
    std::vector<std::string> Values;
    for (int64_t V : Numbers)
      Values.push_back(std::to_string(V));
    Out.push_back({Name, Values});
  }
  if (Out.empty()) {
    Error = "no sizes in '" + Text + "'";
    return false;
  }
  return true;
}

/// Every combination of \p S, the first name varying slowest.
std::vector<std::vector<std::pair<std::string, std::string>>>
sizeTuples(const SizeSpec &S) {
  std::vector<std::vector<std::pair<std::string, std::string>>> Out = {{}};
  for (const auto &[Name, Values] : S) {
    std::vector<std::vector<std::pair<std::string, std::string>>> Next;
    for (const auto &T : Out)
      for (const std::string &V : Values) {
        Next.push_back(T);
        Next.back().push_back({Name, V});
      }
    Out = std::move(Next);
  }
  return Out;
}

bool readManifest(const std::string &Path, std::vector<Program> &Out,
                  std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = "cannot read the manifest '" + Path + "'";
    return false;
  }
  std::string Text;
  unsigned LineNo = 0;
  while (std::getline(In, Text)) {
    ++LineNo;
    size_t Hash = Text.find('#');
    if (Hash != std::string::npos)
      Text.resize(Hash);
    std::istringstream SS(Text);
    std::vector<std::string> W;
    for (std::string S; SS >> S;)
      W.push_back(S);
    if (W.empty())
      continue;
    auto Where = Path + ":" + std::to_string(LineNo) + ": ";
    Program P;
    P.Line = LineNo;
    size_t I = 0;
    bool Dashes = false;
    for (; I < W.size(); ++I) {
      if (W[I] == "--") {
        Dashes = true;
        ++I;
        break;
      }
      if (W[I].rfind("flags=", 0) == 0) {
        std::stringstream FS(W[I].substr(6));
        for (std::string F; std::getline(FS, F, ',');)
          if (!F.empty())
            P.Flags.push_back(F);
      } else if (W[I].rfind("train=", 0) == 0)
        P.Train = W[I].substr(6);
      else if (W[I].rfind("test=", 0) == 0)
        P.Test = W[I].substr(5);
      else if (P.Name.empty())
        P.Name = W[I];
      else if (P.Source.empty())
        P.Source = W[I];
      else {
        Error = Where + "unexpected '" + W[I] + "' (NAME SOURCE [train=LIST] "
                "[test=LIST] [flags=F,...] -- ARGS...)";
        return false;
      }
    }
    if (P.Source.empty() || !Dashes) {
      Error = Where + "expected NAME SOURCE [train=LIST] [test=LIST] "
              "[flags=F,...] -- ARGS...";
      return false;
    }
    P.Args.assign(W.begin() + long(I), W.end());
    // Every size parameter is a placeholder of the arguments.
    for (const std::string *List : {&P.Train, &P.Test}) {
      SizeSpec Spec;
      if (List->empty())
        Spec = {{"N", {"1"}}};
      else if (!parseSizeSpec(*List, Spec, Error)) {
        Error = Where + Error;
        return false;
      }
      for (const auto &KV : Spec) {
        bool Has = false;
        for (const std::string &A : P.Args)
          Has |= A.find("{" + KV.first + "}") != std::string::npos;
        if (!Has) {
          Error = Where + "the arguments of '" + P.Name + "' have no {" +
                  KV.first + "}";
          return false;
        }
      }
    }
    Out.push_back(std::move(P));
  }
  if (Out.empty()) {
    Error = Path + ": no program";
    return false;
  }
  return true;
}

std::string folderOf(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash);
}

std::string substitute(const std::string &S,
                       const std::vector<std::pair<std::string, std::string>> &T) {
  std::string Out = S;
  for (const auto &[Name, V] : T) {
    const std::string Key = "{" + Name + "}";
    for (size_t P; (P = Out.find(Key)) != std::string::npos;)
      Out.replace(P, Key.size(), V);
  }
  return Out;
}

/// "R=160,C=80": a test run's label, in the order the sizes were given.
std::string tupleLabel(const std::vector<std::pair<std::string, std::string>> &T) {
  std::string L;
  for (const auto &[Name, V] : T)
    L += (L.empty() ? "" : ",") + Name + "=" + V;
  return L;
}

/// "160-80": a test run's part of its log file's name (run-160-80.txt).
std::string tupleFileTag(const std::vector<std::pair<std::string, std::string>> &T) {
  std::string L;
  for (const auto &KV : T)
    L += (L.empty() ? "" : "-") + KV.second;
  return L;
}

double seconds(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
      .count();
}

/// "32x8x1": a record's [x, y, z].
std::string dimText(const llvm::json::Value *V) {
  const llvm::json::Array *A = V ? V->getAsArray() : nullptr;
  std::string S;
  for (size_t I = 0; I < 3; ++I)
    S += (I ? "x" : "") +
         std::to_string(int64_t(
             A && I < A->size() ? (*A)[I].getAsNumber().value_or(0) : 0));
  return S;
}

/// The block of a record's \p Key ("requested", "chosen").
std::string blockText(const llvm::json::Object &J, llvm::StringRef Key) {
  const llvm::json::Object *Launch = J.getObject(Key);
  return dimText(Launch ? Launch->get("block") : nullptr);
}

/// "R=160,C=80": the names in \p Order (the pragma's data order) first, then
/// any others by name.
std::string dataText(const llvm::json::Object *D,
                     const std::vector<std::string> &Order) {
  std::string S;
  if (!D)
    return S;
  auto Add = [&](llvm::StringRef K) {
    S += (S.empty() ? "" : ",") + K.str() + "=" +
         std::to_string(int64_t(D->getNumber(K).value_or(0)));
  };
  for (const std::string &K : Order)
    if (D->get(K))
      Add(K);
  for (const auto &[K, V] : sortedMembers(*D))
    if (!llvm::is_contained(Order, K))
      Add(K);
  return S;
}

std::string fmtNs(double Ns) {
  char B[32];
  if (!std::isfinite(Ns))
    return "n/a";
  if (Ns >= 1e6)
    std::snprintf(B, sizeof(B), "%.3f ms", Ns / 1e6);
  else if (Ns >= 1e3)
    std::snprintf(B, sizeof(B), "%.2f us", Ns / 1e3);
  else
    std::snprintf(B, sizeof(B), "%.0f ns", Ns);
  return B;
}

/// One benchmarked launch.
struct Row {
  std::string Program, Kernel, Data, Requested, Chosen, Best, Source;
  unsigned Candidates = 0;
  double BestNs = NAN, ChosenNs = NAN, RequestedNs = NAN, DecisionNs = NAN;
  double SearchSeconds = 0, SearchGpuNs = 0;
  double ratio() const { return BestNs / ChosenNs; }
  double ratioRequested() const { return BestNs / RequestedNs; }
};

/// The costs of one program's loop.
struct Costs {
  std::string Program;
  double ProfileSeconds = 0, FitSeconds = 0, ProfileGpuNs = 0;
  double SearchSeconds = 0, SearchGpuNs = 0;
  unsigned Samples = 0;
  /// The data sizes (test tuples) the search served.
  unsigned Sizes = 0;
  /// The search's host time per data size served.
  double searchPerSize() const {
    return Sizes ? SearchSeconds / Sizes : 0.0;
  }
  /// After how many new data sizes the loop (profiling and fitting, paid
  /// once) has cost less host time than searching every size: the loop's
  /// time over the search's per size. NAN without a search.
  double breakEvenSizes() const {
    return searchPerSize() > 0 ? (ProfileSeconds + FitSeconds) / searchPerSize()
                               : NAN;
  }
};

/// \p V printed with \p Fmt, or \p Otherwise when it is not finite.
std::string finiteOr(double V, const char *Fmt, const char *Otherwise) {
  if (!std::isfinite(V))
    return Otherwise;
  char B[64];
  std::snprintf(B, sizeof(B), Fmt, V);
  return B;
}

/// Reads the KLARAPTOR_BENCH records at \p Path; \p DataOrder gives each
/// kernel's data parameters in its pragma's order (by device name).
bool readBench(const std::string &Path, const std::string &Program,
               const std::map<std::string, std::vector<std::string>> &DataOrder,
               std::vector<Row> &Rows, std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = "no bench records in '" + Path +
            "': did the program make any launch decision?";
    return false;
  }
  std::string Line;
  unsigned N = 0;
  while (std::getline(In, Line)) {
    ++N;
    llvm::Expected<llvm::json::Value> Parsed = parseJsonLine(Line);
    if (!Parsed) {
      Error = Path + ":" + std::to_string(N) +
              ": malformed JSON: " + llvm::toString(Parsed.takeError());
      return false;
    }
    const llvm::json::Object *J = Parsed->getAsObject();
    if (!J) {
      Error = Path + ":" + std::to_string(N) + ": expected a JSON object";
      return false;
    }
    Row R;
    R.Program = Program;
    const std::string Kernel = J->getString("kernel").value_or("").str();
    R.Kernel = J->getString("source_name").value_or("").str();
    if (R.Kernel.empty())
      R.Kernel = Kernel;
    auto Order = DataOrder.find(Kernel);
    R.Data = dataText(J->getObject("data"), Order == DataOrder.end()
                                                ? std::vector<std::string>()
                                                : Order->second);
    R.Requested = blockText(*J, "requested");
    R.Chosen = blockText(*J, "chosen");
    R.Source = J->getString("source").value_or("").str();
    R.DecisionNs = J->getNumber("decision_ns").value_or(NAN);
    R.SearchSeconds = J->getNumber("search_seconds").value_or(0);
    if (const llvm::json::Array *Shapes = J->getArray("shapes")) {
      R.Candidates = unsigned(Shapes->size());
      for (const llvm::json::Value &V : *Shapes) {
        const llvm::json::Object *S = V.getAsObject();
        double Ns = S ? S->getNumber("ns").value_or(NAN) : NAN;
        std::string B = dimText(S ? S->get("block") : nullptr);
        if (!std::isfinite(Ns))
          continue;
        R.SearchGpuNs += Ns;
        if (!(Ns >= R.BestNs)) {
          R.BestNs = Ns;
          R.Best = B;
        }
        if (B == R.Chosen)
          R.ChosenNs = Ns;
        if (B == R.Requested)
          R.RequestedNs = Ns;
      }
    }
    // A program's own shape that the pragma does not admit is estimated
    // apart from the candidates.
    if (std::optional<double> Ns = J->getNumber("requested_ns"))
      R.RequestedNs = *Ns;
    Rows.push_back(std::move(R));
  }
  return true;
}

struct Summary {
  unsigned N = 0;
  double Geomean = NAN, Worst = NAN;
  unsigned AtLeast90 = 0;
};

Summary summarize(const std::vector<double> &Ratios) {
  Summary S;
  double LogSum = 0;
  for (double R : Ratios) {
    if (!std::isfinite(R) || R <= 0)
      continue;
    ++S.N;
    LogSum += std::log(R);
    if (!(R >= S.Worst))
      S.Worst = R;
    S.AtLeast90 += R >= 0.9;
  }
  if (S.N)
    S.Geomean = std::exp(LogSum / S.N);
  return S;
}

} // namespace

/// The last \p N non-empty lines of file \p Path (none when it cannot be
/// read), each cut at 200 characters.
static std::vector<std::string> lastLines(const std::string &Path, size_t N) {
  std::vector<std::string> Lines;
  if (Path.empty())
    return Lines;
  std::ifstream In(Path);
  for (std::string L; std::getline(In, L);) {
    if (L.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    if (L.size() > 200)
      L = L.substr(0, 200) + "...";
    Lines.push_back(std::move(L));
    if (Lines.size() > N)
      Lines.erase(Lines.begin());
  }
  return Lines;
}

namespace {
const Syntax CommandSyntax = {benchUsage,
                              "unknown option '{0}' (klaraptor bench --help)",
                              "missing value after '{0}'"};
#define KLARAPTOR_OPTIONS_INC "BenchOptions.inc"
#include "OptionTable.def"
} // namespace

int runBench(const Args &A) {
  llvm::opt::InputArgList Opts;
  if (int Status = options().parse(A, Opts); Status >= 0)
    return Status;
  const std::string Manifest =
      Opts.getLastArgValue(OPT_manifest, defaultBenchManifest()).str();
  const std::string Only = Opts.getLastArgValue(OPT_only).str(),
                    Train = Opts.getLastArgValue(OPT_train_sizes).str(),
                    Test = Opts.getLastArgValue(OPT_test_sizes).str(),
                    Device = Opts.getLastArgValue(OPT_device).str(),
                    Work =
                        Opts.getLastArgValue(OPT_work, "klaraptor-bench").str(),
                    JsonOut = Opts.getLastArgValue(OPT_json).str(),
                    MdOut = Opts.getLastArgValue(OPT_markdown).str(),
                    Backend = Opts.getLastArgValue(OPT_backend, "emu").str(),
                    Model = Opts.getLastArgValue(OPT_model).str();
  const bool Execute = Opts.hasArg(OPT_execute);
  if (Backend != "emu" && Backend != "cupti") {
    error("--backend: '" + Backend + "' is not 'emu' or 'cupti'");
    return 1;
  }
  std::string KnownModels;
  if (!Model.empty() && !modelfit::isFitModel(Model, &KnownModels)) {
    error("--model: unknown model '" + Model + "' (known: " + KnownModels +
          ")");
    return 1;
  }
  const bool Emu = Backend == "emu";
  if (!Emu) {
    // The GPU's name is not a device profile: the rational programs need
    // the profile's hardware parameters.
    if (Device.empty()) {
      error("--backend cupti: give --device (the built-in profile of this "
            "GPU, or the file 'klaraptor device probe' wrote)");
      return 1;
    }
    ProcessResult Smi = runProgram({"nvidia-smi", "-L"}, {}, "/dev/null");
    if (!Smi.Started || Smi.status() != 0) {
      error("--backend cupti needs a GPU, and 'nvidia-smi -L' found none" +
            (Smi.Started ? std::string() : ": " + Smi.Error));
      return 1;
    }
  }
  std::vector<Program> Programs;
  std::string Error;
  if (!readManifest(Manifest, Programs, Error)) {
    error(Error);
    return 1;
  }
  if (!Only.empty()) {
    std::vector<Program> Kept;
    std::stringstream SS(Only);
    for (std::string Name; std::getline(SS, Name, ',');) {
      auto It = std::find_if(Programs.begin(), Programs.end(),
                             [&](const Program &P) { return P.Name == Name; });
      if (It == Programs.end()) {
        std::string Known;
        for (const Program &P : Programs)
          Known += (Known.empty() ? "" : ", ") + P.Name;
        error("--only: no program '" + Name + "' in " + Manifest +
              " (it has " + Known + ")");
        return 1;
      }
      Kept.push_back(*It);
    }
    Programs = std::move(Kept);
  }
  const std::string Bin = selfDirectory();
  const std::string Driver = Bin + "klaraptor-clang++", Self = Bin + "klaraptor";
  const std::string Root = folderOf(Manifest);
  std::string Why;
  if (!makeDirs(Work, Why)) {
    error("cannot create '" + Work + "': " + Why);
    return 1;
  }

  std::vector<Row> Rows;
  std::vector<Costs> AllCosts;
  unsigned Failures = 0;
  auto Step = [&](const Program &P, const char *What,
                  const std::vector<std::string> &Argv,
                  const std::vector<std::pair<std::string, std::string>> &Env,
                  const std::string &Log) {
    ProcessResult R = runProgram(Argv, Env, Log);
    if (R.Started && R.status() == 0)
      return true;
    error(P.Name + ": " + What + " failed" +
          (R.Started ? " with status " + std::to_string(R.status())
                     : ": " + R.Error) +
          (Log.empty() ? "" : " (output in " + Log + ")"));
    // The cause is usually in the last lines the step printed.
    for (const std::string &L : lastLines(Log, 5))
      std::fprintf(stderr, "   | %s\n", L.c_str());
    ++Failures;
    return false;
  };
  for (const Program &P : Programs) {
    const std::string Dir = Work + "/" + P.Name;
    if (!makeDirs(Dir, Why)) {
      error("cannot create '" + Dir + "': " + Why);
      return 1;
    }
    const std::string Src =
        P.Source[0] == '/' ? P.Source : Root + "/" + P.Source;
    const std::string TrainSizes =
        !Train.empty() ? Train : !P.Train.empty() ? P.Train : "32,64,128,256";
    const std::string TestSizes =
        !Test.empty() ? Test : !P.Test.empty() ? P.Test : "512,1024,2048";
    // "N=16,32" for the single {N}; "R=16,32;C=8" as written otherwise.
    auto Shown = [](const std::string &L) {
      return L.find('=') == std::string::npos ? "N=" + L : L;
    };
    std::printf("== %s: train %s, test %s\n", P.Name.c_str(),
                Shown(TrainSizes).c_str(), Shown(TestSizes).c_str());
    std::fflush(stdout);
    Costs C;
    C.Program = P.Name;
    std::vector<std::pair<std::string, std::string>> DevEnv;
    if (!Device.empty() && Emu)
      DevEnv.push_back({"KLARAPTOR_EMU_DEVICE", Device});
    // Programs for the emulator, or for the GPU (cupti backend).
    auto Build = [&](const std::vector<std::string> &Extra,
                     const std::string &Out) {
      std::vector<std::string> Argv = {Driver};
      if (Emu)
        Argv.push_back("--klaraptor-emulate");
      Argv.insert(Argv.end(), Extra.begin(), Extra.end());
      Argv.push_back("-O2");
      Argv.insert(Argv.end(), P.Flags.begin(), P.Flags.end());
      Argv.insert(Argv.end(), {Src, "-I" + Root, "-o", Out});
      return Argv;
    };
    // 1. Build for profiling.
    if (!Step(P, "building", Build({}, Dir + "/prog"), {}, ""))
      continue;
    // 2. Profile.
    SizeSpec TrainSpec, TestSpec;
    if (!parseSizeSpec(TrainSizes, TrainSpec, Why) ||
        !parseSizeSpec(TestSizes, TestSpec, Why)) {
      error(P.Name + ": " + Why);
      ++Failures;
      continue;
    }
    std::vector<std::string> Prof = {Self, "profile", "--fresh", "--quiet"};
    for (const auto &[Name, Values] : TrainSpec) {
      std::string List;
      for (const std::string &V : Values)
        List += (List.empty() ? "" : ",") + V;
      Prof.insert(Prof.end(), {"--sizes", Name + "=" + List});
    }
    Prof.insert(Prof.end(), {"--db", Dir + "/profile.db"});
    if (!Device.empty() && Emu) // cupti records the GPU it runs on
      Prof.insert(Prof.end(), {"--device", Device});
    Prof.push_back("--");
    Prof.push_back(Dir + "/prog");
    Prof.insert(Prof.end(), P.Args.begin(), P.Args.end());
    auto T0 = std::chrono::steady_clock::now();
    if (!Step(P, "profiling", Prof, {}, Dir + "/profile.txt"))
      continue;
    C.ProfileSeconds = seconds(T0);
    // Each kernel's data parameters in its pragma's order, for the labels.
    std::map<std::string, std::vector<std::string>> DataOrder;
    {
      auto Db = profiledb::ProfileDb::open(Dir + "/profile.db",
                                           profiledb::MetaInfo(), Error);
      std::vector<profiledb::KernelRow> Ks;
      if (Db && Db->kernels(Ks, Error))
        for (const auto &K : Ks) {
          std::string SpecError;
          if (std::optional<KernelSpec> Spec =
                  parseKernelSpec(K.Spec, SpecError)) {
            std::vector<std::string> &Order = DataOrder[K.Name];
            Order.clear();
            for (const DataParam &D : Spec->Data)
              Order.push_back(D.Name);
          }
          std::vector<profiledb::SampleRow> Samples;
          if (Db->samplesOf(K.Id, Samples, Error))
            for (const auto &S : Samples) {
              C.ProfileGpuNs += S.TimeNs;
              ++C.Samples;
            }
        }
    }
    // 3. Fit.
    std::vector<std::string> Fit = {Self, "fit", "--db", Dir + "/profile.db",
                                    "--out", Dir + "/models"};
    if (!Device.empty())
      Fit.insert(Fit.end(), {"--device", Device});
    if (!Model.empty())
      Fit.insert(Fit.end(), {"--model", Model});
    T0 = std::chrono::steady_clock::now();
    if (!Step(P, "fitting", Fit, {}, Dir + "/fit.txt"))
      continue;
    C.FitSeconds = seconds(T0);
    // 4. Rebuild with the rational programs.
    if (!Step(P, "building with the models",
              Build({"--klaraptor-models", Dir + "/models"}, Dir + "/tuned"),
              {}, ""))
      continue;
    // 5. Run at the test sizes.
    const std::string BenchFile = Dir + "/bench.jsonl";
    ::unlink(BenchFile.c_str());
    bool Ok = true;
    const auto TestTuples = sizeTuples(TestSpec);
    for (const auto &Tuple : TestTuples) {
      const std::string N = tupleLabel(Tuple);
      const std::string Tag = tupleFileTag(Tuple);
      std::vector<std::string> Argv = {Dir + "/tuned"};
      for (const std::string &Arg : P.Args)
        Argv.push_back(substitute(Arg, Tuple));
      auto Env = DevEnv;
      Env.push_back({"KLARAPTOR_BENCH", BenchFile});
      if (Emu) {
        Env.push_back({"KLARAPTOR_EMU_EXECUTE", Execute ? "1" : "0"});
        // The search gets the cores the profile gets.
        addEmulatorThreads(Env);
      }
      Env.push_back({"KLARAPTOR_LOG", Dir + "/decisions.jsonl"});
      Env.push_back({"KLARAPTOR_MODE", "tune"});
      T0 = std::chrono::steady_clock::now();
      if (!Step(P, ("running at " + N).c_str(), Argv, Env,
                Dir + "/run-" + Tag + ".txt")) {
        Ok = false;
        break;
      }
      std::printf("   %s: %.1f s\n", N.c_str(), seconds(T0));
      std::fflush(stdout);
    }
    if (!Ok)
      continue;
    std::vector<Row> Mine;
    if (!readBench(BenchFile, P.Name, DataOrder, Mine, Error)) {
      error(P.Name + ": " + Error);
      ++Failures;
      continue;
    }
    for (const Row &R : Mine) {
      C.SearchSeconds += R.SearchSeconds;
      C.SearchGpuNs += R.SearchGpuNs;
    }
    C.Sizes = unsigned(TestTuples.size());
    Rows.insert(Rows.end(), Mine.begin(), Mine.end());
    AllCosts.push_back(C);
  }

  // The launch table.
  std::string Md = "| program | kernel | data | shapes | requested | chosen | "
                   "best | best time | chosen time | best/chosen | "
                   "best/requested |\n|---|---|---|---:|---|---|---|---:|---:|"
                   "---:|---:|\n";
  // The name columns are as wide as their longest entry (a kernel
  // template's specializations have long names), at least the usual widths.
  int ProgramW = 12, KernelW = 14, DataW = 18;
  for (const Row &R : Rows) {
    ProgramW = std::max(ProgramW, int(R.Program.size()));
    KernelW = std::max(KernelW, int(R.Kernel.size()));
    DataW = std::max(DataW, int(R.Data.size()));
  }
  std::printf("\n%-*s %-*s %-*s %6s %-10s %-10s %-10s %11s %11s %7s %7s\n",
              ProgramW, "program", KernelW, "kernel", DataW, "data", "shapes",
              "requested", "chosen", "best", "best", "chosen", "b/c", "b/req");
  std::vector<double> Ratios, ReqRatios, DecisionNs;
  for (const Row &R : Rows) {
    std::printf("%-*s %-*s %-*s %6u %-10s %-10s %-10s %11s %11s %7.3f %7.3f\n",
                ProgramW, R.Program.c_str(), KernelW, R.Kernel.c_str(), DataW,
                R.Data.c_str(), R.Candidates, R.Requested.c_str(),
                R.Chosen.c_str(), R.Best.c_str(), fmtNs(R.BestNs).c_str(),
                fmtNs(R.ChosenNs).c_str(), R.ratio(), R.ratioRequested());
    char MdLine[2048];
    std::snprintf(MdLine, sizeof(MdLine),
                  "| %s | %s | %s | %u | %s | %s | %s | %s | %s | %.3f | "
                  "%.3f |\n",
                  R.Program.c_str(), R.Kernel.c_str(), R.Data.c_str(),
                  R.Candidates, R.Requested.c_str(), R.Chosen.c_str(),
                  R.Best.c_str(), fmtNs(R.BestNs).c_str(),
                  fmtNs(R.ChosenNs).c_str(), R.ratio(), R.ratioRequested());
    Md += MdLine;
    Ratios.push_back(R.ratio());
    ReqRatios.push_back(R.ratioRequested());
    if (std::isfinite(R.DecisionNs))
      DecisionNs.push_back(R.DecisionNs);
  }
  Summary S = summarize(Ratios), SR = summarize(ReqRatios);
  std::sort(DecisionNs.begin(), DecisionNs.end());
  double MedianDecision =
      DecisionNs.empty() ? NAN : DecisionNs[DecisionNs.size() / 2];
  char Sum[1024];
  if (S.N == 0)
    std::snprintf(Sum, sizeof(Sum),
                  "\nlaunches: 0; no program ran to the end (the errors above "
                  "say why): nothing to compare\n");
  else
  std::snprintf(Sum, sizeof(Sum),
                "\nlaunches: %u; best/chosen: geomean %.3f, worst %.3f, "
                "%u of %u >= 0.90\n"
                "best/requested (the programs' own shapes): geomean %.3f, "
                "worst %.3f\n"
                "decision cost (enumeration and model over every candidate, "
                "per new data size): median %.1f us\n",
                S.N, S.Geomean, S.Worst, S.AtLeast90, S.N, SR.Geomean,
                SR.Worst, MedianDecision / 1e3);
  std::fputs(Sum, stdout);
  Md += "\n" + std::string(Sum + 1);
  // GPU time: estimated on the emulator, measured with cupti.
  const std::string Gpu = Emu ? "GPU est." : "GPU";
  std::string CostTable =
      "\n| program | samples | profile (host s) | fit (host s) | profile (" +
      Gpu + ") | exhaustive search (host s) | exhaustive search (" + Gpu +
      ") |\n|---|---:|---:|---:|---:|---:|---:|\n";
  int CostProgramW = 12;
  for (const Costs &C : AllCosts)
    CostProgramW = std::max(CostProgramW, int(C.Program.size()));
  auto BreakEven = [](double Sizes) { return finiteOr(Sizes, "%.1f", "-"); };
  std::printf("\n%-*s %8s %10s %8s %12s %12s %14s %11s\n", CostProgramW,
              "program", "samples", "profile s", "fit s", "profile GPU",
              "search s", "search GPU", "break-even");
  for (const Costs &C : AllCosts) {
    std::printf("%-*s %8u %10.2f %8.2f %12s %12.2f %14s %11s\n", CostProgramW,
                C.Program.c_str(), C.Samples, C.ProfileSeconds, C.FitSeconds,
                fmtNs(C.ProfileGpuNs).c_str(), C.SearchSeconds,
                fmtNs(C.SearchGpuNs).c_str(),
                BreakEven(C.breakEvenSizes()).c_str());
    char L[512];
    std::snprintf(L, sizeof(L),
                  "| %s | %u | %.2f | %.2f | %s | %.2f | %s | %s |\n",
                  C.Program.c_str(), C.Samples, C.ProfileSeconds, C.FitSeconds,
                  fmtNs(C.ProfileGpuNs).c_str(), C.SearchSeconds,
                  fmtNs(C.SearchGpuNs).c_str(),
                  BreakEven(C.breakEvenSizes()).c_str());
    CostTable += L;
  }
  // Totals: what the loop costs against what the exhaustive search costs.
  Costs T;
  double SearchPerSize = 0; // every program searching one more data size
  for (const Costs &C : AllCosts) {
    T.ProfileSeconds += C.ProfileSeconds;
    T.FitSeconds += C.FitSeconds;
    T.ProfileGpuNs += C.ProfileGpuNs;
    T.SearchSeconds += C.SearchSeconds;
    T.SearchGpuNs += C.SearchGpuNs;
    SearchPerSize += C.searchPerSize();
  }
  if (!AllCosts.empty()) {
    char L[768];
    double Loop = T.ProfileSeconds + T.FitSeconds;
    std::snprintf(L, sizeof(L),
                  "\ntotal: profiling + fitting %.1f s host (%s of %s), "
                  "exhaustive search %.1f s host (%s of %s): %.2fx\n"
                  "break-even: the loop costs less host time than searching "
                  "every data size after %s new sizes per program "
                  "(it is paid once; the search at every size)\n",
                  Loop, fmtNs(T.ProfileGpuNs).c_str(), Gpu.c_str(),
                  T.SearchSeconds, fmtNs(T.SearchGpuNs).c_str(), Gpu.c_str(),
                  T.SearchSeconds > 0 ? Loop / T.SearchSeconds : 0.0,
                  BreakEven(SearchPerSize > 0 ? Loop / SearchPerSize : NAN)
                      .c_str());
    std::fputs(L, stdout);
    CostTable += L;
  }
  Md += CostTable;
  if (!MdOut.empty()) {
    std::ofstream F(MdOut);
    F << Md;
    if (!F) {
      error("cannot write '" + MdOut + "'");
      return 1;
    }
  }
  if (!JsonOut.empty()) {
    std::ofstream F(JsonOut);
    auto Num = [](double V) { return finiteOr(V, "%.17g", "null"); };
    F << "{\"launches\":[";
    for (size_t I = 0; I < Rows.size(); ++I) {
      const Row &R = Rows[I];
      // Names as the manifest and the program give them, quoted for JSON
      // (a manifest name may hold any character but a blank).
      F << (I ? "," : "") << "{\"program\":" << jsonQuote(R.Program)
        << ",\"kernel\":" << jsonQuote(R.Kernel)
        << ",\"data\":" << jsonQuote(R.Data)
        << ",\"shapes\":" << R.Candidates
        << ",\"requested\":" << jsonQuote(R.Requested)
        << ",\"chosen\":" << jsonQuote(R.Chosen)
        << ",\"best\":" << jsonQuote(R.Best)
        << ",\"best_ns\":" << Num(R.BestNs)
        << ",\"chosen_ns\":" << Num(R.ChosenNs)
        << ",\"requested_ns\":" << Num(R.RequestedNs)
        << ",\"decision_ns\":" << Num(R.DecisionNs)
        << ",\"source\":" << jsonQuote(R.Source) << "}";
    }
    F << "],\"costs\":[";
    for (size_t I = 0; I < AllCosts.size(); ++I) {
      const Costs &C = AllCosts[I];
      F << (I ? "," : "") << "{\"program\":" << jsonQuote(C.Program)
        << ",\"samples\":" << C.Samples
        << ",\"profile_seconds\":" << Num(C.ProfileSeconds)
        << ",\"fit_seconds\":" << Num(C.FitSeconds)
        << ",\"search_seconds\":" << Num(C.SearchSeconds)
        << ",\"sizes\":" << C.Sizes
        << ",\"break_even_sizes\":" << Num(C.breakEvenSizes()) << "}";
    }
    F << "],\"geomean\":" << Num(S.Geomean) << ",\"worst\":" << Num(S.Worst)
      << ",\"geomean_requested\":" << Num(SR.Geomean) << "}\n";
    if (!F) {
      error("cannot write '" + JsonOut + "'");
      return 1;
    }
  }
  if (Rows.empty()) {
    error("no launch was benchmarked");
    return 1;
  }
  return Failures ? 1 : 0;
}

} // namespace cli
} // namespace klaraptor
