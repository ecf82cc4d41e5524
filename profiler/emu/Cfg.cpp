//===- Cfg.cpp - reconvergence points from immediate post-dominators ------===//
///
/// \file
/// Builds the control-flow graph of one function of a KernelProgram (basic
/// blocks of Insts, a virtual exit reached from ret/exit/trap) and computes
/// immediate post-dominators with the iterative algorithm of Cooper, Harvey
/// and Kennedy on the reverse graph. Every branch gets as reconvergence pc
/// (Inst::Aux2) the first instruction of the immediate post-dominator of its
/// block, or NoPc when that is the virtual exit (the paths only meet by
/// leaving the function) or when the block cannot reach the exit.
//===----------------------------------------------------------------------===//
#include "Program.h"

#include <algorithm>
#include <vector>

namespace klaraptor::emu {

void computeReconvergence(KernelProgram &P, const FunctionInfo &F) {
  uint32_t Begin = F.EntryPc, End = F.EndPc;
  uint32_t N = End - Begin;
  if (N == 0)
    return;
  auto isTerminator = [&](const Inst &I) {
    return I.Kind == InstKind::Bra || I.Kind == InstKind::Ret ||
           I.Kind == InstKind::Exit || I.Kind == InstKind::Trap ||
           I.Kind == InstKind::Unsupported;
  };
  // Leaders.
  std::vector<uint8_t> Leader(N + 1, 0);
  Leader[0] = 1;
  for (uint32_t K = 0; K < N; ++K) {
    const Inst &I = P.Code[Begin + K];
    if (I.Kind == InstKind::Bra && I.Aux >= Begin && I.Aux < End)
      Leader[I.Aux - Begin] = 1;
    if (isTerminator(I) && K + 1 < N)
      Leader[K + 1] = 1;
  }
  std::vector<uint32_t> BlockOf(N), Start;
  for (uint32_t K = 0; K < N; ++K) {
    if (Leader[K])
      Start.push_back(K);
    BlockOf[K] = uint32_t(Start.size() - 1);
  }
  uint32_t NB = uint32_t(Start.size());
  uint32_t Exit = NB;
  std::vector<std::vector<uint32_t>> Succ(NB + 1), Pred(NB + 1);
  for (uint32_t B = 0; B < NB; ++B) {
    uint32_t Last = (B + 1 < NB ? Start[B + 1] : N) - 1;
    const Inst &I = P.Code[Begin + Last];
    bool Guarded = I.Guard >= 0;
    auto add = [&](uint32_t T) {
      if (std::find(Succ[B].begin(), Succ[B].end(), T) == Succ[B].end())
        Succ[B].push_back(T);
    };
    switch (I.Kind) {
    case InstKind::Bra:
      if (I.Aux >= Begin && I.Aux < End)
        add(BlockOf[I.Aux - Begin]);
      if (Guarded && Last + 1 < N)
        add(BlockOf[Last + 1]);
      break;
    case InstKind::Ret:
    case InstKind::Exit:
    case InstKind::Trap:
    case InstKind::Unsupported:
      add(Exit);
      if (Guarded && Last + 1 < N)
        add(BlockOf[Last + 1]);
      break;
    default:
      if (Last + 1 < N)
        add(BlockOf[Last + 1]);
      else
        add(Exit);
      break;
    }
    for (uint32_t S : Succ[B])
      Pred[S].push_back(B);
  }
  // Post-order of the reverse graph from the exit (edges: Pred).
  std::vector<uint32_t> Order;
  std::vector<uint32_t> Num(NB + 1, ~0u);
  {
    std::vector<uint8_t> Seen(NB + 1, 0);
    std::vector<std::pair<uint32_t, size_t>> Stack;
    Stack.push_back({Exit, 0});
    Seen[Exit] = 1;
    while (!Stack.empty()) {
      auto &[V, K] = Stack.back();
      if (K < Pred[V].size()) {
        uint32_t W = Pred[V][K++];
        if (!Seen[W]) {
          Seen[W] = 1;
          Stack.push_back({W, 0});
        }
      } else {
        Num[V] = uint32_t(Order.size());
        Order.push_back(V);
        Stack.pop_back();
      }
    }
  }
  // Iterative post-dominators: IPdom[B] over post-order numbers.
  std::vector<uint32_t> IPdom(NB + 1, ~0u);
  IPdom[Exit] = Exit;
  auto intersect = [&](uint32_t A, uint32_t B) {
    while (A != B) {
      while (Num[A] < Num[B])
        A = IPdom[A];
      while (Num[B] < Num[A])
        B = IPdom[B];
    }
    return A;
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    // Reverse post-order, skipping the exit.
    for (auto It = Order.rbegin(); It != Order.rend(); ++It) {
      uint32_t B = *It;
      if (B == Exit)
        continue;
      uint32_t New = ~0u;
      for (uint32_t S : Succ[B]) {
        if (IPdom[S] == ~0u)
          continue;
        New = New == ~0u ? S : intersect(S, New);
      }
      if (New != ~0u && IPdom[B] != New) {
        IPdom[B] = New;
        Changed = true;
      }
    }
  }
  for (uint32_t B = 0; B < NB; ++B) {
    uint32_t Last = (B + 1 < NB ? Start[B + 1] : N) - 1;
    Inst &I = P.Code[Begin + Last];
    if (I.Kind != InstKind::Bra)
      continue;
    uint32_t D = IPdom[B];
    I.Aux2 = (D == ~0u || D == Exit) ? NoPc : Begin + Start[D];
  }
}

} // namespace klaraptor::emu
