//===- EstimatorTest.cpp - estimates of kernels with known behaviour ------===//
///
/// \file
/// The kernels of test/Timing/Inputs/timing-kernels.cu on the h100-sxm
/// profile with the built-in parameters: a strided copy is DRAM
/// throughput-bound, a long dependent multiply-add chain fp32
/// latency-bound, and a coalesced copy at a large size is slower with
/// 32-thread blocks (occupancy capped by the 32 blocks per SM) than with
/// 256-thread blocks. Only one wave of one SM runs, so N = 2^24 is cheap.
//===----------------------------------------------------------------------===//
#include "Estimator.h"
#include "Program.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

using namespace klaraptor;
using namespace klaraptor::timing;

namespace {

emu::Module &kernels() {
  static std::unique_ptr<emu::Module> M = [] {
    std::ifstream In(KLARAPTOR_TIMING_TEST_PTX);
    std::stringstream SS;
    SS << In.rdbuf();
    std::string Error;
    auto M = emu::Module::load(SS.str(), Error);
    EXPECT_TRUE(M) << Error;
    return M;
  }();
  return *M;
}

const devices::DeviceProfile &h100() {
  static devices::DeviceProfile D = [] {
    devices::DeviceProfile D;
    std::string Error;
    EXPECT_TRUE(devices::loadDeviceProfile("h100-sxm", D, Error)) << Error;
    return D;
  }();
  return D;
}

devices::KernelResources resources() {
  devices::KernelResources K;
  K.Registers = 16;
  return K;
}

struct Buf {
  explicit Buf(size_t Bytes) {
    if (posix_memalign(&P, 256, Bytes) != 0)
      P = nullptr;
    std::memset(P, 0, Bytes);
  }
  ~Buf() { std::free(P); }
  void *P = nullptr;
};

LaunchEstimate estimate(const char *Kernel, emu::Dim3 Grid, emu::Dim3 Block,
                        std::vector<void *> Args, int Regions = -1,
                        const devices::DeviceProfile *D = nullptr,
                        const TimingParams *TP = nullptr) {
  if (!D)
    D = &h100();
  TimingParams Builtin = builtinTimingParams(*D);
  if (!TP)
    TP = &Builtin;
  emu::LaunchOptions O;
  O.Grid = Grid;
  O.Block = Block;
  O.Args = Args.data();
  LaunchEstimate E;
  std::string Error;
  EXPECT_TRUE(estimateLaunch(kernels(), Kernel, O, *D, resources(), *TP,
                             Regions, E, Error))
      << Error;
  return E;
}

/// The region whose bottleneck moves the time most.
const RegionSensitivity &mostSensitive(const Analysis &A) {
  static const RegionSensitivity None;
  const RegionSensitivity *Best = &None;
  for (const RegionSensitivity &R : A.Regions)
    if (R.Impact > Best->Impact)
      Best = &R;
  EXPECT_NE(Best, &None);
  return *Best;
}

// A launch of several waves: the last wave ends with its slowest block, the
// ones before it take what a block takes on average (the SM starts the next
// block when one ends), but no less than the wave's work keeps its busiest
// resource busy; one wave is the slowest block's time.
TEST(Estimator, WavesBeforeTheLastTakeTheMeanBlock) {
  SimResult R;
  R.Cycles = 100;
  R.MeanBlockCycles = 60;
  R.BusiestCycles = 50;
  EXPECT_DOUBLE_EQ(cyclesPerWave(R, 1), 100);
  EXPECT_DOUBLE_EQ(cyclesPerWave(R, 2), (60 + 100) / 2.0);
  EXPECT_DOUBLE_EQ(cyclesPerWave(R, 4), (3 * 60 + 100) / 4.0);
  // A resource busy for 90 of the wave's 100 cycles: the earlier waves
  // cannot be shorter than 90.
  R.BusiestCycles = 90;
  EXPECT_DOUBLE_EQ(cyclesPerWave(R, 4), (3 * 90 + 100) / 4.0);
  // Without block ends (or with an impossible mean) the wave's end.
  R.BusiestCycles = 0;
  R.MeanBlockCycles = 0;
  EXPECT_DOUBLE_EQ(cyclesPerWave(R, 4), 100);
  R.MeanBlockCycles = 150;
  EXPECT_DOUBLE_EQ(cyclesPerWave(R, 4), 100);
  // The switch: a parameter file's wave_refill (off in a bare
  // TimingParams; the estimator's builtinTimingParams turns it on).
  TimingParams Q;
  std::string Error;
  EXPECT_FALSE(Q.WaveRefill);
  ASSERT_TRUE(parseTimingParams("wave_refill = 1\n", "t", Q, Error)) << Error;
  EXPECT_TRUE(Q.WaveRefill);
  EXPECT_FALSE(parseTimingParams("wave_refill = 2\n", "t", Q, Error));
  EXPECT_EQ(Error, "t:1: 'wave_refill' expects 0 or 1");
}

TEST(Estimator, StridedCopyIsDramThroughputBound) {
  int N = 1 << 20, Stride = 32;
  Buf In(size_t(N) * Stride * 4), Out(size_t(N) * 4);
  void *InP = In.P, *OutP = Out.P;
  LaunchEstimate E = estimate("strided_copy", {uint32_t(N / 256), 1, 1},
                              {256, 1, 1}, {&InP, &OutP, &N, &Stride}, 4);
  std::printf("strided_copy: %.0f cycles/wave, %llu waves, %.0f ns, dram gap "
              "+10%%: %+.3f, dram latency +10%%: %+.3f\n",
              E.CyclesPerWave, (unsigned long long)E.Waves, E.Ns,
              E.A.Table[unsigned(Resource::Dram)].Gap,
              E.A.Table[unsigned(Resource::Dram)].Latency);
  EXPECT_EQ(E.A.Bottleneck, Resource::Dram);
  EXPECT_FALSE(E.A.LatencyBound);
  EXPECT_GT(E.A.Impact, 0.05);
  EXPECT_EQ(E.ResidentBlocks, 8);
  // Eight blocks on each of the two SMs (EstimatedBlocks).
  EXPECT_EQ(E.BlocksSimulated, 16u);
  EXPECT_EQ(E.Waves, (uint64_t(N / 256) + 8 * 132 - 1) / (8 * 132));
  const RegionSensitivity &R = mostSensitive(E.A);
  EXPECT_EQ(R.Bottleneck, Resource::Dram);
  EXPECT_FALSE(R.LatencyBound);
}

TEST(Estimator, TheSlowerOfTwoSmsNotABorderBlock) {
  // On the RTX 2070 SUPER a 1024-thread block fills an SM, so SM 0's first
  // wave is block 0 alone: with 1 x 1024 blocks, column 0, which does
  // nothing. The launch lasts as long as its busiest SM: the estimate takes
  // the second SM's blocks (middle of the grid), and the uncoalesced column
  // blocks come out slower than 32 x 32 ones, not several times faster.
  devices::DeviceProfile Rtx;
  std::string Error;
  ASSERT_TRUE(devices::loadDeviceProfile("rtx-2070-super", Rtx, Error))
      << Error;
  int Rows = 1024, Cols = 1024;
  Buf A(size_t(Rows) * Cols * 4), B(size_t(Rows) * Cols * 4);
  void *AP = A.P, *BP = B.P;
  std::vector<void *> Args = {&AP, &BP, &Rows, &Cols};
  LaunchEstimate Column = estimate("column_step", {uint32_t(Cols), 1, 1},
                                   {1, 1024, 1}, Args, 0, &Rtx);
  LaunchEstimate Square = estimate("column_step", {32, 32, 1}, {32, 32, 1},
                                   Args, 0, &Rtx);
  std::printf("column_step 1x1024: %.0f cycles (SM 0: %.0f), 32x32: %.0f\n",
              Column.CyclesPerWave, Column.OtherCycles, Square.CyclesPerWave);
  EXPECT_EQ(Column.ResidentBlocks, 1);
  EXPECT_EQ(Column.BlocksSimulated, 2u);
  EXPECT_EQ(Column.Set, 1);
  EXPECT_LT(Column.OtherCycles, 0.2 * Column.CyclesPerWave);
  EXPECT_GT(Column.Ns, Square.Ns);
}

TEST(Estimator, NeighboursAreTheEarlierBlocksOnOtherSms) {
  // 4 SMs, 2 blocks each: set 0 is blocks 0 and 4, set 1 the middle wave's
  // blocks of SM 3 (an odd SM near the middle): 19 and 23.
  devices::DeviceProfile D = h100();
  D.MultiProcessorCount = 4;
  EstimatedBlocks B = estimatedBlocks(D, 8 * 4, 2);
  ASSERT_EQ(B.Stride, 4u);
  ASSERT_EQ(B.PerSm, 2u);
  ASSERT_EQ(B.Start[1], 19u);
  EXPECT_EQ(B.setOf(19), 1);
  EXPECT_EQ(B.setOf(23), 1);
  EXPECT_EQ(B.setOf(4), 0);
  EXPECT_EQ(B.setOf(8), -1);
  // An 8 x 4 grid: block 4 = (4, 0) has its left neighbour 3, block 0
  // none, 19 = (3, 2) has 18 and 11, 23 = (7, 2) has 22 and 15.
  addNeighbours(B, {8, 4, 1});
  EXPECT_EQ(B.neighboursOf(19), (std::vector<uint64_t>{18, 11}));
  EXPECT_EQ(B.neighboursOf(0), std::vector<uint64_t>{});
  EXPECT_EQ(B.Neighbours, (std::vector<uint64_t>{3, 11, 15, 18, 22}));
  // A 4 x 2 x 4 grid: 23 = (3, 1, 2) has 22, 19 and 15, but 19 is
  // simulated on the same SM already, as is block 0 above block 4.
  addNeighbours(B, {4, 2, 4});
  EXPECT_EQ(B.neighboursOf(23), (std::vector<uint64_t>{22, 19, 15}));
  EXPECT_EQ(B.neighboursOf(19), (std::vector<uint64_t>{18, 11}));
  EXPECT_EQ(B.Neighbours, (std::vector<uint64_t>{11, 15, 18, 22}));
}

TEST(Estimator, ExtraBlocksRunOnceBesideTheStridedSets) {
  // Records the blocks a launch runs.
  struct Ran final : emu::TraceSink {
    std::vector<emu::TraceEvent> *traceBlock(uint64_t Linear,
                                             uint32_t) override {
      std::lock_guard<std::mutex> G(M);
      Blocks.push_back(Linear);
      return nullptr;
    }
    std::mutex M;
    std::vector<uint64_t> Blocks;
  } Sink;
  int N = 16 * 32;
  Buf In(size_t(N) * 4), Out(size_t(N) * 4);
  void *InP = In.P, *OutP = Out.P;
  std::vector<void *> Args = {&InP, &OutP, &N};
  emu::LaunchOptions O;
  O.Grid = {16, 1, 1};
  O.Block = {32, 1, 1};
  O.Args = Args.data();
  O.StridedBlocks = 2;
  O.BlockStride = 4;
  O.SecondStride = 9;
  // 0, 4 and 9 belong to the sets, 1000 is outside the grid, 3 is given
  // twice.
  std::vector<uint64_t> Extra = {0, 3, 4, 9, 1000, 3, 15};
  O.ExtraBlocks = &Extra;
  O.HostThreads = 2;
  O.Trace = &Sink;
  emu::LaunchResult R = kernels().launch("copy", O);
  ASSERT_EQ(R.Status, emu::LaunchStatus::Ok) << R.Message;
  std::sort(Sink.Blocks.begin(), Sink.Blocks.end());
  EXPECT_EQ(Sink.Blocks, (std::vector<uint64_t>{0, 3, 4, 9, 13, 15}));
}

const devices::DeviceProfile &rtx() {
  static devices::DeviceProfile D = [] {
    devices::DeviceProfile D;
    std::string Error;
    EXPECT_TRUE(devices::loadDeviceProfile("rtx-2070-super", D, Error))
        << Error;
    return D;
  }();
  return D;
}

/// The RTX 2070 SUPER's built-in parameters, the cache model's sizes
/// written out: its 64 KiB L1 and one SM's fortieth of its 4 MiB L2.
TimingParams rtxCacheParams() {
  TimingParams TP = builtinTimingParams(rtx());
  EXPECT_EQ(TP.L1Bytes, 65536);
  EXPECT_DOUBLE_EQ(TP.L2Bytes, 4194304.0 / 40);
  return TP;
}

/// The part of the simulated SM's sectors that hit the L2.
double l2Share(const LaunchEstimate &E) {
  const SimResult &R = E.A.Base;
  return R.L2HitSectors / (R.L1HitSectors + R.L2HitSectors + R.MissSectors);
}

TEST(Estimator, TheRowAboveIsAnL2HitInOneRowBlocks) {
  // row_step reads B's row above; with one-row blocks that row was loaded
  // by the block above, which runs on another SM. The L2 is shared: with
  // the cache model those loads hit the L2, so one-row blocks see about as
  // many L2 hits per sector as square ones (without the neighbours they
  // would see none: each simulated SM's L2 share holds only its own
  // blocks' sectors).
  const devices::DeviceProfile &Rtx = rtx();
  TimingParams TP = rtxCacheParams();
  int Rows = 1024, Cols = 1024;
  Buf A(size_t(Rows) * Cols * 4), B(size_t(Rows) * Cols * 4);
  void *AP = A.P, *BP = B.P;
  std::vector<void *> Args = {&AP, &BP, &Rows, &Cols};
  LaunchEstimate Row = estimate("row_step", {uint32_t(Cols / 256), uint32_t(Rows), 1},
                                {256, 1, 1}, Args, 0, &Rtx, &TP);
  LaunchEstimate Square = estimate("row_step", {32, 32, 1}, {32, 32, 1},
                                   Args, 0, &Rtx, &TP);
  std::printf("row_step 256x1: %.0f cycles, L2 hits %.2f of sectors; 32x32: "
              "%.0f cycles, %.2f\n",
              Row.CyclesPerWave, l2Share(Row), Square.CyclesPerWave,
              l2Share(Square));
  // Per thread: A, B, B's row above, A's store. The store hits (A was just
  // loaded); the row above hits too: half the sectors.
  EXPECT_GT(l2Share(Row), 0.45);
  EXPECT_EQ(Row.A.Base.L1HitSectors, 0);
  // Only the simulated blocks' time counts: the neighbours were run for
  // their sectors alone.
  EXPECT_EQ(Row.BlocksSimulated, 2 * uint64_t(Row.ResidentBlocks));
  EXPECT_LT(Row.Ns, 1.1 * Square.Ns);
}

TEST(Estimator, FewBlocksShareTheL2AmongFewerSms) {
  // row_sums with one block of 1024 threads: its 1024 rows are 1024 lines
  // (128 KiB), more than the L1 (64 KiB) and than one SM's fortieth of the
  // L2. Only one SM has a block, so that SM has the whole L2: the rows stay
  // there and are read again for the next seven columns. With 40 blocks
  // every SM has one, and each has its fortieth: the rows do not stay.
  const devices::DeviceProfile &Rtx = rtx();
  TimingParams TP = rtxCacheParams();
  // In PTX order: in the assembler's order the unrolled loop's loads of one
  // sector issue together, and all but the first hit the L1 on its pending
  // miss, leaving too few L2 reads to show the share.
  TP.AssemblerOrder = false;
  int Rows = 40 * 1024, Cols = 64;
  Buf A(size_t(Rows) * Cols * 4), Out(size_t(Rows) * 4);
  void *AP = A.P, *OutP = Out.P;
  std::vector<void *> Args = {&AP, &OutP, &Rows, &Cols};
  LaunchEstimate One =
      estimate("row_sums", {1, 1, 1}, {1024, 1, 1}, Args, 0, &Rtx, &TP);
  LaunchEstimate Forty =
      estimate("row_sums", {40, 1, 1}, {1024, 1, 1}, Args, 0, &Rtx, &TP);
  std::printf("row_sums 1024x1: one block %.0f cycles, L2 hits %.2f of "
              "sectors; 40 blocks %.0f cycles, %.2f\n",
              One.CyclesPerWave, l2Share(One), Forty.CyclesPerWave,
              l2Share(Forty));
  // Each 32-byte sector is read by eight columns: the first misses, the
  // other seven hit the L2.
  EXPECT_GT(l2Share(One), 0.8);
  EXPECT_LT(l2Share(Forty), 0.2);
  EXPECT_LT(One.CyclesPerWave, Forty.CyclesPerWave);
}

TEST(Estimator, DependentChainIsLatencyBound) {
  int Iters = 250; // 8 multiply-adds each
  float A = 0.5f;
  Buf Out(32 * 4);
  void *OutP = Out.P;
  LaunchEstimate E = estimate("fma_chain", {1, 1, 1}, {32, 1, 1},
                              {&OutP, &A, &Iters}, 4);
  std::printf("fma_chain: %.0f cycles, fp32 latency +10%%: %+.3f\n",
              E.CyclesPerWave, E.A.Table[unsigned(Resource::Fp32)].Latency);
  EXPECT_EQ(E.A.Bottleneck, Resource::Fp32);
  EXPECT_TRUE(E.A.LatencyBound);
  // Four cycles per dependent multiply-add dominate; the loop's branch
  // waits for its setp (predicate dependence), a few cycles per iteration.
  EXPECT_GT(E.CyclesPerWave, 4.0 * 8 * Iters);
  EXPECT_LT(E.CyclesPerWave, 4.0 * 8 * Iters * 1.3);
  const RegionSensitivity &R = mostSensitive(E.A);
  EXPECT_EQ(R.Bottleneck, Resource::Fp32);
  EXPECT_TRUE(R.LatencyBound);
}

TEST(Estimator, SmallBlocksSlowACopyAtLargeN) {
  int N = 1 << 24;
  // The arguments only need to be valid for the blocks that run.
  Buf In(size_t(N) * 4), Out(size_t(N) * 4);
  void *InP = In.P, *OutP = Out.P;
  std::vector<void *> Args = {&InP, &OutP, &N};
  LaunchEstimate E32 = estimate("copy", {uint32_t(N / 32), 1, 1}, {32, 1, 1}, Args, 0);
  LaunchEstimate E256 = estimate("copy", {uint32_t(N / 256), 1, 1}, {256, 1, 1}, Args, 0);
  LaunchEstimate E1024 = estimate("copy", {uint32_t(N / 1024), 1, 1}, {1024, 1, 1}, Args, 0);
  std::printf("copy N=2^24: block 32: %.0f ns, 256: %.0f ns, 1024: %.0f ns\n",
              E32.Ns, E256.Ns, E1024.Ns);
  EXPECT_EQ(E32.ResidentBlocks, 32);
  EXPECT_GT(E32.Ns, E256.Ns * 1.2);
  EXPECT_GT(E32.Ns, E1024.Ns * 1.2);
  // At least one DRAM-bandwidth bound: bytes moved / 3.35 TB/s.
  double Floor = 2.0 * 4 * N / 3350.0;
  EXPECT_GT(E256.Ns, Floor);
  EXPECT_LT(E256.Ns, Floor * 2);
}

// wave_refill = 1 through the estimator: a copy of many waves (63 of 256
// threads) takes less than with each wave at its slowest block, and no less
// than DRAM's bandwidth allows (the busiest resource); a launch of one wave
// is as before.
TEST(Estimator, RefillShortensOnlyLaunchesOfSeveralWaves) {
  int N = 1 << 24;
  Buf In(size_t(N) * 4), Out(size_t(N) * 4);
  void *InP = In.P, *OutP = Out.P;
  std::vector<void *> Args = {&InP, &OutP, &N};
  TimingParams Refill = builtinTimingParams(h100()); // refills by default
  ASSERT_TRUE(Refill.WaveRefill);
  TimingParams NoRefill = Refill;
  NoRefill.WaveRefill = false;
  LaunchEstimate Plain = estimate("copy", {uint32_t(N / 256), 1, 1},
                                  {256, 1, 1}, Args, 0, nullptr, &NoRefill);
  LaunchEstimate Refilled = estimate("copy", {uint32_t(N / 256), 1, 1},
                                     {256, 1, 1}, Args, 0, nullptr, &Refill);
  std::printf("copy 256 threads: %llu waves, %.0f ns, refilled %.0f ns\n",
              (unsigned long long)Plain.Waves, Plain.Ns, Refilled.Ns);
  ASSERT_GT(Plain.Waves, 1u);
  EXPECT_LT(Refilled.Ns, Plain.Ns);
  EXPECT_GT(Refilled.Ns, 2.0 * 4 * N / 3350.0);
  EXPECT_NEAR(Refilled.Ns,
              Refilled.CyclesPerWave * double(Refilled.Waves) /
                      Refill.ClockGHz +
                  Refill.LaunchOverheadNs,
              1e-6 * Refilled.Ns);
  // One wave: the same estimate.
  int Small = 32 * 132;
  std::vector<void *> SmallArgs = {&InP, &OutP, &Small};
  LaunchEstimate One = estimate("copy", {132, 1, 1}, {32, 1, 1}, SmallArgs, 0,
                                nullptr, &NoRefill);
  LaunchEstimate OneRefilled = estimate("copy", {132, 1, 1}, {32, 1, 1},
                                        SmallArgs, 0, nullptr, &Refill);
  ASSERT_EQ(One.Waves, 1u);
  EXPECT_DOUBLE_EQ(OneRefilled.Ns, One.Ns);
}

TEST(DeviceTiming, EveryShippedProfileCarriesEveryTimingKey) {
  std::vector<std::string> Names = devices::builtinDeviceProfiles();
  EXPECT_GE(Names.size(), 5u);
  EXPECT_NE(std::find(Names.begin(), Names.end(), "rtx-4090"), Names.end());
  for (const std::string &Name : Names) {
    devices::DeviceProfile D;
    std::string Error;
    ASSERT_TRUE(devices::loadDeviceProfile(Name, D, Error)) << Error;
    for (const std::string &K : devices::timingKeys())
      EXPECT_TRUE(D.Timing.count(K)) << Name << " lacks timing." << K;
    TimingParams P = builtinTimingParams(D);
    EXPECT_EQ(P.Source.rfind("device profile '" + Name + "', cache model (L1 ", 0),
              0u)
        << P.Source;
    // The profile's clock key agrees with its clockRate.
    EXPECT_NEAR(P.ClockGHz, double(D.ClockRate) / 1e6, 1e-9) << Name;
    EXPECT_EQ(P.Schedulers, unsigned(D.SmSubPartitions)) << Name;
  }
  // Every key the profiles may carry is one the timing parser knows.
  for (const std::string &K : devices::timingKeys()) {
    TimingParams P;
    std::string Error;
    EXPECT_TRUE(parseTimingParams(K + " = 1", "t", P, Error)) << Error;
  }
}

TEST(DeviceTiming, ParametersComeFromTheProfile) {
  const devices::DeviceProfile &H = h100();
  TimingParams P = builtinTimingParams(H);
  EXPECT_DOUBLE_EQ(P[Resource::Dram].Gap, 2.4966);
  EXPECT_DOUBLE_EQ(P[Resource::Dram].Latency, 480);
  EXPECT_DOUBLE_EQ(P[Resource::L2].Gap, 1.5206);
  // h200 inherits h100-sxm and only changes the DRAM gap (4.8 TB/s).
  devices::DeviceProfile H200;
  std::string Error;
  ASSERT_TRUE(devices::loadDeviceProfile("h200", H200, Error)) << Error;
  TimingParams Q = builtinTimingParams(H200);
  EXPECT_DOUBLE_EQ(Q[Resource::Dram].Gap, 1.7424);
  EXPECT_DOUBLE_EQ(Q[Resource::Dram].Latency, 480);
  EXPECT_DOUBLE_EQ(Q[Resource::Fp32].Gap, P[Resource::Fp32].Gap);
  // A profile file that sets the DRAM gap moves a DRAM-bound estimate.
  devices::DeviceProfile Slow;
  ASSERT_TRUE(Slow.parse("format = 1\ninherit = h100-sxm\nid = slow\n"
                         "timing.dram.gap = 5.0   # twice h100-sxm's\n",
                         "slow.device", Error))
      << Error;
  EXPECT_DOUBLE_EQ(builtinTimingParams(Slow)[Resource::Dram].Gap, 5.0);
  int N = 1 << 20, Stride = 32;
  Buf In(size_t(N) * Stride * 4), Out(size_t(N) * 4);
  void *InP = In.P, *OutP = Out.P;
  std::vector<void *> Args = {&InP, &OutP, &N, &Stride};
  LaunchEstimate A = estimate("strided_copy", {uint32_t(N / 256), 1, 1},
                              {256, 1, 1}, Args, 0, &H);
  LaunchEstimate B = estimate("strided_copy", {uint32_t(N / 256), 1, 1},
                              {256, 1, 1}, Args, 0, &Slow);
  LaunchEstimate C = estimate("strided_copy", {uint32_t(N / 256), 1, 1},
                              {256, 1, 1}, Args, 0, &H200);
  std::printf("strided_copy N=2^20 by DRAM gap: 2.4966: %.0f ns, 5.0: %.0f "
              "ns, h200 1.7424: %.0f ns\n",
              A.Ns, B.Ns, C.Ns);
  EXPECT_GT(B.CyclesPerWave, A.CyclesPerWave * 1.5);
  EXPECT_LT(C.CyclesPerWave, A.CyclesPerWave * 0.85);
}

TEST(DeviceTiming, ProfileErrors) {
  devices::DeviceProfile D;
  std::string Error;
  EXPECT_FALSE(D.parse("format = 1\ninherit = h100-sxm\ntiming.dram.speed = 1\n",
                       "x.device", Error));
  EXPECT_EQ(Error, "x.device:3: unknown timing key 'timing.dram.speed'");
  EXPECT_FALSE(D.parse("format = 1\ninherit = h100-sxm\ntiming.dram.gap = -1\n",
                       "x.device", Error));
  EXPECT_EQ(Error,
            "x.device:3: 'timing.dram.gap' expects a non-negative number, not '-1'");
  // A profile without timing keys gets defaults: DRAM from its bus.
  devices::DeviceProfile Bare;
  std::string Text;
  {
    std::ifstream In(std::string(KLARAPTOR_DEVICES_DIR) + "/t4.device");
    std::stringstream SS;
    SS << In.rdbuf();
    std::string Line;
    while (std::getline(SS, Line))
      if (Line.rfind("timing.", 0) != 0)
        Text += Line + "\n";
  }
  ASSERT_TRUE(Bare.parse(Text, "bare.device", Error)) << Error;
  EXPECT_TRUE(Bare.Timing.empty());
  TimingParams P = builtinTimingParams(Bare);
  // Without timing.l1_bytes the cache model has the L2 alone.
  EXPECT_EQ(P.Source, "device profile 't4' (no timing keys: defaults), "
                      "cache model (L1 0 B, L2 share 104858 B)");
  // 2 x 5001 MHz x 32 bytes = 320 GB/s: 32 B / (320 GB/s / 40 / 1.59 GHz).
  EXPECT_NEAR(P[Resource::Dram].Gap, 6.36, 0.01);
}

TEST(Regions, NamedBySourceLinesWithLineinfo) {
  // timing-kernels.ptx is compiled with -lineinfo: the dependent chain's
  // region is the inner loop body, line 28 of timing-kernels.cu.
  int Iters = 250;
  float A = 0.5f;
  Buf Out(32 * 4);
  void *OutP = Out.P;
  LaunchEstimate E = estimate("fma_chain", {1, 1, 1}, {32, 1, 1},
                              {&OutP, &A, &Iters}, 4);
  const RegionSensitivity &R = mostSensitive(E.A);
  const emu::KernelProgram *P = kernelProgram(kernels(), "fma_chain");
  ASSERT_TRUE(P);
  ASSERT_FALSE(P->SrcLine.empty());
  TraceCollector C(1);
  SmWorkload W = buildWorkload(*P, C);
  ASSERT_LT(R.Region, W.Regions.size());
  const CodeRegion &CR = W.Regions[R.Region];
  std::printf("fma_chain's most sensitive region: %s\n", CR.Name.c_str());
  EXPECT_EQ(CR.Name.rfind("timing-kernels.cu:", 0), 0u) << CR.Name;
  EXPECT_LE(CR.FirstSrcLine, 28u);
  EXPECT_GE(CR.LastSrcLine, 28u);
  EXPECT_GE(CR.FirstSrcLine, 22u); // within fma_chain
  EXPECT_LE(CR.LastSrcLine, 31u);
}

/// Runs one block of one warp of \p Kernel, its trace into \p C.
bool traceOneWarp(emu::Module &M, const char *Kernel, void **Args,
                  TraceCollector &C) {
  emu::LaunchOptions O;
  O.Grid = {1, 1, 1};
  O.Block = {32, 1, 1};
  O.Args = Args;
  O.Trace = &C;
  return M.launch(Kernel, O).Status == emu::LaunchStatus::Ok;
}

// A kernel whose branch and select depend on a comparison.
const char *PredPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.lt.u32 %p1, %r2, %r1;
  selp.b32 %r3, 1, 2, %p1;
  @%p1 bra DONE;
  add.s32 %r3, %r3, 1;
DONE:
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r3;
  ret;
}
)";

