//===- Schedule.cpp - the assembler's order within a basic block ----------===//
#include "Schedule.h"

#include "Emulator.h"

#include <algorithm>
#include <unordered_map>

namespace klaraptor::timing {

namespace {

enum class MemRole : uint8_t { None, Load, Write, Fence };

MemRole roleOf(const emu::Inst &I) {
  using emu::InstClass;
  using emu::InstKind;
  if (I.Kind != InstKind::Op && I.Kind != InstKind::Nop)
    return MemRole::Fence; // branches, calls, returns, exits, barriers, traps
  switch (InstClass(I.Class)) {
  case InstClass::GlobalLoad:
  case InstClass::SharedLoad:
  case InstClass::LocalLoad:
    return MemRole::Load;
  case InstClass::GlobalStore:
  case InstClass::SharedStore:
  case InstClass::LocalStore:
  case InstClass::Atomic:
    return MemRole::Write;
  case InstClass::Barrier: // membar, fence
  case InstClass::Branch:
    return MemRole::Fence;
  default:
    return MemRole::None;
  }
}

/// The latency class an assembler schedules by: variable-latency memory
/// (global, local, atomics) far above shared memory, far above the pipes.
/// Only the order matters, not the values.
double weightOf(const emu::Inst &I) {
  using emu::InstClass;
  if (I.Kind != emu::InstKind::Op)
    return 1;
  switch (InstClass(I.Class)) {
  case InstClass::GlobalLoad:
  case InstClass::LocalLoad:
  case InstClass::Atomic:
    return 400;
  case InstClass::SharedLoad:
    return 30;
  default:
    return 4;
  }
}

/// Schedules the instructions [Lo, Hi) of one region; writes their
/// positions (0 ... Hi - Lo - 1) into Rank.
void scheduleRegion(const emu::KernelProgram &P,
                    const std::vector<StaticInst> &Code, uint32_t Lo,
                    uint32_t Hi, std::vector<uint32_t> &Rank) {
  uint32_t N = Hi - Lo;
  std::vector<std::vector<uint32_t>> Succ(N);
  std::vector<uint32_t> Preds(N, 0);
  auto edge = [&](uint32_t From, uint32_t To) {
    Succ[From].push_back(To);
    ++Preds[To];
  };
  // Registers: the last writer and the readers since.
  std::unordered_map<uint32_t, uint32_t> Writer;
  std::unordered_map<uint32_t, std::vector<uint32_t>> Readers;
  // Memory: the last store or atomic and the loads since; the last fence
  // and everything since.
  constexpr uint32_t None = ~0u;
  uint32_t LastWrite = None, LastFence = None;
  std::vector<uint32_t> LoadsSince, SinceFence;
  for (uint32_t K = 0; K < N; ++K) {
    const StaticInst &S = Code[Lo + K];
    const emu::Inst &I = P.Code[Lo + K];
    for (unsigned J = 0; J < S.NumSrc; ++J) {
      auto W = Writer.find(S.Src[J]);
      if (W != Writer.end())
        edge(W->second, K);
      Readers[S.Src[J]].push_back(K);
    }
    for (unsigned J = 0; J < S.NumDst; ++J) {
      uint32_t R = S.Dst[J];
      auto W = Writer.find(R);
      if (W != Writer.end() && W->second != K)
        edge(W->second, K);
      for (uint32_t X : Readers[R])
        if (X != K)
          edge(X, K);
      Readers[R].clear();
      Writer[R] = K;
    }
    MemRole Role = roleOf(I);
    if (Role == MemRole::Fence) {
      for (uint32_t X : SinceFence)
        edge(X, K);
      if (LastFence != None)
        edge(LastFence, K);
      LastFence = K;
      SinceFence.clear();
      continue;
    }
    if (LastFence != None)
      edge(LastFence, K);
    SinceFence.push_back(K);
    if (Role == MemRole::Load) {
      if (LastWrite != None)
        edge(LastWrite, K);
      LoadsSince.push_back(K);
    } else if (Role == MemRole::Write) {
      if (LastWrite != None)
        edge(LastWrite, K);
      for (uint32_t X : LoadsSince)
        edge(X, K);
      LoadsSince.clear();
      LastWrite = K;
    }
  }
  // Longest latency-weighted path to the region's end (successors come
  // later in program order).
  std::vector<double> Height(N, 0);
  for (uint32_t K = N; K-- > 0;) {
    double Below = 0;
    for (uint32_t X : Succ[K])
      Below = std::max(Below, Height[X]);
    Height[K] = weightOf(P.Code[Lo + K]) + Below;
  }
  std::vector<uint32_t> Ready;
  for (uint32_t K = 0; K < N; ++K)
    if (Preds[K] == 0)
      Ready.push_back(K);
  for (uint32_t Pos = 0; Pos < N; ++Pos) {
    // Always non-empty: the dependences point forward in program order.
    auto Best = Ready.begin();
    for (auto It = Ready.begin(); It != Ready.end(); ++It)
      if (Height[*It] > Height[*Best] ||
          (Height[*It] == Height[*Best] && *It < *Best))
        Best = It;
    uint32_t K = *Best;
    Ready.erase(Best);
    Rank[Lo + K] = Pos;
    for (uint32_t X : Succ[K])
      if (--Preds[X] == 0)
        Ready.push_back(X);
  }
}

} // namespace

std::vector<uint32_t> assemblerOrder(const emu::KernelProgram &P,
                                     const std::vector<StaticInst> &Code) {
  std::vector<uint32_t> Rank(Code.size(), 0);
  uint32_t Lo = 0;
  for (uint32_t I = 1; I <= Code.size(); ++I)
    if (I == Code.size() || Code[I].Region != Code[Lo].Region) {
      scheduleRegion(P, Code, Lo, I, Rank);
      Lo = I;
    }
  return Rank;
}

void replayInAssemblerOrder(std::vector<DynInst> &Insts,
                            const std::vector<StaticInst> &Code,
                            const std::vector<uint32_t> &Rank) {
  size_t Start = 0;
  auto byRank = [&](const DynInst &A, const DynInst &B) {
    return Rank[A.Idx] < Rank[B.Idx];
  };
  for (size_t I = 1; I <= Insts.size(); ++I) {
    bool Ends = I == Insts.size() ||
                Code[Insts[I].Idx].Region != Code[Insts[I - 1].Idx].Region ||
                Insts[I].Idx <= Insts[I - 1].Idx;
    if (!Ends)
      continue;
    if (I - Start > 1)
      std::stable_sort(Insts.begin() + Start, Insts.begin() + I, byRank);
    Start = I;
  }
}

} // namespace klaraptor::timing
