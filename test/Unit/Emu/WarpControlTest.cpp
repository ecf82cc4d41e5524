//===- WarpControlTest.cpp - SIMT control flow, warp operations, memory ---===//
///
/// \file
/// Hand-written PTX kernels: divergence and reconvergence, loops with
/// per-lane trip counts, exit of some lanes, calls with divergent returns,
/// barriers (bar.sync, named barriers with bar.arrive), shfl/vote/match/
/// redux semantics, vector loads and stores in every state space, generic
/// addressing, atomics, and the errors a launch reports.
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"
#include "Exec.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace emutest;

namespace {

/// The 1-based line of the first line of \p Text containing \p Needle.
unsigned lineOf(const std::string &Text, const std::string &Needle) {
  size_t P = Text.find(Needle);
  return unsigned(std::count(Text.begin(), Text.begin() + P, '\n')) + 1;
}

//===----------------------------------------------------------------------===//
// shfl.sync
//===----------------------------------------------------------------------===//

std::string shflKernel(const std::string &Mode) {
  return ptxHeader() + R"(
.visible .entry shfl(.param .u64 out, .param .u32 b, .param .u32 c)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r2, [b];
  ld.param.u32 %r3, [c];
  mov.u32 %r1, %laneid;
  mad.lo.u32 %r4, %r1, 10, 1;
  shfl.sync.)" + Mode + R"(.b32 %r5|%p1, %r4, %r2, %r3, -1;
  selp.u32 %r6, 1, 0, %p1;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r5, %r6};
  ret;
}
)";
}

/// The PTX ISA's description of shfl.sync, for reference.
void shflModel(int Mode, uint32_t B, uint32_t C, int Lane, int &Src, bool &P) {
  int BV = B & 31, CV = C & 31, Seg = (C >> 8) & 31;
  int MaxLane = (Lane & Seg) | (CV & ~Seg), MinLane = Lane & Seg;
  int J;
  switch (Mode) {
  case 0: J = Lane - BV; P = J >= MaxLane; break;
  case 1: J = Lane + BV; P = J <= MaxLane; break;
  case 2: J = Lane ^ BV; P = J <= MaxLane; break;
  default: J = MinLane | (BV & ~Seg); P = J <= MaxLane; break;
  }
  Src = P ? J : Lane;
}

TEST(WarpInst, ShuffleAllModes) {
  const char *Modes[] = {"up", "down", "bfly", "idx"};
  // c values: full warp; width 8 (segmask 0x18); width 16 clamp 7; odd.
  uint32_t Cs[] = {0x1f, 0x1800 | 0x1f, 0x1000 | 0x7, 0x0, 0x1c03};
  for (int M = 0; M < 4; ++M) {
    auto Mod = load(shflKernel(Modes[M]));
    ASSERT_TRUE(Mod);
    for (uint32_t C : Cs)
      for (uint32_t B : {0u, 1u, 3u, 5u, 16u, 31u, 33u}) {
        Buffer<uint32_t> Out(64);
        uint32_t *O = Out.data();
        ASSERT_EQ(run(*Mod, "shfl", {1, 1, 1}, {32, 1, 1}, {&O, &B, &C}).Status,
                  LaunchStatus::Ok);
        for (int L = 0; L < 32; ++L) {
          int Src;
          bool P;
          shflModel(M, B, C, L, Src, P);
          EXPECT_EQ(Out[2 * L], uint32_t(Src * 10 + 1))
              << Modes[M] << " b=" << B << " c=" << C << " lane " << L;
          EXPECT_EQ(Out[2 * L + 1], uint32_t(P)) << Modes[M] << " lane " << L;
        }
      }
  }
  // Known results: __shfl_down_sync(v, 1) and __shfl_up_sync(v, 3, 8).
  auto Down = load(shflKernel("down"));
  Buffer<uint32_t> Out(64);
  uint32_t *O = Out.data(), B = 1, C = 0x1f;
  ASSERT_EQ(run(*Down, "shfl", {1, 1, 1}, {32, 1, 1}, {&O, &B, &C}).Status, LaunchStatus::Ok);
  EXPECT_EQ(Out[0], 11u);
  EXPECT_EQ(Out[2 * 31], 311u); // lane 31 keeps its own value
  EXPECT_EQ(Out[2 * 31 + 1], 0u);
  auto Up = load(shflKernel("up"));
  B = 3;
  C = 0x1800;
  ASSERT_EQ(run(*Up, "shfl", {1, 1, 1}, {32, 1, 1}, {&O, &B, &C}).Status, LaunchStatus::Ok);
  EXPECT_EQ(Out[2 * 11], 81u); // lane 11 reads lane 8
  EXPECT_EQ(Out[2 * 10], 101u); // lane 10 is below 3 in its group of 8
  EXPECT_EQ(Out[2 * 10 + 1], 0u);
}

