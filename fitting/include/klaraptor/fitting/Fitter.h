//===- Fitter.h - rational-function fitting with model selection -*- C++
//-*-===//
///
/// \file
/// fitQuantity finds P(x)/Q(x) predicting one measured quantity from
/// samples, choosing the degrees by the error on held-out samples at the
/// largest data sizes, so that the chosen function extrapolates. The method
/// (scaling, linearisation, SVD, selection rule, denominator check on the
/// region of use, exact recovery, pieces) is described in docs/fitting.md;
/// the option defaults below are the documented ones.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_FITTING_FITTER_H
#define KLARAPTOR_FITTING_FITTER_H

#include "klaraptor/fitting/DataTable.h"
#include "klaraptor/fitting/RationalFunction.h"

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace klaraptor {
namespace fitting {

enum class Choice { Auto, Always, Never };
enum class Weighting { Auto, Relative, Absolute };

struct FitOptions {
  /// Per-variable degree bounds of numerator and denominator candidates,
  /// and caps on the sum of the bounds (a candidate's monomials are the
  /// whole box a_v <= d_v).
  unsigned MaxNumDegree = 3, MaxDenDegree = 1;
  unsigned MaxNumDegreeSum = 4, MaxDenDegreeSum = 2;
  /// Also try each numerator box with caps on its total degree, from its
  /// largest bound up.
  bool TotalDegreeVariants = true;
  /// Fit exactly these bounds instead of selecting (both or neither); with
  /// FixedDenMonomial, FixedDen is the exponent vector of a one-term
  /// denominator x^b.
  std::optional<std::vector<unsigned>> FixedNum, FixedDen;
  bool FixedDenMonomial = false;
  /// The variables whose largest values are held out; empty: every variable
  /// not named bx, by or bz, or all of them when that leaves none.
  std::vector<std::string> Extrapolate;
  double HoldOutFraction = 0.25;
  /// Held-out errors within max(TieFloor, TieFactor * best) of the best are
  /// ties, broken by the fewest unknowns.
  double TieFactor = 1.1, TieFloor = 1e-9;
  /// Singular values below RCond times the largest count as zero.
  double RCond = 1e-11;
  Weighting Weights = Weighting::Auto;
  /// Largest number of Sanathanan-Koerner reweighting steps for rational
  /// candidates (they stop earlier once the error changes by < 0.1 %).
  unsigned RefineSteps = 5;
  Choice Exact = Choice::Auto;  ///< Auto: when every target value is an integer
  Choice Pieces = Choice::Auto; ///< Auto: when a single fit is poor
  /// Auto tries pieces when the single fit is not exact on integer data or
  /// its held-out error exceeds this.
  double PieceThreshold = 0.1;
  /// On data that are not exact, each split is first screened with the
  /// ScreenCandidates best candidates of the single function; the full
  /// selection runs on the FullSplits splits of least screened error (0:
  /// on every split, no screening).
  unsigned ScreenCandidates = 24, FullSplits = 2;
  /// The region the fit is used on: extrapolation variables up to MaxSize
  /// (0: max(65536, 16 x the largest sample)); variables named bx, by, bz on
  /// powers of two up to MaxBlock plus their sampled values (or only the
  /// sampled values with BlockValuesSampled), the shapes' thread counts
  /// within [MinThreads, MaxBlock]; other variables on their sampled range.
  double MaxSize = 0;
  unsigned MaxBlock = 1024;
  bool BlockValuesSampled = false;
  /// Block shapes of the region have MinThreads <= bx*by*bz <= MaxBlock
  /// (MinThreads is lowered to the smallest sampled shape).
  unsigned MinThreads = 32;
  /// Accept negative values (otherwise an error: counts and times are not).
  bool AllowNegative = false;
  /// Largest number of candidates tried per selection.
  unsigned MaxCandidates = 6000;
  /// Variables in which a fit that is not exact must stay bounded: its
  /// numerator's degree in each at most its denominator's, so that it tends
  /// to a limit as the variable grows instead of following a polynomial
  /// beyond the samples (for a quantity that cannot grow with them, such as
  /// the sectors of one memory request). Empty: no such variable.
  std::vector<std::string> BoundedIn;
  /// Print every candidate's degrees and errors to stderr.
  bool Trace = false;
};

/// The samples of one quantity.
struct FitProblem {
  std::string File; ///< for messages
  std::string Target;
  std::vector<std::string> Vars;
  std::vector<std::vector<double>> X; ///< rows x variables
  std::vector<double> Y;
  std::vector<std::vector<std::string>> XText; ///< exact texts (may be empty)
  std::vector<std::string> YText;
  std::vector<unsigned> Lines;
};

/// Builds the problem for \p Target over \p Vars (empty: every other
/// column). Variables with a single sampled value are dropped with a warning
/// (nothing can be learned about them), and so are variables equal to an
/// earlier one in every sample (mergedVariableWarning; the earlier one
/// stands for both); negative values are errors unless allowed. Returns
/// nullopt with \p Error set on failure.
/// The warning makeProblem gives when it drops \p Dropped, equal to \p Kept
/// in every sample.
std::string mergedVariableWarning(const std::string &Dropped,
                                  const std::string &Kept);

std::optional<FitProblem>
makeProblem(const DataTable &T, const std::string &Target,
            const std::vector<std::string> &Vars, const FitOptions &O,
            std::vector<std::string> &Warnings, std::string &Error);

/// How one piece was chosen and how well it fits.
struct PieceStats {
  unsigned Samples = 0, TrainSamples = 0, HeldOutSamples = 0;
  std::string HeldOutRule; ///< e.g. "N >= 256"
  unsigned Unknowns = 0, Columns = 0;
  int Rank = 0;
  double Condition = 0;
  /// RMS and largest relative error of the final fit on all its samples.
  double Residual = 0, ResidualMax = 0;
  /// RMS and largest relative error on the held-out samples of the fit
  /// made without them.
  double HeldOutError = 0, HeldOutMax = 0;
  bool RelativeWeights = false;
  unsigned CandidatesTried = 0, RejectedByRegion = 0;
  bool ExactTried = false;
  std::string ExactNote; ///< how exact recovery went
};

/// Where the fit will be used: a list of values or a range per variable.
struct RegionAxis {
  bool IsRange = false;
  double Lo = 0, Hi = 0;      ///< for a range
  std::vector<double> Values; ///< for a list
  std::string str() const;
};

struct FitReport {
  FittedModel Model;
  std::vector<PieceStats> Stats; ///< one per piece
  std::vector<RegionAxis> Region;
  bool ExactData = false;
  /// Held-out error of the single (one-piece) fit, and of the chosen model.
  double SingleHeldOut = 0, HeldOut = 0;
  unsigned PredicatesTried = 0;
  /// Splits whose pieces went through the full selection; the others were
  /// screened out (noisy data) or could not give exact pieces (exact data).
  unsigned SplitsSelected = 0;
  double Seconds = 0;
  std::vector<std::string> Notes;
  std::string Error; ///< non-empty: no fit
  bool ok() const { return Error.empty(); }

  /// A candidate by its bounds: numerator degrees and total-degree cap (0:
  /// none), denominator degrees, and whether the denominator is the one
  /// monomial at those bounds.
  struct CandidateBounds {
    std::vector<unsigned> Num, Den;
    unsigned NumTotal = 0;
    bool MonomialDen = false;
    friend bool operator<(const CandidateBounds &A, const CandidateBounds &B) {
      return std::tie(A.Num, A.NumTotal, A.Den, A.MonomialDen) <
             std::tie(B.Num, B.NumTotal, B.Den, B.MonomialDen);
    }
  };
  /// The single function's candidates of least held-out error, best first
  /// (at most FitOptions::ScreenCandidates): what splits are screened with.
  std::vector<CandidateBounds> Shortlist;
};

/// Fits \p P. Never throws; errors are in FitReport::Error. With \p Single,
/// a report of fitQuantity on the same problem and options except Pieces =
/// Never, the single function is taken from it instead of being selected
/// again (what a caller that compares fits before trying pieces saves).
FitReport fitQuantity(const FitProblem &P, const FitOptions &O,
                      const FitReport *Single = nullptr);

/// The relative error used everywhere: |F - Y| / max(|Y|, 1e-6 * Scale),
/// Scale being the largest |Y| of the problem.
double relativeError(double F, double Y, double Scale);

} // namespace fitting
} // namespace klaraptor

#endif // KLARAPTOR_FITTING_FITTER_H
