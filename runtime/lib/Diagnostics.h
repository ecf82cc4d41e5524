//===- Diagnostics.h - the runtime's messages on stderr -------------------===//
///
/// \file
/// Every message starts with "klaraptor: " and its level. Failures are
/// reported once: reportOnce remembers the messages it has written, so a
/// failure that repeats at every launch costs one line.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_DIAGNOSTICS_H
#define KLARAPTOR_RUNTIME_DIAGNOSTICS_H

#include "Config.h"

#include <functional>
#include <mutex>
#include <string>
#include <unordered_set>

namespace klaraptor {

class Diagnostics {
public:
  /// Receives each message that passes the level filter (tests).
  using Sink = std::function<void(LogLevel, const std::string &)>;

  explicit Diagnostics(LogLevel Level) : Level(Level) {}

  /// Whether messages of level \p L are written.
  bool enabled(LogLevel L) const { return int(L) <= int(Level); }

  /// Writes \p Message if its level is enabled.
  void report(LogLevel L, const std::string &Message);

  /// Writes \p Message the first time \p Key (default: the message
  /// itself) is reported; later reports are dropped. Returns true the first
  /// time.
  bool reportOnce(LogLevel L, const std::string &Message,
                  const std::string &Key = std::string());

  /// Sends messages to \p S instead of stderr; an empty sink restores stderr.
  void setSink(Sink S);

  /// The line written for a message: "klaraptor: warning: ...\n".
  static std::string format(LogLevel L, const std::string &Message);

private:
  LogLevel Level;
  std::mutex M;
  std::unordered_set<std::string> Seen;
  Sink TheSink;

  void emit(LogLevel L, const std::string &Message);
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_DIAGNOSTICS_H
