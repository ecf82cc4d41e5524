//===- OpsInt.cpp - integer, logic, compare/select and move instructions --===//
///
/// \file
/// Handlers and decoding for: add sub mul mad mul24 mad24 sad div rem abs
/// neg min max (integer types), add.cc/addc/sub.cc/subc/mad.cc/madc, popc
/// clz bfind fns brev bfe bfi bmsk szext dp4a dp2a, and or xor not cnot
/// lop3 shf shl shr prmt, setp/set (integer types), selp, slct and mov
/// (registers, immediates, special registers, symbol addresses, vector
/// pack/unpack).
///
/// Integer division by zero is undefined in PTX; the emulator returns all
/// ones for unsigned and -1 for signed quotients, and the dividend for
/// remainders. INT_MIN / -1 wraps to INT_MIN (remainder 0).
//===----------------------------------------------------------------------===//
#include "OpsCommon.h"

#include <algorithm>
#include <chrono>
#include <limits>

namespace klaraptor::emu {

using ptx::Type;

namespace {

template <class T> using UT = std::make_unsigned_t<T>;
template <class T> constexpr unsigned Bits = sizeof(T) * 8;

//===----------------------------------------------------------------------===//
// Arithmetic functors
//===----------------------------------------------------------------------===//

struct OpAdd {
  template <class T> static T f(T A, T B) { return T(UT<T>(UT<T>(A) + UT<T>(B))); }
};
struct OpSub {
  template <class T> static T f(T A, T B) { return T(UT<T>(UT<T>(A) - UT<T>(B))); }
};
struct OpMulLo {
  template <class T> static T f(T A, T B) {
    if constexpr (sizeof(T) < 8)
      return T(UT<T>(uint64_t(UT<T>(A)) * uint64_t(UT<T>(B))));
    else
      return T(uint64_t(A) * uint64_t(B));
  }
};
struct OpMulHi {
  template <class T> static T f(T A, T B) {
    if constexpr (sizeof(T) < 8) {
      if constexpr (std::is_signed_v<T>)
        return T((int64_t(A) * int64_t(B)) >> Bits<T>);
      else
        return T((uint64_t(A) * uint64_t(B)) >> Bits<T>);
    } else {
      if constexpr (std::is_signed_v<T>)
        return T((__int128(A) * __int128(B)) >> 64);
      else
        return T((unsigned __int128)(A) * (unsigned __int128)(B) >> 64);
    }
  }
};
struct OpDiv {
  template <class T> static T f(T A, T B) {
    if (B == 0)
      return std::is_signed_v<T> ? T(-1) : T(~UT<T>(0));
    if constexpr (std::is_signed_v<T>)
      if (A == std::numeric_limits<T>::min() && B == T(-1))
        return A;
    return T(A / B);
  }
};
struct OpRem {
  template <class T> static T f(T A, T B) {
    if (B == 0)
      return A;
    if constexpr (std::is_signed_v<T>)
      if (A == std::numeric_limits<T>::min() && B == T(-1))
        return 0;
    return T(A % B);
  }
};
struct OpMin {
  template <class T> static T f(T A, T B) { return A < B ? A : B; }
};
struct OpMax {
  template <class T> static T f(T A, T B) { return A > B ? A : B; }
};
struct OpAnd {
  template <class T> static T f(T A, T B) { return T(A & B); }
};
struct OpOr {
  template <class T> static T f(T A, T B) { return T(A | B); }
};
struct OpXor {
  template <class T> static T f(T A, T B) { return T(A ^ B); }
};
struct OpAddSat {
  static int32_t f(int32_t A, int32_t B) {
    int64_t R = int64_t(A) + B;
    return int32_t(std::clamp<int64_t>(R, INT32_MIN, INT32_MAX));
  }
};
struct OpSubSat {
  static int32_t f(int32_t A, int32_t B) {
    int64_t R = int64_t(A) - B;
    return int32_t(std::clamp<int64_t>(R, INT32_MIN, INT32_MAX));
  }
};
template <bool Hi> struct OpMul24 {
  template <class T> static T f(T A, T B) {
    int64_t X, Y;
    if constexpr (std::is_signed_v<T>) {
      X = int64_t(int32_t(uint32_t(A) << 8) >> 8);
      Y = int64_t(int32_t(uint32_t(B) << 8) >> 8);
    } else {
      X = int64_t(uint32_t(A) & 0xffffff);
      Y = int64_t(uint32_t(B) & 0xffffff);
    }
    uint64_t P = uint64_t(X * Y);
    return Hi ? T(uint32_t(P >> 16)) : T(uint32_t(P));
  }
};
struct OpAbs {
  template <class T> static T f(T A) { return A < 0 ? T(UT<T>(0) - UT<T>(A)) : A; }
};
struct OpNeg {
  template <class T> static T f(T A) { return T(UT<T>(UT<T>(0) - UT<T>(A))); }
};
struct OpNot {
  template <class T> static T f(T A) { return T(~A); }
};
struct OpCNot {
  template <class T> static T f(T A) { return A == 0 ? T(1) : T(0); }
};
struct OpBrev {
  template <class T> static T f(T A) {
    UT<T> X = UT<T>(A), R = 0;
    for (unsigned I = 0; I < Bits<T>; ++I)
      R |= UT<T>(((X >> I) & 1u)) << (Bits<T> - 1 - I);
    return T(R);
  }
};
struct OpPopc {
  template <class T> static uint32_t f(T A) {
    return popc64(uint64_t(UT<T>(A)));
  }
};
struct OpClz {
  template <class T> static uint32_t f(T A) {
    uint64_t X = uint64_t(UT<T>(A));
    if (X == 0)
      return Bits<T>;
    return uint32_t(__builtin_clzll(X)) - (64 - Bits<T>);
  }
};
template <bool ShiftAmt> struct OpBfind {
  template <class T> static uint32_t f(T A) {
    uint64_t X = uint64_t(UT<T>(A));
    if constexpr (std::is_signed_v<T>)
      if (A < 0)
        X = uint64_t(UT<T>(~A));
    if (X == 0)
      return 0xffffffffu;
    uint32_t Pos = 63 - uint32_t(__builtin_clzll(X));
    return ShiftAmt ? (Bits<T> - 1 - Pos) : Pos;
  }
};

/// Binary ops whose second operand is a u32 shift amount.
template <class T, bool Left>
void hShift(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  forLanes(M, [&](unsigned L) {
    T X = bitsTo<T>(A[L]);
    uint32_t N = uint32_t(B[L]);
    T R;
    if (N >= Bits<T>) {
      R = (!Left && std::is_signed_v<T> && X < 0) ? T(-1) : T(0);
    } else if (Left) {
      R = T(UT<T>(UT<T>(X) << N));
    } else if constexpr (std::is_signed_v<T>) {
      R = T(X >> N);
    } else {
      R = T(X >> N);
    }
    D[L] = toBits<T>(R);
  });
}

/// mul.wide: product of two T into twice the width.
template <class T, class W>
void hMulWide(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  forLanes(M, [&](unsigned L) {
    D[L] = toBits<W>(W(W(bitsTo<T>(A[L])) * W(bitsTo<T>(B[L]))));
  });
}
template <class T, class W>
void hMadWide(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  forLanes(M, [&](unsigned L) {
    using UW = std::make_unsigned_t<W>;
    UW P = UW(W(bitsTo<T>(A[L])) * W(bitsTo<T>(B[L])));
    D[L] = toBits<W>(W(UW(P + UW(bitsTo<W>(C[L])))));
  });
}

struct OpMadLo {
  template <class T> static T f(T A, T B, T C) {
    return OpAdd::f<T>(OpMulLo::f<T>(A, B), C);
  }
};
struct OpMadHi {
  template <class T> static T f(T A, T B, T C) {
    return OpAdd::f<T>(OpMulHi::f<T>(A, B), C);
  }
};
struct OpMadHiSat {
  static int32_t f(int32_t A, int32_t B, int32_t C) {
    int64_t R = ((int64_t(A) * B) >> 32) + C;
    return int32_t(std::clamp<int64_t>(R, INT32_MIN, INT32_MAX));
  }
};
template <bool Hi> struct OpMad24 {
  template <class T> static T f(T A, T B, T C) {
    return OpAdd::f<T>(OpMul24<Hi>::template f<T>(A, B), C);
  }
};
struct OpSad {
  template <class T> static T f(T A, T B, T C) {
    UT<T> Diff = A > B ? UT<T>(UT<T>(A) - UT<T>(B)) : UT<T>(UT<T>(B) - UT<T>(A));
    return T(UT<T>(UT<T>(C) + Diff));
  }
};

//===----------------------------------------------------------------------===//
// Bit-field instructions
//===----------------------------------------------------------------------===//

template <class T> void hBfe(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  constexpr unsigned Msb = Bits<T> - 1;
  forLanes(M, [&](unsigned L) {
    UT<T> X = UT<T>(bitsTo<T>(A[L]));
    unsigned Pos = unsigned(B[L] & 0xff), Len = unsigned(C[L] & 0xff);
    unsigned SBit = 0;
    if (std::is_signed_v<T> && Len != 0)
      SBit = unsigned((X >> std::min(Pos + Len - 1, Msb)) & 1u);
    UT<T> R = 0;
    for (unsigned K = 0; K <= Msb; ++K) {
      unsigned Bit = (K < Len && Pos + K <= Msb) ? unsigned((X >> (Pos + K)) & 1u)
                                                  : SBit;
      R |= UT<T>(Bit) << K;
    }
    D[L] = toBits<T>(T(R));
  });
}

template <class T> void hBfi(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *F = S.reg(I.A[1]), *B = S.reg(I.A[2]), *Pp = S.reg(I.A[3]),
                 *Ln = S.reg(I.A[4]);
  constexpr unsigned Msb = Bits<T> - 1;
  forLanes(M, [&](unsigned L) {
    UT<T> Fv = UT<T>(bitsTo<T>(F[L])), R = UT<T>(bitsTo<T>(B[L]));
    unsigned Pos = unsigned(Pp[L] & 0xff), Len = unsigned(Ln[L] & 0xff);
    for (unsigned K = 0; K < Len && Pos + K <= Msb; ++K) {
      UT<T> Bit = (Fv >> K) & 1u;
      R = UT<T>((R & ~(UT<T>(1) << (Pos + K))) | (Bit << (Pos + K)));
    }
    D[L] = toBits<T>(T(R));
  });
}

/// prmt modes: 0 generic, 1 f4e, 2 b4e, 3 rc8, 4 ecl, 5 ecr, 6 rc16.
template <unsigned Mode> void hPrmt(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  // For the special modes, the byte chosen for each destination byte
  // (index 0 = least significant) as a function of c[1:0].
  static const uint8_t Tab[7][4][4] = {
      {},
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}, // f4e
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}}, // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, // rc8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}}, // ecl
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}, // ecr
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}, // rc16
  };
  forLanes(M, [&](unsigned L) {
    uint64_t Src = (uint64_t(uint32_t(B[L])) << 32) | uint32_t(A[L]);
    uint32_t Ctl = uint32_t(C[L]);
    uint32_t R = 0;
    for (unsigned K = 0; K < 4; ++K) {
      uint32_t Byte;
      if (Mode == 0) {
        unsigned Sel = (Ctl >> (4 * K)) & 0xf;
        Byte = uint32_t(Src >> (8 * (Sel & 7))) & 0xff;
        if (Sel & 8)
          Byte = (Byte & 0x80) ? 0xff : 0;
      } else {
        Byte = uint32_t(Src >> (8 * Tab[Mode][Ctl & 3][K])) & 0xff;
      }
      R |= Byte << (8 * K);
    }
    D[L] = R;
  });
}

