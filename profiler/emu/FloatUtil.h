//===- FloatUtil.h - rounding, half precision and special values ----------===//
///
/// \file
/// Exact floating-point helpers for the emulator: conversion of a double to
/// any binary format (f16, bf16, f32, tf32) under the four IEEE rounding
/// directions, half/bfloat16 to float, flush-to-zero, canonical NaNs, a
/// scoped change of the host rounding mode, and round-to-odd addition (so
/// that a fused multiply-add in a narrow format rounds once).
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_FLOATUTIL_H
#define KLARAPTOR_PROFILER_EMU_FLOATUTIL_H

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace klaraptor::emu {

/// Rounding directions, in PTX order: .rn .rz .rm .rp (and .rna).
enum Rounding : int { RoundRN = 0, RoundRZ = 1, RoundRM = 2, RoundRP = 3, RoundRNA = 4 };

inline int hostRoundMode(int R) {
  switch (R) {
  case RoundRZ: return FE_TOWARDZERO;
  case RoundRM: return FE_DOWNWARD;
  case RoundRP: return FE_UPWARD;
  default: return FE_TONEAREST;
  }
}

/// Sets the host rounding mode for its lifetime (no-op for RN).
template <int R> struct RoundScope {
  int Old = FE_TONEAREST;
  RoundScope() {
    if (R != RoundRN) {
      Old = std::fegetround();
      std::fesetround(hostRoundMode(R));
    }
  }
  ~RoundScope() {
    if (R != RoundRN)
      std::fesetround(Old);
  }
};
struct DynRoundScope {
  int Old = FE_TONEAREST;
  bool Set;
  explicit DynRoundScope(int R) : Set(R != RoundRN && R != RoundRNA) {
    if (Set) {
      Old = std::fegetround();
      std::fesetround(hostRoundMode(R));
    }
  }
  ~DynRoundScope() {
    if (Set)
      std::fesetround(Old);
  }
};

inline uint32_t f32Bits(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}
inline float bitsF32(uint32_t U) {
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}
inline uint64_t f64Bits(double D) {
  uint64_t U;
  std::memcpy(&U, &D, 8);
  return U;
}
inline double bitsF64(uint64_t U) {
  double D;
  std::memcpy(&D, &U, 8);
  return D;
}

constexpr uint32_t CanonicalNaN32 = 0x7fffffffu;
constexpr uint16_t CanonicalNaN16 = 0x7fffu;
constexpr uint16_t CanonicalNaNBF16 = 0x7fffu;

/// Flushes a subnormal f32 (bits) to a zero of the same sign.
inline uint32_t ftz32(uint32_t U) {
  return (U & 0x7f800000u) == 0 ? (U & 0x80000000u) : U;
}
inline uint64_t ftz64(uint64_t U) {
  return (U & 0x7ff0000000000000ull) == 0 ? (U & 0x8000000000000000ull) : U;
}
inline uint16_t ftz16(uint16_t U) {
  return (U & 0x7c00u) == 0 ? uint16_t(U & 0x8000u) : U;
}

/// Rounds \p X to a binary format with \p ManBits fraction bits and
/// \p ExpBits exponent bits (IEEE layout, with infinities and NaNs), under
/// rounding direction \p R. NaN gives the all-ones-fraction quiet NaN.
/// SatFinite: overflow and infinities give the largest finite value.
uint32_t roundToFormat(double X, int ManBits, int ExpBits, int R,
                       bool SatFinite = false);

/// Value of a binary16 / bfloat16 bit pattern.
float halfToFloat(uint16_t H);
inline float bf16ToFloat(uint16_t B) { return bitsF32(uint32_t(B) << 16); }
inline uint16_t floatToHalf(double X, int R = RoundRN, bool SatFinite = false) {
  return uint16_t(roundToFormat(X, 10, 5, R, SatFinite));
}
inline uint16_t floatToBf16(double X, int R = RoundRN, bool SatFinite = false) {
  return uint16_t(roundToFormat(X, 7, 8, R, SatFinite));
}

/// A + B rounded to odd (the result's last bit is set when inexact), which
/// makes a later rounding to a format of at most 51 fraction bits exact.
double addRoundToOdd(double A, double B);

/// fma(A, B, C) of narrow values (A*B exact in a double), rounded to odd.
inline double fmaRoundToOdd(double A, double B, double C) {
  return addRoundToOdd(A * B, C);
}

} // namespace klaraptor::emu

#endif // KLARAPTOR_PROFILER_EMU_FLOATUTIL_H
