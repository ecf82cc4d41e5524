//===- RefineTest.cpp - the runtime's online refinement --------------------===//
///
/// \file
/// KLARAPTOR_REFINE on a runtime whose "emulator" is a pair of test
/// functions: each trial's time is the one the test gives for its block. The
/// launches are the runtime's hook before (launch) and after (launched).
/// Then on a fake GPU: trials timed by CUDA events, and launches captured
/// into a CUDA graph, which must be neither timed nor disturbed.
//===----------------------------------------------------------------------===//
#include "RuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>

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

//===-- On a GPU: CUDA events, and CUDA graph capture ----------------------===//

namespace {

/// A fake GPU's clock and events: an event records the clock; a launch of
/// block x runs TimeOfBlock[x] ns (the test advances the clock between the
/// hooks). One stream may be in capture (global mode): what the CUDA
/// runtime counts as unsafe then (waiting for, creating or destroying an
/// event) from a thread whose capture mode is not relaxed invalidates it,
/// and an event recorded on the capturing stream becomes a graph node.
struct FakeGpu {
  double Now = 0;
  std::map<int, double> Recorded; ///< event -> time
  int NextEvent = 1;
  void *CapturingStream = nullptr; ///< null: no capture
  int ThreadMode = 0;              ///< cudaStreamCaptureModeGlobal
  bool Invalidated = false;
  unsigned RecordsOnCapture = 0, Waits = 0, WaitsRelaxed = 0;
  /// cudaStreamIsCapturing's failure (0: it answers), its calls, and the
  /// error cudaGetLastError would return to the program.
  int CaptureQueryError = 0;
  unsigned CaptureQueries = 0;
  int LastError = 0;

  void unsafeCall() {
    if (CapturingStream && ThreadMode != 2)
      Invalidated = true;
  }
} Gpu;

int fakeEventCreate(void **E, unsigned) {
  Gpu.unsafeCall();
  *E = reinterpret_cast<void *>(intptr_t(Gpu.NextEvent++));
  return 0;
}
int fakeEventRecord(void *E, void *Stream) {
  if (Gpu.CapturingStream && Stream == Gpu.CapturingStream) {
    ++Gpu.RecordsOnCapture;
    return 0;
  }
  Gpu.Recorded[int(reinterpret_cast<intptr_t>(E))] = Gpu.Now;
  return 0;
}
int fakeEventSynchronize(void *) {
  Gpu.unsafeCall();
  ++Gpu.Waits;
  Gpu.WaitsRelaxed += Gpu.ThreadMode == 2;
  return 0;
}
int fakeEventElapsed(float *Ms, void *Start, void *Stop) {
  auto A = Gpu.Recorded.find(int(reinterpret_cast<intptr_t>(Start)));
  auto B = Gpu.Recorded.find(int(reinterpret_cast<intptr_t>(Stop)));
  if (A == Gpu.Recorded.end() || B == Gpu.Recorded.end())
    return 600; // cudaErrorNotReady
  *Ms = float((B->second - A->second) / 1e6);
  return 0;
}
int fakeEventDestroy(void *) {
  Gpu.unsafeCall();
  return 0;
}
int fakeIsCapturing(void *Stream, int *Status) {
  ++Gpu.CaptureQueries;
  if (Gpu.CaptureQueryError)
    return Gpu.LastError = Gpu.CaptureQueryError;
  *Status = Gpu.CapturingStream && Stream == Gpu.CapturingStream ? 1 : 0;
  return 0;
}
int fakePeekAtLastError() { return Gpu.LastError; }
int fakeGetLastError() { return std::exchange(Gpu.LastError, 0); }
int fakeExchangeMode(int *Mode) {
  std::swap(*Mode, Gpu.ThreadMode);
  return 0;
}

const CudaApi &fakeGpu() {
  static CudaApi A = [] {
    CudaApi X;
    X.EventCreateWithFlags = fakeEventCreate;
    X.EventRecord = fakeEventRecord;
    X.EventSynchronize = fakeEventSynchronize;
    X.EventElapsedTime = fakeEventElapsed;
    X.EventDestroy = fakeEventDestroy;
    X.StreamIsCapturing = fakeIsCapturing;
    X.ThreadExchangeStreamCaptureMode = fakeExchangeMode;
    X.PeekAtLastError = fakePeekAtLastError;
    X.GetLastError = fakeGetLastError;
    return X;
  }();
  return A;
}

class RefineOnGpuTest : public RefineTest {
protected:
  void *StreamA = reinterpret_cast<void *>(intptr_t(0xA));
  void *StreamB = reinterpret_cast<void *>(intptr_t(0xB));

  void SetUp() override {
    RefineTest::SetUp();
    Gpu = FakeGpu();
    R = std::make_unique<Runtime>(Config(), fakeGpu());
    R->setDeviceOverride(&Device);
    R->registerKernel(&K.Desc);
    R->registerModel("k", &M.Model);
  }
  /// One launch on \p Stream that runs (or is captured) between the
  /// hooks; returns the block launched.
  uint32_t launchOn(void *Stream) {
    Launch L({100000}, {391, 1, 1}, {256, 1, 1});
    L.Info.stream = Stream;
    EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
    uint32_t Block = L.block()[0];
    if (Stream != Gpu.CapturingStream)
      Gpu.Now += TimeOfBlock[Block];
    R->launched(&L.Info, 0);
    return Block;
  }
};

} // namespace

