//===- OpsMem.cpp - loads, stores, atomics and address conversions --------===//
///
/// \file
/// Handlers and decoding for ld/ldu/st (every state space, .v2/.v4), atom
/// and red, cvta, isspacep, cp.async, and the cache-control instructions
/// that have no effect here (prefetch, discard, applypriority,
/// createpolicy).
///
/// Address spaces: global and const addresses are host addresses; shared
/// addresses are offsets into the block's shared memory; local addresses
/// are offsets into the thread's local memory (its call frames). Generic
/// addresses of shared/local data are host addresses inside those buffers,
/// recognised per lane. Every access checks alignment and bounds (shared,
/// local) or null (global) and faults with LaunchStatus::MemoryFault.
///
/// Metrics: a warp-level global access is one request; its sectors are the
/// distinct 32-byte sectors its active lanes touch. A shared access is one
/// request plus its bank conflicts (Metrics.cpp).
//===----------------------------------------------------------------------===//
#include "FloatUtil.h"
#include "Interpreter.h"
#include "OpsCommon.h"

#include <cstdio>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace klaraptor::emu {

using ptx::Type;

namespace {

enum MemSp : unsigned { MGlobal, MShared, MLocal, MHost, MGeneric };
enum MemKind : unsigned { KLoad, KStore, KAtom };

std::string hex(uint64_t V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "0x%llx", (unsigned long long)V);
  return Buf;
}

const char *kindName(unsigned Kind) {
  return Kind == KLoad ? "load" : Kind == KStore ? "store" : "atomic";
}

[[noreturn]] void memFault(const Inst &I, const std::string &Msg) {
  throwFault(I, LaunchStatus::MemoryFault, Msg);
}

/// Reports the first bad lane of a global access (the cold path).
template <unsigned Kind>
[[noreturn]] __attribute__((noinline, cold)) void
globalFault(const Inst &I, uint32_t M, const uint64_t *Addr, unsigned Bytes) {
  forLanes(M, [&](unsigned L) {
    uint64_t A = Addr[L];
    if (A < 4096)
      memFault(I, std::string("null pointer: global ") + kindName(Kind) +
                      " of " + std::to_string(Bytes) + " bytes at address " +
                      hex(A) + " (lane " + std::to_string(L) + ")");
    if (A & (Bytes - 1))
      memFault(I, std::string("misaligned global ") + kindName(Kind) + " of " +
                      std::to_string(Bytes) + " bytes at address " + hex(A));
  });
  memFault(I, "invalid global access");
}

template <unsigned Kind>
[[noreturn]] __attribute__((noinline, cold)) void
hookFault(const Inst &I, unsigned L, uint64_t A, unsigned Bytes) {
  memFault(I, std::string("out-of-bounds global ") + kindName(Kind) + " of " +
                  std::to_string(Bytes) + " bytes at address " + hex(A) +
                  " (lane " + std::to_string(L) +
                  "): not inside any allocation or variable");
}

/// The slot of ExecState::OkBegin/OkEnd that caches \p I's range.
inline unsigned okSlot(const Inst &I) {
  // By PTX line (an instruction's handler may get a copy of it, so not by
  // its address); Fibonacci hashing spreads neighbouring lines.
  static_assert(ExecState::OkSlots == 16, "the hash keeps 4 bits");
  return unsigned((uint64_t(I.Line) * 0x9E3779B97F4A7C15ull) >> 60);
}

/// Whether [A, A + Bytes) lies in one of \p R's ranges; caches that range
/// in \p Slot of \p S.
__attribute__((noinline)) bool
inGlobalRanges(ExecState &S, unsigned Slot,
               const std::vector<std::pair<uint64_t, uint64_t>> &R, uint64_t A,
               uint64_t Bytes) {
  auto It = std::upper_bound(R.begin(), R.end(),
                             std::make_pair(A, ~uint64_t(0)));
  if (It != R.begin()) {
    --It;
    const uint64_t Size = It->second - It->first;
    if (Bytes <= Size && A - It->first <= Size - Bytes) {
      S.OkBegin[Slot] = It->first;
      S.OkEnd[Slot] = It->second;
      return true;
    }
  }
  // The device heap: kernels' malloc, alive across launches.
  return deviceHeapFind(A, Bytes, S.OkBegin[Slot], S.OkEnd[Slot]);
}

/// The lanes outside the range cached for \p I: the warp's whole span is
/// looked up once (a warp mostly touches one array); when it straddles
/// ranges, each lane, faulting when it lies in no range.
template <unsigned Kind>
__attribute__((noinline)) void
checkGlobalRanges(ExecState &S, const Inst &I, uint32_t M, const uint64_t *Addr,
                  unsigned Bytes) {
  const unsigned Slot = okSlot(I);
  const auto &R = *S.L->GlobalRanges;
  uint64_t Lo = ~uint64_t(0), Hi = 0;
  forLanes(M, [&](unsigned L) {
    Lo = std::min(Lo, Addr[L]);
    Hi = std::max(Hi, Addr[L]);
  });
  if (Lo <= Hi && inGlobalRanges(S, Slot, R, Lo, Hi - Lo + Bytes))
    return;
  forLanes(M, [&](unsigned L) {
    if (!inGlobalRanges(S, Slot, R, Addr[L], Bytes))
      hookFault<Kind>(I, L, Addr[L], Bytes);
  });
}

