//===- CEmitterTest.cpp - emitted C against the in-memory evaluation -----===//
///
/// \file
/// Fits several models (exact integer form, least-squares double form,
/// pieces, double arguments, a formula), emits them into one C file with a
/// main() that evaluates every function at many points, compiles it with
/// the C compiler CMake found (KLARAPTOR_TEST_CC), runs it, and requires
/// every printed value ("%a") to equal the in-memory evaluation bit for
/// bit - including points that overflow the 128-bit integer form, zero and
/// wrong-signed denominators (NaN) and negative predictions (clamped).
//===----------------------------------------------------------------------===//
#include "FitTestSupport.h"

#include "klaraptor/fitting/CEmitter.h"
#include "klaraptor/fitting/Formula.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace klaraptor;
using namespace klaraptor::fitting;
using namespace klaraptor::fitting::test;

namespace {

std::string hex(double V) {
  if (std::isnan(V))
    return "nan";
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%a", V);
  return Buf;
}

/// A function to emit, its argument points, and the expected outputs.
struct Emitted {
  std::string Code, Name;
  bool IntegerArgs = true;
  std::vector<std::vector<double>> Points;
  std::vector<std::string> Expected;
};

Emitted fromModel(const FittedModel &M, const std::string &Name,
                  const std::vector<std::vector<double>> &Points) {
  Emitted E;
  E.Code = emitCFunction(M, Name, {"test model " + Name});
  E.Name = Name;
  E.IntegerArgs = M.IntegerArgs;
  E.Points = Points;
  for (const auto &P : Points)
    E.Expected.push_back(hex(M.evaluate(P.data())));
  return E;
}

/// Compiles and runs the functions; returns the lines printed.
std::vector<std::string> compileAndRun(const std::vector<Emitted> &Fns,
                                       std::string &Log) {
  char Dir[] = "/tmp/klaraptor-emit-XXXXXX";
  if (!mkdtemp(Dir)) {
    Log = "mkdtemp failed";
    return {};
  }
  std::string Src = std::string(Dir) + "/fits.c",
              Bin = std::string(Dir) + "/fits";
  std::ofstream Out(Src);
  Out << emitCPreamble("klaraptor FittingTests") << "\n#include <stdio.h>\n\n";
  for (const auto &F : Fns)
    Out << F.Code << "\n";
  Out << "static void show(double v) {\n  if (isnan(v)) printf(\"nan\\n\");\n"
         "  else printf(\"%a\\n\", v);\n}\n\nint main(void) {\n";
  for (const auto &F : Fns)
    for (const auto &P : F.Points) {
      std::string Args;
      for (size_t I = 0; I < P.size(); ++I) {
        char Buf[64];
        if (F.IntegerArgs)
          std::snprintf(Buf, sizeof Buf, "INT64_C(%lld)", (long long)P[I]);
        else
          std::snprintf(Buf, sizeof Buf, "%a", P[I]);
        Args += (I ? ", " : "") + std::string(Buf);
      }
      Out << "  show(" << F.Name << "(" << Args << "));\n";
    }
  Out << "  return 0;\n}\n";
  Out.close();
  std::string Cmd = std::string(KLARAPTOR_TEST_CC) +
                    " -std=c99 -O2 -Wall -Wextra -Werror -o " + Bin + " " +
                    Src + " -lm 2>&1";
  FILE *Cc = popen(Cmd.c_str(), "r");
  char Buf[4096];
  while (Cc && std::fgets(Buf, sizeof Buf, Cc))
    Log += Buf;
  if (!Cc || pclose(Cc) != 0) {
    Log = "compile failed: " + Cmd + "\n" + Log;
    return {};
  }
  std::vector<std::string> Lines;
  FILE *Run = popen(Bin.c_str(), "r");
  while (Run && std::fgets(Buf, sizeof Buf, Run)) {
    std::string L = Buf;
    if (!L.empty() && L.back() == '\n')
      L.pop_back();
    Lines.push_back(L);
  }
  if (Run)
    pclose(Run);
  std::remove(Src.c_str());
  std::remove(Bin.c_str());
  rmdir(Dir);
  return Lines;
}

FittedModel fit(const FitProblem &P, FitOptions O = FitOptions()) {
  FitReport R = fitQuantity(P, O);
  EXPECT_TRUE(R.ok()) << R.Error;
  return R.Model;
}

TEST(CEmitter, EmittedCMatchesTheInMemoryEvaluation) {
  std::vector<Emitted> Fns;
  std::vector<double> Ns = {0,    1,     7,   100,
                            8192, 65536, 1e9, 4611686018427387904.0};
  std::vector<double> Bxs = {-5, -1, 0, 1, 32, 96, 1024};

  // Exact, integer form with a two-term denominator.
  FittedModel Rat = fit(exactProblem(
      {"N", "bx"}, grid({range(16, 256, 16), powersOfTwo(32, 1024)}),
      [](const std::vector<Mpq> &X) {
        return (X[0] * X[0] + X[0]) / (X[1] + q(1));
      }));
  ASSERT_TRUE(Rat.exact());
  ASSERT_TRUE(Rat.Pieces[0].F.HasIntegerForm);
  Fns.push_back(fromModel(Rat, "fit_rational", grid({Ns, Bxs})));

  // Exact with rational coefficients and a one-term denominator.
  FittedModel Mono = fit(exactProblem(
      {"N", "bx"}, grid({range(8, 256, 8), powersOfTwo(32, 1024)}),
      [](const std::vector<Mpq> &X) {
        return q(3, 2) * X[0] * X[0] / X[1] + q(5) * X[0] + q(7, 3);
      }));
  ASSERT_TRUE(Mono.exact());
  Fns.push_back(fromModel(Mono, "fit_mono", grid({Ns, Bxs})));

  // A least-squares fit of noisy data: the double form.
  FittedModel Noisy = fit(noisyProblem(
      {"N", "bx"}, grid({range(8, 256, 8), powersOfTwo(32, 1024)}),
      [](const std::vector<double> &X) {
        return 3 * X[0] * X[0] / X[1] + 5 * X[0] + 7;
      },
      0.01, 3));
  ASSERT_FALSE(Noisy.exact());
  Fns.push_back(fromModel(Noisy, "fit_noisy", grid({Ns, Bxs})));

  // Pieces.
  FittedModel Min = fit(exactProblem(
      {"N", "bx"}, grid({powersOfTwo(16, 512), powersOfTwo(32, 1024)}),
      [](const std::vector<Mpq> &X) { return X[0] < X[1] ? X[0] : X[1]; }));
  ASSERT_EQ(Min.Pieces.size(), 2u);
  Fns.push_back(fromModel(Min, "fit_min", grid({Ns, Bxs})));

  // Non-integer variables: double arguments.
  FitProblem Frac;
  Frac.Target = "y";
  Frac.Vars = {"s"};
  for (double S = 0.5; S <= 20; S += 0.5) {
    Frac.X.push_back({S});
    Frac.Y.push_back(2.5 * S * S + 1);
    Frac.Lines.push_back(unsigned(Frac.Y.size()));
  }
  FittedModel Real = fit(Frac);
  ASSERT_FALSE(Real.IntegerArgs);
  Fns.push_back(
      fromModel(Real, "fit_real", grid({{0.25, 1.5, 3.75, 1e6, -2.5}})));

  // A signed quantity (no clamping) and a non-negative one predicted below
  // zero (clamped): y = 10 - N fitted on N <= 9.
  FitProblem Down;
  Down.Target = "y";
  Down.Vars = {"N"};
  for (double N = 0; N <= 9; ++N) {
    Down.X.push_back({N});
    Down.Y.push_back(10 - N);
    Down.Lines.push_back(unsigned(N + 2));
  }
  FittedModel Clamp = fit(Down);
  ASSERT_TRUE(Clamp.NonNegative);
  Fns.push_back(fromModel(Clamp, "fit_clamp", grid({{0, 5, 20, 1000}})));
  EXPECT_EQ(Clamp.evaluate(std::vector<double>{20}.data()), 0);

  std::string Log;
  std::vector<std::string> Got = compileAndRun(Fns, Log);
  std::vector<std::string> Want;
  for (const auto &F : Fns)
    Want.insert(Want.end(), F.Expected.begin(), F.Expected.end());
  ASSERT_EQ(Got.size(), Want.size()) << Log;
  size_t Mismatches = 0;
  for (size_t I = 0; I < Want.size(); ++I)
    if (Got[I] != Want[I] && ++Mismatches <= 10)
      ADD_FAILURE() << "value " << I << ": C gives " << Got[I] << ", in memory "
                    << Want[I];
  EXPECT_EQ(Mismatches, 0u);
  EXPECT_GT(Want.size(), 200u);
}

TEST(CEmitter, ExactFormAgreesWithExactArithmetic) {
  FittedModel M = fit(exactProblem(
      {"N", "bx"}, grid({range(8, 256, 8), powersOfTwo(32, 1024)}),
      [](const std::vector<Mpq> &X) {
        return q(3, 2) * X[0] * X[0] / X[1] + q(5) * X[0] + q(7, 3);
      }));
  ASSERT_TRUE(M.exact());
  const RationalFunction &F = M.Pieces[0].F;
  for (int64_t N : {1, 3, 100, 8191, 1000003})
    for (int64_t Bx : {1, 3, 32, 1000}) {
      int64_t X[2] = {N, Bx};
      Mpq E;
      ASSERT_TRUE(F.evaluateExact({Mpq(N), Mpq(Bx)}, E));
      double Got = M.evaluate(X);
      // Quotient and remainder: within one unit in the last place.
      EXPECT_LE(std::fabs(Got - E.toDouble()),
                std::fabs(E.toDouble()) * 2.3e-16)
          << N << " " << Bx;
    }
}

TEST(CEmitter, FormulaCompilesAndMatches) {
  std::string Err;
  auto F = Formula::parse(
      "ceildiv(N, bx) * max(by, 2) - N % 7 + (N > bx && bx != 0)",
      {"N", "bx", "by"}, Err);
  ASSERT_TRUE(F.has_value()) << Err;
  Emitted E;
  E.Code = emitCFunction(*F, "blocks", {"a formula"});
  E.Name = "blocks";
  for (double N : {0.0, 1.0, 100.0, 4611686018427387904.0})
    for (double Bx : {0.0, 1.0, 32.0, -3.0})
      for (double By : {1.0, 4.0}) {
        E.Points.push_back({N, Bx, By});
        int64_t X[3] = {int64_t(N), int64_t(Bx), int64_t(By)};
        E.Expected.push_back(hex(F->evaluateAsC(X)));
      }
  std::string Log;
  std::vector<std::string> Got = compileAndRun({E}, Log);
  ASSERT_EQ(Got.size(), E.Expected.size()) << Log;
  for (size_t I = 0; I < Got.size(); ++I)
    EXPECT_EQ(Got[I], E.Expected[I]) << I;
}

TEST(CEmitter, FileStartsWithTheGeneratedLine) {
  std::string P = emitCPreamble("klaraptor fit-table");
  EXPECT_EQ(P.rfind("/* generated by klaraptor fit-table; do not edit */\n", 0),
            0u);
  EXPECT_EQ(defaultCFunctionName("ld-sectors"), "klaraptor_fit_ld_sectors");
}

} // namespace
