//===- ProgramTest.cpp - whole kernels compiled by nvcc -------------------===//
///
/// \file
/// The kernels of test/Emu/Inputs/programs.cu (PTX from nvcc), each run for
/// several block shapes and compared with a CPU reference: shared memory
/// and barriers, warp shuffles, atomics, divergent loops, 2-D and 3-D
/// blocks, double precision, device-function calls (with recursion),
/// local arrays, dynamic shared memory, votes, printf and math functions.
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include <cmath>
#include <map>

using namespace emutest;

namespace {

void expectOk(const LaunchResult &R) {
  ASSERT_EQ(R.Status, LaunchStatus::Ok) << R.Message;
}

TEST(Programs, BlockReduceInSharedMemory) {
  int N = 3000;
  Buffer<int> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = (I * 37) % 101 - 50;
  for (unsigned B : {32u, 64u, 96u, 128u, 200u, 256u, 1024u}) {
    unsigned G = (N + B - 1) / B;
    Buffer<int> Out(G);
    int *IP = In.data(), *OP = Out.data();
    expectOk(run(programs(), "block_reduce", {G, 1, 1}, {B, 1, 1}, {&IP, &OP, &N},
                 nullptr, B * sizeof(int)));
    for (unsigned K = 0; K < G; ++K) {
      int S = 0;
      for (unsigned I = K * B; I < std::min<unsigned>(N, (K + 1) * B); ++I)
        S += In[I];
      EXPECT_EQ(Out[K], S) << "block size " << B << " block " << K;
    }
  }
}

TEST(Programs, WarpShuffleReduce) {
  int N = 2000;
  Buffer<int> In(N);
  long Total = 0;
  for (int I = 0; I < N; ++I)
    Total += In[I] = (I * 13) % 17;
  for (unsigned B : {32u, 64u, 256u, 1024u}) {
    unsigned G = (N + B - 1) / B;
    Buffer<int> WarpSums(G * B / 32), Sum(1);
    int *IP = In.data(), *WP = WarpSums.data(), *SP = Sum.data();
    expectOk(run(programs(), "warp_reduce", {G, 1, 1}, {B, 1, 1}, {&IP, &WP, &SP, &N}));
    EXPECT_EQ(Sum[0], Total) << B;
    for (unsigned W = 0; W < G * B / 32; ++W) {
      int S = 0;
      for (int I = W * 32; I < std::min<int>(N, W * 32 + 32); ++I)
        S += In[I];
      EXPECT_EQ(WarpSums[W], S) << B << " warp " << W;
    }
  }
}

TEST(Programs, ShuffleWidths) {
  unsigned N = 128;
  Buffer<int> In(N), Xor8(N), Up3(N), Idx5(N), Up3W8(N);
  for (unsigned I = 0; I < N; ++I)
    In[I] = int(I * I % 97);
  int *P[] = {In.data(), Xor8.data(), Up3.data(), Idx5.data(), Up3W8.data()};
  expectOk(run(programs(), "shuffles", {2, 1, 1}, {64, 1, 1}, {&P[0], &P[1], &P[2], &P[3], &P[4]}));
  for (unsigned I = 0; I < N; ++I) {
    unsigned Lane = I % 32, WarpBase = I - Lane;
    int S = 0;
    for (unsigned K = 0; K < 8; ++K)
      S += In[WarpBase + (Lane & ~7u) + K];
    EXPECT_EQ(Xor8[I], S) << I;
    EXPECT_EQ(Up3[I], Lane >= 3 ? In[I - 3] : In[I]) << I;
    EXPECT_EQ(Idx5[I], In[WarpBase + 5]) << I;
    EXPECT_EQ(Up3W8[I], Lane % 8 >= 3 ? In[I - 3] : In[I]) << I;
  }
}

TEST(Programs, HistogramAtomics) {
  int N = 5000, NBins = 37;
  Buffer<unsigned> In(N);
  std::vector<unsigned> Ref(NBins);
  for (int I = 0; I < N; ++I) {
    In[I] = unsigned(I * 7919 + I / 3);
    ++Ref[In[I] % NBins];
  }
  for (unsigned B : {32u, 100u, 256u}) {
    for (unsigned G : {1u, 7u, 40u}) {
      Buffer<unsigned> Bins(NBins);
      unsigned *IP = In.data(), *BP = Bins.data();
      for (unsigned T : {1u, 2u}) {
        std::fill(BP, BP + NBins, 0u);
        expectOk(run(programs(), "histogram", {G, 1, 1}, {B, 1, 1}, {&IP, &BP, &N, &NBins},
                     nullptr, NBins * sizeof(unsigned), T));
        for (int K = 0; K < NBins; ++K)
          EXPECT_EQ(Bins[K], Ref[K]) << "block " << B << " grid " << G << " bin " << K;
      }
    }
  }
}

TEST(Programs, DivergentLoops) {
  int N = 777;
  Buffer<int> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = I + 1;
  for (unsigned B : {32u, 50u, 128u, 512u}) {
    Buffer<int> Steps(N), Odd(N);
    int *IP = In.data(), *SP = Steps.data(), *OP = Odd.data();
    unsigned G = (N + B - 1) / B;
    LaunchMetrics M;
    expectOk(run(programs(), "collatz", {G, 1, 1}, {B, 1, 1}, {&IP, &SP, &OP, &N}, &M));
    for (int I = 0; I < N; ++I) {
      unsigned X = In[I];
      int S = 0, O = 0;
      while (X != 1 && S <= 1000) {
        ++S;
        if (X & 1) {
          X = 3 * X + 1;
          ++O;
        } else {
          X /= 2;
        }
      }
      EXPECT_EQ(Steps[I], S) << I;
      EXPECT_EQ(Odd[I], O) << I;
    }
    EXPECT_GT(M.DivergentBranches, 0u);
    EXPECT_LE(M.DivergentBranches, M.Branches);
  }
}

TEST(Programs, ThreeDimensionalBlocksAndGrids) {
  Dim3 Shapes[][2] = {{{2, 3, 2}, {4, 4, 4}},   {{1, 1, 1}, {8, 8, 16}},
                      {{3, 2, 1}, {5, 7, 3}},   {{2, 2, 2}, {32, 2, 2}},
                      {{1, 1, 1}, {1024, 1, 1}}, {{4, 1, 3}, {3, 3, 3}}};
  for (auto &S : Shapes) {
    Dim3 G = S[0], B = S[1];
    uint64_t Total = G.count() * B.count();
    Buffer<unsigned> Out(4 * Total);
    unsigned *O = Out.data();
    expectOk(run(programs(), "where3d", G, B, {&O}));
    for (unsigned BZ = 0; BZ < G.Z; ++BZ)
      for (unsigned BY = 0; BY < G.Y; ++BY)
        for (unsigned BX = 0; BX < G.X; ++BX)
          for (unsigned TZ = 0; TZ < B.Z; ++TZ)
            for (unsigned TY = 0; TY < B.Y; ++TY)
              for (unsigned TX = 0; TX < B.X; ++TX) {
                unsigned BL = BX + G.X * (BY + G.Y * BZ);
                unsigned TL = TX + B.X * (TY + B.Y * TZ);
                unsigned Gl = BL * unsigned(B.count()) + TL;
                EXPECT_EQ(Out[4 * Gl], TX | TY << 10 | TZ << 20);
                EXPECT_EQ(Out[4 * Gl + 1], BX | BY << 10 | BZ << 20);
                EXPECT_EQ(Out[4 * Gl + 2], B.X | B.Y << 10 | B.Z << 20);
                EXPECT_EQ(Out[4 * Gl + 3], (TL % 32) | (TL / 32) << 8);
              }
  }
}

void stencilRef(const std::vector<float> &In, std::vector<float> &Out, int W, int H) {
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X) {
      float C = In[Y * W + X];
      if (X == 0 || Y == 0 || X == W - 1 || Y == H - 1) {
        Out[Y * W + X] = C;
        continue;
      }
      float Nb = In[Y * W + X - 1] + In[Y * W + X + 1];
      Nb = Nb + In[(Y - 1) * W + X];
      Nb = Nb + In[(Y + 1) * W + X];
      Out[Y * W + X] = std::fma(0.5f, C, 0.125f * Nb);
    }
}

