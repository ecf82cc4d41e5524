//===- History.h - memoised launch decisions of one kernel ----------------===//
///
/// \file
/// Maps a key (device, data values: a tuple of int64 of any length, never
/// packed into fixed-width fields) to the decision made for it. Lookups are
/// the hot path of every launch: the table is split into shards, each behind
/// a reader-writer lock, and a lookup allocates nothing. A shard that reaches
/// its share of the capacity is emptied, which bounds the memory a program
/// with ever-new sizes uses.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_HISTORY_H
#define KLARAPTOR_RUNTIME_HISTORY_H

#include "Candidates.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

namespace klaraptor {

/// Where a decision came from, as the decision log spells it.
enum class DecisionSource { Model, History, Fallback, Cache, Measured };

struct Refinement;
const char *spelling(DecisionSource S);

/// What the log needs to describe a decision again.
struct DecisionRecord {
  DecisionSource Source = DecisionSource::Fallback;
  std::string Reason;    ///< for fallbacks
  std::string ModelName; ///< for model decisions
  double Predicted = 0;  ///< the chosen candidate's prediction
  /// Source Measured: the chosen shape's measured time (CUDA events on a
  /// GPU, the emulator's estimate) and how many shapes were timed.
  double MeasuredNs = 0;
  unsigned Trials = 0;
  unsigned Candidates = 0; ///< admissible candidates
};

/// A memoised decision.
struct Decision {
  bool Tuned = false; ///< true: use Block/Grid; false: keep the request
  Dim3 Block = {1, 1, 1};
  Dim3 Grid = {1, 1, 1};
  std::shared_ptr<const DecisionRecord> Record;
  /// Non-null while the decision's online refinement runs: every launch of
  /// the key goes through it (Runtime::refineLaunch). Owned by the kernel's
  /// entry.
  Refinement *Refine = nullptr;
};

/// A requested launch: grid x y z then block x y z.
using Request = std::array<uint32_t, 6>;

class History {
public:
  /// At most about \p Capacity decisions are kept.
  explicit History(size_t Capacity = DefaultCapacity);
  ~History();
  History(const History &) = delete;
  History &operator=(const History &) = delete;

  static constexpr size_t DefaultCapacity = 1 << 16;

  static uint64_t hash(const int64_t *Key, size_t N);

  /// Outcome of a lookup.
  struct Hit {
    bool Tuned = false;
    Dim3 Block, Grid;
    Refinement *Refine = nullptr;
    /// Set when a request was given and the decision has not seen it.
    bool NewRequest = false;
  };

  /// Looks \p Key up. When \p Req is given, also tells whether the decision
  /// was already used for that request.
  bool find(const int64_t *Key, size_t N, uint64_t Hash, const Request *Req,
            Hit &Out) const;

  /// Marks \p Req as seen for \p Key. Returns the decision's record when the
  /// request was new (and the key is still there), else null.
  std::shared_ptr<const DecisionRecord>
  claimRequest(const int64_t *Key, size_t N, uint64_t Hash, const Request &Req);

  /// Adds or replaces the decision for \p Key, with \p Req already seen.
  void insert(const int64_t *Key, size_t N, uint64_t Hash, Decision D,
              const Request &Req);

  /// Forgets every decision.
  void clear();
  /// Changes whenever a decision is forgotten or replaced (never when one
  /// is added): a copy of a decision taken at generation G is still valid
  /// while generation() == G. Read it before the find() whose result is
  /// copied.
  uint64_t generation() const {
    return Generation.load(std::memory_order_acquire);
  }
  /// The number of decisions kept.
  size_t size() const;

  /// Requests remembered per decision; later new ones are not logged.
  static constexpr size_t MaxRequestsPerDecision = 16;

private:
  struct Node;
  struct Shard;
  static constexpr unsigned NumShards = 16;
  std::unique_ptr<Shard[]> Shards;
  size_t ShardCapacity;
  std::atomic<uint64_t> Generation{0};

  Shard &shardFor(uint64_t Hash) const;
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_HISTORY_H
