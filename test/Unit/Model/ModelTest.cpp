//===- ModelTest.cpp - MWP-CWP, parameters, registry, metrics mapping -----===//
///
/// \file
/// Hand-computed MWP-CWP cases for each Exec branch, the guarded divisions,
/// occupancy through profiler/devices, monotonicity in the number of blocks,
/// the metrics -> inputs mapping, the registry, and every shipped device
/// profile's MWP parameters.
//===----------------------------------------------------------------------===//
#include "klaraptor/model/PerformanceModel.h"
#include "Occupancy.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace klaraptor;
using namespace klaraptor::model;

extern "C" double klaraptorModelTestFromC(int *Status);

namespace {

/// Round numbers for hand computation: Mem_LD 400, departure delays 4/10,
/// one cycle per instruction, 1 GHz, unlimited bandwidth, one SM; the
/// occupancy limits are H100's.
klaraptor_mwp_cwp_hw handHw() {
  HardwareParams H;
  std::string Error;
  EXPECT_TRUE(loadHardwareParams("h100-sxm", H, Error)) << Error;
  klaraptor_mwp_cwp_hw W = H.Mwp;
  W.mem_ld = 400;
  W.departure_del_coal = 4;
  W.departure_del_uncoal = 10;
  W.issue_cycles = 1;
  W.freq_ghz = 1;
  W.mem_bandwidth_gbs = 0;
  W.load_bytes_per_warp = 128;
  W.active_sms = 1;
  // The hand-computed cases have no block-dispatch bound (its tests set
  // the rate).
  W.block_launch_cycles = 0;
  return W;
}

klaraptor_mwp_cwp_inputs in(double Comp, double Coal, double Warps,
                            double ABPS, double Blocks) {
  klaraptor_mwp_cwp_inputs I{};
  I.comp_insts = Comp;
  I.coal_mem_insts = Coal;
  I.coal_per_mw = 1;
  I.uncoal_per_mw = 1;
  I.threads_per_block = 32 * Warps;
  I.active_blocks_per_sm = ABPS;
  I.blocks = Blocks;
  return I;
}

TEST(MwpCwp, CaseOneMwpAndCwpEqualN) {
  // N = 1 warp x 2 blocks = 2; Mem_L = 400, Departure_delay = 4,
  // MWP = min(100, 2) = 2; Comp_cycles = 101, Mem_cycles = 400,
  // CWP = min(501/101, 2) = 2; Rep = 2/(2*1) = 1.
  // Exec = (400 + 101 + 101/1*(2-1)) * 1 = 602.
  klaraptor_mwp_cwp_hw W = handHw();
  klaraptor_mwp_cwp_inputs I = in(100, 1, 1, 2, 2);
  klaraptor_mwp_cwp_terms T{};
  EXPECT_DOUBLE_EQ(klaraptor_mwp_cwp_evaluate(&I, &W, &T), 602);
  EXPECT_EQ(T.exec_case, 1);
  EXPECT_DOUBLE_EQ(T.n, 2);
  EXPECT_DOUBLE_EQ(T.mwp, 2);
  EXPECT_DOUBLE_EQ(T.cwp, 2);
  EXPECT_DOUBLE_EQ(T.rep, 1);
}

TEST(MwpCwp, CaseTwoBandwidthBound) {
  // N = 8 (8 warps, 1 block). BW_per_warp = 1 * 128 / 400 = 0.32;
  // Mem_bandwidth 1.28 / (0.32 * 1) = 4 = MWP < N. Comp_cycles = 101,
  // CWP = min(501/101, 8) = 4.96 >= MWP.
  // Exec = (400 * 8/4 + 101/1 * 3) * 1 = 1103;
  // Synch_cost = 4 * (4-1) * 2 * 1 * 1 = 24.
  klaraptor_mwp_cwp_hw W = handHw();
  W.mem_bandwidth_gbs = 1.28;
  klaraptor_mwp_cwp_inputs I = in(100, 1, 8, 1, 1);
  I.synch_insts = 2;
  klaraptor_mwp_cwp_terms T{};
  EXPECT_DOUBLE_EQ(klaraptor_mwp_cwp_evaluate(&I, &W, &T), 1127);
  EXPECT_EQ(T.exec_case, 2);
  EXPECT_DOUBLE_EQ(T.bw_per_warp, 0.32);
  EXPECT_DOUBLE_EQ(T.mwp, 4);
  EXPECT_DOUBLE_EQ(T.exec, 1103);
  EXPECT_DOUBLE_EQ(T.synch_cost, 24);
}

TEST(MwpCwp, CaseThree) {
  // N = 8, MWP = min(400/4, 8) = 8; Comp_cycles = 201 <= Mem_cycles = 400,
  // CWP = 601/201 < MWP. Exec = (400 + 201 * 8) * 1 = 2008.
  klaraptor_mwp_cwp_hw W = handHw();
  klaraptor_mwp_cwp_inputs I = in(200, 1, 8, 1, 1);
  klaraptor_mwp_cwp_terms T{};
  EXPECT_DOUBLE_EQ(klaraptor_mwp_cwp_evaluate(&I, &W, &T), 2008);
  EXPECT_EQ(T.exec_case, 3);
  EXPECT_LT(T.cwp, T.mwp);
}

TEST(MwpCwp, UncoalescedLatencyAndWeights) {
  // One coalesced and one uncoalesced instruction of 4 transactions:
  // Mem_L_Uncoal = 400 + 3*10 = 430, W = 1/2 each, Mem_L = 415,
  // Departure_delay = 10*4/2 + 4/2 = 22, Mem_cycles = 430 + 400 = 830.
  klaraptor_mwp_cwp_hw W = handHw();
  klaraptor_mwp_cwp_inputs I = in(100, 1, 8, 1, 1);
  I.uncoal_mem_insts = 1;
  I.uncoal_per_mw = 4;
  klaraptor_mwp_cwp_terms T{};
  klaraptor_mwp_cwp_evaluate(&I, &W, &T);
  EXPECT_DOUBLE_EQ(T.mem_l_uncoal, 430);
  EXPECT_DOUBLE_EQ(T.mem_l, 415);
  EXPECT_DOUBLE_EQ(T.departure_delay, 22);
  EXPECT_DOUBLE_EQ(T.mem_cycles, 830);
  EXPECT_DOUBLE_EQ(T.mwp_no_bw, std::min(415.0 / 22, 8.0));
}

TEST(MwpCwp, GuardNoMemoryInstructions) {
  // Exec = Comp_cycles * N * Rep = 100 * 8 * 1.
  klaraptor_mwp_cwp_hw W = handHw();
  klaraptor_mwp_cwp_inputs I = in(100, 0, 8, 1, 1);
  I.synch_insts = 3;
  klaraptor_mwp_cwp_terms T{};
  EXPECT_DOUBLE_EQ(klaraptor_mwp_cwp_evaluate(&I, &W, &T), 800);
  EXPECT_EQ(T.exec_case, 0);
  EXPECT_DOUBLE_EQ(T.mwp, 8);
}

TEST(MwpCwp, GuardNoComputeAndEmptyKernel) {
  klaraptor_mwp_cwp_hw W = handHw();
  // Nothing at all: 0 cycles.
  klaraptor_mwp_cwp_inputs Empty = in(0, 0, 8, 1, 1);
  EXPECT_DOUBLE_EQ(klaraptor_mwp_cwp_cycles(&Empty, &W), 0);
  // Memory only with zero issue cost: Comp_cycles = 0, CWP = N, finite.
  W.issue_cycles = 0;
  klaraptor_mwp_cwp_inputs MemOnly = in(0, 2, 8, 1, 1);
  klaraptor_mwp_cwp_terms T{};
  double C = klaraptor_mwp_cwp_evaluate(&MemOnly, &W, &T);
  EXPECT_TRUE(std::isfinite(C));
  EXPECT_GT(C, 0);
  EXPECT_DOUBLE_EQ(T.cwp, 8);
  // No departure delay and no latency: every bound falls back to N.
  W.mem_ld = 0;
  W.departure_del_coal = 0;
  W.mem_bandwidth_gbs = 100;
  C = klaraptor_mwp_cwp_evaluate(&MemOnly, &W, &T);
  EXPECT_TRUE(std::isfinite(C));
  EXPECT_DOUBLE_EQ(T.mwp, 8);
}

TEST(MwpCwp, GuardZeroBlocksAndUnfitBlocks) {
  klaraptor_mwp_cwp_hw W = handHw();
  klaraptor_mwp_cwp_inputs I = in(100, 1, 8, 0, 0);
  EXPECT_DOUBLE_EQ(klaraptor_mwp_cwp_cycles(&I, &W), 0);
  EXPECT_DOUBLE_EQ(klaraptor_mwp_cwp_ns(&I, &W), 0);
  // 2048 threads do not fit in one block: occupancy 0, +infinity.
  I.blocks = 10;
  I.threads_per_block = 2048;
  EXPECT_TRUE(std::isinf(klaraptor_mwp_cwp_cycles(&I, &W)));
  // No threads: +infinity, not a division by zero.
  I.threads_per_block = 0;
  EXPECT_TRUE(std::isinf(klaraptor_mwp_cwp_cycles(&I, &W)));
  EXPECT_TRUE(std::isinf(klaraptor_mwp_cwp_cycles(nullptr, &W)));
}

TEST(MwpCwp, OccupancyFromTheProfile) {
  HardwareParams H;
  std::string Error;
  ASSERT_TRUE(loadHardwareParams("h100-sxm", H, Error)) << Error;
  Inputs In;
  In.set("comp_insts", 100);
  In.set("coal_mem_insts", 2);
  In.set("coal_per_mw", 1);
  In.set("blocks", 1000);
  In.set("threads_per_block", 256);
  In.set("regs_per_thread", 32);
  // 8 warps per block: 64/8 = 8 blocks by warps, 32 regs allow 64 warps.
  klaraptor_mwp_cwp_terms T = MwpCwpModel::evaluate(In, H);
  EXPECT_DOUBLE_EQ(T.active_blocks_per_sm, 8);
  EXPECT_DOUBLE_EQ(T.n, 64);
  // 128 registers: as the occupancy calculator says (2 blocks).
  In.set("regs_per_thread", 128);
  devices::KernelResources K;
  K.Registers = 128;
  devices::Occupancy O = devices::computeOccupancy(H.Profile, K, 256, 0);
  T = MwpCwpModel::evaluate(In, H);
  EXPECT_DOUBLE_EQ(T.active_blocks_per_sm, O.ActiveBlocks);
  EXPECT_DOUBLE_EQ(T.active_blocks_per_sm, 2);
  // Shared memory limits too: 100 KB per block -> 2 blocks in 228 KB.
  In.set("regs_per_thread", 32);
  In.set("shared_per_block", 100 * 1024);
  T = MwpCwpModel::evaluate(In, H);
  EXPECT_DOUBLE_EQ(T.active_blocks_per_sm, 2);
}

TEST(MwpCwp, MoreBlocksMoreCycles) {
  HardwareParams H;
  std::string Error;
  ASSERT_TRUE(loadHardwareParams("h100-sxm", H, Error)) << Error;
  MwpCwpModel M;
  Inputs In;
  In.set("comp_insts", 50);
  In.set("coal_mem_insts", 4);
  In.set("uncoal_mem_insts", 1);
  In.set("coal_per_mw", 1);
  In.set("uncoal_per_mw", 8);
  In.set("synch_insts", 1);
  In.set("threads_per_block", 128);
  In.set("regs_per_thread", 40);
  double Prev = 0;
  for (double B = 1; B <= 20000; B += 37) {
    In.set("blocks", B);
    double C = M.predictCycles(In, H);
    ASSERT_TRUE(std::isfinite(C));
    EXPECT_GE(C, Prev) << "blocks " << B;
    Prev = C;
  }
  // Whole waves: twice the waves, twice the cycles.
  double Wave = MwpCwpModel::evaluate(In, H).active_blocks_per_sm * 132;
  In.set("blocks", Wave);
  double One = M.predictCycles(In, H);
  In.set("blocks", 2 * Wave);
  EXPECT_DOUBLE_EQ(M.predictCycles(In, H), 2 * One);
  EXPECT_DOUBLE_EQ(M.predictNs(In, H), 2 * One / 1.98);
}

//===-- The wave model -----------------------------------------------------===//

/// Bandwidth-bound inputs on 4 SMs with 3 resident blocks of 2 warps each:
/// MWP-CWP's second case, where a wave's time grows with its warps.
klaraptor_mwp_cwp_hw wavesHw() {
  klaraptor_mwp_cwp_hw W = handHw();
  W.active_sms = 4;
  W.mem_bandwidth_gbs = 1; // BW_per_warp * SMs far above: MWP = 1
  return W;
}

TEST(Waves, FullWavesAreMwpCwpWaves) {
  // 4 SMs x 3 blocks x 5 waves: MWP-CWP's Rep = 5, the wave model 5 full
  // waves of the same cost and no tail.
  klaraptor_mwp_cwp_hw W = wavesHw();
  klaraptor_mwp_cwp_inputs I = in(100, 4, 2, 3, 60);
  klaraptor_waves_terms T{};
  double Waves = klaraptor_waves_evaluate(&I, &W, &T);
  EXPECT_DOUBLE_EQ(T.active_sms, 4);
  EXPECT_DOUBLE_EQ(T.busiest_sm_blocks, 15);
  EXPECT_DOUBLE_EQ(T.full_waves, 5);
  EXPECT_DOUBLE_EQ(T.tail_blocks, 0);
  EXPECT_DOUBLE_EQ(T.tail_cycles, 0);
  EXPECT_NEAR(Waves, klaraptor_mwp_cwp_cycles(&I, &W), 1e-9 * Waves);
  // One wave by itself is what MWP-CWP gives for exactly one wave.
  klaraptor_mwp_cwp_inputs One = in(100, 4, 2, 3, 12);
  EXPECT_NEAR(T.wave_cycles, klaraptor_mwp_cwp_cycles(&One, &W),
              1e-9 * T.wave_cycles);
}

TEST(Waves, TheTailWaveRunsWithItsOwnWarps) {
  // 13 blocks on 4 SMs: the busiest SM gets 4 = one wave of 3 and a tail
  // of 1 block (2 warps), costed as MWP-CWP with N = 2.
  klaraptor_mwp_cwp_hw W = wavesHw();
  klaraptor_mwp_cwp_inputs I = in(100, 4, 2, 3, 13);
  klaraptor_waves_terms T{};
  double C = klaraptor_waves_evaluate(&I, &W, &T);
  EXPECT_DOUBLE_EQ(T.busiest_sm_blocks, 4);
  EXPECT_DOUBLE_EQ(T.full_waves, 1);
  EXPECT_DOUBLE_EQ(T.tail_blocks, 1);
  klaraptor_mwp_cwp_inputs Tail = in(100, 4, 2, 1, 4);
  klaraptor_mwp_cwp_terms TT{};
  double TailCycles = klaraptor_mwp_cwp_evaluate(&Tail, &W, &TT);
  EXPECT_DOUBLE_EQ(TT.n, 2);
  EXPECT_DOUBLE_EQ(T.tail_cycles, TailCycles);
  EXPECT_DOUBLE_EQ(C, T.wave_cycles + TailCycles);
  // Bandwidth-bound: the tail (2 warps) costs a third of a full wave (6).
  EXPECT_NEAR(T.tail_cycles / T.wave_cycles, 1.0 / 3, 0.02);
  // MWP-CWP spreads the 13 blocks evenly: 13/12 of a wave.
  EXPECT_NEAR(klaraptor_mwp_cwp_cycles(&I, &W), 13.0 / 12 * T.wave_cycles,
              1e-9 * C);
}

TEST(Waves, TheBusiestSmDecides) {
  // 40 warps of work on 9 SMs, in blocks of 1 warp (40 blocks) or of 4
  // warps (10 blocks). MWP-CWP spreads either evenly (40/9 warps per SM)
  // and gives both the same time. On the GPU the busiest SM gets
  // ceil(40/9) = 5 one-warp blocks (5 warps) or ceil(10/9) = 2 four-warp
  // blocks (8 warps); bandwidth-bound, time grows with the warps: 5/8.
  klaraptor_mwp_cwp_hw W = wavesHw();
  W.active_sms = 9;
  klaraptor_mwp_cwp_inputs Small = in(100, 4, 1, 16, 40);
  klaraptor_mwp_cwp_inputs Large = in(100, 4, 4, 4, 10);
  EXPECT_NEAR(klaraptor_mwp_cwp_cycles(&Small, &W),
              klaraptor_mwp_cwp_cycles(&Large, &W),
              1e-9 * klaraptor_mwp_cwp_cycles(&Small, &W));
  klaraptor_waves_terms TS{}, TL{};
  double S = klaraptor_waves_evaluate(&Small, &W, &TS);
  double L = klaraptor_waves_evaluate(&Large, &W, &TL);
  EXPECT_DOUBLE_EQ(TS.busiest_sm_blocks, 5);
  EXPECT_DOUBLE_EQ(TL.busiest_sm_blocks, 2);
  EXPECT_LT(S, L);
  EXPECT_NEAR(S / L, 5.0 / 8, 0.05);
}

TEST(Waves, GuardsAndNanoseconds) {
  klaraptor_mwp_cwp_hw W = wavesHw();
  klaraptor_mwp_cwp_inputs I = in(100, 4, 2, 3, 0);
  EXPECT_EQ(klaraptor_waves_evaluate(&I, &W, nullptr), 0);
  EXPECT_EQ(klaraptor_waves_ns(&I, &W), 0);
  I.blocks = 7;
  I.threads_per_block = 0;
  EXPECT_TRUE(std::isinf(klaraptor_waves_evaluate(&I, &W, nullptr)));
  EXPECT_TRUE(std::isinf(klaraptor_waves_evaluate(nullptr, &W, nullptr)));
  I = in(100, 4, 2, 0, 7);
  I.threads_per_block = 64;
  I.shared_per_block = 1e9; // cannot be resident
  EXPECT_TRUE(std::isinf(klaraptor_waves_evaluate(&I, &W, nullptr)));
  I = in(100, 4, 2, 3, 13);
  W.freq_ghz = 2;
  EXPECT_DOUBLE_EQ(klaraptor_waves_ns(&I, &W),
                   klaraptor_waves_evaluate(&I, &W, nullptr) / 2);
  W.freq_ghz = 0;
  EXPECT_TRUE(std::isinf(klaraptor_waves_ns(&I, &W)));
  // The occupancy calculation when no resident count is given: 128-thread
  // blocks on H100 (16 per SM by threads, 32 by the block limit).
  klaraptor_mwp_cwp_hw H = handHw();
  H.active_sms = 2;
  I = in(10, 1, 4, 0, 100);
  klaraptor_waves_terms T{};
  klaraptor_waves_evaluate(&I, &H, &T);
  EXPECT_DOUBLE_EQ(T.active_blocks_per_sm, 16);
  EXPECT_DOUBLE_EQ(T.busiest_sm_blocks, 50);
  EXPECT_DOUBLE_EQ(T.full_waves, 3);
  EXPECT_DOUBLE_EQ(T.tail_blocks, 2);
}

TEST(Metrics, RecordToInputs) {
  std::map<std::string, double> R = {
      {"blocks_launched", 4},          {"threads_per_block", 256},
      {"warps_launched", 32},          {"inst_executed", 3200},
      {"global_load_requests", 64},    {"global_load_sectors", 256},
      {"global_store_requests", 32},   {"global_store_sectors", 1024},
      {"inst_barrier", 64},            {"registers_per_thread", 32},
      {"static_shared_bytes", 1024},   {"dynamic_shared_bytes_per_block", 512}};
  Inputs In = inputsFromMetrics(R);
  EXPECT_DOUBLE_EQ(In.get("comp_insts"), (3200.0 - 96) / 32);
  EXPECT_DOUBLE_EQ(In.get("coal_mem_insts"), 2);   // loads: 4 sectors/request
  EXPECT_DOUBLE_EQ(In.get("uncoal_mem_insts"), 1); // stores: 32 sectors/request
  EXPECT_DOUBLE_EQ(In.get("coal_per_mw"), 1);
  EXPECT_DOUBLE_EQ(In.get("uncoal_per_mw"), 32);
  EXPECT_DOUBLE_EQ(In.get("synch_insts"), 2);
  EXPECT_DOUBLE_EQ(In.get("blocks"), 4);
  EXPECT_DOUBLE_EQ(In.get("threads_per_block"), 256);
  EXPECT_DOUBLE_EQ(In.get("regs_per_thread"), 32);
  EXPECT_DOUBLE_EQ(In.get("shared_per_block"), 1536);
  // Every input the model needs is there.
  for (const std::string &N : MwpCwpModel().inputs())
    EXPECT_TRUE(In.Values.count(N)) << N;
  // A stricter threshold makes the loads uncoalesced.
  MetricsMapping Strict;
  Strict.CoalescedSectorsPerRequest = 2;
  Inputs S = inputsFromMetrics(R, Strict);
  EXPECT_DOUBLE_EQ(S.get("coal_mem_insts"), 0);
  EXPECT_DOUBLE_EQ(S.get("uncoal_mem_insts"), 3);
  EXPECT_DOUBLE_EQ(S.get("uncoal_per_mw"), (256.0 + 1024) / 96);
  // Grid and block from their dimensions, warps from them; no requests.
  std::map<std::string, double> G = {{"grid_x", 8},  {"grid_y", 2},
                                     {"block_x", 16}, {"block_y", 4},
                                     {"inst_executed", 320}};
  Inputs GI = inputsFromMetrics(G);
  EXPECT_DOUBLE_EQ(GI.get("blocks"), 16);
  EXPECT_DOUBLE_EQ(GI.get("threads_per_block"), 64);
  EXPECT_DOUBLE_EQ(GI.get("comp_insts"), 10); // 320 / 32 warps
  EXPECT_DOUBLE_EQ(GI.get("coal_mem_insts"), 0);
  // An empty record: zeros, no division by zero.
  Inputs E = inputsFromMetrics({});
  EXPECT_DOUBLE_EQ(E.get("comp_insts"), 0);
  EXPECT_DOUBLE_EQ(E.get("blocks"), 0);
}

class Toy : public PerformanceModel {
public:
  std::string name() const override { return "toy"; }
  std::vector<std::string> inputs() const override { return {"blocks"}; }
  double predictCycles(const Inputs &In, const HardwareParams &) const override {
    return 10 * In.get("blocks");
  }
};

TEST(Registry, PluggableModels) {
  std::vector<std::string> Names = registeredModels();
  EXPECT_NE(std::find(Names.begin(), Names.end(), "mwp-cwp"), Names.end());
  EXPECT_NE(std::find(Names.begin(), Names.end(), "mwp-cwp-lines"),
            Names.end());
  EXPECT_STREQ(defaultModel(), "mwp-cwp-lines");
  auto W = createModel("waves");
  ASSERT_TRUE(W);
  EXPECT_EQ(W->name(), "waves");
  EXPECT_EQ(W->inputs().size(), 10u);
  auto M = createModel("mwp-cwp");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->name(), "mwp-cwp");
  EXPECT_EQ(M->inputs().size(), 10u);
  EXPECT_FALSE(createModel("no-such-model"));
  registerModel("toy", [] { return std::make_unique<Toy>(); });
  auto T = createModel("toy");
  ASSERT_TRUE(T);
  HardwareParams H;
  std::string Error;
  ASSERT_TRUE(loadHardwareParams("t4", H, Error)) << Error;
  Inputs In;
  In.set("blocks", 3);
  EXPECT_DOUBLE_EQ(T->predictCycles(In, H), 30);
  EXPECT_DOUBLE_EQ(T->predictNs(In, H), 30 / 1.59);
}

