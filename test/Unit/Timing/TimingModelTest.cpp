//===- TimingModelTest.cpp - the timing engine on synthetic streams -------===//
///
/// \file
/// One pipelined resource with latency L and gap G, P dependent
/// instructions per warp and C warps on one scheduler that issues every
/// cycle (G >= 1, so the issue port is never the limit). The PLDI 2018
/// SAAKE paper's closed forms hold exactly:
///   latency-bound    (C * G <= L):  T = L * P + (C - 1) * G
///   throughput-bound (C * G >= L):  T = L + (C * P - 1) * G
/// plus barriers, memory stages and the sensitivity analysis.
//===----------------------------------------------------------------------===//
#include "TimingModel.h"

#include <gtest/gtest.h>

using namespace klaraptor::timing;

namespace {

TimingParams oneResource(double L, double G) {
  TimingParams P;
  for (ResourceParams &R : P.Res) {
    R.Latency = 1;
    R.Gap = 1;
  }
  P[Resource::Fp32].Latency = L;
  P[Resource::Fp32].Gap = G;
  P.Schedulers = 1;
  P.IssueGap = 1;
  P.BarrierLatency = 0;
  return P;
}

/// C warps (one block each unless \p OneBlock), each a chain of P fp32
/// instructions r1 = f(r1) (Dependent) or P independent ones.
SmWorkload chains(unsigned C, unsigned P, bool Dependent = true) {
  SmWorkload W;
  StaticInst I;
  I.Res = Resource::Fp32;
  I.NumDst = 1;
  I.Dst[0] = 1;
  if (Dependent) {
    I.NumSrc = 1;
    I.Src[0] = 1;
  }
  W.Code.push_back(I);
  W.NumRegs = 2;
  W.NumBlocks = C;
  for (unsigned K = 0; K < C; ++K) {
    WarpStream S;
    S.Block = K;
    S.Insts.assign(P, DynInst());
    W.Warps.push_back(S);
  }
  W.Regions.push_back({1, 1, "ptx:1-1"});
  return W;
}

// Each block ends when its last warp's last result is there; the mean of
// those ends is what an SM that starts a block whenever one ends spends per
// block: two one-warp blocks, chains of 10 and 20 fp32 steps of latency 4
// on one scheduler (the second warp issues a cycle after the first), end at
// 40 and 81 (Cycles, the wave's end: 81; mean 60.5).
TEST(TimingModel, BlocksEndWithTheirLastWarp) {
  SmWorkload W = chains(2, 20);
  W.Warps[0].Insts.resize(10);
  SimResult R = simulate(W, oneResource(4, 1));
  EXPECT_DOUBLE_EQ(R.Cycles, 81);
  EXPECT_DOUBLE_EQ(R.MeanBlockCycles, 60.5);
  // The busiest resource: the fp32 pipe, 30 instructions at a gap of 1.
  EXPECT_DOUBLE_EQ(R.BusiestCycles, 30);
  // In one block the two warps end together: at the longer one's end.
  W.NumBlocks = 1;
  W.Warps[1].Block = 0;
  R = simulate(W, oneResource(4, 1));
  EXPECT_DOUBLE_EQ(R.MeanBlockCycles, 81);
}

TEST(TimingModel, LatencyBoundFormula) {
  const double L = 20, G = 2;
  for (unsigned C : {1u, 2u, 4u, 10u})
    for (unsigned P : {1u, 5u, 17u}) {
      SimResult R = simulate(chains(C, P), oneResource(L, G));
      EXPECT_DOUBLE_EQ(R.Cycles, L * P + (C - 1) * G) << "C=" << C << " P=" << P;
      EXPECT_EQ(R.Issued, uint64_t(C) * P);
    }
}

TEST(TimingModel, BlocksStartOneAfterAnother) {
  // block_launch_cycles B: the SM's k-th block starts at k * B. Chains of P
  // dependent instructions (latency L, gap G < B), one block each: the last
  // block starts at (C - 1) * B and takes L * P.
  const double L = 20, G = 2, B = 50;
  TimingParams P = oneResource(L, G);
  std::string Error;
  ASSERT_TRUE(parseTimingParams("block_launch_cycles = 50\n", "t", P, Error))
      << Error;
  EXPECT_DOUBLE_EQ(P.BlockLaunchCycles, B);
  for (unsigned C : {1u, 2u, 4u})
    EXPECT_DOUBLE_EQ(simulate(chains(C, 5), P).Cycles, (C - 1) * B + L * 5)
        << "C=" << C;
  // Warps of one block start together.
  SmWorkload One = chains(4, 5);
  One.NumBlocks = 1;
  for (WarpStream &S : One.Warps)
    S.Block = 0;
  EXPECT_DOUBLE_EQ(simulate(One, P).Cycles, L * 5 + 3 * G);
}

TEST(TimingModel, ThroughputBoundFormula) {
  const double L = 20, G = 2;
  // Independent instructions: greedy issue keeps the pipe busy whatever C.
  for (unsigned C : {1u, 3u, 16u})
    for (unsigned P : {1u, 5u, 17u}) {
      SimResult R = simulate(chains(C, P, false), oneResource(L, G));
      EXPECT_DOUBLE_EQ(R.Cycles, L + (C * P - 1) * G) << "C=" << C << " P=" << P;
    }
  // Dependent chains at C * G == L: both formulas agree. (With C * G > L
  // greedy-then-oldest lets the oldest L / G warps run ahead and starves the
  // others, so dependent chains are then not at the bound: by design.)
  for (unsigned P : {1u, 5u, 17u}) {
    SimResult R = simulate(chains(10, P), oneResource(L, G));
    EXPECT_DOUBLE_EQ(R.Cycles, L + (10 * P - 1) * G) << "P=" << P;
    EXPECT_DOUBLE_EQ(R.Cycles, L * P + (10 - 1) * G) << "P=" << P;
  }
}

TEST(TimingModel, SchedulersShareNothingForPerSchedulerPipes) {
  // Four schedulers with their own pipe: four warps run like one each.
  TimingParams P = oneResource(20, 2);
  P.Schedulers = 4;
  P[Resource::Fp32].PerScheduler = true;
  SimResult R = simulate(chains(4, 10), P);
  EXPECT_DOUBLE_EQ(R.Cycles, 20.0 * 10);
  // One pipe per SM: the four warps queue at it.
  P[Resource::Fp32].PerScheduler = false;
  SimResult S = simulate(chains(4, 10), P);
  EXPECT_DOUBLE_EQ(S.Cycles, 20.0 * 10 + 3 * 2);
}

TEST(TimingModel, MemoryUnitsOccupyDram) {
  // One warp, 4 independent loads of 8 sectors: LSU (L=1, G=1) then DRAM
  // (L=100, G=3 per sector): the last load's DRAM stage starts at 3*8*3
  // and ends 100 + 7*3 later.
  TimingParams P = oneResource(4, 1);
  P[Resource::Dram].Latency = 100;
  P[Resource::Dram].Gap = 3;
  SmWorkload W;
  StaticInst I;
  I.Res = Resource::Lsu;
  I.NumDst = 1;
  I.Dst[0] = 1;
  W.Code.push_back(I);
  W.NumRegs = 2;
  W.NumBlocks = 1;
  WarpStream S;
  DynInst D;
  D.Units = 8;
  D.Mem = MemTarget::Global;
  S.Insts.assign(4, D);
  W.Warps.push_back(S);
  EXPECT_DOUBLE_EQ(simulate(W, P).Cycles, 3 * 8 * 3 + 100 + 7 * 3);
  // Half the sectors hit L2 (L=10, G=1): DRAM sees 4 per load.
  P.L2HitRate = 0.5;
  P[Resource::L2].Latency = 10;
  EXPECT_DOUBLE_EQ(simulate(W, P).Cycles, 3 * 4 * 3 + 100 + 3 * 3);
}

TEST(TimingModel, BarrierWaitsForTheBlock) {
  // Two warps of one block: warp 0 runs 1 instruction, warp 1 runs 5
  // dependent ones, then both pass a barrier and run one more.
  TimingParams P = oneResource(10, 1);
  P.BarrierLatency = 7;
  SmWorkload W = chains(2, 1);
  StaticInst Bar;
  Bar.Barrier = true;
  W.Code.push_back(Bar);
  W.NumBlocks = 1;
  W.Warps[1].Block = 0;
  DynInst Op, B;
  B.Idx = 1;
  W.Warps[0].Insts = {Op, B, Op};
  W.Warps[1].Insts = {Op, Op, Op, Op, Op, B, Op};
  // Warp 0: op at 0, barrier at 1. Warp 1: ops at 2, 12, 22, 32, 42 (the
  // chain), barrier at 43 (a barrier waits for no register); release at
  // 43 + 7 = 50. Warp 0's last op issues at 50 (the oldest), warp 1's at
  // 52 (its r1 is ready at 42 + 10), done at 62.
  EXPECT_DOUBLE_EQ(simulate(W, P).Cycles, 62);
}

TEST(TimingModel, SensitivityNamesTheBottleneck) {
  TimingParams P = oneResource(20, 2);
  Analysis Lat = analyze(chains(2, 50), P);
  EXPECT_EQ(Lat.Bottleneck, Resource::Fp32);
  EXPECT_TRUE(Lat.LatencyBound);
  EXPECT_NEAR(Lat.Table[unsigned(Resource::Fp32)].Latency, 0.1, 0.01);
  EXPECT_EQ(bottleneckLabel(Lat.Bottleneck, Lat.LatencyBound),
            "fp32 latency-bound");
  Analysis Thr = analyze(chains(40, 50, false), P);
  EXPECT_EQ(Thr.Bottleneck, Resource::Fp32);
  EXPECT_FALSE(Thr.LatencyBound);
  EXPECT_NEAR(Thr.Table[unsigned(Resource::Fp32)].Gap, 0.1, 0.01);
}

TEST(TimingModel, ParametersParse) {
  TimingParams P;
  std::string Error;
  EXPECT_TRUE(parseTimingParams("dram.latency = 500 # x\nschedulers=2\n"
                                "l2_hit_rate = 0.25\n",
                                "t", P, Error))
      << Error;
  EXPECT_DOUBLE_EQ(P[Resource::Dram].Latency, 500);
  EXPECT_EQ(P.Schedulers, 2u);
  EXPECT_DOUBLE_EQ(P.L2HitRate, 0.25);
  EXPECT_FALSE(parseTimingParams("\nfoo.gap = 1\n", "t", P, Error));
  EXPECT_EQ(Error, "t:2: unknown timing key 'foo.gap'");
  EXPECT_FALSE(parseTimingParams("l2_hit_rate = 2", "t", P, Error));
}

} // namespace

