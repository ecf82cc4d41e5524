//===- Fitter.cpp - model selection for rational-function fits ------------===//
///
/// \file
/// fitQuantity: the samples of one quantity in, a FittedModel out.
///
///  1. makeProblem checks the samples (negative values, constant columns).
///  2. selectModel enumerates candidates (numerator boxes and their
///     total-degree subsets; denominators 1, x^b and boxes), fits each on
///     the training samples (LeastSquaresFit.cpp), scores it by its error on
///     the held-out samples at the largest data sizes, takes the fewest
///     unknowns among those within noise of the best, rejects denominators
///     that vanish on the region of use (Region.cpp), refits on all samples
///     and tries exact recovery (ExactRecovery.cpp).
///  3. When one function is poor, two pieces split by a predicate.
///
/// docs/fitting.md describes the method and its defaults.
//===----------------------------------------------------------------------===//
#include "FitterImpl.h"

#include <chrono>
#include <cstdio>
#include <numeric>
#include <optional>
#include <set>

namespace klaraptor {
namespace fitting {

using namespace detail;

namespace detail {
std::string formatNumber(double V, int Digits) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.*g", Digits, V);
  return Buf;
}
} // namespace detail

double relativeError(double F, double Y, double Scale) {
  double D = std::max(std::fabs(Y), 1e-6 * Scale);
  if (D == 0)
    D = 1;
  double E = std::fabs(F - Y) / D;
  return std::isnan(E) ? INFINITY : E;
}

//===----------------------------------------------------------------------===//
// Problem construction
//===----------------------------------------------------------------------===//

std::string mergedVariableWarning(const std::string &Dropped,
                                  const std::string &Kept) {
  return "column '" + Dropped + "' equals '" + Kept +
         "' in every sample and is dropped from the variables (the fit uses '" +
         Kept + "' for both)";
}

std::optional<FitProblem>
makeProblem(const DataTable &T, const std::string &Target,
            const std::vector<std::string> &VarsIn, const FitOptions &O,
            std::vector<std::string> &Warnings, std::string &Error) {
  FitProblem P;
  P.File = T.fileName();
  P.Target = Target;
  int TC = T.column(Target);
  auto ColumnList = [&] {
    std::string S;
    for (size_t I = 0; I < T.numColumns(); ++I)
      S += (I ? ", " : "") + T.names()[I];
    return S;
  };
  if (TC < 0) {
    Error = T.fileName() + ": no column '" + Target +
            "' (columns: " + ColumnList() + ")";
    return std::nullopt;
  }
  std::vector<int> VC;
  if (VarsIn.empty()) {
    for (size_t I = 0; I < T.numColumns(); ++I)
      if (int(I) != TC)
        VC.push_back(int(I));
  } else {
    for (const auto &V : VarsIn) {
      int C = T.column(V);
      if (C < 0) {
        Error = T.fileName() + ": no column '" + V +
                "' (columns: " + ColumnList() + ")";
        return std::nullopt;
      }
      if (C == TC) {
        Error = "the target '" + Target + "' cannot also be a variable";
        return std::nullopt;
      }
      if (std::find(VC.begin(), VC.end(), C) != VC.end()) {
        Error = "variable '" + V + "' given twice";
        return std::nullopt;
      }
      VC.push_back(C);
    }
  }
  if (VC.size() > 16) {
    Error = "too many variables (" + std::to_string(VC.size()) +
            "); at most 16 are supported";
    return std::nullopt;
  }
  if (T.numRows() == 0) {
    Error = T.fileName() + ": no samples (only a header line)";
    return std::nullopt;
  }
  // Negative values: counts, sizes and times are not negative.
  if (!O.AllowNegative) {
    std::vector<int> Check = VC;
    Check.push_back(TC);
    for (size_t R = 0; R < T.numRows(); ++R)
      for (int C : Check)
        if (T.value(R, size_t(C)) < 0) {
          Error = T.fileName() + ":" + std::to_string(T.line(R)) +
                  ": negative value '" + T.text(R, size_t(C)) +
                  "' in column '" + T.names()[size_t(C)] +
                  "' (use --allow-negative for signed data)";
          return std::nullopt;
        }
  }
  // Constant variables carry no information; they are dropped.
  std::vector<int> Kept;
  for (int C : VC) {
    bool Constant = true;
    for (size_t R = 1; R < T.numRows() && Constant; ++R)
      Constant = T.value(R, size_t(C)) == T.value(0, size_t(C));
    if (Constant && T.numRows() > 1) {
      Warnings.push_back("column '" + T.names()[size_t(C)] + "' is constant (" +
                         T.text(0, size_t(C)) +
                         ") and is dropped from the variables");
      continue;
    }
    // A variable equal to a kept one in every sample adds only copies of
    // its monomials (rank-deficient systems, several times the candidates)
    // and the samples cannot tell the two apart: the first one stands for
    // both.
    int Same = -1;
    for (int K : Kept) {
      bool Equal = true;
      for (size_t R = 0; R < T.numRows() && Equal; ++R)
        Equal = T.value(R, size_t(C)) == T.value(R, size_t(K));
      if (Equal) {
        Same = K;
        break;
      }
    }
    if (Same >= 0 && T.numRows() > 1) {
      Warnings.push_back(
          mergedVariableWarning(T.names()[size_t(C)], T.names()[size_t(Same)]));
      continue;
    }
    Kept.push_back(C);
  }
  for (int C : Kept)
    P.Vars.push_back(T.names()[size_t(C)]);
  for (size_t R = 0; R < T.numRows(); ++R) {
    std::vector<double> Row;
    std::vector<std::string> Text;
    for (int C : Kept) {
      Row.push_back(T.value(R, size_t(C)));
      Text.push_back(T.text(R, size_t(C)));
    }
    P.X.push_back(std::move(Row));
    P.XText.push_back(std::move(Text));
    P.Y.push_back(T.value(R, size_t(TC)));
    P.YText.push_back(T.text(R, size_t(TC)));
    P.Lines.push_back(T.line(R));
  }
  return P;
}

namespace {

//===----------------------------------------------------------------------===//
// Selection
//===----------------------------------------------------------------------===//

struct Evaluated {
  const Candidate *C = nullptr; ///< into the selection's candidate list
  CandidateFit Fit; ///< on the training rows
  double HeldOut = INFINITY, HeldOutMax = INFINITY;
  std::vector<double> HeldOutSq; ///< squared relative errors, per row
  bool Refined = false;          ///< rational: Sanathanan-Koerner steps done
  bool Rejected = false;         ///< by the region check
  bool Checked = false;
};

/// What identifies a candidate across selections (FitReport's shortlist).
using CandidateKey = FitReport::CandidateBounds;
CandidateKey keyOf(const Candidate &C) {
  return {C.NumBound, C.DenBound, C.NumTotal, C.monomialDen()};
}

struct Selection {
  bool Ok = false;
  std::string Error;
  RationalFunction F;
  PieceStats Stats;
  /// The candidates of least held-out error, best first (at most
  /// FitOptions::ScreenCandidates): what a split is screened with.
  std::vector<CandidateKey> Shortlist;
};

/// Splits \p Rows into training and held-out rows: whole groups of equal
/// data size (the product of the extrapolation variables), largest first,
/// until HoldOutFraction of the rows are held out.
void splitRows(const Context &Cx, const RowSet &Rows, RowSet &Train,
               RowSet &Held, std::string &Rule) {
  const FitProblem &P = Cx.P;
  std::vector<double> Key(P.Y.size(), 1.0);
  for (unsigned R : Rows)
    for (size_t V = 0; V < P.Vars.size(); ++V)
      if (Cx.Extrapolate[V])
        Key[R] *= std::fabs(P.X[R][V]);
  std::vector<double> Distinct;
  for (unsigned R : Rows)
    Distinct.push_back(Key[R]);
  std::sort(Distinct.begin(), Distinct.end(), std::greater<double>());
  Distinct.erase(std::unique(Distinct.begin(), Distinct.end()), Distinct.end());
  size_t Want = std::max<size_t>(
      1, size_t(std::ceil(Cx.O.HoldOutFraction * double(Rows.size()))));
  double Threshold = INFINITY;
  size_t Count = 0;
  for (double K : Distinct) {
    size_t InGroup = 0;
    for (unsigned R : Rows)
      InGroup += Key[R] == K;
    if (Count + InGroup > Rows.size() - 2)
      break;
    Threshold = K;
    Count += InGroup;
    if (Count >= Want)
      break;
  }
  Train.clear();
  Held.clear();
  if (Count == 0) {
    // One data size only (or one group too large): every k-th row.
    size_t Every =
        std::max<size_t>(2, size_t(std::lround(1.0 / Cx.O.HoldOutFraction)));
    for (size_t I = 0; I < Rows.size(); ++I)
      (I % Every == Every - 1 ? Held : Train).push_back(Rows[I]);
    Rule = "every " + std::to_string(Every) +
           "th sample (the data sizes do not separate)";
    return;
  }
  for (unsigned R : Rows)
    (Key[R] >= Threshold ? Held : Train).push_back(R);
  std::string Name;
  for (size_t V = 0; V < P.Vars.size(); ++V)
    if (Cx.Extrapolate[V])
      Name += (Name.empty() ? "" : "*") + P.Vars[V];
  Rule = Name + " >= " + formatNumber(Threshold, 12);
}

std::vector<Candidate>
enumerateCandidates(const Context &Cx, const std::vector<unsigned> &Distinct,
                    const std::vector<bool> &NonZeroVar, size_t TrainRows,
                    const std::set<CandidateKey> *Only, bool Beyond) {
  const FitOptions &O = Cx.O;
  size_t K = Cx.P.Vars.size();
  std::vector<std::vector<unsigned>> NumBounds, DenBounds;
  auto Enum = [&](unsigned MaxDeg, unsigned MaxSum,
                  std::vector<std::vector<unsigned>> &Out) {
    std::vector<unsigned> B(K, 0);
    while (true) {
      unsigned Sum = std::accumulate(B.begin(), B.end(), 0u);
      if (Sum <= MaxSum)
        Out.push_back(B);
      size_t V = 0;
      while (V < K && B[V] >= std::min<unsigned>(MaxDeg, Distinct[V] - 1))
        B[V++] = 0;
      if (V == K)
        break;
      ++B[V];
    }
  };
  if (O.FixedNum && O.FixedDen) {
    NumBounds.push_back(*O.FixedNum);
    DenBounds.push_back(*O.FixedDen);
  } else {
    Enum(O.MaxNumDegree, O.MaxNumDegreeSum + (Beyond ? 1 : 0), NumBounds);
    Enum(O.MaxDenDegree, O.MaxDenDegreeSum, DenBounds);
    // Beyond: only the boxes one degree past the cap on the bounds' sum,
    // through their subsets of total degree within the cap (2*N^3 + N*bx*by
    // lives in N<=3 bx<=1 by<=1, total degree 3).
    if (Beyond)
      NumBounds.erase(
          std::remove_if(NumBounds.begin(), NumBounds.end(),
                         [&](const std::vector<unsigned> &B) {
                           return std::accumulate(B.begin(), B.end(), 0u) <=
                                  O.MaxNumDegreeSum;
                         }),
          NumBounds.end());
  }
  // Never more unknowns than the training rows determine, with a margin.
  size_t Margin = TrainRows >= 20 ? (TrainRows + 9) / 10 : 1;
  std::vector<Candidate> Out;
  bool Fixed = O.FixedNum && O.FixedDen;
  // The numerator bounds of the candidates in Only: the others are skipped
  // before their denominators are looked at.
  std::set<std::vector<unsigned>> OnlyNum;
  if (Only)
    for (const FitReport::CandidateBounds &B : *Only)
      OnlyNum.insert(B.Num);
  for (const auto &NB : NumBounds) {
    if (Only && !OnlyNum.count(NB))
      continue;
    // The box, and its subsets of bounded total degree: sparser numerators
    // (3*N^2 + 5*N*bx without N^2*bx) extrapolate with less variance.
    unsigned Max = NB.empty() ? 0 : *std::max_element(NB.begin(), NB.end());
    unsigned Sum = std::accumulate(NB.begin(), NB.end(), 0u);
    std::vector<unsigned> Totals;
    if (!Beyond)
      Totals.push_back(0);
    if ((O.TotalDegreeVariants || Beyond) && !Fixed)
      for (unsigned T = std::max(Max, 1u);
           T < Sum && (!Beyond || T <= O.MaxNumDegreeSum); ++T)
        Totals.push_back(T);
    for (unsigned T : Totals)
      for (const auto &DB : DenBounds) {
        bool NonZero =
            std::any_of(DB.begin(), DB.end(), [](unsigned D) { return D; });
        // A denominator box, and the single monomial at its corner (x^b:
        // quantities per thread or per block are totals over bx*by).
        // x^b must not vanish on any sample.
        bool MonoOk = NonZero;
        for (size_t V = 0; V < DB.size(); ++V)
          MonoOk = MonoOk && (!DB[V] || NonZeroVar[V]);
        for (int Mono = 0; Mono < (MonoOk ? 2 : 1); ++Mono) {
          if (Fixed && (Mono != 0) != O.FixedDenMonomial)
            continue;
          if (Fixed && !NonZero && O.FixedDenMonomial)
            continue;
          if (Only && !Only->count({NB, DB, T, Mono != 0}))
            continue;
          Candidate C;
          C.NumBound = NB;
          C.NumTotal = T;
          C.DenBound = DB;
          C.Num = boxMonomials(NB, T);
          if (Mono)
            C.Den = {Exponents(DB.begin(), DB.end())};
          else
            C.Den = boxMonomials(DB);
          if (!Fixed && C.unknowns() + Margin > TrainRows)
            continue;
          Out.push_back(std::move(C));
        }
      }
  }
  auto Kind = [](const Candidate &C) {
    return C.polynomial() ? 0 : C.monomialDen() ? 1 : 2;
  };
  std::stable_sort(Out.begin(), Out.end(),
                   [&](const Candidate &A, const Candidate &B) {
                     if (A.unknowns() != B.unknowns())
                       return A.unknowns() < B.unknowns();
                     return Kind(A) < Kind(B);
                   });
  if (Out.size() > O.MaxCandidates)
    Out.resize(O.MaxCandidates);
  return Out;
}

std::vector<double> scalesOf(const Context &Cx, const RowSet &Rows) {
  std::vector<double> S(Cx.P.Vars.size(), 0.0);
  for (unsigned R : Rows)
    for (size_t V = 0; V < S.size(); ++V)
      S[V] = std::max(S[V], std::fabs(Cx.P.X[R][V]));
  for (double &V : S)
    if (V == 0)
      V = 1;
  return S;
}

/// Whether candidate \p A's held-out errors are within noise of \p Best's:
/// within max(TieFloor, TieFactor x best); or within 1.5 x best and not
/// significantly larger in a paired test (the mean difference of the
/// absolute relative errors below two standard errors).
bool withinNoise(const FitOptions &O, const Evaluated &A,
                 const Evaluated &Best) {
  if (A.HeldOut <= std::max(O.TieFloor, O.TieFactor * Best.HeldOut))
    return true;
  size_t N = A.HeldOutSq.size();
  if (N < 8 || Best.HeldOutSq.size() != N || !(A.HeldOut <= 1.5 * Best.HeldOut))
    return false;
  std::vector<double> D(N);
  double Mean = 0, Var = 0;
  for (size_t I = 0; I < N; ++I) {
    D[I] = std::sqrt(A.HeldOutSq[I]) - std::sqrt(Best.HeldOutSq[I]);
    Mean += D[I];
  }
  Mean /= double(N);
  for (size_t I = 0; I < N; ++I)
    Var += (D[I] - Mean) * (D[I] - Mean);
  Var /= double(N - 1);
  return Mean <= 2 * std::sqrt(Var / double(N));
}

/// Whether candidate \p C stays bounded as each variable of
/// FitOptions::BoundedIn grows alone: its numerator's degree in each is at
/// most its denominator's.
bool boundedIn(const Context &Cx, const Candidate &C) {
  for (size_t V = 0; V < Cx.P.Vars.size(); ++V) {
    const std::vector<std::string> &B = Cx.O.BoundedIn;
    if (std::find(B.begin(), B.end(), Cx.P.Vars[V]) == B.end())
      continue;
    unsigned Num = 0, Den = 0;
    for (const Exponents &E : C.Num)
      Num = std::max<unsigned>(Num, E[V]);
    for (const Exponents &E : C.Den)
      Den = std::max<unsigned>(Den, E[V]);
    if (Num > Den)
      return false;
  }
  return true;
}

Selection selectModel(Context &Cx, const RowSet &Rows,
                      const std::vector<std::pair<Predicate, bool>> &Where,
                      bool ExactOnly = false,
                      const std::set<CandidateKey> *Only = nullptr,
                      bool Beyond = false) {
  Selection Sel;
  const FitProblem &P = Cx.P;
  const FitOptions &O = Cx.O;
  PieceStats &St = Sel.Stats;
  St.Samples = unsigned(Rows.size());
  St.RelativeWeights = Cx.Relative;
  if (Rows.size() < 3) {
    Sel.Error = std::to_string(Rows.size()) + " sample" +
                (Rows.size() == 1 ? " is" : "s are") + " too few to fit '" +
                P.Target + "' (at least 3 are needed)";
    return Sel;
  }
  RowSet Train, Held;
  splitRows(Cx, Rows, Train, Held, St.HeldOutRule);
  St.TrainSamples = unsigned(Train.size());
  St.HeldOutSamples = unsigned(Held.size());

  std::vector<unsigned> Distinct(P.Vars.size());
  for (size_t V = 0; V < P.Vars.size(); ++V) {
    std::set<double> S;
    for (unsigned R : Train)
      S.insert(P.X[R][V]);
    Distinct[V] = unsigned(S.size());
  }
  std::vector<bool> NonZeroVar(P.Vars.size(), true);
  for (size_t V = 0; V < P.Vars.size(); ++V)
    for (unsigned R : Rows)
      NonZeroVar[V] = NonZeroVar[V] && P.X[R][V] != 0;
  std::vector<Candidate> Cands =
      enumerateCandidates(Cx, Distinct, NonZeroVar, Train.size(), Only,
                          Beyond);
  if (Cands.empty()) {
    Sel.Error = "no candidate fits " + std::to_string(Train.size()) +
                " training samples";
    return Sel;
  }
  unsigned MaxDeg = 0;
  std::set<Exponents> AllP, AllQ;
  for (const auto &C : Cands) {
    for (unsigned V = 0; V < P.Vars.size(); ++V)
      MaxDeg = std::max({MaxDeg, C.NumBound[V], C.DenBound[V]});
    AllP.insert(C.Num.begin(), C.Num.end());
    if (C.rational())
      AllQ.insert(C.Den.begin(), C.Den.end());
  }
  std::vector<double> TrainScale = scalesOf(Cx, Train);
  Design TD = makeDesign(P, Train, TrainScale, MaxDeg);
  Design HD = makeDesign(P, Held, TrainScale, MaxDeg);
  // Unweighted: exact fits do not depend on the weights, and polynomial
  // candidates need no others. Built on first use.
  std::optional<Compressed> Z0Store;
  auto Z0For = [&]() -> const Compressed & {
    if (!Z0Store)
      Z0Store = compress(Cx, TD, AllP, AllQ, {});
    return *Z0Store;
  };

  std::vector<Evaluated> Ev;
  Ev.reserve(Cands.size());
  // The held-out rows' monomials, in the training scaling (which every
  // screened fit uses), computed once per monomial; sums over them add the
  // same products in the same order as sumAt.
  std::unordered_map<Exponents, std::vector<double>, ExponentsHash> HeldCols;
  auto HeldSums = [&](const std::vector<Exponents> &Terms,
                      const std::vector<double> &Coef,
                      std::vector<double> &Out) {
    Out.assign(Held.size(), 0.0);
    for (size_t J = 0; J < Terms.size(); ++J) {
      auto [It, New] = HeldCols.try_emplace(Terms[J]);
      if (New) {
        It->second.resize(Held.size());
        for (size_t I = 0; I < Held.size(); ++I)
          It->second[I] = monomialAt(HD, Terms[J], I);
      }
      const double *Col = It->second.data();
      for (size_t I = 0; I < Held.size(); ++I)
        Out[I] += Coef[J] * Col[I];
    }
  };
  std::vector<double> HeldQ, HeldP;
  auto Measure = [&](Evaluated &E) {
    E.HeldOut = E.HeldOutMax = INFINITY;
    E.HeldOutSq.clear();
    if (!E.Fit.Ok)
      return;
    double S = 0, Mx = 0;
    const RationalFunction &F = E.Fit.F;
    HeldSums(F.DenTerms, F.DenCoef, HeldQ);
    HeldSums(F.NumTerms, F.NumCoef, HeldP);
    for (size_t I = 0; I < Held.size(); ++I) {
      unsigned R = Held[I];
      double Q = HeldQ[I];
      double Pv = HeldP[I];
      double Er = Q * F.DenSign > 0 ? relativeError(Pv / Q, P.Y[R], Cx.YScale)
                                    : INFINITY;
      E.HeldOutSq.push_back(Er * Er);
      S += Er * Er;
      Mx = std::max(Mx, Er);
    }
    E.HeldOut = Held.empty() ? 0 : std::sqrt(S / double(Held.size()));
    E.HeldOutMax = Mx;
    if (!std::isfinite(E.HeldOut))
      E.HeldOut = INFINITY;
  };
  auto Trace = [&](const Evaluated &E, const char *What) {
    if (!O.Trace)
      return;
    std::string D;
    for (size_t V = 0; V < P.Vars.size(); ++V)
      D += (V ? "," : "") + std::to_string(E.C->NumBound[V]);
    if (E.C->NumTotal)
      D += " T" + std::to_string(E.C->NumTotal);
    D += " / ";
    for (size_t V = 0; V < P.Vars.size(); ++V)
      D += (V ? "," : "") + std::to_string(E.C->DenBound[V]);
    std::fprintf(stderr,
                 "%-8s %-22s unknowns %3u held-out %.3g (max %.3g) rank %d/%d "
                 "cond %.3g\n",
                 What, D.c_str(), E.C->unknowns(), E.HeldOut, E.HeldOutMax,
                 E.Fit.Rank, E.Fit.Columns, E.Fit.Condition);
  };

  // The denominators' row weights for noisy data: 1/|Q| of a pilot fit, so
  // that one compressed solve per candidate is about one Sanathanan-Koerner
  // step from a good start. The pilots of a denominator box have the
  // numerator boxes 0, the denominator's box, and the best polynomial's box
  // widened to the denominator's; each is refined on at most 128 training
  // rows, and the one with the least error there gives the weights.
  // The candidates in the order they are fitted (below).
  std::vector<size_t> Order, RationalIdx;
  std::map<std::vector<unsigned>, Compressed> ByDen;
  std::vector<unsigned> BestPolyBound(P.Vars.size(), 0);
  double BestPolyErr = INFINITY;
  std::optional<Design> PilotDesign;
  auto CompressedFor = [&](const Candidate &C) -> const Compressed & {
    if (Cx.ExactData || !Z0For().Ok)
      return Z0For();
    auto It = ByDen.find(C.DenBound);
    if (It != ByDen.end())
      return It->second;
    if (!PilotDesign) {
      RowSet Sub;
      size_t Keep = std::min<size_t>(Train.size(), 128);
      for (size_t K = 0; K < Keep; ++K)
        Sub.push_back(Train[K * Train.size() / Keep]);
      PilotDesign = makeDesign(P, Sub, TrainScale, MaxDeg);
    }
    std::set<std::vector<unsigned>> Bounds;
    std::vector<unsigned> Widened(P.Vars.size());
    for (size_t V = 0; V < P.Vars.size(); ++V)
      Widened[V] = std::min<unsigned>(
          std::max(BestPolyBound[V], C.DenBound[V]),
          std::min<unsigned>(O.MaxNumDegree, Distinct[V] - 1));
    Bounds.insert(std::vector<unsigned>(P.Vars.size(), 0));
    Bounds.insert(C.DenBound);
    Bounds.insert(Widened);
    double BestErr = INFINITY;
    std::vector<double> QW;
    for (const auto &NB : Bounds) {
      Candidate Pilot;
      Pilot.NumBound = NB;
      Pilot.DenBound = C.DenBound;
      Pilot.Num = boxMonomials(NB);
      Pilot.Den = C.Den;
      if (Pilot.unknowns() + 4 > PilotDesign->Rows.size())
        continue;
      CandidateFit F = fitCandidate(Cx, *PilotDesign, Pilot);
      if (!F.Ok)
        continue;
      auto [Rms, Mx] = errorsOn(Cx, F.F, PilotDesign->Rows);
      (void)Mx;
      if (!(Rms < BestErr))
        continue;
      std::vector<double> W;
      bool SignOk = true;
      for (size_t I = 0; I < Train.size() && SignOk; ++I) {
        double Q = sumAt(TD, Pilot.Den, F.F.DenCoef, I) * F.F.DenSign;
        SignOk = Q > 0;
        W.push_back(SignOk ? 1.0 / Q : 1.0);
      }
      if (!SignOk)
        continue;
      BestErr = Rms;
      QW = std::move(W);
    }
    if (!QW.empty()) {
      double Mx = *std::max_element(QW.begin(), QW.end());
      for (double &W : QW)
        W = std::max(W, Mx * 1e-6) / Mx;
    }
    std::set<Exponents> QM(C.Den.begin(), C.Den.end());
    // Only the numerator monomials of this denominator's candidates: the
    // rational candidates are all queued before the first of them is
    // fitted, and a column that none of them uses only costs time (the QR
    // of a subset of the columns gives the same least-squares problems).
    std::set<Exponents> PM(C.Num.begin(), C.Num.end());
    for (size_t I : Order)
      if (Cands[I].rational() && Cands[I].DenBound == C.DenBound)
        PM.insert(Cands[I].Num.begin(), Cands[I].Num.end());
    return ByDen.emplace(C.DenBound, compress(Cx, TD, PM, QM, QW))
        .first->second;
  };

  // One-term denominators x^b: the linear system of P/x^b, one
  // compression per b.
  std::map<Exponents, Compressed> ByMono;
  auto MonoFor = [&](const Candidate &C) -> const Compressed & {
    auto It = ByMono.find(C.Den[0]);
    if (It != ByMono.end())
      return It->second;
    return ByMono.emplace(C.Den[0], compress(Cx, TD, AllP, {}, {}, &C.Den[0]))
        .first->second;
  };
  bool Fixed = O.FixedNum && O.FixedDen;

  // Linear candidates first (polynomials and one-term denominators: cheap,
  // and the pilots need the best polynomial), then the rational ones; both
  // by increasing unknowns. Once a candidate is exact to the tie floor,
  // candidates with more unknowns can only tie with it and lose on the
  // unknowns.
  for (size_t I = 0; I < Cands.size(); ++I)
    (Cands[I].rational() && !Fixed ? RationalIdx : Order).push_back(I);
  unsigned ExactUnknowns = ~0u;
  std::map<Exponents, unsigned> Uses;
  size_t Next = 0;
  std::vector<size_t> Skipped;
  auto EvaluateMore = [&](bool All) {
    if (All) {
      Order.insert(Order.begin() + long(Next), Skipped.begin(), Skipped.end());
      Skipped.clear();
    }
    for (; Next < Order.size(); ++Next) {
      const Candidate &C = Cands[Order[Next]];
      if (!All && C.unknowns() > ExactUnknowns) {
        if (!C.rational()) {
          // The rational candidates after may still be smaller.
          Skipped.push_back(Order[Next]);
          continue;
        }
        break;
      }
      Evaluated E;
      E.C = &C;
      // A compression (one QR of all the columns a kind of candidate
      // uses) pays off after a few candidates. Exact data usually stop
      // early, so there the first few of each kind are fitted directly.
      Exponents Kind = C.rational() ? Exponents() : C.Den[0];
      bool Direct = Fixed || ++Uses[Kind] <= (Cx.ExactData ? 40u : 0u);
      const Compressed *Z = nullptr;
      if (!Direct) {
        Z = C.rational()      ? &CompressedFor(C)
            : C.monomialDen() ? &MonoFor(C)
                              : &Z0For();
        // A compressed system has the columns of the candidates queued
        // when it was made; one queued later is fitted directly.
        Direct = !Z->Ok || !covers(*Z, C);
      }
      if (Direct) {
        E.Fit = fitCandidate(Cx, TD, C);
        E.Refined = true;
      } else {
        E.Fit = fitCompressed(Cx, TD, *Z, C);
      }
      Measure(E);
      if (E.HeldOut <= O.TieFloor)
        ExactUnknowns = std::min(ExactUnknowns, C.unknowns());
      if (C.polynomial() && E.HeldOut < BestPolyErr) {
        BestPolyErr = E.HeldOut;
        BestPolyBound = C.NumBound;
      }
      Trace(E, "screen");
      Ev.push_back(std::move(E));
    }
  };
  EvaluateMore(false);
  // Rational candidates (several-term denominators) for the numerators of
  // at most 3 terms, and for the numerators of the 8 best linear fits.
  {
    std::vector<const Evaluated *> Linear;
    for (const auto &E : Ev)
      if (std::isfinite(E.HeldOut))
        Linear.push_back(&E);
    std::stable_sort(Linear.begin(), Linear.end(),
                     [](const Evaluated *A, const Evaluated *B) {
                       return A->HeldOut < B->HeldOut;
                     });
    std::set<std::vector<Exponents>> Promising;
    for (const Evaluated *E : Linear) {
      if (Promising.size() >= 8)
        break;
      Promising.insert(E->C->Num);
    }
    for (size_t I : RationalIdx)
      if (Cands[I].Num.size() <= 3 || Promising.count(Cands[I].Num))
        Order.push_back(I);
  }
  EvaluateMore(false);
  if (ExactOnly && ExactUnknowns == ~0u) {
    Sel.Error = "no exact candidate";
    return Sel;
  }

  // The best inexact rational candidates get the full Sanathanan-Koerner
  // refinement on all training rows before they are compared.
  auto RefineTop = [&] {
    std::vector<Evaluated *> Top;
    for (auto &E : Ev)
      if (E.C->rational() && !E.Refined && E.Fit.Ok &&
          std::isfinite(E.HeldOut) && E.HeldOut > O.TieFloor)
        Top.push_back(&E);
    std::sort(Top.begin(), Top.end(),
              [](const Evaluated *A, const Evaluated *B) {
                return A->HeldOut < B->HeldOut;
              });
    double Best = INFINITY;
    for (auto &E : Ev)
      Best = std::min(Best, E.HeldOut);
    for (size_t K = 0; K < Top.size() && K < 12; ++K) {
      if (Top[K]->HeldOut > 4 * Best && K >= 4)
        break;
      Top[K]->Fit = fitCandidate(Cx, TD, *Top[K]->C);
      Top[K]->Refined = true;
      Measure(*Top[K]);
      Trace(*Top[K], "refined");
    }
  };
  if (!(Cx.ExactData && ExactUnknowns != ~0u))
    RefineTop();

  auto Admissible = [&](Evaluated &E) {
    if (!E.Checked) {
      E.Checked = true;
      // Not exact (beyond the tie floor) and unbounded in a variable it
      // must stay bounded in (FitOptions::BoundedIn).
      if (E.HeldOut > O.TieFloor && !boundedIn(Cx, *E.C)) {
        E.Rejected = true;
        if (O.Trace)
          std::fprintf(stderr, "bounded  %s: rejected\n",
                       E.Fit.F.str(P.Vars, 4).c_str());
        return false;
      }
      E.Rejected = !denominatorOk(Cx, E.Fit.F, Rows, Where);
      if (E.Rejected)
        ++St.RejectedByRegion;
      if (O.Trace)
        std::fprintf(stderr, "region   %s: %s\n",
                     E.Fit.F.str(P.Vars, 4).c_str(),
                     E.Rejected ? "rejected" : "ok");
    }
    return !E.Rejected;
  };

  Evaluated *Chosen = nullptr;
  std::vector<Evaluated *> TieOrder;
  while (true) {
    // The best admissible held-out error ...
    Evaluated *Best = nullptr;
    while (true) {
      Best = nullptr;
      for (auto &E : Ev)
        if (E.Fit.Ok && std::isfinite(E.HeldOut) &&
            !(E.Checked && E.Rejected) && (!Best || E.HeldOut < Best->HeldOut))
          Best = &E;
      if (!Best || Admissible(*Best))
        break;
    }
    if (Best) {
      // ... then the fewest unknowns among those within noise of it.
      TieOrder.clear();
      for (auto &E : Ev)
        if (E.Fit.Ok && !(E.Checked && E.Rejected) && withinNoise(O, E, *Best))
          TieOrder.push_back(&E);
      std::stable_sort(TieOrder.begin(), TieOrder.end(),
                       [](const Evaluated *A, const Evaluated *B) {
                         if (A->C->unknowns() != B->C->unknowns())
                           return A->C->unknowns() < B->C->unknowns();
                         return A->HeldOut < B->HeldOut;
                       });
      for (Evaluated *E : TieOrder)
        if (Admissible(*E)) {
          Chosen = E;
          break;
        }
      TieOrder.erase(std::remove_if(TieOrder.begin(), TieOrder.end(),
                                    [](Evaluated *E) { return E->Rejected; }),
                     TieOrder.end());
    }
    // An exact candidate rejected by the region check may have stopped the
    // enumeration early: go on with the rest.
    if ((!Chosen || Chosen->HeldOut > O.TieFloor) &&
        (Next < Order.size() || !Skipped.empty())) {
      Chosen = nullptr;
      EvaluateMore(true);
      RefineTop();
      continue;
    }
    break;
  }
  St.CandidatesTried = unsigned(Ev.size());
  {
    std::vector<const Evaluated *> Ranked;
    for (const auto &E : Ev)
      if (E.Fit.Ok && std::isfinite(E.HeldOut) && !(E.Checked && E.Rejected))
        Ranked.push_back(&E);
    std::stable_sort(Ranked.begin(), Ranked.end(),
                     [](const Evaluated *A, const Evaluated *B) {
                       return A->HeldOut < B->HeldOut;
                     });
    for (size_t I = 0; I < Ranked.size() && I < O.ScreenCandidates; ++I)
      Sel.Shortlist.push_back(keyOf(*Ranked[I]->C));
  }
  if (!Chosen) {
    Sel.Error =
        St.RejectedByRegion
            ? "every candidate's denominator vanishes on the region of use"
            : "no candidate could be fitted";
    return Sel;
  }
  if (ExactOnly && Chosen->HeldOut > O.TieFloor) {
    Sel.Error = "no exact candidate";
    return Sel;
  }

  // Refit on all rows, with exact recovery when the data are exact.
  std::vector<double> AllScale = scalesOf(Cx, Rows);
  Design AD = makeDesign(P, Rows, AllScale, MaxDeg);
  auto Refit = [&](const Evaluated &E, CandidateFit &Out) {
    Out = fitCandidate(Cx, AD, *E.C, /*Svd=*/true);
    return Out.Ok;
  };
  CandidateFit Final;
  bool HaveFinal =
      Refit(*Chosen, Final) && denominatorOk(Cx, Final.F, Rows, Where);
  if (!HaveFinal) {
    Final = Chosen->Fit;
    Sel.Stats.ExactNote = "the fit on all samples failed the denominator "
                          "check; the training fit is used";
  }
  Evaluated *Used = Chosen;
  if (Cx.ExactData) {
    St.ExactTried = true;
    std::string Note;
    bool Got = recoverExact(Cx, Final.F, Rows, Note);
    if (!Got) {
      // Another tie candidate may be exactly representable.
      unsigned Tries = 0;
      for (Evaluated *E : TieOrder) {
        if (E == Chosen || ++Tries > 6)
          continue;
        CandidateFit Alt;
        std::string AltNote;
        if (Refit(*E, Alt) && denominatorOk(Cx, Alt.F, Rows, Where) &&
            recoverExact(Cx, Alt.F, Rows, AltNote) &&
            denominatorOk(Cx, Alt.F, Rows, Where)) {
          Final = std::move(Alt);
          Used = E;
          Note = AltNote;
          Got = true;
          break;
        }
      }
    }
    if (Got && !denominatorOk(Cx, Final.F, Rows, Where)) {
      Got = false;
      Note = "the exact denominator vanishes on the region";
      Refit(*Used, Final);
    }
    St.ExactNote = Note;
  }
  if (ExactOnly && !Final.F.Exact) {
    Sel.Error = "no exact candidate";
    return Sel;
  }
  Sel.F = std::move(Final.F);
  St.Unknowns = Used->C->unknowns();
  St.Columns = unsigned(Final.Columns);
  St.Rank = Final.Rank;
  St.Condition = Final.Condition;
  St.HeldOutError = Used->HeldOut;
  St.HeldOutMax = Used->HeldOutMax;
  // An exact function reproduces every sample exactly (it was verified in
  // rational arithmetic).
  auto [Rms, Mx] = errorsOn(Cx, Sel.F, Rows);
  St.Residual = Sel.F.Exact ? 0 : Rms;
  St.ResidualMax = Sel.F.Exact ? 0 : Mx;
  Sel.Ok = true;
  return Sel;
}

/// Whether some candidate could reproduce \p Rows exactly. Every
/// candidate's P and Q are spanned by the monomials of the largest bounds
/// (numerator degrees MaxNumDegree each, MaxNumDegreeSum in all; the
/// denominator's likewise), so an exact candidate is a null vector of the
/// homogeneous system [P columns, -y * Q columns] of those monomials
/// (variables that copy another on these rows left out). When
/// its smallest singular value is clearly not zero (above 1e-9 of the
/// largest, columns normalised), no candidate is exact and an exact-only
/// selection on these rows can be skipped. One SVD instead of trying every
/// candidate.
bool mayBeExact(const Context &Cx, const RowSet &Rows) {
  const FitProblem &P = Cx.P;
  const FitOptions &O = Cx.O;
  size_t K = P.Vars.size();
  std::vector<unsigned> NumB(K), DenB(K);
  for (size_t V = 0; V < K; ++V) {
    // A variable equal to an earlier one on these rows adds only copies of
    // columns (dependent ones, which would hide the answer).
    bool Copy = false;
    for (size_t W = 0; W < V && !Copy; ++W)
      Copy = std::all_of(Rows.begin(), Rows.end(), [&](unsigned R) {
        return P.X[R][V] == P.X[R][W];
      });
    std::set<double> S;
    for (unsigned R : Rows)
      S.insert(P.X[R][V]);
    unsigned Top = Copy ? 0 : unsigned(S.size()) - 1;
    NumB[V] = std::min(O.MaxNumDegree, Top);
    DenB[V] = std::min(O.MaxDenDegree, Top);
  }
  std::vector<Exponents> Num = boxMonomials(NumB, O.MaxNumDegreeSum);
  std::vector<Exponents> Den = boxMonomials(DenB, O.MaxDenDegreeSum);
  // boxMonomials takes 0 as no cap on the total degree; a cap of 0 leaves
  // the constant alone.
  if (O.MaxNumDegreeSum == 0)
    Num.resize(1);
  if (O.MaxDenDegreeSum == 0)
    Den.resize(1);
  size_t Cols = Num.size() + Den.size();
  if (Rows.size() < Cols + 1)
    return true;
  unsigned MaxDeg = 0;
  for (size_t V = 0; V < K; ++V)
    MaxDeg = std::max({MaxDeg, NumB[V], DenB[V]});
  Design D = makeDesign(P, Rows, scalesOf(Cx, Rows), MaxDeg);
  Matrix A(int(Rows.size()), int(Cols));
  std::vector<double> W(Rows.size()), Y(Rows.size());
  for (size_t I = 0; I < Rows.size(); ++I) {
    W[I] = Cx.weight(Rows[I]);
    Y[I] = P.Y[Rows[I]] / Cx.YScale;
  }
  // Column by column (the matrix is column-major).
  for (size_t J = 0; J < Num.size(); ++J) {
    double *Out = A.column(int(J));
    for (size_t I = 0; I < Rows.size(); ++I)
      Out[I] = W[I] * monomialAt(D, Num[J], I);
  }
  for (size_t J = 0; J < Den.size(); ++J) {
    double *Out = A.column(int(Num.size() + J));
    for (size_t I = 0; I < Rows.size(); ++I)
      Out[I] = -W[I] * Y[I] * monomialAt(D, Den[J], I);
  }
  normaliseColumns(A);
  // Only the singular values are needed.
  Svd S = singularValues(std::move(A));
  if (!S.Error.empty() || S.Singular.size() < Cols || !(S.Singular[0] > 0))
    return true;
  return !(S.Singular.back() > 1e-9 * S.Singular[0]);
}

/// The held-out error of two pieces together: the RMS over both pieces'
/// held-out samples.
double piecesHeldOut(const PieceStats &A, const PieceStats &B) {
  double SumSq = A.HeldOutError * A.HeldOutError * A.HeldOutSamples +
                 B.HeldOutError * B.HeldOutError * B.HeldOutSamples;
  return std::sqrt(SumSq / double(A.HeldOutSamples + B.HeldOutSamples));
}

/// Predicates that may split the samples into two pieces.
std::vector<Predicate> splitPredicates(const Context &Cx) {
  const FitProblem &P = Cx.P;
  std::vector<Predicate> Out;
  size_t K = P.Vars.size();
  // One orientation per pair: 'xi <= xj' and 'xj <= xi' differ only where
  // the two are equal.
  for (unsigned I = 0; I < K; ++I)
    for (unsigned J = I + 1; J < K; ++J) {
      Predicate Pr;
      Pr.Lhs = I;
      Pr.RhsIsVariable = true;
      Pr.RhsVar = J;
      Out.push_back(Pr);
    }
  // Thresholds only on variables that are not extrapolated: a piece
  // beyond the largest sampled threshold of a data size could not be
  // validated.
  for (unsigned I = 0; I < K; ++I) {
    if (Cx.Extrapolate[I])
      continue;
    std::set<double> S;
    for (const auto &Row : P.X)
      S.insert(Row[I]);
    std::vector<double> V(S.begin(), S.end());
    if (V.size() < 2)
      continue;
    V.pop_back(); // the largest splits nothing off
    // At most 4 thresholds, spread over the sampled values.
    size_t N = std::min<size_t>(4, V.size());
    std::set<double> Chosen;
    for (size_t T = 0; T < N; ++T)
      Chosen.insert(V[(T * (V.size() - 1)) / std::max<size_t>(1, N - 1)]);
    for (double C : Chosen) {
      Predicate Pr;
      Pr.Lhs = I;
      Pr.RhsConst = C;
      Out.push_back(Pr);
    }
  }
  return Out;
}

} // namespace

//===----------------------------------------------------------------------===//
// fitQuantity
//===----------------------------------------------------------------------===//

FitReport fitQuantity(const FitProblem &P, const FitOptions &O,
                      const FitReport *Given) {
  auto Start = std::chrono::steady_clock::now();
  FitReport Rep;
  Context Cx(P, O);
  size_t K = P.Vars.size();
  Rep.Model.Target = P.Target;
  Rep.Model.Vars = P.Vars;
  auto Finish = [&] {
    Rep.Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    return Rep;
  };

  if (P.Y.size() < 3) {
    Rep.Error = std::to_string(P.Y.size()) + " sample" +
                (P.Y.size() == 1 ? " is" : "s are") + " too few to fit '" +
                P.Target + "' (at least 3 are needed)";
    return Finish();
  }
  if ((O.FixedNum || O.FixedDen) &&
      !(O.FixedNum && O.FixedDen && O.FixedNum->size() == K &&
        O.FixedDen->size() == K)) {
    Rep.Error = "fixed degrees need a numerator and a denominator bound for "
                "every variable";
    return Finish();
  }
  for (size_t R = 0; R < P.Y.size(); ++R) {
    bool Bad = !std::isfinite(P.Y[R]);
    for (double V : P.X[R])
      Bad = Bad || !std::isfinite(V);
    if (Bad) {
      Rep.Error = P.File + ":" + std::to_string(P.Lines[R]) +
                  ": a value is not a finite number";
      return Finish();
    }
  }

  // The variables whose largest values are held out.
  Cx.Extrapolate.assign(K, false);
  if (!O.Extrapolate.empty()) {
    for (const auto &N : O.Extrapolate) {
      auto It = std::find(P.Vars.begin(), P.Vars.end(), N);
      if (It == P.Vars.end()) {
        Rep.Error = "extrapolation variable '" + N + "' is not a variable";
        return Finish();
      }
      Cx.Extrapolate[size_t(It - P.Vars.begin())] = true;
    }
  } else {
    bool Any = false;
    for (size_t V = 0; V < K; ++V)
      Any |= Cx.Extrapolate[V] = !isBlockName(P.Vars[V]);
    if (!Any)
      Cx.Extrapolate.assign(K, true);
  }

  // Integer arguments, sign, weights, exactness.
  Rep.Model.IntegerArgs = true;
  for (const auto &Row : P.X)
    for (double V : Row) {
      if (V != std::trunc(V) || std::fabs(V) > 9e15)
        Rep.Model.IntegerArgs = false;
      Cx.HasNegative = Cx.HasNegative || V < 0;
    }
  // Exact data: every target value an integer, or an exact fraction
  // written as p/q.
  double MinAbs = INFINITY;
  bool AllExactText = true;
  Rep.Model.NonNegative = true;
  for (size_t R = 0; R < P.Y.size(); ++R) {
    double Y = P.Y[R];
    MinAbs = std::min(MinAbs, std::fabs(Y));
    bool Integer = Y == std::trunc(Y) && std::fabs(Y) < 9e15;
    bool Fraction = R < P.YText.size() &&
                    P.YText[R].find('/') != std::string::npos &&
                    parseExactDecimal(P.YText[R]).has_value();
    AllExactText = AllExactText && (Integer || Fraction);
    if (Y < 0)
      Rep.Model.NonNegative = false;
  }
  Cx.YScale = 0;
  for (double Y : P.Y)
    Cx.YScale = std::max(Cx.YScale, std::fabs(Y));
  if (Cx.YScale == 0)
    Cx.YScale = 1;
  switch (O.Weights) {
  case Weighting::Relative:
    Cx.Relative = true;
    break;
  case Weighting::Absolute:
    Cx.Relative = false;
    break;
  case Weighting::Auto:
    Cx.Relative = MinAbs > 0 && Cx.YScale / MinAbs >= 10;
    break;
  }
  Cx.ExactData =
      O.Exact == Choice::Always || (O.Exact == Choice::Auto && AllExactText);
  Rep.ExactData = Cx.ExactData;
  buildRegion(Cx);
  Rep.Region = Cx.Region;

  RowSet All(P.Y.size());
  std::iota(All.begin(), All.end(), 0u);
  Selection Single;
  bool FromGiven = Given && Given->ok() && Given->Model.Pieces.size() == 1 &&
                   Given->Stats.size() == 1;
  if (FromGiven) {
    Single.Ok = true;
    Single.F = Given->Model.Pieces[0].F;
    Single.Stats = Given->Stats[0];
    Single.Shortlist = Given->Shortlist;
    // The given fit went through the larger numerators below already (they
    // do not depend on the pieces option): its note comes with it.
    Rep.Notes = Given->Notes;
  } else {
    Single = selectModel(Cx, All, {});
  }
  if (!Single.Ok) {
    Rep.Error = Single.Error;
    return Finish();
  }
  // Exact data that no candidate reproduces: larger numerators (one degree
  // past the cap on the bounds' sum) are tried, and taken only when they
  // reproduce every sample exactly (an exact function carries no variance
  // into the extrapolation; an inexact one of that size would).
  if (!FromGiven && Cx.ExactData && !Single.F.Exact && O.TotalDegreeVariants &&
      K > 1 && !(O.FixedNum && O.FixedDen) && mayBeExact(Cx, All)) {
    Selection Larger = selectModel(Cx, All, {}, true, nullptr, true);
    if (Larger.Ok && Larger.F.Exact) {
      Larger.Shortlist = Single.Shortlist;
      Single = std::move(Larger);
      Rep.Notes.push_back("exact with a numerator beyond the degree cap "
                          "(total degree within it)");
    }
  }
  Rep.Shortlist = Single.Shortlist;
  Rep.SingleHeldOut = Single.Stats.HeldOutError;
  Rep.HeldOut = Single.Stats.HeldOutError;
  Rep.Model.Pieces.push_back({std::nullopt, Single.F});
  Rep.Stats.push_back(Single.Stats);

  bool SingleExact = Single.F.Exact;
  // Integer data that no rational function reproduces, but that one fits
  // to 0.1 % (rounded values), gain nothing from pieces.
  bool Poor =
      (Cx.ExactData && !SingleExact && Single.Stats.HeldOutError > 1e-3) ||
      Single.Stats.HeldOutError > O.PieceThreshold;
  if (O.Pieces == Choice::Never || (O.Pieces == Choice::Auto && !Poor) ||
      (O.FixedNum && O.FixedDen))
    return Finish();

  // Two pieces split by a predicate, each selected on its own.
  std::set<std::vector<bool>> Seen;
  double BestScore = INFINITY;
  bool BestExact = false;
  unsigned BestUnknowns = ~0u;
  std::optional<std::pair<Selection, Selection>> Best;
  Predicate BestPred;
  std::vector<Predicate> Splits;
  for (const Predicate &Pr : splitPredicates(Cx)) {
    std::vector<bool> Mask(P.Y.size());
    size_t NIn = 0;
    for (unsigned R : All)
      NIn += Mask[R] = Pr.holds(P.X[R].data());
    if (NIn < 3 || All.size() - NIn < 3 || !Seen.insert(Mask).second)
      continue;
    Splits.push_back(Pr);
  }
  Rep.PredicatesTried = unsigned(Splits.size());
  // Noisy data: every split is screened with the single function's best
  // candidates on each side; the full selection runs on the splits of least
  // screened error. (Exact data stop at the first exact pair, which the
  // screening could miss.)
  if (!Cx.ExactData && O.FullSplits && Splits.size() > O.FullSplits &&
      !Single.Shortlist.empty()) {
    std::set<CandidateKey> Only(Single.Shortlist.begin(),
                                Single.Shortlist.end());
    std::vector<std::pair<double, size_t>> Screened;
    for (size_t I = 0; I < Splits.size(); ++I) {
      RowSet In, Out;
      for (unsigned R : All)
        (Splits[I].holds(P.X[R].data()) ? In : Out).push_back(R);
      Selection A = selectModel(Cx, In, {{Splits[I], true}}, false, &Only);
      Selection B = selectModel(Cx, Out, {{Splits[I], false}}, false, &Only);
      Screened.push_back(
          {A.Ok && B.Ok ? piecesHeldOut(A.Stats, B.Stats) : INFINITY, I});
    }
    std::stable_sort(Screened.begin(), Screened.end(),
                     [](const auto &A, const auto &B) {
                       return A.first < B.first;
                     });
    std::vector<Predicate> Kept;
    for (size_t K = 0; K < Screened.size() && K < O.FullSplits; ++K)
      if (std::isfinite(Screened[K].first))
        Kept.push_back(Splits[Screened[K].second]);
    Splits = std::move(Kept);
  }
  for (const Predicate &Pr : Splits) {
    RowSet In, Out;
    for (unsigned R : All)
      (Pr.holds(P.X[R].data()) ? In : Out).push_back(R);
    if (Cx.ExactData && (!mayBeExact(Cx, In) || !mayBeExact(Cx, Out)))
      continue;
    ++Rep.SplitsSelected;
    // On exact data only an exact pair of pieces is of use.
    Selection A = selectModel(Cx, In, {{Pr, true}}, Cx.ExactData);
    if (!A.Ok)
      continue;
    Selection B = selectModel(Cx, Out, {{Pr, false}}, Cx.ExactData);
    if (!B.Ok)
      continue;
    bool BothExact = A.F.Exact && B.F.Exact;
    double Score = piecesHeldOut(A.Stats, B.Stats);
    unsigned Unknowns = A.Stats.Unknowns + B.Stats.Unknowns;
    bool Better;
    if (BothExact != BestExact)
      Better = BothExact;
    else if (BothExact)
      Better = Unknowns < BestUnknowns;
    else
      Better = Score < BestScore;
    if (!Best || Better) {
      BestScore = Score;
      BestExact = BothExact;
      BestUnknowns = Unknowns;
      BestPred = Pr;
      Best.emplace(std::move(A), std::move(B));
    }
    // Splits come simplest first (variable against variable, then against
    // constants): the first exact pair is taken.
    if (BestExact)
      break;
  }
  if (!Best)
    return Finish();
  // Pieces replace one function when they are exact and it is not, or when
  // their held-out error is clearly (beyond the tie factor) smaller.
  bool Take = O.Pieces == Choice::Always ||
              (!SingleExact && (BestExact || BestScore * O.TieFactor <
                                                 Single.Stats.HeldOutError));
  if (!Take) {
    Rep.Notes.push_back("pieces were tried (" +
                        std::to_string(Rep.PredicatesTried) +
                        " splits); none is clearly better than one function");
    return Finish();
  }
  Rep.Model.Pieces.clear();
  Rep.Stats.clear();
  Rep.Model.Pieces.push_back({BestPred, Best->first.F});
  Rep.Model.Pieces.push_back({std::nullopt, Best->second.F});
  Rep.Stats.push_back(Best->first.Stats);
  Rep.Stats.push_back(Best->second.Stats);
  Rep.HeldOut = BestScore;
  return Finish();
}

} // namespace fitting
} // namespace klaraptor