TEST_F(RefineOnGpuTest, EventsTimeTheTrialsAndTheFastestIsKept) {
  EXPECT_EQ(launchOn(StreamA), 128u); // the model's choice, untimed
  EXPECT_EQ(launchOn(StreamA), 128u);
  EXPECT_EQ(launchOn(StreamA), 256u);
  EXPECT_EQ(launchOn(StreamA), 64u);
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(launchOn(StreamA), 256u); // 40 ns: the fastest measured
  EXPECT_EQ(Gpu.Waits, 3u);
  // The runtime's waits ran in the relaxed capture mode, which it gave
  // back.
  EXPECT_EQ(Gpu.WaitsRelaxed, 3u);
  EXPECT_EQ(Gpu.ThreadMode, 0);
}

TEST_F(RefineOnGpuTest, LaunchesCapturedIntoAGraphAreNotTimed) {
  // The program captures its time steps into a graph: the captured
  // launches get the model's decision, no event goes into the graph, the
  // capture stays valid.
  Gpu.CapturingStream = StreamA;
  for (int I = 0; I < 6; ++I)
    EXPECT_EQ(launchOn(StreamA), 128u);
  EXPECT_EQ(Gpu.RecordsOnCapture, 0u);
  EXPECT_EQ(Gpu.Waits, 0u);
  EXPECT_FALSE(Gpu.Invalidated);
  // After the capture the launches that run are timed as usual.
  Gpu.CapturingStream = nullptr;
  EXPECT_EQ(launchOn(StreamA), 128u);
  EXPECT_EQ(launchOn(StreamA), 256u);
  EXPECT_EQ(launchOn(StreamA), 64u);
  EXPECT_EQ(launchOn(StreamA), 256u);
  EXPECT_EQ(Gpu.Waits, 3u);
}

TEST_F(RefineOnGpuTest, ACaptureOnAnotherStreamStaysValid) {
  // Another thread captures stream B in the global mode while this one's
  // launches on stream A are refined: the refinement's event calls are
  // made in the relaxed mode and do not invalidate that capture.
  Gpu.CapturingStream = StreamB;
  for (int I = 0; I < 4; ++I)
    launchOn(StreamA);
  EXPECT_EQ(launchOn(StreamA), 256u);
  EXPECT_EQ(Gpu.Waits, 3u);
  EXPECT_FALSE(Gpu.Invalidated);
  EXPECT_EQ(Gpu.ThreadMode, 0);
}

TEST_F(RefineOnGpuTest, AFailingCaptureQueryLeavesTheProgramsErrorsAlone) {
  // The query fails (no driver, say): the error it recorded is cleared, and
  // a launch whose capture is unknown is not timed.
  Gpu.CaptureQueryError = 35; // cudaErrorInsufficientDriver
  for (int I = 0; I < 6; ++I)
    EXPECT_EQ(launchOn(StreamA), 128u);
  EXPECT_GT(Gpu.CaptureQueries, 0u);
  EXPECT_EQ(Gpu.LastError, 0);
  EXPECT_EQ(Gpu.Waits, 0u);
  // An error the program has pending is not asked over, nor cleared.
  Gpu.CaptureQueries = 0;
  Gpu.LastError = 719; // cudaErrorLaunchFailure, the program's
  Launch L({200000}, {782, 1, 1}, {256, 1, 1});
  L.Info.stream = StreamA;
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_OK);
  R->launched(&L.Info, 0);
  Launch L2({200000}, {782, 1, 1}, {256, 1, 1});
  L2.Info.stream = StreamA;
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_OK);
  EXPECT_EQ(Gpu.CaptureQueries, 0u);
  EXPECT_EQ(Gpu.LastError, 719);
}

TEST_F(RefineOnGpuTest, ProfilingLeavesACapturedLaunchAlone) {
  // KLARAPTOR_MODE=profile: a captured launch is not handed to the profiler
  // plug-in (whose sweep would launch and wait); a launch that runs is (here
  // the plug-in cannot be loaded, which says so).
  ::setenv("KLARAPTOR_PROFILE_LIB", "/nonexistent/libklaraptor_profile.so", 1);
  R = std::make_unique<Runtime>(Config::parse("profile", nullptr, nullptr),
                                fakeGpu());
  R->setDeviceOverride(&Device);
  R->registerKernel(&K.Desc);
  DiagCapture Diags(R->diagnostics());
  void *Args[1] = {nullptr};
  Gpu.CapturingStream = StreamA;
  Launch L({1000});
  L.Info.args = Args;
  L.Info.stream = StreamA;
  EXPECT_EQ(R->launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(Diags.count("cannot load the profiler plug-in"), 0u);
  Gpu.CapturingStream = nullptr;
  Launch L2({1000});
  L2.Info.args = Args;
  L2.Info.stream = StreamA;
  EXPECT_EQ(R->launch(&K.Desc, &L2.Info), KLARAPTOR_UNCHANGED);
  ::unsetenv("KLARAPTOR_PROFILE_LIB");
  EXPECT_EQ(Diags.count("cannot load the profiler plug-in"), 1u);
  EXPECT_FALSE(Gpu.Invalidated);
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
