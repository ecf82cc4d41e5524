//===- OpsFloat.cpp - floating-point instructions and conversions ---------===//
///
/// \file
/// Handlers and decoding for f32/f64/f16/bf16 arithmetic (add sub mul fma
/// mad div min max abs neg), math (sqrt rcp rsqrt sin cos lg2 ex2 tanh),
/// copysign, testp, setp/set on floating-point types, and cvt.
///
/// Rounding: operations with .rn/.rz/.rm/.rp run under the matching host
/// rounding mode (this file is compiled with -frounding-math), so f32 and
/// f64 results are the IEEE-754 correctly rounded ones the GPU computes.
/// Half-precision results are computed exactly (float arithmetic whose
/// double rounding is innocuous, or round-to-odd for fused operations) and
/// rounded with roundToFormat(). As on NVIDIA GPUs, an f32 result that is
/// NaN is the canonical NaN 0x7fffffff (f16/bf16: 0x7fff).
///
/// .approx operations (sin cos ex2 lg2 rsqrt tanh, div.approx, rcp.approx)
/// are computed in double precision and rounded: they are within the PTX
/// error bounds but not bit-identical to the GPU's MUFU results.
//===----------------------------------------------------------------------===//
#include "FloatUtil.h"
#include "OpsCommon.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace klaraptor::emu {

using ptx::Type;

void setpFinish(ExecState &S, const Inst &I, uint32_t M, uint32_t R);
void setFinish(ExecState &S, const Inst &I, uint32_t M, uint32_t R);
bool decodeCompareTail(DecodeCtx &C, Inst &I, bool IsSet);

namespace {

//===----------------------------------------------------------------------===//
// f32 / f64 value helpers
//===----------------------------------------------------------------------===//

template <bool Ftz> inline float ldF32(uint64_t V) {
  uint32_t U = uint32_t(V);
  if (Ftz)
    U = ftz32(U);
  return bitsF32(U);
}
inline float satF(float R) {
  if (!(R > 0.0f)) // NaN, negative, -0 -> +0
    return 0.0f;
  return R > 1.0f ? 1.0f : R;
}
template <bool Ftz, bool Sat> inline uint64_t stF32(float R) {
  if (Sat)
    R = satF(R);
  uint32_t U = f32Bits(R);
  if (R != R)
    U = CanonicalNaN32;
  if (Ftz)
    U = ftz32(U);
  return U;
}
inline double ldF64(uint64_t V) { return bitsF64(V); }
template <bool Sat> inline uint64_t stF64(double R) {
  if (Sat) {
    if (!(R > 0.0))
      R = 0.0;
    else if (R > 1.0)
      R = 1.0;
  }
  return f64Bits(R);
}

struct FAdd {
  template <class F> static F f(F A, F B) { return A + B; }
};
struct FSub {
  template <class F> static F f(F A, F B) { return A - B; }
};
struct FMul {
  template <class F> static F f(F A, F B) { return A * B; }
};
struct FDiv {
  template <class F> static F f(F A, F B) { return A / B; }
};

template <class Op, int R, bool Ftz, bool Sat>
void hF32Bin(ExecState &S, const Inst &I, uint32_t M) {
  RoundScope<R> G;
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  forLanes(M, [&](unsigned L) {
    D[L] = stF32<Ftz, Sat>(Op::f(ldF32<Ftz>(A[L]), ldF32<Ftz>(B[L])));
  });
}

template <int R, bool Ftz, bool Sat>
void hF32Fma(ExecState &S, const Inst &I, uint32_t M) {
  RoundScope<R> G;
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  forLanes(M, [&](unsigned L) {
    D[L] = stF32<Ftz, Sat>(
        std::fma(ldF32<Ftz>(A[L]), ldF32<Ftz>(B[L]), ldF32<Ftz>(C[L])));
  });
}

/// The common fma.rn.f32 with the host's FMA instruction when it has one.
__attribute__((target("fma"))) void hF32FmaRnHw(ExecState &S, const Inst &I,
                                                  uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  forLanes(M, [&](unsigned L) {
    float R = __builtin_fmaf(bitsF32(uint32_t(A[L])), bitsF32(uint32_t(B[L])),
                             bitsF32(uint32_t(C[L])));
    uint32_t U = f32Bits(R);
    D[L] = R != R ? CanonicalNaN32 : U;
  });
}
__attribute__((target("fma"))) void hF64FmaRnHw(ExecState &S, const Inst &I,
                                                  uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  forLanes(M, [&](unsigned L) {
    D[L] = f64Bits(__builtin_fma(bitsF64(A[L]), bitsF64(B[L]), bitsF64(C[L])));
  });
}

template <class Op, int R, bool Sat>
void hF64Bin(ExecState &S, const Inst &I, uint32_t M) {
  RoundScope<R> G;
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  forLanes(M, [&](unsigned L) {
    D[L] = stF64<Sat>(Op::f(ldF64(A[L]), ldF64(B[L])));
  });
}

template <int R, bool Sat>
void hF64Fma(ExecState &S, const Inst &I, uint32_t M) {
  RoundScope<R> G;
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  forLanes(M, [&](unsigned L) {
    D[L] = stF64<Sat>(std::fma(ldF64(A[L]), ldF64(B[L]), ldF64(C[L])));
  });
}

/// div.approx.f32: a * (1/b); for 2^126 < |b| < 2^128 a sign-preserving
/// zero (NaN when a is infinite).
template <bool Ftz>
void hF32DivApprox(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  forLanes(M, [&](unsigned L) {
    float X = ldF32<Ftz>(A[L]), Y = ldF32<Ftz>(B[L]);
    float AY = std::fabs(Y);
    float R;
    if (AY > 0x1p126f && AY < std::numeric_limits<float>::infinity()) {
      if (std::isinf(X))
        R = std::numeric_limits<float>::quiet_NaN();
      else
        R = std::copysign(0.0f, X) * (std::signbit(Y) ? -1.0f : 1.0f);
    } else {
      R = X * (1.0f / Y);
    }
    D[L] = stF32<Ftz, false>(R);
  });
}

/// min/max. Mode bits (Sub): 1 = max, 2 = .NaN, 4 = .xorsign.abs, 8 = ftz.
template <class F, unsigned Mode>
void hFMinMax(ExecState &S, const Inst &I, uint32_t M) {
  constexpr bool IsMax = Mode & 1, PropNaN = Mode & 2, XorSign = Mode & 4,
                 Ftz = Mode & 8;
  (void)Ftz; // f32 only
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  forLanes(M, [&](unsigned L) {
    F X, Y;
    if constexpr (sizeof(F) == 4) {
      X = ldF32<Ftz>(A[L]);
      Y = ldF32<Ftz>(B[L]);
    } else {
      X = ldF64(A[L]);
      Y = ldF64(B[L]);
    }
    bool Sign = false;
    if (XorSign) {
      Sign = std::signbit(X) != std::signbit(Y);
      X = std::fabs(X);
      Y = std::fabs(Y);
    }
    F R;
    bool NX = X != X, NY = Y != Y;
    if (NX || NY) {
      if (PropNaN || (NX && NY))
        R = std::numeric_limits<F>::quiet_NaN();
      else
        R = NX ? Y : X;
    } else if (X == Y) {
      // -0.0 < +0.0
      bool SX = std::signbit(X);
      R = IsMax ? (SX ? Y : X) : (SX ? X : Y);
    } else {
      R = IsMax ? (X > Y ? X : Y) : (X < Y ? X : Y);
    }
    if (XorSign && R == R)
      R = std::copysign(R, Sign ? F(-1) : F(1));
    if constexpr (sizeof(F) == 4)
      D[L] = stF32<Ftz, false>(R);
    else
      D[L] = R != R ? 0x7fffffffffffffffull : f64Bits(R);
  });
}

// Unary f32 operations. Approximate ones go through double.
struct UAbs32 {
  static uint32_t f(uint32_t U) { return U & 0x7fffffffu; }
};
struct UNeg32 {
  static uint32_t f(uint32_t U) { return U ^ 0x80000000u; }
};
/// abs/neg: bit operations (NaN payload kept), .ftz flushes.
template <class Op, bool Ftz>
void hF32Sign(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) {
    uint32_t U = uint32_t(A[L]);
    if (Ftz)
      U = ftz32(U);
    D[L] = Op::f(U);
  });
}
template <bool Neg> void hF64Sign(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) {
    D[L] = Neg ? (A[L] ^ 0x8000000000000000ull) : (A[L] & 0x7fffffffffffffffull);
  });
}

