//===- DecisionLog.h - decisions appended to KLARAPTOR_LOG as JSON lines --===//
///
/// \file
/// One JSON object per line for every new decision (docs/runtime-abi.md
/// lists the fields). The file is opened on the first line with O_APPEND
/// and every line is one write(2), so processes sharing a log do not
/// interleave their lines.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_DECISIONLOG_H
#define KLARAPTOR_RUNTIME_DECISIONLOG_H

#include "Diagnostics.h"
#include "History.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace klaraptor {

/// Everything one log line says.
struct LogEntry {
  std::string Kernel;
  std::string DeviceName;
  int Device = -1;
  std::vector<std::pair<std::string, int64_t>> Data;
  Dim3 RequestedGrid = {1, 1, 1}, RequestedBlock = {1, 1, 1};
  Dim3 Grid = {1, 1, 1}, Block = {1, 1, 1};
  /// The launch's dynamic shared memory, bytes: written for kernels whose
  /// pragma has shared(...).
  bool HaveShared = false;
  uint64_t Shared = 0;
  DecisionSource Source = DecisionSource::Fallback;
  std::string Reason;
  std::string ModelName;
  bool HavePrediction = false;
  double Predicted = 0;
  /// Source "measured": the chosen shape's measured ns and the shapes timed.
  double MeasuredNs = 0;
  unsigned Trials = 0;
  unsigned Candidates = 0;
  long Pid = 0;
};

class DecisionLog {
public:
  /// \p Path empty: the log is disabled.
  DecisionLog(std::string Path, Diagnostics &Diags)
      : Path(std::move(Path)), Diags(Diags) {}
  ~DecisionLog();
  DecisionLog(const DecisionLog &) = delete;
  DecisionLog &operator=(const DecisionLog &) = delete;

  bool enabled() const { return !Path.empty(); }
  const std::string &path() const { return Path; }

  /// Appends \p E as one line. Failures are reported once and dropped.
  void write(const LogEntry &E);

  /// The JSON object for \p E, without a newline.
  static std::string format(const LogEntry &E);
  /// \p S as a JSON string literal, quotes included.
  static std::string quote(const std::string &S);

private:
  std::string Path;
  Diagnostics &Diags;
  std::mutex M;
  int Fd = -1;
  bool OpenFailed = false;
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_DECISIONLOG_H
