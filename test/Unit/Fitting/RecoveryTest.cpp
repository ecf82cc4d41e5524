//===- RecoveryTest.cpp - model selection and exact recovery --------------===//
///
/// \file
/// Exact data from known polynomials and rational functions in 1 to 4
/// variables must come back exactly; the selection must prefer the simpler
/// function, respect the region check, split into pieces when one function
/// cannot be exact, and report rank deficiency and ill-conditioning.
//===----------------------------------------------------------------------===//
#include "FitTestSupport.h"

#include "klaraptor/fitting/Report.h"

#include <gtest/gtest.h>

using namespace klaraptor::fitting;
using namespace klaraptor::fitting::test;

namespace {

using ExactFn = std::function<Mpq(const std::vector<Mpq> &)>;

/// Fits \p P, expects an exact single-piece fit, and checks it against \p F
/// exactly at \p Far points (far outside the samples).
void expectExact(const FitProblem &P, const ExactFn &F,
                 const std::vector<std::vector<double>> &Far,
                 const std::string &Expected = "") {
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok()) << R.Error;
  ASSERT_EQ(R.Model.Pieces.size(), 1u) << formatReport(R);
  const RationalFunction &Fn = R.Model.Pieces[0].F;
  EXPECT_TRUE(Fn.Exact) << formatReport(R);
  if (!Fn.Exact)
    return;
  if (!Expected.empty())
    EXPECT_EQ(Fn.str(P.Vars), Expected);
  for (const auto &X : Far) {
    std::vector<Mpq> XQ;
    for (double V : X)
      XQ.push_back(Mpq::fromDouble(V));
    Mpq Got;
    ASSERT_TRUE(Fn.evaluateExact(XQ, Got));
    EXPECT_EQ(Got, F(XQ)) << "at " << X[0];
  }
}

TEST(Recovery, Polynomial1D) {
  ExactFn F = [](const std::vector<Mpq> &X) {
    return q(3) * X[0] * X[0] + q(5) * X[0] + q(7);
  };
  expectExact(exactProblem({"N"}, grid({range(1, 40, 1)}), F), F,
              {{8192}, {1 << 20}}, "3*N^2 + 5*N + 7");
}

TEST(Recovery, Rational1D) {
  ExactFn F = [](const std::vector<Mpq> &X) {
    return (q(2) * X[0] + q(1)) / (X[0] + q(3));
  };
  expectExact(exactProblem({"N"}, grid({range(1, 40, 1)}), F), F, {{8192}},
              "(2*N + 1) / (N + 3)");
}

TEST(Recovery, Rational2D) {
  ExactFn F = [](const std::vector<Mpq> &X) {
    return (X[0] * X[0] + X[0]) / (X[1] + q(1));
  };
  expectExact(exactProblem({"N", "bx"},
                           grid({range(16, 256, 16), powersOfTwo(32, 1024)}),
                           F),
              F, {{8192, 32}, {65536, 1024}}, "(N^2 + N) / (bx + 1)");
}

TEST(Recovery, OneTermDenominator2D) {
  ExactFn F = [](const std::vector<Mpq> &X) {
    return q(3) * X[0] * X[0] / X[1] + q(5) * X[0] + q(7);
  };
  expectExact(exactProblem({"N", "bx"},
                           grid({range(8, 256, 8), powersOfTwo(32, 1024)}), F),
              F, {{8192, 32}, {8192, 1024}}, "(5*N*bx + 3*N^2 + 7*bx) / bx");
}

TEST(Recovery, Rational3D) {
  ExactFn F = [](const std::vector<Mpq> &X) {
    return X[0] * X[0] / (X[1] * X[2]) + q(2) * X[0] + q(1, 2);
  };
  expectExact(exactProblem({"N", "bx", "by"},
                           grid({range(16, 256, 16), powersOfTwo(8, 256),
                                 powersOfTwo(1, 16)}),
                           F),
              F, {{8192, 32, 4}, {65536, 1024, 1}});
}