enum UOp { USqrt, URcp, URsqrt, USin, UCos, UEx2, ULg2, UTanh };

template <unsigned Op> inline double mathD(double X) {
  switch (Op) {
  case USqrt: return std::sqrt(X);
  case URcp: return 1.0 / X;
  case URsqrt: return 1.0 / std::sqrt(X);
  case USin: return std::sin(X);
  case UCos: return std::cos(X);
  case UEx2: return std::exp2(X);
  case ULg2: return std::log2(X);
  default: return std::tanh(X);
  }
}

/// Correctly rounded sqrt/rcp in f32 under rounding R.
template <unsigned Op, int R, bool Ftz>
void hF32Exact(ExecState &S, const Inst &I, uint32_t M) {
  RoundScope<R> G;
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) {
    float X = ldF32<Ftz>(A[L]);
    float Rs = Op == USqrt ? std::sqrt(X) : 1.0f / X;
    D[L] = stF32<Ftz, false>(Rs);
  });
}
template <unsigned Op, int R, bool Ftz>
void hF64Exact(ExecState &S, const Inst &I, uint32_t M) {
  RoundScope<R> G;
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) {
    uint64_t U = A[L];
    if (Ftz)
      U = ftz64(U);
    double X = bitsF64(U);
    double Rs = Op == USqrt ? std::sqrt(X) : Op == URcp ? 1.0 / X
                                                         : 1.0 / std::sqrt(X);
    uint64_t RU = f64Bits(Rs);
    if (Ftz)
      RU = ftz64(RU);
    D[L] = RU;
  });
}
/// .approx f32 functions: computed in double, rounded to f32.
template <unsigned Op, bool Ftz>
void hF32Approx(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) {
    float X = ldF32<Ftz>(A[L]);
    D[L] = stF32<Ftz, false>(float(mathD<Op>(double(X))));
  });
}

template <class F, unsigned Op>
void hTestp(ExecState &S, const Inst &I, uint32_t M) {
  const uint64_t *A = S.reg(I.A[1]);
  uint32_t R = 0;
  forLanes(M, [&](unsigned L) {
    F X = sizeof(F) == 4 ? F(bitsF32(uint32_t(A[L]))) : F(bitsF64(A[L]));
    bool V;
    switch (Op) {
    case 0: V = std::isfinite(X); break;
    case 1: V = std::isinf(X); break;
    case 2: V = !std::isnan(X); break;
    case 3: V = std::isnan(X); break;
    case 4: V = std::isnormal(X); break;
    default: V = std::fpclassify(X) == FP_SUBNORMAL; break;
    }
    R |= uint32_t(V) << L;
  });
  setPred(S.Preds[I.A[0]], M, R);
}

template <class F> void hCopysign(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  constexpr uint64_t SignBit = sizeof(F) == 4 ? 0x80000000ull : 0x8000000000000000ull;
  forLanes(M, [&](unsigned L) { D[L] = (B[L] & ~SignBit) | (A[L] & SignBit); });
}

//===----------------------------------------------------------------------===//
// Float compare
//===----------------------------------------------------------------------===//

enum FCmp : unsigned {
  FEq, FNe, FLt, FLe, FGt, FGe, FEqu, FNeu, FLtu, FLeu, FGtu, FGeu, FNum, FNan
};

template <unsigned Op> inline bool fcmp(double A, double B) {
  bool U = std::isnan(A) || std::isnan(B);
  switch (Op) {
  case FEq: return !U && A == B;
  case FNe: return !U && A != B;
  case FLt: return !U && A < B;
  case FLe: return !U && A <= B;
  case FGt: return !U && A > B;
  case FGe: return !U && A >= B;
  case FEqu: return U || A == B;
  case FNeu: return U || A != B;
  case FLtu: return U || A < B;
  case FLeu: return U || A <= B;
  case FGtu: return U || A > B;
  case FGeu: return U || A >= B;
  case FNum: return !U;
  default: return U;
  }
}

/// Kind: 0 f32, 1 f32 ftz, 2 f64, 3 f16, 4 bf16, 5 f16 ftz.
template <unsigned Kind> inline double ldCmp(uint64_t V) {
  switch (Kind) {
  case 0: return bitsF32(uint32_t(V));
  case 1: return bitsF32(ftz32(uint32_t(V)));
  case 2: return bitsF64(V);
  case 3: return halfToFloat(uint16_t(V));
  case 5: return halfToFloat(ftz16(uint16_t(V)));
  default: return bf16ToFloat(uint16_t(V));
  }
}

template <unsigned Kind, unsigned Op, bool Set>
void hSetpF(ExecState &S, const Inst &I, uint32_t M) {
  const uint64_t *A = S.reg(I.A[2]), *B = S.reg(I.A[3]);
  uint32_t R = 0;
  forLanes(M, [&](unsigned L) {
    R |= uint32_t(fcmp<Op>(ldCmp<Kind>(A[L]), ldCmp<Kind>(B[L]))) << L;
  });
  if (Set)
    setFinish(S, I, M, R);
  else
    setpFinish(S, I, M, R);
}

