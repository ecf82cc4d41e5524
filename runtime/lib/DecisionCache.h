//===- DecisionCache.h - model decisions persisted across processes -------===//
///
/// \file
/// KLARAPTOR_CACHE names a text file of model decisions shared by every
/// process that sets it (docs/runtime-abi.md, "Decision cache"). The file is
/// read once, on the first lookup, into memory; each new model decision is
/// appended as one record. A record is one line:
///
///   <16 hex digits: FNV-1a 64 of the text> <key>\t<block>\t<grid>\t<predicted>
///
/// after a header line "klaraptor-cache v1". Appends are one write(2) on an
/// O_APPEND descriptor under an exclusive flock, so concurrent processes
/// never interleave or lose records. Lines that fail to parse or whose
/// checksum differs are skipped with one warning (records of an older
/// klaraptor, whose checksum had a wrong offset basis, are read with one);
/// a file with another header, or that is not a regular file, is neither
/// read nor written.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_DECISIONCACHE_H
#define KLARAPTOR_RUNTIME_DECISIONCACHE_H

#include "Diagnostics.h"
#include "History.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace klaraptor {

/// A decision as the cache stores it.
struct CachedDecision {
  Dim3 Block = {1, 1, 1};
  Dim3 Grid = {1, 1, 1};
  double Predicted = 0;
};

class DecisionCache {
public:
  /// The file's first line.
  static constexpr const char *Header = "klaraptor-cache v1";

  /// \p Path empty: the cache is disabled.
  DecisionCache(std::string Path, Diagnostics &Diags)
      : Path(std::move(Path)), Diags(Diags) {}
  DecisionCache(const DecisionCache &) = delete;
  DecisionCache &operator=(const DecisionCache &) = delete;

  bool enabled() const { return !Path.empty(); }
  const std::string &path() const { return Path; }

  /// Looks \p Key up; loads the file on the first call.
  bool lookup(const std::string &Key, CachedDecision &Out);
  /// Remembers \p D under \p Key and appends it to the file.
  void store(const std::string &Key, const CachedDecision &D);

  /// This process's identity: executable path, size and modification time.
  static const std::string &programIdentity();
  /// FNV-1a 64 of \p S (offset basis 0xcbf29ce484222325, prime
  /// 0x100000001b3).
  static uint64_t fnv1a(const std::string &S);
  /// The checksum records had before it was corrected: FNV-1a 64's steps
  /// from a wrong offset basis (1469598103934665603). Such records are read
  /// (with a warning), never written.
  static uint64_t legacyChecksum(const std::string &S);
  /// The record line for \p Key and \p D, newline included.
  static std::string formatRecord(const std::string &Key,
                                  const CachedDecision &D);
  /// Parses one line (without its newline); false if it is not a valid
  /// record. With \p Legacy, a record with the legacy checksum is valid
  /// too, and *Legacy says so.
  static bool parseRecord(const std::string &Line, std::string &Key,
                          CachedDecision &D, bool *Legacy = nullptr);
  /// \p S with control characters and '%' written as %XX.
  static std::string escape(const std::string &S);

private:
  std::string Path;
  Diagnostics &Diags;
  std::mutex M;
  bool Loaded = false;
  bool Disabled = false; ///< wrong header or unreadable: neither read nor written
  std::unordered_map<std::string, CachedDecision> Entries;

  void load();
  /// Whether \p Fd is a regular file; otherwise disables the cache with a
  /// warning (a device, FIFO or directory is never read or written).
  bool regularFile(int Fd);
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_DECISIONCACHE_H
