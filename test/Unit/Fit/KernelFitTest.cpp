//===- KernelFitTest.cpp - tests of KernelFit -----------------------------===//
///
/// \file
/// fitKernelSamples on made-up samples of a 2-D kernel (the pragma of
/// examples/matrix2d: data R, C; block bx, by; grid ceildiv(C, bx),
/// ceildiv(R, by)) whose metrics follow known rational formulas: the fits
/// recover them (checked at points never sampled), predictNs is MWP-CWP on
/// the inputs the rule of docs/models.md gives, and the errors name the
/// kernel.
//===----------------------------------------------------------------------===//
#include "klaraptor/model/KernelFit.h"

#include "klaraptor/mwp_cwp.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdlib.h>
#include <unistd.h>

using namespace klaraptor;
using namespace klaraptor::modelfit;

namespace {

const char *Spec = "klaraptor v1\n"
                   "kernel matrix_scale\n"
                   "loc matrix2d.cu:13:9\n"
                   "param 3 rows i32\n"
                   "param 4 cols i32\n"
                   "data R $3\n"
                   "data C $4\n"
                   "block bx by\n"
                   "where ((bx * by) >= 64)\n"
                   "grid ceildiv(C, bx)\n"
                   "grid ceildiv(R, by)\n"
                   "grid 1\n"
                   "candidates pow2\n";

struct Metrics {
  double Inst, LoadReq, LoadSec, AtomReq, AtomSec, AtomHot;
};

/// The known formulas.
Metrics metrics(double R, double C, double Bx, double By) {
  return {R * C / 8 + 4 * R * C / (Bx * By), R * C / 32, R * C / 8, C, 8 * C,
          R / By};
}

profiledb::SampleRow sample(int64_t R, int64_t C, uint32_t Bx, uint32_t By) {
  profiledb::SampleRow S;
  S.Data = {{"R", R}, {"C", C}};
  S.Block[0] = Bx;
  S.Block[1] = By;
  S.Grid[0] = uint32_t((C + Bx - 1) / Bx);
  S.Grid[1] = uint32_t((R + By - 1) / By);
  S.Registers = 24;
  S.SharedBytes = 0;
  S.Status = "ok";
  Metrics M = metrics(double(R), double(C), Bx, By);
  S.Metrics = {{"inst_executed", M.Inst},
               {"global_load_requests", M.LoadReq},
               {"global_load_sectors", M.LoadSec},
               {"global_atomic_requests", M.AtomReq},
               {"global_atomic_sectors", M.AtomSec},
               {"global_atomic_max_address_ops", M.AtomHot},
               {"registers_per_thread", 24}};
  S.TimeNs = 1000 + double(R * C) / Bx;
  return S;
}

std::vector<profiledb::SampleRow> samples() {
  std::vector<profiledb::SampleRow> Out;
  const int64_t Sizes[][2] = {{64, 128},  {128, 128}, {128, 256}, {256, 256},
                              {256, 512}, {512, 512}, {512, 1024}};
  const uint32_t Shapes[][2] = {{32, 2},  {32, 4}, {64, 1}, {64, 4},
                                {128, 2}, {16, 8}, {256, 1}};
  for (const auto &S : Sizes)
    for (const auto &B : Shapes)
      Out.push_back(sample(S[0], S[1], B[0], B[1]));
  profiledb::SampleRow Failed = sample(64, 128, 1024, 2);
  Failed.Status = "too many threads per block";
  Out.push_back(Failed);
  return Out;
}

profiledb::KernelRow kernel() {
  profiledb::KernelRow K;
  K.Id = 1;
  K.Name = "_Z12matrix_scalePfPKfS1_ii";
  K.Spec = Spec;
  return K;
}

/// A fit for h100-sxm without the bounds its measured costs add (the
/// block-dispatch rate and the same-address atomic spacing, which the
/// H200's probe measured): the models alone, as on a GPU no probe has
/// measured. The bounds' own tests set the costs.
bool fitUnbounded(const std::vector<profiledb::SampleRow> &S, KernelFit &F,
                  std::string &Error) {
  if (!fitKernelSamples(kernel(), S, "h100-sxm", KernelFitOptions(), F, Error))
    return false;
  F.Hw.block_launch_cycles = 0;
  F.AtomicSameAddressCycles = 0;
  return true;
}

class KernelFitTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Error;
    ASSERT_TRUE(fitUnbounded(samples(), Fit, Error)) << Error;
  }
  KernelFit Fit;
};

TEST_F(KernelFitTest, VariablesAndCounts) {
  EXPECT_EQ(Fit.Vars, (std::vector<std::string>{"R", "C", "bx", "by"}));
  EXPECT_EQ(Fit.DataNames, (std::vector<std::string>{"R", "C"}));
  EXPECT_EQ(Fit.SamplesUsed, 49u);
  EXPECT_EQ(Fit.SamplesFailed, 1u);
  EXPECT_EQ(Fit.GridMismatches, 0u);
  EXPECT_EQ(Fit.Blocks->str(), "(ceildiv(C, bx) * ceildiv(R, by))");
  ASSERT_EQ(Fit.Quantities.size(), KernelFit::quantityNames().size());
  for (const FittedQuantity &Q : Fit.Quantities) {
    EXPECT_TRUE(Q.exact()) << Q.Name << " ~ " << Q.form();
    EXPECT_LT(Q.heldOut(), 1e-9) << Q.Name;
  }
  EXPECT_EQ(Fit.Agree.Samples, 49u);
  EXPECT_EQ(Fit.Agree.Tuples, 7u);
}