TEST(Predicates, BranchAndSelectWaitForTheirSetp) {
  std::string Error;
  auto M = emu::Module::load(PredPtx, Error);
  ASSERT_TRUE(M) << Error;
  Buf Out(64);
  void *OutP = Out.P;
  int N = 16;
  void *Args[] = {&OutP, &N};
  TraceCollector C(1);
  ASSERT_TRUE(traceOneWarp(*M, "k", Args, C));
  const emu::KernelProgram *P = kernelProgram(*M, "k");
  ASSERT_TRUE(P);
  EXPECT_TRUE(P->SrcLine.empty()); // no .loc
  SmWorkload W = buildWorkload(*P, C);
  EXPECT_EQ(W.Regions[0].Name.rfind("ptx:", 0), 0u) << W.Regions[0].Name;
  // Pcs: 0 ld, 1 ld, 2 mov, 3 setp, 4 selp, 5 @p bra, 6 add, 7 cvta, 8 st.
  ASSERT_GE(W.Code.size(), 9u);
  const StaticInst &Setp = W.Code[3], &Selp = W.Code[4], &Bra = W.Code[5];
  ASSERT_EQ(Setp.NumDst, 1);
  uint32_t PReg = Setp.Dst[0];
  EXPECT_GE(PReg, P->NumSlots); // a predicate, numbered after the slots
  EXPECT_LT(PReg, W.NumRegs);
  auto reads = [&](const StaticInst &S, uint32_t R) {
    for (unsigned K = 0; K < S.NumSrc; ++K)
      if (S.Src[K] == R)
        return true;
    return false;
  };
  EXPECT_TRUE(reads(Selp, PReg));
  EXPECT_TRUE(reads(Bra, PReg));
  EXPECT_EQ(Bra.Res, Resource::Branch);
  // The dependence shows in the time: with a 100-cycle integer latency the
  // branch waits for setp (which waits for mov) before the rest can go.
  TimingParams TP;
  TP.Schedulers = 1;
  TP[Resource::Int].Latency = 100;
  double With = simulate(W, TP).Cycles;
  SmWorkload NoPred = W;
  for (StaticInst &S : NoPred.Code) {
    unsigned K = 0;
    for (unsigned J = 0; J < S.NumSrc; ++J)
      if (S.Src[J] < P->NumSlots)
        S.Src[K++] = S.Src[J];
    S.NumSrc = uint8_t(K);
  }
  double Without = simulate(NoPred, TP).Cycles;
  std::printf("predicate dependences: %.0f cycles with, %.0f without\n", With,
              Without);
  EXPECT_GE(With, Without + 90);
}

