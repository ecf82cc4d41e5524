//===- Exact.cpp - GMP wrappers, exact decimals, simplest rationals -------===//
///
/// \file
/// simplestRationalBetween is the classical descent: if the interval holds
/// an integer, the least one in absolute value is the answer; otherwise
/// both ends share the integer part F and the answer is F + 1/s, where s is
/// the simplest rational between the reciprocals of the fractional parts.
/// Each step consumes one partial quotient of the continued fractions of the
/// ends, so the depth is bounded by their length (a few dozen for doubles).
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/Exact.h"

#include <cctype>
#include <cmath>
#include <vector>

namespace klaraptor {
namespace fitting {

std::string Mpz::str() const {
  std::vector<char> Buf(mpz_sizeinbase(V, 10) + 2);
  mpz_get_str(Buf.data(), 10, V);
  return Buf.data();
}

bool Mpz::toInt64(int64_t &Out) const {
  // mpz_fits_slong_p is exact for LP64, where long is 64 bits.
  static_assert(sizeof(long) == 8, "int64_t conversion assumes LP64");
  if (!mpz_fits_slong_p(V))
    return false;
  Out = int64_t(mpz_get_si(V));
  return true;
}

Mpq Mpq::fromDouble(double D) {
  Mpq Q;
  mpq_set_d(Q.V, D);
  return Q;
}

std::string Mpq::str() const {
  std::vector<char> Buf(mpz_sizeinbase(mpq_numref(V), 10) +
                        mpz_sizeinbase(mpq_denref(V), 10) + 3);
  mpq_get_str(Buf.data(), 10, V);
  return Buf.data();
}

double Mpq::toDouble() const {
  double D = mpq_get_d(V); // truncates towards zero
  if (!std::isfinite(D) || sign() == 0)
    return D;
  double Away = std::nextafter(D, sign() > 0 ? INFINITY : -INFINITY);
  if (!std::isfinite(Away))
    return D;
  Mpq DQ = fromDouble(D), AQ = fromDouble(Away), E1, E2;
  mpq_sub(E1.V, V, DQ.V);
  mpq_abs(E1.V, E1.V);
  mpq_sub(E2.V, AQ.V, V);
  mpq_abs(E2.V, E2.V);
  int C = mpq_cmp(E2.V, E1.V);
  if (C < 0)
    return Away;
  if (C > 0)
    return D;
  // A tie: the one with an even last mantissa bit.
  int Exp;
  double M = std::frexp(D, &Exp);
  double Scaled = std::ldexp(M, 53);
  return std::fmod(Scaled, 2.0) == 0 ? D : Away;
}

std::optional<Mpq> parseExactDecimal(const std::string &Text) {
  // "p/q": the quotient of two decimals.
  size_t Slash = Text.find('/');
  if (Slash != std::string::npos) {
    std::optional<Mpq> N = parseExactDecimal(Text.substr(0, Slash));
    std::optional<Mpq> D = parseExactDecimal(Text.substr(Slash + 1));
    if (!N || !D || D->isZero() ||
        Text.find('/', Slash + 1) != std::string::npos)
      return std::nullopt;
    Mpq Q;
    mpq_div(Q.get(), N->get(), D->get());
    return Q;
  }
  const std::string &T = Text;
  size_t I = 0;
  bool Neg = false;
  if (I < T.size() && (T[I] == '+' || T[I] == '-'))
    Neg = T[I++] == '-';
  std::string Digits;
  long FracDigits = 0;
  bool Any = false;
  while (I < T.size() && std::isdigit((unsigned char)T[I])) {
    Digits += T[I++];
    Any = true;
  }
  if (I < T.size() && T[I] == '.') {
    ++I;
    while (I < T.size() && std::isdigit((unsigned char)T[I])) {
      Digits += T[I++];
      ++FracDigits;
      Any = true;
    }
  }
  if (!Any)
    return std::nullopt;
  long Exp = 0;
  if (I < T.size() && (T[I] == 'e' || T[I] == 'E')) {
    ++I;
    bool ENeg = false;
    if (I < T.size() && (T[I] == '+' || T[I] == '-'))
      ENeg = T[I++] == '-';
    bool EAny = false;
    while (I < T.size() && std::isdigit((unsigned char)T[I])) {
      if (Exp > 100000)
        return std::nullopt;
      Exp = Exp * 10 + (T[I++] - '0');
      EAny = true;
    }
    if (!EAny)
      return std::nullopt;
    if (ENeg)
      Exp = -Exp;
  }
  if (I != T.size())
    return std::nullopt;
  Exp -= FracDigits;
  if (Exp > 4000 || Exp < -4000)
    return std::nullopt;
  Mpq Q;
  mpz_set_str(mpq_numref(Q.get()), Digits.c_str(), 10);
  Mpz Pow;
  mpz_ui_pow_ui(Pow.get(), 10, (unsigned long)(Exp < 0 ? -Exp : Exp));
  if (Exp >= 0)
    mpz_mul(mpq_numref(Q.get()), mpq_numref(Q.get()), Pow.get());
  else
    mpz_set(mpq_denref(Q.get()), Pow.get());
  mpq_canonicalize(Q.get());
  if (Neg)
    mpq_neg(Q.get(), Q.get());
  return Q;
}

/// The simplest rational in [Lo, Hi] with 0 < Lo <= Hi.
static void simplestPositive(mpq_srcptr Lo, mpq_srcptr Hi, mpq_ptr Out) {
  Mpz F;
  mpz_fdiv_q(F.get(), mpq_numref(Lo), mpq_denref(Lo)); // floor(Lo)
  if (mpz_cmp_ui(mpq_denref(Lo), 1) == 0) {
    mpq_set(Out, Lo);
    return;
  }
  Mpq F1;
  mpz_add_ui(mpq_numref(F1.get()), F.get(), 1);
  if (mpq_cmp(F1.get(), Hi) <= 0) {
    mpq_set(Out, F1.get());
    return;
  }
  // floor(Lo) < Lo <= Hi < floor(Lo) + 1.
  Mpq FQ, A, B, S;
  mpq_set_z(FQ.get(), F.get());
  mpq_sub(A.get(), Hi, FQ.get());
  mpq_inv(A.get(), A.get()); // 1/(Hi - F), the smaller reciprocal
  mpq_sub(B.get(), Lo, FQ.get());
  mpq_inv(B.get(), B.get()); // 1/(Lo - F)
  simplestPositive(A.get(), B.get(), S.get());
  mpq_inv(S.get(), S.get());
  mpq_add(Out, FQ.get(), S.get());
}

Mpq simplestRationalBetween(const Mpq &Lo, const Mpq &Hi) {
  Mpq R;
  if (Lo.sign() <= 0 && Hi.sign() >= 0)
    return R;
  if (Hi.sign() < 0) {
    Mpq NL, NH;
    mpq_neg(NL.get(), Hi.get());
    mpq_neg(NH.get(), Lo.get());
    simplestPositive(NL.get(), NH.get(), R.get());
    mpq_neg(R.get(), R.get());
    return R;
  }
  simplestPositive(Lo.get(), Hi.get(), R.get());
  return R;
}

Mpq simplestRationalNear(double X, double Tol) {
  Tol = std::fabs(Tol);
  Mpq XQ = Mpq::fromDouble(X), TQ = Mpq::fromDouble(Tol), Lo, Hi;
  mpq_sub(Lo.get(), XQ.get(), TQ.get());
  mpq_add(Hi.get(), XQ.get(), TQ.get());
  return simplestRationalBetween(Lo, Hi);
}

} // namespace fitting
} // namespace klaraptor