TEST_F(KernelFitTest, ConstantsAreNotFitted) {
  for (const FittedQuantity &Q : Fit.Quantities) {
    if (Q.Name == "registers_per_thread") {
      EXPECT_TRUE(Q.IsConstant);
      EXPECT_EQ(Q.Constant, 24);
    } else if (Q.Name == "inst_barrier" || Q.Name == "shared_per_block" ||
               Q.Name == "global_store_requests" ||
               Q.Name == "global_store_sectors" ||
               Q.Name == "global_load_lines") { // not in these samples
      EXPECT_TRUE(Q.IsConstant) << Q.Name;
      EXPECT_EQ(Q.Constant, 0) << Q.Name;
    } else {
      EXPECT_FALSE(Q.IsConstant) << Q.Name;
    }
  }
}

// predictNs at points never sampled equals MWP-CWP on the inputs the known
// formulas give: the loads are coalesced (4 sectors per request, one
// transaction), the atomics uncoalesced (8 sectors, one transaction each).
TEST_F(KernelFitTest, LinesAreReadByTheLinesModelOnly) {
  // With the loads' lines among the samples' metrics, the default model
  // ("mwp-cwp-lines") reads them: its predictions are MWP-CWP's times the
  // lines a load request touches. MWP-CWP records them for the judge
  // (launchRecord) only: its predictions are those of the fit without them,
  // and its program neither defines nor evaluates their function.
  std::vector<profiledb::SampleRow> S = samples();
  for (profiledb::SampleRow &Row : S) {
    double R = double(Row.Data.at("R")), C = double(Row.Data.at("C"));
    Row.Metrics["global_load_lines"] =
        R * C / 32 + 64 * R * C / (double(Row.Block[0]) * Row.Block[1]);
  }
  KernelFit Lines;
  std::string Error;
  ASSERT_TRUE(fitUnbounded(S, Lines, Error)) << Error;
  const FittedQuantity *Q = nullptr;
  for (const FittedQuantity &F : Lines.Quantities)
    if (F.Name == "global_load_lines")
      Q = &F;
  ASSERT_NE(Q, nullptr);
  EXPECT_FALSE(Q->IsConstant);
  EXPECT_EQ(Lines.Model, "mwp-cwp-lines");
  EXPECT_FALSE(Lines.recordedOnly("global_load_lines"));
  EXPECT_FALSE(Lines.recordedOnly("global_load_sectors"));
  KernelFit Baseline = Lines;
  Baseline.Model = "mwp-cwp";
  EXPECT_TRUE(Baseline.recordedOnly("global_load_lines"));
  EXPECT_FALSE(Baseline.recordedOnly("global_load_sectors"));
  profiledb::DataTuple Data = {{"R", 1024}, {"C", 2048}};
  const uint32_t Block[3] = {32, 4, 1};
  std::map<std::string, double> Record;
  std::string Why;
  ASSERT_TRUE(Baseline.launchRecord(Data, Block, Record, Why)) << Why;
  EXPECT_NEAR(Record["global_load_lines"],
              1024.0 * 2048 / 32 + 64.0 * 1024 * 2048 / 128,
              1e-6 * Record["global_load_lines"]);
  for (const uint32_t Bx : {16u, 32u, 64u, 256u}) {
    const uint32_t B[3] = {Bx, 256 / Bx, 1};
    double WithLines = NAN, Mwp = NAN, Without = NAN;
    ASSERT_TRUE(Lines.predictNs(Data, B, WithLines, Why)) << Why;
    ASSERT_TRUE(Baseline.predictNs(Data, B, Mwp, Why)) << Why;
    ASSERT_TRUE(Fit.predictNs(Data, B, Without, Why)) << Why;
    // The fixture has no lines: its (lines) model is MWP-CWP's.
    EXPECT_EQ(Mwp, Without) << Bx;
    std::map<std::string, double> R;
    ASSERT_TRUE(Lines.launchRecord(Data, B, R, Why)) << Why;
    double PerRequest = R["global_load_lines"] / R["global_load_requests"];
    EXPECT_GT(PerRequest, 1) << Bx;
    EXPECT_NEAR(WithLines, Mwp * PerRequest, 1e-9 * WithLines) << Bx;
  }
  std::string C = Lines.emitC();
  EXPECT_NE(C.find("_global_load_lines("), std::string::npos);
  EXPECT_NE(C.find("in.load_lines_per_request = q[1] > 0 ? q[11] / q[1]"),
            std::string::npos);
  EXPECT_NE(C.find("klaraptor_mwp_cwp_lines_ns(&in, &hw)"), std::string::npos);
  C = Baseline.emitC();
  EXPECT_EQ(C.find("_global_load_lines("), std::string::npos);
  EXPECT_EQ(C.find("load_lines_per_request"), std::string::npos);
  EXPECT_NE(C.find("= 0; /* global_load_lines: fitted for the record, not "
                   "read by this model */"),
            std::string::npos);
}

