//===- Metrics.cpp - memory-access accounting of warp instructions --------===//
///
/// \file
/// Global memory: a warp access touches the distinct 32-byte sectors that
/// contain the bytes its active lanes access (a lane accessing B bytes at A
/// touches sectors A/32 .. (A+B-1)/32).
///
/// Shared memory has 32 banks of 4-byte words; word W is in bank W % 32. A
/// warp access needs, for each bank, one wavefront per distinct word it
/// touches in that bank (lanes reading the same word share it: broadcast),
/// and at least ceil(distinct words / 32) wavefronts in all (a 64- or
/// 128-bit access needs 2 or 4 even without conflicts). Its bank conflicts
/// are the wavefronts beyond that minimum:
///   conflicts = max over banks (distinct words in the bank)
///               - ceil(distinct words / 32).
/// A stride-2 float access (32 lanes) has 2 words in 16 banks: 1 conflict;
/// a stride-32 access has 32 words in one bank: 31 conflicts.
//===----------------------------------------------------------------------===//
#include "Exec.h"

#include <algorithm>
#include <functional>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace klaraptor::emu {

const char *name(InstClass C) {
  switch (C) {
  case InstClass::Integer: return "integer";
  case InstClass::Fp32: return "fp32";
  case InstClass::Fp64: return "fp64";
  case InstClass::Special: return "special";
  case InstClass::GlobalLoad: return "global_load";
  case InstClass::GlobalStore: return "global_store";
  case InstClass::SharedLoad: return "shared_load";
  case InstClass::SharedStore: return "shared_store";
  case InstClass::LocalLoad: return "local_load";
  case InstClass::LocalStore: return "local_store";
  case InstClass::Branch: return "branch";
  case InstClass::Barrier: return "barrier";
  case InstClass::Atomic: return "atomic";
  case InstClass::Other: return "other";
  case InstClass::Count: break;
  }
  return "?";
}

void Counters::add(const Counters &O) {
  for (unsigned K = 0; K < unsigned(InstClass::Count); ++K)
    WarpInst[K] += O.WarpInst[K];
  ThreadInst += O.ThreadInst;
  GLdReq += O.GLdReq;
  GLdSec += O.GLdSec;
  GLdLines += O.GLdLines;
  GStReq += O.GStReq;
  GStSec += O.GStSec;
  GAtReq += O.GAtReq;
  GAtSec += O.GAtSec;
  SLdReq += O.SLdReq;
  SStReq += O.SStReq;
  SConflicts += O.SConflicts;
  Branches += O.Branches;
  Divergent += O.Divergent;
  for (const auto &[Address, Ops] : O.AtomicOpsPerAddress)
    AtomicOpsPerAddress[Address] += Ops;
  // Merged summaries: beyond the bound, every count less the
  // (MaxAtomicAddresses + 1)-th largest, the others dropped.
  if (AtomicOpsPerAddress.size() > MaxAtomicAddresses) {
    std::vector<uint64_t> Counts;
    Counts.reserve(AtomicOpsPerAddress.size());
    for (const auto &[Address, Ops] : AtomicOpsPerAddress)
      Counts.push_back(Ops);
    std::nth_element(Counts.begin(), Counts.begin() + MaxAtomicAddresses,
                     Counts.end(), std::greater<uint64_t>());
    uint64_t Cut = Counts[MaxAtomicAddresses];
    for (auto It = AtomicOpsPerAddress.begin();
         It != AtomicOpsPerAddress.end();) {
      if (It->second <= Cut) {
        It = AtomicOpsPerAddress.erase(It);
      } else {
        It->second -= Cut;
        ++It;
      }
    }
  }
}

void Counters::noteAtomic(uint64_t Address) {
  auto It = AtomicOpsPerAddress.find(Address);
  if (It != AtomicOpsPerAddress.end()) {
    ++It->second;
    return;
  }
  if (AtomicOpsPerAddress.size() < MaxAtomicAddresses) {
    AtomicOpsPerAddress.emplace(Address, 1);
    return;
  }
  // A new address with the table full takes one from every count (and is
  // not kept): at most operations / (MaxAtomicAddresses + 1) such rounds.
  for (auto J = AtomicOpsPerAddress.begin(); J != AtomicOpsPerAddress.end();) {
    if (--J->second == 0)
      J = AtomicOpsPerAddress.erase(J);
    else
      ++J;
  }
}

