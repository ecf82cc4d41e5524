//===- DecisionCache.cpp - model decisions persisted across processes -----===//
///
/// \file
/// Appending under O_APPEND plus flock was chosen over write-to-temp and
/// rename: a rename replaces the whole file, so two processes that each
/// rewrote it would lose each other's decisions, while appends of whole
/// records only ever add lines. The lock also orders the header write of a
/// new file before any record, and lets a reader (shared lock) see whole
/// records only.
//===----------------------------------------------------------------------===//
#include "DecisionCache.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <limits.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace klaraptor {

/// FNV-1a 64 of \p S from the offset basis \p Basis.
static uint64_t fnv1aFrom(uint64_t Basis, const std::string &S) {
  uint64_t H = Basis;
  for (unsigned char C : S) {
    H ^= C;
    H *= 1099511628211ull; // the 64-bit FNV prime
  }
  return H;
}

uint64_t DecisionCache::fnv1a(const std::string &S) {
  return fnv1aFrom(14695981039346656037ull, S); // 0xcbf29ce484222325
}

uint64_t DecisionCache::legacyChecksum(const std::string &S) {
  // The offset basis with its last digit lost, as klaraptor wrote records
  // before the checksum was corrected.
  return fnv1aFrom(1469598103934665603ull, S);
}

std::string DecisionCache::escape(const std::string &S) {
  std::string Out;
  for (unsigned char C : S) {
    if (C < 0x20 || C == 0x7f || C == '%') {
      char Buf[4];
      std::snprintf(Buf, sizeof(Buf), "%%%02X", C);
      Out += Buf;
    } else {
      Out += char(C);
    }
  }
  return Out;
}

const std::string &DecisionCache::programIdentity() {
  static const std::string Id = [] {
    char Buf[PATH_MAX];
    ssize_t N = ::readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
    std::string Exe = N > 0 ? std::string(Buf, size_t(N)) : "?";
    struct stat St;
    std::string Id = Exe;
    if (::stat(Exe.c_str(), &St) == 0)
      Id += ":" + std::to_string((long long)St.st_size) + ":" +
            std::to_string((long long)St.st_mtim.tv_sec) + "." +
            std::to_string((long long)St.st_mtim.tv_nsec);
    return escape(Id);
  }();
  return Id;
}

static std::string dims(const Dim3 &D) {
  return std::to_string(D[0]) + " " + std::to_string(D[1]) + " " +
         std::to_string(D[2]);
}

std::string DecisionCache::formatRecord(const std::string &Key,
                                        const CachedDecision &D) {
  char Pred[64];
  std::snprintf(Pred, sizeof(Pred), "%.17g", D.Predicted);
  std::string Text = escape(Key) + "\t" + dims(D.Block) + "\t" +
                     dims(D.Grid) + "\t" + Pred;
  char Sum[24];
  std::snprintf(Sum, sizeof(Sum), "%016" PRIx64, fnv1a(Text));
  return std::string(Sum) + " " + Text + "\n";
}

static bool parseDims(const std::string &S, Dim3 &D) {
  unsigned long long V[3];
  char Extra;
  if (std::sscanf(S.c_str(), "%llu %llu %llu%c", &V[0], &V[1], &V[2],
                  &Extra) != 3)
    return false;
  for (int I = 0; I < 3; ++I) {
    if (V[I] == 0 || V[I] > 0xffffffffull)
      return false;
    D[I] = uint32_t(V[I]);
  }
  return true;
}

bool DecisionCache::parseRecord(const std::string &Line, std::string &Key,
                                CachedDecision &D, bool *Legacy) {
  if (Legacy)
    *Legacy = false;
  if (Line.size() < 18 || Line[16] != ' ')
    return false;
  std::string Text = Line.substr(17);
  char *End = nullptr;
  std::string Hex = Line.substr(0, 16);
  uint64_t Sum = std::strtoull(Hex.c_str(), &End, 16);
  if (End != Hex.c_str() + 16)
    return false;
  if (Sum != fnv1a(Text)) {
    if (!Legacy || Sum != legacyChecksum(Text))
      return false;
    *Legacy = true;
  }
  size_t T1 = Text.find('\t');
  size_t T2 = T1 == std::string::npos ? T1 : Text.find('\t', T1 + 1);
  size_t T3 = T2 == std::string::npos ? T2 : Text.find('\t', T2 + 1);
  if (T3 == std::string::npos || Text.find('\t', T3 + 1) != std::string::npos)
    return false;
  Key = Text.substr(0, T1);
  if (!parseDims(Text.substr(T1 + 1, T2 - T1 - 1), D.Block) ||
      !parseDims(Text.substr(T2 + 1, T3 - T2 - 1), D.Grid))
    return false;
  std::string P = Text.substr(T3 + 1);
  D.Predicted = std::strtod(P.c_str(), &End);
  return !P.empty() && *End == '\0';
}

