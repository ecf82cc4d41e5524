//===- LapackTest.cpp - dgelsd, dgesvd and QR wrappers --------------------===//
///
/// \file
/// Lapack.h on small systems with known answers: least squares, rank
/// deficiency and the minimum-norm solution, the null vector, QR; and the
/// same results from several threads at once (the fitter's threads).
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/Lapack.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <dlfcn.h>
#include <thread>

using namespace klaraptor::fitting;

namespace {

Matrix matrix(int R, int C, std::initializer_list<double> RowMajor) {
  Matrix M(R, C);
  auto It = RowMajor.begin();
  for (int I = 0; I < R; ++I)
    for (int J = 0; J < C; ++J)
      M.at(I, J) = *It++;
  return M;
}

TEST(Lapack, LeastSquaresOfAnOverdeterminedSystem) {
  // y = 2 + 3 x at x = 0..3, exactly.
  Matrix A = matrix(4, 2, {1, 0, 1, 1, 1, 2, 1, 3});
  LeastSquares LS = solveLeastSquares(A, {2, 5, 8, 11}, 1e-12);
  ASSERT_TRUE(LS.Error.empty()) << LS.Error;
  EXPECT_EQ(LS.Rank, 2);
  EXPECT_NEAR(LS.X[0], 2, 1e-12);
  EXPECT_NEAR(LS.X[1], 3, 1e-12);
  EXPECT_GT(LS.condition(), 1);
  QrSolution Q = solveByQr(A, {2, 5, 8, 11}, 1e-12);
  ASSERT_TRUE(Q.FullRank);
  EXPECT_NEAR(Q.X[0], 2, 1e-12);
  EXPECT_NEAR(Q.X[1], 3, 1e-12);
}

TEST(Lapack, RankDeficientGivesRankAndMinimumNorm) {
  // Two equal columns: x0 + x1 = 4 has the minimum-norm solution (2, 2).
  Matrix A = matrix(3, 2, {1, 1, 1, 1, 1, 1});
  LeastSquares LS = solveLeastSquares(A, {4, 4, 4}, 1e-10);
  ASSERT_TRUE(LS.Error.empty());
  EXPECT_EQ(LS.Rank, 1);
  EXPECT_NEAR(LS.X[0], 2, 1e-12);
  EXPECT_NEAR(LS.X[1], 2, 1e-12);
  EXPECT_FALSE(solveByQr(A, {4, 4, 4}, 1e-10).FullRank);
}

TEST(Lapack, NullVectorOfAHomogeneousSystem) {
  // Rows orthogonal to (1, -2, 1).
  Matrix A = matrix(3, 3, {1, 1, 1, 2, 1, 0, 0, 1, 2});
  Svd S = singularValueDecomposition(A);
  ASSERT_TRUE(S.Error.empty());
  ASSERT_EQ(S.Singular.size(), 3u);
  EXPECT_LT(S.Singular[2], 1e-12 * S.Singular[0]);
  double V0 = S.V.at(0, 2), V1 = S.V.at(1, 2), V2 = S.V.at(2, 2);
  EXPECT_NEAR(V1 / V0, -2, 1e-12);
  EXPECT_NEAR(V2 / V0, 1, 1e-12);
}

TEST(Lapack, SingularValuesAloneAreThoseOfTheFullDecomposition) {
  Matrix A = matrix(4, 3, {1, 2, 0, 5, 1, 1, 3, 0, 2, 1, 4, 1});
  Svd Full = singularValueDecomposition(A), Values = singularValues(A);
  ASSERT_TRUE(Values.Error.empty()) << Values.Error;
  ASSERT_EQ(Values.Singular.size(), 3u);
  for (size_t I = 0; I < 3; ++I)
    EXPECT_NEAR(Values.Singular[I], Full.Singular[I], 1e-12 * Full.Singular[0]);
  EXPECT_EQ(Values.V.Rows * Values.V.Cols, 0);
  // A rank-deficient system: the smallest value is zero to rounding.
  Svd Null = singularValues(matrix(3, 3, {1, 1, 1, 2, 1, 0, 0, 1, 2}));
  ASSERT_EQ(Null.Singular.size(), 3u);
  EXPECT_LT(Null.Singular[2], 1e-12 * Null.Singular[0]);
  EXPECT_FALSE(singularValues(Matrix(0, 0)).Error.empty());
}

TEST(Lapack, QrTriangleKeepsTheSingularValues) {
  Matrix A = matrix(4, 2, {3, 0, 0, 4, 0, 0, 0, 0});
  Matrix R;
  ASSERT_TRUE(qrTriangle(A, R));
  Svd S = singularValueDecomposition(R);
  EXPECT_NEAR(S.Singular[0], 4, 1e-12);
  EXPECT_NEAR(S.Singular[1], 3, 1e-12);
}

TEST(Lapack, OnlyAnOpenBlasWithoutThreadsSharesItsBuffers) {
  EXPECT_TRUE(blasSharesBuffers("OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH "
                                "NO_AFFINITY Haswell SINGLE_THREADED"));
  EXPECT_FALSE(blasSharesBuffers("OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH "
                                 "NO_AFFINITY Haswell MAX_THREADS=64"));
  EXPECT_FALSE(blasSharesBuffers(nullptr)); // not OpenBLAS
  // This process's BLAS: serialised exactly when it says it shares them,
  // and a threaded OpenBLAS runs each call on one thread.
  bool Serialised = lapackCallsSerialised();
  using ConfigFn = const char *(*)();
  using ThreadsFn = int (*)();
  auto Config =
      reinterpret_cast<ConfigFn>(dlsym(RTLD_DEFAULT, "openblas_get_config"));
  auto Threads = reinterpret_cast<ThreadsFn>(
      dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  EXPECT_EQ(Serialised, Config && blasSharesBuffers(Config()));
  if (Threads)
    EXPECT_EQ(Threads(), 1);
  std::printf("[ lapack   ] %s; calls serialised: %s\n",
              Config ? Config() : "not OpenBLAS", Serialised ? "yes" : "no");
}

/// A dense M x N matrix of pseudo-random values in [-1, 1).
Matrix randomMatrix(int M, int N, uint64_t Seed) {
  Matrix A(M, N);
  for (double &V : A.Data) {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    V = double(Seed >> 11) / double(1ull << 52) - 1;
  }
  return A;
}

/// Everything one thread computes: a QR triangle, a QR solve, a full SVD,
/// all large enough for LAPACK's blocked (BLAS level 3) code.
std::vector<double> someResults(uint64_t Seed) {
  std::vector<double> Out;
  Matrix A = randomMatrix(300, 80, Seed), R;
  if (qrTriangle(A, R))
    Out.insert(Out.end(), R.Data.begin(), R.Data.end());
  std::vector<double> B(300);
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = std::sin(double(I));
  QrSolution Q = solveByQr(A, B, 1e-12);
  Out.insert(Out.end(), Q.X.begin(), Q.X.end());
  Svd S = singularValueDecomposition(randomMatrix(90, 70, Seed + 1));
  Out.insert(Out.end(), S.Singular.begin(), S.Singular.end());
  Out.insert(Out.end(), S.V.Data.begin(), S.V.Data.end());
  return Out;
}

TEST(Lapack, ThreadsAtOnceGetTheResultsOfOneAtATime) {
  // KernelFit fits quantities on several threads; an OpenBLAS built without
  // threads (libopenblas0-serial) would mix their work buffers unless the
  // calls are serialised (lapackCallsSerialised).
  const unsigned Threads = 4, Rounds = 8;
  std::vector<std::vector<double>> Expected;
  for (unsigned T = 0; T < Threads; ++T)
    Expected.push_back(someResults(T));
  ASSERT_FALSE(Expected[0].empty());
  std::vector<unsigned> Mismatches(Threads, 0);
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      for (unsigned K = 0; K < Rounds; ++K)
        Mismatches[T] += someResults(T) != Expected[T];
    });
  for (std::thread &T : Pool)
    T.join();
  for (unsigned T = 0; T < Threads; ++T)
    EXPECT_EQ(Mismatches[T], 0u) << "thread " << T;
}

} // namespace
