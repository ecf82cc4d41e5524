//===- FitTable.cpp - klaraptor fit-table ---------------------------------===//
///
/// \file
/// USAGE: klaraptor fit-table FILE.csv --target COLUMN [OPTIONS]
///
/// Fits one column of a CSV file as a rational function of the others and
/// prints the chosen function with its degrees and errors (--json: as
/// JSON), the prediction at points (--eval), or C code (--emit-c). With
/// --formula the column is a known quantity: the formula is checked on
/// every sample instead of fitting. docs/cli.md describes the options.
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Options.h"

#include "klaraptor/fitting/CEmitter.h"
#include "klaraptor/fitting/DataTable.h"
#include "klaraptor/fitting/Fitter.h"
#include "klaraptor/fitting/Formula.h"
#include "klaraptor/fitting/Report.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>

using namespace klaraptor::fitting;

namespace klaraptor {
namespace cli {

const char *fitTableUsage() {
  return R"(USAGE: klaraptor fit-table FILE.csv --target COLUMN [OPTIONS]

Fits COLUMN as a rational function P/Q of the other columns (the variables)
and prints the chosen function, its degrees and its errors.

OUTPUT:
  --json                    the report as JSON
  --eval 'x=V,y=W'          print the prediction at a point (repeatable)
  --emit-c                  print a self-contained C function
  --name NAME               the C function's name (default klaraptor_fit_COLUMN)

VARIABLES AND KNOWN QUANTITIES:
  --vars a,b,...            the variables (default: every other column)
  --formula EXPR            COLUMN is known exactly: check EXPR (the pragma's
                            expression syntax) on every sample, do not fit
  --allow-negative          accept negative values (default: an error)

MODEL SELECTION:
  --max-degree D            numerator degree bound per variable (default 3)
  --max-degree-sum S        sum of the numerator bounds (default 4)
  --max-den-degree D        denominator bound per variable (default 1;
                            0: polynomials only)
  --max-den-degree-sum S    sum of the denominator bounds (default 2)
  --degrees NUM/DEN         fit these bounds only, e.g. 'N=2,bx=1/bx=1' (a
                            box) or 'N=2,bx=1/bx*by' (a one-term denominator)
  --extrapolate a,b         variables whose largest values are held out
                            (default: all but bx, by, bz)
  --holdout F               fraction of samples held out (default 0.25)
  --tie F                   errors within F x the best tie (default 1.1)
  --rcond R                 relative singular value cut-off (default 1e-11)
  --weights auto|relative|absolute
                            row weights (default auto: relative when the
                            values span a factor of 10 or more)
  --exact, --no-exact       exact rational recovery (default: when every
                            value of COLUMN is an integer)
  --pieces, --no-pieces     two pieces split by a predicate (default: when
                            one function fits poorly)
  --piece-threshold E       held-out error that makes a fit poor (0.1)
  --full-splits K           on data that are not exact, the splits that get
                            the full selection after screening (default 2;
                            0: every split, no screening)
  --screen-candidates K     candidates of the single function a split is
                            screened with (default 24)
  --trace                   print every candidate to stderr

REGION OF USE (the denominator must not vanish there):
  --max-size B              extrapolation variables up to B
                            (default max(65536, 16 x the largest sample))
  --block-values pow2|sampled
                            bx, by, bz: powers of two and sampled values
                            (default), or sampled values only
  --min-threads T           smallest bx*by*bz (default 32)
  --max-threads T           largest bx*by*bz (default 1024)
)";
}

namespace {

std::vector<std::string> splitList(const std::string &S, char Sep) {
  std::vector<std::string> Out;
  size_t Start = 0;
  while (true) {
    size_t End = S.find(Sep, Start);
    std::string Item =
        S.substr(Start, End == std::string::npos ? End : End - Start);
    size_t B = Item.find_first_not_of(" \t"), E = Item.find_last_not_of(" \t");
    Out.push_back(B == std::string::npos ? "" : Item.substr(B, E - B + 1));
    if (End == std::string::npos)
      break;
    Start = End + 1;
  }
  return Out;
}

bool parseDouble(const std::string &S, double &V) {
  char *End = nullptr;
  errno = 0;
  V = std::strtod(S.c_str(), &End);
  return !S.empty() && End && *End == '\0' && std::isfinite(V);
}

bool parseUnsigned(const std::string &S, unsigned &V) {
  double D;
  if (!parseDouble(S, D) || D < 0 || D != std::floor(D) || D > 1e6)
    return false;
  V = unsigned(D);
  return true;
}

/// "N=8192,bx=32" as values of \p Vars, in their order.
bool parsePoint(const std::string &S, const std::vector<std::string> &Vars,
                std::vector<double> &Out, std::string &Err) {
  Out.assign(Vars.size(), NAN);
  std::vector<bool> Seen(Vars.size(), false);
  for (const std::string &Item : splitList(S, ',')) {
    if (Item.empty() && Vars.empty())
      continue;
    size_t Eq = Item.find('=');
    if (Eq == std::string::npos) {
      Err = "--eval: expected NAME=VALUE, found '" + Item + "'";
      return false;
    }
    std::string Name = Item.substr(0, Eq), Val = Item.substr(Eq + 1);
    size_t B = Name.find_last_not_of(" \t");
    Name = B == std::string::npos ? "" : Name.substr(0, B + 1);
    auto It = std::find(Vars.begin(), Vars.end(), Name);
    if (It == Vars.end()) {
      Err = "--eval: '" + Name + "' is not a variable of the fit";
      return false;
    }
    size_t I = size_t(It - Vars.begin());
    if (!parseDouble(Val, Out[I])) {
      Err = "--eval: '" + Val + "' is not a number";
      return false;
    }
    Seen[I] = true;
  }
  for (size_t I = 0; I < Vars.size(); ++I)
    if (!Seen[I]) {
      Err = "--eval: no value for '" + Vars[I] + "'";
      return false;
    }
  return true;
}

/// "N=2,bx=1" as bounds over \p Vars (unnamed variables: 0).
bool parseBounds(const std::string &S, const std::vector<std::string> &Vars,
                 std::vector<unsigned> &Out, std::string &Err) {
  Out.assign(Vars.size(), 0);
  if (S.empty())
    return true;
  for (const std::string &Item : splitList(S, ',')) {
    size_t Eq = Item.find('=');
    unsigned D = 0;
    if (Eq == std::string::npos || !parseUnsigned(Item.substr(Eq + 1), D) ||
        D > 12) {
      Err = "--degrees: expected NAME=DEGREE (0 to 12), found '" + Item + "'";
      return false;
    }
    auto It = std::find(Vars.begin(), Vars.end(), Item.substr(0, Eq));
    if (It == Vars.end()) {
      Err = "--degrees: '" + Item.substr(0, Eq) +
            "' is not a variable of the fit";
      return false;
    }
    Out[size_t(It - Vars.begin())] = D;
  }
  return true;
}

/// "bx*by^2" as exponents over \p Vars.
bool parseMonomial(const std::string &S, const std::vector<std::string> &Vars,
                   std::vector<unsigned> &Out, std::string &Err) {
  Out.assign(Vars.size(), 0);
  for (const std::string &Factor : splitList(S, '*')) {
    size_t Caret = Factor.find('^');
    std::string Name = Factor.substr(0, Caret);
    unsigned E = 1;
    if (Caret != std::string::npos &&
        (!parseUnsigned(Factor.substr(Caret + 1), E) || E == 0 || E > 12)) {
      Err = "--degrees: bad exponent in '" + Factor + "'";
      return false;
    }
    auto It = std::find(Vars.begin(), Vars.end(), Name);
    if (It == Vars.end()) {
      Err = "--degrees: '" + Name + "' is not a variable of the fit";
      return false;
    }
    Out[size_t(It - Vars.begin())] += E;
  }
  return true;
}

std::string printNumber(double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.17g", V);
  return Buf;
}

int runFormula(const DataTable &T, const std::string &Target,
               const std::vector<std::string> &VarsIn, const std::string &Text,
               const std::vector<std::string> &Evals, bool Json, bool EmitC,
               const std::string &Name) {
  int TC = T.column(Target);
  std::vector<std::string> Vars = VarsIn;
  if (Vars.empty())
    for (const auto &N : T.names())
      if (N != Target)
        Vars.push_back(N);
  std::vector<int> VC;
  for (const auto &V : Vars) {
    int C = T.column(V);
    if (C < 0) {
      error(T.fileName() + ": no column '" + V + "'");
      return 1;
    }
    VC.push_back(C);
  }
  std::string Err;
  std::optional<Formula> F = Formula::parse(Text, Vars, Err);
  if (!F) {
    error(Err);
    return 1;
  }
  for (size_t R = 0; R < T.numRows(); ++R) {
    std::vector<int64_t> X;
    for (size_t V = 0; V < VC.size(); ++V) {
      double D = T.value(R, size_t(VC[V]));
      if (D != std::trunc(D) || std::fabs(D) > 9e18) {
        error(T.fileName() + ":" + std::to_string(T.line(R)) + ": '" +
              T.text(R, size_t(VC[V])) + "' in column '" + Vars[V] +
              "' is not an integer, which a formula needs");
        return 1;
      }
      X.push_back(int64_t(D));
    }
    int64_t V;
    EvalStatus St = F->evaluate(X.data(), V);
    std::string Where = T.fileName() + ":" + std::to_string(T.line(R)) + ": ";
    if (St != EvalStatus::Ok) {
      error(Where + "the formula cannot be evaluated (" + describe(St) + ")");
      return 1;
    }
    if (double(V) != T.value(R, size_t(TC))) {
      error(Where + "'" + Target + "' is " + T.text(R, size_t(TC)) +
            " but the formula gives " + std::to_string(V));
      return 1;
    }
  }
  if (!Evals.empty()) {
    for (const auto &E : Evals) {
      std::vector<double> P;
      if (!parsePoint(E, Vars, P, Err)) {
        error(Err);
        return 1;
      }
      std::vector<int64_t> X;
      for (double D : P) {
        if (D != std::trunc(D) || std::fabs(D) > 9e18) {
          error("--eval: '" + printNumber(D) + "' is not an integer");
          return 1;
        }
        X.push_back(int64_t(D));
      }
      std::printf("%s\n", printNumber(F->evaluateAsC(X.data())).c_str());
    }
    return 0;
  }
  if (EmitC)
    for (const auto &V : Vars)
      if (!isValidCParameterName(V)) {
        error("--emit-c: column '" + V +
              "' cannot be a parameter of the C function (a C keyword or "
              "reserved name)");
        return 1;
      }
  std::string Summary = Target + " = " + F->str() +
                        " (computed, not fitted; matches all " +
                        std::to_string(T.numRows()) + " samples)";
  if (EmitC) {
    std::printf(
        "%s\n%s", emitCPreamble("klaraptor fit-table").c_str(),
        emitCFunction(*F, Name.empty() ? defaultCFunctionName(Target) : Name,
                      {Summary})
            .c_str());
    return 0;
  }
  if (Json) {
    std::string S =
        "{\n  \"target\": " + jsonString(Target) + ",\n  \"variables\": [";
    for (size_t V = 0; V < Vars.size(); ++V)
      S += (V ? ", " : "") + jsonString(Vars[V]);
    S += "],\n  \"formula\": " + jsonString(F->str()) +
         ",\n  \"computed\": true,\n  \"exact\": true,\n  \"samples\": " +
         std::to_string(T.numRows()) + "\n}\n";
    std::printf("%s", S.c_str());
    return 0;
  }
  std::string Vs;
  for (size_t V = 0; V < Vars.size(); ++V)
    Vs += (V ? ", " : "") + Vars[V];
  std::printf("target: %s\nvariables: %s\nformula: %s\ncomputed, not fitted: "
              "matches all %zu samples\n",
              Target.c_str(), Vs.c_str(), F->str().c_str(), T.numRows());
  return 0;
}

const Syntax CommandSyntax = {fitTableUsage, "fit-table: unknown option '{0}'",
                              "option '{0}' needs a value", true};
#define KLARAPTOR_OPTIONS_INC "FitTableOptions.inc"
#include "OptionTable.def"

} // namespace

int runFitTable(const Args &A) {
  llvm::opt::InputArgList Opts;
  if (int Status = options().parse(A, Opts); Status >= 0)
    return Status;
  const std::vector<std::string> Files = Opts.getAllArgValues(OPT_INPUT);
  if (Files.size() > 1) {
    error("fit-table: more than one input file ('" + Files[0] + "' and '" +
          Files[1] + "')");
    return 1;
  }
  const std::string File = Files.empty() ? "" : Files[0],
                    Target = Opts.getLastArgValue(OPT_target).str(),
                    Name = Opts.getLastArgValue(OPT_name).str(),
                    FormulaText = Opts.getLastArgValue(OPT_formula).str(),
                    DegreesText = Opts.getLastArgValue(OPT_degrees).str();
  const std::vector<std::string> Evals = Opts.getAllArgValues(OPT_eval);
  std::vector<std::string> Vars;
  if (const llvm::opt::Arg *V = Opts.getLastArg(OPT_vars))
    Vars = splitList(V->getValue(), ',');
  const bool Json = Opts.hasArg(OPT_json), EmitC = Opts.hasArg(OPT_emit_c),
             HaveDegrees = Opts.hasArg(OPT_degrees);
  if (Opts.hasArg(OPT_name) && !isIdentifier(Name)) {
    error("--name: '" + Name + "' is not a C identifier");
    return 1;
  }
  FitOptions O;
  if (const llvm::opt::Arg *V = Opts.getLastArg(OPT_extrapolate))
    O.Extrapolate = splitList(V->getValue(), ',');
  auto BadValue = [](const llvm::opt::Arg *Arg, const std::string &Expected) {
    error("option '" + Arg->getOption().getPrefixedName().str() + "' expects " +
          Expected + ", found '" + Arg->getValue() + "'");
    return 1;
  };
  for (auto [Id, Out] : {std::pair{OPT_max_degree, &O.MaxNumDegree},
                         {OPT_max_degree_sum, &O.MaxNumDegreeSum},
                         {OPT_max_den_degree, &O.MaxDenDegree},
                         {OPT_max_den_degree_sum, &O.MaxDenDegreeSum},
                         {OPT_min_threads, &O.MinThreads},
                         {OPT_full_splits, &O.FullSplits},
                         {OPT_screen_candidates, &O.ScreenCandidates},
                         {OPT_max_threads, &O.MaxBlock}})
    if (const llvm::opt::Arg *Arg = Opts.getLastArg(Id))
      if (!parseUnsigned(Arg->getValue(), *Out))
        return BadValue(Arg, "a non-negative integer");
  struct Bounded {
    OptionID Id;
    double *Out, Lo, Hi;
  };
  for (const Bounded &B : {Bounded{OPT_holdout, &O.HoldOutFraction, 0.05, 0.5},
                           {OPT_tie, &O.TieFactor, 1.0, 10.0},
                           {OPT_rcond, &O.RCond, 0.0, 0.1},
                           {OPT_piece_threshold, &O.PieceThreshold, 0.0, 1e300},
                           {OPT_max_size, &O.MaxSize, 1.0, 1e300}})
    if (const llvm::opt::Arg *Arg = Opts.getLastArg(B.Id))
      if (!parseDouble(Arg->getValue(), *B.Out) || *B.Out < B.Lo ||
          *B.Out > B.Hi) {
        char Range[96];
        std::snprintf(Range, sizeof Range, "[%g, %g]", B.Lo, B.Hi);
        return BadValue(Arg, "a number in " + std::string(Range));
      }
  if (const llvm::opt::Arg *Arg = Opts.getLastArg(OPT_block_values)) {
    const llvm::StringRef V = Arg->getValue();
    if (V != "pow2" && V != "sampled") {
      error("--block-values expects 'pow2' or 'sampled', found '" + V.str() +
            "'");
      return 1;
    }
    O.BlockValuesSampled = V == "sampled";
  }
  if (const llvm::opt::Arg *Arg = Opts.getLastArg(OPT_weights)) {
    std::optional<Weighting> W =
        llvm::StringSwitch<std::optional<Weighting>>(Arg->getValue())
            .Case("auto", Weighting::Auto)
            .Case("relative", Weighting::Relative)
            .Case("absolute", Weighting::Absolute)
            .Default(std::nullopt);
    if (!W) {
      error("--weights expects 'auto', 'relative' or 'absolute', found '" +
            std::string(Arg->getValue()) + "'");
      return 1;
    }
    O.Weights = *W;
  }
  if (const llvm::opt::Arg *Arg = Opts.getLastArg(OPT_exact, OPT_no_exact))
    O.Exact =
        Arg->getOption().matches(OPT_exact) ? Choice::Always : Choice::Never;
  if (const llvm::opt::Arg *Arg = Opts.getLastArg(OPT_pieces, OPT_no_pieces))
    O.Pieces =
        Arg->getOption().matches(OPT_pieces) ? Choice::Always : Choice::Never;
  O.AllowNegative = Opts.hasArg(OPT_allow_negative);
  O.Trace = Opts.hasArg(OPT_trace);
  if (File.empty()) {
    error("fit-table: no input file (usage: klaraptor fit-table FILE.csv "
          "--target COLUMN)");
    return 1;
  }
  if (Target.empty()) {
    error("fit-table: no target column (use --target COLUMN)");
    return 1;
  }
  if (O.MinThreads > O.MaxBlock) {
    error("--min-threads is larger than --max-threads");
    return 1;
  }
  std::string Err;
  std::optional<DataTable> T = readCsv(File, Err);
  if (!T) {
    error(Err);
    return 1;
  }
  if (T->column(Target) < 0) {
    std::string Cols;
    for (size_t I = 0; I < T->numColumns(); ++I)
      Cols += (I ? ", " : "") + T->names()[I];
    error(File + ": no column '" + Target + "' (columns: " + Cols + ")");
    return 1;
  }
  if (!FormulaText.empty())
    return runFormula(*T, Target, Vars, FormulaText, Evals, Json, EmitC, Name);

  std::vector<std::string> Warnings;
  std::optional<FitProblem> P = makeProblem(*T, Target, Vars, O, Warnings, Err);
  for (const auto &W : Warnings)
    warning(W);
  if (!P) {
    error(Err);
    return 1;
  }
  if (HaveDegrees) {
    size_t Slash = DegreesText.find('/');
    std::string DenText =
        Slash == std::string::npos ? "" : DegreesText.substr(Slash + 1);
    std::vector<unsigned> Num, Den;
    bool Monomial = !DenText.empty() && DenText.find('=') == std::string::npos;
    if (!parseBounds(DegreesText.substr(0, Slash), P->Vars, Num, Err) ||
        !(Monomial ? parseMonomial(DenText, P->Vars, Den, Err)
                   : parseBounds(DenText, P->Vars, Den, Err))) {
      error(Err);
      return 1;
    }
    O.FixedNum = Num;
    O.FixedDen = Den;
    O.FixedDenMonomial = Monomial;
  }
  FitReport R = fitQuantity(*P, O);
  if (!R.ok()) {
    error(R.Error);
    return 1;
  }
  if (!Evals.empty()) {
    for (const auto &E : Evals) {
      std::vector<double> X;
      if (!parsePoint(E, R.Model.Vars, X, Err)) {
        error(Err);
        return 1;
      }
      if (R.Model.IntegerArgs)
        for (double D : X)
          if (D != std::trunc(D) || std::fabs(D) > 9e18) {
            error("--eval: '" + printNumber(D) +
                  "' is not an integer (the variables of this fit are)");
            return 1;
          }
      std::printf("%s\n", printNumber(R.Model.evaluate(X.data())).c_str());
    }
    return 0;
  }
  if (EmitC) {
    for (const auto &V : R.Model.Vars)
      if (!isValidCParameterName(V)) {
        error("--emit-c: column '" + V +
              "' cannot be a parameter of the C function (a C keyword or "
              "reserved name)");
        return 1;
      }
    std::vector<std::string> Comment;
    std::string Vs;
    for (size_t V = 0; V < R.Model.Vars.size(); ++V)
      Vs += (V ? ", " : "") + R.Model.Vars[V];
    Comment.push_back(Target + "(" + Vs + ") ~ " + R.Model.str(12));
    char Buf[160];
    std::snprintf(Buf, sizeof Buf,
                  "%s; held-out error %.3g (rms relative); %zu samples from %s",
                  R.Model.exact() ? "exact" : "least-squares fit", R.HeldOut,
                  P->Y.size(), File.c_str());
    Comment.push_back(Buf);
    std::printf("%s\n%s", emitCPreamble("klaraptor fit-table").c_str(),
                emitCFunction(
                    R.Model, Name.empty() ? defaultCFunctionName(Target) : Name,
                    Comment)
                    .c_str());
    return 0;
  }
  std::printf("%s",
              Json ? formatReportJson(R).c_str() : formatReport(R).c_str());
  return 0;
}

} // namespace cli
} // namespace klaraptor