// A loop unrolled as clang unrolls it: each load next to its use. In acc
// the sum stays in a register; in acc_mem it is stored after every step
// (as PolyBench's kernels accumulate in memory), so no later load may pass
// the store.
std::string unrolledKernel(const std::string &Name, bool StoreEachStep) {
  std::string S = ".visible .entry " + Name +
                  "(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
                  "  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n"
                  "  .reg .f32 %f<6>;\n  .reg .b64 %rd<4>;\n"
                  "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
                  "  ld.param.u32 %r1, [n];\n"
                  "  cvta.to.global.u64 %rd1, %rd1;\n"
                  "  cvta.to.global.u64 %rd2, %rd2;\n"
                  "  mov.f32 %f5, 0f00000000;\nLOOP:\n";
  for (int K = 0; K < 4; ++K) {
    std::string F = "%f" + std::to_string(K + 1);
    S += "  ld.global.f32 " + F + ", [%rd1+" + std::to_string(4 * K) + "];\n";
    S += "  fma.rn.f32 %f5, " + F + ", " + F + ", %f5;\n";
    if (StoreEachStep)
      S += "  st.global.f32 [%rd2], %f5;\n";
  }
  S += "  add.s32 %r1, %r1, -1;\n  setp.ne.s32 %p1, %r1, 0;\n"
       "  @%p1 bra LOOP;\n";
  if (!StoreEachStep)
    S += "  st.global.f32 [%rd2], %f5;\n";
  return S + "  ret;\n}\n";
}

