//===- Judge.cpp - klaraptor dataset judge: choices against measured times -===//
///
/// \file
/// `klaraptor dataset judge --measured FILE... --fit DB... [--estimates
/// DB...]` judges block-shape choices by MEASURED times: the measured
/// datasets (typically times-only, e.g. test/data/rtx-2070-super/) hold the
/// time of every shape of each kernel at each size; the programs themselves
/// were profiled elsewhere (the emulator, at small sizes, into the --fit
/// databases) and their rational programs are fitted from those. For every
/// measured launch at a judged size, each method picks one of the measured
/// shapes and scores best/chosen = the least measured time over the
/// measured time of its pick (1: the best shape):
///
///   the rational program with the judged model (--model; the default,
///       mwp-cwp-lines) and with the other one (mwp-cwp; waves when
///       mwp-cwp is judged): the runtime's rule, the least prediction
///       (exact ties: the requested shape, then the block nearest it) unless
///       the requested shape is predicted within the margin (--margin,
///       KLARAPTOR_MARGIN's default 0.02) of it;
///   top-3: the best measured among the judged model's three best
///       predictions (what the runtime's online refinement reaches);
///   estimate: the least abstract-emulation estimate at that size (the
///       --estimates databases: estimate-only sweeps at the judged sizes);
///   requested: the shape the measured program asked for;
///   carried: the best measured shape at the largest size the kernel was
///       profiled at, carried over (what tuning once at a small size on the
///       real GPU would give).
///
/// It also says how well the estimator matches the hardware: per launch,
/// Spearman's rank correlation of estimated and measured times over the
/// shapes, and the geometric mean of estimated/measured; and, where the
/// judged samples carry a GPU's counters, how far the fitted counts the
/// rational program computes its inputs from are from the measured ones.
///
/// Kernels are matched by their source name (the spec's `kernel` line, or
/// the dataset's kernel name when it has no spec), launches by their data
/// values. docs/dataset.md, "Judging choices by measured times".
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Options.h"
#include "DatasetFile.h"
#include "klaraptor/model/KernelFit.h"
#include "klaraptor/model/PerformanceModel.h"
#include "ProfileDb.h"

#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <tuple>

using namespace klaraptor::modelfit;