#if defined(__x86_64__) || defined(__i386__)
/// checkGlobal's pass with AVX2, four lanes at a time: \p Bad nonzero when
/// an address is null (below 4096) or not a multiple of \p Bytes, \p Out
/// when one lies more than \p Lim past \p B (unsigned, as the scalar pass:
/// AVX2 compares signed, so both sides have the sign bit flipped). With
/// \p Partial only the lanes of \p M are read (masked loads: the others'
/// addresses were never computed) and counted; without, all 32 are (a whole
/// warp: the masks cost gemm's profile 14 %).
template <bool Partial>
__attribute__((target("avx2"), noinline)) void
checkLanesAvx2(const uint64_t *Addr, uint32_t M, unsigned Bytes, uint64_t B,
               uint64_t Lim, uint64_t &Bad, uint64_t &Out) {
  const __m256i Flip = _mm256_set1_epi64x(INT64_MIN);
  const __m256i Null =
      _mm256_set1_epi64x(int64_t(uint64_t(4096) ^ uint64_t(INT64_MIN)));
  const __m256i Low = _mm256_set1_epi64x(int64_t(Bytes - 1));
  const __m256i Base = _mm256_set1_epi64x(int64_t(B));
  const __m256i Limit =
      _mm256_set1_epi64x(int64_t(Lim ^ uint64_t(INT64_MIN)));
  const __m256i LaneBits = _mm256_set_epi64x(8, 4, 2, 1);
  __m256i BadV = _mm256_setzero_si256(), OutV = BadV;
  for (unsigned L = 0; L < 32; L += 4) {
    __m256i On, A;
    if (Partial) {
      if (!(M >> L & 15))
        continue;
      On = _mm256_cmpeq_epi64(
          _mm256_and_si256(_mm256_set1_epi64x(M >> L & 15), LaneBits),
          LaneBits);
      A = _mm256_maskload_epi64(reinterpret_cast<const long long *>(Addr + L),
                                On);
    } else {
      A = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(Addr + L));
    }
    __m256i Wrong = _mm256_or_si256(
        _mm256_cmpgt_epi64(Null, _mm256_xor_si256(A, Flip)),
        _mm256_and_si256(A, Low));
    __m256i D = _mm256_xor_si256(_mm256_sub_epi64(A, Base), Flip);
    __m256i Past = _mm256_cmpgt_epi64(D, Limit);
    if (Partial) {
      Wrong = _mm256_and_si256(Wrong, On);
      Past = _mm256_and_si256(Past, On);
    }
    BadV = _mm256_or_si256(BadV, Wrong);
    OutV = _mm256_or_si256(OutV, Past);
  }
  Bad = !_mm256_testz_si256(BadV, BadV);
  Out = !_mm256_testz_si256(OutV, OutV);
}
#endif

/// Null (below 4096) and misaligned addresses fault; so do addresses outside
/// the launch's GlobalRanges and those its GlobalCheck rejects.
template <unsigned Kind>
__attribute__((always_inline)) inline void checkGlobal(ExecState &S, const Inst &I, uint32_t M,
                        const uint64_t *Addr, unsigned Bytes) {
  uint64_t Bad = 0, Out = 0;
  if (S.L->GlobalRanges) {
    // Against the range the last access hit, in the same pass: one
    // subtraction and comparison per lane (an empty range: every lane out).
    // The four loops are spelled out: a generic per-lane lambda made the
    // checked gemm at N = 640 6 % slower.
    const unsigned Slot = okSlot(I);
    const uint64_t OkB = S.OkBegin[Slot], OkE = S.OkEnd[Slot];
    const bool Empty = OkE - OkB < Bytes;
    const uint64_t B = Empty ? ~uint64_t(0) : OkB;
    const uint64_t Lim = Empty ? 0 : OkE - OkB - Bytes;
#if defined(__x86_64__) || defined(__i386__)
    if (HostHasAvx2) {
      if (M == 0xffffffffu)
        checkLanesAvx2<false>(Addr, M, Bytes, B, Lim, Bad, Out);
      else
        checkLanesAvx2<true>(Addr, M, Bytes, B, Lim, Bad, Out);
    } else
#endif
    if (M == 0xffffffffu) {
      for (unsigned L = 0; L < 32; ++L) {
        Bad |= uint64_t(Addr[L] < 4096) | (Addr[L] & (Bytes - 1));
        Out |= uint64_t(Addr[L] - B > Lim);
      }
    } else {
      forLanes(M, [&](unsigned L) {
        Bad |= uint64_t(Addr[L] < 4096) | (Addr[L] & (Bytes - 1));
        Out |= uint64_t(Addr[L] - B > Lim);
      });
    }
  } else if (M == 0xffffffffu) {
    for (unsigned L = 0; L < 32; ++L)
      Bad |= uint64_t(Addr[L] < 4096) | (Addr[L] & (Bytes - 1));
  } else {
    forLanes(M, [&](unsigned L) {
      Bad |= uint64_t(Addr[L] < 4096) | (Addr[L] & (Bytes - 1));
    });
  }
  if (__builtin_expect(Bad != 0, 0))
    globalFault<Kind>(I, M, Addr, Bytes);
  if (__builtin_expect(Out != 0, 0))
    checkGlobalRanges<Kind>(S, I, M, Addr, Bytes);
  if (S.L->GlobalCheck)
    forLanes(M, [&](unsigned L) {
      if (!S.L->GlobalCheck(S.L->GlobalCheckUser, Addr[L], Bytes))
        hookFault<Kind>(I, L, Addr[L], Bytes);
    });
}