TEST(Recovery, Rational4D) {
  ExactFn F = [](const std::vector<Mpq> &X) {
    return q(4) * X[0] * X[1] / (X[2] * X[3]) + X[0] + q(3);
  };
  expectExact(exactProblem({"N", "M", "bx", "by"},
                           grid({range(32, 256, 32), range(16, 128, 16),
                                 powersOfTwo(8, 128), powersOfTwo(1, 8)}),
                           F),
              F, {{8192, 4096, 32, 4}});
}

TEST(Recovery, Polynomial4D) {
  ExactFn F = [](const std::vector<Mpq> &X) {
    return q(3) * X[0] * X[1] + q(2) * X[0] * X[2] + X[1] + q(7) + X[3];
  };
  expectExact(exactProblem({"N", "M", "bx", "by"},
                           grid({range(16, 96, 16), range(8, 48, 8),
                                 powersOfTwo(32, 256), powersOfTwo(1, 8)}),
                           F),
              F, {{8192, 4096, 32, 4}});
}

TEST(Recovery, IntegerCountsAreExactData) {
  // Integer values are exact data without any p/q text.
  FitProblem P;
  P.Target = "y";
  P.Vars = {"N"};
  for (int N = 1; N <= 30; ++N) {
    P.X.push_back({double(N)});
    P.Y.push_back(N * (N + 1) / 2.0 * 2);
    P.Lines.push_back(unsigned(N));
  }
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok());
  EXPECT_TRUE(R.ExactData);
  EXPECT_TRUE(R.Model.exact());
  EXPECT_EQ(R.Model.str(), "N^2 + N");
}

TEST(Recovery, NonRationalIntegerDataFallsBackToTheFloatFit) {
  FitProblem P;
  P.Target = "y";
  P.Vars = {"N"};
  for (int N = 1; N <= 60; ++N) {
    P.X.push_back({double(N)});
    P.Y.push_back(std::round(1000 * std::sqrt(double(N))));
    P.Lines.push_back(unsigned(N));
  }
  FitOptions O;
  O.Pieces = Choice::Never;
  FitReport R = fitQuantity(P, O);
  ASSERT_TRUE(R.ok());
  EXPECT_TRUE(R.ExactData);
  EXPECT_FALSE(R.Model.exact());
  EXPECT_TRUE(R.Stats[0].ExactTried);
  EXPECT_EQ(R.Stats[0].ExactNote,
            "no small-height rational coefficients reproduce every sample");
  EXPECT_LT(R.Stats[0].Residual, 0.01);
}

TEST(Selection, PrefersTheSimplerFunctionAmongTies) {
  FitProblem P;
  P.Target = "y";
  P.Vars = {"N", "bx"};
  for (double N : range(1, 20, 1))
    for (double Bx : {32.0, 64.0, 128.0}) {
      P.X.push_back({N, Bx});
      P.Y.push_back(5 * N + 7);
      P.Lines.push_back(unsigned(P.Y.size()));
    }
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok());
  EXPECT_EQ(R.Model.str(), "5*N + 7");
  EXPECT_EQ(R.Stats[0].Unknowns, 2u);
  EXPECT_EQ(R.Stats[0].HeldOutRule, "N >= 16");
}

TEST(Selection, NeverMoreUnknownsThanTrainingSamples) {
  FitProblem P;
  P.Target = "y";
  P.Vars = {"N"};
  for (double N : {1.0, 2.0, 3.0, 4.0, 5.0}) {
    P.X.push_back({N});
    P.Y.push_back(N * N * N + 0.5 * std::sin(N));
    P.Lines.push_back(unsigned(N));
  }
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok()) << R.Error;
  EXPECT_LE(R.Stats[0].Unknowns + 1, R.Stats[0].TrainSamples);
}

