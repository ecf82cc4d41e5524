//===- RefineTest.cpp - the runtime's online refinement --------------------===//
///
/// \file
/// KLARAPTOR_REFINE on a runtime whose "emulator" is a pair of test
/// functions: each trial's time is the one the test gives for its block. The
/// launches are the runtime's hook before (launch) and after (launched).
//===----------------------------------------------------------------------===//
#include "RuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

using namespace klaraptor;
using namespace klaraptor::test;

namespace {

/// The "emulator": the estimate of the last launch, by its block x.
std::map<uint32_t, double> TimeOfBlock;
uint32_t LastBlock = 0;
bool Requested = false;
unsigned Requests = 0;

void fakeEstimateNext() {
  Requested = true;
  ++Requests;
}
int fakeLastEstimate(double *Ns) {
  if (!Requested || !TimeOfBlock.count(LastBlock))
    return -1;
  Requested = false;
  *Ns = TimeOfBlock[LastBlock];
  return 0;
}

const CudaApi &fakeEmulator() {
  static CudaApi A = [] {
    CudaApi X;
    X.EmuEstimateNextLaunch = fakeEstimateNext;
    X.EmuLastLaunchEstimate = fakeLastEstimate;
    return X;
  }();
  return A;
}

/// The model ranks 128 < 256 < 64 < everything else.
double ranked(const int64_t *, uint32_t, const klaraptor_candidate &C) {
  switch (C.block[0]) {
  case 128: return 1.0;
  case 256: return 2.0;
  case 64: return 3.0;
  default: return 10.0;
  }
}

class RefineTest : public ::testing::Test {
protected:
  klaraptor_device_info Device = h100();
  std::unique_ptr<Runtime> R;
  TestKernel K{oneDimSpec("k"), "k"};
  TestModel M{ranked, "ranked"};

  void start(Config C) {
    R = std::make_unique<Runtime>(C, fakeEmulator());
    R->setDeviceOverride(&Device);
    R->registerKernel(&K.Desc);
    R->registerModel("k", &M.Model);
  }
  void SetUp() override {
    TimeOfBlock = {{128, 50}, {256, 40}, {64, 45}, {32, 30}};
    Requests = 0;
    Requested = false;
  }
  /// One launch with N = 100000 asking for 256 threads; \p After: call the
  /// after-launch hook with \p Status. Returns the block launched.
  uint32_t launchOnce(bool After = true, int Status = 0) {
    Launch L({100000}, {391, 1, 1}, {256, 1, 1});
    EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
    LastBlock = L.block()[0];
    if (After)
      R->launched(&L.Info, Status);
    return LastBlock;
  }
};

} // namespace

TEST_F(RefineTest, TriesTheModelsBestThreeAndKeepsTheFastest) {
  TempFile Log("refine");
  Config C = Config::parse(nullptr, Log.Path.c_str(), nullptr);
  start(C);
  // 1: the model's choice, untimed; 2-4: its three best, timed; then the
  // fastest measured (256: 40 ns) for good.
  EXPECT_EQ(launchOnce(), 128u);
  EXPECT_EQ(Requests, 0u);
  EXPECT_EQ(launchOnce(), 128u);
  EXPECT_EQ(launchOnce(), 256u);
  EXPECT_EQ(launchOnce(), 64u);
  EXPECT_EQ(Requests, 3u);
  for (int I = 0; I < 5; ++I)
    EXPECT_EQ(launchOnce(), 256u);
  EXPECT_EQ(Requests, 3u); // nothing more is timed
  auto Lines = Log.lines();
  ASSERT_EQ(Lines.size(), 2u);
  Json First, Measured;
  ASSERT_TRUE(Json::parse(Lines[0], First));
  ASSERT_TRUE(Json::parse(Lines[1], Measured));
  EXPECT_EQ(First["source"].Str, "model");
  EXPECT_EQ(First["block"].integers(), (std::vector<int64_t>{128, 1, 1}));
  EXPECT_EQ(Measured["source"].Str, "measured");
  EXPECT_EQ(Measured["block"].integers(), (std::vector<int64_t>{256, 1, 1}));
  EXPECT_EQ(Measured["grid"].integers(), (std::vector<int64_t>{391, 1, 1}));
  EXPECT_EQ(Measured["measured_ns"].Num, 40);
  EXPECT_EQ(Measured["predicted"].Num, 2);
  EXPECT_EQ(Measured["trials"].integer(), 3);
  EXPECT_EQ(Measured["model"].Str, "ranked");
}

