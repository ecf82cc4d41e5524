//===- Exact.h - exact rationals (GMP) for coefficient recovery -*- C++ -*-===//
///
/// \file
/// RAII wrappers over GMP's mpz_t and mpq_t, and the two operations exact
/// recovery needs: reading a decimal exactly, and the simplest rational (the
/// one of least denominator, then least numerator) in an interval, which is
/// the best rational approximation of small height of a coefficient known to
/// within a tolerance. The simplest rational is found with the continued
/// fraction expansions of the interval's ends (the Stern-Brocot descent).
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_FITTING_EXACT_H
#define KLARAPTOR_FITTING_EXACT_H

#include <gmp.h>

#include <cstdint>
#include <optional>
#include <string>

namespace klaraptor {
namespace fitting {

/// An arbitrary-precision integer.
class Mpz {
public:
  Mpz() { mpz_init(V); }
  explicit Mpz(long X) { mpz_init_set_si(V, X); }
  Mpz(const Mpz &O) { mpz_init_set(V, O.V); }
  Mpz(Mpz &&O) noexcept {
    mpz_init(V);
    mpz_swap(V, O.V);
  }
  Mpz &operator=(const Mpz &O) {
    mpz_set(V, O.V);
    return *this;
  }
  Mpz &operator=(Mpz &&O) noexcept {
    mpz_swap(V, O.V);
    return *this;
  }
  ~Mpz() { mpz_clear(V); }

  mpz_ptr get() { return V; }
  mpz_srcptr get() const { return V; }
  std::string str() const;
  /// Whether the value fits an int64_t; sets \p Out if so.
  bool toInt64(int64_t &Out) const;

private:
  mpz_t V;
};

/// An arbitrary-precision rational, always canonical (lowest terms,
/// positive denominator).
class Mpq {
public:
  Mpq() { mpq_init(V); }
  explicit Mpq(long Num, unsigned long Den = 1) {
    mpq_init(V);
    mpq_set_si(V, Num, Den);
    mpq_canonicalize(V);
  }
  Mpq(const Mpq &O) {
    mpq_init(V);
    mpq_set(V, O.V);
  }
  Mpq(Mpq &&O) noexcept {
    mpq_init(V);
    mpq_swap(V, O.V);
  }
  Mpq &operator=(const Mpq &O) {
    mpq_set(V, O.V);
    return *this;
  }
  Mpq &operator=(Mpq &&O) noexcept {
    mpq_swap(V, O.V);
    return *this;
  }
  ~Mpq() { mpq_clear(V); }

  /// The exact value of a finite double.
  static Mpq fromDouble(double D);

  mpq_ptr get() { return V; }
  mpq_srcptr get() const { return V; }
  int sign() const { return mpq_sgn(V); }
  bool isZero() const { return sign() == 0; }
  bool isInteger() const { return mpz_cmp_ui(mpq_denref(V), 1) == 0; }
  /// "3", "-7/2".
  std::string str() const;
  /// The double nearest to the value (ties to even), unlike mpq_get_d,
  /// which truncates.
  double toDouble() const;

  friend bool operator==(const Mpq &A, const Mpq &B) {
    return mpq_equal(A.V, B.V) != 0;
  }
  friend bool operator!=(const Mpq &A, const Mpq &B) { return !(A == B); }
  friend bool operator<(const Mpq &A, const Mpq &B) {
    return mpq_cmp(A.V, B.V) < 0;
  }

private:
  mpq_t V;
};

/// Parses a decimal such as "-12", "0.1", "2.5e-3", or a fraction of two
/// such ("7/3"), exactly. Returns nullopt for anything else (hexadecimal
/// floats, "inf", ...).
std::optional<Mpq> parseExactDecimal(const std::string &Text);

/// The simplest rational in the closed interval [Lo, Hi] (Lo <= Hi): zero
/// if the interval holds it, otherwise the one of least denominator and,
/// among those, least absolute numerator.
Mpq simplestRationalBetween(const Mpq &Lo, const Mpq &Hi);

/// The simplest rational within \p Tol of \p X (Tol >= 0).
Mpq simplestRationalNear(double X, double Tol);

} // namespace fitting
} // namespace klaraptor

#endif // KLARAPTOR_FITTING_EXACT_H