/// One pass over the lanes of \p Mask (not empty) in lane order for
/// naturally aligned accesses of at most 32 bytes (each in one sector):
/// \p New(S) for each sector S unlike its predecessor's. True when the
/// sectors never went up and down again (one array walked with a stride of
/// either sign, a broadcast, the rows of a 2-D tile in order) and every
/// access was aligned: then equal sectors were neighbours, \p New saw each
/// distinct sector once, and \p Down says whether they ran down.
template <class NewFn>
static bool walkMonotoneSectors(const uint64_t *Addr, uint32_t Mask,
                                unsigned Bytes, bool &Down, NewFn &&New,
                                unsigned Shift = 5) {
  uint64_t Mis = 0, Prev = 0;
  bool Up = false, First = true;
  Down = false;
  auto Step = [&](uint64_t A) {
    uint64_t S = A >> Shift;
    Mis |= A;
    if (First) {
      First = false;
      New(S);
    } else {
      Up |= S > Prev;
      Down |= S < Prev;
      if (S != Prev)
        New(S);
    }
    Prev = S;
  };
  if (Mask == 0xffffffffu)
    for (unsigned L = 0; L < 32; ++L)
      Step(Addr[L]);
  else
    for (uint32_t M = Mask; M; M &= M - 1)
      Step(Addr[__builtin_ctz(M)]);
  return !(Up && Down) && !(Mis & (Bytes - 1));
}

/// appendSectors for units of 2^Shift bytes (sectors: 5, lines: 7).
static unsigned appendUnits(const uint64_t *Addr, uint32_t Mask,
                            unsigned Bytes, uint64_t Tag,
                            std::vector<uint64_t> &Out, unsigned Shift) {
  size_t First = Out.size();
  // countSectors' usual case: each new unit appended, the list reversed
  // when they ran down.
  if (Bytes <= 32 && (Bytes & (Bytes - 1)) == 0 && Mask) {
    bool Down = false;
    if (walkMonotoneSectors(
            Addr, Mask, Bytes, Down, [&](uint64_t S) { Out.push_back(S); },
            Shift)) {
      if (Down)
        std::reverse(Out.begin() + long(First), Out.end());
      for (size_t I = First; I < Out.size(); ++I)
        Out[I] |= Tag;
      return unsigned(Out.size() - First);
    }
    Out.resize(First);
  }
  for (unsigned L = 0; L < 32; ++L)
    if (Mask >> L & 1) {
      uint64_t Lo = Addr[L] >> Shift, Hi = (Addr[L] + Bytes - 1) >> Shift;
      for (uint64_t S = Lo; S <= Hi; ++S)
        Out.push_back(S);
    }
  std::sort(Out.begin() + First, Out.end());
  Out.erase(std::unique(Out.begin() + First, Out.end()), Out.end());
  for (size_t I = First; I < Out.size(); ++I)
    Out[I] |= Tag;
  return unsigned(Out.size() - First);
}

unsigned appendSectors(const uint64_t *Addr, uint32_t Mask, unsigned Bytes,
                       uint64_t Tag, std::vector<uint64_t> &Out) {
  return appendUnits(Addr, Mask, Bytes, Tag, Out, 5);
}

void noteWritten(ExecState &S, uint32_t Mask, const uint64_t *Addr,
                 unsigned Bytes) {
  WriteLog &Log = *S.Written;
  // Many pages noted more than once: keep the list to its distinct pages.
  if (Log.Pages.size() >= (size_t(1) << 20)) {
    std::sort(Log.Pages.begin(), Log.Pages.end());
    Log.Pages.erase(std::unique(Log.Pages.begin(), Log.Pages.end()),
                    Log.Pages.end());
    Log.Pages.reserve(Log.Pages.size() * 2);
  }
  auto Add = [&](uint64_t P) {
    uint64_t &Slot = Log.Recent[P % WriteLog::Slots];
    if (Slot != P) {
      Slot = P;
      Log.Pages.push_back(P);
    }
  };
  // Usual case: the warp's accesses lie on one page or two neighbours.
  uint64_t Lo = ~uint64_t(0), Hi = 0;
  forLanes(Mask, [&](unsigned L) {
    Lo = std::min(Lo, Addr[L]);
    Hi = std::max(Hi, Addr[L]);
  });
  uint64_t First = Lo >> 12, Last = (Hi + Bytes - 1) >> 12;
  if (Last - First <= 1) {
    Add(First);
    Add(Last);
    return;
  }
  forLanes(Mask, [&](unsigned L) {
    for (uint64_t P = Addr[L] >> 12; P <= (Addr[L] + Bytes - 1) >> 12; ++P)
      Add(P);
  });
}