/// Reports an out-of-bounds or misaligned shared/local access.
[[noreturn]] __attribute__((noinline, cold)) void
windowFault(const Inst &I, uint32_t M, const uint64_t *Addr, unsigned Bytes,
            uint64_t Size, bool Shared, unsigned Kind) {
  const char *Sp = Shared ? "shared " : "local ";
  forLanes(M, [&](unsigned L) {
    uint64_t A = Addr[L];
    if (A >= Size || A + Bytes > Size)
      memFault(I, std::string("out-of-bounds ") + Sp + kindName(Kind) + " of " +
                      std::to_string(Bytes) + " bytes at offset " + hex(A) +
                      (Shared ? " (the block has " + std::to_string(Size) + " bytes)"
                              : " (" + std::to_string(Size) + " bytes per thread)"));
    if (A & (Bytes - 1))
      memFault(I, std::string("misaligned ") + Sp + kindName(Kind) + " of " +
                      std::to_string(Bytes) + " bytes at offset " + hex(A));
  });
  memFault(I, "invalid access");
}

/// Bounds and alignment of offsets into a window of \p Size bytes.
__attribute__((always_inline)) inline void checkWindow(const Inst &I, uint32_t M, const uint64_t *Addr,
                        unsigned Bytes, uint64_t Size, bool Shared, unsigned Kind) {
  uint64_t Bad = 0;
  uint64_t Limit = Size >= Bytes ? Size - Bytes : 0;
  bool Empty = Size < Bytes;
  forLanes(M, [&](unsigned L) {
    Bad |= uint64_t(Addr[L] > Limit) | (Addr[L] & (Bytes - 1));
  });
  if (__builtin_expect(Bad != 0 || Empty, 0))
    windowFault(I, M, Addr, Bytes, Size, Shared, Kind);
}

template <unsigned Kind>
void countGlobal(ExecState &S, uint32_t M, const uint64_t *Addr,
                 unsigned Bytes) {
  unsigned Sec =
      S.SectorOut
          ? appendSectors(Addr, M, Bytes,
                          Kind == KLoad    ? 0
                          : Kind == KStore ? uint64_t(1) << 63
                                           : uint64_t(1) << 62,
                          *S.SectorOut)
          : countSectors(Addr, M, Bytes);
  if (Kind == KLoad) {
    ++S.C->GLdReq;
    S.C->GLdSec += Sec;
    S.C->GLdLines += countLines(Addr, M, Bytes);
  } else if (Kind == KStore) {
    ++S.C->GStReq;
    S.C->GStSec += Sec;
  } else {
    ++S.C->GAtReq;
    S.C->GAtSec += Sec;
    forLanes(M, [&](unsigned L) { S.C->noteAtomic(Addr[L]); });
  }
}

template <unsigned Kind>
void countShared(ExecState &S, uint32_t M, const uint64_t *Off,
                 unsigned Bytes) {
  if (Kind == KLoad)
    ++S.C->SLdReq;
  else if (Kind == KStore)
    ++S.C->SStReq;
  else
    return;
  S.C->SConflicts += countBankConflicts(Off, M, Bytes);
}

/// Turns the lanes' addresses into host pointers, checking them and
/// counting memory metrics.
template <unsigned Sp, unsigned Kind>
__attribute__((always_inline)) inline void resolve(ExecState &S, const Inst &I, uint32_t M,
                    const uint64_t *Addr, uint8_t **Host, unsigned Bytes) {
  if (Sp == MGlobal || Sp == MHost) {
    checkGlobal<Kind>(S, I, M, Addr, Bytes);
    forLanes(M, [&](unsigned L) { Host[L] = reinterpret_cast<uint8_t *>(Addr[L]); });
    if (Sp == MGlobal && S.Collect)
      countGlobal<Kind>(S, M, Addr, Bytes);
    if (Kind != KLoad && S.Written)
      noteWritten(S, M, Addr, Bytes);
  } else if (Sp == MShared) {
    checkWindow(I, M, Addr, Bytes, S.SharedSize, true, Kind);
    uint8_t *Base = S.Shared;
    forLanes(M, [&](unsigned L) { Host[L] = Base + Addr[L]; });
    if (S.Collect)
      countShared<Kind>(S, M, Addr, Bytes);
  } else if (Sp == MLocal) {
    checkWindow(I, M, Addr, Bytes, S.LocalStride, false, Kind);
    forLanes(M, [&](unsigned L) { Host[L] = S.localBase(L) + Addr[L]; });
  } else {
    uint64_t SharedLo = uint64_t(S.Shared), LocalLo = uint64_t(S.Local);
    uint32_t MS = 0, ML = 0, MG = 0;
    uint64_t Off[32];
    forLanes(M, [&](unsigned L) {
      uint64_t A = Addr[L];
      bool InS = A - SharedLo < S.SharedSize;
      bool InL = !InS && A - LocalLo < S.LocalSize;
      MS |= uint32_t(InS) << L;
      ML |= uint32_t(InL) << L;
      Off[L] = A - SharedLo;
      Host[L] = reinterpret_cast<uint8_t *>(A);
    });
    MG = M & ~(MS | ML);
    if (MS)
      checkWindow(I, MS, Off, Bytes, S.SharedSize, true, Kind);
    if (ML) {
      uint64_t Bad = 0;
      forLanes(ML, [&](unsigned L) { Bad |= Addr[L] & (Bytes - 1); });
      if (Bad)
        globalFault<Kind>(I, ML, Addr, Bytes);
    }
    if (MG)
      checkGlobal<Kind>(S, I, MG, Addr, Bytes);
    if (Kind != KLoad && MG && S.Written)
      noteWritten(S, MG, Addr, Bytes);
    if (S.Collect) {
      if (MG)
        countGlobal<Kind>(S, MG, Addr, Bytes);
      if (MS)
        countShared<Kind>(S, MS, Off, Bytes);
    }
    if (Kind != KAtom && !MG && (MS || ML) && !(MS && ML)) {
      // The decoder counted it as a global access; it was not.
      InstClass From = Kind == KLoad ? InstClass::GlobalLoad : InstClass::GlobalStore;
      InstClass To = MS ? (Kind == KLoad ? InstClass::SharedLoad : InstClass::SharedStore)
                        : (Kind == KLoad ? InstClass::LocalLoad : InstClass::LocalStore);
      --S.C->WarpInst[unsigned(From)];
      ++S.C->WarpInst[unsigned(To)];
    }
  }
}