TEST(Programs, Stencil2D) {
  int W = 70, H = 45;
  Buffer<float> In(W * H);
  std::vector<float> Ref(W * H), InV(W * H);
  for (int I = 0; I < W * H; ++I)
    InV[I] = In[I] = float((I * 31) % 23) * 0.25f;
  stencilRef(InV, Ref, W, H);
  for (Dim3 B : {Dim3{16, 16, 1}, Dim3{32, 4, 1}, Dim3{8, 8, 1}, Dim3{5, 3, 1}, Dim3{64, 1, 1}}) {
    Buffer<float> Out(W * H);
    float *IP = In.data(), *OP = Out.data();
    Dim3 G{(W + B.X - 1) / B.X, (H + B.Y - 1) / B.Y, 1};
    expectOk(run(programs(), "stencil2d", G, B, {&IP, &OP, &W, &H}));
    for (int I = 0; I < W * H; ++I)
      ASSERT_EQ(Out[I], Ref[I]) << "block " << B.X << "x" << B.Y << " at " << I;
  }
}

TEST(Programs, DoublePrecisionMatrixProducts) {
  int N = 40;
  Buffer<double> A(N * N), B(N * N);
  for (int I = 0; I < N * N; ++I) {
    A[I] = std::sin(I * 0.37) * 3;
    B[I] = std::cos(I * 0.11) - 0.5;
  }
  std::vector<double> Ref(N * N);
  for (int R = 0; R < N; ++R)
    for (int C = 0; C < N; ++C) {
      double S = 0;
      for (int K = 0; K < N; ++K)
        S = std::fma(A[R * N + K], B[K * N + C], S);
      Ref[R * N + C] = S;
    }
  double *AP = A.data(), *BP = B.data();
  {
    Buffer<double> C(N * N);
    double *CP = C.data();
    Dim3 G{unsigned(N + 15) / 16, unsigned(N + 15) / 16, 1};
    expectOk(run(programs(), "dgemm_tiled", G, {16, 16, 1}, {&AP, &BP, &CP, &N}));
    for (int I = 0; I < N * N; ++I)
      ASSERT_EQ(C[I], Ref[I]) << I; // same fma order as the reference
  }
  for (Dim3 Bk : {Dim3{16, 16, 1}, Dim3{8, 4, 1}, Dim3{32, 1, 1}, Dim3{7, 9, 1}}) {
    Buffer<double> C(N * N);
    double *CP = C.data();
    Dim3 G{(N + Bk.X - 1) / Bk.X, (N + Bk.Y - 1) / Bk.Y, 1};
    expectOk(run(programs(), "dgemm_naive", G, Bk, {&AP, &BP, &CP, &N}));
    for (int I = 0; I < N * N; ++I)
      ASSERT_EQ(C[I], Ref[I]) << Bk.X << "x" << Bk.Y << " " << I;
  }
}