void hLop3(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  uint32_t Lut = uint32_t(I.Imm);
  forLanes(M, [&](unsigned L) {
    uint32_t X = uint32_t(A[L]), Y = uint32_t(B[L]), Z = uint32_t(C[L]);
    uint32_t R = 0;
    for (unsigned K = 0; K < 8; ++K)
      if (Lut & (1u << K))
        R |= ((K & 4) ? X : ~X) & ((K & 2) ? Y : ~Y) & ((K & 1) ? Z : ~Z);
    D[L] = R;
  });
}

template <bool Left, bool Wrap>
void hShf(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  forLanes(M, [&](unsigned L) {
    uint64_t V = (uint64_t(uint32_t(B[L])) << 32) | uint32_t(A[L]);
    uint32_t N = uint32_t(C[L]);
    N = Wrap ? (N & 31) : std::min<uint32_t>(N, 32);
    D[L] = Left ? uint32_t((V << N) >> 32) : uint32_t(V >> N);
  });
}

void hFns(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *Ma = S.reg(I.A[1]), *Ba = S.reg(I.A[2]), *Of = S.reg(I.A[3]);
  forLanes(M, [&](unsigned L) {
    uint32_t Mask = uint32_t(Ma[L]);
    int Base = int(uint32_t(Ba[L]) & 31);
    int Off = int32_t(uint32_t(Of[L]));
    uint32_t R = 0xffffffffu;
    if (Off == 0) {
      if ((Mask >> Base) & 1)
        R = uint32_t(Base);
    } else {
      int Count = (Off > 0 ? Off : -Off) - 1;
      int Inc = Off > 0 ? 1 : -1;
      for (int Pos = Base; Pos >= 0 && Pos < 32; Pos += Inc) {
        if ((Mask >> Pos) & 1) {
          if (Count == 0) {
            R = uint32_t(Pos);
            break;
          }
          --Count;
        }
      }
    }
    D[L] = R;
  });
}