/// setp on f16x2/bf16x2: p from the low halves, q from the high halves.
template <unsigned Kind, unsigned Op>
void hSetpF2(ExecState &S, const Inst &I, uint32_t M) {
  const uint64_t *A = S.reg(I.A[2]), *B = S.reg(I.A[3]);
  uint32_t Lo = 0, Hi = 0;
  forLanes(M, [&](unsigned L) {
    Lo |= uint32_t(fcmp<Op>(ldCmp<Kind>(A[L] & 0xffff), ldCmp<Kind>(B[L] & 0xffff))) << L;
    Hi |= uint32_t(fcmp<Op>(ldCmp<Kind>((A[L] >> 16) & 0xffff),
                            ldCmp<Kind>((B[L] >> 16) & 0xffff)))
          << L;
  });
  uint32_t Pv = Lo, Qv = Hi;
  if (I.Sub) {
    uint32_t C = S.Preds[I.A[4]] ^ ((I.Imm & 1) ? ~0u : 0u);
    switch (I.Sub) {
    case 1: Pv &= C; Qv &= C; break;
    case 2: Pv |= C; Qv |= C; break;
    default: Pv ^= C; Qv ^= C; break;
    }
  }
  setPred(S.Preds[I.A[0]], M, Pv);
  if (I.A[1] != ~0u)
    setPred(S.Preds[I.A[1]], M, Qv);
}

//===----------------------------------------------------------------------===//
// Half precision (f16, bf16 and their x2 forms)
//===----------------------------------------------------------------------===//

template <bool BF> inline float hToF(uint16_t H, bool Ftz) {
  if (BF)
    return bf16ToFloat(H);
  return halfToFloat(Ftz ? ftz16(H) : H);
}
template <bool BF> inline uint16_t hFromD(double X, bool Ftz, bool Sat, bool Relu) {
  if (Sat) {
    if (!(X > 0))
      X = 0;
    else if (X > 1)
      X = 1;
  }
  if (Relu && X < 0)
    X = 0;
  uint16_t R = BF ? floatToBf16(X) : floatToHalf(X);
  if (std::isnan(X))
    R = BF ? CanonicalNaNBF16 : CanonicalNaN16;
  if (Ftz && !BF)
    R = ftz16(R);
  return R;
}

/// Sub bits: 1 ftz, 2 sat, 4 relu.
template <class Op, bool BF, bool Pair>
void hHBin(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  bool Ftz = I.Sub & 1, Sat = I.Sub & 2, Relu = I.Sub & 4;
  forLanes(M, [&](unsigned L) {
    uint64_t R = 0;
    for (unsigned K = 0; K < (Pair ? 2u : 1u); ++K) {
      float X = hToF<BF>(uint16_t(A[L] >> (16 * K)), Ftz);
      float Y = hToF<BF>(uint16_t(B[L] >> (16 * K)), Ftz);
      R |= uint64_t(hFromD<BF>(double(Op::f(X, Y)), Ftz, Sat, Relu)) << (16 * K);
    }
    D[L] = R;
  });
}

template <bool BF, bool Pair>
void hHFma(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  bool Ftz = I.Sub & 1, Sat = I.Sub & 2, Relu = I.Sub & 4;
  forLanes(M, [&](unsigned L) {
    uint64_t R = 0;
    for (unsigned K = 0; K < (Pair ? 2u : 1u); ++K) {
      double X = hToF<BF>(uint16_t(A[L] >> (16 * K)), Ftz);
      double Y = hToF<BF>(uint16_t(B[L] >> (16 * K)), Ftz);
      double Z = hToF<BF>(uint16_t(C[L] >> (16 * K)), Ftz);
      R |= uint64_t(hFromD<BF>(fmaRoundToOdd(X, Y, Z), Ftz, Sat, Relu)) << (16 * K);
    }
    D[L] = R;
  });
}

/// Unary half ops. Sub: bit0 ftz; Aux: 0 neg, 1 abs, 2 ex2, 3 tanh.
template <bool BF, bool Pair>
void hHUn(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  bool Ftz = I.Sub & 1;
  forLanes(M, [&](unsigned L) {
    uint64_t R = 0;
    for (unsigned K = 0; K < (Pair ? 2u : 1u); ++K) {
      uint16_t H = uint16_t(A[L] >> (16 * K));
      uint16_t Out;
      switch (I.Aux) {
      case 0: Out = uint16_t((Ftz && !BF ? ftz16(H) : H) ^ 0x8000u); break;
      case 1: Out = uint16_t((Ftz && !BF ? ftz16(H) : H) & 0x7fffu); break;
      case 2: Out = hFromD<BF>(std::exp2(double(hToF<BF>(H, Ftz))), Ftz, false, false); break;
      default: Out = hFromD<BF>(std::tanh(double(hToF<BF>(H, Ftz))), Ftz, false, false); break;
      }
      R |= uint64_t(Out) << (16 * K);
    }
    D[L] = R;
  });
}

/// min/max on halves. Sub: 1 max, 2 NaN, 4 xorsign.abs, 8 ftz.
template <bool BF, bool Pair>
void hHMinMax(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  bool IsMax = I.Sub & 1, PropNaN = I.Sub & 2, XorSign = I.Sub & 4, Ftz = I.Sub & 8;
  forLanes(M, [&](unsigned L) {
    uint64_t R = 0;
    for (unsigned K = 0; K < (Pair ? 2u : 1u); ++K) {
      uint16_t HX = uint16_t(A[L] >> (16 * K)), HY = uint16_t(B[L] >> (16 * K));
      if (Ftz && !BF) {
        HX = ftz16(HX);
        HY = ftz16(HY);
      }
      bool Sign = ((HX ^ HY) & 0x8000) != 0;
      if (XorSign) {
        HX &= 0x7fff;
        HY &= 0x7fff;
      }
      float X = hToF<BF>(HX, false), Y = hToF<BF>(HY, false);
      uint16_t Out;
      bool NX = X != X, NY = Y != Y;
      if (NX || NY) {
        if (PropNaN || (NX && NY))
          Out = BF ? CanonicalNaNBF16 : CanonicalNaN16;
        else
          Out = NX ? HY : HX;
      } else if (X == Y) {
        bool SX = HX & 0x8000;
        Out = IsMax ? (SX ? HY : HX) : (SX ? HX : HY);
      } else {
        Out = IsMax ? (X > Y ? HX : HY) : (X < Y ? HX : HY);
      }
      bool IsNaN = BF ? ((Out & 0x7f80) == 0x7f80 && (Out & 0x7f))
                      : ((Out & 0x7c00) == 0x7c00 && (Out & 0x3ff));
      if (XorSign && !IsNaN)
        Out = uint16_t((Out & 0x7fff) | (Sign ? 0x8000 : 0));
      R |= uint64_t(Out) << (16 * K);
    }
    D[L] = R;
  });
}

//===----------------------------------------------------------------------===//
// cvt
//===----------------------------------------------------------------------===//

/// Everything a conversion needs, packed into Inst::Imm.
struct CvtSpec {
  Type D = Type::None, S = Type::None;
  int Rnd = -1;  ///< float rounding (Rounding), -1 none
  int IRnd = -1; ///< integer rounding (0 rni, 1 rzi, 2 rmi, 3 rpi), -1
  bool Ftz = false, Sat = false, Relu = false, SatFinite = false;
  unsigned RegBits = 64; ///< destination register width