namespace klaraptor {
namespace cli {

namespace {

const char *judgeUsage() {
  return "USAGE: klaraptor dataset judge --measured FILE... --fit DB... "
         "[--estimates DB...] [OPTIONS]\n\n"
         "Judges block-shape choices by measured times (docs/dataset.md, "
         "\"Judging\nchoices by measured times\"). For every launch of the "
         "measured datasets at a\njudged size, each method picks one of "
         "the measured shapes; best/chosen is the\nleast measured time "
         "over the measured time of the pick (1: the best shape).\n\n"
         "Methods: the rational program fitted from the --fit profile "
         "databases\n(programs profiled at small sizes) with the judged "
         "model (--model) and with\nthe other one, each picking as the "
         "runtime does (the requested shape unless\na shape is predicted "
         "faster by more than the margin); 'top-3', the best\nmeasured of "
         "the judged model's three best; 'estimate', the\n"
         "least abstract-emulation estimate in the --estimates databases\n"
         "(estimate-only sweeps at the judged sizes); 'requested', the "
         "program's own\nshape; 'carried', the best measured shape at the "
         "largest size the kernel\nwas profiled at.\n\n"
         "Where the judged samples carry metrics (a dataset of the cupti "
         "backend), it\nalso compares the rational program's fitted counts "
         "with the measured ones,\nper kernel and quantity (fitted/measured; "
         "off: more than 1.5x either way).\n\n"
         "OPTIONS:\n"
         "  --sizes LIST      judge the launches of these sizes (default: "
         "every measured\n"
         "                    size above the largest profiled one; with "
         "several data\n"
         "                    parameters, data whose every value is above "
         "the largest\n"
         "                    profiled tuple's)\n"
         "  --device PROFILE  device profile of the fitted programs "
         "(default: each\n"
         "                    database's own)\n"
         "  --model NAME      the model judged first and ranked for top-3: "
         "mwp-cwp-lines\n                    (default), mwp-cwp, waves or "
         "roofline (the other one:\n                    waves for mwp-cwp, "
         "else mwp-cwp)\n"
         "  --margin X        the runtime's margin (KLARAPTOR_MARGIN; "
         "default 0.02)\n"
         "  --label TEXT      the prefix of the summary lines (default "
         "'judge')\n"
         "  --markdown FILE   write the per-launch table and the summary as "
         "Markdown\n"
         "  --json FILE       write every launch's figures as JSON\n";
}

/// The kernel's name as written in the source: the spec's, else \p Name
/// (profiledb::KernelRow::sourceName decides).
std::string sourceName(const std::string &Name, const std::string &Spec) {
  profiledb::KernelRow R;
  R.Name = Name;
  R.Spec = Spec;
  return R.sourceName();
}

/// One method's pick for one launch.
struct Pick {
  std::string Shape; ///< empty: the method made no pick
  double Ns = NAN;   ///< the pick's measured time
};

/// The methods, in the order they are printed: the rational program with
/// the judged model (--model, default model::defaultModel(); named after
/// it), the same program with the other model, the best measured of the
/// judged model's TopK best predictions (what the runtime's online
/// refinement reaches), then the
/// estimator, the program's own shape and the carried shape.
enum Method { Model, Other, TopK, Estimate, Requested, Carried, NumMethods };

/// The fitted counts against a GPU's counters, per (kernel, quantity): over
/// the judged launches whose samples carry metrics (a cupti dataset), the
/// fitted program's value of each fitted quantity (KernelFit::launchRecord)
/// over the measured one.
struct CountCheck {
  std::string Kernel, Quantity;
  unsigned N = 0, Off = 0; ///< comparisons; those off by more than 1.5x
  /// The comparisons whose fitted count is positive: the geometric mean's.
  unsigned Positive = 0;
  double LogSum = 0, Min = INFINITY, Max = 0;
  std::string MinAt, MaxAt; ///< "data shape" of the extremes
  double geomean() const {
    return Positive ? std::exp(LogSum / Positive) : NAN;
  }
  /// The extreme ratio farther from 1 (in factor), and where it is.
  bool minFarther() const {
    return std::fabs(std::log(std::max(Min, 1e-300))) >
           std::fabs(std::log(Max));
  }
  double farthest() const { return minFarther() ? Min : Max; }
  const std::string &farthestAt() const { return minFarther() ? MinAt : MaxAt; }
  /// How far, in factor, the farther extreme is from 1.
  double distance() const {
    return std::max(std::fabs(std::log(std::max(Min, 1e-300))),
                    std::fabs(std::log(Max)));
  }
};

/// A fitted count is off when it is more than this factor from the
/// measured one, either way.
constexpr double CountOffFactor = 1.5;

/// The shapes the online refinement tries (KLARAPTOR_REFINE's default).
constexpr unsigned TopKShapes = 3;

struct JudgedLaunch {
  std::string Program, Kernel, Data;
  int64_t Size = 0;
  unsigned Shapes = 0;
  std::string Best;
  double BestNs = NAN;
  Pick Picks[NumMethods];
  /// The estimator against the hardware over the shapes that have both.
  unsigned Estimated = 0;
  double Spearman = NAN, EstOverMeasured = NAN;
  /// Every measured shape with what each method predicted for it (NAN:
  /// no prediction): the JSON's `predictions`, for seeing why a method
  /// picked what it did.
  struct ShapePrediction {
    std::string Shape;
    double MeasuredNs = NAN, ModelNs = NAN, OtherNs = NAN, EstimateNs = NAN;
    /// The fitted record the models' inputs come from
    /// (KernelFit::launchRecord); empty when it cannot be evaluated.
    std::map<std::string, double> Fitted;
  };
  std::vector<ShapePrediction> Predictions;
};

struct Summary {
  unsigned N = 0, AtLeast90 = 0;
  double Geomean = NAN, Worst = NAN;
};

Summary summarize(const std::vector<JudgedLaunch> &Rows, int M) {
  Summary S;
  double Log = 0;
  for (const JudgedLaunch &R : Rows) {
    double X = R.BestNs / R.Picks[M].Ns;
    if (!std::isfinite(X) || X <= 0)
      continue;
    ++S.N;
    Log += std::log(X);
    S.AtLeast90 += X >= 0.9;
    if (!(X >= S.Worst))
      S.Worst = X;
  }
  if (S.N)
    S.Geomean = std::exp(Log / S.N);
  return S;
}

std::string fmt(const char *F, double V) {
  if (!std::isfinite(V))
    return "-";
  char B[64];
  std::snprintf(B, sizeof(B), F, V);
  return B;
}

std::string timeText(double Ns) {
  if (!std::isfinite(Ns))
    return "-";
  if (Ns >= 1e6)
    return fmt("%.3f ms", Ns / 1e6);
  if (Ns >= 1e3)
    return fmt("%.2f us", Ns / 1e3);
  return fmt("%.0f ns", Ns);
}

/// A measured launch: its shapes' times.
struct MeasuredLaunch {
  std::string Program, Kernel, Data, Requested;
  profiledb::DataTuple DataTuple;
  int64_t Size = 0;
  std::map<std::string, std::pair<double, DsSample>> Shapes; ///< dimText ->
};

const Syntax CommandSyntax = {
    judgeUsage,
    "dataset judge: unknown option '{0}' (klaraptor dataset judge --help)",
    "dataset judge: missing value after '{0}'"};
#define KLARAPTOR_OPTIONS_INC "JudgeOptions.inc"
#include "OptionTable.def"

} // namespace

int runDatasetJudge(const Args &A) {
  llvm::opt::InputArgList Opts;
  if (int Status = options().parse(A, Opts); Status >= 0)
    return Status;
  const std::vector<std::string> Measured = Opts.getAllArgValues(OPT_measured),
                                 FitDbs = Opts.getAllArgValues(OPT_fit),
                                 EstimateDbs =
                                     Opts.getAllArgValues(OPT_estimates);
  const std::string SizesText = Opts.getLastArgValue(OPT_sizes).str(),
                    Device = Opts.getLastArgValue(OPT_device).str(),
                    Label = Opts.getLastArgValue(OPT_label, "judge").str(),
                    MarkdownOut = Opts.getLastArgValue(OPT_markdown).str(),
                    JsonOut = Opts.getLastArgValue(OPT_json).str(),
                    MarginText = Opts.getLastArgValue(OPT_margin).str(),
                    ModelText =
                        Opts.getLastArgValue(OPT_model, model::defaultModel())
                            .str();
  double Margin = 0.02;
  if (Measured.empty() || FitDbs.empty()) {
    error("dataset judge needs --measured FILE... and --fit DB... "
          "(klaraptor dataset judge --help)");
    return 1;
  }
  std::string KnownModels;
  if (!isFitModel(ModelText, &KnownModels)) {
    error("--model: unknown model '" + ModelText + "' (known: " +
          KnownModels + ")");
    return 1;
  }
  // The other model a rational program can evaluate, side by side.
  const std::string OtherName = ModelText == "mwp-cwp" ? "waves" : "mwp-cwp";
  if (!MarginText.empty()) {
    char *End = nullptr;
    Margin = std::strtod(MarginText.c_str(), &End);
    if (End == MarginText.c_str() || *End || !(Margin >= 0 && Margin < 1)) {
      error("--margin: expected a fraction in [0, 1), got '" + MarginText +
            "'");
      return 1;
    }
  }
  std::set<int64_t> Sizes;
  if (!SizesText.empty() && !parseSizes(SizesText, Sizes)) {
    error("--sizes: expected positive integers separated by commas, got '" +
          SizesText + "'");
    return 1;
  }
  std::string Error;

  // The measured launches, by (source kernel name, data).
  std::map<std::pair<std::string, std::string>, MeasuredLaunch> Launches;
  std::vector<std::string> KernelOrder; // first appearance
  for (const std::string &P : Measured) {
    Dataset D;
    if (!readDataset(P, D, Error)) {
      error(Error);
      return 1;
    }
    for (const DsLaunch &L : D.Launches) {
      const DsKernel &K = D.Kernels[L.Kernel];
      std::string Name = sourceName(K.Name, K.Spec);
      auto Key = std::make_pair(Name, L.Data);
      if (Launches.count(Key)) {
        error(P + ": kernel '" + Name + "' with data " + L.Data +
              " is measured twice (in " + Launches[Key].Program + " too)");
        return 1;
      }
      MeasuredLaunch &M = Launches[Key];
      M.Program = D.Program;
      M.Kernel = Name;
      M.Data = L.Data;
      M.DataTuple = L.DataTuple;
      M.Requested = dimText(L.Block);
      if (!runSize(D.Runs[L.Run], M.Size)) {
        if (L.DataTuple.size() != 1) {
          error(P + ": the run of kernel '" + Name + "' with data " + L.Data +
                " has no single size to judge it by");
          return 1;
        }
        M.Size = L.DataTuple.begin()->second;
      }
      for (const DsSample &S : L.Samples)
        if (usable(S))
          M.Shapes[dimText(S.Block)] = {S.TimeNs, S};
      if (std::find(KernelOrder.begin(), KernelOrder.end(), Name) ==
          KernelOrder.end())
        KernelOrder.push_back(Name);
    }
  }

  // The profiled kernels, by source name.
  struct Profiled {
    std::string DbPath;
    std::shared_ptr<profiledb::ProfileDb> Db;
    profiledb::KernelRow Row;
  };
  std::map<std::string, Profiled> ProfiledKernels;
  for (const std::string &P : FitDbs) {
    std::vector<profiledb::KernelRow> Rows;
    std::string Dev = Device, Note;
    std::unique_ptr<profiledb::ProfileDb> Db =
        openProfileToFit(P, Rows, Dev, Note, Error);
    if (!Db) {
      error(Error);
      return 1;
    }
    if (!Note.empty())
      warning(P + ": " + Note);
    std::shared_ptr<profiledb::ProfileDb> Shared(std::move(Db));
    for (const profiledb::KernelRow &R : Rows) {
      std::string Name = R.sourceName();
      if (ProfiledKernels.count(Name) &&
          ProfiledKernels[Name].DbPath != P) {
        error("kernel '" + Name + "' is profiled in both " +
              ProfiledKernels[Name].DbPath + " and " + P);
        return 1;
      }
      // A kernel recorded with two specs (the pragma changed): the last.
      ProfiledKernels[Name] = {P, Shared, R};
    }
  }

  // The emulator's estimates by (source kernel name, data): shape -> ns.
  std::map<std::pair<std::string, std::string>, std::map<std::string, double>>
      Estimates;
  for (const std::string &P : EstimateDbs) {
    if (!llvm::sys::fs::is_regular_file(P)) {
      error("cannot read the estimates database '" + P +
            "': " + std::strerror(errno ? errno : ENOENT));
      return 1;
    }
    auto Db = profiledb::ProfileDb::open(P, profiledb::MetaInfo(), Error);
    std::vector<profiledb::KernelRow> Rows;
    if (!Db || !Db->kernels(Rows, Error)) {
      error(Error);
      return 1;
    }
    for (const profiledb::KernelRow &R : Rows) {
      std::vector<profiledb::SampleRow> Samples;
      if (!Db->samplesOf(R.Id, Samples, Error)) {
        error(Error);
        return 1;
      }
      std::string Name = R.sourceName();
      for (const profiledb::SampleRow &S : Samples) {
        if (S.Status != "ok" || !std::isfinite(S.TimeNs) || !(S.TimeNs > 0))
          continue;
        int64_t B[3] = {S.Block[0], S.Block[1], S.Block[2]};
        Estimates[{Name, profiledb::dataToJson(S.Data)}][dimText(B)] =
            S.TimeNs;
      }
    }
  }

  std::vector<JudgedLaunch> Rows;
  std::vector<CountCheck> Counts; // in the order first compared
  std::string ModelName = ModelText;
  unsigned Failures = 0;
  for (const std::string &Name : KernelOrder) {
    auto PIt = ProfiledKernels.find(Name);
    if (PIt == ProfiledKernels.end()) {
      warning("kernel '" + Name + "' is measured but profiled in no --fit "
              "database; not judged");
      continue;
    }
    Profiled &Pr = PIt->second;
    KernelFitOptions Options;
    Options.Device = Device;
    Options.Model = ModelText;
    KernelFit Fit;
    if (!fitKernel(*Pr.Db, Pr.Row, Options, Fit, Error)) {
      error(Pr.DbPath + ": " + Error);
      ++Failures;
      continue;
    }
    ModelName = Fit.Model;
    KernelFit OtherFit = Fit;
    OtherFit.Model = OtherName;
    // The largest profiled size: the greatest value of a single-parameter
    // data tuple among the kernel's samples.
    std::vector<profiledb::SampleRow> Samples;
    if (!Pr.Db->samplesOf(Pr.Row.Id, Samples, Error)) {
      error(Error);
      return 1;
    }
    profiledb::DataTuple Largest;
    for (const profiledb::SampleRow &S : Samples)
      if (S.Status == "ok" &&
          (Largest.empty() ||
           std::lexicographical_compare(
               Largest.begin(), Largest.end(), S.Data.begin(), S.Data.end(),
               [](const auto &X, const auto &Y) { return X.second < Y.second; })))
        Largest = S.Data;
    int64_t LargestSize = Largest.size() == 1 ? Largest.begin()->second : 0;
    // Judged by default: a launch beyond the profiled sizes. With one data
    // parameter, a size above the largest profiled one; with several, data
    // whose every value is above the largest profiled tuple's (gemm's NI,
    // NJ, NK all larger).
    auto beyondProfiled = [&](const profiledb::DataTuple &Data,
                              int64_t Size) {
      if (Largest.size() == 1)
        return LargestSize > 0 && Size > LargestSize;
      if (Largest.empty() || Data.size() != Largest.size())
        return false;
      for (const auto &[Param, Value] : Largest) {
        auto It = Data.find(Param);
        if (It == Data.end() || !(It->second > Value))
          return false;
      }
      return true;
    };
    const MeasuredLaunch *Carry = nullptr;
    auto CIt = Launches.find({Name, profiledb::dataToJson(Largest)});
    if (CIt != Launches.end() && !CIt->second.Shapes.empty())
      Carry = &CIt->second;
    std::string CarriedShape;
    if (Carry) {
      double B = NAN;
      for (const auto &[Shape, T] : Carry->Shapes)
        if (!(T.first >= B)) {
          B = T.first;
          CarriedShape = Shape;
        }
    }

    for (auto &[Key, M] : Launches) {
      if (Key.first != Name || M.Shapes.empty())
        continue;
      if (Sizes.empty() ? !beyondProfiled(M.DataTuple, M.Size)
                        : !Sizes.count(M.Size))
        continue;
      JudgedLaunch R;
      R.Program = M.Program;
      R.Kernel = Name;
      R.Data = dataText(M.DataTuple);
      R.Size = M.Size;
      R.Shapes = unsigned(M.Shapes.size());
      auto EIt = Estimates.find({Name, M.Data});
      double BestEst = NAN;
      std::vector<double> Est, Meas;
      // Each model's predictions: (prediction, not requested, distance to
      // the requested block, enumeration order (bz, by, bx), shape,
      // measured ns): sorted, exact ties go as in the runtime.
      std::vector<std::tuple<double, bool, double, std::array<uint32_t, 3>,
                             std::string, double>>
          Ranked, RankedOther;
      std::array<double, 3> ReqLog = {0, 0, 0};
      {
        unsigned Rb[3] = {1, 1, 1};
        std::sscanf(M.Requested.c_str(), "%ux%ux%u", &Rb[0], &Rb[1], &Rb[2]);
        for (int D = 0; D < 3; ++D)
          ReqLog[size_t(D)] = std::log2(double(std::max(Rb[D], 1u)));
      }
      for (const auto &[Shape, T] : M.Shapes) {
        const double Ns = T.first;
        if (!(Ns >= R.BestNs)) {
          R.BestNs = Ns;
          R.Best = Shape;
        }
        const bool IsRequest = Shape == M.Requested;
        if (IsRequest)
          R.Picks[Requested] = {Shape, Ns};
        if (Shape == CarriedShape)
          R.Picks[Carried] = {Shape, Ns};
        uint32_t Blk[3] = {uint32_t(T.second.Block[0]),
                           uint32_t(T.second.Block[1]),
                           uint32_t(T.second.Block[2])};
        // The runtime's blockDistance (runtime/lib/Candidates.h): the sum
        // of |log2| of the dimensions' ratios to the requested block's.
        double Distance = 0;
        for (int D = 0; D < 3; ++D)
          Distance += std::fabs(std::log2(double(std::max(Blk[D], 1u))) -
                                ReqLog[size_t(D)]);
        double P;
        std::string Why;
        JudgedLaunch::ShapePrediction &SP = R.Predictions.emplace_back();
        SP.Shape = Shape;
        SP.MeasuredNs = Ns;
        // Only finite, non-negative predictions count (as in the runtime).
        for (auto [F, V, Out] :
             {std::make_tuple(&Fit, &Ranked, &SP.ModelNs),
              std::make_tuple(&OtherFit, &RankedOther, &SP.OtherNs)})
          if (F->predictNs(M.DataTuple, Blk, P, Why) && std::isfinite(P) &&
              P >= 0) {
            V->emplace_back(P, !IsRequest, Distance,
                            std::array<uint32_t, 3>{Blk[2], Blk[1], Blk[0]},
                            Shape, Ns);
            *Out = P;
          }
        // The fitted counts against the sample's measured ones: the
        // fitted quantities the sample measured (registers per thread are
        // not a count), evaluated only when there is one.
        std::vector<std::pair<const FittedQuantity *, double>> Counted;
        for (const FittedQuantity &Q : Fit.Quantities) {
          auto Ms = std::find_if(
              T.second.Metrics.begin(), T.second.Metrics.end(),
              [&](const auto &KV) { return KV.first == Q.Name; });
          if (Q.Name != "registers_per_thread" &&
              Ms != T.second.Metrics.end() && Ms->second > 0)
            Counted.push_back({&Q, Ms->second});
        }
        // The fitted record: for the counts, and for the JSON's
        // predictions (evaluated only when one of them wants it).
        std::map<std::string, double> &Fitted = SP.Fitted;
        bool HasRecord = false;
        if (!Counted.empty() || !JsonOut.empty()) {
          HasRecord = Fit.launchRecord(M.DataTuple, Blk, Fitted, Why);
          if (!HasRecord)
            Fitted.clear();
        }
        if (HasRecord && !Counted.empty())
          for (const auto &[QP, MeasuredValue] : Counted) {
            const FittedQuantity &Q = *QP;
            auto F = Fitted.find(Q.Name);
            if (F == Fitted.end() || !std::isfinite(F->second))
              continue;
            auto C = std::find_if(Counts.begin(), Counts.end(), [&](auto &X) {
              return X.Kernel == Name && X.Quantity == Q.Name;
            });
            if (C == Counts.end()) {
              CountCheck New;
              New.Kernel = Name;
              New.Quantity = Q.Name;
              Counts.push_back(New);
              C = Counts.end() - 1;
            }
            // A fitted count of 0 or less is off (and left out of the
            // geometric mean).
            double Ratio = std::max(F->second, 0.0) / MeasuredValue;
            std::string At = R.Data + " " + Shape;
            ++C->N;
            C->Off += !(Ratio <= CountOffFactor && Ratio >= 1 / CountOffFactor);
            if (Ratio > 0) {
              ++C->Positive;
              C->LogSum += std::log(Ratio);
            }
            if (!(Ratio >= C->Min)) {
              C->Min = Ratio;
              C->MinAt = At;
            }
            if (!(Ratio <= C->Max)) {
              C->Max = Ratio;
              C->MaxAt = At;
            }
          }
        if (EIt != Estimates.end()) {
          auto E = EIt->second.find(Shape);
          if (E != EIt->second.end()) {
            SP.EstimateNs = E->second;
            Est.push_back(E->second);
            Meas.push_back(Ns);
            if (!(E->second >= BestEst) ||
                (E->second == BestEst && IsRequest &&
                 R.Picks[Estimate].Shape != M.Requested)) {
              BestEst = E->second;
              R.Picks[Estimate] = {Shape, Ns};
            }
          }
        }
      }
      // The runtime's rule (Runtime::decide, runtime/lib/Runtime.cpp): least
      // prediction first (on an exact tie the requested shape, then the
      // block nearest it, then enumeration order), the requested shape
      // first while no shape is predicted more than the margin faster. The
      // pick is the first; top-k is the best measured among the first k.
      for (auto *V : {&Ranked, &RankedOther}) {
        std::sort(V->begin(), V->end());
        auto Req = std::find_if(V->begin(), V->end(),
                                [](const auto &T) { return !std::get<1>(T); });
        if (Req != V->end() && !V->empty() &&
            !(std::get<0>(V->front()) < std::get<0>(*Req) * (1 - Margin)))
          std::rotate(V->begin(), Req, Req + 1);
      }
      for (auto [V, Col] : {std::make_pair(&Ranked, Model),
                            std::make_pair(&RankedOther, Other)})
        if (!V->empty())
          R.Picks[Col] = {std::get<4>(V->front()), std::get<5>(V->front())};
      for (size_t K = 0; K < Ranked.size() && K < TopKShapes; ++K)
        if (!(std::get<5>(Ranked[K]) >= R.Picks[TopK].Ns))
          R.Picks[TopK] = {std::get<4>(Ranked[K]), std::get<5>(Ranked[K])};
      R.Estimated = unsigned(Est.size());
      if (Est.size() >= 2)
        R.Spearman = spearman(Est, Meas);
      if (!Est.empty()) {
        double Log = 0;
        for (size_t I = 0; I < Est.size(); ++I)
          Log += std::log(Est[I] / Meas[I]);
        R.EstOverMeasured = std::exp(Log / double(Est.size()));
      }
      Rows.push_back(std::move(R));
    }
  }
  std::sort(Rows.begin(), Rows.end(),
            [&](const JudgedLaunch &X, const JudgedLaunch &Y) {
              auto Pos = [&](const std::string &K) {
                return std::find(KernelOrder.begin(), KernelOrder.end(), K) -
                       KernelOrder.begin();
              };
              return std::make_pair(Pos(X.Kernel), X.Size) <
                     std::make_pair(Pos(Y.Kernel), Y.Size);
            });

  const std::string MethodNames[NumMethods] = {
      ModelName, OtherName, "top-" + std::to_string(TopKShapes), "estimate",
      "requested", "carried"};
  // The JSON keys of the methods.
  const std::string MethodKeys[NumMethods] = {
      "model", "other_model", "top" + std::to_string(TopKShapes), "estimate",
      "requested", "carried"};
  auto Ratio = [](const JudgedLaunch &R, int M) {
    return fmt("%.3f", R.BestNs / R.Picks[M].Ns);
  };
  auto ShapeOf = [](const Pick &P) {
    if (P.Shape.empty())
      return std::string("-");
    std::string S = P.Shape;
    return S.size() > 2 && S.compare(S.size() - 2, 2, "x1") == 0
               ? S.substr(0, S.size() - 2)
               : S;
  };
  std::printf("%-22s %6s %6s %-8s %11s", "kernel", "n", "shapes", "best",
              "best time");
  for (int M = 0; M < NumMethods; ++M)
    std::printf(" | %-8s %6s",
                M == Requested ? "request" : MethodNames[M].c_str(), "b/c");
  std::printf(" | %5s %7s\n", "rho", "est/ms");
  for (const JudgedLaunch &R : Rows) {
    std::printf("%-22s %6lld %6u %-8s %11s", R.Kernel.c_str(),
                (long long)R.Size, R.Shapes, ShapeOf({R.Best, 0}).c_str(),
                timeText(R.BestNs).c_str());
    for (int M = 0; M < NumMethods; ++M)
      std::printf(" | %-8s %6s", ShapeOf(R.Picks[M]).c_str(),
                  Ratio(R, M).c_str());
    std::printf(" | %5s %7s\n", fmt("%.2f", R.Spearman).c_str(),
                fmt("%.2f", R.EstOverMeasured).c_str());
  }

  Summary Sums[NumMethods];
  for (int M = 0; M < NumMethods; ++M)
    Sums[M] = summarize(Rows, M);
  // The estimator against the hardware.
  std::vector<double> Rhos, Ratios;
  for (const JudgedLaunch &R : Rows) {
    if (std::isfinite(R.Spearman))
      Rhos.push_back(R.Spearman);
    if (std::isfinite(R.EstOverMeasured))
      Ratios.push_back(R.EstOverMeasured);
  }
  std::sort(Rhos.begin(), Rhos.end());
  double RhoMedian = NAN, RatioGeomean = NAN;
  if (!Rhos.empty())
    RhoMedian = Rhos.size() % 2 ? Rhos[Rhos.size() / 2]
                                : (Rhos[Rhos.size() / 2 - 1] +
                                   Rhos[Rhos.size() / 2]) /
                                      2;
  if (!Ratios.empty()) {
    double Log = 0;
    for (double X : Ratios)
      Log += std::log(X);
    RatioGeomean = std::exp(Log / double(Ratios.size()));
  }
  auto RatioMin = Ratios.empty() ? NAN : *std::min_element(Ratios.begin(), Ratios.end());
  auto RatioMax = Ratios.empty() ? NAN : *std::max_element(Ratios.begin(), Ratios.end());

  std::vector<std::string> Lines;
  for (int M = 0; M < NumMethods; ++M)
    Lines.push_back(Label + ": " + MethodNames[M] + " best/chosen geomean " +
                    fmt("%.3f", Sums[M].Geomean) + " worst " +
                    fmt("%.3f", Sums[M].Worst) + " over " +
                    std::to_string(Sums[M].N) + " launches");
  Lines.push_back(Label + ": estimator Spearman median " +
                  fmt("%.3f", RhoMedian) + " min " +
                  fmt("%.3f", Rhos.empty() ? NAN : Rhos.front()) + " over " +
                  std::to_string(Rhos.size()) + " launches");
  Lines.push_back(Label + ": estimator estimated/measured geomean " +
                  fmt("%.3f", RatioGeomean) + " min " + fmt("%.3f", RatioMin) +
                  " max " + fmt("%.3f", RatioMax) + " over " +
                  std::to_string(Ratios.size()) + " launches");
  // The fitted counts against the measured ones, where samples had metrics.
  unsigned CountN = 0, CountOff = 0, CountPositive = 0;
  double CountLog = 0;
  const CountCheck *Worst = nullptr;
  for (const CountCheck &C : Counts) {
    CountN += C.N;
    CountOff += C.Off;
    CountPositive += C.Positive;
    CountLog += C.LogSum;
    if (!Worst || C.distance() > Worst->distance())
      Worst = &C;
  }
  std::vector<std::string> CountRows;
  if (CountN) {
    char Buf[256];
    std::snprintf(Buf, sizeof Buf, "%-22s %-22s %6s %8s %8s %8s %6s",
                  "kernel", "fitted / measured", "n", "geomean", "min", "max",
                  "off");
    CountRows.push_back(Buf);
    for (const CountCheck &C : Counts) {
      std::snprintf(Buf, sizeof Buf, "%-22s %-22s %6u %8.3f %8.3f %8.3f %6u",
                    C.Kernel.c_str(), C.Quantity.c_str(), C.N,
                    C.geomean(), C.Min, C.Max, C.Off);
      CountRows.push_back(Buf);
    }
    Lines.push_back(
        Label + ": fitted/measured counts geomean " +
        fmt("%.3f", CountPositive ? std::exp(CountLog / CountPositive) : NAN) +
        ", off by more than " +
        fmt("%.1f", CountOffFactor) + "x in " + std::to_string(CountOff) +
        " of " + std::to_string(CountN) + "; farthest " +
        fmt("%.3f", Worst->farthest()) + " (" + Worst->Kernel + " " +
        Worst->Quantity + ", " + Worst->farthestAt() + ")");
    std::printf("\nfitted counts against the measured ones (samples with "
                "metrics; off: more than %.1fx either way):\n",
                CountOffFactor);
    for (const std::string &L : CountRows)
      std::printf("%s\n", L.c_str());
  }
  std::printf("\n");
  for (const std::string &L : Lines)
    std::printf("%s\n", L.c_str());

  if (!MarkdownOut.empty()) {
    std::ofstream F(MarkdownOut);
    F << "| kernel | n | shapes | best | best time |";
    for (int M = 0; M < NumMethods; ++M)
      F << " " << MethodNames[M] << " | b/c |";
    F << " estimator Spearman | estimated/measured |\n|---|---:|---:|---|---:|";
    for (int M = 0; M < NumMethods; ++M)
      F << "---|---:|";
    F << "---:|---:|\n";
    for (const JudgedLaunch &R : Rows) {
      F << "| " << R.Kernel << " | " << R.Size << " | " << R.Shapes << " | "
        << ShapeOf({R.Best, 0}) << " | " << timeText(R.BestNs);
      for (int M = 0; M < NumMethods; ++M)
        F << " | " << ShapeOf(R.Picks[M]) << " | " << Ratio(R, M);
      F << " | " << fmt("%.3f", R.Spearman) << " | "
        << fmt("%.3f", R.EstOverMeasured) << " |\n";
    }
    F << "\n| method | best/chosen geomean | worst | launches | within 10 % "
         "of the best |\n|---|---:|---:|---:|---:|\n";
    for (int M = 0; M < NumMethods; ++M)
      F << "| " << MethodNames[M] << " | " << fmt("%.3f", Sums[M].Geomean)
        << " | " << fmt("%.3f", Sums[M].Worst) << " | " << Sums[M].N << " | "
        << Sums[M].AtLeast90 << " |\n";
    if (CountN) {
      F << "\n| kernel | quantity | comparisons | fitted/measured geomean | "
           "min | max | off by more than "
        << fmt("%.1f", CountOffFactor) << "x |\n|---|---|---:|---:|---:|---:|---:|\n";
      for (const CountCheck &C : Counts)
        F << "| " << C.Kernel << " | " << C.Quantity << " | " << C.N << " | "
          << fmt("%.3f", C.geomean()) << " | "
          << fmt("%.3f", C.Min) << " | " << fmt("%.3f", C.Max) << " | "
          << C.Off << " |\n";
    }
    F << "\n```\n";
    for (const std::string &L : Lines)
      F << L << "\n";
    F << "```\n";
    if (!F) {
      error("cannot write '" + MarkdownOut + "'");
      return 1;
    }
  }
  if (!JsonOut.empty()) {
    std::ofstream F(JsonOut);
    auto StatJson = [](const Summary &S) {
      return "{\"n\":" + std::to_string(S.N) + ",\"geomean\":" +
             jsonNumber(S.Geomean) + ",\"worst\":" + jsonNumber(S.Worst) +
             ",\"within_10_percent\":" + std::to_string(S.AtLeast90) + "}";
    };
    F << "{\"label\":" << jsonQuote(Label) << ",\"model\":"
      << jsonQuote(MethodNames[Model])
      << ",\"other_model\":" << jsonQuote(MethodNames[Other])
      << ",\"margin\":" << jsonNumber(Margin) << ",\"top_k\":" << TopKShapes
      << ",\"launches\":[";
    for (size_t I = 0; I < Rows.size(); ++I) {
      const JudgedLaunch &R = Rows[I];
      F << (I ? ",\n" : "\n") << "{\"program\":" << jsonQuote(R.Program)
        << ",\"kernel\":" << jsonQuote(R.Kernel) << ",\"size\":" << R.Size
        << ",\"data\":" << jsonQuote(R.Data) << ",\"shapes\":" << R.Shapes
        << ",\"best\":" << jsonQuote(R.Best)
        << ",\"best_ns\":" << jsonNumber(R.BestNs) << ",\"picks\":{";
      for (int M = 0; M < NumMethods; ++M)
        F << (M ? "," : "") << jsonQuote(MethodKeys[M]) << ":{\"shape\":"
          << (R.Picks[M].Shape.empty() ? std::string("null")
                                       : jsonQuote(R.Picks[M].Shape))
          << ",\"ns\":" << jsonNumber(R.Picks[M].Ns)
          << ",\"best_over_chosen\":" << jsonNumber(R.BestNs / R.Picks[M].Ns)
          << "}";
      F << "},\"estimated_shapes\":" << R.Estimated
        << ",\"estimator_spearman\":" << jsonNumber(R.Spearman)
        << ",\"estimated_over_measured\":" << jsonNumber(R.EstOverMeasured)
        << ",\"predictions\":[";
      for (size_t K = 0; K < R.Predictions.size(); ++K) {
        const auto &SP = R.Predictions[K];
        F << (K ? "," : "") << "{\"shape\":" << jsonQuote(SP.Shape)
          << ",\"measured_ns\":" << jsonNumber(SP.MeasuredNs)
          << ",\"model_ns\":" << jsonNumber(SP.ModelNs)
          << ",\"other_model_ns\":" << jsonNumber(SP.OtherNs)
          << ",\"estimate_ns\":" << jsonNumber(SP.EstimateNs)
          << ",\"fitted\":{";
        bool First = true;
        for (const auto &[Key, V] : SP.Fitted) {
          F << (First ? "" : ",") << jsonQuote(Key) << ":" << jsonNumber(V);
          First = false;
        }
        F << "}}";
      }
      F << "]}";
    }
    F << "\n],\"summary\":{";
    for (int M = 0; M < NumMethods; ++M)
      F << (M ? "," : "") << jsonQuote(MethodKeys[M]) << ":"
        << StatJson(Sums[M]);
    F << "},\"estimator\":{\"launches\":" << Rhos.size()
      << ",\"spearman_median\":" << jsonNumber(RhoMedian)
      << ",\"spearman_min\":" << jsonNumber(Rhos.empty() ? NAN : Rhos.front())
      << ",\"estimated_over_measured_geomean\":" << jsonNumber(RatioGeomean)
      << ",\"estimated_over_measured_min\":" << jsonNumber(RatioMin)
      << ",\"estimated_over_measured_max\":" << jsonNumber(RatioMax)
      << "},\"counts\":[";
    for (size_t I = 0; I < Counts.size(); ++I) {
      const CountCheck &C = Counts[I];
      F << (I ? "," : "") << "{\"kernel\":" << jsonQuote(C.Kernel)
        << ",\"quantity\":" << jsonQuote(C.Quantity) << ",\"n\":" << C.N
        << ",\"geomean\":" << jsonNumber(C.geomean())
        << ",\"min\":" << jsonNumber(C.Min) << ",\"min_at\":"
        << jsonQuote(C.MinAt) << ",\"max\":" << jsonNumber(C.Max)
        << ",\"max_at\":" << jsonQuote(C.MaxAt) << ",\"off\":" << C.Off
        << "}";
    }
    F << "]}\n";
    if (!F) {
      error("cannot write '" + JsonOut + "'");
      return 1;
    }
  }
  if (Rows.empty()) {
    error("no measured launch was judged (check --sizes and that the "
          "measured kernels are profiled in --fit)");
    return 1;
  }
  return Failures ? 1 : 0;
}

const char *datasetJudgeUsage() { return judgeUsage(); }

} // namespace cli
} // namespace klaraptor
