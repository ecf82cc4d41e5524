//===- DatasetFile.h - the validation dataset's format ----------*- C++ -*-===//
///
/// \file
/// A dataset is a profile database as JSON Lines (docs/dataset.md): a header,
/// then runs, kernels, and each launch followed by its samples. This header
/// holds the reader and the pieces the `dataset` actions share (export,
/// import, import-csv, bench, judge): JSON writing in the format's exact
/// number form, the in-memory dataset, size lists and labels.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TOOLS_KLARAPTOR_DATASETFILE_H
#define KLARAPTOR_TOOLS_KLARAPTOR_DATASETFILE_H

#include "Commands.h"
#include "ProfileDb.h"

#include <cmath>
#include <cstdint>
#include <istream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace klaraptor {
namespace cli {

/// The shortest %g form that reads back as exactly \p V; "null" when not
/// finite (JSON has no NaN).
std::string jsonNumber(double V);
/// \p S as a JSON string literal.
std::string jsonQuote(const std::string &S);
/// [x,y,z].
std::string jsonDims(const int64_t D[3]);
/// The file name of \p Path without folders and without its last extension.
std::string stemOf(const std::string &Path);

/// A `run` line.
struct DsRun {
  std::string CommandLine, Sizes, Start, End, Status;
  bool HasEnd = false;
  profiledb::DataTuple SizeTuple;
};

/// A `kernel` line.
struct DsKernel {
  std::string Name, Spec;
};

/// A `sample` line.
struct DsSample {
  int64_t Block[3], Grid[3];
  int64_t Registers = 0, SharedBytes = 0;
  double TimeNs = NAN;
  std::string Status;
  std::vector<std::pair<std::string, double>> Metrics;
};

/// A `launch` line and the samples after it.
struct DsLaunch {
  size_t Run = 0, Kernel = 0; ///< indices into Dataset::Runs / Kernels
  std::string Data;           ///< canonical JSON
  profiledb::DataTuple DataTuple;
  int64_t Grid[3], Block[3];
  std::vector<DsSample> Samples;
};

/// A whole dataset file.
struct Dataset {
  std::string Path, Program;
  std::map<std::string, std::string> Meta;
  std::vector<DsRun> Runs;
  std::vector<DsKernel> Kernels;
  std::vector<DsLaunch> Launches;
};

/// The dataset \p D as the text of its file, line by line in the format's
/// order: ids renumbered from 1 in the order of \p D's vectors, metric keys
/// sorted, numbers in their shortest exact form (jsonNumber). \p Date is the
/// header's `date` (null when absent). The same dataset always gives the same
/// bytes; reading the text back gives \p D again.
std::string datasetText(const Dataset &D, const std::string *Date);

/// Reads the dataset \p Path; errors name the file and line
/// ("FILE:LINE: malformed JSON: ...").
bool readDataset(const std::string &Path, Dataset &D, std::string &Error);
/// readDataset on the text of \p In; \p Path names it in messages.
bool readDatasetFrom(std::istream &In, const std::string &Path, Dataset &D,
                     std::string &Error);

/// Whether no sample of \p D carries a counted metric (only the timing keys
/// `gpu_time_*` or nothing): a times-only dataset, which can be judged
/// against but not fitted.
bool isTimesOnly(const Dataset &D);
/// Whether \p Metrics has a key other than the timing keys `gpu_time_*`.
bool hasCountedMetrics(const std::vector<std::pair<std::string, double>> &Metrics);

/// `klaraptor dataset import-csv ...` (DatasetCsv.cpp).
int runDatasetImportCsv(const Args &A);
/// Its usage text.
const char *importCsvUsage();

/// `klaraptor dataset judge ...` (Judge.cpp).
int runDatasetJudge(const Args &A);
/// Its usage text.
const char *datasetJudgeUsage();

/// Parses "1,2,3" (positive integers) into \p Out; false on anything else.
bool parseSizes(const std::string &Text, std::set<int64_t> &Out);
/// 32x8x1.
std::string dimText(const int64_t D[3]);
/// N=1,M=2 (keys sorted).
std::string dataText(const profiledb::DataTuple &D);
/// A sample with status ok and a finite, positive time.
bool usable(const DsSample &S);
/// The one size of a run (the manifest's {N}); false when the run has not
/// exactly one.
bool runSize(const DsRun &R, int64_t &N);

} // namespace cli
} // namespace klaraptor

#endif // KLARAPTOR_TOOLS_KLARAPTOR_DATASETFILE_H
