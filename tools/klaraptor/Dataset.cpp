//===- Dataset.cpp - klaraptor dataset: profile DBs as plain-text datasets -===//
///
/// \file
/// `klaraptor dataset export --db FILE --out DIR [--program NAME]` writes a
/// profile database as one JSON Lines file, DIR/NAME.jsonl (NAME: the
/// database's file stem by default): a header line (format, device, backend,
/// driver and CUDA versions, klaraptor version, date, every `meta` key),
/// then the runs, the kernels, and each launch followed by one line per
/// measured block shape (block, grid, registers, shared memory, time,
/// spread of repeats when the backend measured one, status, every metric).
/// Lines come in the database's insertion order (ids renumbered from 1),
/// metric keys sorted and numbers written in their shortest exact form, so
/// the same database always gives the same bytes and a re-profiled dataset
/// diffs line by line.
///
/// `klaraptor dataset import --in FILE... --db OUT` reads datasets back into
/// a new profile database that `fit`, `report` and `bench` read as any other.
///
/// `klaraptor dataset bench --in FILE... [--emu FILE...]` evaluates the
/// rational programs on a dataset without running anything: per program,
/// fit on the launches at the training sizes, predict every measured shape
/// of each launch at the test sizes, and compare the chosen shape's
/// MEASURED time with the best measured time of the launch. With --emu
/// (datasets of the same programs profiled on the emulator) the same is
/// done for the shape the abstract-emulation estimate picks.
///
/// docs/dataset.md describes the format and the workflow.
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Options.h"
#include "Process.h"
#include "DatasetFile.h"
#include "klaraptor/model/KernelFit.h"
#include "ProfileDb.h"

#include "llvm/Support/FileSystem.h"

#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>


using namespace klaraptor::modelfit;

