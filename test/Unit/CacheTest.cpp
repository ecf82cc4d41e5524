//===- CacheTest.cpp - the decision cache's records and file --------------===//
///
/// \file
/// Records round-trip, damaged records are rejected, and a cache file is
/// shared by two DecisionCache objects as by two processes.
//===----------------------------------------------------------------------===//
#include "DecisionCache.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace klaraptor;

TEST(DecisionCacheTest, RecordRoundTrip) {
  CachedDecision D{{128, 2, 1}, {8, 4, 1}, 1.25};
  std::string Line = DecisionCache::formatRecord("k=a\tb%", D);
  ASSERT_EQ(Line.back(), '\n');
  Line.pop_back();
  std::string Key;
  CachedDecision Out;
  ASSERT_TRUE(DecisionCache::parseRecord(Line, Key, Out));
  EXPECT_EQ(Key, DecisionCache::escape("k=a\tb%"));
  EXPECT_EQ(Key, "k=a%09b%25");
  EXPECT_EQ(Out.Block, D.Block);
  EXPECT_EQ(Out.Grid, D.Grid);
  EXPECT_EQ(Out.Predicted, 1.25);
}

TEST(DecisionCacheTest, DamagedRecordsRejected) {
  CachedDecision D{{128, 1, 1}, {8, 1, 1}, 3};
  std::string Line = DecisionCache::formatRecord("key", D);
  Line.pop_back();
  std::string Key;
  CachedDecision Out;
  std::string Flipped = Line;
  Flipped.back() = Flipped.back() == '3' ? '4' : '3';
  EXPECT_FALSE(DecisionCache::parseRecord(Flipped, Key, Out));
  EXPECT_FALSE(DecisionCache::parseRecord(Line.substr(0, Line.size() - 2),
                                          Key, Out));
  EXPECT_FALSE(DecisionCache::parseRecord("garbage", Key, Out));
  EXPECT_FALSE(DecisionCache::parseRecord("", Key, Out));
}

TEST(DecisionCacheTest, SharedBetweenInstances) {
  std::string Path = ::testing::TempDir() + "klaraptor-cache-test-" +
                     std::to_string(::getpid());
  std::remove(Path.c_str());
  Diagnostics Diags(LogLevel::Warn);
  std::vector<std::string> Messages;
  Diags.setSink(
      [&](LogLevel, const std::string &M) { Messages.push_back(M); });
  CachedDecision D{{64, 1, 1}, {16, 1, 1}, 2};
  {
    DecisionCache A(Path, Diags);
    CachedDecision Out;
    EXPECT_FALSE(A.lookup("k1", Out));
    A.store("k1", D);
    EXPECT_TRUE(A.lookup("k1", Out));
  }
  {
    std::ofstream F(Path, std::ios::app);
    F << "junk line\n0123";
  }
  DecisionCache B(Path, Diags);
  CachedDecision Out;
  ASSERT_TRUE(B.lookup("k1", Out));
  EXPECT_EQ(Out.Block, D.Block);
  EXPECT_FALSE(B.lookup("k2", Out));
  ASSERT_EQ(Messages.size(), 1u);
  EXPECT_NE(Messages[0].find("skipped 2 bad records (first at line 3)"),
            std::string::npos);
  B.store("k2", D);
  DecisionCache C(Path, Diags);
  EXPECT_TRUE(C.lookup("k2", Out));
  std::remove(Path.c_str());
}
