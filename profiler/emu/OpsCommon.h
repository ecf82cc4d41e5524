//===- OpsCommon.h - helpers shared by the instruction groups -------------===//
///
/// \file
/// Handler skeletons (unary, binary, ternary lane loops over typed values)
/// and the mapping from PTX types to C++ types used by OpsInt.cpp,
/// OpsFloat.cpp, OpsMem.cpp and OpsWarp.cpp.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_OPSCOMMON_H
#define KLARAPTOR_PROFILER_EMU_OPSCOMMON_H

#include "Decoder.h"
#include "Exec.h"

#include <algorithm>
#include <type_traits>

namespace klaraptor::emu {

/// Unary: D = Op(A).
template <class T, class R, class Op>
void hUnary(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  forLanes(M, [&](unsigned L) { D[L] = toBits<R>(Op::f(bitsTo<T>(A[L]))); });
}

/// Binary: D = Op(A, B).
template <class T, class R, class Op>
void hBinary(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]);
  forLanes(M, [&](unsigned L) {
    D[L] = toBits<R>(Op::f(bitsTo<T>(A[L]), bitsTo<T>(B[L])));
  });
}

/// Ternary: D = Op(A, B, C).
template <class T, class R, class Op>
void hTernary(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]), *B = S.reg(I.A[2]), *C = S.reg(I.A[3]);
  forLanes(M, [&](unsigned L) {
    D[L] = toBits<R>(
        Op::f(bitsTo<T>(A[L]), bitsTo<T>(B[L]), bitsTo<T>(C[L])));
  });
}

/// Writes the lanes of \p M in predicate \p P from \p V.
inline void setPred(uint32_t &P, uint32_t M, uint32_t V) {
  P = (P & ~M) | (V & M);
}

template <class T> struct Tag { using type = T; };

/// Integer type dispatch: calls Fn(Tag<T>{}) with the C++ type of \p T
/// (u/s/b 16/32/64); returns nullptr for other types.
template <class F> Handler dispatchInt(ptx::Type T, F &&Fn) {
  using ptx::Type;
  switch (T) {
  case Type::U16: case Type::B16: return Fn(Tag<uint16_t>{});
  case Type::S16: return Fn(Tag<int16_t>{});
  case Type::U32: case Type::B32: return Fn(Tag<uint32_t>{});
  case Type::S32: return Fn(Tag<int32_t>{});
  case Type::U64: case Type::B64: return Fn(Tag<uint64_t>{});
  case Type::S64: return Fn(Tag<int64_t>{});
  default: return nullptr;
  }
}

inline bool isIntType(ptx::Type T) {
  using ptx::Type;
  switch (T) {
  case Type::U16: case Type::B16: case Type::S16:
  case Type::U32: case Type::B32: case Type::S32:
  case Type::U64: case Type::B64: case Type::S64:
  case Type::U8: case Type::S8: case Type::B8:
    return true;
  default:
    return false;
  }
}

/// Class of an operation on values of type T.
inline uint8_t classOf(ptx::Type T) {
  if (T == ptx::Type::F64)
    return uint8_t(InstClass::Fp64);
  if (ptx::isFloat(T))
    return uint8_t(InstClass::Fp32);
  return uint8_t(InstClass::Integer);
}

} // namespace klaraptor::emu

#endif // KLARAPTOR_PROFILER_EMU_OPSCOMMON_H
