//===- Region.cpp - the region of use and the denominator check ----------===//
///
/// \file
/// The region a fit will be used on (data sizes up to a bound, admissible
/// block shapes), sampled by a product grid, and the check that rejects a
/// denominator that changes sign or nearly vanishes on it. A sampled check,
/// not a proof (docs/fitting.md).
//===----------------------------------------------------------------------===//
#include "FitterImpl.h"

#include <set>

namespace klaraptor {
namespace fitting {

std::string RegionAxis::str() const {
  if (IsRange)
    return "[" + detail::formatNumber(Lo, 12) + ", " +
           detail::formatNumber(Hi, 12) + "]";
  std::string S = "{";
  for (size_t I = 0; I < Values.size(); ++I) {
    if (I)
      S += ", ";
    if (Values.size() > 8 && I == 3) {
      S += "..., ";
      I = Values.size() - 2;
    }
    S += detail::formatNumber(Values[I], 12);
  }
  return S + "}";
}

namespace detail {

//===----------------------------------------------------------------------===//
// Region check
//===----------------------------------------------------------------------===//

/// Whether Q keeps the sign it has on the samples, and is not tiny, on the
/// region's grid points (and on the samples) where \p Where holds.
bool denominatorOk(const Context &Cx, const RationalFunction &F,
                   const RowSet &Rows,
                   const std::vector<std::pair<Predicate, bool>> &Where) {
  if (F.isPolynomial())
    return true;
  double Typical = 0;
  std::vector<double> QS;
  for (unsigned R : Rows) {
    double Q = F.denominator(Cx.P.X[R].data());
    if (!(Q * F.DenSign > 0))
      return false;
    QS.push_back(std::fabs(Q));
  }
  std::nth_element(QS.begin(), QS.begin() + long(QS.size() / 2), QS.end());
  Typical = QS[QS.size() / 2];
  for (const auto &Pt : Cx.Grid) {
    bool In = true;
    for (const auto &[Pr, Want] : Where)
      In = In && Pr.holds(Pt.data()) == Want;
    if (!In)
      continue;
    double Q = F.denominator(Pt.data());
    if (!(Q * F.DenSign > 1e-9 * Typical))
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Region
//===----------------------------------------------------------------------===//

void buildRegion(Context &Cx) {
  const FitProblem &P = Cx.P;
  const FitOptions &O = Cx.O;
  size_t K = P.Vars.size();
  Cx.Region.assign(K, RegionAxis());
  std::vector<std::vector<double>> Axis(K);
  size_t ListProduct = 1, Ranges = 0;
  for (size_t V = 0; V < K; ++V) {
    double Lo = INFINITY, Hi = -INFINITY;
    std::set<double> Sampled;
    for (const auto &Row : P.X) {
      Lo = std::min(Lo, Row[V]);
      Hi = std::max(Hi, Row[V]);
      Sampled.insert(Row[V]);
    }
    RegionAxis &A = Cx.Region[V];
    if (isBlockName(P.Vars[V])) {
      std::set<double> S = Sampled;
      if (!O.BlockValuesSampled)
        for (unsigned B = 1; B <= O.MaxBlock; B *= 2)
          S.insert(B);
      A.Values.assign(S.begin(), S.end());
      ListProduct *= A.Values.size();
    } else {
      A.IsRange = true;
      A.Lo = Lo;
      A.Hi = Hi;
      if (Cx.Extrapolate[V])
        A.Hi = O.MaxSize > 0 ? std::max(O.MaxSize, Hi)
                             : std::max(65536.0, 16 * Hi);
      ++Ranges;
    }
  }
  // Per-range points so that the grid stays near 40000 points.
  size_t PerRange = 24;
  if (Ranges) {
    double Budget = 40000.0 / double(ListProduct);
    PerRange =
        size_t(std::clamp(std::pow(Budget, 1.0 / double(Ranges)), 4.0, 64.0));
  }
  for (size_t V = 0; V < K; ++V) {
    const RegionAxis &A = Cx.Region[V];
    if (!A.IsRange) {
      Axis[V] = A.Values;
      continue;
    }
    std::set<double> S = {A.Lo, A.Hi};
    double Lo = A.Lo > 0 ? A.Lo : 1;
    if (A.Hi > Lo) {
      // Geometric points (sizes grow by factors), plus linear ones when the
      // range starts at or below zero.
      for (size_t I = 0; I < PerRange; ++I)
        S.insert(Lo * std::pow(A.Hi / Lo, double(I) / double(PerRange - 1)));
      if (A.Lo <= 0)
        for (size_t I = 0; I < 4; ++I)
          S.insert(A.Lo + (Lo - A.Lo) * double(I) / 4);
    }
    Axis[V].assign(S.begin(), S.end());
  }
  // Admissible block shapes: threads per block within [MinThreads,
  // MaxBlock], the lower end lowered to what was sampled.
  std::vector<size_t> BlockVars;
  for (size_t V = 0; V < K; ++V)
    if (isBlockName(P.Vars[V]))
      BlockVars.push_back(V);
  double MinThreads = O.MinThreads, MaxThreads = O.MaxBlock;
  for (const auto &Row : P.X) {
    double T = 1;
    for (size_t V : BlockVars)
      T *= Row[V];
    MinThreads = std::min(MinThreads, T);
    MaxThreads = std::max(MaxThreads, T);
  }
  Cx.Grid.clear();
  std::vector<size_t> Idx(K, 0);
  if (K == 0)
    return;
  while (true) {
    std::vector<double> Pt(K);
    double T = 1;
    for (size_t V = 0; V < K; ++V)
      Pt[V] = Axis[V][Idx[V]];
    for (size_t V : BlockVars)
      T *= Pt[V];
    if (BlockVars.empty() || (T >= MinThreads && T <= MaxThreads))
      Cx.Grid.push_back(std::move(Pt));
    size_t V = 0;
    while (V < K && ++Idx[V] == Axis[V].size())
      Idx[V++] = 0;
    if (V == K)
      break;
  }
}

} // namespace detail
} // namespace fitting
} // namespace klaraptor
