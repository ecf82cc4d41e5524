//===- ProfileDb.h - The profile database (SQLite) --------------*- C++ -*-===//
///
/// \file
/// The profile database that `klaraptor profile` writes and `klaraptor fit`
/// reads: runs, kernels, launches (one sweep over the admissible block shapes
/// each), samples (one per block shape) and their metrics. RAII over the
/// sqlite3 C API; every failure returns false (or -1) with an error message
/// that names the file and carries SQLite's message. docs/profile-db.md
/// documents the schema (version 1) and how resuming works.
///
//===----------------------------------------------------------------------===//

#ifndef KLARAPTOR_PROFILER_DB_PROFILEDB_H
#define KLARAPTOR_PROFILER_DB_PROFILEDB_H

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct sqlite3;

namespace klaraptor {
namespace profiledb {

/// The schema version this library writes and reads (PRAGMA user_version).
constexpr int SchemaVersion = 1;

/// Data parameter values by name (names are C identifiers). Stored as a
/// canonical JSON object, keys sorted, so equal tuples have equal text.
using DataTuple = std::map<std::string, int64_t>;

/// What the `meta` table records when a database is created.
struct MetaInfo {
  std::string KlaraptorVersion; ///< the version of the klaraptor that wrote it
  std::string Device;           ///< the GPU or device profile
  std::string Backend;          ///< the profiler backend ("emu", "cupti")
};

/// One measured block shape of a launch's sweep.
struct Sample {
  uint32_t Block[3] = {1, 1, 1};
  uint32_t Grid[3] = {1, 1, 1};
  int64_t Registers = 0;         ///< registers per thread
  int64_t SharedBytes = 0;       ///< static + dynamic shared memory per block
  double TimeNs = 0;             ///< measured (or estimated) time
  std::string Status = "ok";     ///< "ok", or why the shape failed
  std::vector<std::pair<std::string, double>> Metrics;
};

/// One row of the `kernels` table.
struct KernelRow {
  int64_t Id = 0;
  std::string Name; ///< the device (mangled) name
  std::string Spec;

  /// The kernel's name as written in the source (the spec's `kernel`
  /// line, docs/spec-format.md), else Name.
  std::string sourceName() const;
  /// "source_name (device_name)", or Name alone when they are the same:
  /// how a person reads the kernel's name.
  std::string displayName() const;
  /// Whether \p Query names this kernel: its device or its source name, or
  /// for a specialization of a kernel template (`ns::axpy<float>`) the
  /// template's name (`ns::axpy`, every specialization).
  bool isNamed(const std::string &Query) const;
};

/// The error for a `--kernel NAME` that matches none of \p Rows: "no kernel
/// 'NAME' in FILE; its kernels: a (_Z1aPf), b (_Z1bPf)".
std::string noSuchKernelText(const std::string &Query, const std::string &File,
                             const std::vector<KernelRow> &Rows);

/// One sample as the fitter reads it: the launch's data values and the
/// sample's block shape and metrics.
struct SampleRow {
  int64_t LaunchId = 0;
  DataTuple Data;
  uint32_t Block[3] = {1, 1, 1};
  uint32_t Grid[3] = {1, 1, 1};
  int64_t Registers = 0;
  int64_t SharedBytes = 0;
  double TimeNs = 0;
  std::string Status;
  std::map<std::string, double> Metrics;

  /// Whether the kernel did not run with this shape: no time and a status
  /// other than "ok" (a fault such as an out-of-bounds access, or a refused
  /// launch). A shape that ran without a time estimate ("no time estimate:
  /// ...") or was timed without metrics (cupti) ran.
  bool failedToRun() const {
    return Status != "ok" && !(TimeNs > 0) &&
           Status.rfind("no time estimate", 0) != 0;
  }
};

/// A block shape as `XxYxZ` ("128x1x1").
std::string blockText(const uint32_t Block[3]);

/// The block shapes of \p Rows that did not run (SampleRow::failedToRun).
struct FailedShapes {
  std::vector<std::array<uint32_t, 3>> Blocks; ///< sorted, each once
  unsigned Samples = 0;                        ///< the samples that failed
  std::string First;                           ///< the first one's status
  /// The blocks as "256x1x1, 512x1x1".
  std::string list() const;
};
FailedShapes failedShapes(const std::vector<SampleRow> &Rows);

/// The canonical JSON text of \p Data: {"M":1,"N":2}, keys sorted.
std::string dataToJson(const DataTuple &Data);
/// Parses dataToJson's output; false on anything else.
bool dataFromJson(const std::string &Text, DataTuple &Data);
/// FNV-1a 64 of \p Text as 16 lower-case hex digits.
std::string specHash(const std::string &Text);

/// The meta key under which `klaraptor profile` keeps the identity of the
/// program file a database was profiled with (fileIdentity); not exported
/// into datasets (a local build's path).
inline std::string programIdentityKey(const std::string &AbsolutePath) {
  return "program_identity:" + AbsolutePath;
}
/// The meta key under which `klaraptor fit` keeps a kernel's fit cache
/// (model/fit's FitCache); not exported into datasets (it holds fits that
/// only the same klaraptor executable reuses).
inline std::string fitCacheKey(const std::string &KernelName) {
  return "fit_cache:" + KernelName;
}
/// Whether a meta key belongs to this machine's tools (program identities,
/// fit caches) rather than to the measurements: datasets leave them out.
inline bool isLocalMetaKey(const std::string &Key) {
  return Key.rfind("program_identity:", 0) == 0 ||
         Key.rfind("fit_cache:", 0) == 0;
}
/// "SIZE bytes, fnv1a64 HASH" of a file's content, or "" with \p Error.
std::string fileIdentity(const std::string &Path, std::string &Error);

/// An open profile database (one connection). Not shared between threads:
/// open one per thread or process; WAL mode and a busy timeout let several
/// writers take turns.
class ProfileDb {
public:
  ~ProfileDb();
  ProfileDb(const ProfileDb &) = delete;
  ProfileDb &operator=(const ProfileDb &) = delete;

