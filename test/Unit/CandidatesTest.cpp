//===- CandidatesTest.cpp - candidate enumeration and admissibility -------===//
///
/// \file
/// The counts below are derived by hand in the comments: with H100 limits
/// (1024 threads, block dims 1024 x 1024 x 64) a pow2 shape is a choice of
/// exponents whose sum s lies in [5, 10] (32 to 1024 threads).
//===----------------------------------------------------------------------===//
#include "Candidates.h"
#include "RuntimeTestSupport.h"

#include <gtest/gtest.h>

using namespace klaraptor;
using namespace klaraptor::test;

namespace {

KernelSpec spec(const std::string &Block, const std::string &Lines,
                const std::string &Candidates = "pow2",
                const std::string &Data = "data N 1000\n") {
  std::string Error;
  auto S = parseKernelSpec("klaraptor v1\nkernel k\n" + Data + "block " +
                               Block + "\n" + Lines + "candidates " +
                               Candidates + "\n",
                           Error);
  EXPECT_TRUE(S.has_value()) << Error;
  return S ? std::move(*S) : KernelSpec();
}

LaunchLimits h100Limits(int KernelMax = 0) {
  return LaunchLimits::from(h100(), KernelMax);
}

uint64_t threads(const Dim3 &B) { return uint64_t(B[0]) * B[1] * B[2]; }

} // namespace

TEST(Candidates, LimitsComeFromTheDeviceAndTheKernel) {
  LaunchLimits L = h100Limits();
  EXPECT_EQ(L.MaxThreads, 1024u);
  EXPECT_EQ(L.MaxBlock, (Dim3{1024, 1024, 64}));
  EXPECT_EQ(L.MaxGrid, (Dim3{2147483647u, 65535, 65535}));
  EXPECT_EQ(L.WarpSize, 32u);
  EXPECT_EQ(h100Limits(384).MaxThreads, 384u);
  EXPECT_EQ(h100Limits(4096).MaxThreads, 1024u);
  // Dynamic shared memory: the kernel's limit when known, else the
  // device's per block.
  EXPECT_EQ(L.MaxDynamicShared, h100().shared_mem_per_block);
  EXPECT_EQ(LaunchLimits::from(h100(), 0, 232448).MaxDynamicShared, 232448u);
}

TEST(Candidates, Pow2OneFreeDimension) {
  KernelSpec S = spec("bx", "grid 1\n");
  auto B = CandidateEnumerator(S, h100Limits()).blockShapes();
  // 32, 64, ..., 1024: six shapes, ascending.
  std::vector<Dim3> Want = {{32, 1, 1},  {64, 1, 1},  {128, 1, 1},
                            {256, 1, 1}, {512, 1, 1}, {1024, 1, 1}};
  EXPECT_EQ(B, Want);
}

TEST(Candidates, Pow2TwoFreeDimensions) {
  KernelSpec S = spec("bx by", "grid 1\n");
  auto B = CandidateEnumerator(S, h100Limits()).blockShapes();
  // Exponents (a, b) with a + b = s in [5, 10]: sum of (s + 1) = 51.
  ASSERT_EQ(B.size(), 51u);
  // Enumeration order: by outer, bx inner, both ascending.
  EXPECT_EQ(B[0], (Dim3{32, 1, 1}));
  EXPECT_EQ(B[5], (Dim3{1024, 1, 1}));
  EXPECT_EQ(B[6], (Dim3{16, 2, 1}));
  EXPECT_EQ(B.back(), (Dim3{1, 1024, 1}));
  for (const Dim3 &D : B) {
    EXPECT_GE(threads(D), 32u);
    EXPECT_LE(threads(D), 1024u);
    EXPECT_EQ(D[2], 1u);
  }
}