TEST(Profiles, EveryShippedProfileHasItsParameters) {
  struct Expect {
    const char *Id;
    double BandwidthGBs, FreqGHz, SMs, MemLD;
  };
  for (const Expect &E : {Expect{"h100-sxm", 3350, 1.98, 132, 480},
                          Expect{"h200", 4800, 1.98, 132, 480},
                          Expect{"a100-sxm4-80gb", 2039, 1.41, 108, 470},
                          Expect{"rtx-4090", 1008, 2.52, 128, 500},
                          Expect{"t4", 320, 1.59, 40, 430},
                          Expect{"rtx-2070-super", 448, 1.77, 40, 472}}) {
    HardwareParams H;
    std::string Error;
    ASSERT_TRUE(loadHardwareParams(E.Id, H, Error)) << E.Id << ": " << Error;
    EXPECT_DOUBLE_EQ(H.Mwp.mem_bandwidth_gbs, E.BandwidthGBs) << E.Id;
    EXPECT_DOUBLE_EQ(H.Mwp.freq_ghz, E.FreqGHz) << E.Id;
    EXPECT_DOUBLE_EQ(H.Mwp.active_sms, E.SMs) << E.Id;
    EXPECT_DOUBLE_EQ(H.Mwp.mem_ld, E.MemLD) << E.Id;
    EXPECT_GT(H.Mwp.departure_del_coal, 0) << E.Id;
    EXPECT_GT(H.Mwp.departure_del_uncoal, 0) << E.Id;
    EXPECT_GT(H.Mwp.issue_cycles, 0) << E.Id;
    EXPECT_DOUBLE_EQ(H.Mwp.load_bytes_per_warp, 128) << E.Id;
    klaraptor_mwp_cwp_hw C{};
    EXPECT_EQ(klaraptor_mwp_cwp_hw_from_profile(E.Id, &C), 0) << E.Id;
    EXPECT_DOUBLE_EQ(C.mem_bandwidth_gbs, E.BandwidthGBs) << E.Id;
  }
  // Every built-in profile, whatever its name, loads.
  for (const std::string &Id : devices::builtinDeviceProfiles()) {
    HardwareParams H;
    std::string Error;
    EXPECT_TRUE(loadHardwareParams(Id, H, Error)) << Id << ": " << Error;
  }
  klaraptor_mwp_cwp_hw C{};
  EXPECT_EQ(klaraptor_mwp_cwp_hw_from_profile("no-such-gpu", &C), -1);
}

