//===- Lapack.h - the two SVD solvers the fitter uses -----------*- C++ -*-===//
///
/// \file
/// Thin wrappers over LAPACK's Fortran entry points (no LAPACKE): dgelsd for
/// minimum-norm least squares with a numerical rank, and dgesvd for the right
/// singular vectors of a homogeneous system. Matrices are column-major.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_FITTING_LAPACK_H
#define KLARAPTOR_FITTING_LAPACK_H

#include <string>
#include <vector>

namespace klaraptor {
namespace fitting {

/// A column-major M x N matrix.
struct Matrix {
  int Rows = 0, Cols = 0;
  std::vector<double> Data;
  Matrix() = default;
  Matrix(int R, int C) : Rows(R), Cols(C), Data(size_t(R) * C, 0.0) {}
  double &at(int R, int C) { return Data[size_t(C) * Rows + R]; }
  double at(int R, int C) const { return Data[size_t(C) * Rows + R]; }
  double *column(int C) { return Data.data() + size_t(C) * Rows; }
  const double *column(int C) const { return Data.data() + size_t(C) * Rows; }
};

/// What a least-squares solve found.
struct LeastSquares {
  std::vector<double> X;        ///< the minimum-norm solution (N values)
  std::vector<double> Singular; ///< singular values, largest first
  int Rank = 0;                 ///< values above RCond * largest
  std::string Error;            ///< non-empty when LAPACK failed
  /// Largest over smallest singular value kept in the rank.
  double condition() const;
};

/// min ||A x - B||_2 by dgelsd; singular values below RCond times the largest
/// count as zero, which makes the solution the minimum-norm one.
LeastSquares solveLeastSquares(Matrix A, std::vector<double> B, double RCond);

/// What a singular value decomposition found.
struct Svd {
  std::vector<double> Singular; ///< min(M, N) values, largest first
  Matrix V;                     ///< N x min(M, N): right singular vectors
  std::string Error;
};

/// The singular values and right singular vectors of A by dgesvd.
Svd singularValueDecomposition(Matrix A);

/// The singular values of \p A alone (dgesvd without vectors: cheaper);
/// Svd::V stays empty.
Svd singularValues(Matrix A);

/// A least-squares solve by QR (dgeqrf, dormqr, back substitution), valid
/// when FullRank: no diagonal entry of R below RCond times the largest.
struct QrSolution {
  bool FullRank = false;
  std::vector<double> X;
  double Condition = 0; ///< largest over smallest |R_ii| (an estimate)
};
QrSolution solveByQr(Matrix A, std::vector<double> B, double RCond);

/// The upper-triangular factor R (N x N) of A = QR by dgeqrf; needs M >= N.
bool qrTriangle(Matrix A, Matrix &R);

/// Whether a BLAS that describes itself with \p OpenBlasConfig (what
/// OpenBLAS's openblas_get_config() returns; null: not OpenBLAS) shares its
/// work buffers between callers: an OpenBLAS built without threads
/// ("SINGLE_THREADED", Debian's libopenblas0-serial) has no locks, and two
/// threads inside it at once corrupt each other's results.
bool blasSharesBuffers(const char *OpenBlasConfig);

/// Whether the BLAS this process loaded shares its buffers
/// (blasSharesBuffers of its openblas_get_config, looked up once): then the
/// calls above take one lock, so that the fitter's threads (KernelFit) get
/// the results they would get one at a time. The first call also limits a
/// threaded OpenBLAS to one thread per call (openblas_set_num_threads(1)):
/// the fitter's systems are small and its own threads use the cores.
bool lapackCallsSerialised();

} // namespace fitting
} // namespace klaraptor

#endif // KLARAPTOR_FITTING_LAPACK_H
