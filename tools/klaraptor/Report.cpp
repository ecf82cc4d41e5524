//===- Report.cpp - klaraptor report --------------------------------------===//
///
/// \file
/// USAGE: klaraptor report [--db FILE] [--kernel NAME] [--size NAME=V,...]
///                         [--device PROFILE] [--html FILE] [--json]
///
/// How good is the fitted model? For each kernel of a profile database
/// (docs/profile-db.md) fits its rational program (model/fit, klaraptor/model/KernelFit.h) and shows the
/// fit quality per quantity, the agreement of predicted and measured times
/// over all samples, and, at one data tuple (the largest measured one, or
/// --size), every block shape's measured and predicted time with their
/// ranks, the measured-best shape, the shape the model chooses (least
/// predicted time) and the ratio of their measured times. As a terminal
/// table, as JSON (--json) and as one self-contained HTML page with inline
/// SVG plots (--html). docs/cli.md describes the options.
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Options.h"
#include "klaraptor/model/KernelFit.h"

#include "KernelSpec.h"
#include "klaraptor/fitting/Report.h"
#include "klaraptor/model/PerformanceModel.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

#ifndef KLARAPTOR_VERSION
#define KLARAPTOR_VERSION "unknown"
#endif

using namespace klaraptor::modelfit;

namespace klaraptor {
namespace cli {

const char *reportUsage() {
  return R"(USAGE: klaraptor report [--db FILE] [OPTIONS]

Fits each kernel of a profile database (written by 'klaraptor profile') as
'klaraptor fit' does and reports how well the model does: the fit of each
quantity, the agreement of predicted and measured times over all samples,
and, at one data tuple, every block shape's measured and predicted time, the
measured-best shape, the shape the model chooses (least predicted time) and
best/chosen, the ratio of their measured times (1 = the model chose the best).

OPTIONS:
  --db FILE           the profile database (default klaraptor-profile.db)
  --kernel NAME       report only this kernel (device or source name; a
                      template's name: each of its specializations)
  --size NAME=V,...   the data tuple shown per shape (default: the largest
                      measured one, by the product of its values)
  --device PROFILE    the device profile whose MWP-CWP parameters the model
                      uses (default: the database's device)
  --min-samples N     fewest usable samples a kernel needs (default 6)
  --html FILE         also write the report as one self-contained HTML page
  --json              print the report as JSON instead of the tables
)";
}

namespace {

using fitting::jsonNumber;
using fitting::jsonString;
using profiledb::DataTuple;

std::string fmt(const char *Format, double V) {
  if (!std::isfinite(V))
    return "-";
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, Format, V);
  return Buf;
}


/// "N=64,M=32" (keys sorted); "(none)" for a kernel without data parameters.
/// "N=16,M=8": the names in \p Order (the pragma's data order, as the user
/// wrote them) first, then any others in key order.
std::string tupleText(const DataTuple &T,
                      const std::vector<std::string> &Order = {}) {
  if (T.empty())
    return "(none)";
  std::string S;
  auto Add = [&](const std::string &K, int64_t V) {
    S += (S.empty() ? "" : ",") + K + "=" + std::to_string(V);
  };
  for (const std::string &K : Order)
    if (auto It = T.find(K); It != T.end())
      Add(K, It->second);
  for (const auto &[K, V] : T)
    if (std::find(Order.begin(), Order.end(), K) == Order.end())
      Add(K, V);
  return S;
}

std::string htmlEscape(const std::string &S) {
  std::string R;
  for (char C : S) {
    switch (C) {
    case '&':
      R += "&amp;";
      break;
    case '<':
      R += "&lt;";
      break;
    case '>':
      R += "&gt;";
      break;
    case '"':
      R += "&quot;";
      break;
    case '\'':
      R += "&#39;";
      break;
    default:
      R += C;
    }
  }
  return R;
}

/// "N=64,M=32": names and integer values; false with \p Err otherwise.
bool parseSize(const std::string &Text, DataTuple &Out, std::string &Err) {
  Out.clear();
  size_t Start = 0;
  while (true) {
    size_t End = Text.find(',', Start);
    std::string Item = Text.substr(
        Start, End == std::string::npos ? std::string::npos : End - Start);
    size_t Eq = Item.find('=');
    bool Ok = Eq != std::string::npos && Eq > 0 && Eq + 1 < Item.size();
    if (Ok) {
      for (size_t I = 0; I < Eq; ++I) {
        char C = Item[I];
        if (!(std::isalpha((unsigned char)C) || C == '_' ||
              (I && std::isdigit((unsigned char)C))))
          Ok = false;
      }
    }
    long long V = 0;
    if (Ok) {
      char *Stop = nullptr;
      errno = 0;
      V = std::strtoll(Item.c_str() + Eq + 1, &Stop, 10);
      Ok = Stop && !*Stop && !errno;
    }
    if (!Ok) {
      Err = "--size: expected NAME=INTEGER[,NAME=INTEGER...], found '" + Item +
            "' in '" + Text + "'";
      return false;
    }
    std::string Name = Item.substr(0, Eq);
    if (Out.count(Name)) {
      Err = "--size: '" + Name + "' given twice in '" + Text + "'";
      return false;
    }
    Out[Name] = V;
    if (End == std::string::npos)
      break;
    Start = End + 1;
  }
  return true;
}

/// One block shape at the chosen data tuple.
struct ShapeRow {
  uint32_t Block[3] = {1, 1, 1};
  int64_t LaunchId = 0;
  double Measured = 0;
  double Predicted = NAN; ///< NaN when the model cannot predict
  std::string Why;        ///< why not
  unsigned MeasuredRank = 0, PredictedRank = 0; ///< 1-based; 0: none
  bool Best = false, Chosen = false;
  uint64_t threads() const { return uint64_t(Block[0]) * Block[1] * Block[2]; }
};

/// One point of the scatter plot (every usable sample).
struct Point {
  DataTuple Data;
  uint32_t Block[3] = {1, 1, 1};
  double Measured = 0, Predicted = NAN;
  bool AtSize = false;
};

/// What the report shows of one kernel.
struct KernelReport {
  std::string Name, SourceName;
  /// The data parameters in the pragma's order (how sizes are printed).
  std::vector<std::string> DataOrder;
  /// The source name, a person's name for the kernel (the device name when
  /// the spec has none).
  const std::string &shown() const {
    return SourceName.empty() ? Name : SourceName;
  }
  bool Ok = false;
  std::string Error;
  KernelFit Fit;
  DataTuple Size;
  std::vector<DataTuple> Available; ///< data tuples with usable samples
  std::vector<ShapeRow> Shapes;     ///< sorted by measured time
  unsigned FailedAtSize = 0;        ///< samples at Size whose status is not ok
  int Best = -1, Chosen = -1;       ///< indices into Shapes
  double Ratio = NAN;               ///< measured(best) / measured(chosen)
  std::vector<Point> Points;
};

uint64_t weight(const DataTuple &T) {
  double P = 1;
  for (const auto &KV : T)
    P *= double(KV.second);
  return uint64_t(std::max(0.0, std::min(P, 1.8e19)));
}

/// Fills \p R for \p Row: fit, data tuple, shapes. False with R.Error.
bool reportKernel(profiledb::ProfileDb &Db, const profiledb::KernelRow &Row,
                  const KernelFitOptions &O,
                  const std::optional<DataTuple> &Wanted, KernelReport &R) {
  if (!fitKernel(Db, Row, O, R.Fit, R.Error))
    return false;
  std::vector<profiledb::SampleRow> Samples;
  if (!Db.samplesOf(Row.Id, Samples, R.Error))
    return false;

  // Usable samples by data tuple; a shape measured twice counts once (the
  // first sample, as profile records it).
  std::map<DataTuple, std::vector<const profiledb::SampleRow *>> ByTuple;
  std::map<DataTuple, unsigned> Failed;
  for (const profiledb::SampleRow &S : Samples) {
    if (S.Status != "ok" || !(S.TimeNs > 0)) {
      ++Failed[S.Data];
      continue;
    }
    auto &V = ByTuple[S.Data];
    bool Dup = false;
    for (const profiledb::SampleRow *P : V)
      Dup |= std::equal(P->Block, P->Block + 3, S.Block);
    if (!Dup)
      V.push_back(&S);
  }
  if (ByTuple.empty()) {
    R.Error = "kernel " + Row.displayName() + ": no sample with status ok";
    return false;
  }
  for (const auto &KV : ByTuple)
    R.Available.push_back(KV.first);

  if (Wanted) {
    const DataTuple *Match = nullptr;
    for (const DataTuple &T : R.Available) {
      bool M = true;
      for (const auto &[K, V] : T) {
        auto It = Wanted->find(K);
        M &= It != Wanted->end() && It->second == V;
      }
      if (M)
        Match = &T;
    }
    if (!Match) {
      std::string List;
      for (const DataTuple &T : R.Available)
        List += (List.empty() ? "" : "; ") + tupleText(T, R.DataOrder);
      std::string Missing;
      for (const auto &KV : R.Available.front())
        if (!Wanted->count(KV.first))
          Missing += (Missing.empty() ? "" : ", ") + KV.first;
      R.Error =
          "kernel " + Row.displayName() + ": no samples at --size " +
          tupleText(*Wanted, R.DataOrder) +
          (Missing.empty() ? "" : " (it gives no value for " + Missing + ")") +
          "; measured data tuples: " + List;
      return false;
    }
    R.Size = *Match;
  } else {
    // The largest by product of values; ties: the later in key order.
    const DataTuple *Largest = &R.Available.front();
    for (const DataTuple &T : R.Available)
      if (weight(T) >= weight(*Largest))
        Largest = &T;
    R.Size = *Largest;
  }
  R.FailedAtSize = Failed[R.Size];

  for (const auto &[T, V] : ByTuple)
    for (const profiledb::SampleRow *S : V) {
      Point P;
      P.Data = T;
      std::copy(S->Block, S->Block + 3, P.Block);
      P.Measured = S->TimeNs;
      std::string Why;
      if (!R.Fit.predictNs(S->Data, S->Block, P.Predicted, Why) ||
          !std::isfinite(P.Predicted))
        P.Predicted = NAN;
      P.AtSize = T == R.Size;
      R.Points.push_back(P);
      if (!P.AtSize)
        continue;
      ShapeRow SR;
      std::copy(S->Block, S->Block + 3, SR.Block);
      SR.LaunchId = S->LaunchId;
      SR.Measured = S->TimeNs;
      SR.Predicted = P.Predicted;
      if (!std::isfinite(SR.Predicted))
        SR.Why = Why.empty() ? "not finite" : Why;
      R.Shapes.push_back(SR);
    }

  auto ByMeasured = [](const ShapeRow &A, const ShapeRow &B) {
    if (A.Measured != B.Measured)
      return A.Measured < B.Measured;
    return A.threads() < B.threads();
  };
  std::stable_sort(R.Shapes.begin(), R.Shapes.end(), ByMeasured);
  // Ranks: 1 = least time; equal times share a rank.
  for (size_t I = 0; I < R.Shapes.size(); ++I) {
    unsigned M = 1, P = 1;
    for (const ShapeRow &O2 : R.Shapes) {
      M += O2.Measured < R.Shapes[I].Measured;
      if (std::isfinite(R.Shapes[I].Predicted) && std::isfinite(O2.Predicted))
        P += O2.Predicted < R.Shapes[I].Predicted;
    }
    R.Shapes[I].MeasuredRank = M;
    R.Shapes[I].PredictedRank = std::isfinite(R.Shapes[I].Predicted) ? P : 0;
  }
  R.Best = 0;
  R.Shapes[0].Best = true;
  for (size_t I = 0; I < R.Shapes.size(); ++I)
    if (std::isfinite(R.Shapes[I].Predicted) &&
        (R.Chosen < 0 || R.Shapes[I].Predicted < R.Shapes[R.Chosen].Predicted))
      R.Chosen = int(I);
  if (R.Chosen >= 0) {
    R.Shapes[R.Chosen].Chosen = true;
    R.Ratio = R.Shapes[R.Best].Measured / R.Shapes[R.Chosen].Measured;
  }
  R.Ok = true;
  return true;
}

//===----------------------------------------------------------------------===//
// Terminal
//===----------------------------------------------------------------------===//

void printKernel(const KernelReport &R) {
  const KernelFit &F = R.Fit;
  std::string Vs;
  for (size_t V = 0; V < F.Vars.size(); ++V)
    Vs += (V ? ", " : "") + F.Vars[V];
  std::printf("kernel %s (%s; variables %s): %u samples (%u failed), "
              "device %s\n",
              R.shown().c_str(), R.Name.c_str(), Vs.c_str(), F.SamplesUsed,
              F.SamplesFailed, F.Device.c_str());
  std::printf("  fit:\n");
  size_t NameW = 22, FormW = 8;
  for (const FittedQuantity &Q : F.Quantities) {
    NameW = std::max(NameW, Q.Name.size());
    FormW = std::max(FormW, cutForm(Q.form()).size());
  }
  std::printf("    %s %s %-10s %-10s %s\n", pad("quantity", NameW).c_str(),
              pad("form", FormW).c_str(), "residual", "held-out", "exact");
  for (const FittedQuantity &Q : F.Quantities) {
    // Long forms are cut here; JSON and HTML have them whole.
    std::string Form = cutForm(Q.form());
    std::printf("    %s %s %-10s %-10s %s\n", pad(Q.Name, NameW).c_str(),
                pad(Form, FormW).c_str(), fmt("%.3g", Q.residual()).c_str(),
                fmt("%.3g", Q.heldOut()).c_str(), Q.exact() ? "yes" : "no");
  }
  if (F.Agree.Samples)
    std::printf("  %s\n", F.Agree.str().c_str());
  else
    std::printf("  agreement: no sample with a positive measured and "
                "predicted time\n");
  for (const std::string &W : F.Warnings)
    std::printf("  note: %s\n", W.c_str());

  std::printf("  size %s: %zu block shapes", tupleText(R.Size, R.DataOrder).c_str(),
              R.Shapes.size());
  if (R.FailedAtSize)
    std::printf(" (%u more failed)", R.FailedAtSize);
  std::printf(", sorted by measured time\n");
  std::printf("    %s %14s %14s %7s %7s\n", pad("block", 14).c_str(),
              "measured-ns", "predicted-ns", "rank-m", "rank-p");
  for (const ShapeRow &S : R.Shapes) {
    std::string Mark;
    if (S.Best)
      Mark += " best";
    if (S.Chosen)
      Mark += " chosen";
    if (!S.Why.empty())
      Mark += " (cannot predict: " + S.Why + ")";
    std::printf("    %s %14s %14s %7u %7s%s\n",
                pad(profiledb::blockText(S.Block), 14).c_str(),
                fmt("%.6g", S.Measured).c_str(),
                fmt("%.6g", S.Predicted).c_str(), S.MeasuredRank,
                S.PredictedRank ? std::to_string(S.PredictedRank).c_str() : "-",
                Mark.c_str());
  }
  if (R.Chosen >= 0)
    std::printf("  best/chosen measured time: %.4f (best %s %.6g ns, chosen %s "
                "%.6g ns)\n",
                R.Ratio, profiledb::blockText(R.Shapes[R.Best].Block).c_str(),
                R.Shapes[R.Best].Measured,
                profiledb::blockText(R.Shapes[R.Chosen].Block).c_str(),
                R.Shapes[R.Chosen].Measured);
  else
    std::printf("  best/chosen measured time: - (the model predicts no shape "
                "at this size)\n");
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

std::string jsonTuple(const DataTuple &T) {
  std::string S = "{";
  for (const auto &[K, V] : T)
    S += (S.size() > 1 ? ", " : "") + jsonString(K) + ": " + std::to_string(V);
  return S + "}";
}

std::string jsonBlock(const uint32_t B[3]) {
  return "[" + std::to_string(B[0]) + ", " + std::to_string(B[1]) + ", " +
         std::to_string(B[2]) + "]";
}

std::string jsonKernel(const KernelReport &R) {
  std::string S = "{\"kernel\": " + jsonString(R.Name) +
                  ", \"source_name\": " + jsonString(R.SourceName) +
                  ",\n  \"fit\": " + R.Fit.json();
  S += ",\n  \"size\": " + jsonTuple(R.Size);
  S += ", \"sizes\": [";
  for (size_t I = 0; I < R.Available.size(); ++I)
    S += (I ? ", " : "") + jsonTuple(R.Available[I]);
  S += "], \"failed_at_size\": " + std::to_string(R.FailedAtSize);
  S += ",\n  \"shapes\": [";
  for (size_t I = 0; I < R.Shapes.size(); ++I) {
    const ShapeRow &H = R.Shapes[I];
    S += std::string(I ? ",\n" : "\n") +
         "    {\"block\": " + jsonBlock(H.Block) +
         ", \"launch_id\": " + std::to_string(H.LaunchId) +
         ", \"measured_ns\": " + jsonNumber(H.Measured) +
         ", \"predicted_ns\": " + jsonNumber(H.Predicted) +
         ", \"measured_rank\": " + std::to_string(H.MeasuredRank) +
         ", \"predicted_rank\": " +
         (H.PredictedRank ? std::to_string(H.PredictedRank) : "null") +
         ", \"best\": " + (H.Best ? "true" : "false") +
         ", \"chosen\": " + (H.Chosen ? "true" : "false") + "}";
  }
  S += "],\n  \"best\": " + std::to_string(R.Best) +
       ", \"chosen\": " + (R.Chosen >= 0 ? std::to_string(R.Chosen) : "null") +
       ", \"best_over_chosen\": " + jsonNumber(R.Ratio);
  S += ",\n  \"samples\": [";
  for (size_t I = 0; I < R.Points.size(); ++I) {
    const Point &P = R.Points[I];
    S += std::string(I ? ",\n" : "\n") + "    {\"data\": " + jsonTuple(P.Data) +
         ", \"block\": " + jsonBlock(P.Block) +
         ", \"measured_ns\": " + jsonNumber(P.Measured) +
         ", \"predicted_ns\": " + jsonNumber(P.Predicted) + "}";
  }
  return S + "]}";
}

//===----------------------------------------------------------------------===//
// HTML
//===----------------------------------------------------------------------===//

std::string num(double V, const char *F = "%.1f") {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, F, V);
  return Buf;
}

/// A log10 axis range covering [Lo, Hi], whole decades.
void decades(double Lo, double Hi, double &L0, double &L1) {
  L0 = std::floor(std::log10(Lo));
  L1 = std::ceil(std::log10(Hi));
  if (L1 <= L0)
    L1 = L0 + 1;
}

std::string tickLabel(int E) {
  static const char *Names[] = {"1 ns",   "10 ns",  "100 ns", "1 \u00b5s",
                                "10 \u00b5s",  "100 \u00b5s", "1 ms",   "10 ms",
                                "100 ms", "1 s",    "10 s",   "100 s"};
  if (E >= 0 && E < 12)
    return Names[E];
  return "1e" + std::to_string(E) + " ns";
}

/// Predicted vs measured, log-log, every sample; those at the chosen size
/// highlighted.
std::string scatterSvg(const KernelReport &R) {
  // The legend sits in the top margin, above the plot: it never covers a
  // point.
  const double W = 460, H = 420, ML = 70, MR = 20, MT = 40, MB = 50;
  double Lo = INFINITY, Hi = 0;
  for (const Point &P : R.Points)
    if (std::isfinite(P.Predicted) && P.Predicted > 0) {
      Lo = std::min({Lo, P.Measured, P.Predicted});
      Hi = std::max({Hi, P.Measured, P.Predicted});
    }
  std::string S = "<svg class=\"scatter\" xmlns=\"http://www.w3.org/2000/svg\" "
                  "width=\"" +
                  num(W, "%.0f") + "\" height=\"" + num(H, "%.0f") +
                  "\" role=\"img\"><title>" + htmlEscape(R.shown()) +
                  ": predicted vs measured time (log-log)</title>\n";
  if (!(Hi > 0)) {
    S += "<text x=\"20\" y=\"40\">no sample the model predicts</text></svg>\n";
    return S;
  }
  double L0, L1;
  decades(Lo, Hi, L0, L1);
  double PW = W - ML - MR, PH = H - MT - MB;
  auto X = [&](double V) { return ML + (std::log10(V) - L0) / (L1 - L0) * PW; };
  auto Y = [&](double V) {
    return MT + PH - (std::log10(V) - L0) / (L1 - L0) * PH;
  };
  S += "<rect x=\"" + num(ML) + "\" y=\"" + num(MT) + "\" width=\"" + num(PW) +
       "\" height=\"" + num(PH) + "\" fill=\"none\" stroke=\"#888\"/>\n";
  for (int E = int(L0); E <= int(L1); ++E) {
    double V = std::pow(10.0, E);
    S += "<line x1=\"" + num(X(V)) + "\" y1=\"" + num(MT) + "\" x2=\"" +
         num(X(V)) + "\" y2=\"" + num(MT + PH) +
         "\" stroke=\"#ddd\"/><line x1=\"" + num(ML) + "\" y1=\"" + num(Y(V)) +
         "\" x2=\"" + num(ML + PW) + "\" y2=\"" + num(Y(V)) +
         "\" stroke=\"#ddd\"/>\n";
    S += "<text x=\"" + num(X(V)) + "\" y=\"" + num(MT + PH + 16) +
         "\" text-anchor=\"middle\" font-size=\"11\">" + tickLabel(E) +
         "</text><text x=\"" + num(ML - 4) + "\" y=\"" + num(Y(V) + 4) +
         "\" text-anchor=\"end\" font-size=\"11\">" + tickLabel(E) +
         "</text>\n";
  }
  double D0 = std::pow(10.0, L0), D1 = std::pow(10.0, L1);
  S += "<line x1=\"" + num(X(D0)) + "\" y1=\"" + num(Y(D0)) + "\" x2=\"" +
       num(X(D1)) + "\" y2=\"" + num(Y(D1)) +
       "\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n";
  // Other sizes first, the chosen size on top.
  for (int Pass = 0; Pass < 2; ++Pass)
    for (const Point &P : R.Points) {
      if (P.AtSize != (Pass == 1) || !std::isfinite(P.Predicted) ||
          !(P.Predicted > 0))
        continue;
      S += "<circle cx=\"" + num(X(P.Measured)) + "\" cy=\"" +
           num(Y(P.Predicted)) + "\" r=\"" + (P.AtSize ? "4.5" : "3") +
           "\" fill=\"" + (P.AtSize ? "#d62728" : "#1f77b4") +
           "\" fill-opacity=\"" + (P.AtSize ? "0.9" : "0.45") + "\"><title>" +
           htmlEscape(tupleText(P.Data, R.DataOrder) + " block " + profiledb::blockText(P.Block) +
                      ": measured " + num(P.Measured, "%.6g") +
                      " ns, predicted " + num(P.Predicted, "%.6g") + " ns") +
           "</title></circle>\n";
    }
  S += "<text x=\"" + num(ML + PW / 2) + "\" y=\"" + num(H - 12) +
       "\" text-anchor=\"middle\" font-size=\"12\">measured time per launch "
       "(log scale)</text>\n";
  S += "<text transform=\"translate(14 " + num(MT + PH / 2) +
       ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">predicted "
       "time per launch (log scale)</text>\n";
  S += "<text x=\"" + num(ML) + "\" y=\"" + num(MT - 24) +
       "\" font-size=\"11\" fill=\"#d62728\">&#9679; size " +
       htmlEscape(tupleText(R.Size, R.DataOrder)) + "</text><text x=\"" +
       num(ML) + "\" y=\"" + num(MT - 10) +
       "\" font-size=\"11\" fill=\"#1f77b4\">&#9679; other sizes</text>\n";
  return S + "</svg>\n";
}

/// Measured and predicted time over the block shapes at the chosen size,
/// shapes sorted by threads per block (log y).
std::string shapesSvg(const KernelReport &R) {
  std::vector<const ShapeRow *> Order;
  for (const ShapeRow &S : R.Shapes)
    Order.push_back(&S);
  std::stable_sort(Order.begin(), Order.end(),
                   [](const ShapeRow *A, const ShapeRow *B) {
                     if (A->threads() != B->threads())
                       return A->threads() < B->threads();
                     return std::lexicographical_compare(
                         A->Block, A->Block + 3, B->Block, B->Block + 3);
                   });
  // The legend sits in the top margin, above the plot.
  const double ML = 70, MR = 20, MT = 40, MB = 80;
  const double W = std::max(460.0, ML + MR + 28.0 * Order.size()), H = 420;
  double Lo = INFINITY, Hi = 0;
  for (const ShapeRow *S : Order) {
    Lo = std::min(Lo, S->Measured);
    Hi = std::max(Hi, S->Measured);
    if (std::isfinite(S->Predicted) && S->Predicted > 0) {
      Lo = std::min(Lo, S->Predicted);
      Hi = std::max(Hi, S->Predicted);
    }
  }
  double L0, L1;
  decades(Lo, Hi, L0, L1);
  double PW = W - ML - MR, PH = H - MT - MB;
  size_t N = Order.size();
  auto X = [&](size_t I) { return ML + (I + 0.5) * PW / double(N); };
  auto Y = [&](double V) {
    return MT + PH - (std::log10(V) - L0) / (L1 - L0) * PH;
  };
  std::string S = "<svg class=\"shapes\" xmlns=\"http://www.w3.org/2000/svg\" "
                  "width=\"" +
                  num(W, "%.0f") + "\" height=\"" + num(H, "%.0f") +
                  "\" role=\"img\"><title>" +
                  htmlEscape(R.shown() + " at " + tupleText(R.Size, R.DataOrder)) +
                  ": time per block shape</title>\n";
  S += "<rect x=\"" + num(ML) + "\" y=\"" + num(MT) + "\" width=\"" + num(PW) +
       "\" height=\"" + num(PH) + "\" fill=\"none\" stroke=\"#888\"/>\n";
  for (int E = int(L0); E <= int(L1); ++E) {
    double V = std::pow(10.0, E);
    S += "<line x1=\"" + num(ML) + "\" y1=\"" + num(Y(V)) + "\" x2=\"" +
         num(ML + PW) + "\" y2=\"" + num(Y(V)) +
         "\" stroke=\"#ddd\"/><text x=\"" + num(ML - 4) + "\" y=\"" +
         num(Y(V) + 4) + "\" text-anchor=\"end\" font-size=\"11\">" +
         tickLabel(E) + "</text>\n";
  }
  for (size_t I = 0; I < N; ++I)
    S += "<text transform=\"translate(" + num(X(I) + 4) + " " +
         num(MT + PH + 8) +
         ") rotate(-60)\" text-anchor=\"end\" font-size=\"10\">" +
         htmlEscape(profiledb::blockText(Order[I]->Block)) + "</text>\n";
  // Lines: measured, then predicted (broken where it cannot predict).
  std::string M, P;
  bool PenUp = true;
  for (size_t I = 0; I < N; ++I) {
    M += (I ? " L" : "M") + num(X(I)) + " " + num(Y(Order[I]->Measured));
    if (std::isfinite(Order[I]->Predicted) && Order[I]->Predicted > 0) {
      P +=
          (PenUp ? " M" : " L") + num(X(I)) + " " + num(Y(Order[I]->Predicted));
      PenUp = false;
    } else {
      PenUp = true;
    }
  }
  S += "<path d=\"" + M +
       "\" fill=\"none\" stroke=\"#1f77b4\" "
       "stroke-width=\"2\"/>\n";
  if (!P.empty())
    S += "<path d=\"" + P +
         "\" fill=\"none\" stroke=\"#ff7f0e\" "
         "stroke-width=\"2\" stroke-dasharray=\"6 3\"/>\n";
  for (size_t I = 0; I < N; ++I) {
    const ShapeRow &H2 = *Order[I];
    std::string Tip = htmlEscape(profiledb::blockText(H2.Block) + ": measured " +
                                 num(H2.Measured, "%.6g") + " ns, predicted " +
                                 num(H2.Predicted, "%.6g") + " ns");
    S += "<circle cx=\"" + num(X(I)) + "\" cy=\"" + num(Y(H2.Measured)) +
         "\" r=\"3\" fill=\"#1f77b4\"><title>" + Tip + "</title></circle>\n";
    if (std::isfinite(H2.Predicted) && H2.Predicted > 0)
      S += "<circle cx=\"" + num(X(I)) + "\" cy=\"" + num(Y(H2.Predicted)) +
           "\" r=\"3\" fill=\"#ff7f0e\"><title>" + Tip + "</title></circle>\n";
    if (H2.Best)
      S += "<circle class=\"best\" cx=\"" + num(X(I)) + "\" cy=\"" +
           num(Y(H2.Measured)) +
           "\" r=\"8\" fill=\"none\" stroke=\"#2ca02c\" "
           "stroke-width=\"2.5\"><title>measured best: " +
           Tip + "</title></circle>\n";
    if (H2.Chosen)
      S += "<rect class=\"chosen\" x=\"" + num(X(I) - 7) + "\" y=\"" +
           num(Y(H2.Measured) - 7) +
           "\" width=\"14\" height=\"14\" fill=\"none\" stroke=\"#d62728\" "
           "stroke-width=\"2\"><title>model-chosen: " +
           Tip + "</title></rect>\n";
  }
  S += "<text x=\"" + num(ML + PW / 2) + "\" y=\"" + num(H - 4) +
       "\" text-anchor=\"middle\" font-size=\"12\">block shape (by threads per "
       "block)</text>\n";
  S += "<text transform=\"translate(14 " + num(MT + PH / 2) +
       ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">time per "
       "launch (log scale)</text>\n";
  // One row of four entries in the top margin.
  double LX = ML, LY = MT - 16;
  S += "<text x=\"" + num(LX) + "\" y=\"" + num(LY) +
       "\" font-size=\"11\" fill=\"#1f77b4\">&#8212; measured</text>"
       "<text x=\"" +
       num(LX + 80) + "\" y=\"" + num(LY) +
       "\" font-size=\"11\" fill=\"#ff7f0e\">- - predicted</text>"
       "<text x=\"" +
       num(LX + 160) + "\" y=\"" + num(LY) +
       "\" font-size=\"11\" fill=\"#2ca02c\">&#9675; measured best</text>"
       "<text x=\"" +
       num(LX + 265) + "\" y=\"" + num(LY) +
       "\" font-size=\"11\" fill=\"#d62728\">&#9633; model-chosen</text>\n";
  return S + "</svg>\n";
}

std::string htmlKernel(const KernelReport &R, size_t Index) {
  std::string S = "<section class=\"kernel\" id=\"k" + std::to_string(Index) +
                  "\">\n<h2>" + htmlEscape(R.shown()) + "</h2>\n";
  if (!R.Ok) {
    S += "<p class=\"error\">not reported: " + htmlEscape(R.Error) +
         "</p>\n</section>\n";
    return S;
  }
  const KernelFit &F = R.Fit;
  std::string Vs;
  for (size_t V = 0; V < F.Vars.size(); ++V)
    Vs += (V ? ", " : "") + F.Vars[V];
  S += "<p>device name <code>" + htmlEscape(R.Name) +
       "</code>; variables <code>" + htmlEscape(Vs) + "</code>; " +
       std::to_string(F.SamplesUsed) + " samples (" +
       std::to_string(F.SamplesFailed) + " failed); model <code>" +
       htmlEscape(F.modelName()) + "</code></p>\n";
  S += "<table class=\"fit\"><tr><th>quantity</th><th>form</th><th>residual"
       "</th><th>held-out</th><th>exact</th></tr>\n";
  for (const FittedQuantity &Q : F.Quantities)
    S += "<tr><td>" + htmlEscape(Q.Name) + "</td><td><code>" +
         htmlEscape(Q.form()) + "</code></td><td>" + fmt("%.3g", Q.residual()) +
         "</td><td>" + fmt("%.3g", Q.heldOut()) + "</td><td>" +
         (Q.exact() ? "yes" : "no") + "</td></tr>\n";
  S += "</table>\n";
  if (F.Agree.Samples)
    S += "<p>Agreement over " + std::to_string(F.Agree.Samples) +
         " samples: Spearman " + fmt("%.3f", F.Agree.Spearman) +
         ", geomean predicted/measured " + fmt("%.3g", F.Agree.GeomeanRatio) +
         ", best shape predicted for " + std::to_string(F.Agree.BestMatches) +
         " of " + std::to_string(F.Agree.Tuples) + " data tuples.</p>\n";
  for (const std::string &W : F.Warnings)
    S += "<p class=\"note\">note: " + htmlEscape(W) + "</p>\n";
  // Each plot in a box of its own: the boxes wrap, and a plot wider than
  // the page (many shapes) scrolls inside its box.
  S += "<div class=\"plots\">\n<div class=\"plot\">" + scatterSvg(R) +
       "</div>\n<div class=\"plot\">" + shapesSvg(R) + "</div>\n</div>\n";
  S += "<h3>Block shapes at " + htmlEscape(tupleText(R.Size, R.DataOrder)) +
       " (sorted by measured time)</h3>\n";
  S += "<table class=\"shapes\"><tr><th>block</th><th>measured ns</th><th>"
       "predicted ns</th><th>rank measured</th><th>rank predicted</th><th>"
       "</th></tr>\n";
  for (const ShapeRow &H : R.Shapes) {
    std::string Mark = H.Best ? "best" : "";
    if (H.Chosen)
      Mark += Mark.empty() ? "chosen" : " chosen";
    if (!H.Why.empty())
      Mark += " cannot predict: " + H.Why;
    S += "<tr" +
         std::string(H.Best     ? " class=\"best\""
                     : H.Chosen ? " class=\"chosen\""
                                : "") +
         "><td>" + htmlEscape(profiledb::blockText(H.Block)) + "</td><td>" +
         fmt("%.6g", H.Measured) + "</td><td>" + fmt("%.6g", H.Predicted) +
         "</td><td>" + std::to_string(H.MeasuredRank) + "</td><td>" +
         (H.PredictedRank ? std::to_string(H.PredictedRank) : "-") +
         "</td><td>" + htmlEscape(Mark) + "</td></tr>\n";
  }
  S += "</table>\n<p class=\"ratio\">best/chosen measured time: " +
       fmt("%.4f", R.Ratio) + "</p>\n</section>\n";
  return S;
}

std::string utcNow() {
  std::time_t T = std::time(nullptr);
  std::tm Tm;
  gmtime_r(&T, &Tm);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%dT%H:%M:%SZ", &Tm);
  return Buf;
}

struct Header {
  std::string Db, Device, Backend, DbVersion, Date;
};

std::string html(const Header &Hd, const std::vector<KernelReport> &Rs) {
  std::string S =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>klaraptor report: " +
      htmlEscape(Hd.Db) +
      "</title>\n<style>\n"
      "body{font-family:sans-serif;margin:1.5em;color:#222}"
      "table{border-collapse:collapse;margin:.5em 0}"
      "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}"
      "th{background:#f0f0f0}tr.best td{background:#e6f4e6}"
      "tr.chosen td{background:#fbe9e9}.error{color:#b00}"
      ".plots{display:flex;flex-wrap:wrap;align-items:flex-start}"
      ".plot{max-width:100%;overflow-x:auto;margin:.5em 1em .5em 0}"
      ".plot svg{display:block;border:1px solid #eee}"
      "table.fit td{max-width:48em;overflow-wrap:anywhere}"
      "section.kernel{border-top:2px solid #ccc;margin-top:1.5em}\n"
      "</style>\n</head>\n<body>\n<h1>klaraptor report</h1>\n"
      "<table class=\"header\">\n";
  auto Row = [&](const char *K, const std::string &V) {
    S += std::string("<tr><th>") + K + "</th><td>" + htmlEscape(V) +
         "</td></tr>\n";
  };
  Row("database", Hd.Db);
  Row("device", Hd.Device);
  Row("backend", Hd.Backend);
  Row("klaraptor version", std::string(KLARAPTOR_VERSION) +
                               " (database written by " + Hd.DbVersion + ")");
  Row("date", Hd.Date);
  S += "</table>\n<ul>\n";
  for (size_t I = 0; I < Rs.size(); ++I)
    S += "<li><a href=\"#k" + std::to_string(I) + "\">" +
         htmlEscape(Rs[I].shown()) + "</a>" +
         (Rs[I].Ok ? " best/chosen " + fmt("%.4f", Rs[I].Ratio)
                   : std::string(" (not reported)")) +
         "</li>\n";
  S += "</ul>\n";
  for (size_t I = 0; I < Rs.size(); ++I)
    S += htmlKernel(Rs[I], I);
  return S + "</body>\n</html>\n";
}

/// Whether \p Path can be written: an existing regular writable file, or a
/// new name in a writable directory. False with \p Err.
bool checkWritable(const std::string &Path, std::string &Err) {
  struct stat St;
  if (Path.empty()) {
    Err = "--html: empty file name";
    return false;
  }
  if (::stat(Path.c_str(), &St) == 0) {
    if (S_ISDIR(St.st_mode)) {
      Err = "--html: cannot write '" + Path + "': is a directory";
      return false;
    }
    if (::access(Path.c_str(), W_OK) != 0) {
      Err = "--html: cannot write '" + Path + "': " + std::strerror(errno);
      return false;
    }
    return true;
  }
  size_t Slash = Path.rfind('/');
  std::string Dir = Slash == std::string::npos ? "."
                    : Slash == 0               ? "/"
                                               : Path.substr(0, Slash);
  if (::stat(Dir.c_str(), &St) != 0 || !S_ISDIR(St.st_mode)) {
    Err = "--html: cannot write '" + Path + "': directory '" + Dir +
          "' does not exist";
    return false;
  }
  if (::access(Dir.c_str(), W_OK) != 0) {
    Err = "--html: cannot write '" + Path + "': directory '" + Dir +
          "': " + std::strerror(errno);
    return false;
  }
  return true;
}

const Syntax CommandSyntax = {
    reportUsage, "report: unknown {1} '{0}' (see 'klaraptor report --help')",
    "option '{0}' needs a value"};
#define KLARAPTOR_OPTIONS_INC "ReportOptions.inc"
#include "OptionTable.def"

} // namespace

int runReport(const Args &A) {
  llvm::opt::InputArgList Opts;
  if (int Status = options().parse(A, Opts); Status >= 0)
    return Status;
  const std::string DbPath =
      Opts.getLastArgValue(OPT_db, "klaraptor-profile.db").str();
  const std::string HtmlPath = Opts.getLastArgValue(OPT_html).str();
  const std::string KernelName = Opts.getLastArgValue(OPT_kernel).str();
  const std::string SizeText = Opts.getLastArgValue(OPT_size).str();
  const bool HasSize = Opts.hasArg(OPT_size), Json = Opts.hasArg(OPT_json);
  KernelFitOptions O;
  O.Device = Opts.getLastArgValue(OPT_device).str();
  if (Opts.hasArg(OPT_html) && HtmlPath.empty()) {
    error("--html: empty file name");
    return 1;
  }
  if (!minSamplesOption(Opts.getLastArg(OPT_min_samples), O.MinSamples))
    return 1;
  std::string Err;
  std::optional<DataTuple> Wanted;
  if (HasSize) {
    DataTuple T;
    if (!parseSize(SizeText, T, Err)) {
      error(Err);
      return 1;
    }
    Wanted = T;
  }
  if (!HtmlPath.empty() && !checkWritable(HtmlPath, Err)) {
    error(Err);
    return 1;
  }

  std::string Note;
  std::vector<profiledb::KernelRow> Rows;
  std::unique_ptr<profiledb::ProfileDb> Db =
      openProfileToFit(DbPath, Rows, O.Device, Note, Err);
  if (!Note.empty())
    warning(Note);
  if (!Db) {
    error(Err);
    return 1;
  }

  // A kernel whose pragma changed has several rows: the newest spec wins.
  std::vector<KernelReport> Reports;
  std::vector<const profiledb::KernelRow *> Selected;
  for (const profiledb::KernelRow *Row : newestKernelRows(Rows)) {
    if (!KernelName.empty() && !Row->isNamed(KernelName))
      continue;
    KernelReport R;
    R.Name = Row->Name;
    R.SourceName = Row->sourceName();
    std::string SpecErr;
    if (std::optional<KernelSpec> Spec = parseKernelSpec(Row->Spec, SpecErr))
      for (const DataParam &D : Spec->Data)
        R.DataOrder.push_back(D.Name);
    Reports.push_back(std::move(R));
    Selected.push_back(Row);
  }
  if (Reports.empty()) {
    error(profiledb::noSuchKernelText(KernelName, DbPath, Rows));
    return 1;
  }
  if (Wanted) {
    // Every --size name must be a data parameter of some selected kernel.
    for (const auto &KV : *Wanted) {
      bool Used = false;
      for (const profiledb::KernelRow *R : Selected) {
        std::string SpecErr;
        if (std::optional<KernelSpec> Spec = parseKernelSpec(R->Spec, SpecErr))
          for (const DataParam &D : Spec->Data)
            Used |= D.Name == KV.first;
      }
      if (!Used) {
        error("--size: '" + KV.first +
              "' is not a data parameter of the kernels reported");
        return 1;
      }
    }
  }

  bool AnyFailed = false;
  for (size_t I = 0; I < Reports.size(); ++I)
    if (!reportKernel(*Db, *Selected[I], O, Wanted, Reports[I])) {
      error(Reports[I].Error);
      AnyFailed = true;
    }

  Header Hd;
  Hd.Db = DbPath;
  Hd.Device = O.Device;
  Hd.Backend = Db->meta("backend");
  Hd.DbVersion = Db->meta("klaraptor_version");
  Hd.Date = utcNow();

  if (Json) {
    std::string S =
        "{\"db\": " + jsonString(Hd.Db) +
        ", \"device\": " + jsonString(Hd.Device) +
        ", \"backend\": " + jsonString(Hd.Backend) +
        ", \"klaraptor_version\": " + jsonString(KLARAPTOR_VERSION) +
        ", \"db_klaraptor_version\": " + jsonString(Hd.DbVersion) +
        ", \"date\": " + jsonString(Hd.Date) + ",\n \"kernels\": [";
    bool First = true;
    for (const KernelReport &R : Reports)
      if (R.Ok) {
        S += std::string(First ? "\n" : ",\n") + jsonKernel(R);
        First = false;
      }
    S += "],\n \"failed\": [";
    First = true;
    for (const KernelReport &R : Reports)
      if (!R.Ok) {
        S += std::string(First ? "" : ", ") +
             "{\"kernel\": " + jsonString(R.Name) +
             ", \"error\": " + jsonString(R.Error) + "}";
        First = false;
      }
    std::printf("%s]}\n", S.c_str());
  } else {
    std::printf("klaraptor report: %s (device %s, backend %s)\n\n",
                DbPath.c_str(), Hd.Device.c_str(), Hd.Backend.c_str());
    unsigned Ok = 0;
    for (const KernelReport &R : Reports) {
      if (!R.Ok) {
        std::printf("kernel %s: not reported: %s\n\n", R.shown().c_str(),
                    R.Error.c_str());
        continue;
      }
      ++Ok;
      printKernel(R);
      std::printf("\n");
    }
    std::printf("%u of %zu kernels reported\n", Ok, Reports.size());
  }

  if (!HtmlPath.empty()) {
    std::ofstream Out(HtmlPath, std::ios::binary | std::ios::trunc);
    if (Out)
      Out << html(Hd, Reports);
    if (Out)
      Out.close();
    if (!Out) {
      error("--html: cannot write '" + HtmlPath + "': " + std::strerror(errno));
      return 1;
    }
    if (!Json)
      std::printf("wrote %s\n", HtmlPath.c_str());
  }
  return AnyFailed ? 1 : 0;
}

} // namespace cli
} // namespace klaraptor