TEST(WarpInst, VoteAndActiveMaskUnderDivergence) {
  std::string P = ptxHeader() + R"(
.visible .entry votes(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %laneid;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 1;
  setp.lt.u32 %p2, %r1, 20;
  @%p2 bra $LOW;
  vote.sync.ballot.b32 %r3, %p1, 0xfff00000;
  activemask.b32 %r4;
  vote.sync.all.pred %p3, %p1, 0xfff00000;
  vote.sync.any.pred %p4, %p1, 0xfff00000;
  bra.uni $DONE;
$LOW:
  vote.sync.ballot.b32 %r3, !%p1, 0x000fffff;
  activemask.b32 %r4;
  vote.sync.uni.pred %p3, %p2, 0x000fffff;
  vote.sync.any.pred %p4, %p1, 0x000fffff;
$DONE:
  selp.u32 %r5, 1, 0, %p3;
  selp.u32 %r6, 1, 0, %p4;
  activemask.b32 %r7;
  mul.wide.u32 %rd2, %r1, 32;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};
  st.global.u32 [%rd3+16], %r7;
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> Out(32 * 8);
  uint32_t *O = Out.data();
  LaunchMetrics Mt;
  {
    LaunchResult R = run(*M, "votes", {1, 1, 1}, {32, 1, 1}, {&O}, &Mt);
    ASSERT_EQ(R.Status, LaunchStatus::Ok) << R.Message;
  }
  for (int L = 0; L < 32; ++L) {
    uint32_t *R = &Out[8 * L];
    if (L >= 20) {
      EXPECT_EQ(R[0], 0xaaa00000u) << L;
      EXPECT_EQ(R[1], 0xfff00000u) << L;
      EXPECT_EQ(R[2], 0u) << L;
      EXPECT_EQ(R[3], 1u) << L;
    } else {
      EXPECT_EQ(R[0], 0x00055555u) << L; // even lanes (negated predicate)
      EXPECT_EQ(R[1], 0x000fffffu) << L;
      EXPECT_EQ(R[2], 1u) << L;
      EXPECT_EQ(R[3], 1u) << L;
    }
    EXPECT_EQ(R[4], 0xffffffffu) << L; // reconverged
  }
  EXPECT_EQ(Mt.Branches, 2u);
  EXPECT_EQ(Mt.DivergentBranches, 1u);
}

TEST(WarpInst, MatchReduxElect) {
  std::string P = ptxHeader() + R"(
.visible .entry mre(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %laneid;
  shr.u32 %r2, %r1, 3;
  match.any.sync.b32 %r3, %r2, -1;
  match.all.sync.b32 %r4|%p1, %r2, -1;
  redux.sync.add.u32 %r5, %r1, -1;
  redux.sync.max.s32 %r6, %r2, 0x0000ffff;
  selp.u32 %r7, 1, 0, %p1;
  elect.sync %r8|%p2, 0xfffffff0;
  selp.u32 %r9, 1, 0, %p2;
  mul.wide.u32 %rd2, %r1, 32;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};
  st.global.v2.u32 [%rd3+16], {%r7, %r9};
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> Out(32 * 8);
  uint32_t *O = Out.data();
  {
    LaunchResult R = run(*M, "mre", {1, 1, 1}, {32, 1, 1}, {&O});
    ASSERT_EQ(R.Status, LaunchStatus::Ok) << R.Message;
  }
  for (int L = 0; L < 32; ++L) {
    uint32_t *R = &Out[8 * L];
    EXPECT_EQ(R[0], 0xffu << (8 * (L / 8))) << L;
    EXPECT_EQ(R[1], 0u) << L;
    EXPECT_EQ(R[2], 496u) << L; // 0 + 1 + ... + 31
    EXPECT_EQ(R[3], 1u) << L;   // lanes 0..15 have values 0 and 1
    EXPECT_EQ(R[4], 0u) << L;
    EXPECT_EQ(R[5], L == 4 ? 1u : 0u) << L; // the first lane of the mask
  }
}

//===----------------------------------------------------------------------===//
// Divergence, loops, exit, calls
//===----------------------------------------------------------------------===//