TEST(Candidates, Pow2ThreeFreeDimensionsRespectMaxBlockZ) {
  KernelSpec S = spec("bx by bz", "grid 1\n");
  auto B = CandidateEnumerator(S, h100Limits()).blockShapes();
  // For each s in [5, 10], triples with c <= 6 (bz <= 64):
  // 21 + 28 + 35 + 42 + 49 + 56 = 231.
  ASSERT_EQ(B.size(), 231u);
  EXPECT_EQ(B[0], (Dim3{32, 1, 1}));
  EXPECT_EQ(B.back(), (Dim3{1, 16, 64}));
  for (size_t I = 1; I < B.size(); ++I) {
    // (bz, by, bx) ascending.
    auto Key = [](const Dim3 &D) { return std::make_tuple(D[2], D[1], D[0]); };
    EXPECT_LT(Key(B[I - 1]), Key(B[I]));
    EXPECT_LE(B[I][2], 64u);
  }
}

TEST(Candidates, KernelThreadLimitLowersTheSet) {
  KernelSpec S = spec("bx by bz", "grid 1\n");
  auto B = CandidateEnumerator(S, h100Limits(256)).blockShapes();
  // s in [5, 8]: 21 + 28 + 35 + 42 = 126.
  EXPECT_EQ(B.size(), 126u);
  KernelSpec One = spec("bx", "grid 1\n");
  EXPECT_EQ(CandidateEnumerator(One, h100Limits(100)).blockShapes(),
            (std::vector<Dim3>{{32, 1, 1}, {64, 1, 1}}));
}

TEST(Candidates, SmallDeviceDimensionLimit) {
  klaraptor_device_info D = h100();
  D.max_block_dim[0] = 64;
  KernelSpec S = spec("bx by", "grid 1\n");
  auto B = CandidateEnumerator(S, LaunchLimits::from(D, 0)).blockShapes();
  // a <= 6: s = 5 gives 6 pairs, s = 6..10 give 7 each: 41.
  EXPECT_EQ(B.size(), 41u);
  for (const Dim3 &Sh : B)
    EXPECT_LE(Sh[0], 64u);
}

TEST(Candidates, NonFreeDimensionsAreOne) {
  // The pragma declares the dimensions that are not free to be 1; the
  // program's requested launch plays no part (RuntimeTest checks a request
  // with by = 4).
  KernelSpec S = spec("bx", "grid 1\n");
  std::vector<Dim3> Want = {{32, 1, 1},  {64, 1, 1},  {128, 1, 1},
                            {256, 1, 1}, {512, 1, 1}, {1024, 1, 1}};
  EXPECT_EQ(CandidateEnumerator(S, h100Limits()).blockShapes(), Want);
  int64_t N = 1000;
  auto C = CandidateEnumerator(S, h100Limits()).admissible(&N, 1);
  ASSERT_EQ(C.size(), 6u);
  for (const Candidate &Cand : C) {
    EXPECT_EQ(Cand.Block[1], 1u);
    EXPECT_EQ(Cand.Block[2], 1u);
  }
  // With bx and bz free, by is 1 and bz varies.
  KernelSpec XZ = spec("bx bz", "grid 1\n");
  auto B = CandidateEnumerator(XZ, h100Limits()).blockShapes();
  // Exponents (a, c) with c <= 6 and a + c = s in [5, 10]: 6 + 7 * 5 = 41.
  EXPECT_EQ(B.size(), 41u);
  for (const Dim3 &D : B)
    EXPECT_EQ(D[1], 1u);
  EXPECT_EQ(B.back(), (Dim3{16, 1, 64}));
}

TEST(Candidates, WarpSets) {
  KernelSpec One = spec("bx", "grid 1\n", "warp");
  auto B = CandidateEnumerator(One, h100Limits()).blockShapes();
  // 32, 64, 96, ..., 1024.
  ASSERT_EQ(B.size(), 32u);
  for (size_t I = 0; I < B.size(); ++I)
    EXPECT_EQ(B[I], (Dim3{uint32_t(32 * (I + 1)), 1, 1}));
  KernelSpec Two = spec("bx by", "grid 1\n", "warp");
  auto B2 = CandidateEnumerator(Two, h100Limits()).blockShapes();
  // by = 2^j leaves 32 / 2^j multiples of 32: 32 + 16 + 8 + 4 + 2 + 1 = 63.
  EXPECT_EQ(B2.size(), 63u);
  EXPECT_EQ(B2[32], (Dim3{32, 2, 1}));
}