template <unsigned Sp, unsigned Size, unsigned Vec, bool SExt>
void hLd(ExecState &S, const Inst &I, uint32_t M) {
  const uint64_t *Base = S.reg(I.A[4]);
  uint64_t Addr[32];
  uint8_t *Host[32];
  uint64_t Off = uint64_t(I.Imm);
  forLanes(M, [&](unsigned L) { Addr[L] = Base[L] + Off; });
  resolve<Sp, KLoad>(S, I, M, Addr, Host, Size * Vec);
  uint64_t *D[Vec];
  for (unsigned K = 0; K < Vec; ++K)
    D[K] = S.reg(I.A[K]);
  unsigned RegBits = I.Sub;
  forLanes(M, [&](unsigned L) {
    for (unsigned K = 0; K < Vec; ++K) {
      uint64_t V = 0;
      std::memcpy(&V, Host[L] + K * Size, Size);
      if (SExt) {
        int64_t SV = int64_t(V << (64 - 8 * Size)) >> (64 - 8 * Size);
        V = RegBits >= 64 ? uint64_t(SV) : (uint64_t(SV) & ((uint64_t(1) << RegBits) - 1));
      }
      D[K][L] = V;
    }
  });
}

template <unsigned Sp, unsigned Size, unsigned Vec>
void hSt(ExecState &S, const Inst &I, uint32_t M) {
  const uint64_t *Base = S.reg(I.A[4]);
  uint64_t Addr[32];
  uint8_t *Host[32];
  uint64_t Off = uint64_t(I.Imm);
  forLanes(M, [&](unsigned L) { Addr[L] = Base[L] + Off; });
  resolve<Sp, KStore>(S, I, M, Addr, Host, Size * Vec);
  const uint64_t *V[Vec];
  for (unsigned K = 0; K < Vec; ++K)
    V[K] = S.reg(I.A[K]);
  forLanes(M, [&](unsigned L) {
    for (unsigned K = 0; K < Vec; ++K)
      std::memcpy(Host[L] + K * Size, &V[K][L], Size);
  });
}

[[noreturn]] __attribute__((noinline, cold)) void
paramFault(const Inst &I, uint64_t Off, uint64_t Bytes, uint64_t Have) {
  memFault(I, "out-of-bounds parameter load of " + std::to_string(Bytes) +
                  " bytes at offset " + std::to_string(int64_t(Off)) +
                  " (the kernel's parameters take " + std::to_string(Have) +
                  " bytes)");
}

/// Loads of kernel parameters: one uniform read, broadcast.
template <unsigned Size, unsigned Vec, bool SExt>
void hLdParamK(ExecState &S, const Inst &I, uint32_t M) {
  const uint64_t *Base = S.reg(I.A[4]);
  unsigned First = unsigned(__builtin_ctz(M));
  const uint8_t *P = reinterpret_cast<const uint8_t *>(Base[First] + uint64_t(I.Imm));
  // Inside the kernel's parameter buffer (a load wider than its parameter,
  // or at an offset past the last one, would read host memory).
  const uint64_t Off = uint64_t(reinterpret_cast<uintptr_t>(P)) -
                       uint64_t(reinterpret_cast<uintptr_t>(S.L->ParamBuf.data()));
  const uint64_t Have = S.L->ParamBuf.size();
  if (__builtin_expect(Off > Have || Size * Vec > Have - Off, 0))
    paramFault(I, Off, Size * Vec, Have);
  for (unsigned K = 0; K < Vec; ++K) {
    uint64_t V = 0;
    std::memcpy(&V, P + K * Size, Size);
    if (SExt) {
      int64_t SV = int64_t(V << (64 - 8 * Size)) >> (64 - 8 * Size);
      V = I.Sub >= 64 ? uint64_t(SV) : (uint64_t(SV) & ((uint64_t(1) << I.Sub) - 1));
    }
    uint64_t *D = S.reg(I.A[K]);
    forLanes(M, [&](unsigned L) { D[L] = V; });
  }
}

