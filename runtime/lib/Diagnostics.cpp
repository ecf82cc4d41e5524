//===- Diagnostics.cpp - the runtime's messages on stderr -----------------===//
///
/// \file
/// A line goes out in a single write(2), so that messages from threads and
/// from processes sharing stderr do not interleave within a line.
//===----------------------------------------------------------------------===//
#include "Diagnostics.h"

#include <unistd.h>

namespace klaraptor {

static const char *levelWord(LogLevel L) {
  switch (L) {
  case LogLevel::Error: return "error";
  case LogLevel::Warn: return "warning";
  case LogLevel::Info: return "info";
  case LogLevel::Debug: return "debug";
  }
  return "note";
}

std::string Diagnostics::format(LogLevel L, const std::string &Message) {
  return std::string("klaraptor: ") + levelWord(L) + ": " + Message + "\n";
}

void Diagnostics::emit(LogLevel L, const std::string &Message) {
  // Called with M held.
  if (TheSink) {
    TheSink(L, Message);
    return;
  }
  std::string Line = format(L, Message);
  const char *P = Line.data();
  size_t Left = Line.size();
  while (Left) {
    ssize_t N = ::write(STDERR_FILENO, P, Left);
    if (N <= 0)
      return;
    P += N;
    Left -= size_t(N);
  }
}

void Diagnostics::report(LogLevel L, const std::string &Message) {
  if (!enabled(L))
    return;
  std::lock_guard<std::mutex> G(M);
  emit(L, Message);
}

bool Diagnostics::reportOnce(LogLevel L, const std::string &Message,
                             const std::string &Key) {
  std::lock_guard<std::mutex> G(M);
  if (!Seen.insert(Key.empty() ? Message : Key).second)
    return false;
  if (enabled(L))
    emit(L, Message);
  return true;
}

void Diagnostics::setSink(Sink S) {
  std::lock_guard<std::mutex> G(M);
  TheSink = std::move(S);
}

} // namespace klaraptor
