//===- FormulaTest.cpp - quantities computed exactly, not fitted ----------===//
///
/// \file
/// Formula.h: the pragma's expressions over the fitted variables, their
/// errors, and threads/blocks derived from a parsed KernelSpec.
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/Formula.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace klaraptor;
using namespace klaraptor::fitting;

namespace {

TEST(Formula, ParsesAndEvaluatesThePragmaSyntax) {
  std::string Err;
  auto F = Formula::parse("ceildiv(N, bx) * ceildiv(M, by)",
                          {"N", "M", "bx", "by"}, Err);
  ASSERT_TRUE(F.has_value()) << Err;
  int64_t X[4] = {1000, 30, 32, 8}, V = 0;
  ASSERT_EQ(F->evaluate(X, V), EvalStatus::Ok);
  EXPECT_EQ(V, 32 * 4);
  EXPECT_EQ(F->str(), "(ceildiv(N, bx) * ceildiv(M, by))");
  int64_t Zero[4] = {1, 1, 0, 1};
  EXPECT_EQ(F->evaluate(Zero, V), EvalStatus::DivisionByZero);
  EXPECT_TRUE(std::isnan(F->evaluateAsC(Zero)));
}

TEST(Formula, ErrorsNameTheColumnOfTheFormula) {
  std::string Err;
  EXPECT_FALSE(Formula::parse("N / foo", {"N", "bx"}, Err).has_value());
  EXPECT_EQ(Err, "formula 'N / foo': unknown name 'foo' at column 5");
  EXPECT_FALSE(Formula::parse("N * bz", {"N", "bx"}, Err).has_value());
  EXPECT_EQ(Err, "formula 'N * bz': 'bz' is not a variable");
  EXPECT_FALSE(Formula::parse("(N", {"N"}, Err).has_value());
  EXPECT_EQ(Err, "formula '(N': expected ')' at column 3");
}

TEST(Formula, ThreadsAndBlocksFromTheSpec) {
  std::string Err;
  auto S =
      parseKernelSpec("klaraptor v1\nkernel k\nloc k.cu:1:1\nparam 0 n i32\n"
                      "data N $0\nblock bx by\nwhere ((bx * by) <= 1024)\n"
                      "grid ceildiv(N, bx)\ngrid ceildiv(N, by)\ngrid 1\n"
                      "candidates pow2\n",
                      Err);
  ASSERT_TRUE(S.has_value()) << Err;
  std::vector<std::string> Vars = {"N", "bx", "by"};
  auto T = Formula::threadsPerBlock(*S, Vars, Err);
  ASSERT_TRUE(T.has_value()) << Err;
  auto B = Formula::numBlocks(*S, Vars, Err);
  ASSERT_TRUE(B.has_value()) << Err;
  int64_t X[3] = {1000, 32, 8}, V = 0;
  ASSERT_EQ(T->evaluate(X, V), EvalStatus::Ok);
  EXPECT_EQ(V, 256);
  ASSERT_EQ(B->evaluate(X, V), EvalStatus::Ok);
  EXPECT_EQ(V, 32 * 125);
  EXPECT_EQ(T->str(), "(bx * by)");
  EXPECT_EQ(B->str(), "(ceildiv(N, bx) * ceildiv(N, by))");
  // A free dimension that is not a variable is an error.
  EXPECT_FALSE(Formula::threadsPerBlock(*S, {"N", "bx"}, Err).has_value());
  EXPECT_EQ(Err, "block dimension 'by' is not a variable");
  EXPECT_FALSE(Formula::numBlocks(*S, {"bx", "by"}, Err).has_value());
  EXPECT_EQ(Err, "data parameter 'N' is not a variable");
}

TEST(Formula, DimensionsThePragmaDoesNotFreeAreOne) {
  std::string Err;
  auto S =
      parseKernelSpec("klaraptor v1\nkernel k\nparam 0 n i32\ndata N $0\n"
                      "block bx\ngrid ceildiv(N, (bx * by))\ncandidates pow2\n",
                      Err);
  ASSERT_TRUE(S.has_value()) << Err;
  // 'by' is a column here, but the kernel's blocks have by = 1.
  auto B = Formula::numBlocks(*S, {"N", "bx", "by"}, Err);
  ASSERT_TRUE(B.has_value()) << Err;
  int64_t X[3] = {100, 32, 8}, V = 0;
  ASSERT_EQ(B->evaluate(X, V), EvalStatus::Ok);
  EXPECT_EQ(V, 4);
}

} // namespace