TEST_F(RefineTest, TheModelsChoiceStaysWhenItIsFastest) {
  TimeOfBlock[128] = 10;
  start(Config());
  for (int I = 0; I < 4; ++I)
    launchOnce();
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(launchOnce(), 128u);
}

TEST_F(RefineTest, OffWithKlaraptorRefine) {
  for (const char *V : {"0", "1", "off"}) {
    Config C;
    C.parseRefine(V);
    ASSERT_TRUE(C.Warnings.empty());
    start(C);
    for (int I = 0; I < 6; ++I)
      EXPECT_EQ(launchOnce(), 128u) << V;
    EXPECT_EQ(Requests, 0u) << V;
  }
  Config Two;
  Two.parseRefine("2");
  start(Two);
  EXPECT_EQ(launchOnce(), 128u);
  EXPECT_EQ(launchOnce(), 128u);
  EXPECT_EQ(launchOnce(), 256u);
  EXPECT_EQ(launchOnce(), 256u); // two timed, 256 the faster
  EXPECT_EQ(Requests, 2u);
}

TEST_F(RefineTest, FailedAndUnhookedTrialsAreLeftOut) {
  start(Config());
  launchOnce();
  launchOnce();                             // 128: 50
  launchOnce(/*After=*/true, /*Status=*/2); // 256 failed to launch
  launchOnce(/*After=*/false);              // 64: no after-launch hook
  // The next launch gives the pending trial up and finishes: 128 is the
  // only one timed.
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(launchOnce(), 128u);
}

TEST_F(RefineTest, NothingTimedKeepsTheModelsDecision) {
  TimeOfBlock.clear(); // the emulator gives no estimate
  start(Config());
  for (int I = 0; I < 7; ++I)
    EXPECT_EQ(launchOnce(), 128u);
}

TEST_F(RefineTest, MeasuredDecisionsArePersisted) {
  TempFile Cache("refine-cache");
  Config C;
  C.CachePath = Cache.Path;
  start(C);
  for (int I = 0; I < 5; ++I)
    launchOnce();
  EXPECT_EQ(LastBlock, 256u);
  // Another process: the measured decision at once, nothing timed.
  TempFile Log("refine-log");
  Config C2 = Config::parse(nullptr, Log.Path.c_str(), nullptr);
  C2.CachePath = Cache.Path;
  Requests = 0;
  start(C2);
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(launchOnce(), 256u);
  EXPECT_EQ(Requests, 0u);
  auto Lines = Log.lines();
  ASSERT_EQ(Lines.size(), 1u);
  Json J;
  ASSERT_TRUE(Json::parse(Lines[0], J));
  EXPECT_EQ(J["source"].Str, "measured");
  EXPECT_EQ(J["measured_ns"].Num, 40);
}

TEST(RefineConfig, Values) {
  Config C;
  EXPECT_EQ(C.RefineShapes, 3u);
  for (const char *Bad : {"4", "-1", "x", "2.5", "33"}) {
    Config B;
    B.parseRefine(Bad);
    EXPECT_EQ(B.RefineShapes, 3u) << Bad;
    ASSERT_EQ(B.Warnings.size(), 1u) << Bad;
    EXPECT_EQ(B.Warnings[0], std::string("KLARAPTOR_REFINE '") + Bad +
                                 "' is not 0 to 3 or off; using 3");
  }
  Config Off;
  Off.parseRefine(" OFF ");
  EXPECT_EQ(Off.RefineShapes, 0u);
}