namespace {

/// One warp of independent loads, each of the sectors in \p Loads (bit 63:
/// a store), for the cache model.
SmWorkload tracedAccesses(const std::vector<std::vector<uint64_t>> &Loads) {
  SmWorkload W;
  StaticInst I;
  I.Res = Resource::Lsu;
  W.Code.push_back(I);
  W.NumRegs = 2;
  W.NumBlocks = 1;
  WarpStream S;
  for (const std::vector<uint64_t> &L : Loads) {
    DynInst D;
    D.Mem = MemTarget::Global;
    D.Units = uint32_t(L.size());
    D.SecOff = uint32_t(W.Sectors.size());
    W.Sectors.insert(W.Sectors.end(), L.begin(), L.end());
    S.Insts.push_back(D);
  }
  W.Warps.push_back(S);
  return W;
}

/// A cache model whose levels differ in latency: DRAM 400 cycles, the L2
/// 200, an L1 hit 30 (the data path 20); 64 lines of L1, 1024 of L2.
TimingParams cacheLatencies() {
  TimingParams P = oneResource(4, 1);
  P[Resource::Dram].Latency = 400;
  P[Resource::L2].Latency = 200;
  P[Resource::Shared].Latency = 20;
  P.L1Latency = 30;
  P.L1Bytes = 128 * 64;
  P.L2Bytes = 128 * 1024;
  return P;
}

} // namespace

