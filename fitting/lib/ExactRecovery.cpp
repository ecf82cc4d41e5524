//===- ExactRecovery.cpp - exact rational coefficients with GMP -----------===//
///
/// \file
/// The float coefficients of a fit, normalised so that one denominator
/// coefficient is 1, become the simplest rationals within a tolerance
/// (Exact.h), and P(x) == y Q(x), Q(x) != 0 is verified in exact rationals
/// on every sample. Several pivots and tolerances are tried.
//===----------------------------------------------------------------------===//
#include "FitterImpl.h"

#include <numeric>

namespace klaraptor {
namespace fitting {
namespace detail {

//===----------------------------------------------------------------------===//
// Exact recovery
//===----------------------------------------------------------------------===//

static void ensureExactSamples(Context &Cx) {
  if (!Cx.YQ.empty())
    return;
  const FitProblem &P = Cx.P;
  for (size_t R = 0; R < P.Y.size(); ++R) {
    std::vector<Mpq> Row;
    for (size_t V = 0; V < P.Vars.size(); ++V) {
      std::optional<Mpq> Q;
      if (R < P.XText.size() && V < P.XText[R].size())
        Q = parseExactDecimal(P.XText[R][V]);
      Row.push_back(Q ? *Q : Mpq::fromDouble(P.X[R][V]));
    }
    Cx.XQ.push_back(std::move(Row));
    std::optional<Mpq> Y;
    if (R < P.YText.size())
      Y = parseExactDecimal(P.YText[R]);
    Cx.YQ.push_back(Y ? *Y : Mpq::fromDouble(P.Y[R]));
  }
}

/// Whether P == y Q and Q != 0 exactly on \p Rows; counts the failures
/// (stops at the first when \p StopEarly).
static unsigned
exactFailures(const Context &Cx, const std::vector<Exponents> &NT,
              const std::vector<Mpq> &NC, const std::vector<Exponents> &DT,
              const std::vector<Mpq> &DC, const RowSet &Rows, bool StopEarly) {
  unsigned Fails = 0;
  Mpq Pv, Qv, M;
  for (unsigned R : Rows) {
    const std::vector<Mpq> &X = Cx.XQ[R];
    auto Sum = [&](const std::vector<Exponents> &T, const std::vector<Mpq> &C,
                   Mpq &Out) {
      mpq_set_ui(Out.get(), 0, 1);
      for (size_t J = 0; J < T.size(); ++J) {
        if (C[J].isZero())
          continue;
        mpq_set(M.get(), C[J].get());
        for (size_t V = 0; V < T[J].size(); ++V)
          for (unsigned K = 0; K < T[J][V]; ++K)
            mpq_mul(M.get(), M.get(), X[V].get());
        mpq_add(Out.get(), Out.get(), M.get());
      }
    };
    Sum(NT, NC, Pv);
    Sum(DT, DC, Qv);
    bool Ok = !Qv.isZero();
    if (Ok) {
      mpq_mul(Qv.get(), Qv.get(), Cx.YQ[R].get());
      Ok = Pv == Qv;
    }
    if (!Ok) {
      ++Fails;
      if (StopEarly)
        return Fails;
    }
  }
  return Fails;
}

/// Turns the float coefficients of \p F into small-height rationals and
/// verifies them on every row; on success installs them in \p F.
bool recoverExact(Context &Cx, RationalFunction &F, const RowSet &Rows,
                  std::string &Note) {
  ensureExactSamples(Cx);
  // The pivots: the denominator's coefficients by decreasing size in the
  // scaled variables; each is tried as the one fixed to 1.
  std::vector<size_t> Pivots(F.DenTerms.size());
  std::iota(Pivots.begin(), Pivots.end(), 0);
  std::stable_sort(Pivots.begin(), Pivots.end(), [&](size_t A, size_t B) {
    return std::fabs(F.DenCoef[A]) > std::fabs(F.DenCoef[B]);
  });
  if (Pivots.size() > 3)
    Pivots.resize(3);
  // A few rows spread over the set reject wrong guesses cheaply.
  RowSet Probe;
  size_t Step = std::max<size_t>(1, Rows.size() / 12);
  for (size_t I = 0; I < Rows.size(); I += Step)
    Probe.push_back(Rows[I]);
  Probe.push_back(Rows.back());
  static const double Tolerances[] = {1e-9, 1e-7, 1e-11, 1e-5, 1e-13};
  double NumMax = 0, DenMax = 0;
  for (size_t Pv : Pivots) {
    if (F.DenCoef[Pv] == 0)
      continue;
    std::vector<double> NS(F.NumCoef.size()), DS(F.DenCoef.size());
    NumMax = DenMax = 0;
    for (size_t J = 0; J < NS.size(); ++J) {
      NS[J] = F.NumCoef[J] / F.DenCoef[Pv];
      NumMax = std::max(NumMax, std::fabs(NS[J]));
    }
    for (size_t J = 0; J < DS.size(); ++J) {
      DS[J] = F.DenCoef[J] / F.DenCoef[Pv];
      DenMax = std::max(DenMax, std::fabs(DS[J]));
    }
    // Scaled coefficient c_s = c * prod(Scale^a): in the original
    // variables c = c_s / prod(Scale^a) relative to the pivot's.
    auto ScaleOf = [&](const Exponents &E) {
      double S = 1;
      for (size_t V = 0; V < E.size(); ++V)
        for (unsigned K = 0; K < E[V]; ++K)
          S *= F.Scale[V];
      return S;
    };
    double PivotScale = ScaleOf(F.DenTerms[Pv]);
    for (double Tol : Tolerances) {
      std::vector<Mpq> NQ, DQ;
      for (size_t J = 0; J < NS.size(); ++J) {
        double K = PivotScale / ScaleOf(F.NumTerms[J]);
        NQ.push_back(simplestRationalNear(NS[J] * K, Tol * NumMax * K));
      }
      for (size_t J = 0; J < DS.size(); ++J) {
        double K = PivotScale / ScaleOf(F.DenTerms[J]);
        DQ.push_back(J == Pv
                         ? Mpq(1)
                         : simplestRationalNear(DS[J] * K, Tol * DenMax * K));
      }
      if (exactFailures(Cx, F.NumTerms, NQ, F.DenTerms, DQ, Probe, true))
        continue;
      unsigned Fails =
          exactFailures(Cx, F.NumTerms, NQ, F.DenTerms, DQ, Rows, false);
      if (Fails)
        continue;
      // The sign of Q on the samples.
      Mpq Qv, M;
      int Sign = 1;
      {
        const std::vector<Mpq> &X = Cx.XQ[Rows[0]];
        for (size_t J = 0; J < DQ.size(); ++J) {
          mpq_set(M.get(), DQ[J].get());
          for (size_t V = 0; V < F.DenTerms[J].size(); ++V)
            for (unsigned K = 0; K < F.DenTerms[J][V]; ++K)
              mpq_mul(M.get(), M.get(), X[V].get());
          mpq_add(Qv.get(), Qv.get(), M.get());
        }
        Sign = Qv.sign() < 0 ? -1 : 1;
      }
      F.setExact(std::move(NQ), std::move(DQ), Sign);
      Note = "verified on " + std::to_string(Rows.size()) + " of " +
             std::to_string(Rows.size()) + " samples";
      return true;
    }
  }
  Note = "no small-height rational coefficients reproduce every sample";
  return false;
}

} // namespace detail
} // namespace fitting
} // namespace klaraptor