TEST(Control, DivergentLoopReconverges) {
  std::string P = ptxHeader() + R"(
.visible .entry loop(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %laneid;
  mov.u32 %r2, 0;
  mov.u32 %r3, 0;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $END;
$LOOP:
  add.u32 %r3, %r3, %r2;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, %r1;
  @%p2 bra $LOOP;
$END:
  activemask.b32 %r4;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r3, %r4};
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> Out(64);
  uint32_t *O = Out.data();
  LaunchMetrics Mt;
  ASSERT_EQ(run(*M, "loop", {1, 1, 1}, {32, 1, 1}, {&O}, &Mt).Status, LaunchStatus::Ok);
  for (uint32_t L = 0; L < 32; ++L) {
    EXPECT_EQ(Out[2 * L], L == 0 ? 0 : L * (L - 1) / 2) << L;
    EXPECT_EQ(Out[2 * L + 1], 0xffffffffu) << L;
  }
  // The first branch splits lane 0 off; the loop branch runs 31 times
  // (iteration k has lanes k..31 active) and splits at all but the last.
  EXPECT_EQ(Mt.Branches, 32u);
  EXPECT_EQ(Mt.DivergentBranches, 31u);
  // Thread instructions: 6 before the loop and 5 after it for all lanes;
  // the loop body (4 instructions) runs for lanes k..31 at k = 1..31.
  uint64_t Loop = 0;
  for (int K = 1; K <= 31; ++K)
    Loop += 4 * uint64_t(32 - K);
  EXPECT_EQ(Mt.ThreadInstructions, 32 * 6 + Loop + 32 * 5);
}

