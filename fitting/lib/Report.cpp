//===- Report.cpp - text and JSON reports of a fit ------------------------===//
///
/// \file
/// The layouts are documented in docs/cli.md (text) and by the keys
/// themselves (JSON); doubles in JSON are "%.17g", non-finite ones null.
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/Report.h"

#include <cmath>
#include <cstdio>

namespace klaraptor {
namespace fitting {

static std::string fmt(double V, int Digits = 3) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.*g", Digits, V);
  return Buf;
}

std::string jsonString(const std::string &S) {
  std::string O = "\"";
  for (char C : S) {
    switch (C) {
    case '"':
      O += "\\\"";
      break;
    case '\\':
      O += "\\\\";
      break;
    case '\n':
      O += "\\n";
      break;
    case '\t':
      O += "\\t";
      break;
    default:
      if ((unsigned char)C < 0x20) {
        char Buf[8];
        std::snprintf(Buf, sizeof Buf, "\\u%04x", C);
        O += Buf;
      } else {
        O += C;
      }
    }
  }
  return O + "\"";
}

std::string jsonNumber(double V) {
  if (!std::isfinite(V))
    return "null";
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.17g", V);
  return Buf;
}

static std::string degrees(const std::vector<std::string> &Vars,
                           const std::vector<unsigned> &D) {
  if (Vars.empty())
    return "constant";
  std::string S;
  for (size_t V = 0; V < Vars.size(); ++V)
    S += (V ? " " : "") + Vars[V] + "<=" + std::to_string(D[V]);
  return S;
}

static void pieceText(std::string &S, const FitReport &R, size_t I,
                      const std::string &Ind) {
  const RationalFunction &F = R.Model.Pieces[I].F;
  const PieceStats &St = R.Stats[I];
  const auto &Vars = R.Model.Vars;
  S += Ind + "function: " + F.str(Vars) + "\n";
  if (St.ExactTried)
    S += Ind + "exact: " + (F.Exact ? "yes (" : "no (") + St.ExactNote + ")\n";
  else
    S += Ind + "exact: no (not attempted: not every value is an integer or a "
               "fraction p/q)\n";
  S += Ind + "degrees: numerator " + degrees(Vars, F.NumDegree) +
       (F.NumTotalDegree ? " total<=" + std::to_string(F.NumTotalDegree)
                         : std::string()) +
       "; denominator " +
       (F.isPolynomial() ? std::string("1 (polynomial)")
        : F.DenTerms.size() == 1
            ? monomialStr(F.DenTerms[0], Vars) + " (one term)"
            : degrees(Vars, F.DenDegree)) +
       "\n";
  S += Ind + "unknowns: " + std::to_string(St.Unknowns) + " (" +
       std::to_string(St.Columns) + (St.Columns == 1 ? " column" : " columns") +
       ", numerical rank " + std::to_string(St.Rank) + ", condition number " +
       fmt(St.Condition) + ")\n";
  if (!F.isPolynomial() && St.Rank + 1 < int(St.Columns))
    S += Ind + "note: the solution is not unique (null space of dimension " +
         std::to_string(int(St.Columns) - St.Rank) + ")\n";
  else if (F.isPolynomial() && St.Rank < int(St.Columns))
    S += Ind + "note: rank-deficient; the minimum-norm solution is used\n";
  S += Ind + "samples: " + std::to_string(St.Samples) + " (" +
       std::to_string(St.TrainSamples) + " training, " +
       std::to_string(St.HeldOutSamples) + " held out: " + St.HeldOutRule +
       ")\n";
  S += Ind + "residual: " + fmt(St.Residual) + " rms relative (max " +
       fmt(St.ResidualMax) + ", " +
       (St.RelativeWeights ? "relative" : "absolute") + " weights)\n";
  S += Ind + "held-out error: " + fmt(St.HeldOutError) + " rms relative (max " +
       fmt(St.HeldOutMax) + ")\n";
  S += Ind + "candidates: " + std::to_string(St.CandidatesTried) + " tried, " +
       std::to_string(St.RejectedByRegion) +
       " rejected by the denominator check\n";
}

std::string formatReport(const FitReport &R) {
  std::string S;
  const FittedModel &M = R.Model;
  std::string Vars;
  for (size_t V = 0; V < M.Vars.size(); ++V)
    Vars += (V ? ", " : "") + M.Vars[V];
  S += "target: " + M.Target + "\n";
  S += "variables: " + (Vars.empty() ? std::string("(none)") : Vars) + "\n";
  if (M.Pieces.size() == 1) {
    pieceText(S, R, 0, "");
  } else {
    S += "function: " + std::to_string(M.Pieces.size()) + " pieces\n";
    for (size_t I = 0; I < M.Pieces.size(); ++I) {
      const Piece &P = M.Pieces[I];
      S += "piece " + std::to_string(I + 1) + ": " +
           (P.Condition ? "if " + P.Condition->str(M.Vars) : "otherwise") +
           "\n";
      pieceText(S, R, I, "  ");
    }
    S +=
        "held-out error: " + fmt(R.HeldOut) +
        " rms relative over the pieces (one function: " + fmt(R.SingleHeldOut) +
        ")\n";
  }
  std::string Reg;
  for (size_t V = 0; V < R.Region.size(); ++V)
    Reg += (V ? "; " : "") + M.Vars[V] + " in " + R.Region[V].str();
  if (!Reg.empty())
    S += "region: " + Reg + "\n";
  for (const auto &N : R.Notes)
    S += "note: " + N + "\n";
  S += "fit time: " + fmt(R.Seconds * 1e3, 3) + " ms\n";
  return S;
}

static std::string terms(const RationalFunction &F, bool Num) {
  const auto &T = Num ? F.NumTerms : F.DenTerms;
  std::string S = "[";
  for (size_t I = 0; I < T.size(); ++I) {
    S += I ? ", " : "";
    S += "{\"exponents\": [";
    for (size_t V = 0; V < T[I].size(); ++V)
      S += (V ? ", " : "") + std::to_string(T[I][V]);
    S += "], \"coefficient\": " +
         jsonNumber(Num ? F.numCoefOriginal(I) : F.denCoefOriginal(I));
    S += ", \"scaled\": " + jsonNumber(Num ? F.NumCoef[I] : F.DenCoef[I]);
    if (F.Exact)
      S += ", \"exact\": " +
           jsonString((Num ? F.NumExact[I] : F.DenExact[I]).str());
    S += "}";
  }
  return S + "]";
}

static std::string degreeObject(const std::vector<std::string> &Vars,
                                const std::vector<unsigned> &D) {
  std::string S = "{";
  for (size_t V = 0; V < Vars.size(); ++V)
    S += (V ? ", " : "") + jsonString(Vars[V]) + ": " + std::to_string(D[V]);
  return S + "}";
}

std::string formatReportJson(const FitReport &R) {
  const FittedModel &M = R.Model;
  std::string S = "{\n";
  S += "  \"target\": " + jsonString(M.Target) + ",\n";
  S += "  \"variables\": [";
  for (size_t V = 0; V < M.Vars.size(); ++V)
    S += (V ? ", " : "") + jsonString(M.Vars[V]);
  S += "],\n";
  S += "  \"function\": " + jsonString(M.str()) + ",\n";
  S += "  \"exact\": " + std::string(M.exact() ? "true" : "false") + ",\n";
  S += "  \"exact_data\": " + std::string(R.ExactData ? "true" : "false") +
       ",\n";
  S += "  \"integer_arguments\": " +
       std::string(M.IntegerArgs ? "true" : "false") + ",\n";
  S += "  \"non_negative\": " + std::string(M.NonNegative ? "true" : "false") +
       ",\n";
  S += "  \"held_out_error\": " + jsonNumber(R.HeldOut) + ",\n";
  S += "  \"single_held_out_error\": " + jsonNumber(R.SingleHeldOut) + ",\n";
  S += "  \"fit_seconds\": " + jsonNumber(R.Seconds) + ",\n";
  S += "  \"region\": [";
  for (size_t V = 0; V < R.Region.size(); ++V) {
    const RegionAxis &A = R.Region[V];
    S += V ? ", " : "";
    S += "{\"variable\": " + jsonString(M.Vars[V]);
    if (A.IsRange) {
      S += ", \"range\": [" + jsonNumber(A.Lo) + ", " + jsonNumber(A.Hi) + "]}";
    } else {
      S += ", \"values\": [";
      for (size_t I = 0; I < A.Values.size(); ++I)
        S += (I ? ", " : "") + jsonNumber(A.Values[I]);
      S += "]}";
    }
  }
  S += "],\n  \"pieces\": [\n";
  for (size_t I = 0; I < M.Pieces.size(); ++I) {
    const Piece &P = M.Pieces[I];
    const RationalFunction &F = P.F;
    const PieceStats &St = R.Stats[I];
    S += "    {\n";
    S += "      \"condition\": " +
         (P.Condition ? jsonString(P.Condition->str(M.Vars))
                      : std::string("null")) +
         ",\n";
    S += "      \"function\": " + jsonString(F.str(M.Vars, 17)) + ",\n";
    S += "      \"exact\": " + std::string(F.Exact ? "true" : "false") + ",\n";
    S += "      \"exact_note\": " + jsonString(St.ExactNote) + ",\n";
    S += "      \"numerator_degrees\": " + degreeObject(M.Vars, F.NumDegree) +
         ",\n";
    S += "      \"numerator_total_degree\": " +
         (F.NumTotalDegree ? std::to_string(F.NumTotalDegree)
                           : std::string("null")) +
         ",\n";
    S += "      \"denominator_degrees\": " + degreeObject(M.Vars, F.DenDegree) +
         ",\n";
    S += "      \"unknowns\": " + std::to_string(St.Unknowns) + ",\n";
    S += "      \"columns\": " + std::to_string(St.Columns) + ",\n";
    S += "      \"rank\": " + std::to_string(St.Rank) + ",\n";
    S += "      \"condition_number\": " + jsonNumber(St.Condition) + ",\n";
    S += "      \"samples\": " + std::to_string(St.Samples) + ",\n";
    S += "      \"train_samples\": " + std::to_string(St.TrainSamples) + ",\n";
    S += "      \"held_out_samples\": " + std::to_string(St.HeldOutSamples) +
         ",\n";
    S += "      \"held_out_rule\": " + jsonString(St.HeldOutRule) + ",\n";
    S += "      \"residual\": " + jsonNumber(St.Residual) + ",\n";
    S += "      \"residual_max\": " + jsonNumber(St.ResidualMax) + ",\n";
    S += "      \"held_out_error\": " + jsonNumber(St.HeldOutError) + ",\n";
    S += "      \"held_out_max\": " + jsonNumber(St.HeldOutMax) + ",\n";
    S += "      \"relative_weights\": " +
         std::string(St.RelativeWeights ? "true" : "false") + ",\n";
    S += "      \"candidates_tried\": " + std::to_string(St.CandidatesTried) +
         ",\n";
    S +=
        "      \"rejected_by_region\": " + std::to_string(St.RejectedByRegion) +
        ",\n";
    S += "      \"scales\": [";
    for (size_t V = 0; V < F.Scale.size(); ++V)
      S += (V ? ", " : "") + jsonNumber(F.Scale[V]);
    S += "],\n";
    S += "      \"denominator_sign\": " + std::to_string(F.DenSign) + ",\n";
    S += "      \"numerator\": " + terms(F, true) + ",\n";
    S += "      \"denominator\": " + terms(F, false) + "\n";
    S += std::string("    }") + (I + 1 < M.Pieces.size() ? ",\n" : "\n");
  }
  S += "  ],\n  \"notes\": [";
  for (size_t I = 0; I < R.Notes.size(); ++I)
    S += (I ? ", " : "") + jsonString(R.Notes[I]);
  S += "]\n}\n";
  return S;
}

} // namespace fitting
} // namespace klaraptor