TEST_F(KernelFitTest, PredictsMwpCwpOfTheKnownInputs) {
  klaraptor_mwp_cwp_hw Hw;
  ASSERT_EQ(klaraptor_mwp_cwp_hw_from_profile("h100-sxm", &Hw), 0);
  const int64_t Points[][4] = {{1000, 3000, 64, 4},
                               {4096, 4096, 32, 32},
                               {77, 5000, 128, 1},
                               {100000, 64, 16, 4}};
  for (const auto &P : Points) {
    double R = double(P[0]), C = double(P[1]), Bx = double(P[2]),
           By = double(P[3]);
    Metrics M = metrics(R, C, Bx, By);
    double Blocks = std::ceil(C / Bx) * std::ceil(R / By);
    double Warps = Blocks * std::ceil(Bx * By / 32);
    klaraptor_mwp_cwp_inputs In = {};
    In.blocks = Blocks;
    In.threads_per_block = Bx * By;
    In.regs_per_thread = 24;
    In.comp_insts = (M.Inst - M.LoadReq - M.AtomReq) / Warps;
    In.coal_mem_insts = M.LoadReq / Warps;
    In.uncoal_mem_insts = M.AtomReq / Warps;
    In.coal_per_mw = 1;
    In.uncoal_per_mw = 8;
    double Want = klaraptor_mwp_cwp_ns(&In, &Hw);

    profiledb::DataTuple Data = {{"R", P[0]}, {"C", P[1]}};
    uint32_t Block[3] = {uint32_t(P[2]), uint32_t(P[3]), 1};
    double Ns;
    std::string Why;
    ASSERT_TRUE(Fit.predictNs(Data, Block, Ns, Why)) << Why;
    EXPECT_NEAR(Ns, Want, 1e-9 * Want) << "R=" << P[0] << " C=" << P[1];
    EXPECT_GT(Ns, 0);

    klaraptor_mwp_cwp_inputs Got;
    ASSERT_TRUE(Fit.inputs(Data, Block, Got, Why)) << Why;
    EXPECT_NEAR(Got.comp_insts, In.comp_insts, 1e-9 * In.comp_insts);
    EXPECT_EQ(Got.uncoal_per_mw, 8);
    EXPECT_EQ(Got.coal_per_mw, 1);
    EXPECT_EQ(Got.blocks, Blocks);
  }
}

// The roofline model's inputs: the sectors per warp (loads R*C/8 and
// atomics 8*C over the warps) and the warps that hold data per block (the
// grid gives the extents C and R); its prediction is klaraptor_roofline_ns
// of them.
TEST_F(KernelFitTest, RooflineReadsSectorsAndActiveWarps) {
  KernelFit Roof = Fit;
  Roof.Model = "roofline";
  EXPECT_EQ(Roof.modelName().rfind("roofline/", 0), 0u);
  klaraptor_mwp_cwp_hw Hw;
  ASSERT_EQ(klaraptor_mwp_cwp_hw_from_profile("h100-sxm", &Hw), 0);
  EXPECT_GT(Hw.dram_gap, 0);
  Hw.block_launch_cycles = 0; // as the fit's (fitUnbounded)
  const int64_t Points[][4] = {{1000, 3000, 64, 4}, {77, 5000, 128, 1}};
  for (const auto &P : Points) {
    double R = double(P[0]), C = double(P[1]), Bx = double(P[2]),
           By = double(P[3]);
    double Blocks = std::ceil(C / Bx) * std::ceil(R / By);
    double Warps = Blocks * std::ceil(Bx * By / 32);
    // Rows of Bx threads, By of them: a warp holds data when its first
    // thread is inside both extents.
    double Active = 0;
    for (double Y = 0; Y < std::ceil(R / By) * By; ++Y)
      for (double X0 = 0; X0 < std::ceil(C / Bx) * Bx; X0 += 32)
        Active += Y < R && X0 < C;
    if (Bx < 32) // not the case in these points
      FAIL();
    profiledb::DataTuple Data = {{"R", P[0]}, {"C", P[1]}};
    uint32_t Block[3] = {uint32_t(P[2]), uint32_t(P[3]), 1};
    klaraptor_mwp_cwp_inputs In;
    std::string Why;
    ASSERT_TRUE(Roof.inputs(Data, Block, In, Why)) << Why;
    EXPECT_NEAR(In.sectors_per_warp, (R * C / 8 + 8 * C) / Warps,
                1e-9 * In.sectors_per_warp);
    EXPECT_NEAR(In.active_warps_per_block, Active / Blocks, 1e-12);
    double Ns;
    ASSERT_TRUE(Roof.predictNs(Data, Block, Ns, Why)) << Why;
    EXPECT_DOUBLE_EQ(Ns, klaraptor_roofline_ns(&In, &Hw));
    EXPECT_GT(Ns, 0);
  }
  std::string C = Roof.emitC();
  EXPECT_NE(C.find("return klaraptor_roofline_ns(&in, &hw);"),
            std::string::npos);
  EXPECT_NE(C.find("in.sectors_per_warp ="), std::string::npos);
  EXPECT_EQ(Fit.emitC().find("sectors_per_warp"), std::string::npos);
}