TEST(CacheModel, SectorsHitTheLevelThatHoldsThem) {
  TimingParams P = oneResource(4, 1);
  P.L1Bytes = 128 * 2; // two lines
  P.L2Bytes = 128 * 4; // four lines
  const uint64_t Store = uint64_t(1) << 63;
  // Sectors 0-3 are line 0, 4-7 line 1, ...
  SmWorkload W = tracedAccesses({
      {0, 1},     // 2 misses, both cached
      {0, 1, 2},  // 2 L1 hits, sector 2 of a present line: a miss
      {Store | 8}, // a store: L2 only (1 miss)
      {8},        // in L2, not in L1: an L2 hit, then in L1
      {16, 20},   // 2 misses; the L1 (2 lines) drops line 0 and line 2
      {0},        // L1 lost line 0, the L2 (4 lines) still has it
  });
  SimResult R = simulate(W, P);
  EXPECT_EQ(R.L1HitSectors, 2);
  EXPECT_EQ(R.L2HitSectors, 2);
  EXPECT_EQ(R.MissSectors, 6);
  // The loads' share past the L1 (CUPTI's L2 read sectors): the store's
  // miss is not a read.
  EXPECT_EQ(R.L2ReadHitSectors, 2);
  EXPECT_EQ(R.L2ReadMissSectors, 5);
  // Without the cache sizes the sectors are charged as before (no counts).
  P.L1Bytes = P.L2Bytes = 0;
  SimResult Off = simulate(W, P);
  EXPECT_EQ(Off.L1HitSectors + Off.L2HitSectors + Off.MissSectors, 0);
}

