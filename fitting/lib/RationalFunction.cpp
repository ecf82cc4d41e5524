//===- RationalFunction.cpp - evaluation and printing of fitted functions -===//
///
/// \file
/// The evaluation order here is the emitted C's (CEmitter.cpp): a term is
/// its coefficient multiplied by each variable's value, variable by
/// variable, exponent times, then added to the running sum in term order.
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/RationalFunction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace klaraptor {
namespace fitting {

std::vector<Exponents> boxMonomials(const std::vector<unsigned> &Bound,
                                    unsigned Total) {
  std::vector<Exponents> Out;
  size_t K = Bound.size();
  Exponents E(K, 0);
  while (true) {
    if (!Total || std::accumulate(E.begin(), E.end(), 0u) <= Total)
      Out.push_back(E);
    size_t V = 0;
    while (V < K && E[V] == Bound[V])
      E[V++] = 0;
    if (V == K)
      break;
    ++E[V];
  }
  auto Degree = [](const Exponents &A) {
    return std::accumulate(A.begin(), A.end(), 0u);
  };
  std::stable_sort(Out.begin(), Out.end(),
                   [&](const Exponents &A, const Exponents &B) {
                     unsigned TA = Degree(A), TB = Degree(B);
                     if (TA != TB)
                       return TA < TB;
                     return std::lexicographical_compare(B.begin(), B.end(),
                                                         A.begin(), A.end());
                   });
  return Out;
}

bool Predicate::holds(const int64_t *X) const {
  if (RhsIsVariable)
    return X[Lhs] <= X[RhsVar];
  return double(X[Lhs]) <= RhsConst;
}

static std::string formatDouble(double V, int Digits) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.*g", Digits, V);
  return Buf;
}

std::string Predicate::str(const std::vector<std::string> &Names) const {
  return Names[Lhs] +
         " <= " + (RhsIsVariable ? Names[RhsVar] : formatDouble(RhsConst, 17));
}

bool RationalFunction::isPolynomial() const {
  return DenTerms.size() == 1 &&
         std::all_of(DenTerms[0].begin(), DenTerms[0].end(),
                     [](uint8_t E) { return E == 0; });
}

unsigned RationalFunction::unknowns() const {
  return unsigned(NumTerms.size() + DenTerms.size() - 1);
}

static double scaleOf(const Exponents &E, const std::vector<double> &Scale) {
  double S = 1;
  for (size_t V = 0; V < E.size(); ++V)
    for (unsigned K = 0; K < E[V]; ++K)
      S *= Scale[V];
  return S;
}

double RationalFunction::numCoefOriginal(size_t I) const {
  return NumCoef[I] / scaleOf(NumTerms[I], Scale);
}

double RationalFunction::denCoefOriginal(size_t I) const {
  return DenCoef[I] / scaleOf(DenTerms[I], Scale);
}

static double sumTerms(const std::vector<Exponents> &Terms,
                       const std::vector<double> &Coef, const double *T) {
  double S = 0.0;
  for (size_t I = 0; I < Terms.size(); ++I) {
    double M = Coef[I];
    for (size_t V = 0; V < Terms[I].size(); ++V)
      for (unsigned K = 0; K < Terms[I][V]; ++K)
        M *= T[V];
    S += M;
  }
  return S;
}

double RationalFunction::denominator(const double *X) const {
  std::vector<double> T(NumVars);
  for (unsigned V = 0; V < NumVars; ++V)
    T[V] = X[V] / Scale[V];
  return sumTerms(DenTerms, DenCoef, T.data());
}

double RationalFunction::evaluateDouble(const double *X) const {
  double T[64];
  for (unsigned V = 0; V < NumVars; ++V)
    T[V] = X[V] / Scale[V];
  double P = sumTerms(NumTerms, NumCoef, T);
  double Q = sumTerms(DenTerms, DenCoef, T);
  if (!(Q * DenSign > 0))
    return NAN;
  return P / Q;
}

using Int128 = __int128;

static bool accumulate128(Int128 &Acc, int64_t C, const Exponents &E,
                          const int64_t *X) {
  Int128 M = C;
  for (size_t V = 0; V < E.size(); ++V)
    for (unsigned K = 0; K < E[V]; ++K)
      if (__builtin_mul_overflow(M, Int128(X[V]), &M))
        return false;
  return !__builtin_add_overflow(Acc, M, &Acc);
}

bool RationalFunction::evaluateInteger(const int64_t *X, double &Out) const {
  Int128 P = 0, Q = 0;
  for (size_t I = 0; I < NumTerms.size(); ++I)
    if (!accumulate128(P, NumInt[I], NumTerms[I], X))
      return false;
  for (size_t I = 0; I < DenTerms.size(); ++I)
    if (!accumulate128(Q, DenInt[I], DenTerms[I], X))
      return false;
  if (__builtin_mul_overflow(P, Int128(NumMul), &P) ||
      __builtin_mul_overflow(Q, Int128(DenMul), &Q))
    return false;
  if (Q == 0 || (Q > 0 ? 1 : -1) != DenSign) {
    Out = NAN;
    return true;
  }
  if (Q < 0) {
    if (__builtin_sub_overflow(Int128(0), P, &P) ||
        __builtin_sub_overflow(Int128(0), Q, &Q))
      return false;
  }
  Int128 W = P / Q, R = P % Q;
  Out = (double)W + (double)R / (double)Q;
  return true;
}

double RationalFunction::evaluate(const int64_t *X) const {
  if (HasIntegerForm) {
    double V;
    if (evaluateInteger(X, V))
      return V;
  }
  double D[64];
  for (unsigned V = 0; V < NumVars; ++V)
    D[V] = double(X[V]);
  return evaluateDouble(D);
}

static void powerProduct(const Exponents &E, const std::vector<Mpq> &X,
                         mpq_ptr Out) {
  mpq_set_ui(Out, 1, 1);
  for (size_t V = 0; V < E.size(); ++V)
    for (unsigned K = 0; K < E[V]; ++K)
      mpq_mul(Out, Out, X[V].get());
}

bool RationalFunction::evaluateExact(const std::vector<Mpq> &X,
                                     Mpq &Out) const {
  Mpq P, Q, M;
  for (size_t I = 0; I < NumTerms.size(); ++I) {
    powerProduct(NumTerms[I], X, M.get());
    mpq_mul(M.get(), M.get(), NumExact[I].get());
    mpq_add(P.get(), P.get(), M.get());
  }
  for (size_t I = 0; I < DenTerms.size(); ++I) {
    powerProduct(DenTerms[I], X, M.get());
    mpq_mul(M.get(), M.get(), DenExact[I].get());
    mpq_add(Q.get(), Q.get(), M.get());
  }
  if (Q.isZero())
    return false;
  mpq_div(Out.get(), P.get(), Q.get());
  return true;
}

void RationalFunction::setExact(std::vector<Mpq> Num, std::vector<Mpq> Den,
                                int SampleSign) {
  // Q * lcm(denominators) / content: a primitive integer polynomial; its
  // sign is then chosen positive on the samples.
  Mpz L(1), G(0);
  for (const Mpq &C : Den)
    mpz_lcm(L.get(), L.get(), mpq_denref(C.get()));
  for (const Mpq &C : Den) {
    Mpz T;
    mpz_divexact(T.get(), L.get(), mpq_denref(C.get()));
    mpz_mul(T.get(), T.get(), mpq_numref(C.get()));
    mpz_gcd(G.get(), G.get(), T.get());
  }
  Mpq Factor;
  if (mpz_sgn(G.get()) != 0) {
    mpz_set(mpq_numref(Factor.get()), L.get());
    mpz_set(mpq_denref(Factor.get()), G.get());
    mpq_canonicalize(Factor.get());
    if (SampleSign < 0)
      mpq_neg(Factor.get(), Factor.get());
  } else {
    mpq_set_ui(Factor.get(), 1, 1);
  }
  for (Mpq &C : Num)
    mpq_mul(C.get(), C.get(), Factor.get());
  for (Mpq &C : Den)
    mpq_mul(C.get(), C.get(), Factor.get());
  NumExact = std::move(Num);
  DenExact = std::move(Den);
  Exact = true;
  DenSign = 1;

  // The double form from the exact one.
  auto Scaled = [&](const Mpq &C, const Exponents &E) {
    Mpq S = C, P;
    for (size_t V = 0; V < E.size(); ++V)
      for (unsigned K = 0; K < E[V]; ++K) {
        P = Mpq::fromDouble(Scale[V]);
        mpq_mul(S.get(), S.get(), P.get());
      }
    return S.toDouble();
  };
  for (size_t I = 0; I < NumTerms.size(); ++I)
    NumCoef[I] = Scaled(NumExact[I], NumTerms[I]);
  for (size_t I = 0; I < DenTerms.size(); ++I)
    DenCoef[I] = Scaled(DenExact[I], DenTerms[I]);

  // The integer form: P = P'/LP, Q = Q' (integer), so P/Q = P' / (Q' * LP).
  HasIntegerForm = false;
  Mpz LP(1);
  for (const Mpq &C : NumExact)
    mpz_lcm(LP.get(), LP.get(), mpq_denref(C.get()));
  std::vector<int64_t> NI, DI;
  for (const Mpq &C : NumExact) {
    Mpz T;
    mpz_divexact(T.get(), LP.get(), mpq_denref(C.get()));
    mpz_mul(T.get(), T.get(), mpq_numref(C.get()));
    int64_t V;
    if (!T.toInt64(V))
      return;
    NI.push_back(V);
  }
  for (const Mpq &C : DenExact) {
    int64_t V;
    if (!C.isInteger())
      return;
    Mpz T;
    mpz_set(T.get(), mpq_numref(C.get()));
    if (!T.toInt64(V))
      return;
    DI.push_back(V);
  }
  int64_t D;
  if (!LP.toInt64(D))
    return;
  NumInt = std::move(NI);
  DenInt = std::move(DI);
  NumMul = 1;
  DenMul = D;
  HasIntegerForm = true;
}

std::string monomialStr(const Exponents &E,
                        const std::vector<std::string> &Names) {
  std::string S;
  for (size_t V = 0; V < E.size(); ++V) {
    if (!E[V])
      continue;
    if (!S.empty())
      S += "*";
    S += Names[V];
    if (E[V] > 1)
      S += "^" + std::to_string(E[V]);
  }
  return S.empty() ? "1" : S;
}

/// Terms of a polynomial, highest degree first, as "c*m" joined by + / -.
static std::string polyStr(const std::vector<Exponents> &Terms,
                           const std::vector<std::string> &Coefs,
                           const std::vector<bool> &Negative,
                           const std::vector<std::string> &Names,
                           unsigned &Count) {
  std::vector<size_t> Order(Terms.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::reverse(Order.begin(), Order.end());
  std::string S;
  Count = 0;
  for (size_t I : Order) {
    if (Coefs[I].empty())
      continue; // a zero coefficient
    std::string M = monomialStr(Terms[I], Names);
    std::string Term;
    if (M == "1")
      Term = Coefs[I];
    else if (Coefs[I] == "1")
      Term = M;
    else
      Term = Coefs[I] + "*" + M;
    if (Count == 0)
      S += Negative[I] ? "-" + Term : Term;
    else
      S += (Negative[I] ? " - " : " + ") + Term;
    ++Count;
  }
  if (Count == 0)
    S = "0";
  return S;
}

std::string RationalFunction::str(const std::vector<std::string> &Names,
                                  int Digits) const {
  auto Render = [&](const std::vector<Exponents> &Terms, bool IsNum,
                    unsigned &Count) {
    std::vector<std::string> Coefs;
    std::vector<bool> Neg;
    for (size_t I = 0; I < Terms.size(); ++I) {
      if (Exact) {
        const Mpq &C = IsNum ? NumExact[I] : DenExact[I];
        if (C.isZero()) {
          Coefs.push_back("");
          Neg.push_back(false);
          continue;
        }
        Mpq A;
        mpq_abs(A.get(), C.get());
        Coefs.push_back(A.str());
        Neg.push_back(C.sign() < 0);
      } else {
        double C = IsNum ? numCoefOriginal(I) : denCoefOriginal(I);
        if (C == 0) {
          Coefs.push_back("");
          Neg.push_back(false);
          continue;
        }
        Coefs.push_back(formatDouble(std::fabs(C), Digits));
        Neg.push_back(C < 0);
      }
    }
    return polyStr(Terms, Coefs, Neg, Names, Count);
  };
  unsigned NC, DC;
  std::string N = Render(NumTerms, true, NC);
  if (isPolynomial() &&
      (Exact ? DenExact[0] == Mpq(1) : denCoefOriginal(0) == 1.0))
    return N;
  std::string D = Render(DenTerms, false, DC);
  if (NC > 1)
    N = "(" + N + ")";
  // "a / b*c" would read as (a / b) * c.
  if (DC > 1 || D.find_first_of("*/") != std::string::npos)
    D = "(" + D + ")";
  return N + " / " + D;
}

bool FittedModel::exact() const {
  for (const Piece &P : Pieces)
    if (!P.F.Exact)
      return false;
  return !Pieces.empty();
}

const Piece &FittedModel::pieceFor(const int64_t *X) const {
  for (const Piece &P : Pieces)
    if (!P.Condition || P.Condition->holds(X))
      return P;
  return Pieces.back();
}

const Piece &FittedModel::pieceFor(const double *X) const {
  for (const Piece &P : Pieces)
    if (!P.Condition || P.Condition->holds(X))
      return P;
  return Pieces.back();
}

double FittedModel::evaluate(const int64_t *X) const {
  double V = pieceFor(X).F.evaluate(X);
  if (NonNegative && V < 0)
    V = 0;
  return V;
}

double FittedModel::evaluate(const double *X) const {
  if (IntegerArgs) {
    int64_t I[64];
    bool AllIntegral = true;
    for (size_t V = 0; V < Vars.size(); ++V) {
      if (!(std::fabs(X[V]) < 9.2e18) || X[V] != std::trunc(X[V]))
        AllIntegral = false;
      else
        I[V] = int64_t(X[V]);
    }
    if (AllIntegral)
      return evaluate(I);
  }
  double V = pieceFor(X).F.evaluateDouble(X);
  if (NonNegative && V < 0)
    V = 0;
  return V;
}

std::string FittedModel::str(int Digits) const {
  if (Pieces.size() == 1)
    return Pieces[0].F.str(Vars, Digits);
  std::string S;
  for (size_t I = 0; I < Pieces.size(); ++I) {
    if (I)
      S += "; ";
    S += Pieces[I].Condition ? "if " + Pieces[I].Condition->str(Vars) + ": "
                             : std::string("otherwise: ");
    S += Pieces[I].F.str(Vars, Digits);
  }
  return S;
}

} // namespace fitting
} // namespace klaraptor