/// The distinct sectors of walkMonotoneSectors' accesses (\p Mask not
/// empty); 0 when the accesses are not of that kind.
static unsigned countMonotoneSectors(const uint64_t *Addr, uint32_t Mask,
                                     unsigned Bytes, unsigned Shift) {
  unsigned Distinct = 0;
  bool Down;
  return walkMonotoneSectors(
             Addr, Mask, Bytes, Down, [&](uint64_t) { ++Distinct; }, Shift)
             ? Distinct
             : 0;
}

#if defined(__x86_64__) || defined(__i386__)
/// countMonotoneSectors of a whole warp, four lanes at a time (AVX2 has the
/// 64-bit comparisons SSE2 lacks): each lane's sector against its left
/// neighbour's, lane 0 against itself.
__attribute__((target("avx2"))) static unsigned
countMonotoneWarpAvx2(const uint64_t *Addr, unsigned Bytes, unsigned Shift) {
  const __m128i By = _mm_cvtsi32_si128(int(Shift));
  const __m256i *V = reinterpret_cast<const __m256i *>(Addr);
  __m256i Cur = _mm256_loadu_si256(V);
  __m256i Prev = _mm256_permute4x64_epi64(Cur, _MM_SHUFFLE(2, 1, 0, 0));
  __m256i Mis = Cur, Up = _mm256_setzero_si256(), Down = Up, Same = Up;
  for (unsigned L = 0;;) {
    // Units are addresses / 32 or more: below 2^59, so signed comparisons
    // do.
    __m256i S = _mm256_srl_epi64(Cur, By), P = _mm256_srl_epi64(Prev, By);
    Up = _mm256_or_si256(Up, _mm256_cmpgt_epi64(S, P));
    Down = _mm256_or_si256(Down, _mm256_cmpgt_epi64(P, S));
    Same = _mm256_sub_epi64(Same, _mm256_cmpeq_epi64(S, P));
    if ((L += 4) == 32)
      break;
    Cur = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(Addr + L));
    Prev = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(Addr + L - 1));
    Mis = _mm256_or_si256(Mis, Cur);
  }
  if (!_mm256_testz_si256(Up, Up) && !_mm256_testz_si256(Down, Down))
    return 0;
  alignas(32) uint64_t M[4], E[4];
  _mm256_store_si256(reinterpret_cast<__m256i *>(M), Mis);
  _mm256_store_si256(reinterpret_cast<__m256i *>(E), Same);
  if ((M[0] | M[1] | M[2] | M[3]) & (Bytes - 1))
    return 0;
  // Lane 0 was counted equal to itself: 31 neighbour pairs, one more.
  return unsigned(33 - (E[0] + E[1] + E[2] + E[3]));
}

static bool cpuHasAvx2() {
  __builtin_cpu_init(); // needed before a library's static initialisers
  return __builtin_cpu_supports("avx2");
}
bool HostHasAvx2 = cpuHasAvx2();
#else
bool HostHasAvx2 = false;
#endif