// The L1 and L2 are LRU over lines (of four sectors, each with a valid bit)
// whatever the number of lines and their addresses: a long random stream of
// loads and stores over many lines, some far apart (lines that share a home
// slot in the cache's table), against a plain LRU model kept here.
TEST(CacheModel, LeastRecentlyUsedLinesGoFirst) {
  for (unsigned L1Lines : {1u, 3u, 37u, 300u}) {
    TimingParams P = oneResource(4, 1);
    P.L1Bytes = 128.0 * L1Lines;
    P.L2Bytes = 128.0 * 4 * L1Lines;
    const uint64_t Store = uint64_t(1) << 63;
    uint32_t Seed = 99 + L1Lines;
    auto Rand = [&] { return Seed = Seed * 1664525u + 1013904223u; };
    std::vector<std::vector<uint64_t>> Accesses;
    for (int K = 0; K < 6000; ++K) {
      uint64_t Line = Rand() % (8 * L1Lines + 5);
      if (Rand() % 4 == 0)
        Line = (Line << 40) | 7; // far away
      std::vector<uint64_t> A = {Line * 4 + Rand() % 4};
      if (Rand() % 8 == 0)
        A[0] |= Store;
      Accesses.push_back(A);
    }
    // The reference: lists of (line, sector bits), most recent first.
    struct Lru {
      size_t Cap;
      std::vector<std::pair<uint64_t, unsigned>> L;
      int find(uint64_t Line) {
        for (size_t I = 0; I < L.size(); ++I)
          if (L[I].first == Line)
            return int(I);
        return -1;
      }
      void front(int I) {
        auto E = L[size_t(I)];
        L.erase(L.begin() + I);
        L.insert(L.begin(), E);
      }
      bool lookUp(uint64_t S) {
        int I = find(S >> 2);
        if (I < 0)
          return false;
        front(I);
        return (L[0].second >> (S & 3)) & 1;
      }
      void fill(uint64_t S) {
        int I = find(S >> 2);
        if (I >= 0) {
          L[size_t(I)].second |= 1u << (S & 3);
          front(I);
          return;
        }
        if (L.size() >= Cap)
          L.pop_back();
        L.insert(L.begin(), {S >> 2, 1u << (S & 3)});
      }
      void drop(uint64_t S) {
        int I = find(S >> 2);
        if (I >= 0)
          L[size_t(I)].second &= ~(1u << (S & 3));
      }
    } L1{L1Lines, {}}, L2{4 * L1Lines, {}};
    double L1Hits = 0, L2Hits = 0, Misses = 0;
    for (const auto &A : Accesses) {
      bool Load = !(A[0] >> 63);
      uint64_t S = A[0] & ~Store;
      if (Load && L1.lookUp(S)) {
        ++L1Hits;
        continue;
      }
      if (!Load)
        L1.drop(S);
      (L2.lookUp(S) ? L2Hits : Misses) += 1;
      L2.fill(S);
      if (Load)
        L1.fill(S);
    }
    SimResult R = simulate(tracedAccesses(Accesses), P);
    EXPECT_EQ(R.L1HitSectors, L1Hits) << L1Lines << " lines";
    EXPECT_EQ(R.L2HitSectors, L2Hits) << L1Lines << " lines";
    EXPECT_EQ(R.MissSectors, Misses) << L1Lines << " lines";
    EXPECT_GT(L1Hits, 0);
    EXPECT_GT(L2Hits, 0);
  }
}

