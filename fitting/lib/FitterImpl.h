//===- FitterImpl.h - the fitter's internals, shared by its files -*- C++
//-*-===//
///
/// \file
/// Not installed, not API: the types and functions that Fitter.cpp (model
/// selection), LeastSquaresFit.cpp (the solvers), Region.cpp (the region of
/// use and the denominator check) and ExactRecovery.cpp share.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_FITTING_LIB_FITTERIMPL_H
#define KLARAPTOR_FITTING_LIB_FITTERIMPL_H

#include "klaraptor/fitting/Fitter.h"
#include "klaraptor/fitting/Lapack.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace klaraptor {
namespace fitting {
namespace detail {

/// "%.*g".
std::string formatNumber(double V, int Digits = 6);

/// Whether \p N names a block dimension (bx, by, bz).
inline bool isBlockName(const std::string &N) {
  return N == "bx" || N == "by" || N == "bz";
}

using RowSet = std::vector<unsigned>;

/// A candidate: per-variable degree bounds and the monomials they give.
struct Candidate {
  std::vector<unsigned> NumBound, DenBound;
  unsigned NumTotal = 0; ///< a cap on the numerator's total degree; 0: none
  std::vector<Exponents> Num, Den;
  unsigned unknowns() const { return unsigned(Num.size() + Den.size() - 1); }
  /// A denominator of several terms: the nonlinear (homogeneous) problem.
  bool rational() const { return Den.size() > 1; }
  /// Q = 1.
  bool polynomial() const {
    return Den.size() == 1 && std::all_of(Den[0].begin(), Den[0].end(),
                                          [](uint8_t E) { return E == 0; });
  }
  /// Q = x^b, b != 0: P/x^b is linear in P's coefficients.
  bool monomialDen() const { return Den.size() == 1 && !polynomial(); }
};

/// Rows of the problem with scaled variables and their powers.
struct Design {
  RowSet Rows;
  std::vector<double> Scale;
  unsigned MaxDeg = 0;
  /// Pow[(V * (MaxDeg + 1) + D) * Rows.size() + I] = t_{I,V}^D
  std::vector<double> Pow;
  double powAt(unsigned V, unsigned D, size_t I) const {
    return Pow[(size_t(V) * (MaxDeg + 1) + D) * Rows.size() + I];
  }
};

/// The powers of \p Rows' scaled values up to \p MaxDeg.
Design makeDesign(const FitProblem &P, const RowSet &Rows,
                  const std::vector<double> &Scale, unsigned MaxDeg);

/// The monomial \p E at row \p I of \p D.
inline double monomialAt(const Design &D, const Exponents &E, size_t I) {
  double M = 1;
  for (unsigned V = 0; V < E.size(); ++V)
    if (E[V])
      M *= D.powAt(V, E[V], I);
  return M;
}

struct CandidateFit {
  bool Ok = false;
  RationalFunction F;
  int Rank = 0, Columns = 0;
  double Condition = 0;
};

/// The fitting context shared by every selection of one quantity.
struct Context {
  const FitProblem &P;
  const FitOptions &O;
  double YScale = 1; ///< largest |y|
  bool Relative = false;
  bool HasNegative = false; ///< some variable has a negative sample
  bool ExactData = false;
  std::vector<bool> Extrapolate;
  std::vector<RegionAxis> Region;
  std::vector<std::vector<double>> Grid; ///< points of the region check
  std::vector<std::vector<Mpq>> XQ;      ///< exact samples (lazily built)
  std::vector<Mpq> YQ;

  Context(const FitProblem &P, const FitOptions &O) : P(P), O(O) {}

  double weight(unsigned Row) const {
    if (!Relative)
      return 1.0 / YScale;
    return 1.0 / std::max(std::fabs(P.Y[Row]), 1e-6 * YScale);
  }
};

//===----------------------------------------------------------------------===//
// Solvers (LeastSquaresFit.cpp)
//===----------------------------------------------------------------------===//

/// Column norms of \p A; each column is divided by its norm (zero columns
/// are left alone and get norm 1).
std::vector<double> normaliseColumns(Matrix &A);

/// Q or P of a function at row \p I of \p D.
double sumAt(const Design &D, const std::vector<Exponents> &Terms,
             const std::vector<double> &Coef, size_t I);

/// One candidate on all rows of \p D, directly, refined when rational;
/// \p UseSvd: always by dgelsd (for the reported rank and condition).
CandidateFit fitCandidate(const Context &Cx, const Design &D,
                          const Candidate &C, bool UseSvd = false);

/// A hash of a monomial's exponents (FNV-1a over the bytes), for the
/// lookups done per term of every candidate.
struct ExponentsHash {
  size_t operator()(const Exponents &E) const {
    uint64_t H = 1469598103934665603ull;
    for (uint8_t B : E)
      H = (H ^ B) * 1099511628211ull;
    return size_t(H);
  }
};

/// The training system of many candidates at once: the weighted, column-
/// normalised columns of a set of numerator monomials, of denominator
/// monomials (times -y) and y, reduced by one QR factorisation to its
/// triangular factor. A candidate's system is a subset of these columns,
/// with the same singular values and least-squares solutions as with all
/// the rows.
struct Compressed {
  bool Ok = false;
  Matrix R;
  std::unordered_map<Exponents, int, ExponentsHash> PCol, QCol;
  int BCol = 0;
  std::vector<double> Norm;
};

/// Whether \p Z has every column of \p C.
bool covers(const Compressed &Z, const Candidate &C);

/// The compressed system of the numerator monomials \p PMonos and the
/// denominator monomials \p QMonos on \p D's rows; \p RowWeight (empty:
/// all 1) multiplies the usual row weights; with \p Divide the numerator
/// columns are divided by that monomial (the system of P/x^b).
Compressed compress(const Context &Cx, const Design &D,
                    const std::set<Exponents> &PMonos,
                    const std::set<Exponents> &QMonos,
                    const std::vector<double> &RowWeight,
                    const Exponents *Divide = nullptr);

/// One candidate from a compressed system (no refinement).
CandidateFit fitCompressed(const Context &Cx, const Design &D,
                           const Compressed &Z, const Candidate &C);

/// RMS and largest relative error of \p F on \p Rows.
std::pair<double, double> errorsOn(const Context &Cx, const RationalFunction &F,
                                   const RowSet &Rows);

//===----------------------------------------------------------------------===//
// Region (Region.cpp)
//===----------------------------------------------------------------------===//

/// Fills Cx.Region and Cx.Grid from the options and the samples.
void buildRegion(Context &Cx);

/// Whether Q keeps the sign it has on the samples, and is not tiny, on the
/// region's grid points (and on the samples) where \p Where holds.
bool denominatorOk(const Context &Cx, const RationalFunction &F,
                   const RowSet &Rows,
                   const std::vector<std::pair<Predicate, bool>> &Where);

//===----------------------------------------------------------------------===//
// Exact recovery (ExactRecovery.cpp)
//===----------------------------------------------------------------------===//

/// Turns the float coefficients of \p F into small-height rationals and
/// verifies them exactly on every row; on success installs them in \p F
/// and returns true. \p Note says how it went.
bool recoverExact(Context &Cx, RationalFunction &F, const RowSet &Rows,
                  std::string &Note);

} // namespace detail
} // namespace fitting
} // namespace klaraptor

#endif // KLARAPTOR_FITTING_LIB_FITTERIMPL_H
