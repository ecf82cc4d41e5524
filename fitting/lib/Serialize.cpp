//===- Serialize.cpp - a fit report saved as text and read back -----------===//
///
/// \file
/// The text is a sequence of space-separated tokens in a fixed order (the
/// order of the fields below): unsigned and signed integers in decimal,
/// doubles as %a (inf and nan as strtod reads them), booleans as 0/1,
/// strings as LENGTH:BYTES, exact rationals as strings ("-7/2"), vectors as
/// their length followed by the elements. Writer and reader share one
/// description of each type (the `visit` functions), so the two cannot
/// drift apart.
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/Serialize.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace klaraptor {
namespace fitting {
namespace {

/// Bumped whenever a field is added, removed or reordered.
constexpr const char *Format = "klaraptor-fit-report-1";

class Writer {
public:
  std::string Out;
  void token(const std::string &T) {
    if (!Out.empty())
      Out += ' ';
    Out += T;
  }
  void field(unsigned &V) { token(std::to_string(V)); }
  void field(int &V) { token(std::to_string(V)); }
  void field(int64_t &V) { token(std::to_string(V)); }
  void field(bool &V) { token(V ? "1" : "0"); }
  void field(double &V) {
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%a", V);
    token(Buf);
  }
  void field(std::string &V) {
    if (!Out.empty())
      Out += ' ';
    appendCounted(Out, V);
  }
  void field(Mpq &V) {
    std::string S = V.str();
    field(S);
  }
  void field(uint8_t &V) {
    unsigned U = V;
    field(U);
  }
  template <typename T> void field(std::vector<T> &V) {
    unsigned N = unsigned(V.size());
    field(N);
    for (T &E : V)
      field(E);
  }
};

class Reader {
public:
  explicit Reader(const std::string &In) : In(In) {}
  bool Ok = true;
  std::string Error;

  void fail(const std::string &Why) {
    if (Ok)
      Error = "token " + std::to_string(Token) + ": " + Why;
    Ok = false;
  }
  /// The next space-separated token (strings are read by field()).
  std::string token() {
    if (!Ok)
      return "";
    if (Pos < In.size() && Token > 0) {
      if (In[Pos] != ' ') {
        fail("expected a space");
        return "";
      }
      ++Pos;
    }
    ++Token;
    size_t End = In.find(' ', Pos);
    if (End == std::string::npos)
      End = In.size();
    std::string T = In.substr(Pos, End - Pos);
    if (T.empty())
      fail("missing");
    Pos = End;
    return T;
  }
  bool atEnd() const { return Pos == In.size(); }

  void field(unsigned &V) {
    int64_t I = integer();
    if (I < 0 || I > int64_t(UINT32_MAX))
      fail("not an unsigned value");
    V = unsigned(I);
  }
  void field(int &V) {
    int64_t I = integer();
    if (I < INT32_MIN || I > INT32_MAX)
      fail("out of range");
    V = int(I);
  }
  void field(int64_t &V) { V = integer(); }
  void field(bool &V) {
    std::string T = token();
    if (T != "0" && T != "1")
      fail("'" + T + "' is not 0 or 1");
    V = T == "1";
  }
  void field(double &V) {
    std::string T = token();
    if (!Ok)
      return;
    char *End = nullptr;
    V = std::strtod(T.c_str(), &End);
    if (End != T.c_str() + T.size())
      fail("'" + T + "' is not a number");
  }
  void field(std::string &V) {
    if (!Ok)
      return;
    if (Pos < In.size() && Token > 0) {
      if (In[Pos] != ' ')
        return fail("expected a space");
      ++Pos;
    }
    ++Token;
    std::string Why;
    if (!readCounted(In, Pos, V, Why))
      fail(Why);
  }
  void field(Mpq &V) {
    std::string S;
    field(S);
    if (!Ok)
      return;
    std::optional<Mpq> Q = parseExactDecimal(S);
    if (!Q)
      return fail("'" + S + "' is not a rational");
    V = std::move(*Q);
  }
  void field(uint8_t &V) {
    unsigned U = 0;
    field(U);
    if (U > 255)
      fail("exponent out of range");
    V = uint8_t(U);
  }
  template <typename T> void field(std::vector<T> &V) {
    unsigned N = 0;
    field(N);
    // Every element takes at least two characters.
    if (Ok && N > (In.size() - Pos) / 2)
      return fail("a length beyond the text");
    V.clear();
    V.resize(Ok ? N : 0);
    for (T &E : V)
      field(E);
  }

private:
  int64_t integer() {
    std::string T = token();
    if (!Ok)
      return 0;
    errno = 0;
    char *End = nullptr;
    long long I = std::strtoll(T.c_str(), &End, 10);
    if (errno || End != T.c_str() + T.size()) {
      fail("'" + T + "' is not an integer");
      return 0;
    }
    return I;
  }
  const std::string &In;
  size_t Pos = 0;
  unsigned Token = 0;
};

// One description per type, for both directions.
template <typename IO> void visit(IO &S, Predicate &P) {
  S.field(P.Lhs);
  S.field(P.RhsIsVariable);
  S.field(P.RhsVar);
  S.field(P.RhsConst);
}

template <typename IO> void visit(IO &S, RationalFunction &F) {
  S.field(F.NumVars);
  S.field(F.Scale);
  S.field(F.NumTerms);
  S.field(F.DenTerms);
  S.field(F.NumCoef);
  S.field(F.DenCoef);
  S.field(F.NumDegree);
  S.field(F.DenDegree);
  S.field(F.NumTotalDegree);
  S.field(F.DenSign);
  S.field(F.Exact);
  S.field(F.NumExact);
  S.field(F.DenExact);
  S.field(F.HasIntegerForm);
  S.field(F.NumInt);
  S.field(F.DenInt);
  S.field(F.NumMul);
  S.field(F.DenMul);
}

template <typename IO> void visit(IO &S, PieceStats &P) {
  S.field(P.Samples);
  S.field(P.TrainSamples);
  S.field(P.HeldOutSamples);
  S.field(P.HeldOutRule);
  S.field(P.Unknowns);
  S.field(P.Columns);
  S.field(P.Rank);
  S.field(P.Condition);
  S.field(P.Residual);
  S.field(P.ResidualMax);
  S.field(P.HeldOutError);
  S.field(P.HeldOutMax);
  S.field(P.RelativeWeights);
  S.field(P.CandidatesTried);
  S.field(P.RejectedByRegion);
  S.field(P.ExactTried);
  S.field(P.ExactNote);
}

template <typename IO> void visit(IO &S, RegionAxis &A) {
  S.field(A.IsRange);
  S.field(A.Lo);
  S.field(A.Hi);
  S.field(A.Values);
}

template <typename IO> void visit(IO &S, FitReport::CandidateBounds &B) {
  S.field(B.Num);
  S.field(B.Den);
  S.field(B.NumTotal);
  S.field(B.MonomialDen);
}

/// A vector of structured elements.
template <typename IO, typename T> void visitAll(IO &S, std::vector<T> &V) {
  unsigned N = unsigned(V.size());
  S.field(N);
  if constexpr (std::is_same_v<IO, Reader>) {
    if (S.Ok && N > 100000)
      return S.fail("too many elements");
    V.clear();
    V.resize(S.Ok ? N : 0);
  }
  for (T &E : V)
    visit(S, E);
}

template <typename IO> void visit(IO &S, FitReport &R) {
  FittedModel &M = R.Model;
  S.field(M.Target);
  S.field(M.Vars);
  S.field(M.IntegerArgs);
  S.field(M.NonNegative);
  unsigned Pieces = unsigned(M.Pieces.size());
  S.field(Pieces);
  if constexpr (std::is_same_v<IO, Reader>) {
    if (S.Ok && Pieces > 64)
      return S.fail("too many pieces");
    M.Pieces.assign(S.Ok ? Pieces : 0, Piece());
  }
  for (Piece &P : M.Pieces) {
    bool HasCondition = P.Condition.has_value();
    S.field(HasCondition);
    if (HasCondition && !P.Condition)
      P.Condition.emplace();
    if (!HasCondition)
      P.Condition.reset();
    if (P.Condition)
      visit(S, *P.Condition);
    visit(S, P.F);
  }
  visitAll(S, R.Stats);
  visitAll(S, R.Region);
  S.field(R.ExactData);
  S.field(R.SingleHeldOut);
  S.field(R.HeldOut);
  S.field(R.PredicatesTried);
  S.field(R.SplitsSelected);
  S.field(R.Seconds);
  S.field(R.Notes);
  S.field(R.Error);
  visitAll(S, R.Shortlist);
}

} // namespace

void appendCounted(std::string &Out, const std::string &S) {
  Out += std::to_string(S.size());
  Out += ':';
  Out += S;
}

bool readCounted(const std::string &In, size_t &Pos, std::string &Out,
                 std::string &Why) {
  size_t Colon = In.find(':', Pos);
  Why = "expected LENGTH:TEXT";
  if (Colon == std::string::npos || Colon == Pos || Colon - Pos > 9)
    return false;
  size_t N = 0;
  for (size_t I = Pos; I < Colon; ++I) {
    if (In[I] < '0' || In[I] > '9')
      return false;
    N = N * 10 + size_t(In[I] - '0');
  }
  if (N > In.size() - Colon - 1) {
    Why = "the text is shorter than its length";
    return false;
  }
  Out = In.substr(Colon + 1, N);
  Pos = Colon + 1 + N;
  Why.clear();
  return true;
}

std::string fitOptionsText(const FitOptions &Opt) {
  Writer W;
  FitOptions O = Opt;
  W.field(O.MaxNumDegree);
  W.field(O.MaxDenDegree);
  W.field(O.MaxNumDegreeSum);
  W.field(O.MaxDenDegreeSum);
  W.field(O.TotalDegreeVariants);
  bool HasFixed = O.FixedNum.has_value() && O.FixedDen.has_value();
  W.field(HasFixed);
  if (HasFixed) {
    W.field(*O.FixedNum);
    W.field(*O.FixedDen);
  }
  W.field(O.FixedDenMonomial);
  W.field(O.Extrapolate);
  W.field(O.HoldOutFraction);
  W.field(O.TieFactor);
  W.field(O.TieFloor);
  W.field(O.RCond);
  int Weights = int(O.Weights), Exact = int(O.Exact), Pieces = int(O.Pieces);
  W.field(Weights);
  W.field(O.RefineSteps);
  W.field(Exact);
  W.field(Pieces);
  W.field(O.PieceThreshold);
  W.field(O.ScreenCandidates);
  W.field(O.FullSplits);
  W.field(O.MaxSize);
  W.field(O.MaxBlock);
  W.field(O.BlockValuesSampled);
  W.field(O.MinThreads);
  W.field(O.AllowNegative);
  W.field(O.MaxCandidates);
  W.field(O.BoundedIn);
  return W.Out;
}

std::string saveFitReport(const FitReport &R) {
  Writer W;
  W.token(Format);
  FitReport Copy = R; // the visitors take non-const references
  visit(W, Copy);
  return W.Out;
}

bool loadFitReport(const std::string &Text, FitReport &R, std::string &Error) {
  Reader Rd(Text);
  std::string Version = Rd.token();
  if (Rd.Ok && Version != Format) {
    Error = "format '" + Version + "', expected '" + Format + "'";
    return false;
  }
  visit(Rd, R);
  if (Rd.Ok && !Rd.atEnd())
    Rd.fail("text after the end");
  // Structural checks the evaluators rely on.
  if (Rd.Ok)
    for (const Piece &P : R.Model.Pieces) {
      const RationalFunction &F = P.F;
      bool Bad = F.Scale.size() != F.NumVars ||
                 F.NumCoef.size() != F.NumTerms.size() ||
                 F.DenCoef.size() != F.DenTerms.size() ||
                 F.DenTerms.empty() ||
                 (F.Exact && (F.NumExact.size() != F.NumTerms.size() ||
                              F.DenExact.size() != F.DenTerms.size())) ||
                 (F.HasIntegerForm && (F.NumInt.size() != F.NumTerms.size() ||
                                       F.DenInt.size() != F.DenTerms.size())) ||
                 F.NumVars != R.Model.Vars.size() ||
                 (P.Condition && (P.Condition->Lhs >= F.NumVars ||
                                  (P.Condition->RhsIsVariable &&
                                   P.Condition->RhsVar >= F.NumVars)));
      for (const auto *Terms : {&F.NumTerms, &F.DenTerms})
        for (const Exponents &E : *Terms)
          Bad = Bad || E.size() != F.NumVars;
      if (Bad) {
        Rd.fail("inconsistent function");
        break;
      }
    }
  if (!Rd.Ok) {
    Error = Rd.Error;
    return false;
  }
  return true;
}

} // namespace fitting
} // namespace klaraptor
