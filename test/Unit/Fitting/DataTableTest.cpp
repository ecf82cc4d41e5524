//===- DataTableTest.cpp - CSV reading and problem construction -----------===//
///
/// \file
/// The CSV dialect, located error messages (file:line:column), and the
/// checks makeProblem makes: missing columns, negative values, constant
/// columns, too few samples.
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/DataTable.h"
#include "klaraptor/fitting/Fitter.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace klaraptor::fitting;

namespace {

std::string csvError(const std::string &Text) {
  std::string Error;
  auto T = parseCsv(Text, "data.csv", Error);
  EXPECT_FALSE(T.has_value());
  return Error;
}

TEST(DataTable, ReadsNamesValuesTextsAndLines) {
  std::string Error;
  auto T =
      parseCsv("# a comment\nN, bx ,y\n\n16,32,7\n 32 , 64, 0.1\n1e2,2,7/3\n",
               "d.csv", Error);
  ASSERT_TRUE(T.has_value()) << Error;
  ASSERT_EQ(T->numColumns(), 3u);
  EXPECT_EQ(T->names()[1], "bx");
  ASSERT_EQ(T->numRows(), 3u);
  EXPECT_EQ(T->value(1, 0), 32);
  EXPECT_EQ(T->text(1, 2), "0.1");
  EXPECT_EQ(T->value(2, 0), 100);
  EXPECT_DOUBLE_EQ(T->value(2, 2), 7.0 / 3.0);
  EXPECT_EQ(T->text(2, 2), "7/3");
  EXPECT_EQ(T->line(0), 4u);
  EXPECT_EQ(T->line(2), 6u);
  EXPECT_EQ(T->column("y"), 2);
  EXPECT_EQ(T->column("z"), -1);
}

TEST(DataTable, ErrorsNameFileLineAndColumn) {
  EXPECT_EQ(csvError("N,y\n1,2\n3,4\n5,6\n7,8\n9,10\n1,abc\n"),
            "data.csv:7:3: 'abc' is not a number");
  EXPECT_EQ(csvError("N,y\n1,nan\n"),
            "data.csv:2:3: 'nan' is not a finite number");
  EXPECT_EQ(csvError("N,y\n1,inf\n"),
            "data.csv:2:3: 'inf' is not a finite number");
  EXPECT_EQ(csvError("N,y\n1,2,3\n"), "data.csv:2: expected 2 values, found 3");
  EXPECT_EQ(csvError("N,y\n1,\n"), "data.csv:2:3: empty value in column 'y'");
  EXPECT_EQ(csvError("N,2y\n"),
            "data.csv:1:3: column name '2y' is not an identifier");
  EXPECT_EQ(csvError("N,N\n"), "data.csv:1:3: column 'N' given twice");
  EXPECT_EQ(csvError("N,y\n1,1/0\n"), "data.csv:2:3: '1/0' divides by zero");
  EXPECT_EQ(csvError(""),
            "data.csv: empty file (expected a header line of column names)");
  EXPECT_EQ(csvError("# only a comment\n\n"),
            "data.csv: empty file (expected a header line of column names)");
}

TEST(DataTable, MissingFile) {
  std::string Error;
  EXPECT_FALSE(readCsv("/nonexistent/x.csv", Error).has_value());
  EXPECT_EQ(Error,
            "cannot open '/nonexistent/x.csv': No such file or directory");
}

std::optional<FitProblem> problem(const std::string &Text,
                                  const std::string &Target,
                                  std::vector<std::string> &Warnings,
                                  std::string &Error,
                                  bool AllowNegative = false) {
  auto T = parseCsv(Text, "data.csv", Error);
  EXPECT_TRUE(T.has_value()) << Error;
  FitOptions O;
  O.AllowNegative = AllowNegative;
  return makeProblem(*T, Target, {}, O, Warnings, Error);
}

TEST(Problem, MissingTargetNamesTheColumns) {
  std::vector<std::string> W;
  std::string E;
  EXPECT_FALSE(problem("N,y\n1,2\n", "z", W, E).has_value());
  EXPECT_EQ(E, "data.csv: no column 'z' (columns: N, y)");
}

TEST(Problem, NegativeValuesAreErrorsUnlessAllowed) {
  std::vector<std::string> W;
  std::string E;
  EXPECT_FALSE(problem("N,y\n1,2\n2,-3\n", "y", W, E).has_value());
  EXPECT_EQ(E, "data.csv:3: negative value '-3' in column 'y' (use "
               "--allow-negative for signed data)");
  EXPECT_TRUE(problem("N,y\n1,2\n2,-3\n", "y", W, E, true).has_value());
}

TEST(Problem, ConstantColumnsAreDroppedWithAWarning) {
  std::vector<std::string> W;
  std::string E;
  auto P = problem("N,M,y\n1,5,2\n2,5,4\n3,5,6\n", "y", W, E);
  ASSERT_TRUE(P.has_value()) << E;
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0],
            "column 'M' is constant (5) and is dropped from the variables");
  ASSERT_EQ(P->Vars.size(), 1u);
  EXPECT_EQ(P->Vars[0], "N");
}

TEST(Problem, ColumnsEqualToAnEarlierOneAreDroppedWithAWarning) {
  // NJ and NK are NI in every sample: one variable, fitted once.
  std::vector<std::string> W;
  std::string E;
  auto P = problem("NI,NJ,bx,NK,y\n16,16,32,16,8\n32,32,32,32,32\n"
                   "64,64,64,64,64\n128,128,32,128,512\n",
                   "y", W, E);
  ASSERT_TRUE(P.has_value()) << E;
  ASSERT_EQ(W.size(), 2u);
  EXPECT_EQ(W[0], "column 'NJ' equals 'NI' in every sample and is dropped "
                  "from the variables (the fit uses 'NI' for both)");
  EXPECT_EQ(W[1], mergedVariableWarning("NK", "NI"));
  ASSERT_EQ(P->Vars.size(), 2u);
  EXPECT_EQ(P->Vars[0], "NI");
  EXPECT_EQ(P->Vars[1], "bx");
  EXPECT_EQ(P->X[3], (std::vector<double>{128, 32}));
}

TEST(Problem, TooFewSamples) {
  std::vector<std::string> W;
  std::string E;
  auto P = problem("N,y\n1,2\n2,4\n", "y", W, E);
  ASSERT_TRUE(P.has_value()) << E;
  FitReport R = fitQuantity(*P, FitOptions());
  EXPECT_FALSE(R.ok());
  EXPECT_EQ(R.Error,
            "2 samples are too few to fit 'y' (at least 3 are needed)");
}

TEST(Problem, NonFiniteValuesInMemoryAreErrors) {
  FitProblem P;
  P.File = "mem";
  P.Target = "y";
  P.Vars = {"N"};
  P.X = {{1}, {2}, {3}};
  P.Y = {1, NAN, 3};
  P.Lines = {2, 3, 4};
  FitReport R = fitQuantity(P, FitOptions());
  EXPECT_EQ(R.Error, "mem:3: a value is not a finite number");
}

} // namespace