  int64_t pack() const {
    return int64_t(uint64_t(D) | uint64_t(S) << 6 | uint64_t(Rnd + 1) << 12 |
                   uint64_t(IRnd + 1) << 16 | uint64_t(Ftz) << 20 |
                   uint64_t(Sat) << 21 | uint64_t(Relu) << 22 |
                   uint64_t(SatFinite) << 23 | uint64_t(RegBits) << 24);
  }
  static CvtSpec unpack(int64_t V) {
    uint64_t U = uint64_t(V);
    CvtSpec C;
    C.D = Type(U & 63);
    C.S = Type((U >> 6) & 63);
    C.Rnd = int((U >> 12) & 15) - 1;
    C.IRnd = int((U >> 16) & 15) - 1;
    C.Ftz = (U >> 20) & 1;
    C.Sat = (U >> 21) & 1;
    C.Relu = (U >> 22) & 1;
    C.SatFinite = (U >> 23) & 1;
    C.RegBits = unsigned((U >> 24) & 255);
    return C;
  }
};

unsigned intBits(Type T) { return ptx::typeSize(T) * 8; }

/// Range of an integer type as doubles / int128.
void intRange(Type T, __int128 &Lo, __int128 &Hi) {
  unsigned B = intBits(T);
  if (ptx::isSigned(T)) {
    Lo = -(__int128(1) << (B - 1));
    Hi = (__int128(1) << (B - 1)) - 1;
  } else {
    Lo = 0;
    Hi = (__int128(1) << B) - 1;
  }
}

double roundIntegral(double X, int IRnd) {
  switch (IRnd) {
  case 0: return std::nearbyint(X); // ties to even in the default mode
  case 1: return std::trunc(X);
  case 2: return std::floor(X);
  case 3: return std::ceil(X);
  default: return X;
  }
}

/// int128 to double, rounded to odd when inexact (so that a later rounding
/// to a narrower format is exact).
double intToDoubleOdd(__int128 V) {
  bool Neg = V < 0;
  unsigned __int128 A = Neg ? (unsigned __int128)(-V) : (unsigned __int128)V;
  if (A < (unsigned __int128)1 << 53)
    return Neg ? -double(uint64_t(A)) : double(uint64_t(A));
  // Keep the top 54 bits, fold the rest into a sticky bit.
  int Shift = 0;
  while ((A >> Shift) >= ((unsigned __int128)1 << 54))
    ++Shift;
  unsigned __int128 Top = A >> Shift;
  bool Sticky = (Top << Shift) != A;
  uint64_t T = uint64_t(Top) | (Sticky ? 1 : 0);
  double D = std::ldexp(double(T), Shift); // T < 2^54 with lsb sticky: exact
  return Neg ? -D : D;
}

uint64_t cvtOne(uint64_t V, const CvtSpec &C) {
  bool SrcFloat = ptx::isFloat(C.S);
  bool DstFloat = ptx::isFloat(C.D) || C.D == Type::TF32;
  __int128 IV = 0;
  double FV = 0;
  if (!SrcFloat) {
    unsigned B = intBits(C.S);
    uint64_t Raw = B == 64 ? V : (V & ((uint64_t(1) << B) - 1));
    if (ptx::isSigned(C.S)) {
      int64_t SV = B == 64 ? int64_t(Raw) : (int64_t(Raw << (64 - B)) >> (64 - B));
      IV = SV;
    } else {
      IV = (__int128)Raw;
    }
  } else {
    switch (C.S) {
    case Type::F32: FV = bitsF32(C.Ftz ? ftz32(uint32_t(V)) : uint32_t(V)); break;
    case Type::F64: FV = bitsF64(V); break;
    case Type::F16: FV = halfToFloat(uint16_t(V)); break;
    case Type::BF16: FV = bf16ToFloat(uint16_t(V)); break;
    default: break;
    }
  }
  if (!DstFloat) {
    __int128 Lo, Hi, R;
    intRange(C.D, Lo, Hi);
    if (!SrcFloat) {
      R = IV;
      if (C.Sat)
        R = std::clamp(R, Lo, Hi);
    } else {
      // Float to integer always saturates; NaN gives 0.
      if (std::isnan(FV)) {
        R = 0;
      } else {
        double X = roundIntegral(FV, C.IRnd < 0 ? 1 : C.IRnd);
        // double(Hi) rounds up for 64-bit types, where X >= 2^63 (2^64)
        // overflows anyway.
        if (X >= double(Hi))
          R = Hi;
        else if (X <= double(Lo))
          R = Lo;
        else
          R = (__int128)X;
      }
    }
    unsigned DB = intBits(C.D);
    uint64_t Bits = uint64_t(R) & (DB == 64 ? ~0ull : ((uint64_t(1) << DB) - 1));
    if (ptx::isSigned(C.D) && C.RegBits > DB) {
      int64_t SV = int64_t(Bits << (64 - DB)) >> (64 - DB);
      Bits = uint64_t(SV) & (C.RegBits >= 64 ? ~0ull : ((uint64_t(1) << C.RegBits) - 1));
    }
    return Bits;
  }
  int R = C.Rnd < 0 ? RoundRN : C.Rnd;
  if (!SrcFloat) {
    switch (C.D) {
    case Type::F32: {
      DynRoundScope G(R);
      float F;
      if (IV < 0)
        F = float(int64_t(IV));
      else
        F = float(uint64_t(IV));
      return f32Bits(F);
    }
    case Type::F64: {
      DynRoundScope G(R);
      double D;
      if (IV < 0)
        D = double(int64_t(IV));
      else
        D = double(uint64_t(IV));
      return f64Bits(D);
    }
    case Type::F16:
      return floatToHalf(intToDoubleOdd(IV), R, C.SatFinite);
    case Type::BF16:
      return floatToBf16(intToDoubleOdd(IV), R, C.SatFinite);
    default:
      return 0;
    }
  }
  // Float to float.
  if (C.IRnd >= 0)
    FV = roundIntegral(FV, C.IRnd);
  if (C.Sat) {
    if (!(FV > 0))
      FV = 0;
    else if (FV > 1)
      FV = 1;
  }
  if (C.Relu && FV < 0)
    FV = 0;
  switch (C.D) {
  case Type::F64:
    return f64Bits(FV);
  case Type::F32: {
    if (std::isnan(FV))
      return CanonicalNaN32;
    float F;
    {
      DynRoundScope G(R);
      F = float(FV);
    }
    uint32_t U = f32Bits(F);
    if (C.SatFinite && std::isinf(F))
      U = (U & 0x80000000u) | 0x7f7fffffu;
    return C.Ftz ? ftz32(U) : U;
  }
  case Type::F16: {
    uint16_t H = floatToHalf(FV, R, C.SatFinite);
    return C.Ftz ? ftz16(H) : H;
  }
  case Type::BF16:
    return floatToBf16(FV, R, C.SatFinite);
  case Type::TF32:
    // tf32 kept in an f32 register: 10 fraction bits, low 13 bits zero.
    return uint64_t(roundToFormat(FV, 10, 8, C.Rnd < 0 ? RoundRNA : C.Rnd, C.SatFinite)) << 13;
  default:
    return 0;
  }
}