bool DecisionCache::regularFile(int Fd) {
  struct stat St;
  if (::fstat(Fd, &St) == 0 && S_ISREG(St.st_mode))
    return true;
  Disabled = true;
  Diags.reportOnce(LogLevel::Warn, "decision cache '" + Path +
                                       "' is not a regular file; going on "
                                       "without it");
  return false;
}

void DecisionCache::load() {
  Loaded = true;
  // O_NONBLOCK: opening a FIFO must not wait for a writer; only a regular
  // file is read (a device such as /dev/zero would never end).
  int Fd = ::open(Path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (Fd < 0) {
    if (errno != ENOENT) {
      Disabled = true;
      Diags.reportOnce(LogLevel::Warn, "cannot read decision cache '" + Path +
                                           "': " + std::strerror(errno) +
                                           "; going on without it");
    }
    return;
  }
  if (!regularFile(Fd)) {
    ::close(Fd);
    return;
  }
  std::string Data;
  ::flock(Fd, LOCK_SH);
  char Buf[65536];
  for (;;) {
    ssize_t N = ::read(Fd, Buf, sizeof(Buf));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Data.append(Buf, size_t(N));
  }
  ::flock(Fd, LOCK_UN);
  ::close(Fd);
  if (Data.empty())
    return;
  size_t Pos = Data.find('\n');
  if (Data.substr(0, Pos) != Header) {
    Disabled = true;
    Diags.reportOnce(LogLevel::Warn,
                     "decision cache '" + Path + "' does not start with '" +
                         Header + "'; ignoring it (it is not read or " +
                         "written; remove it to start a new cache)");
    return;
  }
  unsigned Line = 1, Bad = 0, FirstBad = 0, Legacy = 0;
  while (Pos != std::string::npos && Pos + 1 < Data.size()) {
    size_t Start = Pos + 1;
    Pos = Data.find('\n', Start);
    ++Line;
    // A last line without its newline was cut short.
    std::string L = Pos == std::string::npos ? std::string()
                                             : Data.substr(Start, Pos - Start);
    std::string Key;
    CachedDecision D;
    bool Old = false;
    if (Pos == std::string::npos || !parseRecord(L, Key, D, &Old)) {
      if (!Bad++)
        FirstBad = Line;
      continue;
    }
    Legacy += Old;
    Entries.emplace(std::move(Key), D);
  }
  if (Legacy)
    Diags.reportOnce(LogLevel::Warn,
                     "decision cache '" + Path + "': read " +
                         std::to_string(Legacy) + " record" +
                         (Legacy == 1 ? "" : "s") +
                         " written by an older klaraptor (its checksum used "
                         "a wrong FNV-1a offset basis; new records use "
                         "FNV-1a 64); their kernels are keyed by the old "
                         "spec hash, so those decisions are made again and "
                         "appended");
  if (Bad)
    Diags.reportOnce(LogLevel::Warn,
                     "decision cache '" + Path + "': skipped " +
                         std::to_string(Bad) + " bad record" +
                         (Bad == 1 ? "" : "s") + " (first at line " +
                         std::to_string(FirstBad) + ")");
}

bool DecisionCache::lookup(const std::string &Key, CachedDecision &Out) {
  if (!enabled())
    return false;
  std::lock_guard<std::mutex> G(M);
  if (!Loaded)
    load();
  auto It = Entries.find(escape(Key));
  if (It == Entries.end())
    return false;
  Out = It->second;
  return true;
}

static bool writeAll(int Fd, const std::string &S) {
  ssize_t N;
  do
    N = ::write(Fd, S.data(), S.size());
  while (N < 0 && errno == EINTR);
  return N == ssize_t(S.size());
}

void DecisionCache::store(const std::string &Key, const CachedDecision &D) {
  if (!enabled())
    return;
  std::lock_guard<std::mutex> G(M);
  if (!Loaded)
    load();
  if (Disabled)
    return;
  Entries.emplace(escape(Key), D);
  int Fd = ::open(Path.c_str(),
                  O_RDWR | O_CREAT | O_APPEND | O_NONBLOCK | O_CLOEXEC, 0644);
  if (Fd < 0) {
    Diags.reportOnce(LogLevel::Warn, "cannot write decision cache '" + Path +
                                         "': " + std::strerror(errno) +
                                         "; going on without it");
    Disabled = true;
    return;
  }
  if (!regularFile(Fd)) {
    ::close(Fd);
    return;
  }
  std::string Out = formatRecord(Key, D);
  ::flock(Fd, LOCK_EX);
  struct stat St;
  if (::fstat(Fd, &St) == 0) {
    if (St.st_size == 0) {
      Out = std::string(Header) + "\n" + Out;
    } else {
      // A record cut short by a crash: start on a line of our own.
      char Last = '\n';
      if (::pread(Fd, &Last, 1, St.st_size - 1) == 1 && Last != '\n')
        Out = "\n" + Out;
    }
  }
  if (!writeAll(Fd, Out))
    Diags.reportOnce(LogLevel::Warn, "cannot write decision cache '" + Path +
                                         "': " + std::strerror(errno));
  ::flock(Fd, LOCK_UN);
  ::close(Fd);
}

} // namespace klaraptor
