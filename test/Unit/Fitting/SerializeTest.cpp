//===- SerializeTest.cpp - fit reports saved as text and read back --------===//
///
/// \file
/// saveFitReport/loadFitReport: exact, noisy, rational and piecewise fits
/// come back identical (same text when saved again, same values everywhere,
/// same report); damaged texts are refused with where reading stopped.
//===----------------------------------------------------------------------===//
#include "FitTestSupport.h"

#include "klaraptor/fitting/Report.h"
#include "klaraptor/fitting/Serialize.h"

#include <gtest/gtest.h>

using namespace klaraptor::fitting;
using namespace klaraptor::fitting::test;

namespace {

/// Saves \p R, loads it back and checks that nothing was lost.
void roundTrip(const FitReport &R) {
  ASSERT_TRUE(R.ok()) << R.Error;
  std::string Text = saveFitReport(R);
  EXPECT_EQ(Text.find('\n'), std::string::npos);
  FitReport Back;
  std::string Error;
  ASSERT_TRUE(loadFitReport(Text, Back, Error)) << Error;
  EXPECT_EQ(saveFitReport(Back), Text);
  EXPECT_EQ(formatReport(Back), formatReport(R));
  EXPECT_EQ(Back.Model.str(), R.Model.str());
  EXPECT_EQ(Back.Model.exact(), R.Model.exact());
  for (int64_t N : {16, 100, 4096, 1 << 20})
    for (int64_t B : {1, 32, 96, 1024}) {
      int64_t X[2] = {N, B};
      double A = R.Model.evaluate(X), C = Back.Model.evaluate(X);
      EXPECT_TRUE(A == C || (std::isnan(A) && std::isnan(C)))
          << N << " " << B << ": " << A << " vs " << C;
    }
}

TEST(Serialize, ExactRational) {
  roundTrip(fitQuantity(
      exactProblem({"N", "bx"},
                   grid({range(16, 256, 16), powersOfTwo(32, 1024)}),
                   [](const std::vector<Mpq> &X) {
                     return (X[0] * X[0] + X[0]) / (X[1] + Mpq(1));
                   }),
      FitOptions()));
}

TEST(Serialize, NoisyLeastSquares) {
  roundTrip(fitQuantity(
      noisyProblem({"N", "bx"},
                   grid({range(8, 256, 8), powersOfTwo(32, 1024)}),
                   [](const std::vector<double> &X) {
                     return 3 * X[0] * X[0] / X[1] + 5 * X[0] + 7;
                   },
                   0.05, 3),
      FitOptions()));
}

TEST(Serialize, ExactPieces) {
  FitReport R = fitQuantity(
      exactProblem({"N", "bx"},
                   grid({powersOfTwo(16, 512), powersOfTwo(32, 1024)}),
                   [](const std::vector<Mpq> &X) {
                     return X[0] < X[1] ? X[0] : X[1];
                   }),
      FitOptions());
  ASSERT_EQ(R.Model.Pieces.size(), 2u);
  roundTrip(R);
}

TEST(Serialize, DamagedTextsAreRefused) {
  FitReport R = fitQuantity(
      exactProblem({"N", "bx"},
                   grid({range(16, 256, 16), powersOfTwo(32, 1024)}),
                   [](const std::vector<Mpq> &X) { return X[0] / X[1]; }),
      FitOptions());
  std::string Text = saveFitReport(R);
  FitReport Back;
  std::string Error;
  EXPECT_FALSE(loadFitReport("", Back, Error));
  EXPECT_FALSE(loadFitReport("klaraptor-fit-report-0 1:y", Back, Error));
  EXPECT_NE(Error.find("format 'klaraptor-fit-report-0'"), std::string::npos)
      << Error;
  // Cut anywhere: refused, never read past the end.
  for (size_t Cut = 0; Cut < Text.size(); Cut += 7)
    EXPECT_FALSE(loadFitReport(Text.substr(0, Cut), Back, Error)) << Cut;
  EXPECT_FALSE(loadFitReport(Text + " 1", Back, Error));
  EXPECT_NE(Error.find("text after the end"), std::string::npos) << Error;
  // A number where a string's length is expected, a huge vector length.
  std::string Bad = Text;
  Bad.replace(Bad.find(" 1:y"), 4, " x:y");
  EXPECT_FALSE(loadFitReport(Bad, Back, Error));
  EXPECT_NE(Error.find("token 2: expected LENGTH:TEXT"), std::string::npos)
      << Error;
  EXPECT_FALSE(loadFitReport(
      "klaraptor-fit-report-1 1:y 4000000000 1:N", Back, Error));
  EXPECT_TRUE(loadFitReport(Text, Back, Error)) << Error;
}

TEST(Serialize, OptionsTextNamesEveryDifference) {
  FitOptions A, B;
  EXPECT_EQ(fitOptionsText(A), fitOptionsText(B));
  B.Pieces = Choice::Never;
  EXPECT_NE(fitOptionsText(A), fitOptionsText(B));
  B = A;
  B.FixedNum = std::vector<unsigned>{1, 0};
  B.FixedDen = std::vector<unsigned>{0, 1};
  EXPECT_NE(fitOptionsText(A), fitOptionsText(B));
  B = A;
  B.HoldOutFraction = 0.3;
  EXPECT_NE(fitOptionsText(A), fitOptionsText(B));
  B = A;
  B.Extrapolate = {"N"};
  EXPECT_NE(fitOptionsText(A), fitOptionsText(B));
}

} // namespace