TEST(Control, NestedDivergenceAndExit) {
  std::string P = ptxHeader() + R"(
.visible .entry nest(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  setp.gt.u32 %p3, %r1, 28;
  @%p3 exit;
  and.b32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra $A;
  setp.eq.u32 %p2, %r2, 1;
  @%p2 bra $B;
  mov.u32 %r3, 300;
  bra.uni $JOIN;
$B:
  mov.u32 %r3, 200;
  bra.uni $JOIN;
$A:
  mov.u32 %r3, 100;
$JOIN:
  activemask.b32 %r4;
  add.u32 %r3, %r3, %r1;
  st.global.u32 [%rd3], %r3;
  st.global.u32 [%rd3+256], %r4;
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> Out(128);
  uint32_t *O = Out.data();
  ASSERT_EQ(run(*M, "nest", {1, 1, 1}, {40, 1, 1}, {&O}).Status, LaunchStatus::Ok);
  for (uint32_t T = 0; T < 40; ++T) {
    if (T > 28) {
      EXPECT_EQ(Out[T], 0u) << T; // exited
      continue;
    }
    uint32_t Want = (T % 4 == 0 ? 100 : T % 4 == 1 ? 200 : 300) + T;
    EXPECT_EQ(Out[T], Want) << T;
    EXPECT_EQ(Out[64 + T], T < 32 ? 0x1fffffffu : 0u) << T;
  }
}

TEST(Control, CallsWithDivergentReturn) {
  std::string P = ptxHeader() + R"(
.func (.param .b32 r) f(.param .b32 x)
{
  .reg .b32 %a, %b;
  .reg .pred %p;
  ld.param.b32 %a, [x];
  setp.lt.s32 %p, %a, 10;
  @%p bra $SMALL;
  mul.lo.s32 %b, %a, 2;
  st.param.b32 [r], %b;
  ret;
$SMALL:
  add.s32 %b, %a, 100;
  st.param.b32 [r], %b;
  ret;
}
.visible .entry calls(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, 7;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 1;
  {
    .param .b32 param0;
    st.param.b32 [param0], %r1;
    .param .b32 retval0;
    @%p1 call.uni (retval0), f, (param0);
    @%p1 ld.param.b32 %r3, [retval0];
  }
  activemask.b32 %r4;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r3, %r4};
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> Out(128);
  uint32_t *O = Out.data();
  ASSERT_EQ(run(*M, "calls", {1, 1, 1}, {64, 1, 1}, {&O}).Status, LaunchStatus::Ok);
  for (uint32_t T = 0; T < 64; ++T) {
    uint32_t Want = T % 2 == 0 ? 7 : T < 10 ? T + 100 : 2 * T;
    EXPECT_EQ(Out[2 * T], Want) << T;
    EXPECT_EQ(Out[2 * T + 1], 0xffffffffu) << T;
  }
}

//===----------------------------------------------------------------------===//
// Barriers
//===----------------------------------------------------------------------===//

TEST(Control, BarrierOrdersWarps) {
  std::string P = ptxHeader() + R"(
.visible .entry bars(.param .u64 out)
{
  .shared .align 4 .b8 sh[256];
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.lo.u32 %r2, %r1, 3;
  shl.b32 %r3, %r1, 2;
  mov.u32 %r4, sh;
  add.u32 %r5, %r4, %r3;
  st.shared.u32 [%r5], %r2;
  bar.sync 0;
  add.u32 %r6, %r1, 32;
  and.b32 %r6, %r6, 63;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r4, %r6;
  ld.shared.u32 %r7, [%r6];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> Out(64);
  uint32_t *O = Out.data();
  ASSERT_EQ(run(*M, "bars", {3, 1, 1}, {64, 1, 1}, {&O}).Status, LaunchStatus::Ok);
  for (uint32_t T = 0; T < 64; ++T)
    EXPECT_EQ(Out[T], ((T + 32) % 64) * 3) << T;
}

TEST(Control, NamedBarrierProducerConsumer) {
  // Warp 1 produces (bar.arrive), warp 0 consumes (bar.sync) on barrier 1.
  std::string P = ptxHeader() + R"(
.visible .entry pc(.param .u64 out)
{
  .shared .align 4 .b8 sh[128];
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, sh;
  add.u32 %r4, %r4, %r3;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra $CONSUMER;
  add.u32 %r5, %r2, 1000;
  st.shared.u32 [%r4], %r5;
  bar.arrive 1, 64;
  bra.uni $END;
$CONSUMER:
  bar.sync 1, 64;
  ld.shared.u32 %r6, [%r4];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
$END:
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> Out(32);
  uint32_t *O = Out.data();
  ASSERT_EQ(run(*M, "pc", {1, 1, 1}, {64, 1, 1}, {&O}).Status, LaunchStatus::Ok);
  for (uint32_t T = 0; T < 32; ++T)
    EXPECT_EQ(Out[T], T + 1000) << T;
}

TEST(Control, BarrierIgnoresExitedWarps) {
  std::string P = ptxHeader() + R"(
.visible .entry early(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 64;
  @%p1 exit;
  bar.sync 0;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> Out(128);
  uint32_t *O = Out.data();
  LaunchResult R = run(*M, "early", {1, 1, 1}, {128, 1, 1}, {&O});
  ASSERT_EQ(R.Status, LaunchStatus::Ok) << R.Message;
  EXPECT_EQ(Out[63], 63u);
  EXPECT_EQ(Out[64], 0u);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

TEST(Memory, VectorAccessesInEveryStateSpace) {
  std::string P = ptxHeader() + R"(
.visible .entry vec(.param .u64 in, .param .u64 out)
{
  .local .align 16 .b8 loc[32];
  .shared .align 16 .b8 sh[512];
  .reg .b32 %r<12>;
  .reg .f32 %f<5>;
  .reg .b64 %rd<10>;
  .reg .b16 %h<3>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];
  mov.u64 %rd5, loc;
  st.local.v4.f32 [%rd5+16], {%f4, %f3, %f2, %f1};
  ld.local.v2.u32 {%r2, %r3}, [%rd5+16];
  ld.local.v2.u32 {%r4, %r5}, [%rd5+24];
  shl.b32 %r6, %r1, 4;
  mov.u32 %r7, sh;
  add.u32 %r7, %r7, %r6;
  st.shared.v4.u32 [%r7], {%r2, %r3, %r4, %r5};
  ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [%r7];
  add.s64 %rd6, %rd2, %rd3;
  st.global.v4.u32 [%rd6], {%r8, %r9, %r10, %r11};
  ld.global.s8 %r2, [%rd4+3];
  ld.global.s16 %h1, [%rd4+2];
  ld.global.u8 %h2, [%rd4+3];
  cvt.u32.u16 %r3, %h1;
  cvt.u32.u16 %r4, %h2;
  mul.wide.u32 %rd7, %r1, 16;
  add.s64 %rd8, %rd2, %rd7;
  st.global.v2.u32 [%rd8+512], {%r2, %r3};
  st.global.u32 [%rd8+520], %r4;
  ret;
}
)";
  auto M = load(P);
  Buffer<float> In(128);
  Buffer<uint32_t> Out(128 + 128);
  for (int K = 0; K < 128; ++K)
    In[K] = float(K) - 64.5f;
  float *I = In.data();
  uint32_t *O = Out.data();
  {
    LaunchResult R = run(*M, "vec", {1, 1, 1}, {32, 1, 1}, {&I, &O});
    ASSERT_EQ(R.Status, LaunchStatus::Ok) << R.Message;
  }
  for (int T = 0; T < 32; ++T) {
    for (int K = 0; K < 4; ++K) {
      float F = In[4 * T + 3 - K];
      uint32_t U;
      std::memcpy(&U, &F, 4);
      EXPECT_EQ(Out[4 * T + K], U) << T << " " << K;
    }
    uint32_t W;
    std::memcpy(&W, &In[4 * T], 4);
    EXPECT_EQ(Out[128 + 4 * T], uint32_t(int32_t(int8_t(W >> 24)))) << T; // sign-extended
    EXPECT_EQ(Out[128 + 4 * T + 1], uint32_t(uint16_t(W >> 16))) << T;
    EXPECT_EQ(Out[128 + 4 * T + 2], uint32_t(uint8_t(W >> 24))) << T;
  }
}

TEST(Memory, GenericAddressing) {
  std::string P = ptxHeader() + R"(
.visible .entry gen(.param .u64 out)
{
  .local .align 8 .b8 loc[8];
  .shared .align 8 .b8 sh[256];
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  .reg .pred %p<5>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd2, sh;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  cvta.shared.u64 %rd4, %rd2;
  st.u32 [%rd4], %r1;
  mov.u64 %rd5, loc;
  cvta.local.u64 %rd6, %rd5;
  add.u32 %r2, %r1, 500;
  st.u32 [%rd6], %r2;
  ld.u32 %r3, [%rd4];
  ld.u32 %r4, [%rd6];
  cvta.to.shared.u64 %rd7, %rd4;
  ld.shared.u32 %r5, [%rd7];
  isspacep.shared %p1, %rd4;
  isspacep.local %p2, %rd6;
  isspacep.global %p3, %rd1;
  isspacep.global %p4, %rd4;
  selp.u32 %r6, 1, 0, %p1;
  selp.u32 %r7, 2, 0, %p2;
  add.u32 %r6, %r6, %r7;
  selp.u32 %r7, 4, 0, %p3;
  add.u32 %r6, %r6, %r7;
  selp.u32 %r7, 8, 0, %p4;
  add.u32 %r6, %r6, %r7;
  mul.wide.u32 %rd8, %r1, 16;
  add.s64 %rd9, %rd1, %rd8;
  st.global.v4.u32 [%rd9], {%r3, %r4, %r5, %r6};
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> Out(4 * 40);
  uint32_t *O = Out.data();
  LaunchMetrics Mt;
  ASSERT_EQ(run(*M, "gen", {1, 1, 1}, {40, 1, 1}, {&O}, &Mt).Status, LaunchStatus::Ok);
  for (uint32_t T = 0; T < 40; ++T) {
    EXPECT_EQ(Out[4 * T], T);
    EXPECT_EQ(Out[4 * T + 1], T + 500);
    EXPECT_EQ(Out[4 * T + 2], T);
    EXPECT_EQ(Out[4 * T + 3], 7u);
  }
  // Generic accesses resolving to shared/local are counted as such.
  EXPECT_EQ(Mt.WarpInstructions[unsigned(InstClass::SharedStore)], 2u);
  EXPECT_EQ(Mt.WarpInstructions[unsigned(InstClass::LocalStore)], 2u);
  EXPECT_EQ(Mt.WarpInstructions[unsigned(InstClass::SharedLoad)], 4u);
  EXPECT_EQ(Mt.WarpInstructions[unsigned(InstClass::GlobalStore)], 2u);
  EXPECT_EQ(Mt.GlobalStoreRequests, 2u);
}

TEST(Memory, AtomicOperations) {
  std::string P = ptxHeader() + R"(
.visible .entry at(.param .u64 g, .param .u64 out)
{
  .shared .align 4 .b8 sh[8];
  .reg .b32 %r<12>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<6>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [g];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.shared.u32 [sh], 0;
  @%p1 st.shared.f32 [sh+4], 0f00000000;
  bar.sync 0;
  atom.global.inc.u32 %r2, [%rd1], 4;
  atom.global.dec.u32 %r3, [%rd1+4], 2;
  atom.global.cas.b32 %r4, [%rd1+8], %r1, 100;
  atom.global.exch.b32 %r5, [%rd1+12], %r1;
  atom.global.max.s32 %r6, [%rd1+16], %r1;
  atom.global.min.u32 %r7, [%rd1+20], %r1;
  atom.shared.add.u32 %r8, [sh], 2;
  red.global.add.u32 [%rd1+24], 1;
  red.global.or.b32 [%rd1+28], %r1;
  atom.global.add.f32 %f1, [%rd1+32], 0f00800000;
  atom.shared.add.f32 %f2, [sh+4], 0f00000001;
  mul.wide.u32 %rd3, %r1, 32;
  add.s64 %rd4, %rd2, %rd3;
  st.global.v4.u32 [%rd4], {%r2, %r3, %r4, %r5};
  st.global.v2.u32 [%rd4+16], {%r6, %r7};
  st.global.u32 [%rd4+24], %r8;
  bar.sync 0;
  @%p1 ld.shared.u32 %r9, [sh];
  @%p1 ld.shared.u32 %r10, [sh+4];
  @%p1 st.global.v2.u32 [%rd1+40], {%r9, %r10};
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> G(16), Out(8 * 8);
  G[1] = 0;                 // dec from 0 wraps to the bound
  G[2] = 3;                 // cas succeeds for thread 3
  G[4] = uint32_t(-5);      // max
  G[5] = 6;                 // min (unsigned)
  float Tiny = std::ldexp(1.0f, -127); // subnormal
  std::memcpy(&G[8], &Tiny, 4);
  uint32_t *GP = G.data(), *O = Out.data();
  LaunchMetrics Mt;
  {
    LaunchResult R = run(*M, "at", {1, 1, 1}, {8, 1, 1}, {&GP, &O}, &Mt);
    ASSERT_EQ(R.Status, LaunchStatus::Ok) << R.Message;
  }
  // Lanes apply atomics in lane order.
  for (uint32_t T = 0; T < 8; ++T) {
    uint32_t *R = &Out[8 * T];
    EXPECT_EQ(R[0], T % 5) << T;                    // inc wraps at 4
    uint32_t Dec[] = {0, 2, 1, 0, 2, 1, 0, 2};
    EXPECT_EQ(R[1], Dec[T]) << T;
    EXPECT_EQ(R[2], T <= 3 ? 3u : 100u) << T;
    EXPECT_EQ(R[3], T == 0 ? 0u : T - 1) << T;
    EXPECT_EQ(int32_t(R[4]), T == 0 ? -5 : int32_t(T - 1)) << T;
    EXPECT_EQ(R[5], T == 0 ? 6u : 0u) << T;
    EXPECT_EQ(R[6], 2 * T) << T;
  }
  EXPECT_EQ(G[0], 8u % 5);
  EXPECT_EQ(G[2], 100u);
  EXPECT_EQ(G[3], 7u);
  EXPECT_EQ(int32_t(G[4]), 7);
  EXPECT_EQ(G[5], 0u);
  EXPECT_EQ(G[6], 8u);
  EXPECT_EQ(G[7], 7u);
  // Global f32 atomic adds flush subnormals: 2^-127 + 2^-126 -> 8 * 2^-126
  // after the first add flushed the stored subnormal.
  float Sum;
  std::memcpy(&Sum, &G[8], 4);
  EXPECT_EQ(Sum, 8 * std::ldexp(1.0f, -126));
  EXPECT_EQ(G[10], 16u);
  // Shared f32 atomic adds keep subnormals: 8 * smallest subnormal.
  EXPECT_EQ(G[11], 8u);
  EXPECT_EQ(Mt.GlobalAtomicRequests, 9u);
  EXPECT_EQ(Mt.WarpInstructions[unsigned(InstClass::Atomic)], 11u);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(Errors, UnsupportedInstructionNamesKernelAndLine) {
  std::string P = ptxHeader() + R"(
.visible .entry tex1(.param .u64 out, .param .u32 n)
{
  .reg .b32 %r<6>;
  .reg .f32 %f<5>;
  .reg .b64 %rd<3>;
  .reg .pred %p<2>;
  ld.param.u32 %r1, [n];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $SKIP;
  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex, {%f1, %f2}];
$SKIP:
  ret;
}
)";
  auto M = load(P);
  ASSERT_TRUE(M);
  const KernelInfo *K = M->findKernel("tex1");
  ASSERT_TRUE(K);
  ASSERT_EQ(K->Unsupported.size(), 1u);
  std::string Line = std::to_string(lineOf(P, "tex.2d"));
  EXPECT_EQ(K->Unsupported[0],
            "unsupported instruction 'tex.2d.v4.f32.f32' at PTX line " + Line);
  uint64_t Out = 0;
  uint64_t *OP = &Out;
  uint32_t N = 0;
  // Not reached: the launch works.
  EXPECT_EQ(run(*M, "tex1", {1, 1, 1}, {32, 1, 1}, {&OP, &N}).Status, LaunchStatus::Ok);
  N = 1;
  LaunchResult R = run(*M, "tex1", {1, 1, 1}, {32, 1, 1}, {&OP, &N});
  EXPECT_EQ(R.Status, LaunchStatus::UnsupportedInstruction);
  EXPECT_EQ(R.Message, "unsupported instruction 'tex.2d.v4.f32.f32' in kernel 'tex1' at "
                       "PTX line " + Line + " (block 0,0,0)");
}

TEST(Errors, ParseErrorsNameTheLine) {
  std::string Err;
  auto M = Module::load(ptxHeader() + ".visible .entry k()\n{\n  .reg .b32 %r;\n  mov.u32 %r, ;\n}\n", Err);
  EXPECT_FALSE(M);
  EXPECT_EQ(Err, "ptx:7: expected an operand, found ';'");
  M = Module::load(ptxHeader() + ".bogus 3;\n", Err);
  EXPECT_FALSE(M);
  EXPECT_EQ(Err, "ptx:4: unknown directive '.bogus' at module scope");
}

TEST(Errors, ParameterLoadsStayInsideTheParameters) {
  // A 4-byte load of the last, 2-byte parameter reads the padding of the
  // 8-byte-rounded buffer; a load past it faults (found by the PTX fuzzer:
  // it read host memory).
  std::string P = ptxHeader() + R"(
.visible .entry k(.param .u16 a, .param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u32 %r1, [a];
  ld.param.u64 %rd1, [out+8];
  ret;
}
)";
  auto M = load(P);
  ASSERT_TRUE(M);
  uint16_t A = 3;
  uint64_t Out = 0;
  LaunchResult R = run(*M, "k", {1, 1, 1}, {1, 1, 1}, {&A, &Out});
  EXPECT_EQ(R.Status, LaunchStatus::MemoryFault);
  EXPECT_NE(R.Message.find("out-of-bounds parameter load of 8 bytes at offset "
                           "16 (the kernel's parameters take 16 bytes)"),
            std::string::npos)
      << R.Message;
  EXPECT_NE(R.Message.find("at PTX line " +
                           std::to_string(lineOf(P, "[out+8]"))),
            std::string::npos)
      << R.Message;
}

TEST(Errors, MemoryFaults) {
  std::string P = ptxHeader() + R"(
.visible .entry bad(.param .u64 p, .param .u32 off)
{
  .shared .align 4 .b8 sh[64];
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [off];
  mov.u32 %r2, sh;
  add.u32 %r2, %r2, %r1;
  st.shared.u32 [%r2], 1;
  ld.global.u32 %r3, [%rd1];
  ret;
}
)";
  auto M = load(P);
  uint32_t Off = 64;
  uint64_t Ptr = 0;
  LaunchResult R = run(*M, "bad", {1, 1, 1}, {1, 1, 1}, {&Ptr, &Off});
  EXPECT_EQ(R.Status, LaunchStatus::MemoryFault);
  EXPECT_NE(R.Message.find("out-of-bounds shared store of 4 bytes at offset 0x40"),
            std::string::npos)
      << R.Message;
  EXPECT_NE(R.Message.find("at PTX line " + std::to_string(lineOf(P, "st.shared"))),
            std::string::npos)
      << R.Message;
  Off = 0;
  R = run(*M, "bad", {1, 1, 1}, {1, 1, 1}, {&Ptr, &Off});
  EXPECT_EQ(R.Status, LaunchStatus::MemoryFault);
  EXPECT_NE(R.Message.find("null pointer: global load"), std::string::npos) << R.Message;
  // A global check hook rejects other addresses.
  Buffer<uint32_t> B(4);
  Ptr = uint64_t(B.data());
  LaunchOptions O;
  O.Grid = {1, 1, 1};
  O.Block = {1, 1, 1};
  void *Args[] = {&Ptr, &Off};
  O.Args = Args;
  O.GlobalCheck = [](void *, uint64_t, uint64_t) { return false; };
  R = M->launch("bad", O);
  EXPECT_EQ(R.Status, LaunchStatus::MemoryFault);
  EXPECT_NE(R.Message.find("out-of-bounds global load of 4 bytes at address"), std::string::npos) << R.Message;
  O.GlobalCheck = nullptr;
  Off = 2;
  R = M->launch("bad", O);
  EXPECT_EQ(R.Status, LaunchStatus::MemoryFault);
  EXPECT_NE(R.Message.find("misaligned shared store"), std::string::npos) << R.Message;
}

// A warp's global accesses checked against the launch's ranges (the pass
// that takes four lanes at a time where the CPU has AVX2): in range, null,
// misaligned, one lane past the end, a range above the warp's; lanes that
// do not load (the first Active lanes do) are not checked.
TEST(Errors, WarpGlobalChecks) {
  std::string P = ptxHeader() + R"(
.visible .entry rd(.param .u64 p, .param .u64 off, .param .u32 active)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [p];
  ld.param.u64 %rd2, [off];
  ld.param.u32 %r3, [active];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.u64 %rd4, %rd1, %rd3;
  add.u64 %rd5, %rd4, %rd2;
  setp.lt.u32 %p1, %r1, %r3;
  @%p1 ld.global.u32 %r2, [%rd5];
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> B(2048); // the ranges below lie inside it
  uint64_t Base = uint64_t(B.data());
  std::vector<std::pair<uint64_t, uint64_t>> Ranges = {
      {Base, Base + 64 * 4}, {Base + 1000 * 4, Base + 2000 * 4}};
  auto Launch = [&](uint64_t Ptr, uint64_t Off, uint32_t Active = 32) {
    LaunchOptions O;
    O.Grid = {1, 1, 1};
    O.Block = {32, 1, 1};
    void *Args[] = {&Ptr, &Off, &Active};
    O.Args = Args;
    O.GlobalRanges = &Ranges;
    return M->launch("rd", O);
  };
  // Both paths where the CPU has AVX2 (four lanes at a time, and not).
  const bool Avx2 = HostHasAvx2;
  for (bool Use : {Avx2, false}) {
    HostHasAvx2 = Use;
    EXPECT_EQ(Launch(Base, 0).Status, LaunchStatus::Ok);
    EXPECT_EQ(Launch(Base, 32 * 4).Status, LaunchStatus::Ok);
    LaunchResult R = Launch(0, 0);
    EXPECT_EQ(R.Status, LaunchStatus::MemoryFault);
    EXPECT_NE(R.Message.find("null pointer: global load"), std::string::npos) << R.Message;
    R = Launch(Base, 2);
    EXPECT_EQ(R.Status, LaunchStatus::MemoryFault);
    EXPECT_NE(R.Message.find("misaligned global load"), std::string::npos) << R.Message;
    R = Launch(Base, 33 * 4);
    EXPECT_EQ(R.Status, LaunchStatus::MemoryFault);
    EXPECT_NE(R.Message.find("(lane 31)"), std::string::npos) << R.Message;
    // The second range, after an access that hit the first: looked up anew.
    EXPECT_EQ(Launch(Base, 1000 * 4).Status, LaunchStatus::Ok);
    R = Launch(Base, 500 * 4);
    EXPECT_EQ(R.Status, LaunchStatus::MemoryFault);
    EXPECT_NE(R.Message.find("(lane 0)"), std::string::npos) << R.Message;
    // Part of the warp: lanes 16-31 would read past the end, and do not.
    EXPECT_EQ(Launch(Base, 48 * 4, 16).Status, LaunchStatus::Ok);
    R = Launch(Base, 48 * 4, 17);
    EXPECT_EQ(R.Status, LaunchStatus::MemoryFault);
    EXPECT_NE(R.Message.find("(lane 16)"), std::string::npos) << R.Message;
    EXPECT_EQ(Launch(Base, 2, 0).Status, LaunchStatus::Ok);
    R = Launch(Base, 2, 5);
    EXPECT_EQ(R.Status, LaunchStatus::MemoryFault);
    EXPECT_NE(R.Message.find("misaligned global load"), std::string::npos) << R.Message;
  }
  HostHasAvx2 = Avx2;
}

TEST(Errors, TrapDeadlockAndConfiguration) {
  std::string P = ptxHeader() + R"(
.visible .entry tr()
{
  trap;
  ret;
}
.visible .entry dead()
{
  .reg .b32 %r<2>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra $A;
  bar.sync 2;
  ret;
$A:
  bar.sync 1;
  ret;
}
.visible .entry req() .reqntid 64, 1, 1
{
  ret;
}
.visible .entry forever()
{
$L:
  bra.uni $L;
}
)";
  auto M = load(P);
  LaunchResult R = run(*M, "tr", {1, 1, 1}, {1, 1, 1}, {});
  EXPECT_EQ(R.Status, LaunchStatus::Trap);
  EXPECT_EQ(R.Message, "trap instruction executed in kernel 'tr' at PTX line " +
                           std::to_string(lineOf(P, "trap;")) + " (block 0,0,0)");
  R = run(*M, "dead", {1, 1, 1}, {64, 1, 1}, {});
  EXPECT_EQ(R.Status, LaunchStatus::Trap);
  EXPECT_NE(R.Message.find("barrier deadlock"), std::string::npos) << R.Message;
  EXPECT_EQ(run(*M, "tr", {1, 1, 1}, {1025, 1, 1}, {}).Status,
            LaunchStatus::InvalidConfiguration);
  EXPECT_EQ(run(*M, "tr", {0, 1, 1}, {1, 1, 1}, {}).Status, LaunchStatus::InvalidConfiguration);
  EXPECT_EQ(run(*M, "req", {1, 1, 1}, {32, 1, 1}, {}).Status,
            LaunchStatus::InvalidConfiguration);
  EXPECT_EQ(run(*M, "req", {1, 1, 1}, {64, 1, 1}, {}).Status, LaunchStatus::Ok);
  EXPECT_EQ(run(*M, "nosuch", {1, 1, 1}, {1, 1, 1}, {}).Status,
            LaunchStatus::InvalidConfiguration);
  // A kernel that never ends stops at the instruction limit.
  LaunchOptions O;
  O.Grid = {1, 1, 1};
  O.Block = {64, 1, 1};
  O.MaxWarpInstructionsPerBlock = 1000000;
  R = M->launch("forever", O);
  EXPECT_EQ(R.Status, LaunchStatus::Trap);
  EXPECT_EQ(R.Message, "block exceeded the limit of 1000000 warp instructions in kernel "
                       "'forever' (block 0,0,0)");
}

} // namespace
