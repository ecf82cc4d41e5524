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
#include <sys/stat.h>
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

TEST(DecisionCacheTest, ChecksumIsFnv1a64) {
  // The published FNV-1a 64 test vectors.
  EXPECT_EQ(DecisionCache::fnv1a(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(DecisionCache::fnv1a("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(DecisionCache::fnv1a("foobar"), 0x85944171f73967e8ull);
  EXPECT_NE(DecisionCache::legacyChecksum("a"), DecisionCache::fnv1a("a"));
}

TEST(DecisionCacheTest, RecordsOfAnOlderKlaraptorAreReadWithAWarning) {
  std::string Path = ::testing::TempDir() + "klaraptor-cache-legacy-" +
                     std::to_string(::getpid());
  std::string Text = "old-key\t32 1 1\t4 1 1\t7";
  char Sum[24];
  std::snprintf(Sum, sizeof(Sum), "%016llx",
                (unsigned long long)DecisionCache::legacyChecksum(Text));
  {
    std::ofstream F(Path);
    F << DecisionCache::Header << "\n" << Sum << " " << Text << "\n";
  }
  std::string Key;
  CachedDecision Out;
  std::string Line = std::string(Sum) + " " + Text;
  EXPECT_FALSE(DecisionCache::parseRecord(Line, Key, Out));
  bool Legacy = false;
  EXPECT_TRUE(DecisionCache::parseRecord(Line, Key, Out, &Legacy));
  EXPECT_TRUE(Legacy);
  Diagnostics Diags(LogLevel::Warn);
  std::vector<std::string> Messages;
  Diags.setSink(
      [&](LogLevel, const std::string &M) { Messages.push_back(M); });
  DecisionCache C(Path, Diags);
  ASSERT_TRUE(C.lookup("old-key", Out));
  EXPECT_EQ(Out.Block, (Dim3{32, 1, 1}));
  ASSERT_EQ(Messages.size(), 1u);
  EXPECT_NE(Messages[0].find("read 1 record written by an older klaraptor"),
            std::string::npos)
      << Messages[0];
  // New records carry the corrected checksum.
  C.store("new-key", Out);
  std::ifstream F(Path);
  std::string L1, L2, L3;
  std::getline(F, L1);
  std::getline(F, L2);
  std::getline(F, L3);
  Legacy = true;
  EXPECT_TRUE(DecisionCache::parseRecord(L3, Key, Out, &Legacy));
  EXPECT_FALSE(Legacy);
  std::remove(Path.c_str());
}

TEST(DecisionCacheTest, OnlyRegularFiles) {
  // A device that never ends, one that is full, a FIFO without a writer and
  // a directory: a warning, no hang, nothing read or written.
  std::string Fifo = ::testing::TempDir() + "klaraptor-cache-fifo-" +
                     std::to_string(::getpid());
  std::remove(Fifo.c_str());
  ASSERT_EQ(::mkfifo(Fifo.c_str(), 0600), 0);
  for (std::string Path :
       {std::string("/dev/zero"), std::string("/dev/full"), Fifo,
        ::testing::TempDir()}) {
    Diagnostics Diags(LogLevel::Warn);
    std::vector<std::string> Messages;
    Diags.setSink(
        [&](LogLevel, const std::string &M) { Messages.push_back(M); });
    DecisionCache C(Path, Diags);
    CachedDecision Out;
    EXPECT_FALSE(C.lookup("k", Out)) << Path;
    C.store("k", CachedDecision{{32, 1, 1}, {1, 1, 1}, 1});
    EXPECT_FALSE(C.lookup("k", Out)) << Path;
    ASSERT_EQ(Messages.size(), 1u) << Path;
    EXPECT_NE(Messages[0].find("is not a regular file"), std::string::npos)
        << Messages[0];
  }
  std::remove(Fifo.c_str());
}
