//===- FloatUtil.cpp - rounding, half precision and special values --------===//
///
/// \file
/// See FloatUtil.h. Everything here works on exact values with integer
/// arithmetic and power-of-two scaling, so it does not depend on the host
/// rounding mode.
//===----------------------------------------------------------------------===//
#include "FloatUtil.h"

#include <cmath>

namespace klaraptor::emu {

uint32_t roundToFormat(double X, int ManBits, int ExpBits, int R,
                       bool SatFinite) {
  uint64_t XB = f64Bits(X);
  uint32_t Sign = uint32_t(XB >> 63);
  uint32_t SignBit = Sign << (ManBits + ExpBits);
  uint32_t ExpAll = (1u << ExpBits) - 1;
  uint32_t MaxFinite = ((ExpAll - 1) << ManBits) | ((1u << ManBits) - 1);
  uint32_t Inf = ExpAll << ManBits;
  if (std::isnan(X))
    return (ExpAll << ManBits) | ((1u << ManBits) - 1);
  if (std::isinf(X))
    return SignBit | (SatFinite ? MaxFinite : Inf);
  double A = std::fabs(X);
  if (A == 0)
    return SignBit;
  int Bias = (1 << (ExpBits - 1)) - 1;
  int EMin = 1 - Bias;
  int E2;
  (void)std::frexp(A, &E2); // A = F * 2^E2, F in [0.5, 1)
  int E = E2 - 1;           // A = 1.f * 2^E
  int Shift = E >= EMin ? ManBits - E : ManBits - EMin;
  double Scaled = std::ldexp(A, Shift); // exact: a power-of-two scaling
  double Fl = std::floor(Scaled);
  double Frac = Scaled - Fl; // exact
  uint64_t Q = uint64_t(Fl);
  bool Up = false;
  switch (R) {
  case RoundRN: Up = Frac > 0.5 || (Frac == 0.5 && (Q & 1)); break;
  case RoundRNA: Up = Frac >= 0.5; break;
  case RoundRZ: Up = false; break;
  case RoundRP: Up = !Sign && Frac > 0; break;
  case RoundRM: Up = Sign && Frac > 0; break;
  }
  if (Up)
    ++Q;
  auto overflow = [&]() -> uint32_t {
    if (SatFinite)
      return SignBit | MaxFinite;
    switch (R) {
    case RoundRZ: return SignBit | MaxFinite;
    case RoundRP: return SignBit | (Sign ? MaxFinite : Inf);
    case RoundRM: return SignBit | (Sign ? Inf : MaxFinite);
    default: return SignBit | Inf;
    }
  };
  if (E >= EMin) {
    if (Q == (uint64_t(1) << (ManBits + 1))) {
      Q >>= 1;
      ++E;
    }
    int Biased = E + Bias;
    if (Biased >= int(ExpAll))
      return overflow();
    return SignBit | (uint32_t(Biased) << ManBits) |
           uint32_t(Q & ((uint64_t(1) << ManBits) - 1));
  }
  // Subnormal (Q <= 2^ManBits; 2^ManBits encodes the smallest normal).
  return SignBit | uint32_t(Q);
}

float halfToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H >> 15);
  uint32_t Exp = (H >> 10) & 0x1f;
  uint32_t Man = H & 0x3ff;
  float V;
  if (Exp == 0x1f) {
    if (Man)
      return bitsF32((Sign << 31) | 0x7fc00000u | (Man << 13));
    return bitsF32((Sign << 31) | 0x7f800000u);
  }
  if (Exp == 0)
    V = std::ldexp(float(Man), -24);
  else
    V = std::ldexp(float(Man | 0x400), int(Exp) - 25);
  return Sign ? -V : V;
}

double addRoundToOdd(double A, double B) {
  // Two-sum gives the exact error of the rounded-to-nearest sum.
  double S = A + B;
  if (!std::isfinite(S))
    return S;
  double BV = S - A;
  double AV = S - BV;
  double Err = (A - AV) + (B - BV);
  if (Err == 0)
    return S;
  // Truncate toward zero when the nearest rounding went away from zero.
  uint64_t U = f64Bits(S);
  if ((S > 0 && Err < 0) || (S < 0 && Err > 0))
    U -= 1; // magnitude down one ulp
  U |= 1;   // inexact: make it odd
  return bitsF64(U);
}

} // namespace klaraptor::emu