template <bool Wrap> void hBmsk(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  forLanes(M, [&](unsigned L) {
    uint32_t Pos = uint32_t(A[L]), Len = uint32_t(B[L]);
    if (Wrap) {
      Pos &= 31;
      Len &= 31;
    } else {
      Pos = std::min<uint32_t>(Pos, 32);
      Len = std::min<uint32_t>(Len, 32);
    }
    uint64_t Msk = ((uint64_t(1) << Len) - 1) << Pos;
    D[L] = uint32_t(Msk);
  });
}

template <bool Wrap, bool Signed>
void hSzext(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  forLanes(M, [&](unsigned L) {
    uint32_t X = uint32_t(A[L]);
    uint32_t N = uint32_t(B[L]);
    N = Wrap ? (N & 31) : std::min<uint32_t>(N, 32);
    uint32_t R;
    if (N == 32)
      R = X;
    else if (N == 0)
      R = 0;
    else if (Signed)
      R = uint32_t(int32_t(X << (32 - N)) >> (32 - N));
    else
      R = X & ((1u << N) - 1);
    D[L] = R;
  });
}

/// dp4a / dp2a. Sub: bit0 a signed, bit1 b signed; dp2a: bit2 hi.
template <bool Dp2> void hDp(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  bool SA = I.Sub & 1, SB = I.Sub & 2, Hi = I.Sub & 4;
  forLanes(M, [&](unsigned L) {
    uint32_t X = uint32_t(A[L]), Y = uint32_t(B[L]);
    int64_t Sum = (SA || SB) ? int64_t(int32_t(uint32_t(C[L])))
                             : int64_t(uint32_t(C[L]));
    if (!Dp2) {
      for (unsigned K = 0; K < 4; ++K) {
        int64_t XA = SA ? int8_t(X >> (8 * K)) : uint8_t(X >> (8 * K));
        int64_t YB = SB ? int8_t(Y >> (8 * K)) : uint8_t(Y >> (8 * K));
        Sum += XA * YB;
      }
    } else {
      for (unsigned K = 0; K < 2; ++K) {
        int64_t XA = SA ? int16_t(X >> (16 * K)) : uint16_t(X >> (16 * K));
        unsigned ByteIdx = (Hi ? 2 : 0) + K;
        int64_t YB = SB ? int8_t(Y >> (8 * ByteIdx)) : uint8_t(Y >> (8 * ByteIdx));
        Sum += XA * YB;
      }
    }
    D[L] = uint32_t(Sum);
  });
}

//===----------------------------------------------------------------------===//
// Carry arithmetic. The carry flag is a predicate (KernelBuilder's CC).
// Sub bits: 0 = read carry-in, 1 = write carry-out, 2 = subtract,
// 3 = mad (A*B + C), 4 = mad uses the high half.
//===----------------------------------------------------------------------===//

template <class T> void hCarry(ExecState &S, const Inst &I, uint32_t M) {
  using U = UT<T>;
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  const uint64_t *C = (I.Sub & 8) ? S.reg(I.A[3]) : nullptr;
  uint32_t &CC = S.Preds[I.A[5]];
  uint32_t In = CC, Out = 0;
  bool UseIn = I.Sub & 1, Sub = I.Sub & 4, Mad = I.Sub & 8, Hi = I.Sub & 16;
  forLanes(M, [&](unsigned L) {
    U X = U(bitsTo<T>(A[L])), Y = U(bitsTo<T>(B[L]));
    U CinV = UseIn ? U((In >> L) & 1) : U(0);
    U R;
    bool Carry;
    if (Mad) {
      U P = Hi ? U(OpMulHi::f<T>(T(X), T(Y))) : U(OpMulLo::f<T>(T(X), T(Y)));
      U Z = U(bitsTo<T>(C[L]));
      R = U(P + Z);
      Carry = R < P;
      U R2 = U(R + CinV);
      Carry = Carry || R2 < R;
      R = R2;
    } else if (!Sub) {
      R = U(X + Y);
      Carry = R < X;
      U R2 = U(R + CinV);
      Carry = Carry || R2 < R;
      R = R2;
    } else {
      // Borrow semantics: CF is set when the subtraction borrowed.
      U YB = U(Y + CinV);
      bool Over = YB < Y; // Y + CF wrapped
      R = U(X - YB);
      Carry = Over || X < YB;
    }
    Out |= uint32_t(Carry) << L;
    D[L] = toBits<T>(T(R));
  });
  if (I.Sub & 2)
    setPred(CC, M, Out);
}

//===----------------------------------------------------------------------===//
// Compare and select
//===----------------------------------------------------------------------===//

enum CmpOp : unsigned { CmpEq, CmpNe, CmpLt, CmpLe, CmpGt, CmpGe };

template <unsigned Op, class T> inline bool cmpInt(T A, T B) {
  switch (Op) {
  case CmpEq: return A == B;
  case CmpNe: return A != B;
  case CmpLt: return A < B;
  case CmpLe: return A <= B;
  case CmpGt: return A > B;
  default: return A >= B;
  }
}

} // namespace

