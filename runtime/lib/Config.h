//===- Config.h - the runtime's settings from the environment ------------===//
///
/// \file
/// The runtime reads KLARAPTOR_MODE, KLARAPTOR_LOG, KLARAPTOR_LOG_LEVEL,
/// KLARAPTOR_CACHE, KLARAPTOR_BENCH, KLARAPTOR_MARGIN, KLARAPTOR_REFINE and
/// KLARAPTOR_GRID_CHECK once, when it is first used (docs/environment.md).
/// Problems found while reading them are kept as warnings for the runtime to
/// report.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_CONFIG_H
#define KLARAPTOR_RUNTIME_CONFIG_H

#include <string>
#include <vector>

namespace klaraptor {

/// What the hook does at a launch (KLARAPTOR_MODE).
enum class Mode {
  Off,    ///< every launch keeps its configuration, nothing is evaluated
  Tune,   ///< choose launch parameters with the registered models (default)
  Profile ///< sweep candidates under a profiler backend
};

/// How much the runtime writes to stderr (KLARAPTOR_LOG_LEVEL).
enum class LogLevel { Error = 0, Warn = 1, Info = 2, Debug = 3 };

const char *spelling(Mode M);
const char *spelling(LogLevel L);

struct Config {
  Mode TheMode = Mode::Tune;
  LogLevel Level = LogLevel::Warn;
  /// Where decisions are appended as JSON lines; empty: nowhere.
  std::string LogPath;
  /// The decision cache file (KLARAPTOR_CACHE); empty: no cache.
  std::string CachePath;
  /// KLARAPTOR_BENCH: in tune mode, each new decision is handed to the
  /// profiler plug-in, which estimates every candidate and appends a record
  /// here (`klaraptor bench`); empty: off.
  std::string BenchPath;
  /// KLARAPTOR_MARGIN: the requested shape is kept unless a candidate is
  /// predicted faster by more than this fraction of its prediction (the
  /// model's resolution; docs/models.md, "Choosing a shape").
  double Margin = DefaultMargin;
  static constexpr double DefaultMargin = 0.02;
  /// KLARAPTOR_REFINE: the model's best shapes the online refinement times
  /// on the repeats of a launch (docs/runtime-abi.md, "Online refinement");
  /// 0 or 1: off.
  unsigned RefineShapes = DefaultRefineShapes;
  static constexpr unsigned DefaultRefineShapes = 3;
  static constexpr unsigned MaxRefineShapes = 3;
  /// KLARAPTOR_GRID_CHECK: a kernel whose pragma's grid formula, at the
  /// program's own block, gives a smaller grid than the program launches is
  /// neither tuned nor profiled (docs/runtime-abi.md, "The grid check");
  /// off: the formula is trusted.
  bool GridCheck = true;
  /// Problems with the variables, reported once the diagnostics exist.
  std::vector<std::string> Warnings;

  /// Reads the variables from the process environment.
  static Config fromEnvironment();
  /// Interprets a KLARAPTOR_MARGIN value into Margin (a fraction in
  /// [0, 1)); anything else keeps the default with a warning.
  void parseMargin(const char *Value);
  /// Interprets a KLARAPTOR_REFINE value (0 to MaxRefineShapes, or "off")
  /// into RefineShapes; anything else keeps the default with a warning.
  void parseRefine(const char *Value);
  /// Interprets a KLARAPTOR_GRID_CHECK value (1/on or 0/off) into
  /// GridCheck; anything else keeps it on with a warning.
  void parseGridCheck(const char *Value);
  /// Interprets the given values; null or empty means unset.
  static Config parse(const char *ModeValue, const char *LogValue,
                      const char *LevelValue);
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_CONFIG_H