TEST(Selection, DenominatorVanishingOnTheRegionIsRejected) {
  // 10000 / (300 - N) has its pole inside the region N <= 65536.
  FitProblem P = exactProblem(
      {"N"}, grid({range(16, 256, 8)}),
      [](const std::vector<Mpq> &X) { return q(10000) / (q(300) - X[0]); });
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok()) << R.Error;
  EXPECT_GT(R.Stats[0].RejectedByRegion, 0u);
  const RationalFunction &F = R.Model.Pieces[0].F;
  for (double N = 16; N <= 65536; N *= 1.01) {
    double X[1] = {N};
    EXPECT_GT(F.denominator(X) * F.DenSign, 0) << N;
  }
  // With the region ending below the pole, the exact function is fine.
  FitOptions O;
  O.MaxSize = 280;
  FitReport R2 = fitQuantity(P, O);
  ASSERT_TRUE(R2.ok());
  EXPECT_TRUE(R2.Model.exact());
  EXPECT_EQ(R2.Model.str(), "10000 / (-N + 300)");
}

TEST(Selection, RegionDefaults) {
  FitProblem P = exactProblem(
      {"N", "bx"}, grid({range(16, 256, 16), powersOfTwo(32, 1024)}),
      [](const std::vector<Mpq> &X) { return X[0] / X[1]; });
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok());
  ASSERT_EQ(R.Region.size(), 2u);
  EXPECT_TRUE(R.Region[0].IsRange);
  EXPECT_EQ(R.Region[0].Lo, 16);
  EXPECT_EQ(R.Region[0].Hi, 65536);
  EXPECT_FALSE(R.Region[1].IsRange);
  EXPECT_EQ(R.Region[1].Values.front(), 1);
  EXPECT_EQ(R.Region[1].Values.back(), 1024);
}

/// min(N, bx) * by, exact, on a grid of powers of two.
FitProblem minOfTwoTimesBy() {
  return exactProblem(
      {"N", "bx", "by"},
      grid({powersOfTwo(16, 512), powersOfTwo(32, 1024), powersOfTwo(1, 4)}),
      [](const std::vector<Mpq> &X) {
        return (X[0] < X[1] ? X[0] : X[1]) * X[2];
      });
}

TEST(Pieces, MinOfTwoVariablesIsFittedPerPiece) {
  FitProblem P = minOfTwoTimesBy();
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok());
  ASSERT_EQ(R.Model.Pieces.size(), 2u) << formatReport(R);
  EXPECT_TRUE(R.Model.exact());
  ASSERT_TRUE(R.Model.Pieces[0].Condition.has_value());
  EXPECT_EQ(R.Model.Pieces[0].Condition->str(P.Vars), "N <= bx");
  EXPECT_EQ(R.Model.str(), "if N <= bx: N*by; otherwise: bx*by");
  double A[3] = {8192, 256, 2}, B[3] = {100, 256, 2};
  EXPECT_EQ(R.Model.evaluate(A), 512);
  EXPECT_EQ(R.Model.evaluate(B), 200);
}

TEST(Pieces, NotTriedWhenOneFunctionIsExact) {
  FitProblem P = exactProblem(
      {"N", "bx"}, grid({range(16, 256, 16), powersOfTwo(32, 1024)}),
      [](const std::vector<Mpq> &X) { return X[0] / X[1]; });
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok());
  EXPECT_EQ(R.PredicatesTried, 0u);
  EXPECT_EQ(R.Model.str(), "N / bx");
}

TEST(Pieces, SplitsThatCannotBeExactAreNotSelected) {
  // Integer data that no rational function of the candidates' degrees
  // reproduces on any split: every split is ruled out by one SVD of the
  // largest candidate's system, none goes through the selection.
  FitProblem P = exactProblem(
      {"N", "bx"}, grid({range(16, 256, 16), powersOfTwo(32, 1024)}),
      [](const std::vector<Mpq> &X) {
        // N^2 mod 101 + bx mod 7 + 1: integers, not rational in N, bx.
        long N = long(X[0].toDouble()), B = long(X[1].toDouble());
        return Mpq(N * N % 101 + B % 7 + 1);
      });
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok()) << R.Error;
  EXPECT_FALSE(R.Model.exact());
  EXPECT_GT(R.PredicatesTried, 0u);
  EXPECT_EQ(R.SplitsSelected, 0u);
  EXPECT_EQ(R.Model.Pieces.size(), 1u);
}

