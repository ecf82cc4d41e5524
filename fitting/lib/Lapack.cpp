//===- Lapack.cpp - dgelsd and dgesvd through their Fortran symbols -------===//
///
/// \file
/// Workspace sizes come from LAPACK's own query (lwork = -1). The hidden
/// string-length arguments of gfortran's calling convention are passed for
/// dgesvd's two character arguments.
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/Lapack.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <dlfcn.h>
#include <mutex>

extern "C" {
void dgelsd_(const int *M, const int *N, const int *NRHS, double *A,
             const int *LDA, double *B, const int *LDB, double *S,
             const double *RCond, int *Rank, double *Work, const int *LWork,
             int *IWork, int *Info);
void dgesvd_(const char *JobU, const char *JobVT, const int *M, const int *N,
             double *A, const int *LDA, double *S, double *U, const int *LDU,
             double *VT, const int *LDVT, double *Work, const int *LWork,
             int *Info, size_t JobULen, size_t JobVTLen);
void dgeqrf_(const int *M, const int *N, double *A, const int *LDA, double *Tau,
             double *Work, const int *LWork, int *Info);
void dormqr_(const char *Side, const char *Trans, const int *M, const int *N,
             const int *K, const double *A, const int *LDA, const double *Tau,
             double *C, const int *LDC, double *Work, const int *LWork,
             int *Info, size_t SideLen, size_t TransLen);
}