// Two loads in one basic block. fenced: a barrier between them, which the
// second may not move above. reused: the second load overwrites %f1, which
// the add before it reads, so it may not move above that add.
std::string twoLoadsKernel(const std::string &Name, bool Barrier,
                           const std::string &Second) {
  return ".visible .entry " + Name +
         "(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
         "  .reg .f32 %f<4>;\n  .reg .b64 %rd<3>;\n"
         "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
         "  cvta.to.global.u64 %rd1, %rd1;\n"
         "  cvta.to.global.u64 %rd2, %rd2;\n"
         "  ld.global.f32 %f1, [%rd1];\n  add.f32 %f3, %f1, %f1;\n" +
         std::string(Barrier ? "  bar.sync 0;\n" : "") +
         "  ld.global.f32 " + Second + ", [%rd1+4];\n"
         "  add.f32 %f3, %f3, " + Second + ";\n"
         "  st.global.f32 [%rd2], %f3;\n  ret;\n}\n";
}

const std::string UnrolledPtx =
    ".version 8.0\n.target sm_90\n.address_size 64\n" +
    unrolledKernel("acc", false) + unrolledKernel("acc_mem", true) +
    twoLoadsKernel("fenced", true, "%f2") +
    twoLoadsKernel("reused", false, "%f1");