// With the device's same-address atomic spacing, a prediction is at least
// the busiest address's operations (here R / by) times it; without it, or
// for a kernel without atomics, the program has no bound.
TEST_F(KernelFitTest, SameAddressAtomicsBoundThePrediction) {
  EXPECT_FALSE(Fit.boundsByAtomics()); // spacing 0 (fitUnbounded)
  EXPECT_EQ(Fit.emitC().find("atomic_same_address_cycles"), std::string::npos);
  // h100-sxm's own: the H200 probe's 3.5 cycles.
  KernelFit Probed;
  std::string Error;
  ASSERT_TRUE(fitKernelSamples(kernel(), samples(), "h100-sxm",
                               KernelFitOptions(), Probed, Error))
      << Error;
  EXPECT_DOUBLE_EQ(Probed.AtomicSameAddressCycles, 3.49602);
  EXPECT_TRUE(Probed.boundsByAtomics());
  profiledb::DataTuple Data = {{"R", 4096}, {"C", 4096}};
  uint32_t Block[3] = {32, 4, 1};
  double Plain, Bounded;
  std::string Why;
  ASSERT_TRUE(Fit.predictNs(Data, Block, Plain, Why)) << Why;

  KernelFit Atomic = Fit;
  Atomic.AtomicSameAddressCycles = 1e6;
  EXPECT_TRUE(Atomic.boundsByAtomics());
  ASSERT_TRUE(Atomic.predictNs(Data, Block, Bounded, Why)) << Why;
  double Bound = 4096.0 / 4 * 1e6 / Fit.Hw.freq_ghz;
  ASSERT_GT(Bound, Plain);
  EXPECT_NEAR(Bounded, Bound, 1e-12 * Bound);
  EXPECT_NE(Atomic.emitC().find("timing.atomic_same_address_cycles"),
            std::string::npos);
  EXPECT_NE(Atomic.modelName(), Fit.modelName());

  // A small spacing leaves the prediction alone.
  Atomic.AtomicSameAddressCycles = 1e-9;
  ASSERT_TRUE(Atomic.predictNs(Data, Block, Bounded, Why)) << Why;
  EXPECT_EQ(Bounded, Plain);

  // No atomics on one address (the quantity is the constant 0): no bound.
  std::vector<profiledb::SampleRow> S = samples();
  for (profiledb::SampleRow &Row : S)
    Row.Metrics.erase("global_atomic_max_address_ops");
  KernelFit None;
  ASSERT_TRUE(fitUnbounded(S, None, Error)) << Error;
  None.AtomicSameAddressCycles = 1e6;
  EXPECT_FALSE(None.boundsByAtomics());
  ASSERT_TRUE(None.predictNs(Data, Block, Bounded, Why)) << Why;
  EXPECT_EQ(Bounded, Plain);
}

// With the device's block-dispatch rate, a prediction is at least the
// busiest SM's blocks times it (docs/models.md, "The block-dispatch
// bound"); without it (a GPU no probe has measured) the program has no
// bound.
TEST_F(KernelFitTest, BlockDispatchBoundsThePrediction) {
  EXPECT_EQ(Fit.Hw.block_launch_cycles, 0); // fitUnbounded
  EXPECT_EQ(Fit.emitC().find("klaraptor_dispatch_bound_ns"), std::string::npos);
  profiledb::DataTuple Data = {{"R", 4096}, {"C", 4096}};
  uint32_t Block[3] = {32, 4, 1};
  double Plain, Bounded;
  std::string Why;
  ASSERT_TRUE(Fit.predictNs(Data, Block, Plain, Why)) << Why;

  KernelFit Dispatch = Fit;
  Dispatch.Hw.block_launch_cycles = 1e6;
  ASSERT_TRUE(Dispatch.predictNs(Data, Block, Bounded, Why)) << Why;
  // 128 x 1024 blocks on 132 SMs: 993 on the busiest.
  double Bound = std::ceil(128.0 * 1024 / 132) * 1e6 / Fit.Hw.freq_ghz;
  ASSERT_GT(Bound, Plain);
  EXPECT_NEAR(Bounded, Bound, 1e-12 * Bound);
  std::string C = Dispatch.emitC();
  EXPECT_NE(C.find("klaraptor_dispatch_bound_ns(&in, &hw)"), std::string::npos);
  EXPECT_NE(C.find(".block_launch_cycles = 0x1.e848p+19,"), std::string::npos);
  EXPECT_NE(Dispatch.modelName(), Fit.modelName());

  // A small rate leaves the prediction alone.
  Dispatch.Hw.block_launch_cycles = 1e-9;
  ASSERT_TRUE(Dispatch.predictNs(Data, Block, Bounded, Why)) << Why;
  EXPECT_EQ(Bounded, Plain);
}

TEST_F(KernelFitTest, RefusesWhatItCannotPredict) {
  double Ns;
  std::string Why;
  uint32_t Block[3] = {32, 2, 2};
  EXPECT_FALSE(Fit.predictNs({{"R", 64}, {"C", 64}}, Block, Ns, Why));
  EXPECT_EQ(Why, "block dimension bz is not free in the pragma and must be 1");
  EXPECT_TRUE(std::isnan(Ns));
  Block[2] = 1;
  EXPECT_FALSE(Fit.predictNs({{"R", 64}}, Block, Ns, Why));
  EXPECT_EQ(Why, "no value for data parameter 'C'");
}

