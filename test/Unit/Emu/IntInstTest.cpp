//===- IntInstTest.cpp - integer, logic, compare and move instructions ----===//
///
/// \file
/// One instruction per test kernel, one case per lane, results against
/// values computed on the host (or derived by hand from the PTX ISA).
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include <climits>

using namespace emutest;

namespace {

std::vector<OpCase> pairs(std::initializer_list<std::pair<int64_t, int64_t>> L) {
  std::vector<OpCase> R;
  for (auto &P : L)
    R.push_back({uint64_t(P.first), uint64_t(P.second), 0});
  return R;
}

uint64_t u32(int64_t V) { return uint64_t(uint32_t(V)); }

TEST(IntInst, AddSubWrap) {
  auto C = pairs({{INT_MAX, 1}, {-5, 3}, {0, -1}, {INT_MIN, -1}});
  auto R = runOpD("add.s32 %d, %a, %b;", "s32", {"s32", "s32"}, C);
  EXPECT_EQ(R[0], u32(INT_MIN));
  EXPECT_EQ(R[1], u32(-2));
  EXPECT_EQ(R[2], u32(-1));
  EXPECT_EQ(R[3], u32(INT_MAX));
  R = runOpD("sub.u32 %d, %a, %b;", "u32", {"u32", "u32"}, pairs({{0, 1}, {10, 3}}));
  EXPECT_EQ(R[0], 0xffffffffu);
  EXPECT_EQ(R[1], 7u);
  R = runOpD("add.u16 %d, %a, %b;", "u16", {"u16", "u16"}, pairs({{65535, 1}, {40000, 40000}}));
  EXPECT_EQ(R[0], 0u);
  EXPECT_EQ(R[1], uint64_t((40000 + 40000) & 0xffff));
  R = runOpD("add.s64 %d, %a, %b;", "s64", {"s64", "s64"}, pairs({{LLONG_MAX, 1}}));
  EXPECT_EQ(R[0], uint64_t(LLONG_MIN));
  // With an immediate operand.
  R = runOpD("add.s32 %d, %a, -7;", "s32", {"s32"}, pairs({{3, 0}}));
  EXPECT_EQ(R[0], u32(-4));
}

TEST(IntInst, Saturation) {
  auto C = pairs({{INT_MAX, 1}, {INT_MIN, -1}, {5, 6}});
  auto R = runOpD("add.sat.s32 %d, %a, %b;", "s32", {"s32", "s32"}, C);
  EXPECT_EQ(R[0], u32(INT_MAX));
  EXPECT_EQ(R[1], u32(INT_MIN));
  EXPECT_EQ(R[2], 11u);
  R = runOpD("sub.sat.s32 %d, %a, %b;", "s32", {"s32", "s32"},
             pairs({{INT_MIN, 1}, {INT_MAX, -1}}));
  EXPECT_EQ(R[0], u32(INT_MIN));
  EXPECT_EQ(R[1], u32(INT_MAX));
}

TEST(IntInst, Multiply) {
  auto C = pairs({{-3, 7}, {0x7fffffff, 0x7fffffff}, {-1, -1}, {0x10000, 0x10000}});
  auto Lo = runOpD("mul.lo.s32 %d, %a, %b;", "s32", {"s32", "s32"}, C);
  auto Hi = runOpD("mul.hi.s32 %d, %a, %b;", "s32", {"s32", "s32"}, C);
  auto HiU = runOpD("mul.hi.u32 %d, %a, %b;", "u32", {"u32", "u32"}, C);
  auto Wide = runOpD("mul.wide.s32 %d, %a, %b;", "s64", {"s32", "s32"}, C);
  auto WideU = runOpD("mul.wide.u32 %d, %a, %b;", "u64", {"u32", "u32"}, C);
  for (size_t K = 0; K < C.size(); ++K) {
    int64_t A = int32_t(C[K].A), B = int32_t(C[K].B);
    uint64_t UA = uint32_t(C[K].A), UB = uint32_t(C[K].B);
    EXPECT_EQ(Lo[K], u32(A * B)) << K;
    EXPECT_EQ(Hi[K], u32((A * B) >> 32)) << K;
    EXPECT_EQ(HiU[K], u32((UA * UB) >> 32)) << K;
    EXPECT_EQ(Wide[K], uint64_t(A * B)) << K;
    EXPECT_EQ(WideU[K], UA * UB) << K;
  }
  auto H64 = runOpD("mul.hi.u64 %d, %a, %b;", "u64", {"u64", "u64"},
                    {{~0ull, ~0ull, 0}, {1ull << 63, 4, 0}});
  EXPECT_EQ(H64[0], ~0ull - 1);
  EXPECT_EQ(H64[1], 2u);
  auto H64S = runOpD("mul.hi.s64 %d, %a, %b;", "s64", {"s64", "s64"},
                     {{sx(-1), 5, 0}, {sx(LLONG_MIN), 2, 0}});
  EXPECT_EQ(H64S[0], ~0ull);
  EXPECT_EQ(H64S[1], ~0ull);
  auto W16 = runOpD("mul.wide.s16 %d, %a, %b;", "s32", {"s16", "s16"},
                    pairs({{-300, 200}, {32767, 32767}}));
  EXPECT_EQ(W16[0], u32(-60000));
  EXPECT_EQ(W16[1], u32(32767 * 32767));
  auto M24 = runOpD("mul24.lo.s32 %d, %a, %b;", "s32", {"s32", "s32"},
                    pairs({{0x01000003, 5}, {-2, 3}}));
  EXPECT_EQ(M24[0], 15u); // bits above 24 ignored
  EXPECT_EQ(M24[1], u32(-6));
  auto M24H = runOpD("mul24.hi.u32 %d, %a, %b;", "u32", {"u32", "u32"},
                     pairs({{0xffffff, 0xffffff}}));
  EXPECT_EQ(M24H[0], u32((0xffffffull * 0xffffffull) >> 16));
}

TEST(IntInst, MultiplyAdd) {
  std::vector<OpCase> C = {{u32(-3), 7, 100}, {0xffffffff, 2, 5}, {1000000, 1000000, u32(-1)}};
  auto Lo = runOpD("mad.lo.s32 %d, %a, %b, %c;", "s32", {"s32", "s32", "s32"}, C);
  auto Hi = runOpD("mad.hi.u32 %d, %a, %b, %c;", "u32", {"u32", "u32", "u32"}, C);
  auto Wide = runOpD("mad.wide.u32 %d, %a, %b, %c;", "u64", {"u32", "u32", "u64"}, C);
  for (size_t K = 0; K < C.size(); ++K) {
    uint64_t A = uint32_t(C[K].A), B = uint32_t(C[K].B), Cc = uint32_t(C[K].C);
    EXPECT_EQ(Lo[K], u32(A * B + Cc)) << K;
    EXPECT_EQ(Hi[K], u32(((A * B) >> 32) + Cc)) << K;
    EXPECT_EQ(Wide[K], A * B + C[K].C) << K;
  }
  auto Sad = runOpD("sad.s32 %d, %a, %b, %c;", "s32", {"s32", "s32", "s32"},
                    {{u32(-5), 3, 10, }});
  EXPECT_EQ(Sad[0], 18u);
  auto HiSat = runOpD("mad.hi.sat.s32 %d, %a, %b, %c;", "s32", {"s32", "s32", "s32"},
                      {{u32(INT_MAX), u32(INT_MAX), u32(INT_MAX)}});
  EXPECT_EQ(HiSat[0], u32(INT_MAX));
}

TEST(IntInst, DivRem) {
  auto C = pairs({{-7, 2}, {7, -2}, {100, 7}, {INT_MIN, -1}, {5, 0}, {-5, 0}});
  auto D = runOpD("div.s32 %d, %a, %b;", "s32", {"s32", "s32"}, C);
  auto R = runOpD("rem.s32 %d, %a, %b;", "s32", {"s32", "s32"}, C);
  EXPECT_EQ(D[0], u32(-3));
  EXPECT_EQ(R[0], u32(-1));
  EXPECT_EQ(D[1], u32(-3));
  EXPECT_EQ(R[1], 1u);
  EXPECT_EQ(D[2], 14u);
  EXPECT_EQ(R[2], 2u);
  EXPECT_EQ(D[3], u32(INT_MIN)); // wraps
  EXPECT_EQ(R[3], 0u);
  // Division by zero (undefined in PTX): -1 quotient, dividend remainder.
  EXPECT_EQ(D[4], u32(-1));
  EXPECT_EQ(R[4], 5u);
  EXPECT_EQ(R[5], u32(-5));
  auto DU = runOpD("div.u32 %d, %a, %b;", "u32", {"u32", "u32"}, pairs({{7, 0}, {0xffffffff, 2}}));
  EXPECT_EQ(DU[0], 0xffffffffu);
  EXPECT_EQ(DU[1], 0x7fffffffu);
  auto D64 = runOpD("div.s64 %d, %a, %b;", "s64", {"s64", "s64"}, pairs({{-(1LL << 40), 3}}));
  EXPECT_EQ(D64[0], uint64_t(-(1LL << 40) / 3));
  auto R16 = runOpD("rem.u16 %d, %a, %b;", "u16", {"u16", "u16"}, pairs({{65535, 10}}));
  EXPECT_EQ(R16[0], 5u);
}

TEST(IntInst, MinMaxAbsNeg) {
  auto C = pairs({{-1, 1}, {3, -4}, {INT_MIN, INT_MAX}});
  auto MinS = runOpD("min.s32 %d, %a, %b;", "s32", {"s32", "s32"}, C);
  auto MinU = runOpD("min.u32 %d, %a, %b;", "u32", {"u32", "u32"}, C);
  auto MaxS = runOpD("max.s32 %d, %a, %b;", "s32", {"s32", "s32"}, C);
  EXPECT_EQ(MinS[0], u32(-1));
  EXPECT_EQ(MinU[0], 1u); // 0xffffffff is large unsigned
  EXPECT_EQ(MaxS[1], 3u);
  EXPECT_EQ(MinS[2], u32(INT_MIN));
  auto Abs = runOpD("abs.s32 %d, %a;", "s32", {"s32"}, pairs({{-5, 0}, {INT_MIN, 0}, {7, 0}}));
  EXPECT_EQ(Abs[0], 5u);
  EXPECT_EQ(Abs[1], u32(INT_MIN));
  EXPECT_EQ(Abs[2], 7u);
  auto Neg = runOpD("neg.s64 %d, %a;", "s64", {"s64"}, pairs({{5, 0}}));
  EXPECT_EQ(Neg[0], uint64_t(-5));
}

TEST(IntInst, Shifts) {
  auto C = pairs({{-16, 2}, {1, 31}, {1, 32}, {-1, 40}, {0x80000000ll, 100}});
  auto Shl = runOpD("shl.b32 %d, %a, %b;", "b32", {"b32", "u32"}, C);
  auto ShrS = runOpD("shr.s32 %d, %a, %b;", "s32", {"s32", "u32"}, C);
  auto ShrU = runOpD("shr.u32 %d, %a, %b;", "u32", {"u32", "u32"}, C);
  EXPECT_EQ(Shl[0], u32(-64));
  EXPECT_EQ(Shl[1], 0x80000000u);
  EXPECT_EQ(Shl[2], 0u); // amounts beyond the width clamp
  EXPECT_EQ(ShrS[0], u32(-4));
  EXPECT_EQ(ShrS[3], u32(-1));
  EXPECT_EQ(ShrS[4], u32(-1));
  EXPECT_EQ(ShrU[0], u32(-16) >> 2);
  EXPECT_EQ(ShrU[4], 0u);
  auto Shl64 = runOpD("shl.b64 %d, %a, %b;", "b64", {"b64", "u32"}, {{1, 63, 0}, {1, 64, 0}});
  EXPECT_EQ(Shl64[0], 1ull << 63);
  EXPECT_EQ(Shl64[1], 0u);
}

TEST(IntInst, Logic) {
  auto C = pairs({{0xf0f0, 0xff00}});
  EXPECT_EQ(runOpD("and.b32 %d, %a, %b;", "b32", {"b32", "b32"}, C)[0], 0xf000u);
  EXPECT_EQ(runOpD("or.b32 %d, %a, %b;", "b32", {"b32", "b32"}, C)[0], 0xfff0u);
  EXPECT_EQ(runOpD("xor.b32 %d, %a, %b;", "b32", {"b32", "b32"}, C)[0], 0x0ff0u);
  EXPECT_EQ(runOpD("not.b32 %d, %a;", "b32", {"b32"}, C)[0], u32(~0xf0f0));
  EXPECT_EQ(runOpD("not.b16 %d, %a;", "b16", {"b16"}, C)[0], 0x0f0fu);
  auto CN = runOpD("cnot.b32 %d, %a;", "b32", {"b32"}, pairs({{0, 0}, {5, 0}}));
  EXPECT_EQ(CN[0], 1u);
  EXPECT_EQ(CN[1], 0u);
  // Predicates.
  auto P = runOp("and.pred %d, %a, %b; or.pred %e, %a, !%b;", "pred", {"pred", "pred"},
                 pairs({{0, 0}, {0, 1}, {1, 0}, {1, 1}}), "pred");
  uint64_t AndE[] = {0, 0, 0, 1}, OrNotE[] = {1, 0, 1, 1};
  for (int K = 0; K < 4; ++K) {
    EXPECT_EQ(P[K].D, AndE[K]) << K;
    EXPECT_EQ(P[K].E, OrNotE[K]) << K;
  }
  auto X = runOp("xor.pred %d, %a, %b; not.pred %e, %a;", "pred", {"pred", "pred"},
                 pairs({{0, 1}, {1, 1}}), "pred");
  EXPECT_EQ(X[0].D, 1u);
  EXPECT_EQ(X[1].D, 0u);
  EXPECT_EQ(X[0].E, 1u);
  EXPECT_EQ(X[1].E, 0u);
}

TEST(IntInst, BitCounting) {
  auto C = pairs({{0, 0}, {1, 0}, {0x80000000ll, 0}, {0x00f00000, 0}, {-1, 0}});
  auto Popc = runOpD("popc.b32 %d, %a;", "u32", {"b32"}, C);
  auto Clz = runOpD("clz.b32 %d, %a;", "u32", {"b32"}, C);
  auto Brev = runOpD("brev.b32 %d, %a;", "b32", {"b32"}, C);
  auto Bfind = runOpD("bfind.u32 %d, %a;", "u32", {"u32"}, C);
  auto BfindS = runOpD("bfind.s32 %d, %a;", "u32", {"s32"}, C);
  auto BfindSh = runOpD("bfind.shiftamt.u32 %d, %a;", "u32", {"u32"}, C);
  uint64_t PE[] = {0, 1, 1, 4, 32}, CE[] = {32, 31, 0, 8, 0},
           BE[] = {0, 0x80000000u, 1, 0x00000f00, 0xffffffffu},
           FE[] = {0xffffffffu, 0, 31, 23, 31}, FSE[] = {0xffffffffu, 0, 30, 23, 0xffffffffu},
           FShE[] = {0xffffffffu, 31, 0, 8, 0};
  for (int K = 0; K < 5; ++K) {
    EXPECT_EQ(Popc[K], PE[K]) << K;
    EXPECT_EQ(Clz[K], CE[K]) << K;
    EXPECT_EQ(Brev[K], BE[K]) << K;
    EXPECT_EQ(Bfind[K], FE[K]) << K;
    EXPECT_EQ(BfindS[K], FSE[K]) << K;
    EXPECT_EQ(BfindSh[K], FShE[K]) << K;
  }
  auto P64 = runOpD("popc.b64 %d, %a;", "u32", {"b64"}, {{~0ull, 0, 0}});
  EXPECT_EQ(P64[0], 64u);
  auto C64 = runOpD("clz.b64 %d, %a;", "u32", {"b64"}, {{1, 0, 0}});
  EXPECT_EQ(C64[0], 63u);
  // fns: the n-th set bit from base.
  auto F = runOpD("fns.b32 %d, %a, %b, %c;", "b32", {"b32", "u32", "s32"},
                  {{0b10110, 0, 1}, {0b10110, 0, 2}, {0b10110, 0, 3}, {0b10110, 0, 4},
                   {0b10110, 4, u32(-2)}, {0b10110, 2, 0}, {0b10110, 3, 0}});
  uint64_t FnsE[] = {1, 2, 4, 0xffffffffu, 2, 2, 0xffffffffu};
  for (int K = 0; K < 7; ++K)
    EXPECT_EQ(F[K], FnsE[K]) << K;
}

TEST(IntInst, BitFieldExtractInsert) {
  std::vector<OpCase> C = {{0xf0f0f0f0u, 4, 8},  {0x00000f00u, 8, 4}, {0x12345678u, 0, 0},
                           {0x80000000u, 40, 3}, {0x80000000u, 28, 8}, {0x0000ff00u, 12, 200}};
  auto U = runOpD("bfe.u32 %d, %a, %b, %c;", "u32", {"u32", "u32", "u32"}, C);
  auto S = runOpD("bfe.s32 %d, %a, %b, %c;", "s32", {"s32", "u32", "u32"}, C);
  EXPECT_EQ(U[0], 0x0fu);
  EXPECT_EQ(S[0], 0x0fu);
  EXPECT_EQ(U[1], 0xfu);
  EXPECT_EQ(S[1], 0xffffffffu); // field's top bit set: sign-extended
  EXPECT_EQ(U[2], 0u);          // zero length
  EXPECT_EQ(S[2], 0u);
  EXPECT_EQ(U[3], 0u);          // start beyond the msb
  EXPECT_EQ(S[3], 0xffffffffu); // replicated sign of the msb
  EXPECT_EQ(U[4], 0x8u);        // only bits up to the msb
  EXPECT_EQ(S[4], 0xfffffff8u);
  EXPECT_EQ(U[5], 0xfu); // length beyond the msb: the field stops there
  EXPECT_EQ(S[5], 0xfu); // and its sign is bit 31 (clear)
  auto U64 = runOpD("bfe.u64 %d, %a, %b, %c;", "u64", {"u64", "u32", "u32"},
                    {{0xabcdef0123456789ull, 32, 16}});
  EXPECT_EQ(U64[0], 0xef01u);
  // bfi: insert %a's low bits into %b at position %c, length 8.
  auto I = runOpD("bfi.b32 %d, %a, %b, %c, 8;", "b32", {"b32", "b32", "u32"},
                  {{0xab, 0xffffffff, 4}, {0x1ff, 0, 28}, {0xab, 0x1234, 40}});
  EXPECT_EQ(I[0], 0xfffffabfu);
  EXPECT_EQ(I[1], 0xf0000000u);
  EXPECT_EQ(I[2], 0x1234u);
  auto Msk = runOpD("bmsk.clamp.b32 %d, %a, %b;", "b32", {"u32", "u32"},
                    pairs({{4, 8}, {30, 8}, {0, 32}}));
  EXPECT_EQ(Msk[0], 0xff0u);
  EXPECT_EQ(Msk[1], 0xc0000000u);
  EXPECT_EQ(Msk[2], 0xffffffffu);
  auto Sz = runOpD("szext.wrap.s32 %d, %a, %b;", "s32", {"u32", "u32"},
                   pairs({{0xff, 8}, {0x7f, 8}, {0xff, 40}}));
  EXPECT_EQ(Sz[0], 0xffffffffu);
  EXPECT_EQ(Sz[1], 0x7fu);
  EXPECT_EQ(Sz[2], 0xffffffffu); // 40 wraps to 8
}

TEST(IntInst, Permute) {
  uint64_t A = 0x33221100, B = 0x77665544;
  auto G = runOpD("prmt.b32 %d, %a, %b, %c;", "b32", {"b32", "b32", "b32"},
                  {{A, B, 0x3210}, {A, B, 0x7654}, {A, B, 0x0123}, {A, B, 0x4444},
                   {0x80, B, 0x0008}});
  EXPECT_EQ(G[0], 0x33221100u);
  EXPECT_EQ(G[1], 0x77665544u);
  EXPECT_EQ(G[2], 0x00112233u);
  EXPECT_EQ(G[3], 0x44444444u);
  EXPECT_EQ(G[4], 0x808080ffu); // byte 0 (0x80) sign-replicated in byte 0
  struct {
    const char *Mode;
    uint64_t Expect[4];
  } Modes[] = {
      {"f4e", {0x33221100, 0x44332211, 0x55443322, 0x66554433}},
      {"b4e", {0x55667700, 0x66770011, 0x77001122, 0x00112233}},
      {"rc8", {0x00000000, 0x11111111, 0x22222222, 0x33333333}},
      {"ecl", {0x33221100, 0x33221111, 0x33222222, 0x33333333}},
      {"ecr", {0x00000000, 0x11111100, 0x22221100, 0x33221100}},
      {"rc16", {0x11001100, 0x33223322, 0x11001100, 0x33223322}},
  };
  for (auto &Md : Modes) {
    auto R = runOpD(std::string("prmt.b32.") + Md.Mode + " %d, %a, %b, %c;", "b32",
                    {"b32", "b32", "b32"}, {{A, B, 0}, {A, B, 1}, {A, B, 2}, {A, B, 3}});
    for (int K = 0; K < 4; ++K)
      EXPECT_EQ(R[K], Md.Expect[K]) << Md.Mode << " c=" << K;
  }
}

TEST(IntInst, Lop3ShfDp4a) {
  std::vector<OpCase> C = {{0xff00ff00u, 0xf0f0f0f0u, 0xccccccccu}};
  auto Maj = runOpD("lop3.b32 %d, %a, %b, %c, 0xe8;", "b32", {"b32", "b32", "b32"}, C);
  auto X3 = runOpD("lop3.b32 %d, %a, %b, %c, 0x96;", "b32", {"b32", "b32", "b32"}, C);
  uint32_t A = 0xff00ff00u, B = 0xf0f0f0f0u, Cc = 0xccccccccu;
  EXPECT_EQ(Maj[0], uint64_t((A & B) | (A & Cc) | (B & Cc)));
  EXPECT_EQ(X3[0], uint64_t(A ^ B ^ Cc));
  auto L = runOpD("shf.l.wrap.b32 %d, %a, %b, %c;", "b32", {"b32", "b32", "u32"},
                  {{0x80000001u, 0x00000001u, 4}, {0x12345678u, 0x9abcdef0u, 36}});
  EXPECT_EQ(L[0], 0x18u);
  EXPECT_EQ(L[1], 0xabcdef01u); // 36 wraps to 4
  auto R = runOpD("shf.r.clamp.b32 %d, %a, %b, %c;", "b32", {"b32", "b32", "u32"},
                  {{0x12345678u, 0x9abcdef0u, 8}, {0x12345678u, 0x9abcdef0u, 40}});
  EXPECT_EQ(R[0], 0xf0123456u);
  EXPECT_EQ(R[1], 0x9abcdef0u); // clamped to 32: the high word
  auto Dp = runOpD("dp4a.s32.s32 %d, %a, %b, %c;", "s32", {"b32", "b32", "s32"},
                   {{0x01ff0203u, 0x04050607u, 10}});
  // 3*7 + 2*6 + (-1)*5 + 1*4 + 10
  EXPECT_EQ(Dp[0], u32(21 + 12 - 5 + 4 + 10));
  auto DpU = runOpD("dp4a.u32.u32 %d, %a, %b, %c;", "u32", {"b32", "b32", "u32"},
                    {{0x01ff0203u, 0x04050607u, 10}});
  EXPECT_EQ(DpU[0], u32(21 + 12 + 255 * 5 + 4 + 10));
}

TEST(IntInst, Carry) {
  // 64-bit addition and subtraction from 32-bit halves.
  auto R = runOp("add.cc.u32 %d, %a, %b;\naddc.u32 %e, %c, 0;", "u32",
                 {"u32", "u32", "u32"}, {{0xffffffffu, 1, 5}, {1, 2, 5}}, "u32");
  EXPECT_EQ(R[0].D, 0u);
  EXPECT_EQ(R[0].E, 6u);
  EXPECT_EQ(R[1].D, 3u);
  EXPECT_EQ(R[1].E, 5u);
  auto S = runOp("sub.cc.u32 %d, %a, %b;\nsubc.u32 %e, %c, 0;", "u32",
                 {"u32", "u32", "u32"}, {{0, 1, 5}, {3, 1, 5}}, "u32");
  EXPECT_EQ(S[0].D, 0xffffffffu);
  EXPECT_EQ(S[0].E, 4u);
  EXPECT_EQ(S[1].D, 2u);
  EXPECT_EQ(S[1].E, 5u);
  auto M = runOp("mad.lo.cc.u32 %d, %a, %b, %c;\naddc.u32 %e, 0, 0;", "u32",
                 {"u32", "u32", "u32"}, {{0x10000, 0x10000, 5}}, "u32");
  EXPECT_EQ(M[0].D, 5u);
  EXPECT_EQ(M[0].E, 0u);
}

TEST(IntInst, CompareSelect) {
  struct {
    const char *Op;
    bool (*F)(int64_t, int64_t);
  } Ops[] = {{"eq", [](int64_t A, int64_t B) { return A == B; }},
             {"ne", [](int64_t A, int64_t B) { return A != B; }},
             {"lt", [](int64_t A, int64_t B) { return A < B; }},
             {"le", [](int64_t A, int64_t B) { return A <= B; }},
             {"gt", [](int64_t A, int64_t B) { return A > B; }},
             {"ge", [](int64_t A, int64_t B) { return A >= B; }}};
  auto C = pairs({{-1, 1}, {1, -1}, {3, 3}, {INT_MIN, INT_MAX}});
  for (auto &O : Ops) {
    auto S = runOpD(std::string("setp.") + O.Op + ".s32 %d, %a, %b;", "pred", {"s32", "s32"}, C);
    auto U = runOpD(std::string("setp.") + O.Op + ".u32 %d, %a, %b;", "pred", {"u32", "u32"}, C);
    for (size_t K = 0; K < C.size(); ++K) {
      EXPECT_EQ(S[K], uint64_t(O.F(int32_t(C[K].A), int32_t(C[K].B)))) << O.Op << K;
      EXPECT_EQ(U[K], uint64_t(O.F(uint32_t(C[K].A), uint32_t(C[K].B)))) << O.Op << K;
    }
  }
  // lo/ls/hi/hs are unsigned comparisons.
  auto Lo = runOpD("setp.lo.u32 %d, %a, %b;", "pred", {"u32", "u32"}, C);
  EXPECT_EQ(Lo[0], 0u);
  EXPECT_EQ(Lo[1], 1u);
  // p|q with a boolean combination.
  auto PQ = runOp("setp.lt.and.s32 %d|%e, %a, %b, %c;", "pred", {"s32", "s32", "pred"},
                  {{1, 2, 1}, {1, 2, 0}, {3, 2, 1}}, "pred");
  EXPECT_EQ(PQ[0].D, 1u);
  EXPECT_EQ(PQ[0].E, 0u);
  EXPECT_EQ(PQ[1].D, 0u);
  EXPECT_EQ(PQ[1].E, 0u);
  EXPECT_EQ(PQ[2].D, 0u);
  EXPECT_EQ(PQ[2].E, 1u);
  auto X = runOpD("setp.eq.xor.s32 %d, %a, %b, !%c;", "pred", {"s32", "s32", "pred"},
                  {{1, 1, 0}, {1, 1, 1}});
  EXPECT_EQ(X[0], 0u);
  EXPECT_EQ(X[1], 1u);
  auto Sel = runOpD("selp.b32 %d, %a, %b, %c;", "b32", {"b32", "b32", "pred"},
                    {{11, 22, 1}, {11, 22, 0}});
  EXPECT_EQ(Sel[0], 11u);
  EXPECT_EQ(Sel[1], 22u);
  auto Set = runOpD("set.gt.u32.s32 %d, %a, %b;", "u32", {"s32", "s32"}, pairs({{2, 1}, {1, 2}}));
  EXPECT_EQ(Set[0], 0xffffffffu);
  EXPECT_EQ(Set[1], 0u);
  auto SetF = runOpD("set.le.f32.s32 %d, %a, %b;", "f32", {"s32", "s32"}, pairs({{1, 2}}));
  EXPECT_EQ(SetF[0], f2u(1.0f));
  auto Sl = runOpD("slct.b32.s32 %d, %a, %b, %c;", "b32", {"b32", "b32", "s32"},
                   {{1, 2, 0}, {1, 2, u32(-1)}});
  EXPECT_EQ(Sl[0], 1u);
  EXPECT_EQ(Sl[1], 2u);
}

TEST(IntInst, MovePackUnpack) {
  auto P = runOpD("mov.b64 %d, {%a, %b};", "b64", {"b32", "b32"}, {{0x11111111, 0x22222222, 0}});
  EXPECT_EQ(P[0], 0x2222222211111111ull);
  auto U = runOp("mov.b64 {%d, %e}, %a;", "b32", {"b64"}, {{0xaaaabbbbccccddddull, 0, 0}}, "b32");
  EXPECT_EQ(U[0].D, 0xccccddddu);
  EXPECT_EQ(U[0].E, 0xaaaabbbbu);
  auto H = runOp("mov.b32 {%d, %e}, %a;", "b16", {"b32"}, {{0x12345678, 0, 0}}, "b16");
  EXPECT_EQ(H[0].D, 0x5678u);
  EXPECT_EQ(H[0].E, 0x1234u);
  auto Im = runOpD("mov.f32 %d, 0f3FC00000;", "f32", {}, {{0, 0, 0}});
  EXPECT_EQ(Im[0], f2u(1.5f));
  auto Id = runOpD("mov.f64 %d, 0d4004000000000000;", "f64", {}, {{0, 0, 0}});
  EXPECT_EQ(Id[0], d2u(2.5));
}

TEST(IntInst, SpecialRegisters) {
  std::string P = ptxHeader() + R"(
.visible .entry sregs(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd2, %r4, 32;
  add.s64 %rd1, %rd1, %rd2;
  mov.u32 %r5, %laneid;
  mov.u32 %r6, %warpid;
  mov.u32 %r7, %lanemask_lt;
  mov.u32 %r8, %lanemask_ge;
  mov.u32 %r9, %ctaid.y;
  mov.u32 %r10, %nctaid.y;
  mov.u32 %r11, %ntid.y;
  st.global.v4.u32 [%rd1], {%r4, %r5, %r6, %r7};
  st.global.v4.u32 [%rd1+16], {%r8, %r9, %r10, %r11};
  ret;
}
)";
  auto M = load(P);
  Buffer<uint32_t> Out(48 * 8);
  uint32_t *O = Out.data();
  ASSERT_EQ(run(*M, "sregs", {1, 3, 1}, {16, 3, 1}, {&O}).Status, LaunchStatus::Ok);
  for (uint32_t T = 0; T < 48; ++T) {
    uint32_t *R = &Out[T * 8];
    EXPECT_EQ(R[0], T);
    EXPECT_EQ(R[1], T % 32);
    EXPECT_EQ(R[2], T / 32);
    EXPECT_EQ(R[3], (1u << (T % 32)) - 1);
    EXPECT_EQ(R[4], ~((1u << (T % 32)) - 1));
    EXPECT_EQ(R[5], 2u); // the last block (blocks run in order)
    EXPECT_EQ(R[6], 3u);
    EXPECT_EQ(R[7], 3u);
  }
}

} // namespace
