//===- CuptiTest.cpp - the cupti backend's GPU-free parts -----------------===//
///
/// \file
/// What of the cupti backend can be checked without a GPU: the table from
/// record keys to CUPTI metrics (against the emu backend's CUPTI column),
/// the scan of a launch's arguments for device allocations (with a fake
/// address query standing in for cuPointerGetAttribute and
/// cuMemGetAddressRange), the median and spread of repeated timings, and
/// KLARAPTOR_CUPTI_REPEATS.
//===----------------------------------------------------------------------===//
#include "CuptiSweep.h"
#include "backend/EmuBackend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>

using namespace klaraptor::profiler;
using namespace klaraptor::profiler::cupti;

namespace {

TEST(CuptiMetrics, KeysAgreeWithTheEmuBackendsCuptiColumn) {
  // Every key the Range Profiler fills is a key the emu backend reports
  // (so fits read both), and each CUPTI metric is the one docs/metrics.md
  // (emuMetrics()'s CUPTI column) names for it.
  unsigned Checked = 0;
  for (const MetricKey &K : cuptiMetricKeys()) {
    if (K.CuptiOnly) {
      // The GPU's own time, caches, DRAM, cycles: no emu counterpart.
      EXPECT_EQ(std::find_if(emuMetrics().begin(), emuMetrics().end(),
                             [&](const MetricInfo &M) {
                               return std::strcmp(M.Key, K.Key) == 0;
                             }),
                emuMetrics().end())
          << K.Key << " is marked cupti-only but the emu backend has it";
      continue;
    }
    auto It = std::find_if(emuMetrics().begin(), emuMetrics().end(),
                           [&](const MetricInfo &M) {
                             return std::strcmp(M.Key, K.Key) == 0;
                           });
    ASSERT_NE(It, emuMetrics().end()) << K.Key;
    for (const char *C : K.Cupti)
      if (C) {
        EXPECT_NE(std::strstr(It->Cupti, C), nullptr)
            << K.Key << ": '" << C << "' is not in '" << It->Cupti << "'";
        ++Checked;
      }
  }
  EXPECT_GE(Checked, 28u);
}

TEST(CuptiMetrics, EveryEmuKeyWithACountingMetricIsCollected) {
  // The reverse direction: an emu key whose CUPTI column names a counter
  // (not a launch__ statistic) is in the table.
  for (const MetricInfo &M : emuMetrics()) {
    if (!*M.Cupti || std::strstr(M.Cupti, "launch__") ||
        std::strncmp(M.Cupti, "none", 4) == 0 ||
        std::strstr(M.Cupti, "gpu__time_duration"))
      continue;
    bool Found = std::any_of(
        cuptiMetricKeys().begin(), cuptiMetricKeys().end(),
        [&](const MetricKey &K) { return std::strcmp(K.Key, M.Key) == 0; });
    EXPECT_TRUE(Found) << M.Key << " (" << M.Cupti << ") is not collected";
  }
}

TEST(CuptiMetrics, NamesAreDistinctSums) {
  std::vector<std::string> Names = cuptiMetricNames();
  std::set<std::string> Unique(Names.begin(), Names.end());
  EXPECT_EQ(Unique.size(), Names.size());
  for (const std::string &N : Names) {
    ASSERT_GT(N.size(), 4u);
    EXPECT_EQ(N.substr(N.size() - 4), ".sum") << N;
    EXPECT_NE(N.find("__"), std::string::npos) << N;
  }
  EXPECT_TRUE(Unique.count("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
  EXPECT_TRUE(Unique.count("gpu__time_duration.sum"));
}

TEST(CuptiMetrics, KeysSumTheirMetricsAndSkipMissingOnes) {
  std::vector<std::string> Names = {
      "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"};
  std::vector<double> Values = {3, 4, 128, 7};
  LaunchRecord R;
  EXPECT_EQ(setMetricKeys(Names, Values, R), 2u);
  EXPECT_EQ(R.get("global_atomic_requests", -1), 7);
  EXPECT_EQ(R.get("global_load_sectors", -1), 128);
  // The _red sectors metric is missing, so the sum would be wrong: unset.
  EXPECT_EQ(R.get("global_atomic_sectors", -1), -1);
  EXPECT_EQ(R.get("inst_executed", -1), -1);
  // Fewer values than names: the names without a value do not count.
  LaunchRecord Short;
  EXPECT_EQ(setMetricKeys(Names, {3}, Short), 0u);
}

/// A fake device: two allocations, [0x10000, +0x1000) and
/// [0x80000, +0x40), everything else host memory.
bool fakeQuery(uint64_t A, uint64_t &Base, uint64_t &Size) {
  if (A >= 0x10000 && A < 0x11000) {
    Base = 0x10000;
    Size = 0x1000;
    return true;
  }
  if (A >= 0x80000 && A < 0x80040) {
    Base = 0x80000;
    Size = 0x40;
    return true;
  }
  return false;
}

TEST(CuptiArgs, FindsEveryAllocationOnce) {
  uint64_t Inner = 0x10020;    // inside the first allocation
  int32_t N = 1000;            // a 4-byte int, never a pointer
  uint64_t HostPtr = 0x7fff0000; // not device memory
  uint64_t Second = 0x80000;
  uint64_t FirstAgain = 0x10ff8; // same allocation as Inner
  struct {
    uint64_t Count;
    uint64_t Ptr;
  } ByValue = {5, 0x80010}; // a by-value struct with a pointer inside
  uint64_t Null = 0;
  void *Args[] = {&Inner, &N, &HostPtr, &Second, &FirstAgain, &ByValue, &Null};
  std::vector<uint64_t> Sizes = {8, 4, 8, 8, 8, 16, 8};
  std::vector<DeviceBuffer> B = findArgumentBuffers(Sizes, Args, fakeQuery);
  ASSERT_EQ(B.size(), 2u);
  EXPECT_EQ(B[0].Base, 0x10000u);
  EXPECT_EQ(B[0].Size, 0x1000u);
  EXPECT_EQ(B[1].Base, 0x80000u);
  EXPECT_EQ(B[1].Size, 0x40u);
}

TEST(CuptiArgs, SmallParamsAndQueriesThatFailAreSkipped) {
  // 0x10000 in a 4-byte parameter's bytes cannot be an address.
  uint32_t Small = 0x10000;
  uint64_t Ptr = 0x80008;
  void *Args[] = {&Small, &Ptr};
  unsigned Calls = 0;
  AddressQuery Counting = [&](uint64_t A, uint64_t &Base, uint64_t &Size) {
    ++Calls;
    return fakeQuery(A, Base, Size);
  };
  std::vector<DeviceBuffer> B = findArgumentBuffers({4, 8}, Args, Counting);
  EXPECT_EQ(Calls, 1u);
  ASSERT_EQ(B.size(), 1u);
  EXPECT_EQ(B[0].Base, 0x80000u);
  // A query that accepts with size 0 adds nothing; no arguments: nothing.
  AddressQuery Empty = [](uint64_t, uint64_t &Base, uint64_t &Size) {
    Base = 1;
    Size = 0;
    return true;
  };
  EXPECT_TRUE(findArgumentBuffers({8}, Args + 1, Empty).empty());
  EXPECT_TRUE(findArgumentBuffers({}, nullptr, fakeQuery).empty());
}

TEST(CuptiTime, MedianAndSpread) {
  TimeSpread Odd = summarizeTimes({30, 10, 20, 50, 40});
  EXPECT_EQ(Odd.Count, 5u);
  EXPECT_DOUBLE_EQ(Odd.Median, 30);
  EXPECT_DOUBLE_EQ(Odd.Min, 10);
  EXPECT_DOUBLE_EQ(Odd.Max, 50);
  TimeSpread Even = summarizeTimes({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(Even.Median, 2.5);
  EXPECT_DOUBLE_EQ(Even.Min, 1);
  EXPECT_DOUBLE_EQ(Even.Max, 4);
  TimeSpread One = summarizeTimes({7.5});
  EXPECT_DOUBLE_EQ(One.Median, 7.5);
  EXPECT_EQ(summarizeTimes({}).Count, 0u);
  // An outlier moves the maximum, not the median.
  TimeSpread Outlier = summarizeTimes({100, 101, 99, 100, 5000});
  EXPECT_DOUBLE_EQ(Outlier.Median, 100);
  EXPECT_DOUBLE_EQ(Outlier.Max, 5000);
}

TEST(CuptiTime, Repeats) {
  unsigned R = 0;
  std::string Error;
  EXPECT_TRUE(parseRepeats(nullptr, R, Error));
  EXPECT_EQ(R, 5u);
  EXPECT_TRUE(parseRepeats("", R, Error));
  EXPECT_EQ(R, 5u);
  EXPECT_TRUE(parseRepeats("11", R, Error));
  EXPECT_EQ(R, 11u);
  for (const char *Bad : {"0", "-3", "abc", "7x", "1001"}) {
    Error.clear();
    EXPECT_FALSE(parseRepeats(Bad, R, Error)) << Bad;
    EXPECT_NE(Error.find("KLARAPTOR_CUPTI_REPEATS='"), std::string::npos);
  }
}

} // namespace