TEST_F(KernelFitTest, EmitsARegisteringProgram) {
  std::string C = Fit.emitC();
  EXPECT_EQ(C.rfind("/* generated by klaraptor fit; do not edit */", 0), 0u);
  EXPECT_NE(C.find("__attribute__((constructor))"), std::string::npos);
  EXPECT_NE(C.find("klaraptor_register_model(\"_Z12matrix_scalePfPKfS1_ii\""),
            std::string::npos);
  std::string Name = Fit.modelName();
  ASSERT_EQ(Name.size(), 14u + 16u);
  EXPECT_EQ(Name.rfind("mwp-cwp-lines/", 0), 0u);
  EXPECT_NE(C.find("\"" + Name + "\""), std::string::npos);
  // by is free: no check that it is 1; bz is not.
  EXPECT_EQ(C.find("kfit_cand->block[1] != 1"), std::string::npos);
  EXPECT_NE(C.find("kfit_cand->block[2] != 1"), std::string::npos);

  // The same fit, the same name; another device, another program and name.
  KernelFit Again, Other;
  std::string Error;
  ASSERT_TRUE(fitUnbounded(samples(), Again, Error));
  EXPECT_EQ(Again.modelName(), Name);
  EXPECT_EQ(Again.emitC(), C);
  ASSERT_TRUE(fitKernelSamples(kernel(), samples(), "t4", KernelFitOptions(),
                               Other, Error));
  EXPECT_NE(Other.modelName(), Name);
  EXPECT_NE(Fit.json().find("\"model\": \"" + Name + "\""), std::string::npos);
}

// A block shape whose launch faulted (no time) is never predicted; one that
// ran without a time estimate, or ran and was timed, is not excluded.
TEST(KernelFitFailures, FailingBlocksAreNeverPredicted) {
  std::vector<profiledb::SampleRow> S = samples();
  S.back().TimeNs = 1234; // the fixture's failure: timed, so it ran
  profiledb::SampleRow Fault = sample(128, 128, 64, 16);
  Fault.Status = "out-of-bounds shared store of 4 bytes at offset 0x200";
  Fault.TimeNs = 0;
  S.push_back(Fault);
  profiledb::SampleRow NoEstimate = sample(128, 128, 32, 32);
  NoEstimate.Status = "no time estimate: the timing simulation ran out";
  NoEstimate.TimeNs = 0;
  S.push_back(NoEstimate);
  KernelFit F;
  std::string Error;
  ASSERT_TRUE(fitKernelSamples(kernel(), S, "h100-sxm", KernelFitOptions(), F,
                               Error))
      << Error;
  ASSERT_EQ(F.FailingBlocks.size(), 1u);
  EXPECT_EQ(F.FailingBlocks[0], (std::array<uint32_t, 3>{64, 16, 1}));
  bool Warned = false;
  for (const std::string &W : F.Warnings)
    Warned |= W.find("failed in the profile with block 64x16x1 (1 sample; "
                     "the first: out-of-bounds shared store") !=
              std::string::npos;
  EXPECT_TRUE(Warned);
  double Ns;
  std::string Why;
  uint32_t Bad[3] = {64, 16, 1}, Good[3] = {32, 32, 1};
  EXPECT_FALSE(F.predictNs({{"R", 1024}, {"C", 1024}}, Bad, Ns, Why));
  EXPECT_EQ(Why, "the kernel failed with block 64x16x1 in the profile");
  EXPECT_TRUE(F.predictNs({{"R", 1024}, {"C", 1024}}, Good, Ns, Why)) << Why;
  std::string C = F.emitC();
  EXPECT_NE(C.find("static const uint32_t failing[][3] = {{64u, 16u, 1u}};"),
            std::string::npos);
  EXPECT_NE(F.json().find("\"failing_blocks\": [\"64x16x1\"]"),
            std::string::npos);
  // Without failures the program has no such table (the examples' programs
  // are unchanged).
  KernelFit Clean;
  ASSERT_TRUE(fitKernelSamples(kernel(), samples(), "h100-sxm",
                               KernelFitOptions(), Clean, Error));
  EXPECT_TRUE(Clean.FailingBlocks.empty());
  EXPECT_EQ(Clean.emitC().find("failing"), std::string::npos);
}

TEST(KernelFitErrors, TooFewSamples) {
  std::vector<profiledb::SampleRow> Few = {sample(64, 64, 32, 2),
                                           sample(64, 64, 64, 1)};
  Few.push_back(Few[0]);
  Few.back().Status = "launch failed";
  KernelFit Fit;
  std::string Error;
  EXPECT_FALSE(fitKernelSamples(kernel(), Few, "h100-sxm", KernelFitOptions(),
                                Fit, Error));
  EXPECT_EQ(Error,
            "kernel matrix_scale (_Z12matrix_scalePfPKfS1_ii): too few samples to "
            "fit: 2 usable (status ok) of 3 recorded, at least 6 needed");
}

TEST(KernelFitErrors, BadSpecAndDevice) {
  KernelFit Fit;
  std::string Error;
  profiledb::KernelRow K = kernel();
  K.Spec = "klaraptor v9\n";
  EXPECT_FALSE(fitKernelSamples(K, samples(), "h100-sxm", KernelFitOptions(),
                                Fit, Error));
  EXPECT_EQ(Error.rfind("kernel _Z12matrix_scalePfPKfS1_ii: the recorded "
                        "spec cannot be parsed: ",
                        0),
            0u)
      << Error;
  EXPECT_FALSE(fitKernelSamples(kernel(), samples(), "no-such-gpu",
                                KernelFitOptions(), Fit, Error));
  EXPECT_EQ(Error.rfind("device profile 'no-such-gpu': ", 0), 0u) << Error;
}

} // namespace