TEST(CacheModel, NeighboursSectorsAreInTheSharedL2) {
  TimingParams P = oneResource(4, 1);
  P.L1Bytes = 128 * 2;
  P.L2Bytes = 128 * 4;
  // The neighbouring blocks accessed sectors 0 (with the first access) and
  // 8 (with the second): this SM finds them in the L2.
  SmWorkload W = tracedAccesses({{0, 4}, {8, 12}});
  W.NearSectors = {0, 8};
  W.Warps[0].Insts[0].NearOff = 0;
  W.Warps[0].Insts[0].NearUnits = 1;
  W.Warps[0].Insts[1].NearOff = 1;
  W.Warps[0].Insts[1].NearUnits = 1;
  W.NearShares = 1;
  SimResult R = simulate(W, P);
  EXPECT_EQ(R.L2HitSectors, 2);
  EXPECT_EQ(R.MissSectors, 2);
  // Without a share for them they are not held.
  W.NearShares = 0;
  R = simulate(W, P);
  EXPECT_EQ(R.L2HitSectors, 0);
  EXPECT_EQ(R.MissSectors, 4);
}

TEST(CacheModel, EachLineMissedIsOneL2Request) {
  TimingParams P = oneResource(4, 1);
  P.L1Bytes = 128 * 64;
  P.L2Bytes = 128 * 1024;
  // Four sectors of one line (a coalesced row), then four sectors of four
  // lines (a column), then the column again (L1 hits: no requests).
  SmWorkload Row = tracedAccesses({{0, 1, 2, 3}});
  SmWorkload Column = tracedAccesses({{400, 404, 408, 412}, {412, 400, 408, 404}});
  SimResult R = simulate(Row, P), C = simulate(Column, P);
  EXPECT_EQ(R.L2Requests, 1);
  EXPECT_EQ(C.L2Requests, 4);
  // Without a cost per request both take the same time; with 50 cycles per
  // request the column waits for four.
  EXPECT_DOUBLE_EQ(R.Cycles, simulate(tracedAccesses({{400, 404, 408, 412}}), P).Cycles);
  P.L2RequestCycles = 50;
  SimResult R2 = simulate(Row, P), C2 = simulate(Column, P);
  EXPECT_GE(R2.Cycles, 50);
  EXPECT_LT(R2.Cycles, 100);
  EXPECT_GE(C2.Cycles, 200);
  EXPECT_EQ(C2.L1HitSectors, 4);
}