TEST(Profiles, MwpKeysAreChecked) {
  devices::DeviceProfile P;
  std::string Error;
  EXPECT_FALSE(P.parse("format = 1\nmwp.no_such = 1\n", "t.device", Error));
  EXPECT_NE(Error.find("unknown mwp key 'mwp.no_such'"), std::string::npos)
      << Error;
  devices::DeviceProfile Q;
  EXPECT_FALSE(Q.parse("format = 1\nmwp.issue_cycles = -1\n", "t.device", Error));
  EXPECT_NE(Error.find("non-negative"), std::string::npos) << Error;
  // A profile without mwp keys cannot feed the model.
  devices::DeviceProfile R;
  ASSERT_TRUE(devices::loadDeviceProfile("h100-sxm", R, Error)) << Error;
  R.Mwp.erase("issue_cycles");
  HardwareParams H;
  EXPECT_FALSE(hardwareParamsFromProfile(R, H, Error));
  EXPECT_NE(Error.find("mwp.issue_cycles"), std::string::npos) << Error;
}

TEST(CApi, CallableFromC) {
  int Status = -1;
  double Ns = klaraptorModelTestFromC(&Status);
  EXPECT_EQ(Status, 0);
  EXPECT_TRUE(std::isfinite(Ns));
  EXPECT_GT(Ns, 0);
}

} // namespace