// The grid's data extents come from the ceildiv formulas, and activeWarps
// counts, for any data and block shape, the warps with a thread inside the
// data as enumerating every thread of the grid does.
TEST_F(KernelFitTest, CountsActiveWarps) {
  ASSERT_TRUE(Fit.Extents[0] && Fit.Extents[1] && Fit.Extents[2]);
  EXPECT_EQ(Fit.Extents[0]->str(), "C");
  EXPECT_EQ(Fit.Extents[1]->str(), "R");
  EXPECT_EQ(Fit.Extents[2]->str(), "1");
  auto Enumerate = [](int64_t R, int64_t C, int64_t Bx, int64_t By) {
    int64_t Warps = (Bx * By + 31) / 32, Total = 0;
    for (int64_t IX = 0; IX < (C + Bx - 1) / Bx; ++IX)
      for (int64_t IY = 0; IY < (R + By - 1) / By; ++IY) {
        std::vector<bool> Seen(size_t(Warps), false);
        for (int64_t Y = 0; Y < By; ++Y)
          for (int64_t X = 0; X < Bx; ++X)
            if (IY * By + Y < R && IX * Bx + X < C)
              Seen[size_t((X + Bx * Y) / 32)] = true;
        for (bool S : Seen)
          Total += S;
      }
    return double(Total);
  };
  const int64_t Sizes[][2] = {{1, 1}, {7, 33}, {64, 64}, {100, 37}, {257, 3}};
  const int64_t Shapes[][2] = {{1, 32},  {3, 5},   {32, 1},  {8, 8},
                               {16, 16}, {64, 2},  {6, 11},  {1024, 1},
                               {1, 1024}, {40, 3}, {128, 8}};
  for (const auto &S : Sizes)
    for (const auto &B : Shapes) {
      std::vector<int64_t> X = {S[0], S[1], B[0], B[1]};
      EXPECT_EQ(Fit.activeWarps(X), Enumerate(S[0], S[1], B[0], B[1]))
          << "R=" << S[0] << " C=" << S[1] << " bx=" << B[0]
          << " by=" << B[1];
    }
  EXPECT_EQ(Fit.activeWarps({0, 5, 32, 1}), 0);
  EXPECT_TRUE(std::isnan(Fit.activeWarps({5, 5, 0, 1})));
  EXPECT_TRUE(std::isnan(Fit.activeWarps({5, 5})));
}

// Totals with ceil effects: per active warp they are exact, and the fit
// takes that scale (the idle warps' instructions found), where fitting the
// totals is not exact.
TEST(KernelFitScales, FitsPerActiveWarp) {
  KernelFit Probe;
  std::string Error;
  ASSERT_TRUE(fitKernelSamples(kernel(), samples(), "h100-sxm",
                               KernelFitOptions(), Probe, Error))
      << Error;
  std::vector<profiledb::SampleRow> Rows;
  for (int64_t R : {20, 30, 44, 60, 90, 130})
    for (uint32_t Bx : {4u, 8u, 16u, 32u, 64u, 128u})
      for (uint32_t By : {1u, 2u, 4u, 8u, 16u}) {
        if (Bx * By < 64 || Bx * By > 512)
          continue;
        int64_t C = R + 17;
        profiledb::SampleRow S = sample(R, C, Bx, By);
        std::vector<int64_t> X = {R, C, int64_t(Bx), int64_t(By)};
        double Active = Probe.activeWarps(X);
        double Warps = double((C + Bx - 1) / Bx) * double((R + By - 1) / By) *
                       std::ceil(double(Bx * By) / 32);
        S.Metrics["inst_executed"] = (3 * double(C) + 20) * Active +
                                     11 * (Warps - Active);
        S.Metrics["global_load_requests"] = 2 * Active;
        S.Metrics["global_load_sectors"] = 8 * Active;
        S.Metrics["global_atomic_requests"] = 0;
        S.Metrics["global_atomic_sectors"] = 0;
        Rows.push_back(S);
      }
  KernelFit F;
  ASSERT_TRUE(
      fitKernelSamples(kernel(), Rows, "h100-sxm", KernelFitOptions(), F, Error))
      << Error;
  const FittedQuantity &Inst = F.Quantities[0];
  ASSERT_EQ(Inst.Name, "inst_executed");
  EXPECT_EQ(Inst.Scale, QuantityScale::PerActiveWarp) << Inst.form();
  EXPECT_EQ(Inst.IdleWarp, 11);
  EXPECT_TRUE(Inst.exact()) << Inst.form();
  EXPECT_GT(Inst.TotalHeldOut, 1e-3);
  const FittedQuantity &Sectors = F.Quantities[2];
  EXPECT_EQ(Sectors.Scale, QuantityScale::PerActiveWarp) << Sectors.form();
  EXPECT_EQ(Sectors.form(), "(8) * active_warps");
  // Far outside the samples, the program predicts the known totals.
  klaraptor_mwp_cwp_inputs In;
  uint32_t Block[3] = {32, 4, 1};
  ASSERT_TRUE(F.inputs({{"R", 5000}, {"C", 5017}}, Block, In, Error)) << Error;
  std::vector<int64_t> X = {5000, 5017, 32, 4};
  double Active = F.activeWarps(X);
  double Warps = In.blocks * 4;
  double Inst5000 = (3 * 5017.0 + 20) * Active + 11 * (Warps - Active);
  EXPECT_NEAR(In.coal_mem_insts * Warps, 2 * Active, 1e-6 * Active);
  EXPECT_NEAR(In.comp_insts * Warps, Inst5000 - 2 * Active, 1e-9 * Inst5000);
}