TEST(Candidates, ListSetsAreFilteredByTheDevice) {
  KernelSpec S = spec("bx by bz", "grid 1\n",
                      "list 32x1x1 2048x1x1 32x32x2 16x16x1 32x1x1 1x1x128 "
                      "8x1x1");
  auto B = CandidateEnumerator(S, h100Limits()).blockShapes();
  // 2048 exceeds maxThreadsDim x, 32x32x2 exceeds 1024 threads, bz 128
  // exceeds 64, the second 32x1x1 is a duplicate; 8x1x1 stays (no warp
  // minimum for listed shapes). Listed order.
  EXPECT_EQ(B, (std::vector<Dim3>{{32, 1, 1}, {16, 16, 1}, {8, 1, 1}}));
}

TEST(Candidates, WhereConstraintsFilter) {
  KernelSpec S = spec("bx", "where (bx <= N)\ngrid ceildiv(N, bx)\n", "pow2",
                      "data N 100\n");
  int64_t N = 100;
  CandidateEnumerator E(S, h100Limits());
  RejectCounts R;
  auto C = E.admissible(&N, 1, &R);
  ASSERT_EQ(C.size(), 2u);
  EXPECT_EQ(C[0].Block, (Dim3{32, 1, 1}));
  EXPECT_EQ(C[0].Grid, (Dim3{4, 1, 1}));
  EXPECT_EQ(C[1].Block, (Dim3{64, 1, 1}));
  EXPECT_EQ(C[1].Grid, (Dim3{2, 1, 1}));
  EXPECT_EQ(R.WhereFalse, 4u);
}

TEST(Candidates, WhereEvaluationErrorMakesTheCandidateInadmissible) {
  KernelSpec S =
      spec("bx", "where ((N / (bx - 64)) != 12345)\ngrid ceildiv(N, bx)\n");
  int64_t N = 1000;
  RejectCounts R;
  auto C = CandidateEnumerator(S, h100Limits()).admissible(&N, 1, &R);
  EXPECT_EQ(C.size(), 5u);
  EXPECT_EQ(R.WhereError, 1u);
  for (const auto &Cand : C)
    EXPECT_NE(Cand.Block[0], 64u);
}

TEST(Candidates, GridFormula) {
  KernelSpec S = spec("bx", "grid ceildiv(N, bx)\n");
  int64_t N = 1000;
  auto C = CandidateEnumerator(S, h100Limits()).admissible(&N, 1);
  ASSERT_EQ(C.size(), 6u);
  const uint32_t Grids[] = {32, 16, 8, 4, 2, 1};
  for (size_t I = 0; I < 6; ++I)
    EXPECT_EQ(C[I].Grid, (Dim3{Grids[I], 1, 1}));

  KernelSpec M = spec("bx by", "grid ceildiv(C, bx)\ngrid ceildiv(R, by)\n",
                      "list 32x8x1 16x16x2", "data R 100\ndata C 1000\n");
  int64_t RC[2] = {100, 1000};
  auto C2 = CandidateEnumerator(M, h100Limits()).admissible(RC, 2);
  ASSERT_EQ(C2.size(), 2u);
  EXPECT_EQ(C2[0].Grid, (Dim3{32, 13, 1}));
  EXPECT_EQ(C2[1].Grid, (Dim3{63, 7, 1}));
}