/// Applies setp/set's boolean combination and writes predicate results.
/// Sub: 0 none, 1 and, 2 or, 3 xor; A[4] = c; Imm bit0 = c negated;
/// A[0] = p, A[1] = q (~0u when absent).
void setpFinish(ExecState &S, const Inst &I, uint32_t M, uint32_t R) {
  uint32_t Pv = R, Qv = ~R;
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

/// set: writes 0xffffffff / 1.0f (Imm bit1) or 0 to A[0] after combining.
void setFinish(ExecState &S, const Inst &I, uint32_t M, uint32_t R) {
  if (I.Sub) {
    uint32_t C = S.Preds[I.A[4]] ^ ((I.Imm & 1) ? ~0u : 0u);
    switch (I.Sub) {
    case 1: R &= C; break;
    case 2: R |= C; break;
    default: R ^= C; break;
    }
  }
  uint64_t *D = S.reg(I.A[0]);
  uint64_t True = (I.Imm & 2) ? 0x3f800000u : 0xffffffffu;
  forLanes(M, [&](unsigned L) { D[L] = ((R >> L) & 1) ? True : 0; });
}

namespace {

template <class T, unsigned Op, bool Set>
void hSetpInt(ExecState &S, const Inst &I, uint32_t M) {
  const uint64_t *A = S.reg(I.A[2]), *B = S.reg(I.A[3]);
  uint32_t R = 0;
  forLanes(M, [&](unsigned L) {
    R |= uint32_t(cmpInt<Op>(bitsTo<T>(A[L]), bitsTo<T>(B[L]))) << L;
  });
  if (Set)
    setFinish(S, I, M, R);
  else
    setpFinish(S, I, M, R);
}

void hSelp(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  uint32_t P = S.Preds[I.A[3]] ^ ((I.Imm & 1) ? ~0u : 0u);
  forLanes(M, [&](unsigned L) { D[L] = ((P >> L) & 1) ? A[L] : B[L]; });
}

template <bool FloatC, bool Ftz>
void hSlct(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  forLanes(M, [&](unsigned L) {
    bool Ge;
    if (FloatC) {
      uint32_t Bits = uint32_t(C[L]);
      if (Ftz && (Bits & 0x7f800000u) == 0)
        Bits &= 0x80000000u;
      float F = bitsTo<float>(Bits);
      Ge = F >= 0.0f;
    } else {
      Ge = int32_t(uint32_t(C[L])) >= 0;
    }
    D[L] = Ge ? A[L] : B[L];
  });
}

//===----------------------------------------------------------------------===//
// Predicate logic
//===----------------------------------------------------------------------===//

/// Sub: 0 and, 1 or, 2 xor, 3 not, 4 cnot, 5 mov. A[0] = d, A[1], A[2].
void hPredLogic(ExecState &S, const Inst &I, uint32_t M) {
  uint32_t A = S.Preds[I.A[1]] ^ ((I.Imm & 1) ? ~0u : 0u);
  uint32_t B = (I.Sub <= 2) ? (S.Preds[I.A[2]] ^ ((I.Imm & 2) ? ~0u : 0u)) : 0;
  uint32_t R;
  switch (I.Sub) {
  case 0: R = A & B; break;
  case 1: R = A | B; break;
  case 2: R = A ^ B; break;
  case 3: case 4: R = ~A; break;
  default: R = A; break;
  }
  setPred(S.Preds[I.A[0]], M, R);
}

//===----------------------------------------------------------------------===//
// Moves
//===----------------------------------------------------------------------===//

void hMov(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) { D[L] = A[L]; });
}

/// d = a + Imm (64-bit), for symbol addresses relative to a base slot.
void hAddImm(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  uint64_t K = uint64_t(I.Imm);
  uint64_t Mask = I.Sub == 4 ? 0xffffffffull : ~0ull;
  forLanes(M, [&](unsigned L) { D[L] = (A[L] + K) & Mask; });
}

/// Pack N parts of W bits (A[1..N]) into A[0].
template <unsigned N, unsigned W>
void hPack(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *P[N];
  for (unsigned K = 0; K < N; ++K)
    P[K] = S.reg(I.A[1 + K]);
  constexpr uint64_t Mask = W == 64 ? ~0ull : ((1ull << W) - 1);
  forLanes(M, [&](unsigned L) {
    uint64_t V = 0;
    for (unsigned K = 0; K < N; ++K)
      V |= (P[K][L] & Mask) << (K * W);
    D[L] = V;
  });
}

/// Unpack A[N] into N parts of W bits (A[0..N-1]).
template <unsigned N, unsigned W>
void hUnpack(ExecState &S, const Inst &I, uint32_t M) {
  const uint64_t *Src = S.reg(I.A[N]);
  uint64_t *P[N];
  for (unsigned K = 0; K < N; ++K)
    P[K] = S.reg(I.A[K]);
  constexpr uint64_t Mask = W == 64 ? ~0ull : ((1ull << W) - 1);
  forLanes(M, [&](unsigned L) {
    uint64_t V = Src[L];
    for (unsigned K = 0; K < N; ++K)
      P[K][L] = (V >> (K * W)) & Mask;
  });
}

/// %clock / %clock64 / %globaltimer. Sub: 0 clock (u32), 1 clock_hi,
/// 2 clock64, 3 globaltimer, 4 globaltimer_lo, 5 globaltimer_hi.
void hMovClock(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t V;
  if (I.Sub <= 2) {
    // The emulated clock counts the warp instructions executed by this host
    // thread: monotonic, deterministic, cycle-like.
    uint64_t T = 0;
    for (uint64_t X : S.C->WarpInst)
      T += X;
    V = T;
    if (I.Sub == 0)
      V &= 0xffffffffu;
    else if (I.Sub == 1)
      V >>= 32;
  } else {
    V = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count());
    if (I.Sub == 4)
      V &= 0xffffffffu;
    else if (I.Sub == 5)
      V >>= 32;
  }
  uint64_t *D = S.reg(I.A[0]);
  forLanes(M, [&](unsigned L) { D[L] = V; });
}