  /// Opens \p Path, creating it (schema version 1, \p Meta in `meta`) when it
  /// does not exist or is empty. Refuses a newer schema version, a file that
  /// is not SQLite, and a SQLite file that is not a profile database.
  static std::unique_ptr<ProfileDb> open(const std::string &Path,
                                         const MetaInfo &Meta,
                                         std::string &Error,
                                         int BusyTimeoutMs = 10000);

  const std::string &path() const { return Path; }
  /// A `meta` value, or "" when absent.
  std::string meta(const std::string &Key);
  bool setMeta(const std::string &Key, const std::string &Value,
               std::string &Error);

  /// Starts a run (status "running"); its id, or -1.
  int64_t beginRun(const std::string &CommandLine, const DataTuple &Sizes,
                   std::string &Error);
  /// Ends a run with \p Status ("ok", "failed", "interrupted").
  bool endRun(int64_t Run, const std::string &Status, std::string &Error);

  /// The id of the kernel (\p Name, \p SpecText), inserted if new; -1 on
  /// error.
  int64_t recordKernel(const std::string &Name, const std::string &SpecText,
                       std::string &Error);
  /// The id of a recorded kernel, or -1 when none.
  int64_t findKernel(const std::string &Name, const std::string &SpecText);

  /// Records one launch's sweep, its samples and their metrics, in one
  /// transaction: all of it or nothing. Returns the launch id, or -1. A
  /// profiler records a launch with its first measured samples and adds the
  /// others as they are measured (appendSamples), so that a sweep killed
  /// half way keeps the shapes it measured and resumes after them.
  int64_t recordSweep(int64_t Run, int64_t Kernel, const DataTuple &Data,
                      const uint32_t RequestedGrid[3],
                      const uint32_t RequestedBlock[3],
                      const std::vector<Sample> &Samples, std::string &Error);
  /// Adds \p Samples (and their metrics) to launch \p Launch, in one
  /// transaction.
  bool appendSamples(int64_t Launch, const std::vector<Sample> &Samples,
                     std::string &Error);

  /// Whether some launch of \p Kernel with \p Data has a sample for
  /// \p Block (any status): the shape needs no new measurement on resume.
  bool hasSample(int64_t Kernel, const DataTuple &Data,
                 const uint32_t Block[3]);

  /// Every recorded kernel, ordered by id.
  bool kernels(std::vector<KernelRow> &Rows, std::string &Error);

  /// Whether the run \p Run is recorded.
  bool hasRun(int64_t Run);

  /// Whether a run of exactly \p CommandLine ended with status "ok": the
  /// command need not run again when a profile resumes.
  bool hasCompletedRun(const std::string &CommandLine);

  /// Every sample of \p Kernel, ordered by launch then sample id.
  bool samplesOf(int64_t Kernel, std::vector<SampleRow> &Rows,
                 std::string &Error);

  /// The raw connection, for tests and ad-hoc queries.
  sqlite3 *handle() { return Db; }

private:
  /// Inserts \p Samples of launch \p Launch inside the caller's transaction.
  bool insertSamples(int64_t Launch, const std::vector<Sample> &Samples,
                     std::string &Error);
  ProfileDb(sqlite3 *Db, std::string Path) : Db(Db), Path(std::move(Path)) {}
  bool exec(const char *Sql, std::string &Error);
  std::string fail(const std::string &What) const;

  sqlite3 *Db;
  std::string Path;
};

} // namespace profiledb
} // namespace klaraptor

#endif // KLARAPTOR_PROFILER_DB_PROFILEDB_H