/// One warp of \p Kernel over 8 loop passes, in the assembler's or PTX order.
SmWorkload unrolledWorkload(emu::Module &M, const char *Kernel,
                            bool AssemblerOrder) {
  Buf In(64), Out(64);
  void *InP = In.P, *OutP = Out.P;
  int N = 8;
  void *Args[] = {&InP, &OutP, &N};
  TraceCollector C(1);
  EXPECT_TRUE(traceOneWarp(M, Kernel, Args, C));
  const emu::KernelProgram *P = kernelProgram(M, Kernel);
  EXPECT_TRUE(P);
  return P ? buildWorkload(*P, C, -1, AssemblerOrder) : SmWorkload();
}

/// Where the instruction at \p Pc issues in the first warp's order of \p W
/// (its first occurrence; the order's length when it never does).
ptrdiff_t issuePosition(const SmWorkload &W, uint32_t Pc) {
  const std::vector<DynInst> &I = W.Warps.at(0).Insts;
  return std::find_if(I.begin(), I.end(),
                      [&](const DynInst &D) { return D.Idx == Pc; }) -
         I.begin();
}

/// The PTX mnemonic kinds of the warp's first loop pass, in issue order:
/// 'l' load, 'f' fma, 's' store, '.' other.
std::string firstPass(const SmWorkload &W, uint32_t LoopStart,
                      uint32_t LoopEnd) {
  std::string K;
  for (const DynInst &D : W.Warps[0].Insts) {
    if (D.Idx < LoopStart || D.Idx >= LoopEnd)
      continue;
    const StaticInst &S = W.Code[D.Idx];
    K += S.Res == Resource::Lsu ? (S.NumDst ? 'l' : 's')
         : S.Res == Resource::Fp32 ? 'f'
                                   : '.';
    if (K.size() == LoopEnd - LoopStart)
      break;
  }
  return K;
}