void hCvtGeneric(ExecState &S, const Inst &I, uint32_t M) {
  CvtSpec C = CvtSpec::unpack(I.Imm);
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) { D[L] = cvtOne(A[L], C); });
}

/// cvt.{f16x2,bf16x2}.f32 d, a, b: d.hi = cvt(a), d.lo = cvt(b).
void hCvtPack2(ExecState &S, const Inst &I, uint32_t M) {
  CvtSpec C = CvtSpec::unpack(I.Imm);
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  forLanes(M, [&](unsigned L) {
    D[L] = (cvtOne(A[L], C) << 16) | cvtOne(B[L], C);
  });
}

// Fast paths for the conversions nvcc emits most.
template <class DT, class ST>
void hCvtII(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) { D[L] = toBits<DT>(DT(bitsTo<ST>(A[L]))); });
}
template <class FT, class ST>
void hCvtIF(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) { D[L] = toBits<FT>(FT(bitsTo<ST>(A[L]))); });
}
template <class DT, class FT, int IRnd>
void hCvtFI(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) {
    FT X = bitsTo<FT>(A[L]);
    DT R;
    if (X != X) {
      R = 0;
    } else {
      double Y = roundIntegral(double(X), IRnd);
      if (Y >= double(std::numeric_limits<DT>::max()))
        R = std::numeric_limits<DT>::max();
      else if (Y <= double(std::numeric_limits<DT>::min()))
        R = std::numeric_limits<DT>::min();
      else
        R = DT(Y);
    }
    D[L] = toBits<DT>(R);
  });
}
void hCvtF64F32(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) { D[L] = f64Bits(double(bitsF32(uint32_t(A[L])))); });
}
void hCvtF32F64(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) {
    double X = bitsF64(A[L]);
    D[L] = X != X ? CanonicalNaN32 : f32Bits(float(X));
  });
}

template <class F> Handler intDispatchCvt(Type T, F &&Fn) {
  switch (T) {
  case Type::U8: return Fn(Tag<uint8_t>{});
  case Type::S8: return Fn(Tag<int8_t>{});
  default: return dispatchInt(T, Fn);
  }
}