//===-- The block-dispatch bound -------------------------------------------===//

TEST(DispatchBound, BusiestSmBlocksTimesTheRate) {
  klaraptor_mwp_cwp_hw W = wavesHw(); // 4 SMs
  W.freq_ghz = 2;
  klaraptor_mwp_cwp_inputs I = in(100, 4, 2, 3, 13);
  // Not measured: no bound.
  EXPECT_EQ(klaraptor_dispatch_bound_ns(&I, &W), 0);
  // 13 blocks on 4 SMs: the busiest starts ceil(13 / 4) = 4 of them, 150
  // cycles apart: 600 cycles, 300 ns at 2 GHz.
  W.block_launch_cycles = 150;
  EXPECT_DOUBLE_EQ(klaraptor_dispatch_bound_ns(&I, &W), 300);
  // 3 blocks occupy 3 SMs: one block each.
  I.blocks = 3;
  EXPECT_DOUBLE_EQ(klaraptor_dispatch_bound_ns(&I, &W), 75);
  // Guards: an empty grid, no clock, no SMs, no inputs.
  I.blocks = 0;
  EXPECT_EQ(klaraptor_dispatch_bound_ns(&I, &W), 0);
  I.blocks = 13;
  W.freq_ghz = 0;
  EXPECT_EQ(klaraptor_dispatch_bound_ns(&I, &W), 0);
  W.freq_ghz = 2;
  W.active_sms = 0;
  EXPECT_EQ(klaraptor_dispatch_bound_ns(&I, &W), 0);
  EXPECT_EQ(klaraptor_dispatch_bound_ns(nullptr, &W), 0);
  EXPECT_EQ(klaraptor_dispatch_bound_ns(&I, nullptr), 0);
  W.active_sms = 4;
  W.block_launch_cycles = -5;
  EXPECT_EQ(klaraptor_dispatch_bound_ns(&I, &W), 0);
}

