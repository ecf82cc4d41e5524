//===- Backend.h - the profiler interface: backends and launch records ----===//
///
/// \file
/// klaraptor measures kernel launches through a profiler *backend*: `emu`
/// (the CPU PTX emulator, profiler/backend/EmuBackend.h) now, `cupti` (a real
/// GPU through CUPTI's range profiler) later. Every backend produces, per
/// kernel launch, a LaunchRecord: the launch configuration and a set of
/// metrics, each under a stable key. docs/metrics.md lists the keys, what
/// they mean and the CUPTI metric with the same meaning, so that a model
/// fitted from one backend's records can be fed the other's.
///
/// A measurement brackets the launches it wants to see:
/// \code
///   std::string Error;
///   std::unique_ptr<Backend> B = createBackend("emu", Error);
///   B->begin(Error);
///   kernel<<<grid, block>>>(...);
///   std::vector<LaunchRecord> Records;
///   B->end(Records, Error);
/// \endcode
/// No LLVM and no CUDA headers here.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_BACKEND_H
#define KLARAPTOR_PROFILER_BACKEND_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace klaraptor::profiler {

/// One metric a backend can report.
struct MetricInfo {
  const char *Key;         ///< stable key, e.g. "global_load_sectors"
  const char *Description; ///< one line
  const char *Cupti;       ///< the CUPTI / Nsight Compute metric of the same
                           ///< meaning, or "" when there is none
};

/// One kernel launch as a backend measured it.
struct LaunchRecord {
  std::string Kernel;  ///< the kernel's symbol (mangled) name
  std::string Backend; ///< the backend that measured it
  std::string Device;  ///< the device (profile) it ran on
  uint32_t Grid[3] = {1, 1, 1};
  uint32_t Block[3] = {1, 1, 1};
  uint64_t DynamicSharedBytes = 0;
  /// Metric values by key, in the backend's metricNames() order. Counts are
  /// integers; a value is a double so that scaled (sampled) counts and times
  /// fit too.
  std::vector<std::pair<std::string, double>> Values;

  /// The value of \p Key, or \p Default when the record has none.
  double get(std::string_view Key, double Default = 0) const;
  void set(std::string_view Key, double Value);
  /// One JSON object on one line (no newline), keys in a fixed order:
  /// {"kernel":..., "backend":..., "device":..., "grid":[x,y,z],
  ///  "block":[x,y,z], "dynamic_shared_bytes":n, then every value}.
  /// Integral values print as integers, others with %.17g.
  std::string toJson() const;
};

/// A source of per-launch metrics.
class Backend {
public:
  virtual ~Backend();
  /// "emu", "cupti", ...
  virtual std::string_view name() const = 0;
  /// Every metric this backend fills in its records.
  virtual const std::vector<MetricInfo> &metricNames() const = 0;
  /// Starts capturing the calling process's kernel launches. Fails (false,
  /// \p Error set) when the backend cannot measure in this process.
  virtual bool begin(std::string &Error) = 0;
  /// Stops capturing and appends one record per launch since begin().
  virtual bool end(std::vector<LaunchRecord> &Records, std::string &Error) = 0;
};

/// The backends this build knows ("emu", and "cupti" once it exists).
std::vector<std::string> backendNames();
/// A backend by name, or null with \p Error set.
std::unique_ptr<Backend> createBackend(std::string_view Name,
                                       std::string &Error);

/// Appends \p S to \p Out as a JSON string literal (quotes included).
void appendJsonString(std::string &Out, std::string_view S);

} // namespace klaraptor::profiler

#endif // KLARAPTOR_PROFILER_BACKEND_H