TEST(Candidates, GridsOutOfRangeAreInadmissible) {
  KernelSpec S = spec("bx", "grid ceildiv(N, bx)\n");
  int64_t N = 1000;
  klaraptor_device_info D = h100();
  D.max_grid_dim[0] = 10;
  RejectCounts R;
  auto C = CandidateEnumerator(S, LaunchLimits::from(D, 0))
               .admissible(&N, 1, &R);
  // Grids 32 and 16 exceed 10.
  ASSERT_EQ(C.size(), 4u);
  EXPECT_EQ(C[0].Block, (Dim3{128, 1, 1}));
  EXPECT_EQ(R.GridOutOfRange, 2u);

  // Grid values below one.
  KernelSpec Less = spec("bx", "grid (N - bx)\n");
  int64_t Hundred = 100;
  auto C2 = CandidateEnumerator(Less, h100Limits()).admissible(&Hundred, 1);
  EXPECT_EQ(C2.size(), 2u);

  // More blocks than maxGridSize x (and than 32 bits).
  int64_t Huge = 2000000000000;
  auto C3 = CandidateEnumerator(S, h100Limits()).admissible(&Huge, 1);
  ASSERT_EQ(C3.size(), 1u); // only 1024 threads: 1953125000 blocks
  EXPECT_EQ(C3[0].Grid[0], 1953125000u);

  // The y and z dimensions have their own limit.
  KernelSpec Y = spec("bx", "grid 1\ngrid N\n");
  int64_t Big = 70000;
  EXPECT_TRUE(CandidateEnumerator(Y, h100Limits()).admissible(&Big, 1).empty());
}

TEST(Candidates, GridEvaluationErrorMakesTheCandidateInadmissible) {
  KernelSpec S = spec("bx", "grid (N / (bx - 32))\n");
  int64_t N = 1000;
  RejectCounts R;
  auto C = CandidateEnumerator(S, h100Limits()).admissible(&N, 1, &R);
  EXPECT_EQ(R.GridError, 1u);
  // 1000 / 32, 1000 / 96, 1000 / 224, 1000 / 480, 1000 / 992 = 31, 10, 4, 2, 1.
  ASSERT_EQ(C.size(), 5u);
  EXPECT_EQ(C[0].Grid[0], 31u);
  EXPECT_EQ(C[4].Grid[0], 1u);
}

TEST(Candidates, SharedMemoryFollowsThePragmaAndTheKernelLimit) {
  // 4 bytes per thread plus a 64-byte header; the kernel may have 2 KiB.
  KernelSpec S = spec("bx", "grid ceildiv(N, bx)\nshared ((4 * bx) + 64)\n");
  int64_t N = 100000;
  RejectCounts R;
  auto C = CandidateEnumerator(S, LaunchLimits::from(h100(), 0, 2048))
               .admissible(&N, 1, &R);
  // 32 .. 1024 threads: 192, 320, 576, 1088, 2112 (too much), 4160 (too much).
  ASSERT_EQ(C.size(), 4u);
  EXPECT_EQ(R.SharedOutOfRange, 2u);
  EXPECT_EQ(C[0].Block[0], 32u);
  EXPECT_EQ(C[0].Shared, 192u);
  EXPECT_EQ(C[3].Block[0], 256u);
  EXPECT_EQ(C[3].Shared, 1088u);
  int64_t Bytes = 0;
  EXPECT_EQ(dynamicSharedBytes(S, &N, 1, Dim3{512, 1, 1}, Bytes),
            EvalStatus::Ok);
  EXPECT_EQ(Bytes, 2112);
  // Without the clause every candidate has none.
  KernelSpec Plain = spec("bx", "grid ceildiv(N, bx)\n");
  for (const Candidate &P :
       CandidateEnumerator(Plain, h100Limits()).admissible(&N, 1))
    EXPECT_EQ(P.Shared, 0u);
  EXPECT_EQ(dynamicSharedBytes(Plain, &N, 1, Dim3{512, 1, 1}, Bytes),
            EvalStatus::Ok);
  EXPECT_EQ(Bytes, 0);
}

TEST(Candidates, SharedErrorsAndNegativeBytesAreInadmissible) {
  KernelSpec S = spec("bx", "grid ceildiv(N, bx)\nshared (N / (bx - 64))\n");
  int64_t N = 1000;
  RejectCounts R;
  auto C = CandidateEnumerator(S, h100Limits()).admissible(&N, 1, &R);
  // bx = 64 divides by zero; bx = 32 gives -31 bytes.
  EXPECT_EQ(R.SharedError, 1u);
  EXPECT_EQ(R.SharedOutOfRange, 1u);
  ASSERT_EQ(C.size(), 4u);
  EXPECT_EQ(C[0].Block[0], 128u);
  EXPECT_EQ(C[0].Shared, 15u);
}
