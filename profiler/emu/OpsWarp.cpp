//===- OpsWarp.cpp - warp-level and synchronisation instructions ----------===//
///
/// \file
/// Handlers and decoding for shfl(.sync), vote(.sync), match.sync,
/// redux.sync, activemask, elect.sync, the barrier family (bar, barrier:
/// decoded here, executed by the interpreter) and the instructions that are
/// no-ops under lockstep execution (bar.warp.sync, membar, fence,
/// nanosleep, pmevent, griddepcontrol, setmaxnreg).
///
/// The lanes taking part in a warp-level operation are the executing lanes
/// (active and guard-true) that are also in the member mask.
//===----------------------------------------------------------------------===//
#include "OpsCommon.h"

namespace klaraptor::emu {

using ptx::Type;

namespace {

/// shfl modes: 0 up, 1 down, 2 bfly, 3 idx. A[0] d, A[1] p (~0u), A[2] a,
/// A[3] b, A[4] c.
template <unsigned Mode>
void hShfl(ExecState &S, const Inst &I, uint32_t M) {
  uint32_t Src[32];
  const uint64_t *A = S.reg(I.A[2]);
  for (unsigned L = 0; L < 32; ++L)
    Src[L] = uint32_t(A[L]);
  const uint64_t *B = S.reg(I.A[3]), *C = S.reg(I.A[4]);
  uint64_t *D = S.reg(I.A[0]);
  uint32_t P = 0;
  forLanes(M, [&](unsigned L) {
    int Lane = int(L);
    int BV = int(uint32_t(B[L]) & 31);
    uint32_t CV = uint32_t(C[L]);
    int CVal = int(CV & 31), Seg = int((CV >> 8) & 31);
    int MaxLane = (Lane & Seg) | (CVal & ~Seg);
    int MinLane = Lane & Seg;
    int J;
    bool PV;
    switch (Mode) {
    case 0: J = Lane - BV; PV = J >= MaxLane; break;
    case 1: J = Lane + BV; PV = J <= MaxLane; break;
    case 2: J = Lane ^ BV; PV = J <= MaxLane; break;
    default: J = MinLane | (BV & ~Seg); PV = J <= MaxLane; break;
    }
    if (!PV)
      J = Lane;
    D[L] = Src[J & 31];
    P |= uint32_t(PV) << L;
  });
  if (I.A[1] != ~0u)
    setPred(S.Preds[I.A[1]], M, P);
}

inline uint32_t memberMask(ExecState &S, uint32_t M, unsigned Slot) {
  const uint64_t *MM = S.reg(Slot);
  return uint32_t(MM[__builtin_ctz(M)]) & M;
}

/// vote: Sub 0 all, 1 any, 2 uni, 3 ballot. A[0] d, A[1] a (pred), Imm
/// bit0 a negated, A[2] membermask.
void hVote(ExecState &S, const Inst &I, uint32_t M) {
  uint32_t V = memberMask(S, M, I.A[2]);
  uint32_t P = (S.Preds[I.A[1]] ^ ((I.Imm & 1) ? ~0u : 0u)) & V;
  if (I.Sub == 3) {
    uint64_t *D = S.reg(I.A[0]);
    forLanes(M, [&](unsigned L) { D[L] = P; });
    return;
  }
  bool R;
  switch (I.Sub) {
  case 0: R = P == V; break;
  case 1: R = P != 0; break;
  default: R = P == 0 || P == V; break;
  }
  setPred(S.Preds[I.A[0]], M, R ? ~0u : 0u);
}

/// match: Sub 0 any, 1 all; Aux bytes (4/8). A[0] d, A[1] p (~0u), A[2] a,
/// A[3] membermask.
void hMatch(ExecState &S, const Inst &I, uint32_t M) {
  uint32_t V = memberMask(S, M, I.A[3]);
  const uint64_t *A = S.reg(I.A[2]);
  uint64_t Msk = I.Aux == 4 ? 0xffffffffull : ~0ull;
  uint64_t *D = S.reg(I.A[0]);
  if (I.Sub == 0) {
    uint64_t Res[32];
    forLanes(M, [&](unsigned L) {
      uint32_t R = 0;
      forLanes(V, [&](unsigned K) {
        if ((A[K] & Msk) == (A[L] & Msk))
          R |= 1u << K;
      });
      Res[L] = R;
    });
    forLanes(M, [&](unsigned L) { D[L] = Res[L]; });
    return;
  }
  bool All = true;
  uint64_t First = A[__builtin_ctz(V ? V : M)] & Msk;
  forLanes(V, [&](unsigned K) {
    if ((A[K] & Msk) != First)
      All = false;
  });
  forLanes(M, [&](unsigned L) { D[L] = All ? V : 0; });
  if (I.A[1] != ~0u)
    setPred(S.Preds[I.A[1]], M, All ? ~0u : 0u);
}

/// redux.sync: Sub 0 add, 1 min, 2 max, 3 and, 4 or, 5 xor; Aux 1 signed.
/// A[0] d, A[1] a, A[2] membermask.
void hRedux(ExecState &S, const Inst &I, uint32_t M) {
  uint32_t V = memberMask(S, M, I.A[2]);
  const uint64_t *A = S.reg(I.A[1]);
  bool Signed = I.Aux == 1;
  uint32_t R = 0;
  bool First = true;
  forLanes(V, [&](unsigned L) {
    uint32_t X = uint32_t(A[L]);
    if (First) {
      R = X;
      First = false;
      return;
    }
    switch (I.Sub) {
    case 0: R += X; break;
    case 1: R = Signed ? uint32_t(std::min(int32_t(R), int32_t(X))) : std::min(R, X); break;
    case 2: R = Signed ? uint32_t(std::max(int32_t(R), int32_t(X))) : std::max(R, X); break;
    case 3: R &= X; break;
    case 4: R |= X; break;
    default: R ^= X; break;
    }
  });
  uint64_t *D = S.reg(I.A[0]);
  forLanes(M, [&](unsigned L) { D[L] = R; });
}

void hActiveMask(ExecState &S, const Inst &I, uint32_t M) {
  uint64_t *D = S.reg(I.A[0]);
  uint32_t A = S.ActiveMask;
  forLanes(M, [&](unsigned L) { D[L] = A; });
}

/// elect.sync d|p, membermask. A[0] d, A[1] p, A[2] membermask.
void hElect(ExecState &S, const Inst &I, uint32_t M) {
  uint32_t V = memberMask(S, M, I.A[2]);
  unsigned Leader = V ? unsigned(__builtin_ctz(V)) : 0;
  uint64_t *D = S.reg(I.A[0]);
  forLanes(M, [&](unsigned L) { D[L] = Leader; });
  if (I.A[1] != ~0u)
    setPred(S.Preds[I.A[1]], M, V ? (1u << Leader) : 0u);
}

void hWarpNop(ExecState &, const Inst &, uint32_t) {}

} // namespace

bool decodeWarpInst(DecodeCtx &C, Inst &I) {
  std::string_view B = C.Base;
  Mods &M = C.M;
  if (B == "shfl") {
    bool Sync = M.take("sync");
    int Mode = M.takeOneOf({"up", "down", "bfly", "idx"});
    Type T = M.takeType();
    if (Mode < 0 || T != Type::B32)
      return C.unsupported(), true;
    if (!C.wantOps(Sync ? 5 : 4))
      return true;
    static const Handler H[4] = {&hShfl<0>, &hShfl<1>, &hShfl<2>, &hShfl<3>};
    I.Fn = H[Mode];
    I.A[0] = C.dst(0);
    I.A[1] = C.op(0).Text2.empty() ? ~0u : [&] {
      ptx::Operand Q;
      Q.Text = C.op(0).Text2;
      return C.pred(Q);
    }();
    I.A[2] = C.src(1, T);
    I.A[3] = C.src(2, Type::U32);
    I.A[4] = C.src(3, Type::U32);
    I.Class = uint8_t(InstClass::Other);
    C.finish();
    return true;
  }
  if (B == "vote") {
    bool Sync = M.take("sync");
    int Mode = M.takeOneOf({"all", "any", "uni", "ballot"});
    Type T = M.takeType();
    if (Mode < 0 || (Mode == 3 ? T != Type::B32 : T != Type::Pred))
      return C.unsupported(), true;
    if (!C.wantOps(Sync ? 3 : 2))
      return true;
    I.Fn = &hVote;
    I.Sub = uint8_t(Mode);
    I.A[0] = Mode == 3 ? C.dst(0) : C.pred(0);
    I.A[1] = C.predSrc(C.op(1));
    if (C.op(1).Neg)
      I.Imm |= 1;
    I.A[2] = Sync ? C.src(2, Type::B32) : C.constSlot(0xffffffffu);
    I.Class = uint8_t(InstClass::Other);
    C.finish();
    return true;
  }
  if (B == "match") {
    int Mode = M.takeOneOf({"any", "all"});
    M.take("sync");
    Type T = M.takeType();
    if (Mode < 0 || (T != Type::B32 && T != Type::B64))
      return C.unsupported(), true;
    if (!C.wantOps(3))
      return true;
    I.Fn = &hMatch;
    I.Sub = uint8_t(Mode);
    I.Aux = ptx::typeSize(T);
    I.A[0] = C.dst(0);
    I.A[1] = C.op(0).Text2.empty() ? ~0u : [&] {
      ptx::Operand Q;
      Q.Text = C.op(0).Text2;
      return C.pred(Q);
    }();
    I.A[2] = C.src(1, T);
    I.A[3] = C.src(2, Type::B32);
    I.Class = uint8_t(InstClass::Other);
    C.finish();
    return true;
  }
  if (B == "redux") {
    M.take("sync");
    int Op = M.takeOneOf({"add", "min", "max", "and", "or", "xor"});
    Type T = M.takeType();
    if (Op < 0 || (Op <= 2 ? (T != Type::U32 && T != Type::S32) : T != Type::B32))
      return C.unsupported(), true;
    if (!C.wantOps(3))
      return true;
    I.Fn = &hRedux;
    I.Sub = uint8_t(Op);
    I.Aux = T == Type::S32 ? 1 : 0;
    I.A[0] = C.dst(0);
    I.A[1] = C.src(1, T);
    I.A[2] = C.src(2, Type::B32);
    I.Class = uint8_t(InstClass::Other);
    C.finish();
    return true;
  }
  if (B == "activemask") {
    M.takeType();
    if (!C.wantOps(1))
      return true;
    I.Fn = &hActiveMask;
    I.A[0] = C.dst(0);
    I.Class = uint8_t(InstClass::Other);
    C.finish();
    return true;
  }
  if (B == "elect") {
    M.take("sync");
    if (!C.wantOps(2))
      return true;
    I.Fn = &hElect;
    I.A[0] = C.dst(0);
    I.A[1] = C.op(0).Text2.empty() ? ~0u : [&] {
      ptx::Operand Q;
      Q.Text = C.op(0).Text2;
      return C.pred(Q);
    }();
    I.A[2] = C.src(1, Type::B32);
    I.Class = uint8_t(InstClass::Other);
    C.finish();
    return true;
  }
  if (B == "bar" || B == "barrier") {
    M.take("cta");
    if (M.take("warp")) {
      // bar.warp.sync membermask: lockstep warps are always converged.
      M.take("sync");
      I.Fn = &hWarpNop;
      I.Class = uint8_t(InstClass::Barrier);
      C.finish();
      return true;
    }
    if (M.take("cluster"))
      return C.unsupported("cluster barriers"), true;
    BarKind K;
    bool Red = false;
    if (M.take("sync") || (B == "bar" && M.Parts.empty())) {
      K = BarKind::Sync;
    } else if (M.take("arrive")) {
      K = BarKind::Arrive;
    } else if (M.take("red")) {
      Red = true;
      int Op = M.takeOneOf({"popc", "and", "or"});
      if (Op < 0)
        return C.unsupported(), true;
      K = Op == 0 ? BarKind::RedPopc : Op == 1 ? BarKind::RedAnd : BarKind::RedOr;
      Type T = M.takeType();
      if ((Op == 0 && T != Type::U32) || (Op > 0 && T != Type::Pred))
        return C.unsupported(), true;
    } else {
      return C.unsupported(), true;
    }
    M.take("aligned");
    unsigned N = C.numOps();
    unsigned First = Red ? 1 : 0;
    unsigned Need = First + (Red ? 1 : 0) + 1;
    if (N < Need || N > Need + 1)
      return C.invalid("wrong number of operands"), true;
    I.Kind = InstKind::Bar;
    I.Aux = unsigned(K);
    I.A[0] = C.src(First, Type::U32);
    bool HasCount = N == Need + 1;
    I.A[1] = HasCount ? C.src(First + 1, Type::U32) : ~0u;
    if (K == BarKind::Arrive && !HasCount)
      return C.invalid("bar.arrive needs a thread count"), true;
    if (Red) {
      I.A[2] = K == BarKind::RedPopc ? C.dst(0) : C.pred(0);
      const ptx::Operand &P = C.op(N - 1);
      I.A[3] = C.predSrc(P);
      if (P.Neg)
        I.Imm |= 1;
    }
    I.Class = uint8_t(InstClass::Barrier);
    C.finish();
    return true;
  }
  if (B == "membar" || B == "fence") {
    I.Fn = &hWarpNop;
    I.Class = uint8_t(InstClass::Barrier);
    return true;
  }
  if (B == "nanosleep" || B == "pmevent" || B == "griddepcontrol" ||
      B == "setmaxnreg") {
    I.Fn = &hWarpNop;
    I.Class = uint8_t(InstClass::Other);
    return true;
  }
  return false;
}

} // namespace klaraptor::emu