int fib(int N) { return N < 2 ? N : fib(N - 1) + fib(N - 2); }

TEST(Programs, DeviceFunctionCalls) {
  for (unsigned B : {32u, 45u, 128u}) {
    unsigned G = 3, N = G * B;
    Buffer<int> OI(N);
    Buffer<double> OD(N);
    int *IP = OI.data();
    double *DP = OD.data();
    expectOk(run(programs(), "calls", {G, 1, 1}, {B, 1, 1}, {&IP, &DP}));
    for (unsigned T = 0; T < N; ++T) {
      int F = T % 3 != 0 ? fib(T % 13) : 0;
      EXPECT_EQ(OI[T], F + 1000 + int(T) + int(T % 5)) << T;
      EXPECT_EQ(OD[T], 1.5 * (T % 5)) << T;
    }
  }
}

TEST(Programs, LocalArrays) {
  for (int K : {0, 5, 23}) {
    unsigned N = 200;
    Buffer<int> Out(N);
    int *OP = Out.data();
    expectOk(run(programs(), "local_array", {4, 1, 1}, {50, 1, 1}, {&OP, &K}));
    for (int T = 0; T < int(N); ++T) {
      int A[24];
      for (int I = 0; I < 24; ++I)
        A[I] = I * T + K;
      int S = 0;
      for (int I = 0; I < 24; ++I)
        S += A[(I * 7 + T) % 24] * (I + 1);
      EXPECT_EQ(Out[T], S + A[(T + K) % 24]) << T;
    }
  }
}

TEST(Programs, DynamicSharedMemory) {
  for (unsigned B : {1u, 33u, 256u, 1024u}) {
    unsigned N = B * 3;
    Buffer<float> In(N), Out(N);
    for (unsigned I = 0; I < N; ++I)
      In[I] = float(I) * 1.5f;
    float *IP = In.data(), *OP = Out.data();
    expectOk(run(programs(), "reverse_block", {3, 1, 1}, {B, 1, 1}, {&IP, &OP}, nullptr,
                 B * sizeof(float)));
    for (unsigned I = 0; I < N; ++I) {
      unsigned Base = I / B * B;
      EXPECT_EQ(Out[I], In[Base + B - 1 - (I - Base)]) << B << " " << I;
    }
  }
  // Too little dynamic shared memory is a fault, not a silent overflow.
  Buffer<float> In(64), Out(64);
  float *IP = In.data(), *OP = Out.data();
  LaunchResult R = run(programs(), "reverse_block", {1, 1, 1}, {64, 1, 1}, {&IP, &OP}, nullptr, 16);
  EXPECT_EQ(R.Status, LaunchStatus::MemoryFault);
}