namespace klaraptor {
namespace fitting {

bool blasSharesBuffers(const char *OpenBlasConfig) {
  return OpenBlasConfig && std::strstr(OpenBlasConfig, "SINGLE_THREADED");
}

namespace {
/// What the BLAS behind liblapack.so.3 (whichever implementation Debian's
/// alternatives chose) needs from the fitter, settled at the first call.
struct BlasSetup {
  bool Serialised = false;
  BlasSetup() {
    // OpenBLAS's own entry points say which build it is.
    using ConfigFn = const char *(*)();
    auto Config = reinterpret_cast<ConfigFn>(
        dlsym(RTLD_DEFAULT, "openblas_get_config"));
    if (!Config)
      return;
    Serialised = blasSharesBuffers(Config());
    // A threaded OpenBLAS (libopenblas0-pthread, which NumPy's packages
    // bring) starts threads of its own inside every call, on the cores the
    // fitter's threads already use: for systems of a few hundred rows that
    // made klaraptor fit 2.7 times slower. One thread per call.
    using SetThreadsFn = void (*)(int);
    if (auto SetThreads = reinterpret_cast<SetThreadsFn>(
            dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
      SetThreads(1);
  }
};

const BlasSetup &blasSetup() {
  static const BlasSetup Setup;
  return Setup;
}
} // namespace

bool lapackCallsSerialised() { return blasSetup().Serialised; }

namespace {
/// Held around each LAPACK call when lapackCallsSerialised().
struct CallLock {
  std::unique_lock<std::mutex> Held;
  CallLock() {
    static std::mutex M;
    if (lapackCallsSerialised())
      Held = std::unique_lock<std::mutex>(M);
  }
};
} // namespace

/// LAPACK aborts the process on NaN input (xerbla); refuse it here.
static bool allFinite(const std::vector<double> &V) {
  for (double X : V)
    if (!std::isfinite(X))
      return false;
  return true;
}

double LeastSquares::condition() const {
  if (Rank <= 0 || Singular.empty())
    return 0;
  return Singular.front() / Singular[size_t(Rank) - 1];
}

LeastSquares solveLeastSquares(Matrix A, std::vector<double> B, double RCond) {
  LeastSquares R;
  int M = A.Rows, N = A.Cols, NRHS = 1, LDA = std::max(1, M);
  int LDB = std::max(1, std::max(M, N));
  if (M == 0 || N == 0) {
    R.Error = "empty system";
    return R;
  }
  if (!allFinite(A.Data) || !allFinite(B)) {
    R.Error = "the system has values that are not finite";
    return R;
  }
  CallLock Lock;
  B.resize(size_t(LDB), 0.0);
  R.Singular.assign(size_t(std::min(M, N)), 0.0);
  int Info = 0, Rank = 0, LWork = -1;
  double WorkQuery = 0;
  int IWorkQuery = 0;
  dgelsd_(&M, &N, &NRHS, A.Data.data(), &LDA, B.data(), &LDB, R.Singular.data(),
          &RCond, &Rank, &WorkQuery, &LWork, &IWorkQuery, &Info);
  if (Info != 0) {
    R.Error =
        "dgelsd workspace query failed (info " + std::to_string(Info) + ")";
    return R;
  }
  LWork = int(WorkQuery) + 1;
  std::vector<double> Work(static_cast<size_t>(LWork));
  std::vector<int> IWork(size_t(std::max(1, IWorkQuery)));
  dgelsd_(&M, &N, &NRHS, A.Data.data(), &LDA, B.data(), &LDB, R.Singular.data(),
          &RCond, &Rank, Work.data(), &LWork, IWork.data(), &Info);
  if (Info != 0) {
    R.Error = "dgelsd did not converge (info " + std::to_string(Info) + ")";
    return R;
  }
  R.Rank = Rank;
  R.X.assign(B.begin(), B.begin() + N);
  return R;
}

/// dgesvd with \p JobVT 'S' (the right singular vectors into R.V) or 'N'.
static Svd svd(Matrix A, char JobVT) {
  Svd R;
  int M = A.Rows, N = A.Cols, LDA = std::max(1, M), K = std::min(M, N);
  if (M == 0 || N == 0) {
    R.Error = "empty system";
    return R;
  }
  if (!allFinite(A.Data)) {
    R.Error = "the system has values that are not finite";
    return R;
  }
  CallLock Lock;
  R.Singular.assign(size_t(K), 0.0);
  Matrix VT(K, N);
  int LDU = 1, LDVT = std::max(1, K), Info = 0, LWork = -1;
  double U = 0, WorkQuery = 0;
  const char JobU = 'N';
  dgesvd_(&JobU, &JobVT, &M, &N, A.Data.data(), &LDA, R.Singular.data(), &U,
          &LDU, VT.Data.data(), &LDVT, &WorkQuery, &LWork, &Info, 1, 1);
  if (Info != 0) {
    R.Error =
        "dgesvd workspace query failed (info " + std::to_string(Info) + ")";
    return R;
  }
  LWork = int(WorkQuery) + 1;
  std::vector<double> Work(static_cast<size_t>(LWork));
  dgesvd_(&JobU, &JobVT, &M, &N, A.Data.data(), &LDA, R.Singular.data(), &U,
          &LDU, VT.Data.data(), &LDVT, Work.data(), &LWork, &Info, 1, 1);
  if (Info != 0) {
    R.Error = "dgesvd did not converge (info " + std::to_string(Info) + ")";
    return R;
  }
  if (JobVT == 'N')
    return R;
  R.V = Matrix(N, K);
  for (int I = 0; I < K; ++I)
    for (int J = 0; J < N; ++J)
      R.V.at(J, I) = VT.at(I, J);
  return R;
}

Svd singularValueDecomposition(Matrix A) { return svd(std::move(A), 'S'); }

Svd singularValues(Matrix A) { return svd(std::move(A), 'N'); }

QrSolution solveByQr(Matrix A, std::vector<double> B, double RCond) {
  QrSolution S;
  int M = A.Rows, N = A.Cols, LDA = std::max(1, M), Info = 0, One = 1;
  if (M < N || N == 0 || !allFinite(A.Data) || !allFinite(B))
    return S;
  CallLock Lock;
  std::vector<double> Tau(static_cast<size_t>(N));
  // A generous fixed workspace: N * 64 is more than dgeqrf's and dormqr's
  // optimal block sizes need for these small systems.
  int LWork = std::max(1, N * 64);
  std::vector<double> Work(static_cast<size_t>(LWork));
  dgeqrf_(&M, &N, A.Data.data(), &LDA, Tau.data(), Work.data(), &LWork, &Info);
  if (Info != 0)
    return S;
  double Max = 0, Min = INFINITY;
  for (int I = 0; I < N; ++I) {
    double D = std::fabs(A.at(I, I));
    Max = std::max(Max, D);
    Min = std::min(Min, D);
  }
  if (!(Min > RCond * Max) || Max == 0)
    return S;
  const char Side = 'L', Trans = 'T';
  int LDC = std::max(1, M);
  dormqr_(&Side, &Trans, &M, &One, &N, A.Data.data(), &LDA, Tau.data(),
          B.data(), &LDC, Work.data(), &LWork, &Info, 1, 1);
  if (Info != 0)
    return S;
  S.X.assign(static_cast<size_t>(N), 0.0);
  for (int I = N - 1; I >= 0; --I) {
    double V = B[size_t(I)];
    for (int J = I + 1; J < N; ++J)
      V -= A.at(I, J) * S.X[size_t(J)];
    S.X[size_t(I)] = V / A.at(I, I);
  }
  S.Condition = Max / Min;
  S.FullRank = true;
  return S;
}

bool qrTriangle(Matrix A, Matrix &R) {
  int M = A.Rows, N = A.Cols, LDA = std::max(1, M), Info = 0, LWork = -1;
  if (M < N || N == 0 || !allFinite(A.Data))
    return false;
  CallLock Lock;
  std::vector<double> Tau(static_cast<size_t>(N));
  double WorkQuery = 0;
  dgeqrf_(&M, &N, A.Data.data(), &LDA, Tau.data(), &WorkQuery, &LWork, &Info);
  if (Info != 0)
    return false;
  LWork = int(WorkQuery) + 1;
  std::vector<double> Work(static_cast<size_t>(LWork));
  dgeqrf_(&M, &N, A.Data.data(), &LDA, Tau.data(), Work.data(), &LWork, &Info);
  if (Info != 0)
    return false;
  R = Matrix(N, N);
  for (int C = 0; C < N; ++C)
    for (int Row = 0; Row <= C; ++Row)
      R.at(Row, C) = A.at(Row, C);
  return true;
}

} // namespace fitting
} // namespace klaraptor
