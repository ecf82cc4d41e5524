//===- HistoryTest.cpp - the memo table of launch decisions ---------------===//
#include "History.h"

#include <gtest/gtest.h>

using namespace klaraptor;

namespace {

Decision tuned(uint32_t Bx, uint32_t Gx) {
  Decision D;
  D.Tuned = true;
  D.Block = {Bx, 1, 1};
  D.Grid = {Gx, 1, 1};
  auto R = std::make_shared<DecisionRecord>();
  R->Source = DecisionSource::Model;
  R->ModelName = "m";
  D.Record = R;
  return D;
}

const Request Req1 = {4, 1, 1, 256, 1, 1};
const Request Req2 = {8, 1, 1, 128, 1, 1};

} // namespace

TEST(History, FindsWhatWasInserted) {
  History H;
  std::vector<int64_t> K = {0, 1000};
  uint64_t Hash = History::hash(K.data(), K.size());
  History::Hit Hit;
  EXPECT_FALSE(H.find(K.data(), K.size(), Hash, nullptr, Hit));
  H.insert(K.data(), K.size(), Hash, tuned(128, 8), Req1);
  ASSERT_TRUE(H.find(K.data(), K.size(), Hash, nullptr, Hit));
  EXPECT_TRUE(Hit.Tuned);
  EXPECT_EQ(Hit.Block, (Dim3{128, 1, 1}));
  EXPECT_EQ(Hit.Grid, (Dim3{8, 1, 1}));
  EXPECT_EQ(H.size(), 1u);
}

TEST(History, KeysAreWholeTuplesOfAnyLength) {
  History H;
  // Values that a 10-bit packing would confuse, and tuples that share
  // prefixes.
  std::vector<std::vector<int64_t>> Keys = {
      {0, 1024},        {0, 0},       {0, 1024, 0}, {0, 0, 1024},
      {0, 1LL << 40},   {0, -1},      {1, 1024},    {0},
      std::vector<int64_t>(40, 7)};
  for (size_t I = 0; I < Keys.size(); ++I)
    H.insert(Keys[I].data(), Keys[I].size(),
             History::hash(Keys[I].data(), Keys[I].size()),
             tuned(uint32_t(I + 1), 1), Req1);
  EXPECT_EQ(H.size(), Keys.size());
  for (size_t I = 0; I < Keys.size(); ++I) {
    History::Hit Hit;
    ASSERT_TRUE(H.find(Keys[I].data(), Keys[I].size(),
                       History::hash(Keys[I].data(), Keys[I].size()), nullptr,
                       Hit));
    EXPECT_EQ(Hit.Block[0], I + 1);
  }
  int64_t A[2] = {1, 2}, B[2] = {2, 1};
  EXPECT_NE(History::hash(A, 2), History::hash(B, 2));
}

TEST(History, RequestsAreClaimedOnce) {
  History H;
  int64_t K[2] = {0, 5};
  uint64_t Hash = History::hash(K, 2);
  H.insert(K, 2, Hash, tuned(64, 1), Req1);
  History::Hit Hit;
  ASSERT_TRUE(H.find(K, 2, Hash, &Req1, Hit));
  EXPECT_FALSE(Hit.NewRequest);
  ASSERT_TRUE(H.find(K, 2, Hash, &Req2, Hit));
  EXPECT_TRUE(Hit.NewRequest);
  auto R = H.claimRequest(K, 2, Hash, Req2);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->ModelName, "m");
  EXPECT_FALSE(H.claimRequest(K, 2, Hash, Req2));
  ASSERT_TRUE(H.find(K, 2, Hash, &Req2, Hit));
  EXPECT_FALSE(Hit.NewRequest);
}

TEST(History, RequestsPerDecisionAreBounded) {
  History H;
  int64_t K[1] = {3};
  uint64_t Hash = History::hash(K, 1);
  H.insert(K, 1, Hash, tuned(64, 1), Req1);
  unsigned Claimed = 0;
  for (uint32_t G = 100; G < 200; ++G)
    Claimed += bool(H.claimRequest(K, 1, Hash, {G, 1, 1, 32, 1, 1}));
  EXPECT_EQ(Claimed, History::MaxRequestsPerDecision - 1);
}

TEST(History, GenerationChangesWhenDecisionsAreForgotten) {
  History H;
  int64_t K[1] = {1};
  uint64_t Hash = History::hash(K, 1);
  uint64_t G0 = H.generation();
  H.insert(K, 1, Hash, tuned(64, 1), Req1);
  EXPECT_EQ(H.generation(), G0); // adding keeps copies valid
  H.insert(K, 1, Hash, tuned(128, 1), Req1);
  uint64_t G1 = H.generation();
  EXPECT_NE(G1, G0); // replacing does not
  History::Hit Hit;
  ASSERT_TRUE(H.find(K, 1, Hash, nullptr, Hit));
  EXPECT_EQ(Hit.Block[0], 128u);
  H.clear();
  EXPECT_NE(H.generation(), G1);
  EXPECT_FALSE(H.find(K, 1, Hash, nullptr, Hit));
  EXPECT_EQ(H.size(), 0u);
}

TEST(History, CapacityBoundsTheSize) {
  History H(64); // four per shard
  uint64_t G0 = H.generation();
  for (int64_t I = 0; I < 10000; ++I)
    H.insert(&I, 1, History::hash(&I, 1), tuned(32, 1), Req1);
  EXPECT_LE(H.size(), 64u);
  EXPECT_GT(H.size(), 0u);
  EXPECT_NE(H.generation(), G0);
  // The most recent key is always there.
  int64_t Last = 9999;
  History::Hit Hit;
  EXPECT_TRUE(H.find(&Last, 1, History::hash(&Last, 1), nullptr, Hit));
}

TEST(History, GrowsPastItsInitialBuckets) {
  History H(1 << 20);
  for (int64_t I = 0; I < 5000; ++I)
    H.insert(&I, 1, History::hash(&I, 1), tuned(uint32_t(I % 1000 + 1), 1),
             Req1);
  EXPECT_EQ(H.size(), 5000u);
  for (int64_t I = 0; I < 5000; I += 7) {
    History::Hit Hit;
    ASSERT_TRUE(H.find(&I, 1, History::hash(&I, 1), nullptr, Hit));
    EXPECT_EQ(Hit.Block[0], uint32_t(I % 1000 + 1));
  }
}

TEST(History, SpellsTheSources) {
  EXPECT_STREQ(spelling(DecisionSource::Model), "model");
  EXPECT_STREQ(spelling(DecisionSource::History), "history");
  EXPECT_STREQ(spelling(DecisionSource::Fallback), "fallback");
}
