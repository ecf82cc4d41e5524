//===- History.cpp - memoised launch decisions of one kernel --------------===//
///
/// \file
/// Each shard is a chained hash table whose buckets double when it holds
/// more entries than buckets. The top bits of the hash pick the shard, the
/// low bits the bucket.
//===----------------------------------------------------------------------===//
#include "History.h"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace klaraptor {

const char *spelling(DecisionSource S) {
  switch (S) {
  case DecisionSource::Model: return "model";
  case DecisionSource::History: return "history";
  case DecisionSource::Fallback: return "fallback";
  case DecisionSource::Cache: return "cache";
  case DecisionSource::Measured: return "measured";
  }
  return "?";
}

struct History::Node {
  uint64_t Hash = 0;
  std::vector<int64_t> Key;
  Decision D;
  std::vector<Request> Requests;
  std::unique_ptr<Node> Next;

  bool matches(const int64_t *K, size_t N, uint64_t H) const {
    return Hash == H && Key.size() == N &&
           (N == 0 || std::memcmp(Key.data(), K, N * sizeof(int64_t)) == 0);
  }
};

struct History::Shard {
  mutable std::shared_mutex M;
  std::vector<std::unique_ptr<Node>> Buckets;
  size_t Count = 0;

  Node *lookup(const int64_t *K, size_t N, uint64_t H) const {
    if (Buckets.empty())
      return nullptr;
    for (Node *P = Buckets[H & (Buckets.size() - 1)].get(); P;
         P = P->Next.get())
      if (P->matches(K, N, H))
        return P;
    return nullptr;
  }

  void grow() {
    size_t NewSize = Buckets.empty() ? 16 : Buckets.size() * 2;
    std::vector<std::unique_ptr<Node>> New(NewSize);
    for (auto &Head : Buckets) {
      while (Head) {
        std::unique_ptr<Node> P = std::move(Head);
        Head = std::move(P->Next);
        auto &Slot = New[P->Hash & (NewSize - 1)];
        P->Next = std::move(Slot);
        Slot = std::move(P);
      }
    }
    Buckets = std::move(New);
  }

  void clear() {
    // Unlink iteratively: a long chain must not recurse in destructors.
    for (auto &Head : Buckets)
      while (Head)
        Head = std::move(Head->Next);
    Buckets.clear();
    Count = 0;
  }
};

History::History(size_t Capacity)
    : Shards(new Shard[NumShards]),
      ShardCapacity(std::max<size_t>(Capacity / NumShards, 1)) {}

History::~History() { clear(); }

uint64_t History::hash(const int64_t *Key, size_t N) {
  uint64_t H = 0x9e3779b97f4a7c15ULL ^ N;
  for (size_t I = 0; I < N; ++I) {
    H ^= uint64_t(Key[I]);
    H *= 0xbf58476d1ce4e5b9ULL;
    H ^= H >> 31;
  }
  H *= 0x94d049bb133111ebULL;
  H ^= H >> 29;
  return H;
}

History::Shard &History::shardFor(uint64_t Hash) const {
  return Shards[Hash >> 60];
}

bool History::find(const int64_t *Key, size_t N, uint64_t Hash,
                   const Request *Req, Hit &Out) const {
  Shard &S = shardFor(Hash);
  std::shared_lock<std::shared_mutex> L(S.M);
  const Node *P = S.lookup(Key, N, Hash);
  if (!P)
    return false;
  Out.Tuned = P->D.Tuned;
  Out.Block = P->D.Block;
  Out.Grid = P->D.Grid;
  Out.Refine = P->D.Refine;
  Out.NewRequest =
      Req && P->Requests.size() < MaxRequestsPerDecision &&
      std::find(P->Requests.begin(), P->Requests.end(), *Req) ==
          P->Requests.end();
  return true;
}

std::shared_ptr<const DecisionRecord>
History::claimRequest(const int64_t *Key, size_t N, uint64_t Hash,
                      const Request &Req) {
  Shard &S = shardFor(Hash);
  std::unique_lock<std::shared_mutex> L(S.M);
  Node *P = S.lookup(Key, N, Hash);
  if (!P || P->Requests.size() >= MaxRequestsPerDecision ||
      std::find(P->Requests.begin(), P->Requests.end(), Req) !=
          P->Requests.end())
    return nullptr;
  P->Requests.push_back(Req);
  return P->D.Record;
}

void History::insert(const int64_t *Key, size_t N, uint64_t Hash, Decision D,
                     const Request &Req) {
  Shard &S = shardFor(Hash);
  auto P = std::make_unique<Node>();
  P->Hash = Hash;
  P->Key.assign(Key, Key + N);
  P->D = std::move(D);
  P->Requests.push_back(Req);
  std::unique_lock<std::shared_mutex> L(S.M);
  if (Node *Old = S.lookup(Key, N, Hash)) {
    Old->D = std::move(P->D);
    Old->Requests = std::move(P->Requests);
    Generation.fetch_add(1, std::memory_order_acq_rel);
    return;
  }
  if (S.Count >= ShardCapacity) {
    S.clear();
    Generation.fetch_add(1, std::memory_order_acq_rel);
  }
  if (S.Count >= S.Buckets.size())
    S.grow();
  auto &Slot = S.Buckets[Hash & (S.Buckets.size() - 1)];
  P->Next = std::move(Slot);
  Slot = std::move(P);
  ++S.Count;
}

void History::clear() {
  for (unsigned I = 0; I < NumShards; ++I) {
    std::unique_lock<std::shared_mutex> L(Shards[I].M);
    Shards[I].clear();
  }
  Generation.fetch_add(1, std::memory_order_acq_rel);
}

size_t History::size() const {
  size_t N = 0;
  for (unsigned I = 0; I < NumShards; ++I) {
    std::shared_lock<std::shared_mutex> L(Shards[I].M);
    N += Shards[I].Count;
  }
  return N;
}

} // namespace klaraptor