// A load that finds its sector on the way from an earlier miss waits for
// that miss's data, as a request merged into the L1's pending miss does; it
// counts as an L1 hit (the hardware's L1 tags the line when it asks).
// Warp 0 misses line 0; warp 1 then loads line 0 and, with that value,
// line 25 (a dependent miss). Its second load can start only when line 0
// is there: after DRAM's 400 cycles, not after the L1's 30.
TEST(CacheModel, AHitOnAPendingMissWaitsForItsData) {
  TimingParams P = cacheLatencies();
  SmWorkload W;
  StaticInst Load, Use;
  Load.Res = Use.Res = Resource::Lsu;
  Load.NumDst = 1;
  Load.Dst[0] = 1;
  Use.NumSrc = 1;
  Use.Src[0] = 1;
  W.Code = {Load, Use};
  W.NumRegs = 2;
  W.NumBlocks = 1;
  auto access = [&](uint32_t Idx, uint64_t Sector) {
    DynInst D;
    D.Idx = Idx;
    D.Mem = MemTarget::Global;
    D.Units = 1;
    D.SecOff = uint32_t(W.Sectors.size());
    W.Sectors.push_back(Sector);
    return D;
  };
  WarpStream First, Second;
  First.Insts = {access(0, 0)};
  Second.Insts = {access(0, 0), access(1, 100)};
  W.Warps = {First, Second};
  SimResult R = simulate(W, P);
  EXPECT_EQ(R.L1HitSectors, 1);
  EXPECT_EQ(R.MissSectors, 2);
  // Two DRAM latencies one after the other.
  EXPECT_GE(R.Cycles, 800);
  EXPECT_LT(R.Cycles, 850);
  // Once line 0 is there, the same load is an ordinary hit: warp 1 alone,
  // after warp 0's miss has returned, waits one DRAM latency, not two.
  WarpStream Late;
  Late.Insts = {access(0, 0), access(1, 100)};
  W.Warps = {First, Late};
  // Warp 1 starts after warp 0's miss: 500 independent instructions first.
  StaticInst Busy;
  Busy.Res = Resource::Int;
  W.Code.push_back(Busy);
  std::vector<DynInst> Wait(500);
  for (DynInst &D : Wait)
    D.Idx = 2;
  W.Warps[1].Insts.insert(W.Warps[1].Insts.begin(), Wait.begin(), Wait.end());
  SimResult After = simulate(W, P);
  EXPECT_EQ(After.L1HitSectors, 1);
  EXPECT_LT(After.Cycles, 500 + 30 + 400 + 50);
  EXPECT_GE(After.Cycles, 500 + 400);
}

TEST(CacheModel, StoresTakeTheL2sWriteTime) {
  TimingParams P = oneResource(4, 1);
  P.L1Bytes = 128 * 64;
  P.L2Bytes = 128 * 1024;
  P[Resource::L2].Gap = 2;
  const uint64_t Store = uint64_t(1) << 63;
  // A line loaded (4 DRAM misses, now in the L2), then stored (4 L2 hits)
  // and loaded again (4 L1 misses, the store dropped them: 4 L2 hits).
  SmWorkload W = tracedAccesses(
      {{0, 1, 2, 3}, {Store | 0, Store | 1, Store | 2, Store | 3}, {0, 1, 2, 3}});
  SimResult R = simulate(W, P);
  EXPECT_EQ(R.L2HitSectors, 8);
  EXPECT_DOUBLE_EQ(R.Busy[unsigned(Resource::L2)], 8 * 2);
  // Stores at 5 cycles per sector, loads at the gap: 4 x 5 + 4 x 2.
  P.L2StoreGap = 5;
  R = simulate(W, P);
  EXPECT_EQ(R.L2HitSectors, 8);
  EXPECT_DOUBLE_EQ(R.Busy[unsigned(Resource::L2)], 4 * 5 + 4 * 2);
}

TEST(CacheModel, HitsAreCheaperThanMisses) {
  TimingParams P = cacheLatencies();
  std::vector<std::vector<uint64_t>> Same(8, std::vector<uint64_t>{0, 1, 2, 3});
  SmWorkload Reuse = tracedAccesses(Same);
  std::vector<std::vector<uint64_t>> Fresh;
  for (uint64_t K = 0; K < 8; ++K)
    Fresh.push_back({4 * K + 100, 4 * K + 101, 4 * K + 102, 4 * K + 103});
  SmWorkload Stream = tracedAccesses(Fresh);
  double T1 = simulate(Reuse, P).Cycles, T2 = simulate(Stream, P).Cycles;
  EXPECT_LT(T1, T2);
  // Both accesses (the miss and the hit) pass the shared data path: one
  // line at 2 sectors per cycle is 2 units of its gap each.
  P.L1SectorsPerCycle = 2;
  P[Resource::Shared].Gap = 5;
  SmWorkload One = tracedAccesses({{0, 1, 2, 3}, {0, 1, 2, 3}});
  SimResult R = simulate(One, P);
  EXPECT_EQ(R.L1HitSectors, 4);
  EXPECT_EQ(R.L1Wavefronts, 2);
  EXPECT_DOUBLE_EQ(R.Busy[unsigned(Resource::Shared)], 2 * 2 * 5);
}

