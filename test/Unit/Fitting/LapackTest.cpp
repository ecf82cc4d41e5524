//===- LapackTest.cpp - dgelsd, dgesvd and QR wrappers --------------------===//
///
/// \file
/// Lapack.h on small systems with known answers: least squares, rank
/// deficiency and the minimum-norm solution, the null vector, QR.
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/Lapack.h"

#include <gtest/gtest.h>

#include <cmath>

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

} // namespace
