//===- Refinement.h - online refinement of one decision -------------------===//
///
/// \file
/// KLARAPTOR_REFINE (docs/runtime-abi.md, "Online refinement"): when a
/// launch with the same kernel, device and data repeats, the runtime times
/// the model's best few shapes on the repeats (CUDA events on a GPU, the
/// emulator's estimate on the emulator), keeps the fastest and persists it
/// as a measured decision. A Refinement is one decision's state; it is owned
/// by the kernel's entry (so a pointer to it stays valid when the history
/// forgets the decision) and guarded by its own mutex.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_REFINEMENT_H
#define KLARAPTOR_RUNTIME_REFINEMENT_H

#include "History.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace klaraptor {

struct Refinement {
  /// One shape to time.
  struct Trial {
    Dim3 Block = {1, 1, 1}, Grid = {1, 1, 1};
    double Predicted = 0;   ///< the model's prediction, ns
    double Ns = NAN;        ///< measured, once known
    void *Start = nullptr;  ///< CUDA events (GPU)
    void *Stop = nullptr;
    bool Launched = false;  ///< its timed launch was made
    bool Stopped = false;   ///< the after-launch hook ended its timing
    bool Failed = false;    ///< no time: the launch failed, no event, ...
  };

  std::mutex M;
  /// The model's ranking: [0] is its decision, then the next best.
  std::vector<Trial> Trials;
  /// The next trial to launch; Trials.size(): all launched.
  unsigned Next = 0;
  bool Finished = false;
  /// Once Finished: the shape every later launch gets.
  Dim3 Block = {1, 1, 1}, Grid = {1, 1, 1};

  /// What replacing the decision needs: the history key (device, data),
  /// its hash, the request it was made for, the model's record and the
  /// decision cache's key ("" without a cache).
  std::vector<int64_t> Key;
  uint64_t Hash = 0;
  Request Req{};
  std::shared_ptr<const DecisionRecord> Record;
  std::string CacheKey;
};

/// The decision cache key of a key's measured decision.
inline std::string refinedCacheKey(const std::string &ModelKey) {
  return ModelKey + "|refined";
}

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_REFINEMENT_H