TEST(Programs, BlockAndWarpVotes) {
  for (unsigned B : {32u, 64u, 256u}) {
    unsigned G = 2, N = G * B;
    Buffer<int> In(N), Out(8 * N);
    for (unsigned I = 0; I < N; ++I)
      In[I] = int((I * 5) % 11) - 3;
    int *IP = In.data(), *OP = Out.data();
    expectOk(run(programs(), "votes", {G, 1, 1}, {B, 1, 1}, {&IP, &OP}));
    for (unsigned I = 0; I < N; ++I) {
      unsigned Blk = I / B, W = I / 32;
      int Count = 0, All = 1, Any = 0;
      for (unsigned K = Blk * B; K < (Blk + 1) * B; ++K) {
        Count += In[K] > 0;
        All &= In[K] > -100;
        Any |= In[K] == 7;
      }
      unsigned Ballot = 0, Match = 0, Active = 0;
      int WAll = 1, WAny = 0, Mn = INT32_MAX;
      unsigned Sum = 0;
      for (unsigned L = 0; L < 32; ++L) {
        int V = In[W * 32 + L];
        Ballot |= unsigned(V & 1) << L;
        WAll &= V >= 0;
        WAny |= V == 3;
        Mn = std::min(Mn, V);
        Sum += unsigned(V);
        if (V % 4 == In[I] % 4)
          Match |= 1u << L;
        if (V % 3 == 0)
          Active |= 1u << L;
      }
      int *R = &Out[8 * I];
      EXPECT_EQ(R[0], Count) << I;
      EXPECT_EQ(R[1], All | Any << 1 | WAll << 2 | WAny << 3) << I;
      EXPECT_EQ(unsigned(R[2]), Ballot) << I;
      EXPECT_EQ(unsigned(R[3]), Match) << I;
      EXPECT_EQ(R[4], Mn) << I;
      EXPECT_EQ(unsigned(R[5]), Sum) << I;
      EXPECT_EQ(unsigned(R[6]), In[I] % 3 == 0 ? Active : 0u) << I;
      unsigned V = unsigned(In[I]), Brev = 0;
      for (int K = 0; K < 32; ++K)
        Brev |= ((V >> K) & 1) << (31 - K);
      int Ffs = V ? __builtin_ffs(int(V)) : 0;
      EXPECT_EQ(unsigned(R[7]),
                unsigned(__builtin_popcount(Ballot) + (Ballot ? __builtin_clz(Ballot) : 32) +
                         Ffs) + Brev)
          << I;
    }
  }
}

TEST(Programs, Atomics) {
  for (unsigned B : {32u, 100u, 256u}) {
    Buffer<int> G(4);
    Buffer<unsigned> U(6);
    Buffer<double> D(1);
    Buffer<unsigned long long> L(2);
    U[1] = 3;
    U[3] = 0xffffffffu;
    int *GP = G.data();
    unsigned *UP = U.data();
    double *DP = D.data();
    unsigned long long *LP = L.data();
    expectOk(run(programs(), "atomics", {2, 1, 1}, {B, 1, 1}, {&GP, &UP, &DP, &LP}));
    // Per block: S[0] = B, S[1] = B - 21, S[2] = -(B - 1), S[3] = xor.
    unsigned X = 0;
    for (unsigned T = 0; T < B; ++T)
      X ^= 1u << (T % 31);
    EXPECT_EQ(G[0], int(2 * B));
    EXPECT_EQ(G[1], 2 * (int(B) - 21));
    EXPECT_EQ(G[2], -2 * (int(B) - 1));
    EXPECT_EQ(G[3], int(2 * X)) << B;
    // inc with bound 9 from 0, 2B times.
    unsigned Inc = 0, Dec = 3;
    for (unsigned K = 0; K < 2 * B; ++K) {
      Inc = Inc >= 9 ? 0 : Inc + 1;
      Dec = (Dec == 0 || Dec > 5) ? 5 : Dec - 1;
    }
    EXPECT_EQ(U[0], Inc);
    EXPECT_EQ(U[1], Dec);
    EXPECT_EQ(U[2], B >= 32 ? 0xffffffffu : (1u << B) - 1);
    EXPECT_EQ(U[3], 0u);
    // Lanes apply atomics in order: thread T finds T and writes T + 1.
    EXPECT_EQ(U[4], B);
    EXPECT_LT(U[5], B);
    EXPECT_EQ(D[0], 0.5 * 2 * B);
    EXPECT_EQ(L[0], 3ull * 2 * B);
    EXPECT_EQ(L[1], (B - 1) * 1000000007ull);
  }
}

