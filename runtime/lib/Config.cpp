//===- Config.cpp - the runtime's settings from the environment ----------===//
///
/// \file
/// Values are matched case-insensitively after trimming blanks; an unknown
/// value keeps the default and produces a warning.
//===----------------------------------------------------------------------===//
#include "Config.h"

#include <cctype>
#include <cstdlib>

namespace klaraptor {

const char *spelling(Mode M) {
  switch (M) {
  case Mode::Off: return "off";
  case Mode::Tune: return "tune";
  case Mode::Profile: return "profile";
  }
  return "?";
}

const char *spelling(LogLevel L) {
  switch (L) {
  case LogLevel::Error: return "error";
  case LogLevel::Warn: return "warn";
  case LogLevel::Info: return "info";
  case LogLevel::Debug: return "debug";
  }
  return "?";
}

static std::string normalise(const char *V) {
  std::string S(V);
  size_t B = 0, E = S.size();
  while (B < E && std::isspace((unsigned char)S[B]))
    ++B;
  while (E > B && std::isspace((unsigned char)S[E - 1]))
    --E;
  S = S.substr(B, E - B);
  for (char &C : S)
    C = char(std::tolower((unsigned char)C));
  return S;
}

Config Config::parse(const char *ModeValue, const char *LogValue,
                     const char *LevelValue) {
  Config C;
  if (ModeValue && *ModeValue) {
    std::string M = normalise(ModeValue);
    if (M == "off")
      C.TheMode = Mode::Off;
    else if (M == "tune")
      C.TheMode = Mode::Tune;
    else if (M == "profile")
      C.TheMode = Mode::Profile;
    else
      C.Warnings.push_back(std::string("unknown KLARAPTOR_MODE '") +
                           ModeValue +
                           "' (expected off, tune or profile); using tune");
  }
  if (LevelValue && *LevelValue) {
    std::string L = normalise(LevelValue);
    if (L == "error")
      C.Level = LogLevel::Error;
    else if (L == "warn" || L == "warning")
      C.Level = LogLevel::Warn;
    else if (L == "info")
      C.Level = LogLevel::Info;
    else if (L == "debug")
      C.Level = LogLevel::Debug;
    else
      C.Warnings.push_back(
          std::string("unknown KLARAPTOR_LOG_LEVEL '") + LevelValue +
          "' (expected error, warn, info or debug); using warn");
  }
  if (LogValue && *LogValue)
    C.LogPath = LogValue;
  return C;
}

void Config::parseMargin(const char *Value) {
  if (!Value || !*Value)
    return;
  std::string V = normalise(Value);
  char *End = nullptr;
  double M = std::strtod(V.c_str(), &End);
  if (V.empty() || End != V.c_str() + V.size() || !(M >= 0 && M < 1)) {
    Warnings.push_back(std::string("KLARAPTOR_MARGIN '") + Value +
                       "' is not a fraction in [0, 1); using " +
                       std::to_string(DefaultMargin).substr(0, 4));
    return;
  }
  Margin = M;
}

void Config::parseRefine(const char *Value) {
  if (!Value || !*Value)
    return;
  std::string V = normalise(Value);
  if (V == "off") {
    RefineShapes = 0;
    return;
  }
  if (V.size() == 1 && V[0] >= '0' && V[0] <= char('0' + MaxRefineShapes)) {
    RefineShapes = unsigned(V[0] - '0');
    return;
  }
  Warnings.push_back(std::string("KLARAPTOR_REFINE '") + Value +
                     "' is not 0 to " + std::to_string(MaxRefineShapes) +
                     " or off; using " + std::to_string(DefaultRefineShapes));
}

void Config::parseGridCheck(const char *Value) {
  if (!Value || !*Value)
    return;
  std::string V = normalise(Value);
  if (V == "1" || V == "on") {
    GridCheck = true;
    return;
  }
  if (V == "0" || V == "off") {
    GridCheck = false;
    return;
  }
  Warnings.push_back(std::string("KLARAPTOR_GRID_CHECK '") + Value +
                     "' is not 1, on, 0 or off; using on");
}

Config Config::fromEnvironment() {
  Config C = parse(std::getenv("KLARAPTOR_MODE"), std::getenv("KLARAPTOR_LOG"),
                   std::getenv("KLARAPTOR_LOG_LEVEL"));
  if (const char *Bench = std::getenv("KLARAPTOR_BENCH"))
    C.BenchPath = Bench;
  if (const char *Cache = std::getenv("KLARAPTOR_CACHE"))
    C.CachePath = Cache;
  C.parseMargin(std::getenv("KLARAPTOR_MARGIN"));
  C.parseRefine(std::getenv("KLARAPTOR_REFINE"));
  C.parseGridCheck(std::getenv("KLARAPTOR_GRID_CHECK"));
  return C;
}

} // namespace klaraptor