TEST(CacheModel, EachLineIsOneL1Wavefront) {
  TimingParams P = oneResource(4, 1);
  P.L1Bytes = 128 * 64;
  P.L2Bytes = 128 * 1024;
  P.L1SectorsPerCycle = 4;
  P.L1Latency = 2;
  const uint64_t Store = uint64_t(1) << 63;
  // A warp reading a row (four sectors of one line) twice, and one reading
  // a column (one sector in each of 32 lines) twice: the second reads all
  // hit the L1, but the column still passes the data path one line at a
  // time, as does a store.
  std::vector<uint64_t> Column;
  for (uint64_t K = 0; K < 32; ++K)
    Column.push_back(1000 + 4 * K);
  SimResult Row = simulate(tracedAccesses({{0, 1, 2, 3}, {0, 1, 2, 3}}), P);
  SimResult Col = simulate(tracedAccesses({Column, Column}), P);
  SimResult Stored = simulate(tracedAccesses({{Store | 0, Store | 4}}), P);
  EXPECT_EQ(Row.L1HitSectors, 4);
  EXPECT_EQ(Col.L1HitSectors, 32);
  EXPECT_EQ(Row.L1Wavefronts, 2);
  EXPECT_EQ(Col.L1Wavefronts, 64);
  EXPECT_EQ(Stored.L1Wavefronts, 2);
  EXPECT_DOUBLE_EQ(Col.Busy[unsigned(Resource::Shared)], 64);
  EXPECT_GE(Col.Cycles, 64);
  EXPECT_LT(Row.Cycles, 16);
  // On a data path of 64 B per cycle (Turing) a line takes two gaps,
  // however few of its sectors the access reads; one of 256 B per cycle
  // still takes one per line.
  P.L1SectorsPerCycle = 2;
  EXPECT_DOUBLE_EQ(simulate(tracedAccesses({Column, Column}), P)
                       .Busy[unsigned(Resource::Shared)], 128);
  P.L1SectorsPerCycle = 8;
  EXPECT_DOUBLE_EQ(simulate(tracedAccesses({Column, Column}), P)
                       .Busy[unsigned(Resource::Shared)], 64);
}

TEST(CacheModel, Keys) {
  TimingParams P;
  std::string Error;
  ASSERT_TRUE(parseTimingParams("l1_bytes = 65536\nl2_bytes = 4194304\n"
                                "l1_latency = 32\nl1_sectors_per_cycle = 2\n",
                                "t", P, Error))
      << Error;
  EXPECT_TRUE(P.cacheModel());
  EXPECT_EQ(P.L1Bytes, 65536);
  EXPECT_EQ(P.L2Bytes, 4194304);
  EXPECT_EQ(P.L1Latency, 32);
  EXPECT_EQ(P.L1SectorsPerCycle, 2);
  ASSERT_TRUE(parseTimingParams("l2_request_cycles = 2.5\n", "t", P, Error))
      << Error;
  EXPECT_EQ(P.L2RequestCycles, 2.5);
  ASSERT_TRUE(parseTimingParams("l2_store_gap = 3.1\n", "t", P, Error)) << Error;
  EXPECT_EQ(P.L2StoreGap, 3.1);
  EXPECT_FALSE(parseTimingParams("l1_sectors_per_cycle = 0.5\n", "t", P, Error));
  EXPECT_EQ(Error, "t:1: 'l1_sectors_per_cycle' expects a number >= 1");
  EXPECT_FALSE(TimingParams().cacheModel());
}

// The sensitivity analysis perturbs every level the cache model may use,
// so that a bottleneck in the L1's path or the L2 is named.
TEST(CacheModel, AnalysisSeesEveryLevel) {
  TimingParams P = oneResource(4, 1);
  P.L1Bytes = 128 * 64;
  P.L2Bytes = 128 * 1024;
  std::vector<std::vector<uint64_t>> Same(8, std::vector<uint64_t>{0, 1, 2, 3});
  Analysis A = analyze(tracedAccesses(Same), P);
  ASSERT_EQ(A.Table.size(), NumResources);
  EXPECT_NE(A.Table[unsigned(Resource::Shared)].Gap, 0);
  EXPECT_EQ(A.Base.L1HitSectors, 28);
  EXPECT_EQ(A.Base.MissSectors, 4);
}