TEST(DispatchBound, ReadFromTheProfile) {
  klaraptor::model::HardwareParams H;
  std::string Error;
  ASSERT_TRUE(klaraptor::model::loadHardwareParams("h200", H, Error)) << Error;
  EXPECT_EQ(H.Mwp.block_launch_cycles, 123.592); // the H200's probe
  ASSERT_TRUE(klaraptor::model::loadHardwareParams("rtx-2070-super", H, Error))
      << Error;
  EXPECT_EQ(H.Mwp.block_launch_cycles, 0); // not measured
  klaraptor::devices::DeviceProfile P = H.Profile;
  P.Timing["block_launch_cycles"] = 158;
  ASSERT_TRUE(klaraptor::model::hardwareParamsFromProfile(P, H, Error))
      << Error;
  EXPECT_EQ(H.Mwp.block_launch_cycles, 158);
}

//===-- The roofline model -------------------------------------------------===//

TEST(Roofline, TheLargestOfFourBoundsOnTheBusiestSm) {
  // 13 blocks of 2 warps on 4 SMs, 3 resident: the busiest SM has 4 blocks,
  // 8 warps. Per warp 100 + 4 instructions, 4 requests, 10 sectors.
  klaraptor_mwp_cwp_hw W = handHw();
  W.active_sms = 4;
  W.issue_cycles = 0.25;
  W.dram_gap = 2;
  klaraptor_mwp_cwp_inputs I = in(100, 4, 2, 3, 13);
  I.sectors_per_warp = 10;
  klaraptor_roofline_terms T{};
  double C = klaraptor_roofline_evaluate(&I, &W, &T);
  EXPECT_DOUBLE_EQ(T.busiest_sm_blocks, 4);
  EXPECT_DOUBLE_EQ(T.issue_cycles, 8 * 104 * 0.25);  // 208
  EXPECT_DOUBLE_EQ(T.dram_cycles, 8 * 10 * 2.0);     // 160
  // 4 blocks, 3 at a time: 4/3 rounds of one warp's 4 requests x 400.
  EXPECT_DOUBLE_EQ(T.latency_cycles, 4.0 / 3 * 4 * 400);
  EXPECT_DOUBLE_EQ(T.dispatch_cycles, 0);
  EXPECT_EQ(T.bound, 3);
  EXPECT_DOUBLE_EQ(C, T.latency_cycles);
  EXPECT_DOUBLE_EQ(klaraptor_roofline_ns(&I, &W), C); // 1 GHz

  // More sectors: DRAM decides; a dispatch rate of 1000 cycles: dispatch.
  I.sectors_per_warp = 1000;
  EXPECT_DOUBLE_EQ(klaraptor_roofline_evaluate(&I, &W, &T), 8 * 1000 * 2.0);
  EXPECT_EQ(T.bound, 2);
  W.block_launch_cycles = 10000;
  EXPECT_DOUBLE_EQ(klaraptor_roofline_evaluate(&I, &W, &T), 40000);
  EXPECT_EQ(T.bound, 4);
}