TEST(Programs, DevicePrintf) {
  testing::internal::CaptureStdout();
  int K = 7;
  expectOk(run(programs(), "hello", {2, 1, 1}, {32, 1, 1}, {&K}));
  std::string Out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(Out, "hello from thread 0 of block 0: k=7 x=3.50 s=ok\n"
                 "hello from thread 16 of block 0: k=7 x=3.50 s=ok\n"
                 "hello from thread 0 of block 1: k=7 x=3.50 s=ok\n"
                 "hello from thread 16 of block 1: k=7 x=3.50 s=ok\n");
}

TEST(Programs, SinglePrecisionMathLibrary) {
  int N = 64;
  Buffer<float> X(N), Out(8 * N);
  for (int I = 0; I < N; ++I)
    X[I] = (I - 32) * 0.77f + 0.01f;
  float *XP = X.data(), *OP = Out.data();
  expectOk(run(programs(), "mathfns", {2, 1, 1}, {32, 1, 1}, {&XP, &OP, &N}));
  auto ulps = [](float A, double B) {
    float BF = float(B);
    return std::fabs(double(A) - double(BF)) /
           std::max(double(std::nextafter(std::fabs(BF), INFINITY)) - std::fabs(BF), 1e-45);
  };
  for (int I = 0; I < N; ++I) {
    double V = X[I];
    float *R = &Out[8 * I];
    EXPECT_LE(ulps(R[0], std::sin(V)), 2) << V;         // CUDA: 2 ulp
    float Arg1 = X[I] * 0.1f, Arg7 = X[I] * 0.25f;
    EXPECT_LE(ulps(R[1], std::exp(double(Arg1))), 2) << V;
    EXPECT_LE(ulps(R[2], std::log(double(std::fabs(X[I]) + 1.0f))), 1) << V;
    EXPECT_EQ(R[3], std::sqrt(std::fabs(X[I]))) << V; // correctly rounded
    EXPECT_EQ(R[4], X[I] / 3.0f) << V;                // correctly rounded
    EXPECT_LE(ulps(R[5], std::pow(double(std::fabs(X[I]) + 0.5f), 1.5)), 2) << V;
    EXPECT_LE(std::fabs(R[6] - std::exp(double(Arg1))), std::exp(double(Arg1)) * 1e-5)
        << V; // __expf
    EXPECT_LE(ulps(R[7], std::tanh(double(Arg7))), 2) << V;
  }
}

TEST(Programs, DoublePrecisionMathLibrary) {
  int N = 32;
  Buffer<double> X(N), Out(4 * N);
  for (int I = 0; I < N; ++I)
    X[I] = (I - 16) * 1.37 + 0.001;
  double *XP = X.data(), *OP = Out.data();
  expectOk(run(programs(), "mathfns64", {1, 1, 1}, {32, 1, 1}, {&XP, &OP, &N}));
  for (int I = 0; I < N; ++I) {
    double V = X[I];
    EXPECT_NEAR(Out[4 * I], std::sin(V), 1e-15 * std::max(1.0, std::fabs(std::sin(V)))) << V;
    EXPECT_NEAR(Out[4 * I + 1], std::exp(V * 0.1), 4e-16 * std::exp(V * 0.1)) << V;
    EXPECT_EQ(Out[4 * I + 2], std::sqrt(std::fabs(V))) << V;
    EXPECT_EQ(Out[4 * I + 3], V / 3.0) << V;
  }
}