// The warp's shape: min(bx, 32) threads of a row, as many rows and planes
// as 32 threads make (worked out by hand: a warp is 32 consecutive threads
// x + bx*(y + by*z)).
TEST(KernelFitWarpShape, WarpShapes) {
  const int64_t Cases[][6] = {
      {1024, 1, 1, 32, 1, 1}, {64, 16, 1, 32, 1, 1}, {32, 8, 1, 32, 1, 1},
      {16, 16, 1, 16, 2, 1},  {8, 128, 1, 8, 4, 1},  {1, 1024, 1, 1, 32, 1},
      {8, 2, 4, 8, 2, 2},     {4, 4, 4, 4, 4, 2},    {2, 2, 1, 2, 2, 1},
      {96, 1, 1, 32, 1, 1},   {3, 5, 7, 3, 5, 3},    {0, 0, 0, 1, 1, 1}};
  for (const auto &C : Cases) {
    int64_t W[3];
    warpShape(C, W);
    EXPECT_EQ(W[0], C[3]) << C[0] << "x" << C[1] << "x" << C[2];
    EXPECT_EQ(W[1], C[4]) << C[0] << "x" << C[1] << "x" << C[2];
    EXPECT_EQ(W[2], C[5]) << C[0] << "x" << C[1] << "x" << C[2];
  }
}

// The variables of a per-request fit: the data as they are, the free block
// dims replaced by the warp's shape.
TEST_F(KernelFitTest, WarpVariables) {
  EXPECT_EQ(Fit.warpVariables({500, 700, 1024, 1}),
            (std::vector<int64_t>{500, 700, 32, 1}));
  EXPECT_EQ(Fit.warpVariables({500, 700, 16, 16}),
            (std::vector<int64_t>{500, 700, 16, 2}));
  EXPECT_EQ(Fit.warpVariables({500, 700, 4, 2}),
            (std::vector<int64_t>{500, 700, 4, 2}));
  EXPECT_EQ(KernelFit::requestQuantity("global_load_sectors"), 1);
  EXPECT_EQ(KernelFit::requestQuantity("global_load_lines"), 1);
  EXPECT_EQ(KernelFit::requestQuantity("global_store_sectors"), 3);
  EXPECT_EQ(KernelFit::requestQuantity("global_atomic_sectors"), 5);
  EXPECT_EQ(KernelFit::requestQuantity("inst_executed"), -1);
}

/// Load sectors per request of a matrix product's warp: one sector per row
/// for the row operand, the column operand's sectors for the warp's width.
static double productSectorsPerRequest(int64_t Bx, int64_t By) {
  int64_t B[3] = {Bx, By, 1}, W[3];
  warpShape(B, W);
  return (double(W[1]) + double((W[0] + 7) / 8)) / 2;
}

/// Samples at R = C = 64 ... 256 of blocks of 64 to 512 threads at most 128
/// wide, with 2R loads a warp of productSectorsPerRequest sectors each;
/// \p More adds metrics (given the sample, its warps and its loads).
static std::vector<profiledb::SampleRow> productSamples(
    const std::function<void(profiledb::SampleRow &, double, double)> &More) {
  std::vector<profiledb::SampleRow> Rows;
  for (int64_t R : {64, 96, 128, 192, 256})
    for (uint32_t Bx : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u})
      for (uint32_t By : {1u, 2u, 4u, 8u, 16u, 32u, 64u}) {
        if (Bx * By < 64 || Bx * By > 512)
          continue;
        profiledb::SampleRow S = sample(R, R, Bx, By);
        double Warps = double((R + Bx - 1) / Bx) * double((R + By - 1) / By) *
                       std::ceil(double(Bx * By) / 32);
        double Loads = 2 * double(R) * Warps;
        S.Metrics["global_load_requests"] = Loads;
        S.Metrics["global_load_sectors"] =
            Loads * productSectorsPerRequest(Bx, By);
        More(S, Warps, Loads);
        Rows.push_back(S);
      }
  return Rows;
}

// Sectors per request that follow the warp's shape, profiled on blocks at
// most 128 wide: fitted per request on the warp's shape, a 1024x1 block's
// are a 32x1 block's far outside the profile; a fit in the block's width
// need not know that.
TEST(KernelFitScales, FitsSectorsPerRequestOnTheWarpShape) {
  std::vector<profiledb::SampleRow> Rows =
      productSamples([](profiledb::SampleRow &, double, double) {});
  auto PerRequest = productSectorsPerRequest;
  KernelFit F;
  std::string Error;
  ASSERT_TRUE(
      fitKernelSamples(kernel(), Rows, "h100-sxm", KernelFitOptions(), F, Error))
      << Error;
  const FittedQuantity &Sectors = F.Quantities[2];
  ASSERT_EQ(Sectors.Name, "global_load_sectors");
  EXPECT_EQ(Sectors.Scale, QuantityScale::PerRequest) << Sectors.form();
  // Every profiled block has a warp's threads or more, so the warp's rows
  // are 32 / its width: the fit is not unique (not exact), but it
  // reproduces the data to rounding.
  EXPECT_LT(Sectors.heldOut(), 1e-9) << Sectors.form();
  const uint32_t Shapes[][3] = {
      {1024, 1, 1}, {256, 4, 1}, {16, 16, 1}, {1, 1024, 1}, {8, 64, 1}};
  for (const auto &B : Shapes) {
    std::map<std::string, double> Record;
    ASSERT_TRUE(F.launchRecord({{"R", 4096}, {"C", 4096}}, B, Record, Error))
        << Error;
    EXPECT_NEAR(Record["global_load_sectors"] / Record["global_load_requests"],
                PerRequest(B[0], B[1]), 1e-9)
        << B[0] << "x" << B[1];
  }
  EXPECT_NE(F.emitC().find("kfit_w[0] = kfit_b[0] < 32 ? kfit_b[0] : 32;"),
            std::string::npos);
}