/// The distinct units of 2^Shift bytes (sectors: 5, lines: 7) that the
/// lanes of \p Mask touch with accesses of \p Bytes at \p Addr.
static unsigned countUnits(const uint64_t *Addr, uint32_t Mask,
                           unsigned Bytes, unsigned Shift) {
  if (!Mask)
    return 0;
  // The usual case, one pass: aligned accesses in lane order (the profile
  // of gemm's narrow blocks at N = 192 spent 43 % of its time in this
  // function before it had this path: their rows are 768 bytes apart).
  if (Bytes <= 32 && (Bytes & (Bytes - 1)) == 0) {
    unsigned N;
#if defined(__x86_64__) || defined(__i386__)
    if (Mask == 0xffffffffu && HostHasAvx2)
      N = countMonotoneWarpAvx2(Addr, Bytes, Shift);
    else
#endif
      N = countMonotoneSectors(Addr, Mask, Bytes, Shift);
    if (N)
      return N;
  }
  // Naturally aligned accesses of at most 32 bytes (each in one unit), all
  // within 64 units (2 KiB of sectors, 8 KiB of lines) of the lowest: a
  // bitmap.
  if (Bytes <= 32) {
    uint64_t Lo = ~0ull, Hi = 0;
    bool Aligned = true;
    if (Mask == 0xffffffffu) {
      uint64_t Mis = 0;
      for (unsigned L = 0; L < 32; ++L) {
        Lo = std::min(Lo, Addr[L]);
        Hi = std::max(Hi, Addr[L]);
        Mis |= Addr[L] & (Bytes - 1);
      }
      Aligned = Mis == 0;
    } else {
      uint32_t M = Mask;
      while (M) {
        unsigned L = unsigned(__builtin_ctz(M));
        M &= M - 1;
        Lo = std::min(Lo, Addr[L]);
        Hi = std::max(Hi, Addr[L]);
        Aligned &= (Addr[L] & (Bytes - 1)) == 0;
      }
    }
    Lo >>= Shift;
    Hi >>= Shift;
    if (Aligned && (Bytes & (Bytes - 1)) == 0 && Hi - Lo < 64) {
      uint64_t Bits = 0;
      if (Mask == 0xffffffffu) {
        for (unsigned L = 0; L < 32; ++L)
          Bits |= 1ull << ((Addr[L] >> Shift) - Lo);
      } else {
        uint32_t M = Mask;
        while (M) {
          unsigned L = unsigned(__builtin_ctz(M));
          M &= M - 1;
          Bits |= 1ull << ((Addr[L] >> Shift) - Lo);
        }
      }
      return popc64(Bits);
    }
  }
  // An access of at most 33 bytes spans at most two units: 64 in all.
  // Wider ones (v4.b64 is 32 bytes; none of the examples is wider) take
  // the list.
  if (Bytes > 33) {
    std::vector<uint64_t> All;
    return appendUnits(Addr, Mask, Bytes, 0, All, Shift);
  }
  uint64_t Sec[64];
  unsigned N = 0;
  bool Sorted = true;
  while (Mask) {
    unsigned L = unsigned(__builtin_ctz(Mask));
    Mask &= Mask - 1;
    uint64_t First = Addr[L] >> Shift, Last = (Addr[L] + Bytes - 1) >> Shift;
    for (uint64_t S = First; S <= Last; ++S) {
      if (N && S < Sec[N - 1])
        Sorted = false;
      Sec[N++] = S;
    }
  }
  if (!Sorted)
    std::sort(Sec, Sec + N);
  unsigned Distinct = 1;
  for (unsigned K = 1; K < N; ++K)
    Distinct += Sec[K] != Sec[K - 1];
  return Distinct;
}

unsigned countSectors(const uint64_t *Addr, uint32_t Mask, unsigned Bytes) {
  return countUnits(Addr, Mask, Bytes, 5);
}

unsigned countLines(const uint64_t *Addr, uint32_t Mask, unsigned Bytes) {
  return countUnits(Addr, Mask, Bytes, 7);
}

unsigned countBankConflicts(const uint64_t *Addr, uint32_t Mask,
                            unsigned Bytes) {
  if (!Mask)
    return 0;
  unsigned WordsPerLane = Bytes <= 4 ? 1 : Bytes / 4;
  // Fast path: single-word accesses hitting distinct banks or one word.
  if (WordsPerLane == 1) {
    uint32_t Banks = 0;
    bool Clash = false;
    uint64_t W0 = Addr[__builtin_ctz(Mask)] >> 2;
    bool AllSame = true;
    uint32_t M = Mask;
    while (M) {
      unsigned L = unsigned(__builtin_ctz(M));
      M &= M - 1;
      uint64_t W = Addr[L] >> 2;
      AllSame &= W == W0;
      uint32_t Bit = 1u << (W & 31);
      Clash |= (Banks & Bit) != 0;
      Banks |= Bit;
    }
    if (!Clash || AllSame)
      return 0;
  }
  uint64_t Words[128];
  unsigned N = 0;
  uint32_t M = Mask;
  while (M) {
    unsigned L = unsigned(__builtin_ctz(M));
    M &= M - 1;
    uint64_t W = Addr[L] >> 2;
    for (unsigned K = 0; K < WordsPerLane; ++K)
      Words[N++] = W + K;
  }
  std::sort(Words, Words + N);
  N = unsigned(std::unique(Words, Words + N) - Words);
  unsigned PerBank[32] = {};
  unsigned Max = 0;
  for (unsigned K = 0; K < N; ++K)
    Max = std::max(Max, ++PerBank[Words[K] & 31]);
  unsigned Ideal = (N + 31) / 32;
  return Max > Ideal ? Max - Ideal : 0;
}

} // namespace klaraptor::emu