Handler fastCvt(const CvtSpec &C) {
  if (C.Ftz || C.Sat || C.Relu || C.SatFinite)
    return nullptr;
  bool SF = ptx::isFloat(C.S), DF = ptx::isFloat(C.D);
  if (!SF && !DF) {
    if (intBits(C.D) < C.RegBits || C.D == Type::U8 || C.D == Type::S8)
      return nullptr;
    return intDispatchCvt(C.D, [&](auto TD) -> Handler {
      using DT = typename decltype(TD)::type;
      return intDispatchCvt(C.S, [&](auto TS) -> Handler {
        using ST = typename decltype(TS)::type;
        return &hCvtII<DT, ST>;
      });
    });
  }
  if (!SF && DF && (C.Rnd == RoundRN || C.Rnd < 0) &&
      (C.D == Type::F32 || C.D == Type::F64)) {
    bool F32 = C.D == Type::F32;
    return intDispatchCvt(C.S, [&](auto TS) -> Handler {
      using ST = typename decltype(TS)::type;
      return F32 ? &hCvtIF<float, ST> : &hCvtIF<double, ST>;
    });
  }
  if (SF && !DF && C.IRnd >= 0 && (C.S == Type::F32 || C.S == Type::F64)) {
    if (intBits(C.D) < C.RegBits || intBits(C.D) < 32)
      return nullptr;
    bool F32 = C.S == Type::F32;
    int R = C.IRnd;
    return dispatchInt(C.D, [&](auto TD) -> Handler {
      using DT = typename decltype(TD)::type;
      if (F32) {
        static const Handler H[4] = {&hCvtFI<DT, float, 0>, &hCvtFI<DT, float, 1>,
                                     &hCvtFI<DT, float, 2>, &hCvtFI<DT, float, 3>};
        return H[R];
      }
      static const Handler H[4] = {&hCvtFI<DT, double, 0>, &hCvtFI<DT, double, 1>,
                                   &hCvtFI<DT, double, 2>, &hCvtFI<DT, double, 3>};
      return H[R];
    });
  }
  if (C.S == Type::F32 && C.D == Type::F64 && C.IRnd < 0)
    return &hCvtF64F32;
  if (C.S == Type::F64 && C.D == Type::F32 && C.IRnd < 0 &&
      (C.Rnd == RoundRN || C.Rnd < 0))
    return &hCvtF32F64;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Handler selection
//===----------------------------------------------------------------------===//

template <class Op> Handler pickF32Bin(int R, bool Ftz, bool Sat) {
#define KL_F32(RR)                                                             \
  case RR:                                                                     \
    return Ftz ? (Sat ? &hF32Bin<Op, RR, true, true> : &hF32Bin<Op, RR, true, false>) \
               : (Sat ? &hF32Bin<Op, RR, false, true> : &hF32Bin<Op, RR, false, false>);
  switch (R) {
    KL_F32(RoundRN)
    KL_F32(RoundRZ)
    KL_F32(RoundRM)
    KL_F32(RoundRP)
  }
#undef KL_F32
  return nullptr;
}
Handler pickF32Fma(int R, bool Ftz, bool Sat) {
  if (R == RoundRN && !Ftz && !Sat && __builtin_cpu_supports("fma"))
    return &hF32FmaRnHw;
#define KL_F32(RR)                                                             \
  case RR:                                                                     \
    return Ftz ? (Sat ? &hF32Fma<RR, true, true> : &hF32Fma<RR, true, false>)  \
               : (Sat ? &hF32Fma<RR, false, true> : &hF32Fma<RR, false, false>);
  switch (R) {
    KL_F32(RoundRN)
    KL_F32(RoundRZ)
    KL_F32(RoundRM)
    KL_F32(RoundRP)
  }
#undef KL_F32
  return nullptr;
}
template <class Op> Handler pickF64Bin(int R, bool Sat) {
  switch (R) {
  case RoundRN: return Sat ? &hF64Bin<Op, RoundRN, true> : &hF64Bin<Op, RoundRN, false>;
  case RoundRZ: return Sat ? &hF64Bin<Op, RoundRZ, true> : &hF64Bin<Op, RoundRZ, false>;
  case RoundRM: return Sat ? &hF64Bin<Op, RoundRM, true> : &hF64Bin<Op, RoundRM, false>;
  case RoundRP: return Sat ? &hF64Bin<Op, RoundRP, true> : &hF64Bin<Op, RoundRP, false>;
  }
  return nullptr;
}
Handler pickF64Fma(int R, bool Sat) {
  if (R == RoundRN && !Sat && __builtin_cpu_supports("fma"))
    return &hF64FmaRnHw;
  switch (R) {
  case RoundRN: return Sat ? &hF64Fma<RoundRN, true> : &hF64Fma<RoundRN, false>;
  case RoundRZ: return Sat ? &hF64Fma<RoundRZ, true> : &hF64Fma<RoundRZ, false>;
  case RoundRM: return Sat ? &hF64Fma<RoundRM, true> : &hF64Fma<RoundRM, false>;
  case RoundRP: return Sat ? &hF64Fma<RoundRP, true> : &hF64Fma<RoundRP, false>;
  }
  return nullptr;
}

template <unsigned Op, bool F64> Handler pickExact(int R, bool Ftz) {
#define KL_EX(RR)                                                              \
  case RR:                                                                     \
    if (F64)                                                                   \
      return Ftz ? &hF64Exact<Op, RR, true> : &hF64Exact<Op, RR, false>;       \
    return Ftz ? &hF32Exact<Op, RR, true> : &hF32Exact<Op, RR, false>;
  switch (R) {
    KL_EX(RoundRN)
    KL_EX(RoundRZ)
    KL_EX(RoundRM)
    KL_EX(RoundRP)
  }
#undef KL_EX
  return nullptr;
}

template <class F> Handler pickMinMax(unsigned Mode) {
  static const Handler Tab[16] = {
      &hFMinMax<F, 0>,  &hFMinMax<F, 1>,  &hFMinMax<F, 2>,  &hFMinMax<F, 3>,
      &hFMinMax<F, 4>,  &hFMinMax<F, 5>,  &hFMinMax<F, 6>,  &hFMinMax<F, 7>,
      &hFMinMax<F, 8>,  &hFMinMax<F, 9>,  &hFMinMax<F, 10>, &hFMinMax<F, 11>,
      &hFMinMax<F, 12>, &hFMinMax<F, 13>, &hFMinMax<F, 14>, &hFMinMax<F, 15>};
  return Tab[Mode & 15];
}

bool parseFloatCmp(Mods &M, unsigned &Op) {
  static const char *Names[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                                "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  for (unsigned K = 0; K < 14; ++K)
    if (M.take(Names[K])) {
      Op = K;
      return true;
    }
  return false;
}

template <bool Set, unsigned Kind> Handler pickSetpKind(unsigned Op) {
  switch (Op) {
  case FEq: return &hSetpF<Kind, FEq, Set>;
  case FNe: return &hSetpF<Kind, FNe, Set>;
  case FLt: return &hSetpF<Kind, FLt, Set>;
  case FLe: return &hSetpF<Kind, FLe, Set>;
  case FGt: return &hSetpF<Kind, FGt, Set>;
  case FGe: return &hSetpF<Kind, FGe, Set>;
  case FEqu: return &hSetpF<Kind, FEqu, Set>;
  case FNeu: return &hSetpF<Kind, FNeu, Set>;
  case FLtu: return &hSetpF<Kind, FLtu, Set>;
  case FLeu: return &hSetpF<Kind, FLeu, Set>;
  case FGtu: return &hSetpF<Kind, FGtu, Set>;
  case FGeu: return &hSetpF<Kind, FGeu, Set>;
  case FNum: return &hSetpF<Kind, FNum, Set>;
  default: return &hSetpF<Kind, FNan, Set>;
  }
}
template <unsigned Kind> Handler pickSetpPair(unsigned Op) {
  switch (Op) {
  case FEq: return &hSetpF2<Kind, FEq>;
  case FNe: return &hSetpF2<Kind, FNe>;
  case FLt: return &hSetpF2<Kind, FLt>;
  case FLe: return &hSetpF2<Kind, FLe>;
  case FGt: return &hSetpF2<Kind, FGt>;
  case FGe: return &hSetpF2<Kind, FGe>;
  case FEqu: return &hSetpF2<Kind, FEqu>;
  case FNeu: return &hSetpF2<Kind, FNeu>;
  case FLtu: return &hSetpF2<Kind, FLtu>;
  case FLeu: return &hSetpF2<Kind, FLeu>;
  case FGtu: return &hSetpF2<Kind, FGtu>;
  case FGeu: return &hSetpF2<Kind, FGeu>;
  case FNum: return &hSetpF2<Kind, FNum>;
  default: return &hSetpF2<Kind, FNan>;
  }
}

bool isHalf(Type T) {
  return T == Type::F16 || T == Type::F16x2 || T == Type::BF16 || T == Type::BF16x2;
}

} // namespace

bool decodeFloatInst(DecodeCtx &C, Inst &I) {
  std::string_view B = C.Base;
  Mods &M = C.M;
  static const std::string_view Names[] = {
      "add", "sub", "mul", "fma", "mad", "div", "min", "max", "abs", "neg",
      "sqrt", "rcp", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh", "copysign",
      "testp", "setp", "set"};
  if (std::find(std::begin(Names), std::end(Names), B) == std::end(Names))
    return false;

  auto ops = [&](unsigned N, Type T, bool FirstIsPred = false) {
    if (!C.wantOps(N))
      return false;
    I.A[0] = FirstIsPred ? C.pred(0) : C.dst(0);
    for (unsigned K = 1; K < N; ++K)
      I.A[K] = C.src(K, T);
    return true;
  };

  if (B == "setp" || B == "set") {
    bool IsSet = B == "set";
    unsigned Op;
    if (!parseFloatCmp(M, Op))
      return C.unsupported(), true;
    bool Ftz = M.take("ftz");
    Type DT = IsSet ? M.takeType() : Type::Pred;
    Type T = M.takeType();
    if (!decodeCompareTail(C, I, IsSet))
      return true;
    I.A[2] = C.src(1, T);
    I.A[3] = C.src(2, T);
    I.Class = classOf(T);
    if (IsSet) {
      if (DT == Type::F32)
        I.Imm |= 2;
      else if (DT != Type::U32 && DT != Type::S32 && DT != Type::B32)
        return C.unsupported(), true;
    }
    switch (T) {
    case Type::F32:
      I.Fn = IsSet ? (Ftz ? pickSetpKind<true, 1>(Op) : pickSetpKind<true, 0>(Op))
                   : (Ftz ? pickSetpKind<false, 1>(Op) : pickSetpKind<false, 0>(Op));
      break;
    case Type::F64:
      I.Fn = IsSet ? pickSetpKind<true, 2>(Op) : pickSetpKind<false, 2>(Op);
      break;
    case Type::F16:
      I.Fn = IsSet ? (Ftz ? pickSetpKind<true, 5>(Op) : pickSetpKind<true, 3>(Op))
                   : (Ftz ? pickSetpKind<false, 5>(Op) : pickSetpKind<false, 3>(Op));
      break;
    case Type::BF16:
      I.Fn = IsSet ? pickSetpKind<true, 4>(Op) : pickSetpKind<false, 4>(Op);
      break;
    case Type::F16x2:
      if (IsSet)
        return C.unsupported(), true;
      I.Fn = Ftz ? pickSetpPair<5>(Op) : pickSetpPair<3>(Op);
      break;
    case Type::BF16x2:
      if (IsSet)
        return C.unsupported(), true;
      I.Fn = pickSetpPair<4>(Op);
      break;
    default:
      return C.unsupported(), true;
    }
    C.finish();
    return true;
  }

  if (B == "testp") {
    int Op = M.takeOneOf({"finite", "infinite", "number", "notanumber",
                          "normal", "subnormal"});
    Type T = M.takeType();
    if (Op < 0 || (T != Type::F32 && T != Type::F64))
      return C.unsupported(), true;
    static const Handler H32[6] = {&hTestp<float, 0>, &hTestp<float, 1>,
                                   &hTestp<float, 2>, &hTestp<float, 3>,
                                   &hTestp<float, 4>, &hTestp<float, 5>};
    static const Handler H64[6] = {&hTestp<double, 0>, &hTestp<double, 1>,
                                   &hTestp<double, 2>, &hTestp<double, 3>,
                                   &hTestp<double, 4>, &hTestp<double, 5>};
    if (!ops(2, T, /*FirstIsPred=*/true))
      return true;
    I.Fn = T == Type::F32 ? H32[Op] : H64[Op];
    I.Class = classOf(T);
    C.finish();
    return true;
  }
  if (B == "copysign") {
    Type T = M.takeType();
    if (T != Type::F32 && T != Type::F64)
      return C.unsupported(), true;
    if (!ops(3, T))
      return true;
    I.Fn = T == Type::F32 ? &hCopysign<float> : &hCopysign<double>;
    I.Class = classOf(T);
    C.finish();
    return true;
  }

  int R = M.takeRound();
  bool Ftz = M.take("ftz");
  bool Sat = M.take("sat");
  bool Approx = M.take("approx");
  bool Full = M.take("full");
  bool NaN = M.take("NaN");
  bool XorSign = M.take("xorsign");
  bool Abs = M.take("abs");
  bool Relu = M.take("relu");
  bool NoFtz = M.take("noftz");
  (void)NoFtz;
  Type T = M.takeType();
  if (!ptx::isFloat(T))
    return B == "abs" || B == "neg" || B == "add" || B == "sub" || B == "mul" ||
                   B == "mad" || B == "div" || B == "min" || B == "max"
               ? false
               : (C.unsupported(), true);
  I.Class = classOf(T);
  bool F64 = T == Type::F64;

  if (isHalf(T)) {
    bool BF = T == Type::BF16 || T == Type::BF16x2;
    bool Pair = T == Type::F16x2 || T == Type::BF16x2;
    I.Sub = uint8_t((Ftz ? 1 : 0) | (Sat ? 2 : 0) | (Relu ? 4 : 0));
    if (R > RoundRN)
      return C.unsupported(), true;
    auto pick = [&](auto H00, auto H01, auto H10, auto H11) -> Handler {
      return BF ? (Pair ? H11 : H10) : (Pair ? H01 : H00);
    };
    if (B == "add" || B == "sub" || B == "mul") {
      if (!ops(3, T))
        return true;
      if (B == "add")
        I.Fn = pick(&hHBin<FAdd, false, false>, &hHBin<FAdd, false, true>,
                    &hHBin<FAdd, true, false>, &hHBin<FAdd, true, true>);
      else if (B == "sub")
        I.Fn = pick(&hHBin<FSub, false, false>, &hHBin<FSub, false, true>,
                    &hHBin<FSub, true, false>, &hHBin<FSub, true, true>);
      else
        I.Fn = pick(&hHBin<FMul, false, false>, &hHBin<FMul, false, true>,
                    &hHBin<FMul, true, false>, &hHBin<FMul, true, true>);
    } else if (B == "fma") {
      if (!ops(4, T))
        return true;
      I.Fn = pick(&hHFma<false, false>, &hHFma<false, true>, &hHFma<true, false>,
                  &hHFma<true, true>);
    } else if (B == "neg" || B == "abs" || (B == "ex2" && Approx) ||
               (B == "tanh" && Approx)) {
      if (!ops(2, T))
        return true;
      I.Aux = B == "neg" ? 0 : B == "abs" ? 1 : B == "ex2" ? 2 : 3;
      if (I.Aux >= 2)
        I.Class = uint8_t(InstClass::Special);
      I.Fn = pick(&hHUn<false, false>, &hHUn<false, true>, &hHUn<true, false>,
                  &hHUn<true, true>);
    } else if (B == "min" || B == "max") {
      if (XorSign != Abs)
        return C.unsupported(), true;
      if (!ops(3, T))
        return true;
      I.Sub = uint8_t((B == "max" ? 1 : 0) | (NaN ? 2 : 0) | (XorSign ? 4 : 0) |
                      (Ftz ? 8 : 0));
      I.Fn = pick(&hHMinMax<false, false>, &hHMinMax<false, true>,
                  &hHMinMax<true, false>, &hHMinMax<true, true>);
    } else {
      return C.unsupported(), true;
    }
    C.finish();
    return true;
  }

  if (T != Type::F32 && T != Type::F64)
    return C.unsupported(), true;
  if (Relu || (F64 && Ftz && B != "rcp" && B != "rsqrt"))
    return C.unsupported(), true;

  if (B == "add" || B == "sub" || B == "mul") {
    if (Approx || Full)
      return C.unsupported(), true;
    int RR = R < 0 ? RoundRN : R;
    if (!ops(3, T))
      return true;
    if (F64)
      I.Fn = B == "add" ? pickF64Bin<FAdd>(RR, Sat)
             : B == "sub" ? pickF64Bin<FSub>(RR, Sat)
                          : pickF64Bin<FMul>(RR, Sat);
    else
      I.Fn = B == "add" ? pickF32Bin<FAdd>(RR, Ftz, Sat)
             : B == "sub" ? pickF32Bin<FSub>(RR, Ftz, Sat)
                          : pickF32Bin<FMul>(RR, Ftz, Sat);
    C.finish();
    return true;
  }
  if (B == "fma" || B == "mad") {
    // mad.f32 without rounding (sm_1x semantics) is not emitted for sm_20+.
    if (R < 0)
      return C.unsupported("'" + std::string(B) + "' needs a rounding modifier"), true;
    if (!ops(4, T))
      return true;
    I.Fn = F64 ? pickF64Fma(R, Sat) : pickF32Fma(R, Ftz, Sat);
    C.finish();
    return true;
  }
  if (B == "div") {
    if (!ops(3, T))
      return true;
    if (Approx || Full) {
      if (F64 || Sat)
        return C.unsupported(), true;
      I.Fn = Approx ? (Ftz ? &hF32DivApprox<true> : &hF32DivApprox<false>)
                    : pickF32Bin<FDiv>(RoundRN, Ftz, false);
    } else {
      if (R < 0)
        return C.unsupported("'div' needs a rounding modifier"), true;
      I.Fn = F64 ? pickF64Bin<FDiv>(R, Sat) : pickF32Bin<FDiv>(R, Ftz, Sat);
    }
    C.finish();
    return true;
  }
  if (B == "min" || B == "max") {
    if (XorSign != Abs || (F64 && (NaN || XorSign)))
      return C.unsupported(), true;
    if (C.numOps() != 3)
      return C.unsupported("three-input min/max"), true;
    if (!ops(3, T))
      return true;
    unsigned Mode = (B == "max" ? 1 : 0) | (NaN ? 2 : 0) | (XorSign ? 4 : 0) |
                    (Ftz ? 8 : 0);
    I.Fn = F64 ? pickMinMax<double>(Mode) : pickMinMax<float>(Mode);
    C.finish();
    return true;
  }
  if (B == "abs" || B == "neg") {
    if (!ops(2, T))
      return true;
    if (F64)
      I.Fn = B == "neg" ? &hF64Sign<true> : &hF64Sign<false>;
    else
      I.Fn = B == "neg" ? (Ftz ? &hF32Sign<UNeg32, true> : &hF32Sign<UNeg32, false>)
                        : (Ftz ? &hF32Sign<UAbs32, true> : &hF32Sign<UAbs32, false>);
    C.finish();
    return true;
  }
  // Math functions.
  if (!ops(2, T))
    return true;
  I.Class = uint8_t(InstClass::Special);
  if (B == "sqrt" || B == "rcp") {
    unsigned Op = B == "sqrt" ? USqrt : URcp;
    if (Approx) {
      if (F64) {
        if (B != "rcp" || !Ftz)
          return C.unsupported(), true;
        I.Fn = pickExact<URcp, true>(RoundRN, true);
      } else {
        I.Fn = Op == USqrt ? (Ftz ? &hF32Approx<USqrt, true> : &hF32Approx<USqrt, false>)
                           : (Ftz ? &hF32Approx<URcp, true> : &hF32Approx<URcp, false>);
      }
    } else {
      if (R < 0)
        return C.unsupported("'" + std::string(B) + "' needs a rounding modifier"), true;
      I.Fn = F64 ? (Op == USqrt ? pickExact<USqrt, true>(R, false)
                                : pickExact<URcp, true>(R, false))
                 : (Op == USqrt ? pickExact<USqrt, false>(R, Ftz)
                                : pickExact<URcp, false>(R, Ftz));
    }
    C.finish();
    return true;
  }
  if (!Approx)
    return C.unsupported(), true;
  if (B == "rsqrt") {
    I.Fn = F64 ? (Ftz ? pickExact<URsqrt, true>(RoundRN, true)
                      : pickExact<URsqrt, true>(RoundRN, false))
               : (Ftz ? &hF32Approx<URsqrt, true> : &hF32Approx<URsqrt, false>);
    C.finish();
    return true;
  }
  if (F64)
    return C.unsupported(), true;
  unsigned Op = B == "sin" ? USin : B == "cos" ? UCos : B == "lg2" ? ULg2
                : B == "ex2" ? UEx2 : UTanh;
  switch (Op) {
  case USin: I.Fn = Ftz ? &hF32Approx<USin, true> : &hF32Approx<USin, false>; break;
  case UCos: I.Fn = Ftz ? &hF32Approx<UCos, true> : &hF32Approx<UCos, false>; break;
  case ULg2: I.Fn = Ftz ? &hF32Approx<ULg2, true> : &hF32Approx<ULg2, false>; break;
  case UEx2: I.Fn = Ftz ? &hF32Approx<UEx2, true> : &hF32Approx<UEx2, false>; break;
  default: I.Fn = Ftz ? &hF32Approx<UTanh, true> : &hF32Approx<UTanh, false>; break;
  }
  C.finish();
  return true;
}

bool decodeConvertInst(DecodeCtx &C, Inst &I) {
  if (C.Base != "cvt")
    return false;
  Mods &M = C.M;
  CvtSpec S;
  S.IRnd = M.takeIntRound();
  S.Rnd = M.takeRound();
  if (M.take("rna"))
    S.Rnd = RoundRNA;
  S.Ftz = M.take("ftz");
  S.Sat = M.take("sat");
  S.Relu = M.take("relu");
  S.SatFinite = M.take("satfinite");
  S.D = M.takeType();
  S.S = M.takeType();
  if (S.D == Type::None || S.S == Type::None)
    return C.unsupported(), true;
  bool DF = ptx::isFloat(S.D) || S.D == Type::TF32, SF = ptx::isFloat(S.S);
  bool Pack2 = S.D == Type::F16x2 || S.D == Type::BF16x2;
  if (Pack2) {
    if (S.S != Type::F32)
      return C.unsupported(), true;
    S.D = S.D == Type::F16x2 ? Type::F16 : Type::BF16;
  }
  auto okType = [](Type T) {
    return isIntType(T) || T == Type::F16 || T == Type::BF16 ||
           T == Type::F32 || T == Type::F64;
  };
  if (!okType(S.S) || (!okType(S.D) && S.D != Type::TF32) ||
      S.D == Type::B8 || S.S == Type::B8)
    return C.unsupported(), true;
  if (S.D == Type::TF32 && S.S != Type::F32)
    return C.unsupported(), true;
  // Integer types b16/b32/b64 are not allowed by cvt, but accept them as
  // unsigned.
  auto unb = [](Type T) {
    switch (T) {
    case Type::B16: return Type::U16;
    case Type::B32: return Type::U32;
    case Type::B64: return Type::U64;
    default: return T;
    }
  };
  S.D = unb(S.D);
  S.S = unb(S.S);
  if (S.Rnd == RoundRNA && S.D != Type::TF32)
    return C.unsupported(), true;
  if (DF && SF && S.IRnd >= 0 && S.D != S.S && S.Rnd >= 0)
    return C.unsupported(), true;
  if (!DF && SF && S.IRnd < 0)
    return C.unsupported("float-to-integer 'cvt' needs an integer rounding modifier"), true;
  if (!C.wantOps(Pack2 ? 3 : 2))
    return true;
  unsigned RB = C.regBytes(C.op(0));
  S.RegBits = RB ? RB * 8 : 64;
  I.A[0] = C.dst(0);
  I.A[1] = C.src(1, Pack2 ? Type::F32 : S.S);
  if (Pack2)
    I.A[2] = C.src(2, Type::F32);
  I.Imm = S.pack();
  I.Fn = Pack2 ? &hCvtPack2 : fastCvt(S);
  if (!I.Fn)
    I.Fn = &hCvtGeneric;
  bool Any64 = S.D == Type::F64 || S.S == Type::F64;
  bool AnyF = DF || SF;
  I.Class = uint8_t(Any64 ? InstClass::Fp64 : AnyF ? InstClass::Fp32 : InstClass::Integer);
  C.finish();
  return true;
}

} // namespace klaraptor::emu