// A quantity that is a multiple of a fit per request is that fit only if
// it is of the same kind: store sectors three times the load sectors, with
// one store per 2R loads, are not three times the load sectors' ratio per
// store request.
TEST(KernelFitScales, AMultipleOfAnotherKindsRatioIsFittedItself) {
  std::vector<profiledb::SampleRow> Rows =
      productSamples([](profiledb::SampleRow &S, double Warps, double) {
        S.Metrics["global_store_requests"] = Warps;
        S.Metrics["global_store_sectors"] = 3 * S.Metrics["global_load_sectors"];
      });
  KernelFit F;
  std::string Error;
  ASSERT_TRUE(
      fitKernelSamples(kernel(), Rows, "h100-sxm", KernelFitOptions(), F, Error))
      << Error;
  ASSERT_EQ(F.Quantities[2].Scale, QuantityScale::PerRequest);
  const FittedQuantity &Stores = F.Quantities[4];
  ASSERT_EQ(Stores.Name, "global_store_sectors");
  EXPECT_TRUE(Stores.MultipleOf.empty()) << Stores.MultipleOf;
  std::map<std::string, double> Record;
  const uint32_t Block[3] = {32, 8, 1};
  ASSERT_TRUE(F.launchRecord({{"R", 1024}, {"C", 1024}}, Block, Record, Error))
      << Error;
  EXPECT_NEAR(Record["global_store_sectors"] / Record["global_load_sectors"], 3,
              0.3);
}

// The rows `fit` and `report` use: per kernel the newest (a changed pragma
// adds a row), only the names asked for.
TEST(KernelFitSelection, NewestRowPerKernel) {
  std::vector<profiledb::KernelRow> Rows(4);
  const char *Names[] = {"a", "b", "a", "c"};
  for (size_t I = 0; I < Rows.size(); ++I) {
    Rows[I].Id = int64_t(I + 1);
    Rows[I].Name = Names[I];
  }
  std::vector<const profiledb::KernelRow *> Older;
  auto All = newestKernelRows(Rows, {}, &Older);
  ASSERT_EQ(All.size(), 3u);
  EXPECT_EQ(All[0]->Id, 2); // b
  EXPECT_EQ(All[1]->Id, 3); // the newer a
  EXPECT_EQ(All[2]->Id, 4); // c
  ASSERT_EQ(Older.size(), 1u);
  EXPECT_EQ(Older[0]->Id, 1);
  auto Only = newestKernelRows(Rows, {"a", "zz"});
  ASSERT_EQ(Only.size(), 1u);
  EXPECT_EQ(Only[0]->Id, 3);
}

// The folder `fit` writes: one program per fit and the report, which names
// the failures; an unwritable folder is an error naming the file.
TEST_F(KernelFitTest, WritesTheModelsFolder) {
  char Dir[] = "/tmp/klaraptor-models-XXXXXX";
  ASSERT_NE(::mkdtemp(Dir), nullptr);
  std::vector<std::string> Files;
  std::string Report, Error;
  ASSERT_TRUE(writeModels(Dir, "p.db", "h100-sxm", {Fit},
                          {{"_Z3badv", "too few samples"}}, Files, Report,
                          Error))
      << Error;
  ASSERT_EQ(Files.size(), 1u);
  EXPECT_EQ(Files[0], std::string(Dir) + "/" + Fit.fileStem() + ".c");
  std::ifstream C(Files[0]);
  std::string Text((std::istreambuf_iterator<char>(C)),
                   std::istreambuf_iterator<char>());
  EXPECT_EQ(Text, Fit.emitC());
  EXPECT_NE(Report.find("\"db\": \"p.db\""), std::string::npos);
  EXPECT_NE(Report.find("{\"kernel\": \"_Z3badv\", \"error\": \"too few "
                        "samples\"}"),
            std::string::npos);
  std::ifstream R(std::string(Dir) + "/fit-report.json");
  std::string Written((std::istreambuf_iterator<char>(R)),
                      std::istreambuf_iterator<char>());
  EXPECT_EQ(Written, Report);
  std::remove(Files[0].c_str());
  std::remove((std::string(Dir) + "/fit-report.json").c_str());
  ::rmdir(Dir);
  EXPECT_FALSE(writeModels(std::string(Dir) + "/missing", "p.db", "h100-sxm",
                           {Fit}, {}, Files, Report, Error));
  EXPECT_NE(Error.find("/missing/"), std::string::npos) << Error;
}