TEST(Roofline, IdleWarpsHideNoLatency) {
  // Blocks of 4 warps of which one holds data: that warp makes all 4 x 2
  // requests (the average per warp is 2), one after another.
  klaraptor_mwp_cwp_hw W = handHw();
  klaraptor_mwp_cwp_inputs I = in(1, 2, 4, 1, 1);
  double All = klaraptor_roofline_evaluate(&I, &W, nullptr);
  EXPECT_DOUBLE_EQ(All, 2 * 400);
  I.active_warps_per_block = 1;
  EXPECT_DOUBLE_EQ(klaraptor_roofline_evaluate(&I, &W, nullptr), 8 * 400);
  // More active warps than the block has: every warp.
  I.active_warps_per_block = 9;
  EXPECT_DOUBLE_EQ(klaraptor_roofline_evaluate(&I, &W, nullptr), All);
}

TEST(Roofline, GuardsAndTheRegistry) {
  klaraptor_mwp_cwp_hw W = handHw();
  klaraptor_mwp_cwp_inputs I = in(100, 4, 2, 3, 0);
  EXPECT_EQ(klaraptor_roofline_evaluate(&I, &W, nullptr), 0);
  EXPECT_EQ(klaraptor_roofline_ns(&I, &W), 0);
  I.blocks = 7;
  I.threads_per_block = 0;
  EXPECT_TRUE(std::isinf(klaraptor_roofline_evaluate(&I, &W, nullptr)));
  EXPECT_TRUE(std::isinf(klaraptor_roofline_evaluate(nullptr, &W, nullptr)));
  I = in(100, 4, 2, 0, 7);
  I.shared_per_block = 1e9; // cannot be resident
  EXPECT_TRUE(std::isinf(klaraptor_roofline_evaluate(&I, &W, nullptr)));

  // The registered model reads its inputs by name, the DRAM gap from the
  // profile (h100-sxm: timing.dram.gap).
  std::unique_ptr<PerformanceModel> M = createModel("roofline");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->name(), "roofline");
  HardwareParams H;
  std::string Error;
  ASSERT_TRUE(loadHardwareParams("h100-sxm", H, Error)) << Error;
  EXPECT_DOUBLE_EQ(H.Mwp.dram_gap, H.Profile.Timing.at("dram.gap"));
  Inputs In;
  In.set("comp_insts", 10);
  In.set("coal_mem_insts", 2);
  In.set("blocks", 1000);
  In.set("threads_per_block", 128);
  In.set("sectors_per_warp", 8);
  In.set("active_warps_per_block", 2);
  klaraptor_mwp_cwp_inputs C = MwpCwpModel::toC(In);
  EXPECT_EQ(C.sectors_per_warp, 8);
  EXPECT_EQ(C.active_warps_per_block, 2);
  EXPECT_DOUBLE_EQ(M->predictCycles(In, H),
                   klaraptor_roofline_evaluate(&C, &H.Mwp, nullptr));
}