namespace klaraptor {
namespace cli {

const char *datasetUsage() {
  return "USAGE: klaraptor dataset export --db FILE --out DIR [--program "
         "NAME]\n"
         "       klaraptor dataset import --in FILE... --db OUT\n"
         "       klaraptor dataset import-csv --csv FILE --out DIR "
         "[OPTIONS]\n"
         "       klaraptor dataset bench --in FILE... [--emu FILE...] "
         "[OPTIONS]\n"
         "       klaraptor dataset judge --measured FILE... --fit DB... "
         "[--estimates DB...] [OPTIONS]\n\n"
         "Profile databases as plain-text datasets (JSON Lines, "
         "docs/dataset.md).\n\n"
         "export: writes DIR/NAME.jsonl (NAME: --program, default the "
         "database's file\n        stem); the same database always gives "
         "the same bytes.\n"
         "import: reads datasets into OUT, a new profile database (OUT must "
         "not exist).\n"
         "import-csv: writes times-only datasets from a CSV of measured "
         "times (see\n        'klaraptor dataset import-csv --help').\n"
         "bench:  per program, fits on the launches at the training sizes "
         "and compares,\n        per launch at the test sizes, the "
         "measured time of the shape the model\n        chooses with the "
         "best measured time; with --emu, also of the shape the\n"
         "        emulator's estimate (another dataset of the same launches) "
         "chooses.\n"
         "judge:  the choices of programs profiled elsewhere (--fit) against "
         "measured\n        times (see 'klaraptor dataset judge --help').\n\n"
         "BENCH OPTIONS:\n"
         "  --manifest FILE     training and test sizes per program (default: "
         "the examples'\n                      manifest, PREFIX/share/klaraptor/"
         "examples/bench.manifest\n                      when installed, else "
         "the source tree's)\n"
         "  --train-sizes LIST  override every program's training sizes\n"
         "  --test-sizes LIST   override every program's test sizes\n"
         "  --device PROFILE    device profile of the fitted model (default: "
         "the dataset's\n                      device; a GPU's dataset needs "
         "a .device from 'device probe'\n                      or a built-in "
         "name)\n"
         "  --json FILE         write every launch's figures as JSON\n";
}

namespace {

//===--- Writing -----------------------------------------------------------===//

/// A prepared statement that finalizes itself.
class Query {
public:
  Query(sqlite3 *Db, const char *Sql) {
    if (sqlite3_prepare_v2(Db, Sql, -1, &S, nullptr) != SQLITE_OK)
      S = nullptr;
  }
  ~Query() { sqlite3_finalize(S); }
  bool ok() const { return S != nullptr; }
  bool row() { return sqlite3_step(S) == SQLITE_ROW; }
  int64_t i(int C) { return sqlite3_column_int64(S, C); }
  double d(int C) {
    return sqlite3_column_type(S, C) == SQLITE_NULL ? NAN
                                                    : sqlite3_column_double(S, C);
  }
  bool null(int C) { return sqlite3_column_type(S, C) == SQLITE_NULL; }
  std::string t(int C) {
    const unsigned char *P = sqlite3_column_text(S, C);
    return P ? reinterpret_cast<const char *>(P) : "";
  }
  sqlite3_stmt *get() { return S; }

private:
  sqlite3_stmt *S = nullptr;
};

/// A data tuple's canonical JSON, or the text itself when it is not one.
std::string canonicalData(const std::string &Text) {
  profiledb::DataTuple D;
  return profiledb::dataFromJson(Text, D) ? profiledb::dataToJson(D) : Text;
}

namespace exportopts {
const Syntax CommandSyntax = {
    datasetUsage,
    "dataset export: unknown option '{0}' (klaraptor dataset --help)",
    "missing value after '{0}'"};
#define KLARAPTOR_OPTIONS_INC "DatasetExportOptions.inc"
#include "OptionTable.def"
} // namespace exportopts

int runExport(const Args &A) {
  using namespace exportopts;
  llvm::opt::InputArgList Opts;
  if (int Status = options().parse(A, Opts); Status >= 0)
    return Status;
  const std::string DbPath = Opts.getLastArgValue(OPT_db).str(),
                    Out = Opts.getLastArgValue(OPT_out).str();
  std::string Program = Opts.getLastArgValue(OPT_program).str();
  if (DbPath.empty() || Out.empty()) {
    error("dataset export needs --db FILE and --out DIR");
    return 1;
  }
  // ProfileDb::open would create a missing file.
  if (!llvm::sys::fs::exists(DbPath)) {
    error("cannot read the profile database '" + DbPath +
          "': " + std::strerror(errno));
    return 1;
  }
  std::string Error;
  auto Db = profiledb::ProfileDb::open(DbPath, profiledb::MetaInfo(), Error);
  if (!Db) {
    error(Error);
    return 1;
  }
  if (Program.empty())
    Program = stemOf(DbPath);
  sqlite3 *H = Db->handle();
  auto Fail = [&](const char *What) {
    error(DbPath + ": cannot read " + What + ": " + sqlite3_errmsg(H));
    return 1;
  };

  Dataset D;
  D.Program = Program;
  {
    Query Q(H, "SELECT key, value FROM meta ORDER BY key");
    if (!Q.ok())
      return Fail("meta");
    while (Q.row())
      if (!profiledb::isLocalMetaKey(Q.t(0))) // build paths, fit caches
        D.Meta[Q.t(0)] = Q.t(1);
  }
  std::string Date;
  bool HasDate = false;
  {
    Query Q(H, "SELECT MIN(start_time) FROM runs");
    if (Q.ok() && Q.row() && !Q.null(0)) {
      Date = Q.t(0);
      HasDate = true;
    }
  }
  std::map<int64_t, size_t> RunIndex, KernelIndex;
  {
    Query Q(H, "SELECT id, command_line, sizes, start_time, end_time, status "
               "FROM runs ORDER BY id");
    if (!Q.ok())
      return Fail("runs");
    while (Q.row()) {
      RunIndex[Q.i(0)] = D.Runs.size();
      DsRun R;
      R.CommandLine = Q.t(1);
      R.Sizes = canonicalData(Q.t(2));
      R.Start = Q.t(3);
      R.HasEnd = !Q.null(4);
      R.End = Q.t(4);
      R.Status = Q.t(5);
      D.Runs.push_back(std::move(R));
    }
  }
  {
    Query Q(H, "SELECT id, name, spec FROM kernels ORDER BY id");
    if (!Q.ok())
      return Fail("kernels");
    while (Q.row()) {
      KernelIndex[Q.i(0)] = D.Kernels.size();
      D.Kernels.push_back({Q.t(1), Q.t(2)});
    }
  }
  Query L(H, "SELECT id, run_id, kernel_id, data, grid_x, grid_y, grid_z, "
             "block_x, block_y, block_z FROM launches ORDER BY id");
  Query S(H, "SELECT id, block_x, block_y, block_z, grid_x, grid_y, grid_z, "
             "registers, shared_bytes, time_ns, status FROM samples "
             "WHERE launch_id = ?1 ORDER BY id");
  Query M(H, "SELECT key, value FROM metrics WHERE sample_id = ?1 "
             "ORDER BY key");
  if (!L.ok() || !S.ok() || !M.ok())
    return Fail("launches");
  while (L.row()) {
    DsLaunch Ln;
    Ln.Run = RunIndex[L.i(1)];
    Ln.Kernel = KernelIndex[L.i(2)];
    Ln.Data = canonicalData(L.t(3));
    for (int I = 0; I < 3; ++I) {
      Ln.Grid[I] = L.i(4 + I);
      Ln.Block[I] = L.i(7 + I);
    }
    sqlite3_reset(S.get());
    sqlite3_bind_int64(S.get(), 1, L.i(0));
    while (S.row()) {
      DsSample Sm;
      for (int I = 0; I < 3; ++I) {
        Sm.Block[I] = S.i(1 + I);
        Sm.Grid[I] = S.i(4 + I);
      }
      Sm.Registers = S.i(7);
      Sm.SharedBytes = S.i(8);
      Sm.TimeNs = S.d(9);
      Sm.Status = S.t(10);
      sqlite3_reset(M.get());
      sqlite3_bind_int64(M.get(), 1, S.i(0));
      while (M.row())
        Sm.Metrics.push_back({M.t(0), M.d(1)});
      Ln.Samples.push_back(std::move(Sm));
    }
    D.Launches.push_back(std::move(Ln));
  }
  std::string Text = datasetText(D, HasDate ? &Date : nullptr);
  std::string Why;
  if (!makeDirs(Out, Why)) {
    error("cannot create '" + Out + "': " + Why);
    return 1;
  }
  std::string Path = Out + "/" + Program + ".jsonl";
  std::ofstream F(Path, std::ios::binary);
  F << Text;
  F.close();
  if (!F) {
    error("cannot write '" + Path + "'");
    return 1;
  }
  std::printf("%s: %zu runs, %zu kernels, %zu launches\n", Path.c_str(),
              D.Runs.size(), D.Kernels.size(), D.Launches.size());
  return 0;
}

//===--- Import ------------------------------------------------------------===//

namespace importopts {
const Syntax CommandSyntax = {
    datasetUsage,
    "dataset import: unknown option '{0}' (klaraptor dataset --help)",
    "missing value after '{0}'"};
#define KLARAPTOR_OPTIONS_INC "DatasetImportOptions.inc"
#include "OptionTable.def"
} // namespace importopts

int runImport(const Args &A) {
  using namespace importopts;
  llvm::opt::InputArgList Opts;
  if (int Status = options().parse(A, Opts); Status >= 0)
    return Status;
  const std::vector<std::string> Ins = Opts.getAllArgValues(OPT_inputs);
  const std::string Out = Opts.getLastArgValue(OPT_db).str();
  if (Ins.empty() || Out.empty()) {
    error("dataset import needs --in FILE... and --db OUT");
    return 1;
  }
  std::vector<Dataset> Sets(Ins.size());
  std::string Error;
  for (size_t I = 0; I < Ins.size(); ++I)
    if (!readDataset(Ins[I], Sets[I], Error)) {
      error(Error);
      return 1;
    }
  for (const char *Key : {"device", "backend"})
    for (Dataset &D : Sets)
      if (D.Meta[Key] != Sets[0].Meta[Key]) {
        error(D.Path + ": " + Key + " '" + D.Meta[Key] + "' differs from " +
              Sets[0].Path + "'s '" + Sets[0].Meta[Key] +
              "' (a profile database holds one " + Key + ")");
        return 1;
      }
  if (llvm::sys::fs::exists(Out)) {
    error("'" + Out + "' exists; dataset import writes a new database");
    return 1;
  }
  profiledb::MetaInfo Info{Sets[0].Meta["klaraptor_version"],
                           Sets[0].Meta["device"], Sets[0].Meta["backend"]};
  auto Db = profiledb::ProfileDb::open(Out, Info, Error);
  if (!Db) {
    error(Error);
    return 1;
  }
  sqlite3 *H = Db->handle();
  auto Fail = [&](const std::string &What) {
    error(Out + ": cannot write " + What + ": " + sqlite3_errmsg(H));
    sqlite3_exec(H, "ROLLBACK", nullptr, nullptr, nullptr);
    return 1;
  };
  if (sqlite3_exec(H, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) !=
      SQLITE_OK)
    return Fail("a transaction");
  {
    Query Q(H, "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)");
    for (const Dataset &D : Sets)
      for (const auto &[K, V] : D.Meta) {
        if (K == "schema_version")
          continue;
        sqlite3_reset(Q.get());
        sqlite3_bind_text(Q.get(), 1, K.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(Q.get(), 2, V.c_str(), -1, SQLITE_TRANSIENT);
        if (sqlite3_step(Q.get()) != SQLITE_DONE)
          return Fail("meta");
      }
  }
  Query R(H, "INSERT INTO runs (command_line, sizes, start_time, end_time, "
             "status) VALUES (?1, ?2, ?3, ?4, ?5)");
  Query K(H, "INSERT OR IGNORE INTO kernels (name, spec, spec_hash) VALUES "
             "(?1, ?2, ?3)");
  Query KId(H, "SELECT id FROM kernels WHERE name = ?1 AND spec_hash = ?2");
  Query L(H, "INSERT INTO launches (run_id, kernel_id, data, grid_x, grid_y, "
             "grid_z, block_x, block_y, block_z) VALUES (?1, ?2, ?3, ?4, ?5, "
             "?6, ?7, ?8, ?9)");
  Query S(H, "INSERT INTO samples (launch_id, block_x, block_y, block_z, "
             "grid_x, grid_y, grid_z, registers, shared_bytes, time_ns, "
             "status) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  Query M(H, "INSERT INTO metrics (sample_id, key, value) VALUES (?1, ?2, ?3)");
  if (!R.ok() || !K.ok() || !KId.ok() || !L.ok() || !S.ok() || !M.ok())
    return Fail("rows");
  auto Text = [](Query &Q, int I, const std::string &V) {
    sqlite3_bind_text(Q.get(), I, V.c_str(), -1, SQLITE_TRANSIENT);
  };
  size_t Launches = 0, Samples = 0;
  for (const Dataset &D : Sets) {
    std::vector<int64_t> RunIds, KernelIds;
    for (const DsRun &Run : D.Runs) {
      sqlite3_reset(R.get());
      Text(R, 1, Run.CommandLine);
      Text(R, 2, Run.Sizes);
      Text(R, 3, Run.Start);
      if (Run.HasEnd)
        Text(R, 4, Run.End);
      else
        sqlite3_bind_null(R.get(), 4);
      Text(R, 5, Run.Status);
      if (sqlite3_step(R.get()) != SQLITE_DONE)
        return Fail("a run");
      RunIds.push_back(sqlite3_last_insert_rowid(H));
    }
    for (const DsKernel &Kn : D.Kernels) {
      std::string Hash = profiledb::specHash(Kn.Spec);
      sqlite3_reset(K.get());
      Text(K, 1, Kn.Name);
      Text(K, 2, Kn.Spec);
      Text(K, 3, Hash);
      sqlite3_reset(KId.get());
      Text(KId, 1, Kn.Name);
      Text(KId, 2, Hash);
      if (sqlite3_step(K.get()) != SQLITE_DONE || !KId.row())
        return Fail("a kernel");
      KernelIds.push_back(KId.i(0));
    }
    for (const DsLaunch &Ln : D.Launches) {
      sqlite3_reset(L.get());
      sqlite3_bind_int64(L.get(), 1, RunIds[Ln.Run]);
      sqlite3_bind_int64(L.get(), 2, KernelIds[Ln.Kernel]);
      Text(L, 3, Ln.Data);
      for (int I = 0; I < 3; ++I) {
        sqlite3_bind_int64(L.get(), 4 + I, Ln.Grid[I]);
        sqlite3_bind_int64(L.get(), 7 + I, Ln.Block[I]);
      }
      if (sqlite3_step(L.get()) != SQLITE_DONE)
        return Fail("a launch");
      int64_t LaunchId = sqlite3_last_insert_rowid(H);
      ++Launches;
      for (const DsSample &Sm : Ln.Samples) {
        sqlite3_reset(S.get());
        sqlite3_bind_int64(S.get(), 1, LaunchId);
        for (int I = 0; I < 3; ++I) {
          sqlite3_bind_int64(S.get(), 2 + I, Sm.Block[I]);
          sqlite3_bind_int64(S.get(), 5 + I, Sm.Grid[I]);
        }
        sqlite3_bind_int64(S.get(), 8, Sm.Registers);
        sqlite3_bind_int64(S.get(), 9, Sm.SharedBytes);
        sqlite3_bind_double(S.get(), 10, Sm.TimeNs);
        Text(S, 11, Sm.Status);
        if (sqlite3_step(S.get()) != SQLITE_DONE)
          return Fail("a sample");
        int64_t SampleId = sqlite3_last_insert_rowid(H);
        ++Samples;
        for (const auto &[Key, V] : Sm.Metrics) {
          sqlite3_reset(M.get());
          sqlite3_bind_int64(M.get(), 1, SampleId);
          Text(M, 2, Key);
          sqlite3_bind_double(M.get(), 3, V);
          if (sqlite3_step(M.get()) != SQLITE_DONE)
            return Fail("a metric");
        }
      }
    }
  }
  if (sqlite3_exec(H, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
    return Fail("the import");
  std::printf("%s: %zu datasets, %zu launches, %zu samples\n", Out.c_str(),
              Sets.size(), Launches, Samples);
  return 0;
}

//===--- Bench -------------------------------------------------------------===//

/// NAME -> (train, test) from a bench manifest (NAME SOURCE [train=LIST]
/// [test=LIST] -- ARGS); only the fields this command needs.
bool readSizes(const std::string &Path,
               std::map<std::string, std::pair<std::string, std::string>> &Out,
               std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = "cannot read the manifest '" + Path + "'";
    return false;
  }
  std::string Line;
  while (std::getline(In, Line)) {
    size_t Hash = Line.find('#');
    if (Hash != std::string::npos)
      Line.resize(Hash);
    std::istringstream SS(Line);
    std::string Name, W;
    if (!(SS >> Name))
      continue;
    auto &E = Out[Name];
    while (SS >> W && W != "--") {
      if (W.rfind("train=", 0) == 0)
        E.first = W.substr(6);
      else if (W.rfind("test=", 0) == 0)
        E.second = W.substr(5);
    }
  }
  return true;
}

struct BenchRow {
  std::string Program, Kernel, Data, Best, Chosen, EmuChosen, Requested;
  int64_t Size = 0;
  unsigned Shapes = 0;
  double BestNs = NAN, ChosenNs = NAN, EmuChosenNs = NAN, RequestedNs = NAN;
};

struct Stats {
  unsigned N = 0, AtLeast90 = 0;
  double Geomean = NAN, Worst = NAN;
};

Stats stats(const std::vector<BenchRow> &Rows, double BenchRow::*Field) {
  Stats S;
  double Log = 0;
  for (const BenchRow &R : Rows) {
    double X = R.BestNs / (R.*Field);
    if (!std::isfinite(X) || X <= 0)
      continue;
    ++S.N;
    Log += std::log(X);
    S.AtLeast90 += X >= 0.9;
    if (!(X >= S.Worst))
      S.Worst = X;
  }
  if (S.N)
    S.Geomean = std::exp(Log / S.N);
  return S;
}

std::string statText(const Stats &S) {
  if (!S.N)
    return "n/a";
  char B[128];
  std::snprintf(B, sizeof(B), "geomean %.3f, worst %.3f, %u of %u >= 0.90",
                S.Geomean, S.Worst, S.AtLeast90, S.N);
  return B;
}

namespace benchopts {
const Syntax CommandSyntax = {
    datasetUsage,
    "dataset bench: unknown option '{0}' (klaraptor dataset --help)",
    "missing value after '{0}'"};
#define KLARAPTOR_OPTIONS_INC "DatasetBenchOptions.inc"
#include "OptionTable.def"
} // namespace benchopts

int runDatasetBench(const Args &A) {
  using namespace benchopts;
  llvm::opt::InputArgList Opts;
  if (int Status = options().parse(A, Opts); Status >= 0)
    return Status;
  const std::vector<std::string> Ins = Opts.getAllArgValues(OPT_inputs),
                                 Emus = Opts.getAllArgValues(OPT_emu);
  const std::string Manifest =
      Opts.getLastArgValue(OPT_manifest, defaultBenchManifest()).str();
  const std::string Train = Opts.getLastArgValue(OPT_train_sizes).str(),
                    Test = Opts.getLastArgValue(OPT_test_sizes).str(),
                    Device = Opts.getLastArgValue(OPT_device).str(),
                    JsonOut = Opts.getLastArgValue(OPT_json).str();
  if (Ins.empty()) {
    error("dataset bench needs --in FILE...");
    return 1;
  }
  std::string Error;
  std::set<int64_t> TrainOverride, TestOverride;
  if (!Train.empty() && !parseSizes(Train, TrainOverride)) {
    error("--train-sizes: expected positive integers separated by commas, "
          "got '" + Train + "'");
    return 1;
  }
  if (!Test.empty() && !parseSizes(Test, TestOverride)) {
    error("--test-sizes: expected positive integers separated by commas, "
          "got '" + Test + "'");
    return 1;
  }
  std::map<std::string, std::pair<std::string, std::string>> ManifestSizes;
  if ((Train.empty() || Test.empty()) &&
      !readSizes(Manifest, ManifestSizes, Error)) {
    error(Error);
    return 1;
  }
  // The emulator's estimates by (kernel, data): block -> ns.
  std::map<std::pair<std::string, std::string>,
           std::map<std::string, double>>
      Estimates;
  for (const std::string &P : Emus) {
    Dataset D;
    if (!readDataset(P, D, Error)) {
      error(Error);
      return 1;
    }
    if (D.Meta["backend"] != "emu")
      warning(P + ": --emu dataset of the '" + D.Meta["backend"] +
              "' backend, not 'emu'");
    for (const DsLaunch &L : D.Launches) {
      auto Key = std::make_pair(D.Kernels[L.Kernel].Name, L.Data);
      if (Estimates.count(Key))
        continue;
      auto &E = Estimates[Key];
      for (const DsSample &S : L.Samples)
        if (usable(S))
          E[dimText(S.Block)] = S.TimeNs;
    }
  }

  std::vector<BenchRow> Rows;
  unsigned Failures = 0;
  std::vector<std::pair<std::string, std::vector<BenchRow>>> PerProgram;
  for (const std::string &P : Ins) {
    Dataset D;
    if (!readDataset(P, D, Error)) {
      error(Error);
      return 1;
    }
    if (isTimesOnly(D)) {
      error(P + ": a times-only dataset (measured times, no metrics): "
            "'dataset bench' fits on the dataset itself; judge the choices "
            "of programs profiled elsewhere against its times with "
            "'klaraptor dataset judge --measured " + P + " ...'");
      return 1;
    }
    std::set<int64_t> TrainSet = TrainOverride, TestSet = TestOverride;
    auto It = ManifestSizes.find(D.Program);
    if ((TrainSet.empty() &&
         (It == ManifestSizes.end() ||
          !parseSizes(It->second.first, TrainSet))) ||
        (TestSet.empty() &&
         (It == ManifestSizes.end() ||
          !parseSizes(It->second.second, TestSet)))) {
      error(P + ": program '" + D.Program + "' has no train= and test= "
            "sizes in " + Manifest + "; give --train-sizes and --test-sizes");
      return 1;
    }
    std::string DevNote;
    std::string Dev =
        Device.empty() ? deviceProfileFor(D.Meta["device"], DevNote,
                                          D.Meta["device_profile"], P)
                       : Device;
    if (!DevNote.empty())
      warning(P + ": " + DevNote);
    std::vector<BenchRow> Mine;
    for (size_t K = 0; K < D.Kernels.size(); ++K) {
      std::vector<profiledb::SampleRow> Samples;
      std::vector<const DsLaunch *> TestLaunches;
      for (size_t LI = 0; LI < D.Launches.size(); ++LI) {
        const DsLaunch &L = D.Launches[LI];
        int64_t N;
        if (L.Kernel != K || !runSize(D.Runs[L.Run], N))
          continue;
        if (TestSet.count(N))
          TestLaunches.push_back(&L);
        if (!TrainSet.count(N))
          continue;
        for (const DsSample &S : L.Samples) {
          profiledb::SampleRow R;
          R.LaunchId = int64_t(LI) + 1;
          R.Data = L.DataTuple;
          for (int I = 0; I < 3; ++I) {
            R.Block[I] = uint32_t(S.Block[I]);
            R.Grid[I] = uint32_t(S.Grid[I]);
          }
          R.Registers = S.Registers;
          R.SharedBytes = S.SharedBytes;
          R.TimeNs = S.TimeNs;
          R.Status = S.Status;
          R.Metrics.insert(S.Metrics.begin(), S.Metrics.end());
          Samples.push_back(std::move(R));
        }
      }
      const DsKernel &Kn = D.Kernels[K];
      if (TestLaunches.empty())
        continue;
      if (Samples.empty()) {
        error(P + ": kernel '" + Kn.Name + "' has no launch at the "
              "training sizes");
        ++Failures;
        continue;
      }
      profiledb::KernelRow Row;
      Row.Id = int64_t(K) + 1;
      Row.Name = Kn.Name;
      Row.Spec = Kn.Spec;
      KernelFitOptions Options;
      Options.Device = Dev;
      KernelFit Fit;
      if (!fitKernelSamples(Row, Samples, Dev, Options, Fit, Error)) {
        error(P + ": " + Error +
              (Device.empty() ? " (give --device PROFILE)" : ""));
        ++Failures;
        continue;
      }
      for (const DsLaunch *L : TestLaunches) {
        BenchRow B;
        B.Program = D.Program;
        B.Kernel = Kn.Name;
        B.Data = dataText(L->DataTuple);
        runSize(D.Runs[L->Run], B.Size);
        B.Requested = dimText(L->Block);
        auto EIt = Estimates.find({Kn.Name, L->Data});
        double BestPred = NAN, BestEmu = NAN;
        for (const DsSample &S : L->Samples) {
          if (!usable(S))
            continue;
          ++B.Shapes;
          std::string Shape = dimText(S.Block);
          if (!(S.TimeNs >= B.BestNs)) {
            B.BestNs = S.TimeNs;
            B.Best = Shape;
          }
          if (Shape == B.Requested)
            B.RequestedNs = S.TimeNs;
          uint32_t Blk[3] = {uint32_t(S.Block[0]), uint32_t(S.Block[1]),
                             uint32_t(S.Block[2])};
          double Ns;
          std::string Why;
          // The runtime's rule (runtime/lib/Runtime.cpp): the least
          // finite, non-negative prediction; on a tie the requested shape.
          bool IsRequest = Shape == B.Requested;
          if (Fit.predictNs(L->DataTuple, Blk, Ns, Why) && std::isfinite(Ns) &&
              Ns >= 0 &&
              (!(Ns >= BestPred) ||
               (Ns == BestPred && IsRequest && B.Chosen != B.Requested))) {
            BestPred = Ns;
            B.Chosen = Shape;
            B.ChosenNs = S.TimeNs;
          }
          if (EIt != Estimates.end()) {
            auto E = EIt->second.find(Shape);
            if (E != EIt->second.end() &&
                (!(E->second >= BestEmu) ||
                 (E->second == BestEmu && IsRequest &&
                  B.EmuChosen != B.Requested))) {
              BestEmu = E->second;
              B.EmuChosen = Shape;
              B.EmuChosenNs = S.TimeNs;
            }
          }
        }
        if (B.Shapes)
          Mine.push_back(std::move(B));
      }
    }
    Rows.insert(Rows.end(), Mine.begin(), Mine.end());
    PerProgram.push_back({D.Program, std::move(Mine)});
  }

  std::printf("%-12s %-16s %-16s %6s %-10s %11s %-10s %7s %-10s %7s %7s\n",
              "program", "kernel", "data", "shapes", "best", "best ns",
              "chosen", "b/c", "emu", "b/emu", "b/req");
  auto Ratio = [](double Best, double Other) {
    char B[32];
    if (!std::isfinite(Best / Other))
      return std::string("-");
    std::snprintf(B, sizeof(B), "%.3f", Best / Other);
    return std::string(B);
  };
  for (const BenchRow &R : Rows)
    std::printf("%-12s %-16s %-16s %6u %-10s %11.1f %-10s %7s %-10s %7s %7s\n",
                R.Program.c_str(), R.Kernel.c_str(), R.Data.c_str(), R.Shapes,
                R.Best.c_str(), R.BestNs,
                R.Chosen.empty() ? "-" : R.Chosen.c_str(),
                Ratio(R.BestNs, R.ChosenNs).c_str(),
                R.EmuChosen.empty() ? "-" : R.EmuChosen.c_str(),
                Ratio(R.BestNs, R.EmuChosenNs).c_str(),
                Ratio(R.BestNs, R.RequestedNs).c_str());
  std::printf("\nbest/chosen on the datasets' measured times "
              "(1 = the best shape was chosen):\n");
  for (const auto &[Name, Mine] : PerProgram)
    std::printf("  %-12s %s: %s; emulator: %s\n", Name.c_str(),
                model::defaultModel(),
                statText(stats(Mine, &BenchRow::ChosenNs)).c_str(),
                statText(stats(Mine, &BenchRow::EmuChosenNs)).c_str());
  Stats All = stats(Rows, &BenchRow::ChosenNs),
        Emu = stats(Rows, &BenchRow::EmuChosenNs),
        Req = stats(Rows, &BenchRow::RequestedNs);
  std::printf("all launches: %zu\n  %s (rational programs): %s\n"
              "  emulator estimate:           %s\n"
              "  the programs' own shapes:    %s\n",
              Rows.size(), model::defaultModel(), statText(All).c_str(),
              statText(Emu).c_str(),
              statText(Req).c_str());
  if (!JsonOut.empty()) {
    std::ofstream F(JsonOut);
    F << "{\"launches\":[";
    for (size_t I = 0; I < Rows.size(); ++I) {
      const BenchRow &R = Rows[I];
      F << (I ? ",\n" : "\n") << "{\"program\":" << jsonQuote(R.Program)
        << ",\"kernel\":" << jsonQuote(R.Kernel) << ",\"size\":" << R.Size
        << ",\"data\":" << jsonQuote(R.Data) << ",\"shapes\":" << R.Shapes
        << ",\"best\":" << jsonQuote(R.Best) << ",\"best_ns\":" << jsonNumber(R.BestNs)
        << ",\"chosen\":" << jsonQuote(R.Chosen)
        << ",\"chosen_ns\":" << jsonNumber(R.ChosenNs)
        << ",\"emu_chosen\":"
        << (R.EmuChosen.empty() ? std::string("null") : jsonQuote(R.EmuChosen))
        << ",\"emu_chosen_ns\":" << jsonNumber(R.EmuChosenNs)
        << ",\"requested\":" << jsonQuote(R.Requested)
        << ",\"requested_ns\":" << jsonNumber(R.RequestedNs) << "}";
    }
    auto StatJson = [](const Stats &S) {
      return "{\"n\":" + std::to_string(S.N) + ",\"geomean\":" +
             jsonNumber(S.Geomean) + ",\"worst\":" + jsonNumber(S.Worst) + "}";
    };
    F << "\n],\"mwp_cwp\":" << StatJson(All) << ",\"emulator\":"
      << StatJson(Emu) << ",\"requested\":" << StatJson(Req) << "}\n";
    if (!F) {
      error("cannot write '" + JsonOut + "'");
      return 1;
    }
  }
  if (Rows.empty()) {
    error("no launch at the test sizes was evaluated");
    return 1;
  }
  return Failures ? 1 : 0;
}

} // namespace

int runDataset(const Args &A) {
  const llvm::StringRef Action = A.empty() ? "" : A[0];
  if (A.empty() || Action == "--help" || Action == "-h") {
    std::fputs(datasetUsage(), A.empty() ? stderr : stdout);
    return A.empty() ? 1 : 0;
  }
  const Args Rest = A.drop_front();
  if (Action == "export")
    return runExport(Rest);
  if (Action == "import")
    return runImport(Rest);
  if (Action == "import-csv")
    return runDatasetImportCsv(Rest);
  if (Action == "judge")
    return runDatasetJudge(Rest);
  if (Action == "bench")
    return runDatasetBench(Rest);
  error("dataset: unknown action '" + Action.str() +
        "' (expected export, import, import-csv, bench or judge)");
  return 1;
}

} // namespace cli
} // namespace klaraptor
