//===- Candidates.cpp - the launch configurations a kernel may use --------===//
///
/// \file
/// pow2: each free dimension a power of two up to its device maximum, at
/// least one warp and at most MaxThreads threads per block. warp: bx a
/// multiple of the warp size, the other free dimensions powers of two, same
/// limits. list: the listed shapes that fit the device (no warp minimum:
/// the programmer chose them). For pow2 and warp, the dimensions that are
/// not free are 1.
//===----------------------------------------------------------------------===//
#include "Candidates.h"

#include <algorithm>
#include <cmath>

namespace klaraptor {

LaunchLimits LaunchLimits::from(const klaraptor_device_info &D,
                                int KernelMaxThreads,
                                int64_t KernelMaxDynamicShared) {
  LaunchLimits L;
  auto Pos = [](int32_t V) { return V > 0 ? uint32_t(V) : 1u; };
  L.MaxThreads = Pos(D.max_threads_per_block);
  if (KernelMaxThreads > 0)
    L.MaxThreads = std::min(L.MaxThreads, uint32_t(KernelMaxThreads));
  for (int I = 0; I < 3; ++I) {
    L.MaxBlock[I] = Pos(D.max_block_dim[I]);
    L.MaxGrid[I] = Pos(D.max_grid_dim[I]);
  }
  L.WarpSize = Pos(D.warp_size);
  if (KernelMaxDynamicShared > 0)
    L.MaxDynamicShared = uint64_t(KernelMaxDynamicShared);
  else if (D.shared_mem_per_block > 0)
    L.MaxDynamicShared = D.shared_mem_per_block;
  return L;
}

bool CandidateEnumerator::fits(const Dim3 &B, bool NeedWarp) const {
  uint64_t Threads = 1;
  for (int D = 0; D < 3; ++D) {
    if (B[D] < 1 || B[D] > Limits.MaxBlock[D])
      return false;
    Threads *= B[D];
  }
  if (Threads > Limits.MaxThreads)
    return false;
  return !NeedWarp || Threads >= Limits.WarpSize;
}

std::vector<Dim3> CandidateEnumerator::blockShapes() const {
  std::vector<Dim3> Out;
  const CandidateSet &C = Spec.Candidates;
  if (C.K == CandidateSet::Kind::List) {
    for (const auto &S : C.Shapes) {
      Dim3 B = {S[0], S[1], S[2]};
      if (fits(B, false) && std::find(Out.begin(), Out.end(), B) == Out.end())
        Out.push_back(B);
    }
    return Out;
  }
  // The values each dimension takes; a dimension that is not free is 1.
  std::array<std::vector<uint32_t>, 3> Values;
  for (int D = 0; D < 3; ++D) {
    if (!Spec.FreeDims[D]) {
      Values[D].push_back(1);
      continue;
    }
    uint64_t Max = std::min(Limits.MaxBlock[D], Limits.MaxThreads);
    if (D == 0 && C.K == CandidateSet::Kind::Warp) {
      for (uint64_t V = Limits.WarpSize; V <= Max; V += Limits.WarpSize)
        Values[D].push_back(uint32_t(V));
    } else {
      for (uint64_t V = 1; V <= Max; V *= 2)
        Values[D].push_back(uint32_t(V));
    }
  }
  for (uint32_t Z : Values[2])
    for (uint32_t Y : Values[1])
      for (uint32_t X : Values[0]) {
        Dim3 B = {X, Y, Z};
        if (fits(B, true))
          Out.push_back(B);
      }
  return Out;
}

double blockDistance(const Dim3 &A, const Dim3 &B) {
  double D = 0;
  for (int I = 0; I < 3; ++I)
    D += std::fabs(std::log2(double(std::max<uint32_t>(A[I], 1))) -
                   std::log2(double(std::max<uint32_t>(B[I], 1))));
  return D;
}

EvalStatus dynamicSharedBytes(const KernelSpec &Spec, const int64_t *Data,
                              size_t NumData, const Dim3 &Block,
                              int64_t &Bytes) {
  Bytes = 0;
  if (!Spec.Shared)
    return EvalStatus::Ok;
  EvalEnv Env;
  Env.Data = Data;
  Env.NumData = NumData;
  Env.Block = {int64_t(Block[0]), int64_t(Block[1]), int64_t(Block[2])};
  return evaluate(*Spec.Shared, Env, Bytes);
}

bool CandidateEnumerator::admit(const int64_t *Data, size_t NumData,
                                const Dim3 &Block, Dim3 &Grid,
                                RejectCounts *Rejects,
                                uint64_t *Shared) const {
  EvalEnv Env;
  Env.Data = Data;
  Env.NumData = NumData;
  Env.Block = {int64_t(Block[0]), int64_t(Block[1]), int64_t(Block[2])};
  for (const auto &W : Spec.Where) {
    int64_t V = 0;
    if (evaluate(*W, Env, V) != EvalStatus::Ok) {
      if (Rejects)
        ++Rejects->WhereError;
      return false;
    }
    if (V == 0) {
      if (Rejects)
        ++Rejects->WhereFalse;
      return false;
    }
  }
  for (int D = 0; D < 3; ++D) {
    int64_t V = 1;
    if (Spec.Grid[D] && evaluate(*Spec.Grid[D], Env, V) != EvalStatus::Ok) {
      if (Rejects)
        ++Rejects->GridError;
      return false;
    }
    if (V < 1 || uint64_t(V) > Limits.MaxGrid[D]) {
      if (Rejects)
        ++Rejects->GridOutOfRange;
      return false;
    }
    Grid[D] = uint32_t(V);
  }
  int64_t Bytes = 0;
  if (dynamicSharedBytes(Spec, Data, NumData, Block, Bytes) !=
      EvalStatus::Ok) {
    if (Rejects)
      ++Rejects->SharedError;
    return false;
  }
  if (Bytes < 0 || uint64_t(Bytes) > Limits.MaxDynamicShared) {
    if (Rejects)
      ++Rejects->SharedOutOfRange;
    return false;
  }
  if (Shared)
    *Shared = uint64_t(Bytes);
  return true;
}

std::vector<Candidate>
CandidateEnumerator::admissible(const int64_t *Data, size_t NumData,
                                RejectCounts *Rejects) const {
  std::vector<Candidate> Out;
  for (const Dim3 &B : blockShapes()) {
    Candidate C;
    C.Block = B;
    if (admit(Data, NumData, B, C.Grid, Rejects, &C.Shared))
      Out.push_back(C);
  }
  return Out;
}

} // namespace klaraptor