TEST(Pieces, ExactSplitSurvivesTheExactnessCheck) {
  // min(N, bx)*by: the split N <= bx gives two exact pieces; the check
  // keeps it (and the first exact pair is taken).
  FitProblem P = minOfTwoTimesBy();
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok());
  EXPECT_TRUE(R.Model.exact());
  EXPECT_EQ(R.SplitsSelected, 1u);
}

/// Two functions of N and bx split at bx = 128, with 1 % noise.
FitProblem noisyTwoPieces() {
  Gaussian G(7);
  FitProblem P;
  P.Target = "y";
  P.Vars = {"N", "bx"};
  for (double N = 16; N <= 256; N += 16)
    for (double B : powersOfTwo(32, 1024)) {
      double Y = B <= 128 ? 4 * N * N / B + 9 : 0.5 * N * N + 40 * N;
      P.X.push_back({N, B});
      P.Y.push_back(Y * (1 + 0.01 * G()));
      P.Lines.push_back(unsigned(P.Y.size()));
    }
  return P;
}

TEST(Pieces, ScreeningKeepsTheSplitOfTheFullSearch) {
  // Noisy piecewise data: the screened search (the single function's best
  // candidates on every split, the full selection on the best two) picks
  // the split and the functions the full search on every split picks.
  FitProblem P = noisyTwoPieces();
  FitOptions Screened;
  FitOptions Full;
  Full.FullSplits = 0;
  FitReport A = fitQuantity(P, Screened), B = fitQuantity(P, Full);
  ASSERT_TRUE(A.ok()) << A.Error;
  ASSERT_TRUE(B.ok()) << B.Error;
  ASSERT_EQ(B.Model.Pieces.size(), 2u) << formatReport(B);
  EXPECT_EQ(A.PredicatesTried, B.PredicatesTried);
  EXPECT_LE(A.SplitsSelected, Screened.FullSplits);
  EXPECT_EQ(B.SplitsSelected, B.PredicatesTried);
  EXPECT_EQ(A.Model.str(), B.Model.str());
  EXPECT_EQ(A.HeldOut, B.HeldOut);
}

TEST(Pieces, AGivenSingleFunctionIsNotSelectedAgain) {
  // The report of a fit without pieces stands in for the single-function
  // selection: the result is that of a fit from scratch.
  FitProblem P = noisyTwoPieces();
  FitOptions NoPieces;
  NoPieces.Pieces = Choice::Never;
  FitReport Single = fitQuantity(P, NoPieces);
  ASSERT_TRUE(Single.ok()) << Single.Error;
  EXPECT_EQ(Single.Model.Pieces.size(), 1u);
  EXPECT_FALSE(Single.Shortlist.empty());
  FitReport Fresh = fitQuantity(P, FitOptions());
  FitReport Reused = fitQuantity(P, FitOptions(), &Single);
  ASSERT_TRUE(Reused.ok()) << Reused.Error;
  ASSERT_EQ(Fresh.Model.Pieces.size(), 2u);
  EXPECT_EQ(Reused.Model.str(), Fresh.Model.str());
  EXPECT_EQ(Reused.HeldOut, Fresh.HeldOut);
  EXPECT_EQ(Reused.SingleHeldOut, Fresh.SingleHeldOut);
}

/// Exact samples of 2*N^3/(bx*by) + N, whose numerator lies beyond the cap
/// on the bounds' sum.
FitProblem beyondTheDegreeCap() {
  return exactProblem(
      {"N", "bx", "by"},
      grid({{16, 32, 48, 64, 96, 128, 192, 256}, powersOfTwo(1, 256),
            powersOfTwo(1, 32)}),
      [](const std::vector<Mpq> &X) {
        return Mpq(2) * X[0] * X[0] * X[0] / (X[1] * X[2]) + X[0];
      });
}

TEST(Selection, NumeratorBeyondTheDegreeCapIsRecoveredWhenExact) {
  // 2*N^3/(bx*by) + N = (2*N^3 + N*bx*by) / (bx*by): the numerator's box
  // N<=3 bx<=1 by<=1 is past the cap on the bounds' sum (4); exact data
  // reach it through its subset of total degree 3.
  FitProblem P = beyondTheDegreeCap();
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok()) << R.Error;
  EXPECT_TRUE(R.Model.exact()) << formatReport(R);
  EXPECT_EQ(R.Model.str(), "(N*bx*by + 2*N^3) / (bx*by)");
  int64_t X[3] = {4096, 16, 8};
  EXPECT_EQ(R.Model.evaluate(X), 2.0 * 4096 * 4096 * 4096 / 128 + 4096);
}

