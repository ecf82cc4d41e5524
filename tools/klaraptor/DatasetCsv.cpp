//===- DatasetCsv.cpp - klaraptor dataset import-csv: measured times -------===//
///
/// \file
/// `klaraptor dataset import-csv --csv FILE --out DIR ...` turns a CSV of
/// measured kernel times (one row per program, kernel, size n and block
/// shape) into times-only datasets, one JSON Lines file per program
/// (docs/dataset.md, "Times-only datasets"). Each size is a run, each
/// (kernel, size) a launch whose samples are the measured shapes: the time
/// (the median of the repeats) per launch, the spread as the `gpu_time_*`
/// keys the cupti backend writes, and no counted metric. The provenance given
/// on the command line goes into the header's `meta`.
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Options.h"
#include "DatasetFile.h"
#include "Process.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <tuple>

#ifndef KLARAPTOR_VERSION
#define KLARAPTOR_VERSION "unknown"
#endif

namespace klaraptor {
namespace cli {

namespace {

/// Splits one CSV line at commas. Fields may be quoted ("a,b", "" for a
/// quote); false on an unterminated quote.
bool splitCsv(const std::string &Line, std::vector<std::string> &Fields) {
  Fields.clear();
  std::string F;
  bool Quoted = false, WasQuoted = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (Quoted) {
      if (C == '"' && I + 1 < Line.size() && Line[I + 1] == '"') {
        F += '"';
        ++I;
      } else if (C == '"') {
        Quoted = false;
      } else {
        F += C;
      }
    } else if (C == '"' && F.empty() && !WasQuoted) {
      Quoted = WasQuoted = true;
    } else if (C == ',') {
      Fields.push_back(F);
      F.clear();
      WasQuoted = false;
    } else if (C != '\r') {
      F += C;
    }
  }
  Fields.push_back(F);
  return !Quoted;
}

bool parseInt(const std::string &S, int64_t &V) {
  if (S.empty())
    return false;
  errno = 0;
  char *End = nullptr;
  long long X = std::strtoll(S.c_str(), &End, 10);
  if (*End || errno)
    return false;
  V = X;
  return true;
}

bool parseDouble(const std::string &S, double &V) {
  if (S.empty())
    return false;
  char *End = nullptr;
  V = std::strtod(S.c_str(), &End);
  return !*End && std::isfinite(V);
}

/// "32x8" or "256" (missing dimensions are 1).
bool parseShape(const std::string &S, int64_t Out[3]) {
  Out[0] = Out[1] = Out[2] = 1;
  std::stringstream SS(S);
  std::string Part;
  int N = 0;
  while (std::getline(SS, Part, 'x')) {
    if (N == 3 || !parseInt(Part, Out[N]) || Out[N] < 1)
      return false;
    ++N;
  }
  return N >= 1;
}

/// A file name for program \p P: lower case, other characters as '-'.
std::string fileStem(const std::string &P) {
  std::string S;
  for (unsigned char C : P)
    S += std::isalnum(C) ? char(std::tolower(C)) : '-';
  return S;
}

/// How many block dimensions shapes use whose largest y and z are \p MaxY
/// and \p MaxZ: 3 when some bz > 1, else 2 when some by > 1, else 1.
int dimsUsed(int64_t MaxY, int64_t MaxZ) { return MaxZ > 1 ? 3 : MaxY > 1 ? 2 : 1; }

struct Row {
  unsigned Line = 0;
  std::string Gpu, Program, Kernel;
  int64_t N = 0, Block[3] = {1, 1, 1};
  double MedianMs = NAN, MinMs = NAN, MaxMs = NAN;
  int64_t Repeats = 0;
  bool HasRepeats = false;
};

} // namespace

const char *importCsvUsage() {
  return "USAGE: klaraptor dataset import-csv --csv FILE --out DIR "
         "[OPTIONS]\n\n"
         "Writes DIR/PROGRAM.jsonl, a times-only dataset, for every program "
         "of a CSV of\nmeasured kernel times (docs/dataset.md, \"Times-only "
         "datasets\").\n\n"
         "The CSV has a header line naming its columns, in any order: "
         "program, kernel,\nn, bx, median_ms (required), by, bz, gpu, "
         "repeats, min_ms, max_ms (optional).\nOne row is one measured "
         "block shape of one kernel at size n; every dimension\nof the "
         "problem is n and the grid is ceil(n/bx) x ceil(n/by) x ceil(n/bz) "
         "(1 where\nthe block dimension is 1).\n\n"
         "OPTIONS:\n"
         "  --data NAME                  the data parameter n stands for "
         "(default N)\n"
         "  --requested SHAPE            the shape the measured programs "
         "asked for, by its\n"
         "                               number of dimensions: 256 for the "
         "1-D kernels,\n"
         "                               32x8 for the 2-D ones (repeat the "
         "option)\n"
         "  --launches-per-time P=COUNT  program P's times are totals over "
         "COUNT launches\n"
         "                               (each is divided by COUNT)\n"
         "  --device NAME                the device (default: the gpu "
         "column)\n"
         "  --source TEXT                where the figures come from "
         "(meta 'source')\n"
         "  --timing TEXT                how they were timed (meta "
         "'timing')\n"
         "  --note TEXT                  anything else a reader must know "
         "(meta 'note')\n";
}

namespace {
const Syntax CommandSyntax = {importCsvUsage,
                              "dataset import-csv: unknown option '{0}' "
                              "(klaraptor dataset import-csv --help)",
                              "dataset import-csv: missing value after '{0}'"};
#define KLARAPTOR_OPTIONS_INC "DatasetImportCsvOptions.inc"
#include "OptionTable.def"
} // namespace

int runDatasetImportCsv(const Args &A) {
  llvm::opt::InputArgList Opts;
  if (int Status = options().parse(A, Opts); Status >= 0)
    return Status;
  const std::string Csv = Opts.getLastArgValue(OPT_csv).str(),
                    Out = Opts.getLastArgValue(OPT_out).str(),
                    DataName = Opts.getLastArgValue(OPT_data, "N").str(),
                    Device = Opts.getLastArgValue(OPT_device).str(),
                    Source = Opts.getLastArgValue(OPT_source).str(),
                    Timing = Opts.getLastArgValue(OPT_timing).str(),
                    Note = Opts.getLastArgValue(OPT_note).str();
  bool NameOk = !DataName.empty() && !std::isdigit((unsigned char)DataName[0]);
  for (unsigned char C : DataName)
    NameOk &= std::isalnum(C) || C == '_';
  if (!NameOk) {
    error("--data: '" + DataName +
          "' is not a data parameter name (a C identifier)");
    return 1;
  }
  std::map<int, std::array<int64_t, 3>> Requested;
  for (const std::string &V : Opts.getAllArgValues(OPT_requested)) {
    int64_t S[3];
    if (!parseShape(V, S)) {
      error("--requested: expected a block shape such as 256 or 32x8, got '" +
            V + "'");
      return 1;
    }
    int D = dimsUsed(S[1], S[2]);
    if (Requested.count(D)) {
      error("--requested: two shapes for the " + std::to_string(D) +
            "-D kernels");
      return 1;
    }
    Requested[D] = {S[0], S[1], S[2]};
  }
  std::map<std::string, int64_t> PerTime;
  for (const std::string &V : Opts.getAllArgValues(OPT_launches_per_time)) {
    size_t Eq = V.rfind('=');
    int64_t C = 0;
    if (Eq == std::string::npos || Eq == 0 || !parseInt(V.substr(Eq + 1), C) ||
        C < 1) {
      error("--launches-per-time: expected PROGRAM=COUNT (a positive count), "
            "got '" +
            V + "'");
      return 1;
    }
    PerTime[V.substr(0, Eq)] = C;
  }
  if (Csv.empty() || Out.empty()) {
    error("dataset import-csv needs --csv FILE and --out DIR");
    return 1;
  }

  struct stat St;
  if (::stat(Csv.c_str(), &St) == 0 && S_ISDIR(St.st_mode)) {
    error("cannot read the CSV '" + Csv + "': it is a directory");
    return 1;
  }
  std::ifstream In(Csv);
  if (!In) {
    error("cannot read the CSV '" + Csv + "': " + std::strerror(errno));
    return 1;
  }
  std::string Line;
  std::vector<std::string> F;
  unsigned LineNo = 0;
  std::map<std::string, size_t> Col;
  while (std::getline(In, Line)) {
    ++LineNo;
    if (!Line.empty() && Line != "\r")
      break;
  }
  if (Line.empty()) {
    error(Csv + ": empty file (expected a header line naming the columns)");
    return 1;
  }
  if (!splitCsv(Line, F)) {
    error(Csv + ":" + std::to_string(LineNo) + ": unterminated quote");
    return 1;
  }
  for (size_t I = 0; I < F.size(); ++I) {
    if (Col.count(F[I])) {
      error(Csv + ":" + std::to_string(LineNo) + ": column '" + F[I] +
            "' appears twice");
      return 1;
    }
    Col[F[I]] = I;
  }
  for (const char *Need : {"program", "kernel", "n", "bx", "median_ms"})
    if (!Col.count(Need)) {
      error(Csv + ":" + std::to_string(LineNo) + ": no column '" + Need +
            "' (the header needs program, kernel, n, bx and median_ms)");
      return 1;
    }
  if (Device.empty() && !Col.count("gpu")) {
    error(Csv + ": no 'gpu' column; give --device NAME");
    return 1;
  }

  std::vector<Row> Rows;
  std::set<std::tuple<std::string, std::string, int64_t, int64_t, int64_t,
                      int64_t>>
      Seen;
  while (std::getline(In, Line)) {
    ++LineNo;
    if (Line.empty() || Line == "\r")
      continue;
    const std::string Where = Csv + ":" + std::to_string(LineNo) + ": ";
    if (!splitCsv(Line, F)) {
      error(Where + "unterminated quote");
      return 1;
    }
    if (F.size() != Col.size()) {
      error(Where + std::to_string(F.size()) + " fields, the header has " +
            std::to_string(Col.size()));
      return 1;
    }
    auto Get = [&](const char *Name) -> std::string {
      auto It = Col.find(Name);
      return It == Col.end() ? std::string() : F[It->second];
    };
    Row R;
    R.Line = LineNo;
    R.Gpu = Device.empty() ? Get("gpu") : Device;
    R.Program = Get("program");
    R.Kernel = Get("kernel");
    if (R.Program.empty() || R.Kernel.empty() || R.Gpu.empty()) {
      error(Where + "empty program, kernel or gpu");
      return 1;
    }
    if (!parseInt(Get("n"), R.N) || R.N < 1) {
      error(Where + "n must be a positive integer, got '" + Get("n") + "'");
      return 1;
    }
    const char *DimNames[3] = {"bx", "by", "bz"};
    for (int D = 0; D < 3; ++D) {
      std::string V = Get(DimNames[D]);
      if (D > 0 && !Col.count(DimNames[D]))
        continue;
      if (!parseInt(V, R.Block[D]) || R.Block[D] < 1 ||
          R.Block[D] > 0x7fffffff) {
        error(Where + DimNames[D] + " must be a positive integer, got '" +
              V + "'");
        return 1;
      }
    }
    if (!parseDouble(Get("median_ms"), R.MedianMs) || !(R.MedianMs > 0)) {
      error(Where + "median_ms must be a positive number, got '" +
            Get("median_ms") + "'");
      return 1;
    }
    for (auto [Name, Dest] : {std::pair<const char *, double *>{"min_ms", &R.MinMs},
                              {"max_ms", &R.MaxMs}})
      if (Col.count(Name) && !Get(Name).empty() &&
          (!parseDouble(Get(Name), *Dest) || !(*Dest > 0))) {
        error(Where + Name + " must be a positive number, got '" +
              Get(Name) + "'");
        return 1;
      }
    if (Col.count("repeats") && !Get("repeats").empty()) {
      if (!parseInt(Get("repeats"), R.Repeats) || R.Repeats < 1) {
        error(Where + "repeats must be a positive integer, got '" +
              Get("repeats") + "'");
        return 1;
      }
      R.HasRepeats = true;
    }
    if (!Seen.insert({R.Program, R.Kernel, R.N, R.Block[0], R.Block[1],
                      R.Block[2]})
             .second) {
      error(Where + R.Program + " " + R.Kernel + " n=" +
            std::to_string(R.N) + " " + dimText(R.Block) +
            " is measured twice");
      return 1;
    }
    Rows.push_back(std::move(R));
  }
  if (Rows.empty()) {
    error(Csv + ": no data rows");
    return 1;
  }
  for (const auto &[P, C] : PerTime) {
    bool Found = false;
    for (const Row &R : Rows)
      Found |= R.Program == P;
    if (!Found) {
      error("--launches-per-time: the CSV has no program '" + P + "'");
      return 1;
    }
  }

  // Per program, in name order; kernels, sizes and shapes sorted.
  std::map<std::string, std::vector<const Row *>> ByProgram;
  for (const Row &R : Rows)
    ByProgram[R.Program].push_back(&R);
  // Every dataset is made before anything is written: bad input writes
  // nothing.
  std::vector<std::pair<Dataset, int64_t>> Made; // with its divisor
  std::map<std::string, std::string> Stems;
  for (auto &[Program, Mine] : ByProgram) {
    std::string Stem = fileStem(Program);
    if (Stems.count(Stem)) {
      error("programs '" + Stems[Stem] + "' and '" + Program +
            "' would both be written to " + Stem + ".jsonl");
      return 1;
    }
    Stems[Stem] = Program;
    std::sort(Mine.begin(), Mine.end(), [](const Row *X, const Row *Y) {
      return std::make_tuple(X->Kernel, X->N, X->Block[0], X->Block[1],
                             X->Block[2]) <
             std::make_tuple(Y->Kernel, Y->N, Y->Block[0], Y->Block[1],
                             Y->Block[2]);
    });
    const std::string &Gpu = Mine.front()->Gpu;
    for (const Row *R : Mine)
      if (R->Gpu != Gpu) {
        error(Csv + ":" + std::to_string(R->Line) + ": gpu '" + R->Gpu +
              "' differs from line " + std::to_string(Mine.front()->Line) +
              "'s '" + Gpu + "' (a dataset holds one device; give --device "
              "to override)");
        return 1;
      }
    const int64_t Divisor = PerTime.count(Program) ? PerTime[Program] : 1;

    Dataset D;
    D.Program = Stem;
    D.Meta["device"] = Gpu;
    D.Meta["backend"] = "csv";
    D.Meta["samples"] = "times-only";
    D.Meta["klaraptor_version"] = KLARAPTOR_VERSION;
    D.Meta["csv_program"] = Program;
    // What a profile database records, so that importing this file and
    // exporting it again gives the same bytes.
    D.Meta["schema_version"] = std::to_string(profiledb::SchemaVersion);
    // The file's name only: the same CSV gives the same bytes wherever it
    // lies.
    D.Meta["csv_file"] = Csv.substr(Csv.rfind('/') + 1);
    if (!Source.empty())
      D.Meta["source"] = Source;
    if (!Timing.empty())
      D.Meta["timing"] = Timing;
    if (!Note.empty())
      D.Meta["note"] = Note;
    if (Divisor > 1) {
      D.Meta["launches_per_time"] = std::to_string(Divisor);
      D.Meta["time_note"] =
          "the CSV's times of " + Program + " are totals over " +
          std::to_string(Divisor) + " launches; time_ns is one launch (the "
          "total divided by " + std::to_string(Divisor) + ")";
    }

    // Kernels in name order; each kernel's dimensionality from its shapes.
    std::map<std::string, std::pair<int64_t, int64_t>> MaxYZ;
    for (const Row *R : Mine) {
      auto &M = MaxYZ[R->Kernel];
      M.first = std::max(M.first, R->Block[1]);
      M.second = std::max(M.second, R->Block[2]);
    }
    std::map<std::string, size_t> KernelIndex;
    for (const auto &[K, M] : MaxYZ) {
      int Dims = dimsUsed(M.first, M.second);
      if (!Requested.count(Dims)) {
        error(Program + " " + K + ": its shapes are " + std::to_string(Dims) +
              "-D and no --requested shape is " + std::to_string(Dims) +
              "-D (give the shape the measured program asked for)");
        return 1;
      }
      KernelIndex[K] = D.Kernels.size();
      D.Kernels.push_back({K, ""});
    }
    std::map<int64_t, size_t> RunIndex;
    for (const Row *R : Mine)
      RunIndex[R->N] = 0;
    for (auto &[N, Index] : RunIndex) {
      Index = D.Runs.size();
      DsRun Run;
      Run.CommandLine = Program + " " + DataName + "=" + std::to_string(N);
      Run.SizeTuple[DataName] = N;
      Run.Sizes = profiledb::dataToJson(Run.SizeTuple);
      Run.Status = "ok";
      D.Runs.push_back(std::move(Run));
    }
    auto GridOf = [](int64_t N, const int64_t Block[3], int64_t Grid[3]) {
      for (int I = 0; I < 3; ++I)
        Grid[I] = Block[I] > 1 ? (N + Block[I] - 1) / Block[I] : 1;
    };
    std::string LastKey;
    for (const Row *R : Mine) {
      std::string Key = R->Kernel + "\n" + std::to_string(R->N);
      if (Key != LastKey) {
        LastKey = Key;
        DsLaunch L;
        L.Run = RunIndex[R->N];
        L.Kernel = KernelIndex[R->Kernel];
        L.DataTuple[DataName] = R->N;
        L.Data = profiledb::dataToJson(L.DataTuple);
        const auto &M = MaxYZ[R->Kernel];
        const auto &Req = Requested[dimsUsed(M.first, M.second)];
        for (int I = 0; I < 3; ++I)
          L.Block[I] = Req[I];
        GridOf(R->N, L.Block, L.Grid);
        D.Launches.push_back(std::move(L));
      }
      DsSample S;
      for (int I = 0; I < 3; ++I)
        S.Block[I] = R->Block[I];
      GridOf(R->N, S.Block, S.Grid);
      S.Status = "ok";
      S.TimeNs = R->MedianMs * 1e6 / double(Divisor);
      if (std::isfinite(R->MinMs))
        S.Metrics.push_back({"gpu_time_ns_min", R->MinMs * 1e6 / double(Divisor)});
      if (std::isfinite(R->MaxMs))
        S.Metrics.push_back({"gpu_time_ns_max", R->MaxMs * 1e6 / double(Divisor)});
      if (R->HasRepeats)
        S.Metrics.push_back({"gpu_time_repeats", double(R->Repeats)});
      D.Launches.back().Samples.push_back(std::move(S));
    }
    Made.push_back({std::move(D), Divisor});
  }
  std::string Why;
  if (!makeDirs(Out, Why)) {
    error("cannot create '" + Out + "': " + Why);
    return 1;
  }
  for (const auto &[D, Divisor] : Made) {
    std::string Path = Out + "/" + D.Program + ".jsonl";
    std::ofstream OutFile(Path, std::ios::binary);
    // The runs have no start time (the CSV has none), and the header's date
    // is the earliest one, as export writes it.
    const std::string NoDate;
    OutFile << datasetText(D, &NoDate);
    OutFile.close();
    if (!OutFile) {
      error("cannot write '" + Path + "'");
      return 1;
    }
    size_t Samples = 0;
    for (const DsLaunch &L : D.Launches)
      Samples += L.Samples.size();
    std::printf("%s: %s, %zu kernels, %zu sizes, %zu launches, %zu "
                "samples%s\n",
                Path.c_str(), D.Meta.at("csv_program").c_str(), D.Kernels.size(),
                D.Runs.size(), D.Launches.size(), Samples,
                Divisor > 1 ? (" (times / " + std::to_string(Divisor) + ")").c_str()
                            : "");
  }
  return 0;
}

} // namespace cli
} // namespace klaraptor
