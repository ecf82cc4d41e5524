//===- FloatInstTest.cpp - floating-point instructions and conversions ----===//
///
/// \file
/// f32/f64 arithmetic under every rounding modifier against the host's IEEE
/// arithmetic in the same rounding mode (this file is compiled with
/// -frounding-math), special values (NaN, infinities, signed zeros,
/// subnormals with and without .ftz, .sat), approximate functions within
/// the PTX error bounds, comparisons, cvt in all directions and half
/// precision.
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include <cfenv>
#include <cmath>
#include <limits>

using namespace emutest;

namespace {

const char *RoundNames[] = {"rn", "rz", "rm", "rp"};
const int HostModes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

/// Deterministic values spread over many exponents, both signs, with
/// special values mixed in.
std::vector<float> testFloats(size_t N, uint32_t Seed) {
  std::vector<float> V = {0.0f, -0.0f, 1.0f, -1.0f, 3.0f, 0.1f, 1e-40f, -1e-42f,
                          INFINITY, -INFINITY, NAN, 3.4e38f, 1.17549435e-38f};
  uint32_t X = Seed;
  while (V.size() < N) {
    X = X * 1664525u + 1013904223u;
    uint32_t Man = X & 0x7fffff;
    X = X * 1664525u + 1013904223u;
    uint32_t Exp = 100 + (X >> 16) % 60; // 2^-27 .. 2^32
    uint32_t Sign = (X >> 8) & 1;
    V.push_back(u2f((Sign << 31) | (Exp << 23) | Man));
  }
  return V;
}
std::vector<double> testDoubles(size_t N, uint64_t Seed) {
  std::vector<double> V = {0.0, -0.0, 1.0, -1.0, 3.0, 0.1, 1e-310, INFINITY, NAN, 1.7e308};
  uint64_t X = Seed;
  while (V.size() < N) {
    X = X * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t Man = X >> 12;
    X = X * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t Exp = 990 + (X >> 40) % 80;
    uint64_t Sign = (X >> 7) & 1;
    V.push_back(u2d((Sign << 63) | (Exp << 52) | Man));
  }
  return V;
}

uint64_t canon32(float F) { return F != F ? 0x7fffffffu : f2u(F); }

template <class Fn> float hostF(int Mode, Fn F) {
  std::fesetround(HostModes[Mode]);
  volatile float R = F();
  std::fesetround(FE_TONEAREST);
  return R;
}
template <class Fn> double hostD(int Mode, Fn F) {
  std::fesetround(HostModes[Mode]);
  volatile double R = F();
  std::fesetround(FE_TONEAREST);
  return R;
}

TEST(FloatInst, F32ArithmeticAllRoundingModes) {
  auto A = testFloats(96, 1), B = testFloats(96, 7);
  std::vector<OpCase> C;
  for (size_t K = 0; K < A.size(); ++K)
    C.push_back({f2u(A[K]), f2u(B[K]), f2u(B[(K + 5) % B.size()])});
  for (int M = 0; M < 4; ++M) {
    std::string R = RoundNames[M];
    auto Add = runOpD("add." + R + ".f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
    auto Sub = runOpD("sub." + R + ".f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
    auto Mul = runOpD("mul." + R + ".f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
    auto Div = runOpD("div." + R + ".f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
    auto Fma = runOpD("fma." + R + ".f32 %d, %a, %b, %c;", "f32", {"f32", "f32", "f32"}, C);
    auto Sqrt = runOpD("sqrt." + R + ".f32 %d, %a;", "f32", {"f32"}, C);
    auto Rcp = runOpD("rcp." + R + ".f32 %d, %a;", "f32", {"f32"}, C);
    for (size_t K = 0; K < C.size(); ++K) {
      volatile float X = A[K], Y = B[K], Z = u2f(C[K].C);
      EXPECT_EQ(Add[K], canon32(hostF(M, [&] { return X + Y; }))) << R << " " << X << " " << Y;
      EXPECT_EQ(Sub[K], canon32(hostF(M, [&] { return X - Y; }))) << R << " " << X << " " << Y;
      EXPECT_EQ(Mul[K], canon32(hostF(M, [&] { return X * Y; }))) << R << " " << X << " " << Y;
      EXPECT_EQ(Div[K], canon32(hostF(M, [&] { return X / Y; }))) << R << " " << X << " " << Y;
      EXPECT_EQ(Fma[K], canon32(hostF(M, [&] { return std::fma(X, Y, Z); }))) << R << " " << X;
      EXPECT_EQ(Sqrt[K], canon32(hostF(M, [&] { return std::sqrt(X); }))) << R << " " << X;
      EXPECT_EQ(Rcp[K], canon32(hostF(M, [&] { return 1.0f / X; }))) << R << " " << X;
    }
  }
}

TEST(FloatInst, F32RoundingByHand) {
  // 1 + 2^-30 is between 1 and 1 + 2^-23.
  float One = 1.0f, Tiny = std::ldexp(1.0f, -30), Up = std::nextafter(1.0f, 2.0f);
  std::vector<OpCase> C = {{f2u(One), f2u(Tiny), 0}, {f2u(-One), f2u(-Tiny), 0}};
  EXPECT_EQ(runOpD("add.rn.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C)[0], f2u(One));
  EXPECT_EQ(runOpD("add.rz.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C)[0], f2u(One));
  EXPECT_EQ(runOpD("add.rp.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C)[0], f2u(Up));
  EXPECT_EQ(runOpD("add.rm.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C)[1], f2u(-Up));
  EXPECT_EQ(runOpD("add.rp.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C)[1], f2u(-One));
  // 1/3 under rz is below its nearest rounding.
  auto D = runOpD("div.rz.f32 %d, %a, %b;", "f32", {"f32", "f32"}, {{f2u(1.0f), f2u(3.0f), 0}});
  EXPECT_EQ(D[0], 0x3eaaaaaau);
  D = runOpD("div.rn.f32 %d, %a, %b;", "f32", {"f32", "f32"}, {{f2u(1.0f), f2u(3.0f), 0}});
  EXPECT_EQ(D[0], 0x3eaaaaabu);
}

TEST(FloatInst, F64ArithmeticAllRoundingModes) {
  auto A = testDoubles(64, 3), B = testDoubles(64, 11);
  std::vector<OpCase> C;
  for (size_t K = 0; K < A.size(); ++K)
    C.push_back({d2u(A[K]), d2u(B[K]), d2u(A[(K + 3) % A.size()])});
  for (int M = 0; M < 4; ++M) {
    std::string R = RoundNames[M];
    auto Add = runOpD("add." + R + ".f64 %d, %a, %b;", "f64", {"f64", "f64"}, C);
    auto Mul = runOpD("mul." + R + ".f64 %d, %a, %b;", "f64", {"f64", "f64"}, C);
    auto Div = runOpD("div." + R + ".f64 %d, %a, %b;", "f64", {"f64", "f64"}, C);
    auto Fma = runOpD("fma." + R + ".f64 %d, %a, %b, %c;", "f64", {"f64", "f64", "f64"}, C);
    auto Sqrt = runOpD("sqrt." + R + ".f64 %d, %a;", "f64", {"f64"}, C);
    for (size_t K = 0; K < C.size(); ++K) {
      volatile double X = A[K], Y = B[K], Z = u2d(C[K].C);
      auto same = [](uint64_t Got, double Want) {
        return std::isnan(Want) ? std::isnan(u2d(Got)) : Got == d2u(Want);
      };
      EXPECT_TRUE(same(Add[K], hostD(M, [&] { return X + Y; }))) << R << " " << X << " " << Y;
      EXPECT_TRUE(same(Mul[K], hostD(M, [&] { return X * Y; }))) << R << " " << X << " " << Y;
      EXPECT_TRUE(same(Div[K], hostD(M, [&] { return X / Y; }))) << R << " " << X << " " << Y;
      EXPECT_TRUE(same(Fma[K], hostD(M, [&] { return std::fma(X, Y, Z); }))) << R << " " << X;
      EXPECT_TRUE(same(Sqrt[K], hostD(M, [&] { return std::sqrt(X); }))) << R << " " << X;
    }
  }
}

TEST(FloatInst, SpecialValues) {
  float Inf = INFINITY, QNaN = u2f(0x7fc00123u);
  std::vector<OpCase> C = {{f2u(QNaN), f2u(1.0f), 0}, {f2u(Inf), f2u(-Inf), 0},
                           {f2u(-0.0f), f2u(-0.0f), 0}, {f2u(-0.0f), f2u(0.0f), 0},
                           {f2u(1.0f), f2u(0.0f), 0}, {f2u(0.0f), f2u(0.0f), 0}};
  auto Add = runOpD("add.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
  EXPECT_EQ(Add[0], 0x7fffffffu); // NaN in: the canonical NaN out
  EXPECT_EQ(Add[1], 0x7fffffffu); // inf - inf
  EXPECT_EQ(Add[2], 0x80000000u); // -0 + -0 = -0
  EXPECT_EQ(Add[3], 0x00000000u); // -0 + +0 = +0
  auto AddRm = runOpD("add.rm.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
  EXPECT_EQ(AddRm[3], 0x80000000u); // ... but -0 when rounding down
  auto Div = runOpD("div.rn.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
  EXPECT_EQ(Div[4], f2u(Inf));
  EXPECT_EQ(Div[5], 0x7fffffffu);
  auto Mul = runOpD("mul.f32 %d, %a, %b;", "f32", {"f32", "f32"}, {{f2u(-0.0f), f2u(5.0f), 0}});
  EXPECT_EQ(Mul[0], 0x80000000u);
  auto Sq = runOpD("sqrt.rn.f32 %d, %a;", "f32", {"f32"}, {{f2u(-1.0f), 0, 0}, {f2u(-0.0f), 0, 0}});
  EXPECT_EQ(Sq[0], 0x7fffffffu);
  EXPECT_EQ(Sq[1], 0x80000000u);
}

TEST(FloatInst, FlushToZeroAndSaturate) {
  float Sub = std::ldexp(1.0f, -130); // subnormal
  std::vector<OpCase> C = {{f2u(Sub), f2u(0.0f), 0}, {f2u(-Sub), f2u(-0.0f), 0},
                           {f2u(0.75f), f2u(0.5f), 0}, {f2u(-1.0f), f2u(0.0f), 0},
                           {f2u(NAN), f2u(1.0f), 0}, {f2u(0.25f), f2u(0.25f), 0}};
  auto Plain = runOpD("add.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
  auto Ftz = runOpD("add.ftz.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
  auto Sat = runOpD("add.sat.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
  EXPECT_EQ(Plain[0], f2u(Sub)); // subnormals are kept by default
  EXPECT_EQ(Ftz[0], 0u);
  EXPECT_EQ(Ftz[1], 0x80000000u); // sign-preserving
  EXPECT_EQ(Sat[2], f2u(1.0f));
  EXPECT_EQ(Sat[3], 0u);
  EXPECT_EQ(Sat[4], 0u); // NaN saturates to +0
  EXPECT_EQ(Sat[5], f2u(0.5f));
  // A product that underflows to a subnormal is flushed with .ftz.
  auto MulFtz = runOpD("mul.ftz.f32 %d, %a, %b;", "f32", {"f32", "f32"},
                       {{f2u(std::ldexp(1.0f, -70)), f2u(std::ldexp(1.0f, -70)), 0}});
  EXPECT_EQ(MulFtz[0], 0u);
  auto MulPlain = runOpD("mul.f32 %d, %a, %b;", "f32", {"f32", "f32"},
                         {{f2u(std::ldexp(1.0f, -70)), f2u(std::ldexp(1.0f, -70)), 0}});
  EXPECT_EQ(MulPlain[0], f2u(std::ldexp(1.0f, -140)));
  auto FmaSat = runOpD("fma.rn.sat.f32 %d, %a, %b, %c;", "f32", {"f32", "f32", "f32"},
                       {{f2u(2.0f), f2u(3.0f), f2u(1.0f)}});
  EXPECT_EQ(FmaSat[0], f2u(1.0f));
}

TEST(FloatInst, MinMax) {
  float N = NAN;
  std::vector<OpCase> C = {{f2u(1.0f), f2u(2.0f), 0},  {f2u(N), f2u(2.0f), 0},
                           {f2u(1.0f), f2u(N), 0},     {f2u(N), f2u(N), 0},
                           {f2u(-0.0f), f2u(0.0f), 0}, {f2u(0.0f), f2u(-0.0f), 0}};
  auto Min = runOpD("min.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
  auto Max = runOpD("max.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
  auto MinN = runOpD("min.NaN.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
  EXPECT_EQ(Min[0], f2u(1.0f));
  EXPECT_EQ(Min[1], f2u(2.0f)); // the non-NaN operand
  EXPECT_EQ(Min[2], f2u(1.0f));
  EXPECT_EQ(Min[3], 0x7fffffffu);
  EXPECT_EQ(Min[4], 0x80000000u); // -0 < +0
  EXPECT_EQ(Min[5], 0x80000000u);
  EXPECT_EQ(Max[4], 0u);
  EXPECT_EQ(Max[5], 0u);
  EXPECT_EQ(MinN[1], 0x7fffffffu);
  EXPECT_EQ(MinN[0], f2u(1.0f));
  auto XS = runOpD("max.xorsign.abs.f32 %d, %a, %b;", "f32", {"f32", "f32"},
                   {{f2u(-3.0f), f2u(2.0f), 0}, {f2u(-3.0f), f2u(-4.0f), 0}});
  EXPECT_EQ(XS[0], f2u(-3.0f));
  EXPECT_EQ(XS[1], f2u(4.0f));
  auto M64 = runOpD("min.f64 %d, %a, %b;", "f64", {"f64", "f64"},
                    {{d2u(NAN), d2u(5.0), 0}, {d2u(-0.0), d2u(0.0), 0}});
  EXPECT_EQ(M64[0], d2u(5.0));
  EXPECT_EQ(M64[1], d2u(-0.0));
}

TEST(FloatInst, SignOperations) {
  std::vector<OpCase> C = {{f2u(-2.5f), f2u(1.0f), 0}, {f2u(NAN), f2u(-1.0f), 0}};
  auto Abs = runOpD("abs.f32 %d, %a;", "f32", {"f32"}, C);
  auto Neg = runOpD("neg.f32 %d, %a;", "f32", {"f32"}, C);
  auto Cs = runOpD("copysign.f32 %d, %a, %b;", "f32", {"f32", "f32"}, C);
  EXPECT_EQ(Abs[0], f2u(2.5f));
  EXPECT_EQ(Neg[0], f2u(2.5f));
  EXPECT_EQ(Cs[0], f2u(-1.0f)); // sign of the first operand, value of the second
  auto Abs64 = runOpD("abs.f64 %d, %a;", "f64", {"f64"}, {{d2u(-7.0), 0, 0}});
  EXPECT_EQ(Abs64[0], d2u(7.0));
  auto Sub = runOpD("abs.ftz.f32 %d, %a;", "f32", {"f32"}, {{f2u(-1e-40f), 0, 0}});
  EXPECT_EQ(Sub[0], 0u);
}

TEST(FloatInst, Testp) {
  std::vector<OpCase> C = {{f2u(1.0f), 0, 0},  {f2u(INFINITY), 0, 0}, {f2u(NAN), 0, 0},
                           {f2u(1e-40f), 0, 0}, {f2u(0.0f), 0, 0}};
  struct {
    const char *Op;
    uint64_t E[5];
  } T[] = {{"finite", {1, 0, 0, 1, 1}},  {"infinite", {0, 1, 0, 0, 0}},
           {"number", {1, 1, 0, 1, 1}},  {"notanumber", {0, 0, 1, 0, 0}},
           {"normal", {1, 0, 0, 0, 0}},  {"subnormal", {0, 0, 0, 1, 0}}};
  for (auto &X : T) {
    auto R = runOpD(std::string("testp.") + X.Op + ".f32 %d, %a;", "pred", {"f32"}, C);
    for (int K = 0; K < 5; ++K)
      EXPECT_EQ(R[K], X.E[K]) << X.Op << " " << K;
  }
}

TEST(FloatInst, CompareAllOperators) {
  std::vector<float> V = {1.0f, 2.0f, NAN, -0.0f, 0.0f, INFINITY};
  std::vector<OpCase> C;
  for (float A : V)
    for (float B : V)
      C.push_back({f2u(A), f2u(B), 0});
  struct {
    const char *Op;
    bool (*F)(float, float);
  } Ops[] = {
      {"eq", [](float A, float B) { return A == B; }},
      {"ne", [](float A, float B) { return !std::isnan(A) && !std::isnan(B) && A != B; }},
      {"lt", [](float A, float B) { return A < B; }},
      {"le", [](float A, float B) { return A <= B; }},
      {"gt", [](float A, float B) { return A > B; }},
      {"ge", [](float A, float B) { return A >= B; }},
      {"equ", [](float A, float B) { return std::isnan(A) || std::isnan(B) || A == B; }},
      {"neu", [](float A, float B) { return !(A == B); }},
      {"ltu", [](float A, float B) { return !(A >= B); }},
      {"leu", [](float A, float B) { return !(A > B); }},
      {"gtu", [](float A, float B) { return !(A <= B); }},
      {"geu", [](float A, float B) { return !(A < B); }},
      {"num", [](float A, float B) { return !std::isnan(A) && !std::isnan(B); }},
      {"nan", [](float A, float B) { return std::isnan(A) || std::isnan(B); }}};
  for (auto &O : Ops) {
    auto R = runOpD(std::string("setp.") + O.Op + ".f32 %d, %a, %b;", "pred", {"f32", "f32"}, C);
    auto R64 = runOpD(std::string("setp.") + O.Op + ".f64 %d, %a, %b;", "pred", {"f64", "f64"},
                      [&] {
                        std::vector<OpCase> D;
                        for (auto &X : C)
                          D.push_back({d2u(u2f(X.A)), d2u(u2f(X.B)), 0});
                        return D;
                      }());
    for (size_t K = 0; K < C.size(); ++K) {
      EXPECT_EQ(R[K], uint64_t(O.F(u2f(C[K].A), u2f(C[K].B)))) << O.Op << " " << K;
      EXPECT_EQ(R64[K], R[K]) << O.Op << " f64 " << K;
    }
  }
  auto SetF = runOpD("set.ltu.u32.f32 %d, %a, %b;", "u32", {"f32", "f32"},
                     {{f2u(NAN), f2u(1.0f), 0}, {f2u(2.0f), f2u(1.0f), 0}});
  EXPECT_EQ(SetF[0], 0xffffffffu);
  EXPECT_EQ(SetF[1], 0u);
}

TEST(FloatInst, ApproximateFunctions) {
  std::vector<float> X = {0.5f, -1.25f, 3.0f, 10.5f, -7.75f, 1e-3f, 100.0f, -0.3f};
  std::vector<OpCase> C;
  for (float V : X)
    C.push_back({f2u(V), 0, 0});
  auto Sin = runOpD("sin.approx.f32 %d, %a;", "f32", {"f32"}, C);
  auto Cos = runOpD("cos.approx.ftz.f32 %d, %a;", "f32", {"f32"}, C);
  auto Ex2 = runOpD("ex2.approx.ftz.f32 %d, %a;", "f32", {"f32"}, C);
  auto Lg2 = runOpD("lg2.approx.f32 %d, %a;", "f32", {"f32"}, C);
  auto Rsq = runOpD("rsqrt.approx.f32 %d, %a;", "f32", {"f32"}, C);
  auto Tanh = runOpD("tanh.approx.f32 %d, %a;", "f32", {"f32"}, C);
  auto Rcp = runOpD("rcp.approx.ftz.f32 %d, %a;", "f32", {"f32"}, C);
  auto SqA = runOpD("sqrt.approx.f32 %d, %a;", "f32", {"f32"}, C);
  auto DivA = runOpD("div.approx.f32 %d, %a, %b;", "f32", {"f32", "f32"},
                     {{f2u(1.0f), f2u(3.0f), 0}, {f2u(1.0f), f2u(std::ldexp(1.0f, 127)), 0}});
  auto DivF = runOpD("div.full.f32 %d, %a, %b;", "f32", {"f32", "f32"}, {{f2u(1.0f), f2u(3.0f), 0}});
  auto rel = [](uint64_t Got, double Want) {
    return std::fabs(double(u2f(Got)) - Want) / std::max(std::fabs(Want), 1e-30);
  };
  for (size_t K = 0; K < X.size(); ++K) {
    double V = X[K];
    // Absolute error bound of sin/cos.approx: 2^-20.9 (here: exact).
    EXPECT_LE(std::fabs(u2f(Sin[K]) - std::sin(V)), std::ldexp(1.0, -20)) << V;
    EXPECT_LE(std::fabs(u2f(Cos[K]) - std::cos(V)), std::ldexp(1.0, -20)) << V;
    EXPECT_LE(rel(Ex2[K], std::exp2(V)), std::ldexp(1.0, -22)) << V;
    if (V > 0) {
      EXPECT_LE(std::fabs(u2f(Lg2[K]) - std::log2(V)), std::ldexp(1.0, -22)) << V;
      EXPECT_LE(rel(Rsq[K], 1 / std::sqrt(V)), std::ldexp(1.0, -22)) << V;
      EXPECT_LE(rel(SqA[K], std::sqrt(V)), std::ldexp(1.0, -22)) << V;
    }
    EXPECT_LE(std::fabs(u2f(Tanh[K]) - std::tanh(V)), std::ldexp(1.0, -10)) << V;
    EXPECT_LE(rel(Rcp[K], 1 / V), std::ldexp(1.0, -22)) << V;
  }
  EXPECT_LE(rel(DivA[0], 1.0 / 3), std::ldexp(1.0, -22));
  EXPECT_EQ(DivA[1], 0u); // divisor beyond 2^126: zero
  EXPECT_LE(rel(DivF[0], 1.0 / 3), std::ldexp(1.0, -22));
  auto Special = runOpD("lg2.approx.f32 %d, %a;", "f32", {"f32"},
                        {{f2u(0.0f), 0, 0}, {f2u(-1.0f), 0, 0}});
  EXPECT_EQ(Special[0], f2u(-INFINITY));
  EXPECT_EQ(Special[1], 0x7fffffffu);
  auto Ex2Sub = runOpD("ex2.approx.ftz.f32 %d, %a;", "f32", {"f32"}, {{f2u(-135.0f), 0, 0}});
  EXPECT_EQ(Ex2Sub[0], 0u); // a subnormal result is flushed
  auto Rsq64 = runOpD("rsqrt.approx.f64 %d, %a;", "f64", {"f64"}, {{d2u(4.0), 0, 0}});
  EXPECT_EQ(Rsq64[0], d2u(0.5));
}

TEST(ConvertInst, FloatToInteger) {
  std::vector<OpCase> C = {{f2u(2.5f), 0, 0},  {f2u(3.5f), 0, 0},   {f2u(-2.5f), 0, 0},
                           {f2u(-1.7f), 0, 0}, {f2u(1e10f), 0, 0},  {f2u(-1e10f), 0, 0},
                           {f2u(NAN), 0, 0},   {f2u(INFINITY), 0, 0}};
  auto Rni = runOpD("cvt.rni.s32.f32 %d, %a;", "s32", {"f32"}, C);
  auto Rzi = runOpD("cvt.rzi.s32.f32 %d, %a;", "s32", {"f32"}, C);
  auto Rmi = runOpD("cvt.rmi.s32.f32 %d, %a;", "s32", {"f32"}, C);
  auto Rpi = runOpD("cvt.rpi.s32.f32 %d, %a;", "s32", {"f32"}, C);
  auto U = runOpD("cvt.rzi.u32.f32 %d, %a;", "u32", {"f32"}, C);
  auto L = runOpD("cvt.rzi.s64.f32 %d, %a;", "s64", {"f32"}, C);
  int64_t RniE[] = {2, 4, -2, -2, INT32_MAX, INT32_MIN, 0, INT32_MAX};
  int64_t RziE[] = {2, 3, -2, -1, INT32_MAX, INT32_MIN, 0, INT32_MAX};
  int64_t RmiE[] = {2, 3, -3, -2, INT32_MAX, INT32_MIN, 0, INT32_MAX};
  int64_t RpiE[] = {3, 4, -2, -1, INT32_MAX, INT32_MIN, 0, INT32_MAX};
  uint64_t UE[] = {2, 3, 0, 0, 0xffffffffu, 0, 0, 0xffffffffu};
  int64_t LE[] = {2, 3, -2, -1, 10000000000ll, -10000000000ll, 0, INT64_MAX};
  for (int K = 0; K < 8; ++K) {
    EXPECT_EQ(Rni[K], uint64_t(uint32_t(RniE[K]))) << K;
    EXPECT_EQ(Rzi[K], uint64_t(uint32_t(RziE[K]))) << K;
    EXPECT_EQ(Rmi[K], uint64_t(uint32_t(RmiE[K]))) << K;
    EXPECT_EQ(Rpi[K], uint64_t(uint32_t(RpiE[K]))) << K;
    EXPECT_EQ(U[K], UE[K]) << K;
    EXPECT_EQ(L[K], uint64_t(LE[K])) << K;
  }
  auto D2I = runOpD("cvt.rni.s32.f64 %d, %a;", "s32", {"f64"}, {{d2u(-1e300), 0, 0}, {d2u(6.5), 0, 0}});
  EXPECT_EQ(D2I[0], uint64_t(uint32_t(INT32_MIN)));
  EXPECT_EQ(D2I[1], 6u);
  auto H2I = runOpD("cvt.rzi.s32.f16 %d, %a;", "s32", {"b16"}, {{0xc500, 0, 0}}); // -5.0
  EXPECT_EQ(H2I[0], uint64_t(uint32_t(-5)));
}

TEST(ConvertInst, IntegerToFloat) {
  std::vector<OpCase> C = {{16777217, 0, 0}, {uint64_t(uint32_t(-16777217)), 0, 0},
                           {0x7fffffff, 0, 0}};
  auto Rn = runOpD("cvt.rn.f32.s32 %d, %a;", "f32", {"s32"}, C);
  auto Rz = runOpD("cvt.rz.f32.s32 %d, %a;", "f32", {"s32"}, C);
  auto Rp = runOpD("cvt.rp.f32.s32 %d, %a;", "f32", {"s32"}, C);
  auto Rm = runOpD("cvt.rm.f32.s32 %d, %a;", "f32", {"s32"}, C);
  EXPECT_EQ(Rn[0], f2u(16777216.0f));
  EXPECT_EQ(Rz[0], f2u(16777216.0f));
  EXPECT_EQ(Rp[0], f2u(16777218.0f));
  EXPECT_EQ(Rm[0], f2u(16777216.0f));
  EXPECT_EQ(Rm[1], f2u(-16777218.0f));
  EXPECT_EQ(Rp[1], f2u(-16777216.0f));
  EXPECT_EQ(Rn[2], f2u(2147483648.0f));
  EXPECT_EQ(Rz[2], f2u(2147483520.0f));
  auto U64 = runOpD("cvt.rn.f32.u64 %d, %a;", "f32", {"u64"}, {{~0ull, 0, 0}});
  EXPECT_EQ(U64[0], f2u(18446744073709551616.0f));
  auto D = runOpD("cvt.rn.f64.s64 %d, %a;", "f64", {"s64"}, {{(1ull << 53) + 1, 0, 0}});
  EXPECT_EQ(D[0], d2u(9007199254740992.0));
  auto H = runOpD("cvt.rn.f16.s32 %d, %a;", "b16", {"s32"}, {{2049, 0, 0}, {100000, 0, 0}});
  EXPECT_EQ(H[0], 0x6800u); // 2048: ties to even
  EXPECT_EQ(H[1], 0x7c00u); // overflow: infinity
}

TEST(ConvertInst, FloatToFloat) {
  double X = 1.0 + std::ldexp(1.0, -40);
  std::vector<OpCase> C = {{d2u(X), 0, 0}, {d2u(-X), 0, 0}, {d2u(1e300), 0, 0}, {d2u(NAN), 0, 0}};
  auto Rn = runOpD("cvt.rn.f32.f64 %d, %a;", "f32", {"f64"}, C);
  auto Rz = runOpD("cvt.rz.f32.f64 %d, %a;", "f32", {"f64"}, C);
  auto Rp = runOpD("cvt.rp.f32.f64 %d, %a;", "f32", {"f64"}, C);
  auto Rm = runOpD("cvt.rm.f32.f64 %d, %a;", "f32", {"f64"}, C);
  float Next = std::nextafter(1.0f, 2.0f);
  EXPECT_EQ(Rn[0], f2u(1.0f));
  EXPECT_EQ(Rz[0], f2u(1.0f));
  EXPECT_EQ(Rp[0], f2u(Next));
  EXPECT_EQ(Rm[1], f2u(-Next));
  EXPECT_EQ(Rn[2], f2u(INFINITY));
  EXPECT_EQ(Rz[2], f2u(3.40282347e38f)); // largest finite
  EXPECT_EQ(Rn[3], 0x7fffffffu);
  auto Up = runOpD("cvt.f64.f32 %d, %a;", "f64", {"f32"}, {{f2u(0.1f), 0, 0}, {f2u(1e-40f), 0, 0}});
  EXPECT_EQ(Up[0], d2u(double(0.1f)));
  EXPECT_EQ(Up[1], d2u(double(1e-40f)));
  auto Ftz = runOpD("cvt.ftz.f64.f32 %d, %a;", "f64", {"f32"}, {{f2u(-1e-40f), 0, 0}});
  EXPECT_EQ(Ftz[0], d2u(-0.0));
  std::vector<OpCase> I = {{f2u(2.5f), 0, 0}, {f2u(-2.5f), 0, 0}, {f2u(1.5f), 0, 0}};
  auto Rni = runOpD("cvt.rni.f32.f32 %d, %a;", "f32", {"f32"}, I);
  auto Rmi = runOpD("cvt.rmi.f32.f32 %d, %a;", "f32", {"f32"}, I);
  EXPECT_EQ(Rni[0], f2u(2.0f));
  EXPECT_EQ(Rni[1], f2u(-2.0f));
  EXPECT_EQ(Rni[2], f2u(2.0f));
  EXPECT_EQ(Rmi[1], f2u(-3.0f));
  auto Sat = runOpD("cvt.sat.f32.f32 %d, %a;", "f32", {"f32"},
                    {{f2u(1.5f), 0, 0}, {f2u(-0.5f), 0, 0}, {f2u(NAN), 0, 0}, {f2u(0.25f), 0, 0}});
  EXPECT_EQ(Sat[0], f2u(1.0f));
  EXPECT_EQ(Sat[1], 0u);
  EXPECT_EQ(Sat[2], 0u);
  EXPECT_EQ(Sat[3], f2u(0.25f));
}

TEST(ConvertInst, IntegerToInteger) {
  auto Sx = runOpD("cvt.s64.s32 %d, %a;", "s64", {"s32"}, {{0xffffffffu, 0, 0}});
  EXPECT_EQ(Sx[0], ~0ull);
  auto Zx = runOpD("cvt.u64.u32 %d, %a;", "u64", {"u32"}, {{0xffffffffu, 0, 0}});
  EXPECT_EQ(Zx[0], 0xffffffffull);
  auto Tr = runOpD("cvt.u32.u64 %d, %a;", "u32", {"u64"}, {{0x123456789ull, 0, 0}});
  EXPECT_EQ(Tr[0], 0x23456789u);
  auto S = runOpD("cvt.sat.u32.s32 %d, %a;", "u32", {"s32"}, {{uint64_t(uint32_t(-5)), 0, 0}, {7, 0, 0}});
  EXPECT_EQ(S[0], 0u);
  EXPECT_EQ(S[1], 7u);
  auto S16 = runOpD("cvt.sat.s16.s32 %d, %a;", "s16", {"s32"}, {{70000, 0, 0}, {uint64_t(uint32_t(-70000)), 0, 0}});
  EXPECT_EQ(S16[0], 0x7fffu);
  EXPECT_EQ(S16[1], 0x8000u);
  // An 8-bit result is sign-extended to its 16-bit register.
  auto S8 = runOpD("cvt.s8.s32 %d, %a;", "b16", {"s32"}, {{0x1ff, 0, 0}, {0x17f, 0, 0}});
  EXPECT_EQ(S8[0], 0xffffu);
  EXPECT_EQ(S8[1], 0x7fu);
  auto U8 = runOpD("cvt.u8.u32 %d, %a;", "b16", {"u32"}, {{0x1ff, 0, 0}});
  EXPECT_EQ(U8[0], 0xffu);
  auto SU = runOpD("cvt.sat.u64.s64 %d, %a;", "u64", {"s64"}, {{sx(-1), 0, 0}});
  EXPECT_EQ(SU[0], 0u);
}

TEST(ConvertInst, HalfPrecision) {
  std::vector<OpCase> C = {{f2u(1.0f), 0, 0},     {f2u(65519.0f), 0, 0},
                           {f2u(65520.0f), 0, 0}, {f2u(std::ldexp(1.0f, -24)), 0, 0},
                           {f2u(std::ldexp(1.0f, -26)), 0, 0},
                           {f2u(1.0f + std::ldexp(1.0f, -11)), 0, 0},
                           {f2u(NAN), 0, 0},      {f2u(-2.0f), 0, 0}};
  auto Rn = runOpD("cvt.rn.f16.f32 %d, %a;", "b16", {"f32"}, C);
  auto Rz = runOpD("cvt.rz.f16.f32 %d, %a;", "b16", {"f32"}, C);
  auto Rp = runOpD("cvt.rp.f16.f32 %d, %a;", "b16", {"f32"}, C);
  uint64_t RnE[] = {0x3c00, 0x7bff, 0x7c00, 0x0001, 0x0000, 0x3c00, 0x7fff, 0xc000};
  uint64_t RzE[] = {0x3c00, 0x7bff, 0x7bff, 0x0001, 0x0000, 0x3c00, 0x7fff, 0xc000};
  uint64_t RpE[] = {0x3c00, 0x7c00, 0x7c00, 0x0001, 0x0001, 0x3c01, 0x7fff, 0xc000};
  for (int K = 0; K < 8; ++K) {
    EXPECT_EQ(Rn[K], RnE[K]) << K;
    EXPECT_EQ(Rz[K], RzE[K]) << K;
    EXPECT_EQ(Rp[K], RpE[K]) << K;
  }
  auto Back = runOpD("cvt.f32.f16 %d, %a;", "f32", {"b16"},
                     {{0x3c00, 0, 0}, {0x0001, 0, 0}, {0xfc00, 0, 0}, {0x7bff, 0, 0}});
  EXPECT_EQ(Back[0], f2u(1.0f));
  EXPECT_EQ(Back[1], f2u(std::ldexp(1.0f, -24)));
  EXPECT_EQ(Back[2], f2u(-INFINITY));
  EXPECT_EQ(Back[3], f2u(65504.0f));
  auto Bf = runOpD("cvt.rn.bf16.f32 %d, %a;", "b16", {"f32"},
                   {{f2u(1.0f), 0, 0}, {0x3f808000u, 0, 0}, {0x3f818000u, 0, 0}});
  EXPECT_EQ(Bf[0], 0x3f80u);
  EXPECT_EQ(Bf[1], 0x3f80u); // tie to even
  EXPECT_EQ(Bf[2], 0x3f82u);
  auto Pack = runOpD("cvt.rn.f16x2.f32 %d, %a, %b;", "b32", {"f32", "f32"},
                     {{f2u(1.0f), f2u(-2.0f), 0}});
  EXPECT_EQ(Pack[0], 0x3c00c000u); // %a in the high half
  auto Relu = runOpD("cvt.rn.relu.f16.f32 %d, %a;", "b16", {"f32"}, {{f2u(-3.0f), 0, 0}});
  EXPECT_EQ(Relu[0], 0u);
}

TEST(FloatInst, HalfArithmetic) {
  // Exact references from _Float16 (correctly rounded conversions).
  std::vector<float> V = {1.0f, 0.333251953125f, -2.5f, 1000.0f, 0.000061035156f, 65504.0f};
  auto hb = [](float F) {
    _Float16 H = (_Float16)F;
    uint16_t U;
    std::memcpy(&U, &H, 2);
    return uint64_t(U);
  };
  std::vector<OpCase> C;
  for (float A : V)
    for (float B : V)
      C.push_back({hb(A), hb(B), 0x3800}); // c = 0.5
  auto Add = runOpD("add.f16 %d, %a, %b;", "b16", {"b16", "b16"}, C);
  auto Mul = runOpD("mul.f16 %d, %a, %b;", "b16", {"b16", "b16"}, C);
  auto Fma = runOpD("fma.rn.f16 %d, %a, %b, %c;", "b16", {"b16", "b16", "b16"}, C);
  auto h = [](uint64_t U) {
    uint16_t S = uint16_t(U);
    _Float16 H;
    std::memcpy(&H, &S, 2);
    return H;
  };
  auto bits = [](_Float16 H) {
    uint16_t U;
    std::memcpy(&U, &H, 2);
    return uint64_t(U);
  };
  for (size_t K = 0; K < C.size(); ++K) {
    float A = float(h(C[K].A)), B = float(h(C[K].B));
    EXPECT_EQ(Add[K], bits((_Float16)(A + B))) << A << " + " << B;
    EXPECT_EQ(Mul[K], bits((_Float16)(A * B))) << A << " * " << B;
    // a*b + 0.5 is exact in double for these operands.
    EXPECT_EQ(Fma[K], bits((_Float16)(double(A) * B + 0.5))) << A << " * " << B;
  }
  auto X2 = runOpD("add.f16x2 %d, %a, %b;", "b32", {"b32", "b32"},
                   {{0x3c004000u, 0x3c003c00u, 0}});
  EXPECT_EQ(X2[0], 0x40004200u);
  auto Neg = runOpD("neg.f16 %d, %a;", "b16", {"b16"}, {{0x3c00, 0, 0}});
  EXPECT_EQ(Neg[0], 0xbc00u);
  auto Mx = runOpD("max.f16 %d, %a, %b;", "b16", {"b16", "b16"}, {{0x7e00, 0x3c00, 0}});
  EXPECT_EQ(Mx[0], 0x3c00u);
  auto Sp = runOpD("setp.lt.f16 %d, %a, %b;", "pred", {"b16", "b16"}, {{0xbc00, 0x3c00, 0}});
  EXPECT_EQ(Sp[0], 1u);
}

} // namespace
