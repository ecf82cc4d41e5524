//===- LeastSquaresFit.cpp - one candidate's least-squares fit by SVD -----===//
///
/// \file
/// Scaled designs; the linear solve (polynomials and one-term denominators:
/// QR, or dgelsd with its numerical rank and minimum-norm solution); the
/// homogeneous solve of P - yQ = 0 for several-term denominators (the right
/// singular vector of the smallest singular value, dgesvd) with
/// Sanathanan-Koerner reweighting; and the compressed systems (one QR for
/// many candidates) the selection screens candidates with. Columns are
/// normalised to unit length before every solve. docs/fitting.md explains.
//===----------------------------------------------------------------------===//
#include "FitterImpl.h"

#include <numeric>

namespace klaraptor {
namespace fitting {
namespace detail {

Design makeDesign(const FitProblem &P, const RowSet &Rows,
                  const std::vector<double> &Scale, unsigned MaxDeg) {
  Design D;
  D.Rows = Rows;
  D.Scale = Scale;
  D.MaxDeg = MaxDeg;
  size_t K = P.Vars.size(), N = Rows.size();
  D.Pow.assign(K * (MaxDeg + 1) * N, 1.0);
  for (unsigned V = 0; V < K; ++V)
    for (unsigned Dg = 1; Dg <= MaxDeg; ++Dg)
      for (size_t I = 0; I < N; ++I)
        D.Pow[(V * (MaxDeg + 1) + Dg) * N + I] =
            D.Pow[(V * (MaxDeg + 1) + Dg - 1) * N + I] *
            (P.X[Rows[I]][V] / Scale[V]);
  return D;
}

std::vector<double> normaliseColumns(Matrix &A) {
  std::vector<double> Norm(size_t(A.Cols), 1.0);
  for (int C = 0; C < A.Cols; ++C) {
    double *Col = A.column(C);
    double S = 0;
    for (int R = 0; R < A.Rows; ++R)
      S += Col[R] * Col[R];
    S = std::sqrt(S);
    if (S > 0) {
      Norm[size_t(C)] = S;
      for (int R = 0; R < A.Rows; ++R)
        Col[R] /= S;
    }
  }
  return Norm;
}

double sumAt(const Design &D, const std::vector<Exponents> &Terms,
             const std::vector<double> &Coef, size_t I) {
  double S = 0;
  for (size_t J = 0; J < Terms.size(); ++J)
    S += Coef[J] * monomialAt(D, Terms[J], I);
  return S;
}

/// The solution of one candidate's system A (columns already normalised,
/// \p Norm their norms): polynomial (B given) or homogeneous.
namespace {
struct Solution {
  bool Ok = false;
  std::vector<double> Coef; ///< numerator then denominator, unnormalised
  int Rank = 0, Columns = 0;
  double Condition = 0;
};
} // namespace

/// \p UseSvd: always by singular values (for the reported rank and
/// condition number), not by the faster QR.
static Solution solveSystem(Matrix A, const std::vector<double> &Norm,
                            const std::vector<double> *B, size_t NP,
                            double RCond, bool UseSvd = false) {
  Solution S;
  size_t N = size_t(A.Cols);
  S.Columns = int(N);
  if (B) {
    // Full rank (the usual case): a QR solve; otherwise the minimum-norm
    // solution by dgelsd.
    QrSolution QS;
    if (!UseSvd)
      QS = solveByQr(A, *B, RCond);
    if (QS.FullRank) {
      S.Coef.resize(N);
      for (size_t J = 0; J < N; ++J)
        S.Coef[J] = QS.X[J] / Norm[J];
      S.Rank = int(N);
      S.Condition = QS.Condition;
      S.Ok = true;
      return S;
    }
    LeastSquares LS = solveLeastSquares(std::move(A), *B, RCond);
    if (!LS.Error.empty())
      return S;
    S.Coef.resize(N);
    for (size_t J = 0; J < N; ++J)
      S.Coef[J] = LS.X[J] / Norm[J];
    S.Rank = LS.Rank;
    S.Condition = LS.condition();
    S.Ok = true;
    return S;
  }
  if (size_t(A.Rows) < N)
    return S;
  Svd D = singularValueDecomposition(std::move(A));
  if (!D.Error.empty() || D.Singular.size() < N)
    return S;
  S.Coef.resize(N);
  for (size_t J = 0; J < N; ++J)
    S.Coef[J] = D.V.at(int(J), int(N - 1)) / Norm[J];
  // The denominator's largest coefficient becomes 1.
  size_t Pivot = NP;
  for (size_t J = NP; J < N; ++J)
    if (std::fabs(S.Coef[J]) > std::fabs(S.Coef[Pivot]))
      Pivot = J;
  if (S.Coef[Pivot] == 0)
    return S;
  double PV = S.Coef[Pivot];
  for (double &V : S.Coef)
    V /= PV;
  for (double SV : D.Singular)
    if (SV > RCond * D.Singular[0])
      ++S.Rank;
  // The smallest singular value belongs to the solution; the condition of
  // the rest is what limits its accuracy.
  S.Condition =
      D.Singular[N - 2] > 0 ? D.Singular[0] / D.Singular[N - 2] : INFINITY;
  S.Ok = true;
  return S;
}

/// Installs the coefficients of \p S into a function for candidate \p C.
static CandidateFit finishFit(const Context &Cx, const Design &D,
                              const Candidate &C, const Solution &S) {
  CandidateFit R;
  if (!S.Ok)
    return R;
  RationalFunction &F = R.F;
  size_t NP = C.Num.size();
  F.NumVars = unsigned(Cx.P.Vars.size());
  F.Scale = D.Scale;
  F.NumTerms = C.Num;
  F.DenTerms = C.Den;
  F.NumDegree = C.NumBound;
  F.NumTotalDegree = C.NumTotal;
  F.DenDegree = C.DenBound;
  F.NumCoef.assign(S.Coef.begin(), S.Coef.begin() + long(NP));
  for (double &V : F.NumCoef)
    V *= Cx.YScale;
  if (C.rational()) {
    F.DenCoef.assign(S.Coef.begin() + long(NP), S.Coef.end());
    // The denominator's largest term gets coefficient 1 in the original
    // variables, so the function reads in the original units.
    size_t Pivot = 0;
    for (size_t J = 1; J < F.DenCoef.size(); ++J)
      if (std::fabs(F.DenCoef[J]) > std::fabs(F.DenCoef[Pivot]))
        Pivot = J;
    double Sb = 1;
    for (size_t V = 0; V < C.Den[Pivot].size(); ++V)
      for (unsigned K = 0; K < C.Den[Pivot][V]; ++K)
        Sb *= D.Scale[V];
    double Factor = Sb / F.DenCoef[Pivot];
    for (double &V : F.NumCoef)
      V *= Factor;
    for (double &V : F.DenCoef)
      V *= Factor;
  } else {
    // Q = x^b with coefficient 1 in the original variables, so the
    // numerator reads in the original units.
    double Sb = 1;
    for (size_t V = 0; V < C.Den[0].size(); ++V)
      for (unsigned K = 0; K < C.Den[0][V]; ++K)
        Sb *= D.Scale[V];
    F.DenCoef = {Sb};
    for (double &V : F.NumCoef)
      V *= Sb;
  }
  // The sign of Q on these rows (the region check wants it everywhere);
  // a one-term denominator of positive data is positive.
  int Pos = 0, Neg = 0;
  if (C.rational() || Cx.HasNegative) {
    for (size_t I = 0; I < D.Rows.size(); ++I) {
      double Q = sumAt(D, C.Den, F.DenCoef, I);
      Pos += Q > 0;
      Neg += Q < 0;
    }
  }
  F.DenSign = Pos >= Neg ? 1 : -1;
  R.Rank = S.Rank;
  R.Columns = S.Columns;
  R.Condition = S.Condition;
  R.Ok = true;
  return R;
}

/// Sanathanan-Koerner steps for a rational candidate: the rows \p Use of
/// \p D are reweighted by 1/|Q| of the previous solution, so that the
/// linearised residual (P - yQ)/Q approaches the true error P/Q - y. Stops
/// when the fit is exact on those rows.
static Solution refine(const Context &Cx, const Design &D, const Candidate &C,
                       Solution S, const std::vector<size_t> &Use) {
  const FitProblem &P = Cx.P;
  size_t NP = C.Num.size(), NQ = C.Den.size(), N = NP + NQ, M = Use.size();
  double LastRms = INFINITY;
  for (unsigned Step = 0; Step < Cx.O.RefineSteps && S.Ok; ++Step) {
    std::vector<double> NumC(S.Coef.begin(), S.Coef.begin() + long(NP));
    std::vector<double> DenC(S.Coef.begin() + long(NP), S.Coef.end());
    std::vector<double> QW(M);
    double Worst = 0, Sum = 0;
    for (size_t K = 0; K < M; ++K) {
      size_t I = Use[K];
      double Q = sumAt(D, C.Den, DenC, I);
      if (Q == 0)
        return S;
      double E = relativeError(sumAt(D, C.Num, NumC, I) / Q * Cx.YScale,
                               P.Y[D.Rows[I]], Cx.YScale);
      Worst = std::max(Worst, E);
      Sum += E * E;
      QW[K] = 1.0 / std::fabs(Q);
    }
    // Exact, or converged (the error changed by less than 0.1 %).
    double Rms = std::sqrt(Sum / double(M));
    if (Worst < 1e-12 || std::fabs(LastRms - Rms) <= 1e-3 * Rms)
      return S;
    LastRms = Rms;
    Matrix A(static_cast<int>(M), static_cast<int>(N));
    std::vector<double> W(M), Yv(M);
    for (size_t K = 0; K < M; ++K) {
      W[K] = Cx.weight(D.Rows[Use[K]]) * QW[K];
      Yv[K] = P.Y[D.Rows[Use[K]]] / Cx.YScale;
    }
    // Column by column (the matrix is column-major).
    for (size_t J = 0; J < NP; ++J) {
      double *Out = A.column(int(J));
      for (size_t K = 0; K < M; ++K)
        Out[K] = W[K] * monomialAt(D, C.Num[J], Use[K]);
    }
    for (size_t J = 0; J < NQ; ++J) {
      double *Out = A.column(int(NP + J));
      for (size_t K = 0; K < M; ++K)
        Out[K] = -W[K] * Yv[K] * monomialAt(D, C.Den[J], Use[K]);
    }
    std::vector<double> Norm = normaliseColumns(A);
    Solution Next = solveSystem(std::move(A), Norm, nullptr, NP, Cx.O.RCond);
    if (!Next.Ok)
      return S;
    S = std::move(Next);
  }
  return S;
}

/// One candidate on all rows of \p D, directly, refined when rational.
CandidateFit fitCandidate(const Context &Cx, const Design &D,
                          const Candidate &C, bool UseSvd) {
  const FitProblem &P = Cx.P;
  size_t M = D.Rows.size(), NP = C.Num.size(), NQ = C.Den.size();
  size_t N = C.rational() ? NP + NQ : NP;
  Matrix A(static_cast<int>(M), static_cast<int>(N));
  std::vector<double> B(M), W(M), Yv(M), Div(M);
  for (size_t I = 0; I < M; ++I) {
    W[I] = Cx.weight(D.Rows[I]);
    Yv[I] = P.Y[D.Rows[I]] / Cx.YScale;
    // P/x^b: the numerator's columns divided by the denominator monomial.
    Div[I] = C.rational() ? 1.0 : monomialAt(D, C.Den[0], I);
    B[I] = W[I] * Yv[I];
  }
  // Column by column (the matrix is column-major).
  for (size_t J = 0; J < NP; ++J) {
    double *Out = A.column(int(J));
    for (size_t I = 0; I < M; ++I)
      Out[I] = W[I] * monomialAt(D, C.Num[J], I) / Div[I];
  }
  if (C.rational())
    for (size_t J = 0; J < NQ; ++J) {
      double *Out = A.column(int(NP + J));
      for (size_t I = 0; I < M; ++I)
        Out[I] = -W[I] * Yv[I] * monomialAt(D, C.Den[J], I);
    }
  std::vector<double> Norm = normaliseColumns(A);
  Solution S = solveSystem(std::move(A), Norm, C.rational() ? nullptr : &B, NP,
                           Cx.O.RCond, UseSvd);
  if (C.rational() && S.Ok) {
    std::vector<size_t> All(M);
    std::iota(All.begin(), All.end(), size_t(0));
    S = refine(Cx, D, C, std::move(S), All);
  }
  return finishFit(Cx, D, C, S);
}

/// \p RowWeight (empty: all 1) multiplies the usual row weights; with
/// \p Divide the numerator columns are divided by that monomial (the
/// system of P/x^b).
Compressed compress(const Context &Cx, const Design &D,
                    const std::set<Exponents> &PMonos,
                    const std::set<Exponents> &QMonos,
                    const std::vector<double> &RowWeight,
                    const Exponents *Divide) {
  Compressed Z;
  int Col = 0;
  for (const auto &E : PMonos)
    Z.PCol.emplace(E, Col++);
  for (const auto &E : QMonos)
    Z.QCol.emplace(E, Col++);
  Z.BCol = Col++;
  size_t M = D.Rows.size();
  if (M < size_t(Col))
    return Z; // too few rows to gain anything
  Matrix A(static_cast<int>(M), Col);
  // Filled column by column (the matrix is column-major), with the same
  // products as row by row.
  std::vector<double> W(M), Yv(M), Div(M);
  for (size_t I = 0; I < M; ++I) {
    W[I] = Cx.weight(D.Rows[I]) * (RowWeight.empty() ? 1.0 : RowWeight[I]);
    Yv[I] = Cx.P.Y[D.Rows[I]] / Cx.YScale;
    Div[I] = Divide ? monomialAt(D, *Divide, I) : 1.0;
  }
  for (const auto &[E, J] : Z.PCol) {
    double *Out = A.column(J);
    for (size_t I = 0; I < M; ++I)
      Out[I] = W[I] * monomialAt(D, E, I) / Div[I];
  }
  for (const auto &[E, J] : Z.QCol) {
    double *Out = A.column(J);
    for (size_t I = 0; I < M; ++I)
      Out[I] = -W[I] * Yv[I] * monomialAt(D, E, I);
  }
  for (size_t I = 0; I < M; ++I)
    A.at(int(I), Z.BCol) = W[I] * Yv[I];
  Z.Norm = normaliseColumns(A);
  if (!qrTriangle(A, Z.R))
    return Z;
  Z.Ok = true;
  return Z;
}

bool covers(const Compressed &Z, const Candidate &C) {
  for (const auto &E : C.Num)
    if (!Z.PCol.count(E))
      return false;
  if (C.rational())
    for (const auto &E : C.Den)
      if (!Z.QCol.count(E))
        return false;
  return true;
}

/// One candidate from a compressed system (no refinement).
CandidateFit fitCompressed(const Context &Cx, const Design &D,
                           const Compressed &Z, const Candidate &C) {
  std::vector<int> Cols;
  for (const auto &E : C.Num)
    Cols.push_back(Z.PCol.at(E));
  if (C.rational())
    for (const auto &E : C.Den)
      Cols.push_back(Z.QCol.at(E));
  int K = Z.R.Rows;
  Matrix A(K, int(Cols.size()));
  std::vector<double> Norm(Cols.size());
  for (size_t J = 0; J < Cols.size(); ++J) {
    std::copy(Z.R.column(Cols[J]), Z.R.column(Cols[J]) + K, A.column(int(J)));
    Norm[J] = Z.Norm[size_t(Cols[J])];
  }
  std::vector<double> B;
  if (!C.rational()) {
    B.assign(Z.R.column(Z.BCol), Z.R.column(Z.BCol) + K);
    // The right-hand side keeps its normalisation: undo it here.
    for (double &V : B)
      V *= Z.Norm[size_t(Z.BCol)];
  }
  Solution S = solveSystem(std::move(A), Norm, C.rational() ? nullptr : &B,
                           C.Num.size(), Cx.O.RCond);
  return finishFit(Cx, D, C, S);
}

/// RMS and largest relative error of \p F on \p Rows.
std::pair<double, double> errorsOn(const Context &Cx, const RationalFunction &F,
                                   const RowSet &Rows) {
  double S = 0, Mx = 0;
  for (unsigned R : Rows) {
    double E =
        relativeError(F.evaluateDouble(Cx.P.X[R].data()), Cx.P.Y[R], Cx.YScale);
    S += E * E;
    Mx = std::max(Mx, E);
  }
  if (Rows.empty())
    return {0, 0};
  return {std::sqrt(S / double(Rows.size())), Mx};
}

} // namespace detail
} // namespace fitting
} // namespace klaraptor