template <class Op> Handler pickBin(Type T) {
  return dispatchInt(T, [](auto Tg) -> Handler {
    using X = typename decltype(Tg)::type;
    return &hBinary<X, X, Op>;
  });
}
template <class Op> Handler pickUn(Type T) {
  return dispatchInt(T, [](auto Tg) -> Handler {
    using X = typename decltype(Tg)::type;
    return &hUnary<X, X, Op>;
  });
}
template <class Op> Handler pickUnU32(Type T) {
  return dispatchInt(T, [](auto Tg) -> Handler {
    using X = typename decltype(Tg)::type;
    return &hUnary<X, uint32_t, Op>;
  });
}
template <class Op> Handler pickTer(Type T) {
  return dispatchInt(T, [](auto Tg) -> Handler {
    using X = typename decltype(Tg)::type;
    return &hTernary<X, X, Op>;
  });
}

bool isSignedInt(Type T) { return ptx::isSigned(T); }

bool hasFloatType(const Mods &M) {
  for (const std::string &P : M.Parts)
    if (ptx::isFloat(ptx::parseType(P)))
      return true;
  return false;
}

/// Integer compare operators; sets Op (CmpOp) and whether it forces
/// unsigned comparison (lo ls hi hs).
bool parseIntCmp(Mods &M, unsigned &Op, bool &ForceUnsigned) {
  static const struct {
    const char *N;
    unsigned Op;
    bool U;
  } Tab[] = {{"eq", CmpEq, false}, {"ne", CmpNe, false}, {"lt", CmpLt, false},
             {"le", CmpLe, false}, {"gt", CmpGt, false}, {"ge", CmpGe, false},
             {"lo", CmpLt, true},  {"ls", CmpLe, true},  {"hi", CmpGt, true},
             {"hs", CmpGe, true}};
  for (const auto &E : Tab)
    if (M.take(E.N)) {
      Op = E.Op;
      ForceUnsigned = E.U;
      return true;
    }
  return false;
}

template <bool Set> Handler pickSetpInt(Type T, unsigned Op) {
  auto Pick = [&](auto Tg) -> Handler {
    using X = typename decltype(Tg)::type;
    switch (Op) {
    case CmpEq: return &hSetpInt<X, CmpEq, Set>;
    case CmpNe: return &hSetpInt<X, CmpNe, Set>;
    case CmpLt: return &hSetpInt<X, CmpLt, Set>;
    case CmpLe: return &hSetpInt<X, CmpLe, Set>;
    case CmpGt: return &hSetpInt<X, CmpGt, Set>;
    default: return &hSetpInt<X, CmpGe, Set>;
    }
  };
  return dispatchInt(T, Pick);
}

} // namespace

/// Decodes setp/set's trailing `.bop` and `c` operand (shared with floats).
/// Operands: setp: p[|q], a, b[, {!}c]; set: d, a, b[, {!}c].
bool decodeCompareTail(DecodeCtx &C, Inst &I, bool IsSet) {
  int Bop = C.M.takeOneOf({"and", "or", "xor"});
  unsigned N = C.numOps();
  if (Bop >= 0 ? N != 4 : N != 3) {
    C.invalid("expected " + std::to_string(Bop >= 0 ? 4 : 3) + " operands");
    return false;
  }
  I.Sub = uint8_t(Bop + 1);
  if (Bop >= 0) {
    I.A[4] = C.predSrc(C.op(3));
    if (C.op(3).Neg)
      I.Imm |= 1;
  }
  if (IsSet) {
    I.A[0] = C.dst(0);
    I.A[1] = ~0u;
  } else {
    I.A[0] = C.pred(0);
    I.A[1] = C.op(0).Text2.empty() ? ~0u : C.predSrc([&] {
      ptx::Operand Q;
      Q.Text = C.op(0).Text2;
      return Q;
    }());
  }
  return true;
}

