//===- RuntimeTest.cpp - the launch algorithm ------------------------------===//
///
/// \file
/// Runtime instances without CUDA, with H100 limits injected, and models
/// whose predictions each test chooses.
//===----------------------------------------------------------------------===//
#include "RuntimeTestSupport.h"

#include "ModelRegistry.h"

#include <cstdlib>
#include <gtest/gtest.h>

using namespace klaraptor;
using namespace klaraptor::test;

namespace {

/// Prefers block x closest to \p Best.
TestModel::Fn closestTo(double Best) {
  return [Best](const int64_t *, uint32_t, const klaraptor_candidate &C) {
    return std::fabs(double(C.block[0]) - Best) + 1;
  };
}

class RuntimeTest : public ::testing::Test {
protected:
  klaraptor_device_info Device = h100();
  std::unique_ptr<Runtime> R;
  std::unique_ptr<DiagCapture> Diags;

  void SetUp() override { start(Config()); }
  void start(Config C, bool WithDevice = true) {
    Diags.reset();
    R = makeRuntime(C, WithDevice ? &Device : nullptr);
    Diags = std::make_unique<DiagCapture>(R->diagnostics());
  }
  void TearDown() override {
    Diags.reset();
    R.reset();
  }
};

} // namespace

TEST_F(RuntimeTest, ModelPicksTheLeastPredictedTime) {
  TestKernel K(oneDimSpec("saxpy"), "_Z5saxpyPfPKffi");
  TestModel M(closestTo(128));
  ASSERT_EQ(R->registerKernel(&K.Desc), KLARAPTOR_OK);
  ASSERT_EQ(R->registerModel("saxpy", &M.Model), KLARAPTOR_OK);
  Launch L({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block(), (Dim3{128, 1, 1}));
  EXPECT_EQ(L.grid(), (Dim3{8, 1, 1}));
  EXPECT_EQ(M.Calls.load(), 6u);
  ASSERT_NE(M.LastDevice.load(), nullptr);
  EXPECT_STREQ(M.LastDevice.load()->name, "test H100");
}

TEST_F(RuntimeTest, ModelSeesTheDataAndTheCandidate) {
  TestKernel K("klaraptor v1\nkernel mat\ndata R 100\ndata C 1000\n"
               "block bx by\ngrid ceildiv(C, bx)\ngrid ceildiv(R, by)\n"
               "candidates list 32x8x1 16x16x1\n",
               "mat");
  std::vector<std::string> Seen;
  TestModel M([&](const int64_t *D, uint32_t N, const klaraptor_candidate &C) {
    Seen.push_back(std::to_string(N) + ":" + std::to_string(D[0]) + "," +
                   std::to_string(D[1]) + ":" + std::to_string(C.block[0]) +
                   "x" + std::to_string(C.block[1]) + ":" +
                   std::to_string(C.grid[0]) + "x" + std::to_string(C.grid[1]) +
                   ":" + std::to_string(C.size));
    return C.block[0] == 16 ? 1.0 : 2.0;
  });
  R->registerModel("mat", &M.Model);
  Launch L({7, 3000}, {1, 1, 1}, {32, 8, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block(), (Dim3{16, 16, 1}));
  EXPECT_EQ(L.grid(), (Dim3{188, 1, 1}));
  std::string Size = std::to_string(sizeof(klaraptor_candidate));
  EXPECT_EQ(Seen, (std::vector<std::string>{"2:7,3000:32x8:94x1:" + Size,
                                            "2:7,3000:16x16:188x1:" + Size}));
}

TEST_F(RuntimeTest, TieGoesToTheRequestedLaunch) {
  TestKernel K(oneDimSpec("k"), "k");
  TestModel M([](const int64_t *, uint32_t, const klaraptor_candidate &) {
    return 5.0;
  });
  R->registerModel("k", &M.Model);
  // The request (256, grid 4) is a candidate: it wins the tie.
  Launch L({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block(), (Dim3{256, 1, 1}));
  EXPECT_EQ(L.grid(), (Dim3{4, 1, 1}));
  // The request is not a candidate (its grid differs): the block nearest
  // the requested one wins, here the same block with the formula's grid.
  Launch L2({2000}, {1, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_OK);
  EXPECT_EQ(L2.block(), (Dim3{256, 1, 1}));
  EXPECT_EQ(L2.grid(), (Dim3{8, 1, 1}));
  // A block no candidate has (48): the nearest is 64 (|log2(64/48)| = 0.42
  // against 32's 0.58).
  Launch L3({3000}, {1, 1, 1}, {48, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L3.Info), KLARAPTOR_OK);
  EXPECT_EQ(L3.block(), (Dim3{64, 1, 1}));
  EXPECT_EQ(L3.grid(), (Dim3{47, 1, 1}));
}

namespace {
// The pragma's x runs over C and y over R; the program's x over R and y
// over C (PolyBench's swapped annotation): for the program's own 32x8 block
// at R=130, C=120 the formula gives 4x17 blocks where the program launches
// 5x15. Its model prefers 16x16.
const char *const SwappedGridSpec =
    "klaraptor v1\nkernel mat\nloc mat.cu:3:9\ndata R 100\n"
    "data C 1000\nblock bx by\ngrid ceildiv(C, bx)\n"
    "grid ceildiv(R, by)\ncandidates list 32x8x1 16x16x1\n";
double prefer16Wide(const int64_t *, uint32_t, const klaraptor_candidate &C) {
  return C.block[0] == 16 ? 1.0 : 2.0;
}
} // namespace

TEST_F(RuntimeTest, AGridFormulaThatCannotCoverTheLaunchKeepsIt) {
  TestKernel K(SwappedGridSpec, "mat");
  TestModel M(prefer16Wide);
  R->registerModel("mat", &M.Model);
  Launch L({130, 120}, {5, 15, 1}, {32, 8, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(L.block(), (Dim3{32, 8, 1}));
  EXPECT_EQ(L.grid(), (Dim3{5, 15, 1}));
  EXPECT_EQ(M.Calls.load(), 0u);
  auto Lines = Diags->lines();
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_EQ(Lines[0],
            "warn: kernel 'mat': the pragma's grid formula gives grid 4x17x1 "
            "for the program's own block 32x8x1 at R=130, C=120, smaller "
            "than the grid 5x15x1 the program launches: the formula does not "
            "match the kernel's indexing (check grid(...) at mat.cu:3:9; "
            "KLARAPTOR_GRID_CHECK=off trusts it); launching as requested");
  // A program that launches fewer blocks than the formula (a grid-stride
  // loop) is tuned.
  Launch G({130, 120}, {2, 2, 1}, {32, 8, 1});
  EXPECT_EQ(R->launch(&K.Desc, &G.Info), KLARAPTOR_UNCHANGED); // same key
  Launch G2({64, 64}, {1, 1, 1}, {32, 8, 1});
  EXPECT_EQ(R->launch(&K.Desc, &G2.Info), KLARAPTOR_OK);
  EXPECT_EQ(G2.block(), (Dim3{16, 16, 1}));
}

TEST_F(RuntimeTest, GridCheckWarnsWithoutAModelAndCanBeTurnedOff) {
  {
    // No model registered: the launch keeps its shape anyway, and the user
    // still learns that the formula is wrong (before profiling with it).
    TestKernel K(SwappedGridSpec, "mat");
    Launch L({130, 120}, {5, 15, 1}, {32, 8, 1});
    EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
    ASSERT_EQ(Diags->lines().size(), 1u);
    EXPECT_NE(Diags->lines()[0].find("gives grid 4x17x1"), std::string::npos)
        << Diags->lines()[0];
  }
  // KLARAPTOR_GRID_CHECK=off: the formula is trusted and the kernel tuned.
  Config C;
  C.parseGridCheck("off");
  EXPECT_TRUE(C.Warnings.empty());
  EXPECT_FALSE(C.GridCheck);
  start(C);
  TestKernel K(SwappedGridSpec, "mat");
  TestModel M(prefer16Wide);
  R->registerModel("mat", &M.Model);
  Launch L({130, 120}, {5, 15, 1}, {32, 8, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block(), (Dim3{16, 16, 1}));
  EXPECT_TRUE(Diags->lines().empty());
  // Values other than 1/on/0/off keep the check with a warning.
  Config Bad;
  Bad.parseGridCheck("maybe");
  EXPECT_TRUE(Bad.GridCheck);
  ASSERT_EQ(Bad.Warnings.size(), 1u);
  EXPECT_EQ(Bad.Warnings[0],
            "KLARAPTOR_GRID_CHECK 'maybe' is not 1, on, 0 or off; using on");
  Config On;
  On.parseGridCheck(" ON ");
  EXPECT_TRUE(On.GridCheck);
  EXPECT_TRUE(On.Warnings.empty());
}

TEST_F(RuntimeTest, MarginKeepsTheRequestUnlessClearlyFaster) {
  TestKernel K(oneDimSpec("k"), "k");
  double Faster = 99; // 128-thread blocks; every other shape 100
  TestModel M([&](const int64_t *, uint32_t, const klaraptor_candidate &C) {
    return C.block[0] == 128 ? Faster : 100.0;
  });
  R->registerModel("k", &M.Model);
  // 1 % faster is within the default margin (2 %): the request stays.
  Launch L({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block(), (Dim3{256, 1, 1}));
  // 3 % faster is beyond it.
  Faster = 97;
  Launch L2({2048}, {8, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_OK);
  EXPECT_EQ(L2.block(), (Dim3{128, 1, 1}));
  EXPECT_EQ(L2.grid(), (Dim3{16, 1, 1}));
  // KLARAPTOR_MARGIN=0: any faster prediction moves.
  Config C;
  C.Margin = 0;
  start(C);
  R->registerKernel(&K.Desc);
  R->registerModel("k", &M.Model);
  Faster = 99.9;
  Launch L3({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L3.Info), KLARAPTOR_OK);
  EXPECT_EQ(L3.block(), (Dim3{128, 1, 1}));
  // With a margin of 0.5, even half the time keeps the request.
  C.Margin = 0.5;
  start(C);
  R->registerKernel(&K.Desc);
  R->registerModel("k", &M.Model);
  Faster = 51;
  Launch L4({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L4.Info), KLARAPTOR_OK);
  EXPECT_EQ(L4.block(), (Dim3{256, 1, 1}));
}

TEST_F(RuntimeTest, TieBreakInTwoDimensionsGoesToTheNearestBlock) {
  TestKernel K("klaraptor v1\nkernel m\ndata N 1\nblock bx by\ngrid 1\n"
               "candidates pow2\n",
               "m");
  // Every 256-thread shape ties. From a 1x1 request all are 8 doublings
  // away: the first in (bz, by, bx) order, 256x1, wins.
  TestModel M([](const int64_t *, uint32_t, const klaraptor_candidate &C) {
    return C.block[0] * C.block[1] == 256 ? 1.0 : 2.0;
  });
  R->registerModel("m", &M.Model);
  Launch L({1}, {1, 1, 1}, {1, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block(), (Dim3{256, 1, 1}));
  Launch L2({2}, {1, 1, 1}, {16, 16, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_OK);
  EXPECT_EQ(L2.block(), (Dim3{16, 16, 1}));
  // A 128-thread request, predicted slower than the tie: 64x4 and 32x8 are
  // one doubling away, and 64x4 comes first in enumeration order.
  Launch L3({3}, {1, 1, 1}, {32, 4, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L3.Info), KLARAPTOR_OK);
  EXPECT_EQ(L3.block(), (Dim3{64, 4, 1}));
  // From 8x16, 16x16 and 8x32 are one doubling away; 16x16 comes first.
  Launch L4({4}, {1, 1, 1}, {8, 16, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L4.Info), KLARAPTOR_OK);
  EXPECT_EQ(L4.block(), (Dim3{16, 16, 1}));
}

TEST_F(RuntimeTest, InvalidPredictionsAreIgnored) {
  TestKernel K(oneDimSpec("k"), "k");
  TestModel M([](const int64_t *, uint32_t, const klaraptor_candidate &C) {
    switch (C.block[0]) {
    case 32: return std::nan("");
    case 64: return -1.0;
    case 128: return double(INFINITY);
    case 512: return 10.0;
    case 1024: return 20.0;
    default: return std::nan("");
    }
  });
  R->registerModel("k", &M.Model);
  Launch L({1000});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block(), (Dim3{512, 1, 1}));
  EXPECT_EQ(L.grid(), (Dim3{2, 1, 1}));
}

TEST_F(RuntimeTest, NoValidPredictionFallsBack) {
  TestKernel K(oneDimSpec("k"), "k");
  TestModel M([](const int64_t *, uint32_t, const klaraptor_candidate &) {
    return std::nan("");
  }, "broken");
  R->registerModel("k", &M.Model);
  Launch L({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(L.block(), (Dim3{256, 1, 1}));
  EXPECT_EQ(L.grid(), (Dim3{4, 1, 1}));
  Launch L2({2000});
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(Diags->count("model 'broken' gave no valid prediction"), 1u);
}

TEST_F(RuntimeTest, DecisionsAreMemoisedPerData) {
  TestKernel K(oneDimSpec("k"), "k");
  TestModel M(closestTo(256));
  R->registerModel("k", &M.Model);
  for (int I = 0; I < 5; ++I) {
    Launch L({1000});
    EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
    EXPECT_EQ(L.block(), (Dim3{256, 1, 1}));
  }
  EXPECT_EQ(M.Calls.load(), 6u);
  EXPECT_EQ(R->decisionCount(), 1u);
  Launch Other({1001});
  EXPECT_EQ(R->launch(&K.Desc, &Other.Info), KLARAPTOR_OK);
  EXPECT_EQ(M.Calls.load(), 12u);
  EXPECT_EQ(R->decisionCount(), 2u);
  // A different request with the same data reuses the decision.
  Launch Again({1000}, {9, 1, 1}, {64, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &Again.Info), KLARAPTOR_OK);
  EXPECT_EQ(Again.block(), (Dim3{256, 1, 1}));
  EXPECT_EQ(Again.grid(), (Dim3{4, 1, 1}));
  EXPECT_EQ(R->decisionCount(), 2u);
  // So does a request whose memoised answer is the request itself.
  Launch Same({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &Same.Info), KLARAPTOR_OK);
  R->clearHistory();
  Launch AfterClear({1000});
  EXPECT_EQ(R->launch(&K.Desc, &AfterClear.Info), KLARAPTOR_OK);
  EXPECT_EQ(R->decisionCount(), 3u);
}

TEST_F(RuntimeTest, NonFreeBlockDimensionsAreOne) {
  TestKernel K(oneDimSpec("k"), "k");
  TestModel M(closestTo(1000));
  R->registerModel("k", &M.Model);
  // block(bx): by and bz are 1 even though the program asks for by = 4.
  Launch A({1000}, {1, 1, 1}, {256, 4, 1});
  EXPECT_EQ(R->launch(&K.Desc, &A.Info), KLARAPTOR_OK);
  EXPECT_EQ(A.block(), (Dim3{1024, 1, 1}));
  EXPECT_EQ(A.grid(), (Dim3{1, 1, 1}));
  // The key is (device, data): a request differing only in by reuses the
  // decision.
  Launch B({1000}, {1, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &B.Info), KLARAPTOR_OK);
  EXPECT_EQ(B.block(), (Dim3{1024, 1, 1}));
  EXPECT_EQ(R->decisionCount(), 1u);
}

TEST_F(RuntimeTest, NoModelKeepsTheWholeRequestedLaunch) {
  // Without a model the non-free dimensions are not touched either.
  TestKernel K(oneDimSpec("k"), "k");
  Launch L({1000}, {4, 1, 1}, {256, 4, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(L.block(), (Dim3{256, 4, 1}));
  EXPECT_EQ(L.grid(), (Dim3{4, 1, 1}));
}

TEST_F(RuntimeTest, NoModelKeepsTheLaunchAndIsMemoised) {
  TestKernel K(oneDimSpec("k"), "k");
  Launch L({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  Launch L2({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(R->decisionCount(), 1u);
  // Registering a model forgets the kernel's decisions.
  TestModel M(closestTo(64));
  ASSERT_EQ(R->registerModel("k", &M.Model), KLARAPTOR_OK);
  Launch L3({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L3.Info), KLARAPTOR_OK);
  EXPECT_EQ(L3.block(), (Dim3{64, 1, 1}));
  // Removing it falls back again.
  ASSERT_EQ(R->registerModel("k", nullptr), KLARAPTOR_OK);
  Launch L4({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L4.Info), KLARAPTOR_UNCHANGED);
}

TEST_F(RuntimeTest, DeviceNameModelWinsOverSourceNameModel) {
  TestKernel K(oneDimSpec("tmpl"), "_Z4tmplIfEvPT_");
  TestKernel K2(oneDimSpec("tmpl"), "_Z4tmplIdEvPT_");
  TestModel BySource(closestTo(64)), ByDevice(closestTo(512));
  R->registerModel("tmpl", &BySource.Model);
  R->registerModel("_Z4tmplIfEvPT_", &ByDevice.Model);
  Launch L({1000});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block()[0], 512u);
  Launch L2({1000});
  EXPECT_EQ(R->launch(&K2.Desc, &L2.Info), KLARAPTOR_OK);
  EXPECT_EQ(L2.block()[0], 64u);
}

TEST_F(RuntimeTest, KernelThreadLimitBoundsTheChoice) {
  TestKernel K(oneDimSpec("k"), "k");
  R->devices().setKernelMaxThreadsOverride(&K.Stub, 128);
  TestModel M(closestTo(1024));
  R->registerModel("k", &M.Model);
  Launch L({100000});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block()[0], 128u);
  EXPECT_EQ(M.Calls.load(), 3u); // 32, 64, 128
}

TEST_F(RuntimeTest, RequestNeedNotBeAdmissible) {
  TestKernel K(oneDimSpec("k"), "k");
  TestModel M(closestTo(128));
  R->registerModel("k", &M.Model);
  Launch L({1000}, {1, 1, 1}, {1000, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block()[0], 128u);
}

TEST_F(RuntimeTest, NoAdmissibleCandidateFallsBackAndWarnsOnce) {
  TestKernel K(oneDimSpec("k", "where (bx > N)\n"), "k");
  TestModel M(closestTo(128));
  R->registerModel("k", &M.Model);
  Launch L({5000}, {5, 1, 1}, {1000, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(L.block()[0], 1000u);
  Launch L2({6000});
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(M.Calls.load(), 0u);
  EXPECT_EQ(Diags->count("no admissible launch configuration"), 1u);
  EXPECT_EQ(Diags->count("kernel 'k': no admissible launch configuration for "
                         "N=5000 (where false 6, where failed 0, grid failed "
                         "0, grid out of range 0); launching as requested"),
            1u)
      << Diags->all();
}

TEST_F(RuntimeTest, NoDeviceFallsBackAndWarnsOnce) {
  start(Config(), /*WithDevice=*/false);
  TestKernel K(oneDimSpec("k"), "k");
  TestModel M(closestTo(128));
  R->registerModel("k", &M.Model);
  Launch L({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(L.block()[0], 256u);
  Launch L2({2000});
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(Diags->count("warn: no CUDA device: neither cudaGetDevice nor "
                         "cuCtxGetDevice is available"),
            1u)
      << Diags->all();
  EXPECT_EQ(M.Calls.load(), 0u);
}

TEST_F(RuntimeTest, BadSpecFallsBackAndIsReportedOnce) {
  TestKernel K("klaraptor v1\nkernel bad\ndata N 1\nblock bq\ngrid 1\n",
               "_Z3badv");
  EXPECT_EQ(R->registerKernel(&K.Desc), KLARAPTOR_ERR_BAD_SPEC);
  EXPECT_EQ(R->registerKernel(&K.Desc), KLARAPTOR_ERR_BAD_SPEC);
  Launch L({1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(Diags->lines(),
            (std::vector<std::string>{
                "error: kernel '_Z3badv': cannot parse its '#pragma "
                "klaraptor' encoding: spec line 4: unknown block dimension "
                "'bq'; its launches keep their configuration"}));
}

TEST_F(RuntimeTest, DescriptorProblems) {
  TestKernel NoSpec("", "nospec");
  NoSpec.Desc.spec = nullptr;
  EXPECT_EQ(R->registerKernel(&NoSpec.Desc), KLARAPTOR_ERR_BAD_SPEC);
  TestKernel Count(oneDimSpec("count"), "count", nullptr, 3);
  EXPECT_EQ(R->registerKernel(&Count.Desc), KLARAPTOR_ERR_BAD_SPEC);
  EXPECT_EQ(Diags->count("the descriptor has 3 data parameters, its pragma 1"),
            1u);
  TestKernel Small(oneDimSpec("small"), "small");
  Small.Desc.size = 8;
  EXPECT_EQ(R->registerKernel(&Small.Desc), KLARAPTOR_ERR_ABI);
  Launch L({1});
  EXPECT_EQ(R->launch(&Small.Desc, &L.Info), KLARAPTOR_ERR_ABI);
  TestKernel Future(oneDimSpec("future"), "future");
  Future.Desc.abi_version = 2;
  EXPECT_EQ(R->launch(&Future.Desc, &L.Info), KLARAPTOR_ERR_ABI);
  EXPECT_EQ(R->launch(&Future.Desc, &L.Info), KLARAPTOR_ERR_ABI);
  EXPECT_EQ(Diags->count("and ABI version 2; this runtime expects"), 1u);
  EXPECT_EQ(R->registerKernel(nullptr), KLARAPTOR_ERR_BAD_ARGUMENT);
  // A larger descriptor of the same ABI is accepted.
  TestKernel Larger(oneDimSpec("larger"), "larger");
  Larger.Desc.size = sizeof(klaraptor_kernel_desc) + 16;
  EXPECT_EQ(R->registerKernel(&Larger.Desc), KLARAPTOR_OK);
}

TEST_F(RuntimeTest, LaunchInfoProblems) {
  TestKernel K(oneDimSpec("k"), "k");
  EXPECT_EQ(R->launch(&K.Desc, nullptr), KLARAPTOR_ERR_BAD_ARGUMENT);
  EXPECT_EQ(R->launch(nullptr, nullptr), KLARAPTOR_ERR_BAD_ARGUMENT);
  Launch L({1000});
  EXPECT_EQ(R->launch(nullptr, &L.Info), KLARAPTOR_ERR_BAD_ARGUMENT);
  L.Info.size = 4;
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_ERR_ABI);
  EXPECT_EQ(R->launchHandle(&K.Stub, &L.Info), KLARAPTOR_ERR_ABI);
  EXPECT_EQ(R->launchHandle(&K.Stub, nullptr), KLARAPTOR_ERR_BAD_ARGUMENT);
  // A wrong data count keeps the launch (and does not read past the array).
  TestModel M(closestTo(128));
  R->registerModel("k", &M.Model);
  Launch Two({1000, 2000});
  EXPECT_EQ(R->launch(&K.Desc, &Two.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(Diags->count("the launch gives 2 data values, its pragma names 1"),
            1u);
  Launch Huge({1000});
  Huge.Info.num_data = 0xffffffffu;
  EXPECT_EQ(R->launch(&K.Desc, &Huge.Info), KLARAPTOR_UNCHANGED);
}

TEST_F(RuntimeTest, UnregisteredDescriptorIsRegisteredOnFirstLaunch) {
  TestKernel K(oneDimSpec("lazy"), "lazy");
  TestModel M(closestTo(64));
  R->registerModel("lazy", &M.Model);
  Launch L({1000});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block()[0], 64u);
  EXPECT_EQ(R->kernels().find(&K.Desc)->SourceName, "lazy");
}

namespace {
int dataFromArgs(void *const *Args, int64_t *Out) {
  Out[0] = *static_cast<const int64_t *>(Args[0]) * 2;
  return 0;
}
int failingData(void *const *, int64_t *) { return 7; }
} // namespace

TEST_F(RuntimeTest, DataFromTheArgumentsThroughTheDataFunction) {
  TestKernel K(oneDimSpec("k"), "k", dataFromArgs, 1);
  TestModel M([](const int64_t *D, uint32_t, const klaraptor_candidate &C) {
    return std::fabs(double(C.block[0]) - double(D[0]) / 10);
  });
  R->registerModel("k", &M.Model);
  int64_t N = 640; // the data function doubles it: 1280 / 10 -> 128
  void *Args[1] = {&N};
  Launch L({});
  L.Info.args = Args;
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block()[0], 128u);
  EXPECT_EQ(L.grid()[0], 10u);
}

TEST_F(RuntimeTest, DataFunctionFailureFallsBack) {
  TestKernel K(oneDimSpec("k"), "k", failingData, 1);
  TestModel M(closestTo(64));
  R->registerModel("k", &M.Model);
  int64_t N = 5;
  void *Args[1] = {&N};
  Launch L({});
  L.Info.args = Args;
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(Diags->count("kernel 'k': data expression failed (the data "
                         "function returned 7); launching as requested"),
            1u);
  // Neither data nor arguments.
  Launch Nothing({});
  EXPECT_EQ(R->launch(&K.Desc, &Nothing.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(R->launch(&K.Desc, &Nothing.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(Diags->count("kernel 'k': data evaluation failed: the launch "
                         "gives neither data values nor kernel arguments"),
            1u);
}

TEST_F(RuntimeTest, DataFromTheArgumentsThroughTheSpec) {
  // No data function: the runtime evaluates the data expressions itself.
  TestKernel K("klaraptor v1\nkernel k\nparam 1 a i32\nparam 3 b u64\n"
               "param 4 c i8\ndata N (($1 + $3) * $4)\nblock bx\n"
               "grid ceildiv(N, bx)\ncandidates pow2\n",
               "k");
  TestModel M(closestTo(32));
  R->registerModel("k", &M.Model);
  int32_t A = -100;
  uint64_t B = 1100;
  int8_t C = 3;
  float Unused = 0;
  void *Args[5] = {&Unused, &A, &Unused, &B, &C};
  Launch L({});
  L.Info.args = Args;
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.grid()[0], 94u); // ceildiv(3000, 32)
  // A u64 beyond int64 is an evaluation failure.
  uint64_t Big = ~0ULL;
  Args[3] = &Big;
  Launch L2({});
  L2.Info.args = Args;
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(Diags->count("cannot read parameter $3 'b'"), 1u);
  // Overflow in the data expression.
  int8_t Big8 = 127;
  uint64_t Huge = 1ULL << 62;
  Args[3] = &Huge;
  Args[4] = &Big8;
  Launch L3({});
  L3.Info.args = Args;
  EXPECT_EQ(R->launch(&K.Desc, &L3.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(Diags->count("kernel 'k': data expression failed: 'N': integer "
                         "overflow"),
            1u);
}

TEST_F(RuntimeTest, DataFromFieldsOfAStructParameterThroughTheSpec) {
  // Two fields of a struct parameter, one of them unaligned (a packed
  // struct), and a plain parameter after it.
  TestKernel K("klaraptor v1\nkernel k\nparam 0.1 s.rows i32\n"
               "param 0.5 s.cols u16\nparam 1 n i32\n"
               "data N (($0.1 * $0.5) + $1)\nblock bx\n"
               "grid ceildiv(N, bx)\ncandidates pow2\n",
               "k");
  TestModel M(closestTo(32));
  R->registerModel("k", &M.Model);
  unsigned char S[8] = {0};
  int32_t Rows = 30;
  uint16_t Cols = 100;
  std::memcpy(S + 1, &Rows, 4);
  std::memcpy(S + 5, &Cols, 2);
  int32_t N = 200;
  void *Args[2] = {S, &N};
  Launch L({});
  L.Info.args = Args;
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.grid()[0], 100u); // ceildiv(30 * 100 + 200, 32)
}

TEST(ModelNames, PortableNameOfAnAnonymousNamespace) {
  // nvcc's names, unique to the file's place, and clang's.
  EXPECT_EQ(portableName("_ZN35_GLOBAL__N__454c96d6_7_anon_cu_main6hiddenEPfi"),
            "_ZN12_GLOBAL__N_16hiddenEPfi");
  EXPECT_EQ(portableName("_ZN35_GLOBAL__N__1f2ba55c_7_anon_cu_main6hiddenEPfi"),
            "_ZN12_GLOBAL__N_16hiddenEPfi");
  EXPECT_EQ(portableName("_ZN12_GLOBAL__N_16hiddenEPfi"),
            "_ZN12_GLOBAL__N_16hiddenEPfi");
  // Inside a named namespace, and two of them.
  EXPECT_EQ(portableName("_ZN2ns40_GLOBAL__N__36e34ca2_11_internal_cu_main8plus_"
                         "oneEPfi"),
            "_ZN2ns12_GLOBAL__N_18plus_oneEPfi");
  EXPECT_EQ(portableName("_ZN35_GLOBAL__N__454c96d6_7_anon_cu_main2ns35_GLOBAL__"
                         "N__454c96d6_7_anon_cu_main1kEv"),
            "_ZN12_GLOBAL__N_12ns12_GLOBAL__N_11kEv");
  // Nothing to change, or nothing that parses.
  EXPECT_EQ(portableName("_Z5saxpyPfPKffi"), "_Z5saxpyPfPKffi");
  EXPECT_EQ(portableName("saxpy"), "saxpy");
  EXPECT_EQ(portableName("_GLOBAL__N_"), "_GLOBAL__N_");
  EXPECT_EQ(portableName("_ZN99_GLOBAL__N__x1kEv"), "_ZN99_GLOBAL__N__x1kEv");
}

TEST_F(RuntimeTest, AModelFollowsAnAnonymousNamespaceKernelToAnotherBuild) {
  // The model was fitted from a build of the file in one folder, the
  // program is built from the file in another: nvcc's names differ in
  // their hash, and the model is found by the portable name.
  TestKernel K(oneDimSpec("(anonymous namespace)::hidden"),
               "_ZN35_GLOBAL__N__1f2ba55c_7_anon_cu_main6hiddenEPfi");
  TestModel M(closestTo(64));
  ASSERT_EQ(R->registerKernel(&K.Desc), KLARAPTOR_OK);
  ASSERT_EQ(R->registerModel(
                "_ZN35_GLOBAL__N__454c96d6_7_anon_cu_main6hiddenEPfi",
                &M.Model),
            KLARAPTOR_OK);
  Launch L({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block()[0], 64u);
  EXPECT_GT(M.Calls.load(), 0u);
}

TEST_F(RuntimeTest, ModeOffKeepsEveryLaunch) {
  start(Config::parse("off", nullptr, nullptr));
  TestKernel K(oneDimSpec("k"), "k");
  TestModel M(closestTo(64));
  R->registerModel("k", &M.Model);
  Launch L({1000});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(R->launch(&K.Desc, nullptr), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(R->launchHandle(&K.Stub, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(R->launchCuFunction(&K.Stub, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(M.Calls.load(), 0u);
  EXPECT_EQ(R->decisionCount(), 0u);
  EXPECT_TRUE(Diags->lines().empty());
}

TEST_F(RuntimeTest, ModeProfileWithoutPluginFallsBackWithOneMessage) {
  ::setenv("KLARAPTOR_PROFILE_LIB", "/nonexistent/libklaraptor_profile.so", 1);
  start(Config::parse("profile", nullptr, nullptr));
  TestKernel K(oneDimSpec("k"), "k");
  TestModel M(closestTo(64));
  R->registerModel("k", &M.Model);
  // The plug-in would get the argument array; it is never loaded here.
  void *Args[1] = {nullptr};
  Launch L({1000});
  L.Info.args = Args;
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  Launch L2({2000});
  L2.Info.args = Args;
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_UNCHANGED);
  // The same data again is not handed to the plug-in a second time.
  Launch L3({1000});
  L3.Info.args = Args;
  EXPECT_EQ(R->launch(&K.Desc, &L3.Info), KLARAPTOR_UNCHANGED);
  ::unsetenv("KLARAPTOR_PROFILE_LIB");
  ASSERT_EQ(Diags->lines().size(), 1u);
  EXPECT_EQ(Diags->lines()[0].rfind(
                "error: cannot load the profiler plug-in "
                "'/nonexistent/libklaraptor_profile.so'",
                0),
            0u)
      << Diags->lines()[0];
  EXPECT_EQ(M.Calls.load(), 0u);
  EXPECT_EQ(R->decisionCount(), 0u);
}

TEST_F(RuntimeTest, ModeProfileWithoutArgumentsSaysSoOnce) {
  start(Config::parse("profile", nullptr, nullptr));
  TestKernel K(oneDimSpec("k"), "k");
  Launch L({1000});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  Launch L2({2000});
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_UNCHANGED);
  ASSERT_EQ(Diags->lines().size(), 1u);
  EXPECT_NE(Diags->lines()[0].find("passed no argument array"),
            std::string::npos);
}

TEST_F(RuntimeTest, LaunchByHandle) {
  TestKernel K(oneDimSpec("k"), "k");
  TestModel M(closestTo(512));
  R->registerModel("k", &M.Model);
  Launch L({1000});
  char Unknown;
  EXPECT_EQ(R->launchHandle(&Unknown, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(R->launchHandle(nullptr, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(R->launchHandle(&K.Stub, &L.Info), KLARAPTOR_UNCHANGED); // not yet registered
  R->registerKernel(&K.Desc);
  EXPECT_EQ(R->launchHandle(&K.Stub, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block()[0], 512u);
  EXPECT_EQ(M.Calls.load(), 6u);
}

namespace {
int NameCalls = 0;
char FnA, FnB, FnC;
int fakeFuncGetName(const char **Name, void *F) {
  ++NameCalls;
  if (F == &FnA)
    *Name = "_Z6kernelPf";
  else if (F == &FnB)
    *Name = "not_annotated";
  else
    return 400; // CUDA_ERROR_INVALID_HANDLE
  return 0;
}
} // namespace

TEST(RuntimeCuFunction, ResolvedByNameAndCached) {
  NameCalls = 0;
  CudaApi Api;
  Api.FuncGetName = fakeFuncGetName;
  Runtime R(Config(), Api);
  DiagCapture Diags(R.diagnostics());
  klaraptor_device_info D = h100();
  R.setDeviceOverride(&D);
  TestKernel K(oneDimSpec("kernel"), "_Z6kernelPf");
  R.registerKernel(&K.Desc);
  TestModel M(closestTo(64));
  R.registerModel("kernel", &M.Model);
  Launch L({1000});
  EXPECT_EQ(R.launchCuFunction(&FnA, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block()[0], 64u);
  EXPECT_EQ(R.launchCuFunction(&FnA, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(NameCalls, 1);
  Launch L2({1000});
  EXPECT_EQ(R.launchCuFunction(&FnB, &L2.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(R.launchCuFunction(&FnB, &L2.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(NameCalls, 2);
  EXPECT_EQ(L2.block()[0], 256u);
  EXPECT_EQ(R.launchCuFunction(&FnC, &L2.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(Diags.count("cuFuncGetName failed: error 400"), 1u);
  EXPECT_EQ(R.launchCuFunction(nullptr, &L2.Info), KLARAPTOR_UNCHANGED);
  // A kernel registered later can be the one an unknown function was.
  TestKernel Late(oneDimSpec("late"), "not_annotated");
  R.registerKernel(&Late.Desc);
  R.registerModel("late", &M.Model);
  EXPECT_EQ(R.launchCuFunction(&FnB, &L2.Info), KLARAPTOR_OK);
  EXPECT_EQ(NameCalls, 4);
}

TEST(RuntimeCuFunction, WithoutTheDriverEveryLaunchIsKept) {
  Runtime R(Config::parse(nullptr, nullptr, "info"), CudaApi::none());
  DiagCapture Diags(R.diagnostics());
  Launch L({1000});
  EXPECT_EQ(R.launchCuFunction(&FnA, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(R.launchCuFunction(&FnA, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(Diags.count("cuFuncGetName is not available"), 1u);
}

TEST_F(RuntimeTest, RegisterModelArguments) {
  TestModel M(closestTo(64));
  EXPECT_EQ(R->registerModel(nullptr, &M.Model), KLARAPTOR_ERR_BAD_ARGUMENT);
  EXPECT_EQ(R->registerModel("", &M.Model), KLARAPTOR_ERR_BAD_ARGUMENT);
  klaraptor_model Bad = M.Model;
  Bad.size = 8;
  EXPECT_EQ(R->registerModel("k", &Bad), KLARAPTOR_ERR_ABI);
  Bad = M.Model;
  Bad.abi_version = 0;
  EXPECT_EQ(R->registerModel("k", &Bad), KLARAPTOR_ERR_ABI);
  Bad = M.Model;
  Bad.predict = nullptr;
  EXPECT_EQ(R->registerModel("k", &Bad), KLARAPTOR_ERR_BAD_ARGUMENT);
  // The structure and its name are copied.
  klaraptor_model Copy = M.Model;
  std::string Name = "temporary";
  Copy.name = Name.c_str();
  EXPECT_EQ(R->registerModel("k", &Copy), KLARAPTOR_OK);
  std::memset(&Copy, 0, sizeof(Copy));
  Name = "overwritten";
  TestKernel K(oneDimSpec("k"), "k");
  Launch L({1000});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block()[0], 64u);
}

TEST_F(RuntimeTest, DeviceOverrideChangesDecisions) {
  TestKernel K(oneDimSpec("k"), "k");
  TestModel M(closestTo(1024));
  R->registerModel("k", &M.Model);
  Launch L({100000});
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block()[0], 1024u);
  klaraptor_device_info Small = h100();
  Small.max_threads_per_block = 256;
  ASSERT_EQ(R->setDeviceOverride(&Small), KLARAPTOR_OK);
  Launch L2({100000});
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_OK);
  EXPECT_EQ(L2.block()[0], 256u);
  Small.warp_size = 0;
  EXPECT_EQ(R->setDeviceOverride(&Small), KLARAPTOR_ERR_BAD_ARGUMENT);
  Small = h100();
  Small.size = 16;
  EXPECT_EQ(R->setDeviceOverride(&Small), KLARAPTOR_ERR_ABI);
}

TEST_F(RuntimeTest, DecisionLogHasOneLinePerNewDecision) {
  TempFile F("runtime");
  start(Config::parse(nullptr, F.Path.c_str(), nullptr));
  TestKernel K(oneDimSpec("saxpy"), "_Z5saxpyPfPKffi");
  TestModel M(closestTo(128), "closest-128");
  R->registerModel("saxpy", &M.Model);
  TestKernel NoModel(oneDimSpec("plain"), "plain");

  Launch A({1000}, {4, 1, 1}, {256, 1, 1});
  R->launch(&K.Desc, &A.Info);
  Launch A2({1000}, {4, 1, 1}, {256, 1, 1}); // memoised: no line
  R->launch(&K.Desc, &A2.Info);
  Launch B({1000}, {2, 1, 1}, {512, 1, 1}); // same data, new request
  R->launch(&K.Desc, &B.Info);
  Launch C({5}, {1, 1, 1}, {32, 1, 1});
  R->launch(&NoModel.Desc, &C.Info);
  Launch C2({5}, {1, 1, 1}, {64, 1, 1});
  R->launch(&NoModel.Desc, &C2.Info);

  auto Lines = F.lines();
  ASSERT_EQ(Lines.size(), 4u);
  std::vector<Json> J(4);
  for (size_t I = 0; I < 4; ++I)
    ASSERT_TRUE(Json::parse(Lines[I], J[I])) << Lines[I];

  EXPECT_EQ(J[0]["kernel"].Str, "saxpy");
  EXPECT_EQ(J[0]["device_name"].Str, "_Z5saxpyPfPKffi");
  EXPECT_EQ(J[0]["device"].integer(), 0);
  EXPECT_EQ(J[0]["data"]["N"].integer(), 1000);
  EXPECT_EQ(J[0]["requested"]["grid"].integers(),
            (std::vector<int64_t>{4, 1, 1}));
  EXPECT_EQ(J[0]["requested"]["block"].integers(),
            (std::vector<int64_t>{256, 1, 1}));
  EXPECT_EQ(J[0]["block"].integers(), (std::vector<int64_t>{128, 1, 1}));
  EXPECT_EQ(J[0]["grid"].integers(), (std::vector<int64_t>{8, 1, 1}));
  EXPECT_EQ(J[0]["source"].Str, "model");
  EXPECT_EQ(J[0]["model"].Str, "closest-128");
  EXPECT_EQ(J[0]["predicted"].Num, 1.0);
  EXPECT_EQ(J[0]["candidates"].integer(), 6);
  EXPECT_EQ(J[0]["pid"].integer(), int64_t(::getpid()));
  EXPECT_FALSE(J[0].has("reason"));

  EXPECT_EQ(J[1]["source"].Str, "history");
  EXPECT_EQ(J[1]["requested"]["block"].integers(),
            (std::vector<int64_t>{512, 1, 1}));
  EXPECT_EQ(J[1]["block"].integers(), (std::vector<int64_t>{128, 1, 1}));
  EXPECT_EQ(J[1]["grid"].integers(), (std::vector<int64_t>{8, 1, 1}));

  EXPECT_EQ(J[2]["kernel"].Str, "plain");
  EXPECT_EQ(J[2]["source"].Str, "fallback");
  EXPECT_EQ(J[2]["reason"].Str, "no model");
  EXPECT_EQ(J[2]["block"].integers(), (std::vector<int64_t>{32, 1, 1}));
  EXPECT_EQ(J[2]["candidates"].integer(), 6);
  EXPECT_FALSE(J[2].has("model"));

  EXPECT_EQ(J[3]["source"].Str, "fallback");
  EXPECT_EQ(J[3]["block"].integers(), (std::vector<int64_t>{64, 1, 1}));
  EXPECT_EQ(R->decisionCount(), 2u);
}

TEST_F(RuntimeTest, InfoLevelDescribesEachDecision) {
  start(Config::parse(nullptr, nullptr, "info"));
  TestKernel K(oneDimSpec("saxpy"), "s");
  TestModel M(closestTo(128), "m");
  R->registerModel("saxpy", &M.Model);
  Launch A({1000});
  R->launch(&K.Desc, &A.Info);
  Launch A2({1000});
  R->launch(&K.Desc, &A2.Info);
  EXPECT_EQ(Diags->lines(),
            (std::vector<std::string>{
                "info: kernel 'saxpy' (N=1000): block 128x1x1 grid 8x1x1 "
                "(model 'm', 6 candidates)"}));
}

TEST_F(RuntimeTest, DebugLevelShowsEveryPrediction) {
  start(Config::parse(nullptr, nullptr, "debug"));
  TestKernel K(oneDimSpec("saxpy"), "s");
  TestModel M(closestTo(128), "m");
  R->registerModel("saxpy", &M.Model);
  Launch A({1000});
  R->launch(&K.Desc, &A.Info);
  EXPECT_EQ(Diags->count("debug: kernel 'saxpy' (N=1000): block "), 6u);
  EXPECT_EQ(Diags->count("block 64x1x1 grid 16x1x1: predicted 65"), 1u);
}

// The pragma's shared(...) gives every shape its dynamic shared memory: the
// chosen launch gets the bytes for its block, and a repeat (from the
// history and from the thread's cache) gets them again.
TEST_F(RuntimeTest, SharedMemoryFollowsTheChosenBlock) {
  TestKernel K(oneDimSpec("red", "shared (4 * bx)\n"), "red");
  TestModel M(closestTo(512));
  R->registerModel("red", &M.Model);
  for (int Repeat = 0; Repeat < 3; ++Repeat) {
    Launch L({100000}, {782, 1, 1}, {128, 1, 1});
    L.Info.shared_mem = 512;
    EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
    EXPECT_EQ(L.block(), (Dim3{512, 1, 1}));
    EXPECT_EQ(L.grid(), (Dim3{196, 1, 1}));
    EXPECT_EQ(L.Info.shared_mem, 2048u) << "repeat " << Repeat;
  }
  EXPECT_TRUE(Diags->lines().empty()) << Diags->all();
}

// Shapes whose shared memory exceeds what the kernel may have are not
// candidates (the device's 48 KiB per block here).
TEST_F(RuntimeTest, SharedMemoryAboveTheLimitIsNotACandidate) {
  TestKernel K(oneDimSpec("big", "shared (96 * bx)\n"), "big");
  std::vector<uint32_t> Seen;
  TestModel M([&](const int64_t *, uint32_t, const klaraptor_candidate &C) {
    Seen.push_back(C.block[0]);
    return 1000.0 / C.block[0];
  });
  R->registerModel("big", &M.Model);
  Launch L({100000}, {782, 1, 1}, {128, 1, 1});
  L.Info.shared_mem = 96 * 128;
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  // 96 x 512 = 49152 fits; 96 x 1024 does not.
  EXPECT_EQ(Seen, (std::vector<uint32_t>{32, 64, 128, 256, 512}));
  EXPECT_EQ(L.block(), (Dim3{512, 1, 1}));
  EXPECT_EQ(L.Info.shared_mem, 49152u);
}

// A launch with dynamic shared memory that the pragma does not describe
// (no shared(...), or one that gives other bytes for the program's own
// block) keeps its configuration: another block could not be given the
// memory it needs. One warning per kernel.
TEST_F(RuntimeTest, SharedMemoryThePragmaDoesNotDescribeKeepsTheLaunch) {
  TestKernel Plain(oneDimSpec("plain"), "plain");
  TestKernel Wrong(oneDimSpec("wrong", "shared (8 * bx)\n"), "wrong");
  TestModel M(closestTo(512));
  R->registerModel("plain", &M.Model);
  R->registerModel("wrong", &M.Model);
  for (int Repeat = 0; Repeat < 2; ++Repeat) {
    Launch L({100000}, {782, 1, 1}, {128, 1, 1});
    L.Info.shared_mem = 512;
    EXPECT_EQ(R->launch(&Plain.Desc, &L.Info), KLARAPTOR_UNCHANGED);
    Launch W({100000}, {782, 1, 1}, {128, 1, 1});
    W.Info.shared_mem = 512;
    EXPECT_EQ(R->launch(&Wrong.Desc, &W.Info), KLARAPTOR_UNCHANGED);
    EXPECT_EQ(W.Info.shared_mem, 512u);
  }
  EXPECT_EQ(M.Calls.load(), 0u);
  EXPECT_EQ(Diags->count("kernel 'plain': the launch asks for 512 bytes of "
                         "dynamic shared memory with block 128x1x1 at "
                         "N=100000, and its pragma at test.cu:1:1 has no "
                         "shared(...) clause"),
            1u)
      << Diags->all();
  EXPECT_EQ(Diags->count("kernel 'wrong': the launch asks for 512 bytes of "
                         "dynamic shared memory with block 128x1x1 at "
                         "N=100000; the pragma's shared(...) at test.cu:1:1 "
                         "gives 1024 bytes for that block"),
            1u)
      << Diags->all();
  // Without dynamic shared memory the plain kernel is tuned as before.
  Launch L({100000}, {782, 1, 1}, {128, 1, 1});
  EXPECT_EQ(R->launch(&Plain.Desc, &L.Info), KLARAPTOR_OK);
  EXPECT_EQ(L.block(), (Dim3{512, 1, 1}));
  EXPECT_EQ(L.Info.shared_mem, 0u);
}