TEST(Lines, MwpCwpTimesTheLinesOfALoadRequest) {
  klaraptor_mwp_cwp_hw W = handHw();
  klaraptor_mwp_cwp_inputs I = in(100, 4, 2, 3, 12);
  double Mwp = klaraptor_mwp_cwp_cycles(&I, &W);
  ASSERT_GT(Mwp, 0);
  // Unknown (0), less than one and one line: MWP-CWP's time.
  for (double L : {0.0, 0.5, 1.0}) {
    I.load_lines_per_request = L;
    EXPECT_EQ(klaraptor_mwp_cwp_lines_cycles(&I, &W), Mwp) << L;
  }
  // A 16-wide warp's two half lines a request: twice the time.
  I.load_lines_per_request = 2;
  EXPECT_DOUBLE_EQ(klaraptor_mwp_cwp_lines_cycles(&I, &W), 2 * Mwp);
  I.load_lines_per_request = 1.55;
  EXPECT_DOUBLE_EQ(klaraptor_mwp_cwp_lines_ns(&I, &W), 1.55 * Mwp / W.freq_ghz);
  I.load_lines_per_request = NAN;
  EXPECT_TRUE(std::isnan(klaraptor_mwp_cwp_lines_cycles(&I, &W)));
  // MWP-CWP's guards: an empty grid stays 0, a block that cannot be
  // resident +infinity, whatever the lines.
  I.load_lines_per_request = 4;
  I.blocks = 0;
  EXPECT_EQ(klaraptor_mwp_cwp_lines_cycles(&I, &W), 0);
  I = in(100, 4, 2, 0, 12);
  I.load_lines_per_request = 4;
  I.shared_per_block = 1e9;
  EXPECT_TRUE(std::isinf(klaraptor_mwp_cwp_lines_cycles(&I, &W)));
  EXPECT_TRUE(std::isinf(klaraptor_mwp_cwp_lines_cycles(nullptr, &W)));
  EXPECT_EQ(linesFactor(3), 3);
  EXPECT_EQ(linesFactor(-1), 1);

  // The registered model, from a metrics record: 64 load requests touching
  // 96 lines.
  std::map<std::string, double> R = {
      {"blocks_launched", 264},      {"threads_per_block", 256},
      {"warps_launched", 2112},      {"inst_executed", 211200},
      {"global_load_requests", 64},  {"global_load_sectors", 256},
      {"global_load_lines", 96}};
  Inputs In = inputsFromMetrics(R);
  EXPECT_DOUBLE_EQ(In.get("load_lines_per_request"), 1.5);
  std::unique_ptr<PerformanceModel> M = createModel("mwp-cwp-lines");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->name(), "mwp-cwp-lines");
  EXPECT_EQ(M->inputs().size(), 11u);
  HardwareParams H;
  std::string Error;
  ASSERT_TRUE(loadHardwareParams("h100-sxm", H, Error)) << Error;
  EXPECT_DOUBLE_EQ(M->predictCycles(In, H),
                   1.5 * MwpCwpModel().predictCycles(In, H));
  // No lines counted (a record without them): MWP-CWP's time.
  R.erase("global_load_lines");
  In = inputsFromMetrics(R);
  EXPECT_EQ(In.get("load_lines_per_request"), 0);
  EXPECT_DOUBLE_EQ(M->predictCycles(In, H), MwpCwpModel().predictCycles(In, H));
}

TEST(Roofline, InputsFromMetrics) {
  // 4 blocks of 64 threads (8 warps), of which 6 hold data; 10 + 6 + 0
  // sectors per warp.
  std::map<std::string, double> R = {
      {"blocks_launched", 4},         {"threads_per_block", 64},
      {"warps_launched", 8},          {"inst_executed", 800},
      {"global_load_requests", 16},   {"global_load_sectors", 80},
      {"global_store_requests", 8},   {"global_store_sectors", 48},
      {"active_warps", 6}};
  Inputs In = inputsFromMetrics(R);
  EXPECT_DOUBLE_EQ(In.get("sectors_per_warp"), 16);
  EXPECT_DOUBLE_EQ(In.get("active_warps_per_block"), 1.5);
  R.erase("active_warps");
  EXPECT_EQ(inputsFromMetrics(R).get("active_warps_per_block"), 0);
}
