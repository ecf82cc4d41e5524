//===- RationalFunction.h - fitted functions and their evaluation -*- C++
//-*-===//
///
/// \file
/// A RationalFunction is P(x)/Q(x) over the fitted variables, each a sum of
/// monomials. It is held in two forms:
///
///  - the double form, in scaled variables t_v = x_v / Scale[v] (the form
///    the fit produced, with coefficients of moderate size), and
///  - for exact fits, the exact form: GMP rationals in the original
///    variables, with Q a primitive integer polynomial positive on the
///    samples, and from it an integer form (P' * NumMul) / (Q' * DenMul)
///    with int64 coefficients, evaluated in 128-bit integers.
///
/// The evaluation functions here do, operation for operation, what the C
/// code from CEmitter.h does, so that `klaraptor fit-table --eval` and the
/// emitted C agree to the last bit (test/Fitting/emit-c-*.test).
///
/// A FittedModel is a list of pieces: the first whose predicate holds is
/// used; the last has none. Predicates compare a variable with another or
/// with a constant (`bx <= N`, `N <= 128`).
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_FITTING_RATIONALFUNCTION_H
#define KLARAPTOR_FITTING_RATIONALFUNCTION_H

#include "klaraptor/fitting/Exact.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace klaraptor {
namespace fitting {

/// The exponent of each variable in a monomial.
using Exponents = std::vector<uint8_t>;

/// All monomials x^a with a_v <= Bound[v] (a tensor-product box) and, when
/// \p Total is not 0, sum_v a_v <= Total; in graded lexicographic order
/// (constant first).
std::vector<Exponents> boxMonomials(const std::vector<unsigned> &Bound,
                                    unsigned Total = 0);

/// `x_Lhs <= x_Rhs` or `x_Lhs <= Const`.
struct Predicate {
  unsigned Lhs = 0;
  bool RhsIsVariable = false;
  unsigned RhsVar = 0;
  double RhsConst = 0;

  bool holds(const double *X) const {
    return X[Lhs] <= (RhsIsVariable ? X[RhsVar] : RhsConst);
  }
  bool holds(const int64_t *X) const;
  std::string str(const std::vector<std::string> &Names) const;
};

class RationalFunction {
public:
  unsigned NumVars = 0;
  std::vector<double> Scale; ///< t_v = x_v / Scale[v]
  std::vector<Exponents> NumTerms, DenTerms;
  std::vector<double> NumCoef, DenCoef; ///< in the scaled variables
  /// Per-variable degree bounds of the candidate this came from.
  std::vector<unsigned> NumDegree, DenDegree;
  /// A cap on the numerator's total degree (0: none).
  unsigned NumTotalDegree = 0;
  /// Sign of Q on the samples; evaluation gives NaN where Q is zero or has
  /// the other sign (beyond a pole, outside the checked region).
  int DenSign = 1;

  /// Exact form (original variables), when Exact.
  bool Exact = false;
  std::vector<Mpq> NumExact, DenExact;
  /// Integer form, when the exact coefficients fit int64.
  bool HasIntegerForm = false;
  std::vector<int64_t> NumInt, DenInt;
  int64_t NumMul = 1, DenMul = 1;

  bool isPolynomial() const;
  unsigned unknowns() const;

  /// Coefficients in the original variables (double form).
  double numCoefOriginal(size_t I) const;
  double denCoefOriginal(size_t I) const;
  /// Q in the double form at original coordinates \p X.
  double denominator(const double *X) const;

  /// The double form, as the emitted C computes it.
  double evaluateDouble(const double *X) const;
  /// The integer form; false when an intermediate overflows 128 bits (the
  /// emitted C then falls back to the double form, and so does evaluate).
  bool evaluateInteger(const int64_t *X, double &Out) const;
  double evaluate(const int64_t *X) const;
  /// The exact value (exact fits only); false where Q is zero.
  bool evaluateExact(const std::vector<Mpq> &X, Mpq &Out) const;

  /// Installs exact coefficients (original variables, same term order):
  /// normalises Q to a primitive integer polynomial positive on the
  /// samples, recomputes the double form and the integer form.
  void setExact(std::vector<Mpq> Num, std::vector<Mpq> Den, int SampleSign);

  /// "(3*N^2 + 5*N*bx + 7*bx) / bx"; exact rationals when Exact, else
  /// coefficients with \p Digits significant digits.
  std::string str(const std::vector<std::string> &Names, int Digits = 10) const;
};

/// One piece of a fitted model.
struct Piece {
  std::optional<Predicate> Condition; ///< none for the last piece
  RationalFunction F;
};

/// A fitted quantity: pieces over named variables.
class FittedModel {
public:
  std::string Target;
  std::vector<std::string> Vars;
  /// Whether every sampled value of every variable is an integer; the
  /// emitted C then takes int64_t arguments, otherwise double.
  bool IntegerArgs = true;
  /// Whether the target is a non-negative quantity (count, time): negative
  /// predictions are clamped to 0.
  bool NonNegative = true;
  std::vector<Piece> Pieces;

  bool exact() const;
  /// The piece that applies at \p X.
  const Piece &pieceFor(const int64_t *X) const;
  const Piece &pieceFor(const double *X) const;
  double evaluate(const int64_t *X) const;
  double evaluate(const double *X) const;
  std::string str(int Digits = 10) const;
};

/// "x^a" in the usual notation: "N^2*bx", "1" for the constant.
std::string monomialStr(const Exponents &E,
                        const std::vector<std::string> &Names);

} // namespace fitting
} // namespace klaraptor

#endif // KLARAPTOR_FITTING_RATIONALFUNCTION_H