TEST(AssemblerOrder, LoadsGoFirstUnlessAStoreIsInTheWay) {
  std::string Error;
  auto M = emu::Module::load(UnrolledPtx, Error);
  ASSERT_TRUE(M) << Error;
  // acc: Pcs 0-5 before the loop, 6-16 the loop (4 x ld + fma, add, setp,
  // bra), then st, ret.
  SmWorkload Ptx = unrolledWorkload(*M, "acc", false),
             Asm = unrolledWorkload(*M, "acc", true);
  ASSERT_FALSE(Asm.Warps.empty());
  EXPECT_EQ(firstPass(Ptx, 6, 17), "lflflflf...");
  EXPECT_EQ(firstPass(Asm, 6, 17), "llllfff.f.."); // the sum's chain before the counter
  EXPECT_EQ(Ptx.Warps[0].Insts.size(), Asm.Warps[0].Insts.size());
  // One warp waiting on each load in turn, against four loads in flight.
  TimingParams TP = builtinTimingParams(h100());
  double PtxCycles = simulate(Ptx, TP).Cycles,
         AsmCycles = simulate(Asm, TP).Cycles;
  std::printf("unrolled loop, one warp: %.0f cycles in PTX order, %.0f in "
              "the assembler's\n", PtxCycles, AsmCycles);
  EXPECT_LT(AsmCycles, 0.4 * PtxCycles);
  // acc_mem: no load passes the store before it; the fmas wait as before.
  SmWorkload PtxMem = unrolledWorkload(*M, "acc_mem", false),
             AsmMem = unrolledWorkload(*M, "acc_mem", true);
  ASSERT_FALSE(AsmMem.Warps.empty());
  EXPECT_EQ(firstPass(PtxMem, 6, 21), "lfslfslfslfs...");
  EXPECT_EQ(firstPass(AsmMem, 6, 21), "lfslfslfslf.s..");
  double MemPtx = simulate(PtxMem, TP).Cycles, MemAsm = simulate(AsmMem, TP).Cycles;
  EXPECT_NEAR(MemAsm, MemPtx, 0.02 * MemPtx);
  // fenced: Pcs 4 ld, 5 add, 6 bar, 7 ld, 8 add, 9 st; nothing crosses the
  // barrier (without it as a fence the second load would go first).
  SmWorkload Fenced = unrolledWorkload(*M, "fenced", true);
  ASSERT_FALSE(Fenced.Warps.empty());
  auto at = [&](uint32_t Pc) { return issuePosition(Fenced, Pc); };
  EXPECT_LT(at(4), at(6));
  EXPECT_LT(at(5), at(6));
  EXPECT_LT(at(6), at(7));
  EXPECT_LT(at(7), at(9));
  // reused: Pcs 4 ld %f1, 5 add reads %f1, 6 ld %f1 again: 6 stays after 5
  // (write after read), though a load otherwise goes first.
  SmWorkload Reused = unrolledWorkload(*M, "reused", true);
  ASSERT_FALSE(Reused.Warps.empty());
  EXPECT_LT(issuePosition(Reused, 4), issuePosition(Reused, 5));
  EXPECT_LT(issuePosition(Reused, 5), issuePosition(Reused, 6));
  // The switch: a parameter file's assembler_order.
  TimingParams Q;
  EXPECT_FALSE(Q.AssemblerOrder); // a bare TimingParams: PTX order
  ASSERT_TRUE(parseTimingParams("assembler_order = 1\n", "t", Q, Error)) << Error;
  EXPECT_TRUE(Q.AssemblerOrder);
  EXPECT_FALSE(parseTimingParams("assembler_order = 2\n", "t", Q, Error));
  EXPECT_EQ(Error, "t:1: 'assembler_order' expects 0 or 1");
}

} // namespace