template <unsigned Sp> Handler pickLd(unsigned Size, unsigned Vec, bool SExt) {
#define KL_LD(SZ)                                                              \
  case SZ:                                                                     \
    if (Vec == 1) return SExt ? &hLd<Sp, SZ, 1, true> : &hLd<Sp, SZ, 1, false>; \
    if (Vec == 2) return SExt ? &hLd<Sp, SZ, 2, true> : &hLd<Sp, SZ, 2, false>; \
    if (Vec == 4 && SZ <= 4) return SExt ? &hLd<Sp, SZ, 4, true> : &hLd<Sp, SZ, 4, false>; \
    return nullptr;
  switch (Size) {
    KL_LD(1)
    KL_LD(2)
    KL_LD(4)
  case 8:
    if (Vec == 1) return &hLd<Sp, 8, 1, false>;
    if (Vec == 2) return &hLd<Sp, 8, 2, false>;
    return nullptr;
  }
#undef KL_LD
  return nullptr;
}
template <unsigned Sp> Handler pickSt(unsigned Size, unsigned Vec) {
#define KL_ST(SZ)                                                              \
  case SZ:                                                                     \
    if (Vec == 1) return &hSt<Sp, SZ, 1>;                                      \
    if (Vec == 2) return &hSt<Sp, SZ, 2>;                                      \
    if (Vec == 4 && SZ <= 4) return &hSt<Sp, SZ, 4>;                           \
    return nullptr;
  switch (Size) {
    KL_ST(1)
    KL_ST(2)
    KL_ST(4)
    KL_ST(8)
  }
#undef KL_ST
  return nullptr;
}
Handler pickLdParamK(unsigned Size, unsigned Vec, bool SExt) {
#define KL_LP(SZ)                                                              \
  case SZ:                                                                     \
    if (Vec == 1) return SExt ? &hLdParamK<SZ, 1, true> : &hLdParamK<SZ, 1, false>; \
    if (Vec == 2) return SExt ? &hLdParamK<SZ, 2, true> : &hLdParamK<SZ, 2, false>; \
    if (Vec == 4) return SExt ? &hLdParamK<SZ, 4, true> : &hLdParamK<SZ, 4, false>; \
    return nullptr;
  switch (Size) {
    KL_LP(1)
    KL_LP(2)
    KL_LP(4)
    KL_LP(8)
  }
#undef KL_LP
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

enum AtomKind : unsigned { AkU32, AkS32, AkU64, AkS64, AkF32, AkF64, AkF16,
                           AkBF16, AkF16x2, AkBF16x2, AkB16 };
enum AtomOp : unsigned { AAdd, AMin, AMax, AInc, ADec, AAnd, AOr, AXor, AExch, ACas };

unsigned atomSize(unsigned K) {
  switch (K) {
  case AkU64: case AkS64: case AkF64: return 8;
  case AkF16: case AkBF16: case AkB16: return 2;
  default: return 4;
  }
}

uint64_t halfAdd(uint64_t A, uint64_t B, bool BF) {
  double X = BF ? bf16ToFloat(uint16_t(A)) : halfToFloat(uint16_t(A));
  double Y = BF ? bf16ToFloat(uint16_t(B)) : halfToFloat(uint16_t(B));
  double R = X + Y; // exact in double
  if (std::isnan(R))
    return BF ? CanonicalNaNBF16 : CanonicalNaN16;
  return BF ? floatToBf16(R) : floatToHalf(R);
}

uint64_t atomNew(unsigned Kind, unsigned Op, uint64_t Old, uint64_t B,
                 uint64_t C, bool Ftz) {
  switch (Op) {
  case AExch: return B;
  case ACas: return Old == B ? C : Old;
  case AAnd: return Old & B;
  case AOr: return Old | B;
  case AXor: return Old ^ B;
  case AInc: return uint32_t(Old) >= uint32_t(B) ? 0 : uint32_t(Old) + 1;
  case ADec:
    return (uint32_t(Old) == 0 || uint32_t(Old) > uint32_t(B)) ? uint32_t(B)
                                                               : uint32_t(Old) - 1;
  case AAdd:
    switch (Kind) {
    case AkU32: case AkS32: return uint32_t(Old + B);
    case AkU64: case AkS64: return Old + B;
    case AkF32: {
      uint32_t X = uint32_t(Old), Y = uint32_t(B);
      if (Ftz) {
        X = ftz32(X);
        Y = ftz32(Y);
      }
      float R = bitsF32(X) + bitsF32(Y);
      uint32_t U = R != R ? CanonicalNaN32 : f32Bits(R);
      return Ftz ? ftz32(U) : U;
    }
    case AkF64: return f64Bits(bitsF64(Old) + bitsF64(B));
    case AkF16: return halfAdd(Old, B, false);
    case AkBF16: return halfAdd(Old, B, true);
    case AkF16x2:
      return halfAdd(Old & 0xffff, B & 0xffff, false) |
             (halfAdd(Old >> 16, B >> 16, false) << 16);
    case AkBF16x2:
      return halfAdd(Old & 0xffff, B & 0xffff, true) |
             (halfAdd(Old >> 16, B >> 16, true) << 16);
    }
    return Old;
  case AMin:
  case AMax: {
    bool Less;
    switch (Kind) {
    case AkS32: Less = int32_t(uint32_t(B)) < int32_t(uint32_t(Old)); break;
    case AkU32: Less = uint32_t(B) < uint32_t(Old); break;
    case AkS64: Less = int64_t(B) < int64_t(Old); break;
    default: Less = B < Old; break;
    }
    bool Take = Op == AMin ? Less : (!Less && B != Old);
    return Take ? B : Old;
  }
  }
  return Old;
}

template <class U>
uint64_t atomicRMW(U *P, unsigned Kind, unsigned Op, uint64_t B, uint64_t C,
                   bool Ftz) {
  U Old = __atomic_load_n(P, __ATOMIC_RELAXED);
  for (;;) {
    U New = U(atomNew(Kind, Op, uint64_t(Old), uint64_t(U(B)), uint64_t(U(C)), Ftz));
    if (__atomic_compare_exchange_n(P, &Old, New, true, __ATOMIC_SEQ_CST,
                                    __ATOMIC_RELAXED))
      return uint64_t(Old);
  }
}

/// atom/red. Sub: AtomKind; Aux: AtomOp; A[0] d (atom), A[1] b, A[2] c,
/// A[4] address base, Imm offset.
template <unsigned Sp, bool HasDst>
void hAtom(ExecState &S, const Inst &I, uint32_t M) {
  unsigned Kind = I.Sub, Op = I.Aux, Size = atomSize(Kind);
  const uint64_t *Base = S.reg(I.A[4]);
  uint64_t Addr[32];
  uint8_t *Host[32];
  forLanes(M, [&](unsigned L) { Addr[L] = Base[L] + uint64_t(I.Imm); });
  resolve<Sp, KAtom>(S, I, M, Addr, Host, Size);
  const uint64_t *B = S.reg(I.A[1]), *C = S.reg(I.A[2]);
  uint64_t *D = HasDst ? S.reg(I.A[0]) : nullptr;
  uint64_t SharedLo = uint64_t(S.Shared);
  // Lanes in increasing order, each atomically.
  forLanes(M, [&](unsigned L) {
    // f32 atomic adds flush subnormals in global memory, not in shared.
    bool InShared = Sp == MShared ||
                    (Sp == MGeneric && Addr[L] - SharedLo < S.SharedSize);
    bool Ftz = Kind == AkF32 && !InShared;
    uint64_t Old;
    switch (Size) {
    case 2: Old = atomicRMW(reinterpret_cast<uint16_t *>(Host[L]), Kind, Op, B[L], C[L], Ftz); break;
    case 4: Old = atomicRMW(reinterpret_cast<uint32_t *>(Host[L]), Kind, Op, B[L], C[L], Ftz); break;
    default: Old = atomicRMW(reinterpret_cast<uint64_t *>(Host[L]), Kind, Op, B[L], C[L], Ftz); break;
    }
    if (HasDst)
      D[L] = Old;
  });
}

//===----------------------------------------------------------------------===//
// cvta, isspacep, cp.async
//===----------------------------------------------------------------------===//

/// Sub: 0 identity, 1 shared->generic, 2 generic->shared, 3 local->generic,
/// 4 generic->local; Aux: 32 for .u32.
void hCvta(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  const uint64_t *A = S.reg(I.A[1]);
  uint64_t Mask = I.Aux == 32 ? 0xffffffffull : ~0ull;
  uint64_t Sh = uint64_t(S.Shared);
  forLanes(M, [&](unsigned L) {
    uint64_t V = A[L];
    switch (I.Sub) {
    case 1: V = Sh + (V & Mask); break;
    case 2: V = V - Sh; break;
    case 3: V = uint64_t(S.localBase(L)) + (V & Mask); break;
    case 4: V = V - uint64_t(S.localBase(L)); break;
    default: break;
    }
    D[L] = V & Mask;
  });
}

/// Sub: 0 global, 1 shared, 2 local, 3 const, 4 param.
void hIsspacep(ExecState &S, const Inst &I, uint32_t M) {
  const uint64_t *A = S.reg(I.A[1]);
  uint64_t SharedLo = uint64_t(S.Shared), LocalLo = uint64_t(S.Local);
  uint64_t ParamLo = uint64_t(S.L->ParamBuf.data());
  uint32_t R = 0;
  forLanes(M, [&](unsigned L) {
    uint64_t V = A[L];
    bool Sh = V - SharedLo < S.SharedSize, Lo = V - LocalLo < S.LocalSize;
    bool Co = false;
    for (const auto &Rg : S.L->ConstRanges)
      if (V - Rg.first < Rg.second)
        Co = true;
    bool Pa = V - ParamLo < S.L->ParamBuf.size();
    bool Res;
    switch (I.Sub) {
    case 0: Res = !Sh && !Lo; break;
    case 1: Res = Sh; break;
    case 2: Res = Lo; break;
    case 3: Res = Co; break;
    default: Res = Pa; break;
    }
    R |= uint32_t(Res) << L;
  });
  setPred(S.Preds[I.A[0]], M, R);
}

/// cp.async.{ca,cg}.shared.global [dst], [src], size{, src-size}: done at
/// once. A[0] dst base, Imm dst offset; A[1] src base, Aux src offset
/// (int32); Sub copy size; A[2] source size slot.
void hCpAsync(ExecState &S, const Inst &I, uint32_t M) {
  unsigned Size = I.Sub;
  const uint64_t *DB = S.reg(I.A[0]), *SB = S.reg(I.A[1]), *SS = S.reg(I.A[2]);
  uint64_t DA[32], SA[32];
  uint8_t *DH[32], *SH[32];
  forLanes(M, [&](unsigned L) {
    DA[L] = DB[L] + uint64_t(I.Imm);
    SA[L] = SB[L] + uint64_t(int64_t(int32_t(I.Aux)));
  });
  resolve<MShared, KStore>(S, I, M, DA, DH, Size);
  resolve<MGlobal, KLoad>(S, I, M, SA, SH, Size);
  forLanes(M, [&](unsigned L) {
    uint64_t N = std::min<uint64_t>(SS[L], Size);
    std::memcpy(DH[L], SH[L], N);
    std::memset(DH[L] + N, 0, Size - N);
  });
}

void hNop(ExecState &, const Inst &, uint32_t) {}

/// createpolicy: an opaque policy value (0).
void hZero(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  forLanes(M, [&](unsigned L) { D[L] = 0; });
}

ptx::Space spaceOfMods(Mods &M) { return M.takeSpace(); }

} // namespace

