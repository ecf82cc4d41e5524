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

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
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
                        std::vector<void *> Args, int Regions = -1) {
  emu::LaunchOptions O;
  O.Grid = Grid;
  O.Block = Block;
  O.Args = Args.data();
  LaunchEstimate E;
  std::string Error;
  EXPECT_TRUE(estimateLaunch(kernels(), Kernel, O, h100(), resources(),
                             builtinTimingParams(h100()), Regions, E, Error))
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
  EXPECT_EQ(E.BlocksSimulated, 8u);
  EXPECT_EQ(E.Waves, (uint64_t(N / 256) + 8 * 132 - 1) / (8 * 132));
  const RegionSensitivity &R = mostSensitive(E.A);
  EXPECT_EQ(R.Bottleneck, Resource::Dram);
  EXPECT_FALSE(R.LatencyBound);
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
  // Four cycles per dependent multiply-add dominate.
  EXPECT_GT(E.CyclesPerWave, 4.0 * 8 * Iters);
  EXPECT_LT(E.CyclesPerWave, 4.0 * 8 * Iters * 1.2);
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

} // namespace
