//===- ExactTest.cpp - GMP wrappers, exact decimals, simplest rationals ---===//
///
/// \file
/// Exact.h: decimals and fractions read exactly, the simplest rational in
/// an interval (the best approximation of small height), correct rounding.
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/Exact.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace klaraptor::fitting;

namespace {

Mpq dec(const char *S) {
  auto Q = parseExactDecimal(S);
  EXPECT_TRUE(Q.has_value()) << S;
  return Q ? *Q : Mpq();
}

TEST(Exact, ParsesDecimalsAndFractionsExactly) {
  EXPECT_EQ(dec("0.1").str(), "1/10");
  EXPECT_EQ(dec("-12").str(), "-12");
  EXPECT_EQ(dec("2.5e-3").str(), "1/400");
  EXPECT_EQ(dec("1E3").str(), "1000");
  EXPECT_EQ(dec("+.5").str(), "1/2");
  EXPECT_EQ(dec("-7/3").str(), "-7/3");
  EXPECT_EQ(dec("0.5/0.25").str(), "2");
  for (const char *Bad :
       {"", "abc", "0x10", "inf", "nan", "1e", "1/0", "1/2/3", "--1"})
    EXPECT_FALSE(parseExactDecimal(Bad).has_value()) << Bad;
}

TEST(Exact, SimplestRationalInAnInterval) {
  EXPECT_EQ(simplestRationalBetween(dec("0.33"), dec("0.34")).str(), "1/3");
  EXPECT_EQ(simplestRationalBetween(dec("-0.34"), dec("-0.33")).str(), "-1/3");
  EXPECT_EQ(simplestRationalBetween(dec("2"), dec("3")).str(), "2");
  EXPECT_EQ(simplestRationalBetween(dec("2.5"), dec("3.5")).str(), "3");
  EXPECT_EQ(simplestRationalBetween(dec("-0.5"), dec("0.25")).str(), "0");
  EXPECT_EQ(simplestRationalBetween(dec("1/7"), dec("1/7")).str(), "1/7");
  // 355/113 is the first convergent of pi within 3e-7.
  EXPECT_EQ(simplestRationalNear(M_PI, 3e-7).str(), "355/113");
  EXPECT_EQ(simplestRationalNear(M_PI, 2e-3).str(), "22/7");
}

TEST(Exact, RecoversSmallRationalsFromDoubles) {
  EXPECT_EQ(simplestRationalNear(0.1, 1e-12).str(), "1/10");
  EXPECT_EQ(simplestRationalNear(-3.0 / 7.0, 1e-12).str(), "-3/7");
  EXPECT_EQ(simplestRationalNear(1e-13, 1e-12).str(), "0");
  EXPECT_EQ(simplestRationalNear(12345.0 / 1024.0, 1e-9).str(), "12345/1024");
}

TEST(Exact, ToDoubleRoundsToNearest) {
  EXPECT_EQ(Mpq(1, 3).toDouble(), 1.0 / 3.0);
  EXPECT_EQ(Mpq(-2, 3).toDouble(), -2.0 / 3.0);
  EXPECT_EQ(Mpq(1, 10).toDouble(), 0.1);
  EXPECT_EQ(Mpq::fromDouble(0.1).toDouble(), 0.1);
  // 2^53 + 1 rounds to even (2^53), 2^53 + 3 up.
  Mpq Big;
  mpq_set_str(Big.get(), "9007199254740993", 10);
  EXPECT_EQ(Big.toDouble(), 9007199254740992.0);
  mpq_set_str(Big.get(), "9007199254740995", 10);
  EXPECT_EQ(Big.toDouble(), 9007199254740996.0);
}

TEST(Exact, Int64Conversion) {
  Mpz Z;
  int64_t V;
  mpz_set_str(Z.get(), "9223372036854775807", 10);
  EXPECT_TRUE(Z.toInt64(V));
  EXPECT_EQ(V, INT64_MAX);
  mpz_set_str(Z.get(), "9223372036854775808", 10);
  EXPECT_FALSE(Z.toInt64(V));
}

} // namespace