TEST(Programs, HalfPrecision) {
  int N = 32;
  Buffer<float> X(N);
  Buffer<uint16_t> Out(3 * N);
  for (int I = 0; I < N; ++I)
    X[I] = (I - 10) * 0.3f;
  float *XP = X.data();
  uint16_t *OP = Out.data();
  expectOk(run(programs(), "halves", {1, 1, 1}, {32, 1, 1}, {&XP, &OP, &N}));
  auto bits = [](_Float16 H) {
    uint16_t U;
    std::memcpy(&U, &H, 2);
    return U;
  };
  for (int I = 0; I < N; ++I) {
    _Float16 A = (_Float16)X[I], B = (_Float16)0.75f;
    _Float16 Sum = (_Float16)(float(A) + float(B));
    _Float16 R = (_Float16)(double(A) * double(B) + double(Sum));
    EXPECT_EQ(Out[3 * I], bits(R)) << I;
    EXPECT_EQ(Out[3 * I + 1], bits((_Float16)(float(A) * float(A)))) << I;
    // __float2half_rz: toward zero (one step below the nearest rounding when
    // that went away from zero).
    float V = X[I] * 3.0f;
    _Float16 RN = (_Float16)V;
    uint16_t RZ = bits(RN);
    if (std::fabs(float(RN)) > std::fabs(V))
      RZ = uint16_t(RZ - 1);
    EXPECT_EQ(Out[3 * I + 2], RZ) << I;
  }
}

TEST(Programs, HostThreadsGiveTheSameResultsAndMetrics) {
  int N = 4000;
  Buffer<int> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = I + 1;
  LaunchMetrics M1, M2;
  Buffer<int> S1(N), O1(N), S2(N), O2(N);
  int *IP = In.data(), *SP = S1.data(), *OP = O1.data();
  expectOk(run(programs(), "collatz", {32, 1, 1}, {128, 1, 1}, {&IP, &SP, &OP, &N}, &M1, 0, 1));
  SP = S2.data();
  OP = O2.data();
  expectOk(run(programs(), "collatz", {32, 1, 1}, {128, 1, 1}, {&IP, &SP, &OP, &N}, &M2, 0, 3));
  EXPECT_EQ(S1.vec(), S2.vec());
  EXPECT_EQ(O1.vec(), O2.vec());
  EXPECT_EQ(M1.ThreadInstructions, M2.ThreadInstructions);
  for (unsigned K = 0; K < unsigned(InstClass::Count); ++K)
    EXPECT_EQ(M1.WarpInstructions[K], M2.WarpInstructions[K]) << K;
  EXPECT_EQ(M1.DivergentBranches, M2.DivergentBranches);
  EXPECT_EQ(M1.GlobalLoadSectors, M2.GlobalLoadSectors);
}

} // namespace

namespace {

TEST(Programs, DeviceHeap) {
  Buffer<int> Out(64);
  int *OP = Out.data();
  expectOk(run(programs(), "heap", {1, 1, 1}, {64, 1, 1}, {&OP}));
  for (int T = 0; T < 64; ++T)
    EXPECT_EQ(Out[T], 10 * T) << T;
}

TEST(Programs, FailedAssertion) {
  int K = 40;
  LaunchResult R = run(programs(), "asserts", {2, 1, 1}, {32, 1, 1}, {&K});
  EXPECT_EQ(R.Status, LaunchStatus::Ok) << R.Message; // no thread 40
  R = run(programs(), "asserts", {2, 1, 1}, {64, 1, 1}, {&K});
  EXPECT_EQ(R.Status, LaunchStatus::Trap);
  EXPECT_NE(R.Message.find("assertion 'threadIdx.x != K' failed at "), std::string::npos)
      << R.Message;
  EXPECT_NE(R.Message.find("programs.cu:"), std::string::npos) << R.Message;
  EXPECT_NE(R.Message.find("in kernel 'asserts'"), std::string::npos) << R.Message;
}

TEST(Programs, AsynchronousCopies) {
  for (unsigned B : {32u, 128u}) {
    Buffer<float> In(4 * 2 * B), Out(4 * 2 * B);
    for (unsigned I = 0; I < 4 * 2 * B; ++I)
      In[I] = float(I) + 0.5f;
    float *IP = In.data(), *OP = Out.data();
    expectOk(run(programs(), "async_copy", {2, 1, 1}, {B, 1, 1}, {&IP, &OP}));
    for (unsigned Blk = 0; Blk < 2; ++Blk)
      for (unsigned T = 0; T < B; ++T)
        for (unsigned C = 0; C < 4; ++C)
          EXPECT_EQ(Out[4 * (Blk * B + T) + C], In[4 * (Blk * B + B - 1 - T) + 3 - C])
              << B << " " << T;
  }
}

} // namespace