bool decodeIntInst(DecodeCtx &C, Inst &I) {
  std::string_view B = C.Base;
  Mods &M = C.M;
  auto finishBinary = [&](Handler H, Type T) {
    if (!H)
      return C.unsupported(), true;
    if (!C.wantOps(3))
      return true;
    I.Fn = H;
    I.A[0] = C.dst(0);
    I.A[1] = C.src(1, T);
    I.A[2] = C.src(2, T);
    I.Class = uint8_t(InstClass::Integer);
    C.finish();
    return true;
  };
  auto finishUnary = [&](Handler H, Type T) {
    if (!H)
      return C.unsupported(), true;
    if (!C.wantOps(2))
      return true;
    I.Fn = H;
    I.A[0] = C.dst(0);
    I.A[1] = C.src(1, T);
    I.Class = uint8_t(InstClass::Integer);
    C.finish();
    return true;
  };
  auto finishTernary = [&](Handler H, Type T, Type TC) {
    if (!H)
      return C.unsupported(), true;
    if (!C.wantOps(4))
      return true;
    I.Fn = H;
    I.A[0] = C.dst(0);
    I.A[1] = C.src(1, T);
    I.A[2] = C.src(2, T);
    I.A[3] = C.src(3, TC);
    I.Class = uint8_t(InstClass::Integer);
    C.finish();
    return true;
  };

  // Carry arithmetic.
  if (B == "addc" || B == "subc" || B == "madc" ||
      ((B == "add" || B == "sub" || B == "mad") &&
       std::find(M.Parts.begin(), M.Parts.end(), "cc") != M.Parts.end())) {
    bool In = B == "addc" || B == "subc" || B == "madc";
    bool IsMad = B == "mad" || B == "madc";
    bool IsSub = B == "sub" || B == "subc";
    bool Out = M.take("cc");
    bool Hi = false;
    if (IsMad) {
      int K = M.takeOneOf({"lo", "hi"});
      if (K < 0)
        return C.unsupported(), true;
      Hi = K == 1;
    }
    Type T = M.takeType();
    Handler H = nullptr;
    switch (T) {
    case Type::U32: case Type::B32: H = &hCarry<uint32_t>; break;
    case Type::S32: H = &hCarry<int32_t>; break;
    case Type::U64: case Type::B64: H = &hCarry<uint64_t>; break;
    case Type::S64: H = &hCarry<int64_t>; break;
    default: break;
    }
    if (!H)
      return C.unsupported(), true;
    if (!C.wantOps(IsMad ? 4 : 3))
      return true;
    I.Fn = H;
    I.Sub = uint8_t((In ? 1 : 0) | (Out ? 2 : 0) | (IsSub ? 4 : 0) |
                    (IsMad ? 8 : 0) | (Hi ? 16 : 0));
    I.A[0] = C.dst(0);
    I.A[1] = C.src(1, T);
    I.A[2] = C.src(2, T);
    if (IsMad)
      I.A[3] = C.src(3, T);
    I.A[5] = C.carryPred();
    I.Class = uint8_t(InstClass::Integer);
    C.finish();
    return true;
  }

  if ((B == "add" || B == "sub" || B == "min" || B == "max" || B == "mul" ||
       B == "mad" || B == "div" || B == "rem" || B == "abs" || B == "neg" ||
       B == "setp") &&
      hasFloatType(M))
    return false;
  // set.CmpOp.dtype.stype: the source type decides (dtype may be f32).
  if (B == "set" && !M.Parts.empty() && ptx::isFloat(ptx::parseType(M.Parts.back())))
    return false;

  if (B == "add" || B == "sub") {
    bool Sat = M.take("sat");
    Type T = M.takeType();
    if (Sat) {
      if (T != Type::S32)
        return C.unsupported(), true;
      return finishBinary(B == "add" ? &hBinary<int32_t, int32_t, OpAddSat>
                                     : &hBinary<int32_t, int32_t, OpSubSat>,
                          T);
    }
    return finishBinary(B == "add" ? pickBin<OpAdd>(T) : pickBin<OpSub>(T), T);
  }
  if (B == "min" || B == "max") {
    Type T = M.takeType();
    return finishBinary(B == "min" ? pickBin<OpMin>(T) : pickBin<OpMax>(T), T);
  }
  if (B == "mul" || B == "mad") {
    int Mode = M.takeOneOf({"lo", "hi", "wide"});
    bool Sat = M.take("sat");
    Type T = M.takeType();
    if (Mode < 0)
      return C.unsupported(), true;
    bool IsMad = B == "mad";
    if (Mode == 2) {
      Handler H = nullptr;
      Type W = Type::None;
      switch (T) {
      case Type::U16: H = IsMad ? &hMadWide<uint16_t, uint32_t> : &hMulWide<uint16_t, uint32_t>; W = Type::U32; break;
      case Type::S16: H = IsMad ? &hMadWide<int16_t, int32_t> : &hMulWide<int16_t, int32_t>; W = Type::S32; break;
      case Type::U32: H = IsMad ? &hMadWide<uint32_t, uint64_t> : &hMulWide<uint32_t, uint64_t>; W = Type::U64; break;
      case Type::S32: H = IsMad ? &hMadWide<int32_t, int64_t> : &hMulWide<int32_t, int64_t>; W = Type::S64; break;
      default: break;
      }
      if (!H || Sat)
        return C.unsupported(), true;
      if (IsMad)
        return finishTernary(H, T, W);
      return finishBinary(H, T);
    }
    if (Sat) {
      if (!IsMad || Mode != 1 || T != Type::S32)
        return C.unsupported(), true;
      return finishTernary(&hTernary<int32_t, int32_t, OpMadHiSat>, T, T);
    }
    if (IsMad)
      return finishTernary(Mode == 0 ? pickTer<OpMadLo>(T) : pickTer<OpMadHi>(T),
                           T, T);
    return finishBinary(Mode == 0 ? pickBin<OpMulLo>(T) : pickBin<OpMulHi>(T), T);
  }
  if (B == "mul24" || B == "mad24") {
    int Mode = M.takeOneOf({"lo", "hi"});
    Type T = M.takeType();
    if (Mode < 0 || (T != Type::U32 && T != Type::S32))
      return C.unsupported(), true;
    bool Hi = Mode == 1;
    if (B == "mul24") {
      Handler H = T == Type::S32
                      ? (Hi ? &hBinary<int32_t, int32_t, OpMul24<true>>
                            : &hBinary<int32_t, int32_t, OpMul24<false>>)
                      : (Hi ? &hBinary<uint32_t, uint32_t, OpMul24<true>>
                            : &hBinary<uint32_t, uint32_t, OpMul24<false>>);
      return finishBinary(H, T);
    }
    Handler H = T == Type::S32
                    ? (Hi ? &hTernary<int32_t, int32_t, OpMad24<true>>
                          : &hTernary<int32_t, int32_t, OpMad24<false>>)
                    : (Hi ? &hTernary<uint32_t, uint32_t, OpMad24<true>>
                          : &hTernary<uint32_t, uint32_t, OpMad24<false>>);
    return finishTernary(H, T, T);
  }
  if (B == "sad") {
    Type T = M.takeType();
    return finishTernary(pickTer<OpSad>(T), T, T);
  }
  if (B == "div" || B == "rem") {
    Type T = M.takeType();
    return finishBinary(B == "div" ? pickBin<OpDiv>(T) : pickBin<OpRem>(T), T);
  }
  if (B == "abs" || B == "neg") {
    Type T = M.takeType();
    if (!isSignedInt(T))
      return C.unsupported(), true;
    return finishUnary(B == "abs" ? pickUn<OpAbs>(T) : pickUn<OpNeg>(T), T);
  }
  if (B == "and" || B == "or" || B == "xor" || B == "not" || B == "cnot") {
    Type T = M.takeType();
    if (T == Type::Pred) {
      bool Unary = B == "not" || B == "cnot";
      if (!C.wantOps(Unary ? 2 : 3))
        return true;
      I.Fn = &hPredLogic;
      I.Sub = uint8_t(B == "and" ? 0 : B == "or" ? 1 : B == "xor" ? 2 : B == "not" ? 3 : 4);
      I.A[0] = C.pred(0);
      I.A[1] = C.predSrc(C.op(1));
      if (C.op(1).Neg)
        I.Imm |= 1;
      if (!Unary) {
        I.A[2] = C.predSrc(C.op(2));
        if (C.op(2).Neg)
          I.Imm |= 2;
      }
      I.Class = uint8_t(InstClass::Integer);
      C.finish();
      return true;
    }
    if (B == "not")
      return finishUnary(pickUn<OpNot>(T), T);
    if (B == "cnot")
      return finishUnary(pickUn<OpCNot>(T), T);
    return finishBinary(B == "and"  ? pickBin<OpAnd>(T)
                        : B == "or" ? pickBin<OpOr>(T)
                                    : pickBin<OpXor>(T),
                        T);
  }
  if (B == "shl" || B == "shr") {
    Type T = M.takeType();
    bool Left = B == "shl";
    Handler H = dispatchInt(T, [&](auto Tg) -> Handler {
      using X = typename decltype(Tg)::type;
      return Left ? &hShift<X, true> : &hShift<X, false>;
    });
    if (Left && isSignedInt(T))
      H = nullptr;
    if (!H)
      return C.unsupported(), true;
    if (!C.wantOps(3))
      return true;
    I.Fn = H;
    I.A[0] = C.dst(0);
    I.A[1] = C.src(1, T);
    I.A[2] = C.src(2, Type::U32);
    I.Class = uint8_t(InstClass::Integer);
    C.finish();
    return true;
  }
  if (B == "popc")
    return finishUnary(pickUnU32<OpPopc>(M.takeType()), Type::B64);
  if (B == "clz") {
    Type T = M.takeType();
    return finishUnary(pickUnU32<OpClz>(T), T);
  }
  if (B == "brev") {
    Type T = M.takeType();
    return finishUnary(pickUn<OpBrev>(T), T);
  }
  if (B == "bfind") {
    bool Sh = M.take("shiftamt");
    Type T = M.takeType();
    return finishUnary(Sh ? pickUnU32<OpBfind<true>>(T) : pickUnU32<OpBfind<false>>(T),
                       T);
  }
  if (B == "bfe") {
    Type T = M.takeType();
    Handler H = nullptr;
    switch (T) {
    case Type::U32: H = &hBfe<uint32_t>; break;
    case Type::S32: H = &hBfe<int32_t>; break;
    case Type::U64: H = &hBfe<uint64_t>; break;
    case Type::S64: H = &hBfe<int64_t>; break;
    default: break;
    }
    if (!H)
      return C.unsupported(), true;
    if (!C.wantOps(4))
      return true;
    I.Fn = H;
    I.A[0] = C.dst(0);
    I.A[1] = C.src(1, T);
    I.A[2] = C.src(2, Type::U32);
    I.A[3] = C.src(3, Type::U32);
    I.Class = uint8_t(InstClass::Integer);
    C.finish();
    return true;
  }
  if (B == "bfi") {
    Type T = M.takeType();
    Handler H = T == Type::B32 ? &hBfi<uint32_t> : T == Type::B64 ? &hBfi<uint64_t> : nullptr;
    if (!H)
      return C.unsupported(), true;
    if (!C.wantOps(5))
      return true;
    I.Fn = H;
    I.A[0] = C.dst(0);
    I.A[1] = C.src(1, T);
    I.A[2] = C.src(2, T);
    I.A[3] = C.src(3, Type::U32);
    I.A[4] = C.src(4, Type::U32);
    I.Class = uint8_t(InstClass::Integer);
    C.finish();
    return true;
  }
  if (B == "prmt") {
    int Mode = M.takeOneOf({"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"});
    Type T = M.takeType();
    if (T != Type::B32)
      return C.unsupported(), true;
    static const Handler Tab[7] = {&hPrmt<0>, &hPrmt<1>, &hPrmt<2>, &hPrmt<3>,
                                   &hPrmt<4>, &hPrmt<5>, &hPrmt<6>};
    return finishTernary(Tab[Mode + 1], T, T);
  }
  if (B == "lop3") {
    Type T = M.takeType();
    if (T != Type::B32 || C.numOps() != 5 || C.op(4).K != ptx::Operand::Imm)
      return C.unsupported(), true;
    I.Fn = &hLop3;
    I.A[0] = C.dst(0);
    I.A[1] = C.src(1, T);
    I.A[2] = C.src(2, T);
    I.A[3] = C.src(3, T);
    I.Imm = int64_t(C.op(4).IntVal & 0xff);
    I.Class = uint8_t(InstClass::Integer);
    C.finish();
    return true;
  }
  if (B == "shf") {
    int Dir = M.takeOneOf({"l", "r"});
    int Mode = M.takeOneOf({"clamp", "wrap"});
    Type T = M.takeType();
    if (Dir < 0 || Mode < 0 || T != Type::B32)
      return C.unsupported(), true;
    Handler H = Dir == 0 ? (Mode == 1 ? &hShf<true, true> : &hShf<true, false>)
                         : (Mode == 1 ? &hShf<false, true> : &hShf<false, false>);
    return finishTernary(H, T, Type::U32);
  }
  if (B == "fns") {
    Type T = M.takeType();
    if (T != Type::B32)
      return C.unsupported(), true;
    return finishTernary(&hFns, Type::B32, Type::S32);
  }
  if (B == "bmsk") {
    int Mode = M.takeOneOf({"clamp", "wrap"});
    Type T = M.takeType();
    if (Mode < 0 || T != Type::B32)
      return C.unsupported(), true;
    return finishBinary(Mode == 1 ? &hBmsk<true> : &hBmsk<false>, Type::U32);
  }
  if (B == "szext") {
    int Mode = M.takeOneOf({"clamp", "wrap"});
    Type T = M.takeType();
    if (Mode < 0 || (T != Type::U32 && T != Type::S32))
      return C.unsupported(), true;
    bool S = T == Type::S32, W = Mode == 1;
    Handler H = W ? (S ? &hSzext<true, true> : &hSzext<true, false>)
                  : (S ? &hSzext<false, true> : &hSzext<false, false>);
    return finishBinary(H, Type::U32);
  }
  if (B == "dp4a" || B == "dp2a") {
    bool Dp2 = B == "dp2a";
    int Hi = Dp2 ? M.takeOneOf({"lo", "hi"}) : 0;
    Type TA = M.takeType(), TB = M.takeType();
    if (Hi < 0 || (TA != Type::U32 && TA != Type::S32) ||
        (TB != Type::U32 && TB != Type::S32))
      return C.unsupported(), true;
    if (!finishTernary(Dp2 ? &hDp<true> : &hDp<false>, Type::U32, Type::U32))
      return true;
    I.Sub = uint8_t((TA == Type::S32 ? 1 : 0) | (TB == Type::S32 ? 2 : 0) |
                    (Hi == 1 ? 4 : 0));
    return true;
  }
  if (B == "setp" || B == "set") {
    bool IsSet = B == "set";
    unsigned Op;
    bool ForceU;
    if (!parseIntCmp(M, Op, ForceU))
      return C.unsupported(), true;
    Type DT = IsSet ? M.takeType() : Type::Pred;
    Type T = M.takeType();
    if (!isIntType(T))
      return C.unsupported(), true;
    if (T == Type::B16 || T == Type::B32 || T == Type::B64) {
      if (Op != CmpEq && Op != CmpNe)
        return C.unsupported(), true;
    }
    if (ForceU) {
      if (T == Type::S16) T = Type::U16;
      if (T == Type::S32) T = Type::U32;
      if (T == Type::S64) T = Type::U64;
    }
    if (IsSet && DT != Type::U32 && DT != Type::S32 && DT != Type::F32 &&
        DT != Type::B32)
      return C.unsupported(), true;
    if (!decodeCompareTail(C, I, IsSet))
      return true;
    I.Fn = IsSet ? pickSetpInt<true>(T, Op) : pickSetpInt<false>(T, Op);
    if (!I.Fn)
      return C.unsupported(), true;
    I.A[2] = C.src(1, T);
    I.A[3] = C.src(2, T);
    if (IsSet && DT == Type::F32)
      I.Imm |= 2;
    I.Class = uint8_t(InstClass::Integer);
    C.finish();
    return true;
  }
  if (B == "selp") {
    Type T = M.takeType();
    if (T == Type::None || T == Type::Pred || !C.wantOps(4))
      return T == Type::None || T == Type::Pred ? (C.unsupported(), true) : true;
    I.Fn = &hSelp;
    I.A[0] = C.dst(0);
    I.A[1] = C.src(1, T);
    I.A[2] = C.src(2, T);
    I.A[3] = C.predSrc(C.op(3));
    if (C.op(3).Neg)
      I.Imm |= 1;
    I.Class = classOf(T);
    C.finish();
    return true;
  }
  if (B == "slct") {
    bool Ftz = M.take("ftz");
    Type DT = M.takeType();
    Type CT = M.takeType();
    if (DT == Type::None || (CT != Type::S32 && CT != Type::F32))
      return C.unsupported(), true;
    bool F = CT == Type::F32;
    Handler H = F ? (Ftz ? &hSlct<true, true> : &hSlct<true, false>)
                  : &hSlct<false, false>;
    if (!finishTernary(H, DT, CT))
      return true;
    I.Class = classOf(DT);
    return true;
  }
  if (B == "mov") {
    Type T = M.takeType();
    if (T == Type::None)
      return C.unsupported(), true;
    if (!C.wantOps(2))
      return true;
    const ptx::Operand &D = C.op(0), &S = C.op(1);
    I.Class = uint8_t(InstClass::Integer);
    if (T == Type::Pred) {
      I.Fn = &hPredLogic;
      I.Sub = 5;
      I.A[0] = C.pred(0);
      I.A[1] = C.predSrc(S);
      if (S.Neg)
        I.Imm |= 1;
      C.finish();
      return true;
    }
    unsigned Size = ptx::typeSize(T);
    if (D.K == ptx::Operand::Vec || S.K == ptx::Operand::Vec) {
      bool Pack = S.K == ptx::Operand::Vec;
      const ptx::Operand &V = Pack ? S : D;
      unsigned N = unsigned(V.Elems.size());
      if (N != 2 && N != 4)
        return C.unsupported(), true;
      unsigned W = Size * 8 / N;
      Handler H = nullptr;
      if (N == 2 && W == 32) H = Pack ? &hPack<2, 32> : &hUnpack<2, 32>;
      if (N == 2 && W == 16) H = Pack ? &hPack<2, 16> : &hUnpack<2, 16>;
      if (N == 2 && W == 8) H = Pack ? &hPack<2, 8> : &hUnpack<2, 8>;
      if (N == 4 && W == 16) H = Pack ? &hPack<4, 16> : &hUnpack<4, 16>;
      if (N == 4 && W == 8) H = Pack ? &hPack<4, 8> : &hUnpack<4, 8>;
      if (N == 2 && W == 64) H = Pack ? &hPack<2, 64> : &hUnpack<2, 64>;
      if (!H)
        return C.unsupported(), true;
      Type PT = W == 8 ? Type::B8 : W == 16 ? Type::B16 : W == 32 ? Type::B32 : Type::B64;
      I.Fn = H;
      if (Pack) {
        I.A[0] = C.dst(D);
        for (unsigned K = 0; K < N; ++K)
          I.A[1 + K] = C.src(V.Elems[K], PT);
      } else {
        for (unsigned K = 0; K < N; ++K)
          I.A[K] = C.dst(V.Elems[K]);
        I.A[N] = C.src(S, T);
      }
      C.finish();
      return true;
    }
    // Dynamic special registers.
    if (S.K == ptx::Operand::Name) {
      static const char *Clocks[] = {"%clock", "%clock_hi", "%clock64",
                                     "%globaltimer", "%globaltimer_lo",
                                     "%globaltimer_hi"};
      for (unsigned K = 0; K < 6; ++K)
        if (S.Text == Clocks[K]) {
          I.Fn = &hMovClock;
          I.Sub = uint8_t(K);
          I.A[0] = C.dst(D);
          C.finish();
          return true;
        }
      uint32_t BaseSlot;
      int64_t Off;
      ptx::Space Sp;
      if (C.symbolAddress(S, BaseSlot, Off, Sp)) {
        I.A[0] = C.dst(D);
        if (BaseSlot == SlotZero) {
          I.Fn = &hMov;
          I.A[1] = C.constSlot(Size == 4 ? uint64_t(uint32_t(Off)) : uint64_t(Off));
        } else {
          I.Fn = &hAddImm;
          I.A[1] = BaseSlot;
          I.Imm = Off;
          I.Sub = uint8_t(Size);
        }
        C.finish();
        return true;
      }
    }
    I.Fn = &hMov;
    I.A[0] = C.dst(D);
    I.A[1] = C.src(S, T);
    C.finish();
    return true;
  }
  return false;
}

} // namespace klaraptor::emu