TEST(Pieces, AGivenFitBeyondTheDegreeCapKeepsItsFunctionAndNote) {
  // The larger numerators are tried once, in the fit without pieces; a fit
  // given that report neither tries them again nor loses what they found.
  FitProblem P = beyondTheDegreeCap();
  FitOptions NoPieces;
  NoPieces.Pieces = Choice::Never;
  FitReport Single = fitQuantity(P, NoPieces);
  ASSERT_TRUE(Single.ok()) << Single.Error;
  ASSERT_EQ(Single.Notes.size(), 1u) << formatReport(Single);
  FitReport Reused = fitQuantity(P, FitOptions(), &Single);
  ASSERT_TRUE(Reused.ok()) << Reused.Error;
  EXPECT_TRUE(Reused.Model.exact());
  EXPECT_EQ(Reused.Model.str(), "(N*bx*by + 2*N^3) / (bx*by)");
  EXPECT_EQ(Reused.Notes, Single.Notes);
}

TEST(Numerics, RankDeficientSystemReportsItsRank) {
  FitProblem P;
  P.Target = "y";
  P.Vars = {"a", "b"};
  for (double A = 1; A <= 20; ++A) {
    P.X.push_back({A, 2 * A});
    P.Y.push_back(3 * A + 1);
    P.Lines.push_back(unsigned(A));
  }
  FitOptions O;
  O.FixedNum = std::vector<unsigned>{1, 1};
  O.FixedDen = std::vector<unsigned>{0, 0};
  FitReport R = fitQuantity(P, O);
  ASSERT_TRUE(R.ok()) << R.Error;
  EXPECT_EQ(R.Stats[0].Columns, 4u);
  EXPECT_EQ(R.Stats[0].Rank, 3);
  EXPECT_LT(R.Stats[0].Residual, 1e-12);
  EXPECT_NE(
      formatReport(R).find("rank-deficient; the minimum-norm solution is used"),
      std::string::npos);
  // Left to itself the selection keeps one of the two collinear variables.
  FitReport Auto = fitQuantity(P, FitOptions());
  ASSERT_TRUE(Auto.ok());
  EXPECT_EQ(Auto.Model.str(), "3*a + 1");
}

TEST(Numerics, IllConditionedInputsAreFittedAndReported) {
  // A narrow range far from zero: the scaled monomials are nearly equal.
  FitProblem P;
  P.Target = "y";
  P.Vars = {"N"};
  for (double N = 1000000; N <= 1000100; N += 5) {
    P.X.push_back({N});
    P.Y.push_back(3 * N * N + 5);
    P.Lines.push_back(unsigned(P.Y.size()));
  }
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok());
  EXPECT_GT(R.Stats[0].Condition, 1e6);
  EXPECT_LT(R.Stats[0].Residual, 1e-9);
  EXPECT_LT(R.Stats[0].HeldOutError, 1e-9);
}

TEST(Report, JsonCarriesTheCoefficients) {
  FitProblem P = exactProblem({"N", "bx"},
                              grid({range(16, 256, 16), powersOfTwo(32, 1024)}),
                              [](const std::vector<Mpq> &X) {
                                return (X[0] * X[0] + X[0]) / (X[1] + q(1));
                              });
  FitReport R = fitQuantity(P, FitOptions());
  ASSERT_TRUE(R.ok());
  std::string J = formatReportJson(R);
  for (const char *Key :
       {"\"exact\": true", "\"function\": \"(N^2 + N) / (bx + 1)\"",
        "\"numerator_degrees\": {\"N\": 2, \"bx\": 0}", "\"exact\": \"1\"",
        "\"held_out_rule\": \"N >= 208\"", "\"condition_number\"",
        "\"rank\": 4"})
    EXPECT_NE(J.find(Key), std::string::npos) << Key << "\n" << J;
}

} // namespace