bool decodeMemInst(DecodeCtx &C, Inst &I) {
  std::string_view B = C.Base;
  Mods &M = C.M;
  bool IsLd = B == "ld" || B == "ldu";
  bool IsSt = B == "st";
  if (IsLd || IsSt) {
    bool NC = M.take("nc");
    (void)NC;
    ptx::Space Sp = spaceOfMods(M);
    M.takeIgnorable();
    int V = M.takeOneOf({"v2", "v4", "v8"});
    unsigned Vec = V < 0 ? 1 : V == 0 ? 2 : V == 1 ? 4 : 8;
    Type T = M.takeType();
    unsigned Size = ptx::typeSize(T);
    if (T == Type::None || T == Type::Pred || Size == 0 || Size > 8 || Vec > 4)
      return C.unsupported(), true;
    if (C.numOps() < 2 || C.numOps() > 3)
      return C.invalid("expected 2 operands"), true;
    const ptx::Operand &Data = IsLd ? C.op(0) : C.op(1);
    const ptx::Operand &AddrOp = IsLd ? C.op(1) : C.op(0);
    if (AddrOp.K != ptx::Operand::Addr)
      return C.invalid("expected an address operand"), true;
    AddrOperand A;
    if (!C.address(AddrOp, A))
      return true;
    // Data operands.
    if (Vec > 1) {
      if (Data.K != ptx::Operand::Vec || Data.Elems.size() != Vec)
        return C.invalid("expected a vector of " + std::to_string(Vec) + " registers"), true;
      for (unsigned K = 0; K < Vec; ++K)
        I.A[K] = IsLd ? C.dst(Data.Elems[K]) : C.src(Data.Elems[K], T);
    } else {
      I.A[0] = IsLd ? C.dst(Data) : C.src(Data, T);
    }
    I.A[4] = A.BaseSlot;
    I.Imm = A.Offset;
    bool SExt = IsLd && ptx::isSigned(T) && Size < 8;
    if (SExt) {
      unsigned RB = C.regBytes(Vec > 1 ? Data.Elems[0] : Data);
      I.Sub = uint8_t(RB ? RB * 8 : 64);
    }
    // The space the access goes to.
    unsigned MS;
    switch (Sp) {
    case ptx::Space::Global: MS = MGlobal; break;
    case ptx::Space::Shared: MS = MShared; break;
    case ptx::Space::Local: MS = MLocal; break;
    case ptx::Space::Const: MS = MHost; break;
    case ptx::Space::Param:
      if (A.KernelParam) {
        if (!IsLd)
          return C.invalid("store to a kernel parameter"), true;
        I.Fn = pickLdParamK(Size, Vec, SExt);
        if (!I.Fn)
          return C.unsupported(), true;
        I.Class = uint8_t(InstClass::Integer);
        C.finish();
        return true;
      }
      MS = (A.FrameRelative || !C.InEntry) ? MLocal : MHost;
      break;
    case ptx::Space::None: MS = MGeneric; break;
    default: return C.unsupported(), true;
    }
    switch (MS) {
    case MGlobal: I.Fn = IsLd ? pickLd<MGlobal>(Size, Vec, SExt) : pickSt<MGlobal>(Size, Vec); break;
    case MShared: I.Fn = IsLd ? pickLd<MShared>(Size, Vec, SExt) : pickSt<MShared>(Size, Vec); break;
    case MLocal: I.Fn = IsLd ? pickLd<MLocal>(Size, Vec, SExt) : pickSt<MLocal>(Size, Vec); break;
    case MHost: I.Fn = IsLd ? pickLd<MHost>(Size, Vec, SExt) : pickSt<MHost>(Size, Vec); break;
    default: I.Fn = IsLd ? pickLd<MGeneric>(Size, Vec, SExt) : pickSt<MGeneric>(Size, Vec); break;
    }
    if (!I.Fn)
      return C.unsupported(), true;
    if (Sp == ptx::Space::Param)
      I.Class = uint8_t(InstClass::Integer);
    else if (MS == MShared)
      I.Class = uint8_t(IsLd ? InstClass::SharedLoad : InstClass::SharedStore);
    else if (MS == MLocal)
      I.Class = uint8_t(IsLd ? InstClass::LocalLoad : InstClass::LocalStore);
    else
      I.Class = uint8_t(IsLd ? InstClass::GlobalLoad : InstClass::GlobalStore);
    C.finish();
    return true;
  }

  if (B == "atom" || B == "red") {
    bool HasDst = B == "atom";
    ptx::Space Sp = spaceOfMods(M);
    M.takeIgnorable();
    M.take("noftz");
    int Op = M.takeOneOf({"add", "min", "max", "inc", "dec", "and", "or", "xor",
                          "exch", "cas"});
    M.take("noftz");
    M.takeIgnorable();
    Type T = M.takeType();
    if (Op < 0 || M.take("v2") || M.take("v4") || M.take("v8"))
      return C.unsupported(), true;
    unsigned Kind;
    switch (T) {
    case Type::U32: case Type::B32: Kind = AkU32; break;
    case Type::S32: Kind = AkS32; break;
    case Type::U64: case Type::B64: Kind = AkU64; break;
    case Type::S64: Kind = AkS64; break;
    case Type::F32: Kind = AkF32; break;
    case Type::F64: Kind = AkF64; break;
    case Type::F16: Kind = AkF16; break;
    case Type::BF16: Kind = AkBF16; break;
    case Type::F16x2: Kind = AkF16x2; break;
    case Type::BF16x2: Kind = AkBF16x2; break;
    case Type::B16: Kind = AkB16; break;
    default: return C.unsupported(), true;
    }
    bool IsFloat = Kind >= AkF32 && Kind <= AkBF16x2;
    if ((IsFloat && Op != AAdd && Op != AExch) || (Kind == AkB16 && Op != ACas) ||
        ((Op == AInc || Op == ADec) && Kind != AkU32) ||
        ((Op == AAnd || Op == AOr || Op == AXor) && IsFloat))
      return C.unsupported(), true;
    unsigned NOps = (HasDst ? 3 : 2) + (Op == ACas ? 1 : 0);
    if (C.numOps() != NOps && C.numOps() != NOps + 1)
      return C.invalid("expected " + std::to_string(NOps) + " operands"), true;
    unsigned Base = HasDst ? 1 : 0;
    if (C.op(Base).K != ptx::Operand::Addr)
      return C.invalid("expected an address operand"), true;
    AddrOperand A;
    if (!C.address(C.op(Base), A))
      return true;
    if (HasDst)
      I.A[0] = C.dst(0);
    I.A[4] = A.BaseSlot;
    I.Imm = A.Offset;
    I.A[1] = C.src(Base + 1, T);
    I.A[2] = Op == ACas ? C.src(Base + 2, T) : SlotZero;
    I.Sub = uint8_t(Kind);
    I.Aux = unsigned(Op);
    switch (Sp) {
    case ptx::Space::Global: I.Fn = HasDst ? &hAtom<MGlobal, true> : &hAtom<MGlobal, false>; break;
    case ptx::Space::Shared: I.Fn = HasDst ? &hAtom<MShared, true> : &hAtom<MShared, false>; break;
    case ptx::Space::None: I.Fn = HasDst ? &hAtom<MGeneric, true> : &hAtom<MGeneric, false>; break;
    default: return C.unsupported(), true;
    }
    I.Class = uint8_t(InstClass::Atomic);
    C.finish();
    return true;
  }

  if (B == "cvta") {
    bool To = M.take("to");
    ptx::Space Sp = spaceOfMods(M);
    Type T = M.takeType();
    if (T != Type::U64 && T != Type::U32 && T != Type::B64 && T != Type::B32)
      return C.unsupported(), true;
    if (!C.wantOps(2))
      return true;
    I.Fn = &hCvta;
    I.A[0] = C.dst(0);
    I.A[1] = C.src(1, T);
    I.Aux = ptx::typeSize(T) * 8;
    switch (Sp) {
    case ptx::Space::Global: case ptx::Space::Const: case ptx::Space::Param:
      I.Sub = 0;
      break;
    case ptx::Space::Shared: I.Sub = To ? 2 : 1; break;
    case ptx::Space::Local: I.Sub = To ? 4 : 3; break;
    default: return C.unsupported(), true;
    }
    I.Class = uint8_t(InstClass::Integer);
    C.finish();
    return true;
  }
  if (B == "isspacep") {
    ptx::Space Sp = spaceOfMods(M);
    if (!C.wantOps(2))
      return true;
    I.Fn = &hIsspacep;
    I.A[0] = C.pred(0);
    I.A[1] = C.src(1, Type::U64);
    switch (Sp) {
    case ptx::Space::Global: I.Sub = 0; break;
    case ptx::Space::Shared: I.Sub = 1; break;
    case ptx::Space::Local: I.Sub = 2; break;
    case ptx::Space::Const: I.Sub = 3; break;
    case ptx::Space::Param: I.Sub = 4; break;
    default: return C.unsupported(), true;
    }
    I.Class = uint8_t(InstClass::Integer);
    C.finish();
    return true;
  }
  if (B == "prefetch" || B == "prefetchu" || B == "discard" ||
      B == "applypriority") {
    I.Fn = &hNop;
    I.Class = uint8_t(InstClass::Other);
    return true;
  }
  if (B == "createpolicy") {
    if (C.numOps() < 1)
      return C.invalid("expected a destination"), true;
    I.Fn = &hZero;
    I.A[0] = C.dst(0);
    I.Class = uint8_t(InstClass::Other);
    return true;
  }
  if (B == "cp") {
    // cp.async.{ca,cg}.shared{::cta}.global{.level...} and the group
    // operations.
    if (!M.take("async"))
      return C.unsupported(), true;
    if (M.take("commit_group") || M.take("wait_group") || M.take("wait_all")) {
      I.Fn = &hNop;
      I.Class = uint8_t(InstClass::Other);
      return true;
    }
    int Lvl = M.takeOneOf({"ca", "cg"});
    ptx::Space D = M.takeSpace();
    ptx::Space S = M.takeSpace();
    M.takeIgnorable();
    if (Lvl < 0 || D != ptx::Space::Shared || S != ptx::Space::Global ||
        C.numOps() < 3)
      return C.unsupported(), true;
    AddrOperand DA, SA;
    if (C.op(0).K != ptx::Operand::Addr || C.op(1).K != ptx::Operand::Addr ||
        C.op(2).K != ptx::Operand::Imm)
      return C.invalid("expected [dst], [src], size"), true;
    if (!C.address(C.op(0), DA) || !C.address(C.op(1), SA))
      return true;
    if (SA.Offset != int64_t(int32_t(SA.Offset)))
      return C.unsupported("source offset too large"), true;
    unsigned Size = unsigned(C.op(2).IntVal);
    if (Size != 4 && Size != 8 && Size != 16)
      return C.invalid("copy size must be 4, 8 or 16"), true;
    I.Fn = &hCpAsync;
    I.A[0] = DA.BaseSlot;
    I.Imm = DA.Offset;
    I.A[1] = SA.BaseSlot;
    I.Aux = uint32_t(int32_t(SA.Offset));
    I.Sub = uint8_t(Size);
    I.A[2] = C.numOps() >= 4 && C.op(3).K != ptx::Operand::Name
                 ? C.src(3, Type::U32)
                 : (C.numOps() >= 4 && !C.isPred(C.op(3)) ? C.src(3, Type::U32)
                                                          : C.constSlot(Size));
    I.Class = uint8_t(InstClass::GlobalLoad);
    C.finish();
    return true;
  }
  return false;
}

} // namespace klaraptor::emu