TEST(DeviceTiming, TheCacheModelIsSizedByTheProfile) {
  devices::DeviceProfile R;
  std::string Error;
  ASSERT_TRUE(devices::loadDeviceProfile("rtx-2070-super", R, Error)) << Error;
  // By default the estimator has the cache model: the profile's L1 and the
  // SM's share of the L2, in the assembler's order, waves refilled.
  ::unsetenv("KLARAPTOR_EMU_CACHE");
  ::unsetenv("KLARAPTOR_EMU_TIMING_PARAMS");
  TimingParams P;
  ASSERT_TRUE(timingParamsFor(R, P, Error)) << Error;
  EXPECT_TRUE(P.cacheModel());
  EXPECT_EQ(P.L1Bytes, 65536);
  EXPECT_DOUBLE_EQ(P.L2Bytes, 4194304.0 / 40);
  EXPECT_EQ(P.L1SectorsPerCycle, 2);
  EXPECT_EQ(P.L1Latency, 32);
  EXPECT_TRUE(P.AssemblerOrder);
  EXPECT_TRUE(P.WaveRefill);
  EXPECT_NE(P.Source.find("device profile 'rtx-2070-super', cache model (L1 65536 B, L2 share 104858 B)"),
            std::string::npos)
      << P.Source;
  // KLARAPTOR_EMU_CACHE=0 turns it off; 1 keeps it.
  ::setenv("KLARAPTOR_EMU_CACHE", "off", 1);
  ASSERT_TRUE(timingParamsFor(R, P, Error)) << Error;
  EXPECT_FALSE(P.cacheModel());
  EXPECT_TRUE(P.AssemblerOrder); // the rest of the configuration stays
  EXPECT_NE(P.Source.find("; cache model off (KLARAPTOR_EMU_CACHE=off)"),
            std::string::npos)
      << P.Source;
  ::setenv("KLARAPTOR_EMU_CACHE", "1", 1);
  ASSERT_TRUE(timingParamsFor(R, P, Error)) << Error;
  EXPECT_TRUE(P.cacheModel());
  // A bad value is an error that names the variable.
  ::setenv("KLARAPTOR_EMU_CACHE", "yes", 1);
  EXPECT_FALSE(timingParamsFor(R, P, Error));
  EXPECT_EQ(Error, "KLARAPTOR_EMU_CACHE: expected 1, on, 0 or off, not 'yes'");
  // A profile without sizes has no cache model; asking for it is an error.
  devices::DeviceProfile Bare = R;
  Bare.Timing.erase("l1_bytes");
  Bare.L2CacheSize = 0;
  ::unsetenv("KLARAPTOR_EMU_CACHE");
  ASSERT_TRUE(timingParamsFor(Bare, P, Error)) << Error;
  EXPECT_FALSE(P.cacheModel());
  EXPECT_NE(P.Source.find("no cache model (neither timing.l1_bytes nor l2CacheSize)"),
            std::string::npos)
      << P.Source;
  ::setenv("KLARAPTOR_EMU_CACHE", "1", 1);
  EXPECT_FALSE(timingParamsFor(Bare, P, Error));
  EXPECT_EQ(Error, "KLARAPTOR_EMU_CACHE=1: device profile 'rtx-2070-super' "
                   "has neither timing.l1_bytes nor l2CacheSize");
  ::unsetenv("KLARAPTOR_EMU_CACHE");
}

TEST(DeviceTiming, TheCacheModelsLineAndStoreCostsComeFromTheProfile) {
  // A profile whose GPU was not probed has 0; a probed one has what the
  // probe measured (timing.l2_request_cycles, timing.l2_store_gap), which
  // the cache model then charges.
  devices::DeviceProfile R;
  std::string Error;
  ASSERT_TRUE(devices::loadDeviceProfile("rtx-2070-super", R, Error)) << Error;
  ::unsetenv("KLARAPTOR_EMU_TIMING_PARAMS");
  ::unsetenv("KLARAPTOR_EMU_CACHE"); // the default: the cache model on
  TimingParams P;
  ASSERT_TRUE(timingParamsFor(R, P, Error)) << Error;
  ASSERT_TRUE(P.cacheModel());
  EXPECT_EQ(P.L2RequestCycles, 0);
  EXPECT_EQ(P.L2StoreGap, 0);
  R.Timing["l2_request_cycles"] = 2.5;
  R.Timing["l2_store_gap"] = 3.25;
  ASSERT_TRUE(timingParamsFor(R, P, Error)) << Error;
  EXPECT_EQ(P.L2RequestCycles, 2.5);
  EXPECT_EQ(P.L2StoreGap, 3.25);
}
