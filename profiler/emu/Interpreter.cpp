//===- Interpreter.cpp - SIMT execution of a KernelProgram ----------------===//
///
/// \file
/// The warp loop, the SIMT stack (divergence, reconvergence, calls,
/// exit/ret of some lanes), barriers, block scheduling, host threads and
/// sampling. See Interpreter.h for the model.
//===----------------------------------------------------------------------===//
#include "Interpreter.h"
#include "ModuleImpl.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace klaraptor::emu {

namespace {
struct DeviceHeap {
  std::mutex M;
  std::map<uint64_t, uint64_t> Blocks; ///< address -> size
};
DeviceHeap &deviceHeap() {
  static DeviceHeap *H = new DeviceHeap; // used until the process ends
  return *H;
}
} // namespace

void deviceHeapAdd(uint64_t Address, uint64_t Size) {
  DeviceHeap &H = deviceHeap();
  std::lock_guard<std::mutex> G(H.M);
  H.Blocks[Address] = Size;
}

bool deviceHeapRemove(uint64_t Address) {
  DeviceHeap &H = deviceHeap();
  std::lock_guard<std::mutex> G(H.M);
  return H.Blocks.erase(Address) != 0;
}

bool deviceHeapFind(uint64_t Address, uint64_t Bytes, uint64_t &Begin,
                    uint64_t &End) {
  DeviceHeap &H = deviceHeap();
  std::lock_guard<std::mutex> G(H.M);
  auto It = H.Blocks.upper_bound(Address);
  if (It == H.Blocks.begin())
    return false;
  --It;
  if (!(Bytes <= It->second && Address - It->first <= It->second - Bytes))
    return false;
  Begin = It->first;
  End = It->first + It->second;
  return true;
}

void throwFault(const Inst &I, LaunchStatus S, const std::string &Msg) {
  throw EmuFault{S, Msg, I.Line};
}

namespace {

/// Instructions a warp runs before the scheduler moves on (lets spinning
/// warps of a block make progress together).
constexpr uint64_t SliceBudget = 1u << 16;

struct AlignedFree {
  void operator()(void *P) const { std::free(P); }
};
using AlignedBuf = std::unique_ptr<uint8_t, AlignedFree>;

AlignedBuf alignedAlloc(size_t Bytes) {
  void *P = nullptr;
  if (posix_memalign(&P, 128, std::max<size_t>(Bytes, 128)) != 0)
    return nullptr;
  return AlignedBuf(static_cast<uint8_t *>(P));
}

class Worker {
public:
  explicit Worker(LaunchCtx &L);
  void runBlock(uint64_t Linear);
  Counters C;
  WriteLog Written; ///< pages written (LaunchCtx::TrackWrites)

private:
  LaunchCtx &L;
  const KernelProgram &P;
  std::vector<uint64_t> RegFile;
  std::vector<uint32_t> PredFile;
  AlignedBuf SharedBuf, LocalBuf;
  BlockCtx B;
  ExecState S;
  bool UsesFrameSlot;

  void fillSlot(WarpCtx &W, uint32_t Slot, uint64_t V) {
    uint64_t *R = W.Regs + size_t(Slot) * 32;
    for (unsigned K = 0; K < 32; ++K)
      R[K] = V;
  }
  bool used(uint32_t Slot) const {
    return (P.SpecialsUsed >> Slot) & 1;
  }
  template <bool Traced> void runWarp(WarpCtx &W);
  /// The current block's trace buffers (one per warp), or null.
  std::vector<TraceEvent> *Trace = nullptr;
  /// Its sector buffers (one per warp), or null.
  std::vector<uint64_t> *Sectors = nullptr;
  void settle(WarpCtx &W);
  void exitLanes(WarpCtx &W, uint32_t G);
  void retLanes(WarpCtx &W, uint32_t G);
  void doCall(WarpCtx &W, const Inst &I, uint32_t G, uint32_t Pc);
  void completeCall(WarpCtx &W);
  void doBuiltin(WarpCtx &W, const Inst &I, const CallSite &CS, uint32_t G);
  void arrive(WarpCtx &W, const Inst &I, uint32_t G);
  bool releaseBarriers();
  void setFrame(WarpCtx &W, uint32_t Frame) {
    W.FrameBase = Frame;
    if (UsesFrameSlot)
      fillSlot(W, SlotFrame, Frame);
  }
  uint64_t readArg(WarpCtx &W, const ArgCopy &A, unsigned Lane);
};

Worker::Worker(LaunchCtx &L) : L(L), P(*L.P) {
  uint32_t NW = L.WarpsPerBlock;
  RegFile.assign(size_t(NW) * P.NumSlots * 32, 0);
  PredFile.assign(size_t(NW) * std::max<uint32_t>(P.NumPreds, 1), 0);
  SharedBuf = alignedAlloc(L.SharedBytes);
  uint64_t Stride = std::max<uint64_t>(P.StackBytes, 16);
  LocalBuf = alignedAlloc(size_t(Stride) * L.ThreadsPerBlock);
  UsesFrameSlot = used(SlotFrame);
  S.Shared = SharedBuf.get();
  S.SharedSize = L.SharedBytes;
  S.Local = LocalBuf.get();
  S.LocalStride = Stride;
  S.LocalSize = Stride * L.ThreadsPerBlock;
  S.C = &C;
  S.Collect = L.Collect;
  S.Written = L.TrackWrites ? &Written : nullptr;
  S.P = &P;
  S.B = &B;
  S.L = &L;
  B.Warps.resize(NW);
  for (uint32_t WI = 0; WI < NW; ++WI) {
    WarpCtx &W = B.Warps[WI];
    W.Index = WI;
    W.Regs = RegFile.data() + size_t(WI) * P.NumSlots * 32;
    W.Preds = PredFile.data() + size_t(WI) * std::max<uint32_t>(P.NumPreds, 1);
    uint32_t First = WI * 32;
    uint32_t N = std::min<uint32_t>(32, L.ThreadsPerBlock - First);
    W.Live = N == 32 ? ~0u : ((1u << N) - 1);
    // Immediates.
    for (size_t K = 0; K < P.ConstValues.size(); ++K)
      fillSlot(W, P.ConstBase + uint32_t(K), P.ConstValues[K]);
    // Special registers that do not change between blocks.
    fillSlot(W, SlotZero, 0);
    for (unsigned Ln = 0; Ln < 32; ++Ln) {
      uint32_t T = First + Ln;
      W.Regs[SlotTidX * 32 + Ln] = T % L.Block.X;
      W.Regs[SlotTidY * 32 + Ln] = (T / L.Block.X) % L.Block.Y;
      W.Regs[SlotTidZ * 32 + Ln] = T / (L.Block.X * L.Block.Y);
      W.Regs[SlotLaneId * 32 + Ln] = Ln;
      W.Regs[SlotLaneMaskEq * 32 + Ln] = 1u << Ln;
      W.Regs[SlotLaneMaskLt * 32 + Ln] = (1u << Ln) - 1;
      W.Regs[SlotLaneMaskLe * 32 + Ln] = uint32_t((2ull << Ln) - 1);
      W.Regs[SlotLaneMaskGt * 32 + Ln] = uint32_t(~((2ull << Ln) - 1));
      W.Regs[SlotLaneMaskGe * 32 + Ln] = ~((1u << Ln) - 1);
    }
    fillSlot(W, SlotNTidX, L.Block.X);
    fillSlot(W, SlotNTidY, L.Block.Y);
    fillSlot(W, SlotNTidZ, L.Block.Z);
    fillSlot(W, SlotNCtaIdX, L.Grid.X);
    fillSlot(W, SlotNCtaIdY, L.Grid.Y);
    fillSlot(W, SlotNCtaIdZ, L.Grid.Z);
    fillSlot(W, SlotWarpId, WI);
    fillSlot(W, SlotNWarpId, 64);
    fillSlot(W, SlotSmId, 0);
    fillSlot(W, SlotNSmId, 1);
    fillSlot(W, SlotGridId, L.GridId);
    fillSlot(W, SlotDynSmem, L.DynSharedBytes);
    fillSlot(W, SlotTotalSmem, L.SharedBytes);
    fillSlot(W, SlotClusterCtaRank, 0);
    fillSlot(W, SlotClusterNCtaRank, 1);
    fillSlot(W, SlotIsExplicitCluster, 0);
    fillSlot(W, SlotParamBase, uint64_t(L.ParamBuf.data()));
    fillSlot(W, SlotFrame, 0);
    W.Preds[P.PredTrue] = ~0u;
    W.Preds[P.PredFalse] = 0;
  }
}

//===----------------------------------------------------------------------===//
// SIMT stack
//===----------------------------------------------------------------------===//

void Worker::exitLanes(WarpCtx &W, uint32_t G) {
  W.Exited |= G;
  for (StackEntry &E : W.Stack)
    E.Mask &= ~G;
}

void Worker::retLanes(WarpCtx &W, uint32_t G) {
  if (W.Calls.empty()) {
    exitLanes(W, G);
    return;
  }
  // Entries above the innermost frame marker belong to the callee.
  size_t K = W.Stack.size();
  while (K > 0 && W.Stack[K - 1].Call == ~0u) {
    W.Stack[K - 1].Mask &= ~G;
    --K;
  }
}

void Worker::settle(WarpCtx &W) {
  for (;;) {
    if (W.Stack.empty()) {
      W.St = WarpCtx::Done;
      return;
    }
    StackEntry &T = W.Stack.back();
    if (T.Call != ~0u) {
      completeCall(W);
      continue;
    }
    if (T.Mask == 0 || T.Pc == T.Rpc) {
      W.Stack.pop_back();
      continue;
    }
    if (T.Pc == NoPc)
      throw EmuFault{LaunchStatus::Internal,
                     "internal error: active lanes without a reconvergence point", 0};
    return;
  }
}

uint64_t Worker::readArg(WarpCtx &W, const ArgCopy &A, unsigned Lane) {
  if (A.K == ArgCopy::Slot)
    return W.Regs[size_t(A.Src) * 32 + Lane];
  uint64_t V = 0;
  std::memcpy(&V, S.localBase(Lane) + W.FrameBase + A.Src, std::min<uint32_t>(A.Size, 8));
  return V;
}

void Worker::doCall(WarpCtx &W, const Inst &I, uint32_t G, uint32_t Pc) {
  const CallSite &CS = P.Calls[I.Aux];
  W.Stack.back().Pc = Pc + 1;
  if (CS.B != Builtin::None) {
    doBuiltin(W, I, CS, G);
    return;
  }
  uint32_t Callee = CS.Callee;
  if (CS.Indirect) {
    const uint64_t *T = W.Regs + size_t(CS.TargetSlot) * 32;
    uint64_t Tag = T[__builtin_ctz(G)];
    forLanes(G, [&](unsigned Ln) {
      if (T[Ln] != Tag)
        throwFault(I, LaunchStatus::UnsupportedInstruction,
                   "indirect call with different targets in one warp");
    });
    Callee = ~0u;
    for (uint32_t F = 0; F < P.Funcs.size(); ++F)
      if (P.Funcs[F].AddressTag == Tag)
        Callee = F;
    if (Callee == ~0u)
      throwFault(I, LaunchStatus::MemoryFault, "indirect call to an invalid function address");
  }
  const FunctionInfo &FC = P.Funcs[Callee];
  if (CS.Indirect && CS.Args.size() != FC.ParamOff.size())
    throwFault(I, LaunchStatus::Trap, "indirect call of '" + FC.Name +
                                          "' with the wrong number of arguments");
  uint32_t CallerFrame = W.FrameBase;
  uint32_t NewFrame = CallerFrame + P.Funcs[I.Func].FrameSize;
  if (uint64_t(NewFrame) + FC.FrameSize > S.LocalStride)
    throwFault(I, LaunchStatus::Trap,
               "stack overflow calling '" + FC.Name + "' (" +
                   std::to_string(S.LocalStride) + " bytes per thread)");
  CallRecord R;
  R.Site = I.Aux;
  R.Callee = Callee;
  R.CallerFrame = CallerFrame;
  R.CalleeFrame = NewFrame;
  R.SaveAt = ~0u;
  R.SavePredAt = ~0u;
  if (FC.Recursive) {
    R.SaveAt = uint32_t(W.SavedRegs.size());
    W.SavedRegs.insert(W.SavedRegs.end(), W.Regs + size_t(FC.RegBegin) * 32,
                       W.Regs + size_t(FC.RegEnd) * 32);
    R.SavePredAt = uint32_t(W.SavedPreds.size());
    W.SavedPreds.insert(W.SavedPreds.end(), W.Preds + FC.PredBegin,
                        W.Preds + FC.PredEnd);
  }
  // Arguments: caller .param variables (or registers) to the callee's
  // formal parameters, lane by lane.
  for (size_t K = 0; K < CS.Args.size(); ++K) {
    const ArgCopy &A = CS.Args[K];
    uint32_t Idx = A.Dst;
    uint32_t Size = FC.ParamSize[Idx];
    if (FC.ParamSlot[Idx] != ~0u) {
      uint64_t *D = W.Regs + size_t(FC.ParamSlot[Idx]) * 32;
      forLanes(G, [&](unsigned Ln) {
        uint64_t V = readArg(W, A, Ln);
        D[Ln] = Size >= 8 ? V : (V & ((uint64_t(1) << (8 * Size)) - 1));
      });
      continue;
    }
    forLanes(G, [&](unsigned Ln) {
      uint8_t *Dst = S.localBase(Ln) + NewFrame + FC.ParamOff[Idx];
      if (A.K == ArgCopy::FrameVar) {
        std::memcpy(Dst, S.localBase(Ln) + CallerFrame + A.Src, std::min(A.Size, Size));
      } else {
        uint64_t V = W.Regs[size_t(A.Src) * 32 + Ln];
        std::memcpy(Dst, &V, std::min<uint32_t>(Size, 8));
      }
    });
  }
  W.Calls.push_back(R);
  W.Stack.push_back({Pc + 1, NoPc, G, uint32_t(W.Calls.size() - 1)});
  W.Stack.push_back({FC.EntryPc, NoPc, G, ~0u});
  setFrame(W, NewFrame);
}

void Worker::completeCall(WarpCtx &W) {
  StackEntry Marker = W.Stack.back();
  CallRecord R = W.Calls.back();
  const CallSite &CS = P.Calls[R.Site];
  const FunctionInfo &FC = P.Funcs[R.Callee];
  uint32_t Lanes = Marker.Mask;
  // Results, read before the callee's registers are restored.
  uint64_t Vals[4][32];
  size_t NR = std::min<size_t>(CS.Rets.size(), 4);
  for (size_t K = 0; K < NR; ++K) {
    const ArgCopy &A = CS.Rets[K];
    uint32_t Idx = A.Src;
    if (A.K == ArgCopy::FrameVar && FC.RetSlot[Idx] == ~0u)
      continue; // frame to frame below
    forLanes(Lanes, [&](unsigned Ln) {
      if (FC.RetSlot[Idx] != ~0u) {
        Vals[K][Ln] = W.Regs[size_t(FC.RetSlot[Idx]) * 32 + Ln];
      } else {
        uint64_t V = 0;
        std::memcpy(&V, S.localBase(Ln) + R.CalleeFrame + FC.RetOff[Idx],
                    std::min<uint32_t>(FC.RetSize[Idx], 8));
        Vals[K][Ln] = V;
      }
    });
  }
  if (R.SaveAt != ~0u) {
    std::copy(W.SavedRegs.begin() + R.SaveAt, W.SavedRegs.end(),
              W.Regs + size_t(FC.RegBegin) * 32);
    W.SavedRegs.resize(R.SaveAt);
    std::copy(W.SavedPreds.begin() + R.SavePredAt, W.SavedPreds.end(),
              W.Preds + FC.PredBegin);
    W.SavedPreds.resize(R.SavePredAt);
  }
  for (size_t K = 0; K < CS.Rets.size(); ++K) {
    const ArgCopy &A = CS.Rets[K];
    uint32_t Idx = A.Src;
    forLanes(Lanes, [&](unsigned Ln) {
      if (A.K == ArgCopy::FrameVar) {
        uint8_t *Dst = S.localBase(Ln) + R.CallerFrame + A.Dst;
        if (FC.RetSlot[Idx] == ~0u)
          std::memcpy(Dst, S.localBase(Ln) + R.CalleeFrame + FC.RetOff[Idx],
                      std::min(A.Size, FC.RetSize[Idx]));
        else if (K < 4)
          std::memcpy(Dst, &Vals[K][Ln], std::min<uint32_t>(A.Size, 8));
      } else if (K < 4) {
        uint64_t V = Vals[K][Ln];
        W.Regs[size_t(A.Dst) * 32 + Ln] =
            A.Size >= 8 ? V : (V & ((uint64_t(1) << (8 * A.Size)) - 1));
      }
    });
  }
  W.Calls.pop_back();
  W.Stack.pop_back();
  setFrame(W, R.CallerFrame);
}

/// vprintf(format, args) for one lane: the CUDA device printf ABI (the
/// arguments packed with natural alignment, floats promoted to double).
std::string formatPrintf(const char *Fmt, const uint8_t *Args) {
  std::string Out;
  size_t Off = 0;
  auto take = [&](size_t Size) {
    Off = (Off + Size - 1) / Size * Size;
    uint64_t V = 0;
    if (Args)
      std::memcpy(&V, Args + Off, Size);
    Off += Size;
    return V;
  };
  for (const char *P = Fmt; *P; ++P) {
    if (*P != '%') {
      Out += *P;
      continue;
    }
    if (P[1] == '%') {
      Out += '%';
      ++P;
      continue;
    }
    std::string Spec = "%";
    ++P;
    while (*P && std::strchr("-+ #0", *P))
      Spec += *P++;
    while (*P && ((*P >= '0' && *P <= '9') || *P == '.' || *P == '*'))
      Spec += *P++;
    int Long = 0;
    bool Half = false;
    while (*P && std::strchr("hlLqjzt", *P)) {
      if (*P == 'l' || *P == 'L' || *P == 'q' || *P == 'j' || *P == 'z' || *P == 't')
        ++Long;
      else
        Half = true;
      ++P;
    }
    (void)Half;
    char Conv = *P;
    if (!Conv)
      break;
    char Buf[512];
    switch (Conv) {
    case 'd': case 'i': {
      int64_t V = Long ? int64_t(take(8)) : int64_t(int32_t(uint32_t(take(4))));
      std::snprintf(Buf, sizeof(Buf), (Spec + "lld").c_str(), (long long)V);
      break;
    }
    case 'u': case 'x': case 'X': case 'o': case 'c': {
      uint64_t V = Long ? take(8) : uint64_t(uint32_t(take(4)));
      if (Conv == 'c')
        std::snprintf(Buf, sizeof(Buf), (Spec + "c").c_str(), int(V));
      else
        std::snprintf(Buf, sizeof(Buf), (Spec + "ll" + Conv).c_str(), (unsigned long long)V);
      break;
    }
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
      uint64_t V = take(8);
      double D;
      std::memcpy(&D, &V, 8);
      std::snprintf(Buf, sizeof(Buf), (Spec + Conv).c_str(), D);
      break;
    }
    case 's': {
      const char *Str = reinterpret_cast<const char *>(take(8));
      std::snprintf(Buf, sizeof(Buf), (Spec + "s").c_str(), Str ? Str : "(null)");
      break;
    }
    case 'p': {
      uint64_t V = take(8);
      std::snprintf(Buf, sizeof(Buf), "%p", reinterpret_cast<void *>(V));
      break;
    }
    default:
      Buf[0] = '%';
      Buf[1] = Conv;
      Buf[2] = 0;
      break;
    }
    Out += Buf;
  }
  return Out;
}

void Worker::doBuiltin(WarpCtx &W, const Inst &I, const CallSite &CS, uint32_t G) {
  auto arg = [&](size_t K, unsigned Ln) -> uint64_t {
    return K < CS.Args.size() ? readArg(W, CS.Args[K], Ln) : 0;
  };
  auto ret = [&](unsigned Ln, uint64_t V) {
    if (CS.Rets.empty())
      return;
    const ArgCopy &A = CS.Rets[0];
    if (A.K == ArgCopy::FrameVar)
      std::memcpy(S.localBase(Ln) + W.FrameBase + A.Dst, &V, std::min<uint32_t>(A.Size, 8));
    else
      W.Regs[size_t(A.Dst) * 32 + Ln] = V;
  };
  switch (CS.B) {
  case Builtin::Vprintf: {
    std::string All;
    forLanes(G, [&](unsigned Ln) {
      const char *Fmt = reinterpret_cast<const char *>(arg(0, Ln));
      const uint8_t *Args = reinterpret_cast<const uint8_t *>(arg(1, Ln));
      All += formatPrintf(Fmt ? Fmt : "", Args);
      ret(Ln, 0);
    });
    std::lock_guard<std::mutex> Lock(L.PrintMutex);
    std::fwrite(All.data(), 1, All.size(), stdout);
    std::fflush(stdout);
    break;
  }
  case Builtin::Malloc:
    forLanes(G, [&](unsigned Ln) {
      uint64_t Size = arg(0, Ln);
      void *Ptr = nullptr;
      if (posix_memalign(&Ptr, 16, std::max<uint64_t>(Size, 16)) != 0)
        Ptr = nullptr;
      if (Ptr)
        deviceHeapAdd(uint64_t(Ptr), std::max<uint64_t>(Size, 1));
      ret(Ln, uint64_t(Ptr));
    });
    break;
  case Builtin::Free:
    forLanes(G, [&](unsigned Ln) {
      if (deviceHeapRemove(arg(0, Ln)))
        std::free(reinterpret_cast<void *>(arg(0, Ln)));
    });
    break;
  case Builtin::AssertFail: {
    unsigned Ln = unsigned(__builtin_ctz(G));
    const char *Msg = reinterpret_cast<const char *>(arg(0, Ln));
    const char *File = reinterpret_cast<const char *>(arg(1, Ln));
    uint32_t Line = uint32_t(arg(2, Ln));
    const char *Fn = reinterpret_cast<const char *>(arg(3, Ln));
    throwFault(I, LaunchStatus::Trap,
               std::string("assertion '") + (Msg ? Msg : "?") + "' failed at " +
                   (File ? File : "?") + ":" + std::to_string(Line) + " in '" +
                   (Fn ? Fn : "?") + "'");
  }
  case Builtin::None:
    break;
  }
}

//===----------------------------------------------------------------------===//
// Barriers
//===----------------------------------------------------------------------===//

void Worker::arrive(WarpCtx &W, const Inst &I, uint32_t G) {
  unsigned First = unsigned(__builtin_ctz(G));
  uint32_t Id = uint32_t(W.Regs[size_t(I.A[0]) * 32 + First]);
  if (Id > 15)
    throwFault(I, LaunchStatus::Trap, "barrier id " + std::to_string(Id) + " out of range");
  BarrierState &Bar = B.Bars[Id];
  uint32_t Expect = 0;
  if (I.A[1] != ~0u) {
    uint32_t Count = uint32_t(W.Regs[size_t(I.A[1]) * 32 + First]);
    if (Count == 0 || Count % 32 != 0)
      throwFault(I, LaunchStatus::Trap,
                 "barrier thread count " + std::to_string(Count) +
                     " is not a positive multiple of 32");
    Expect = Count / 32;
  }
  if (Bar.ArrivedWarps == 0) {
    Bar.Expected = Expect;
    Bar.Popc = 0;
    Bar.AllTrue = true;
    Bar.AnyTrue = false;
    Bar.Reduce = false;
  }
  ++Bar.ArrivedWarps;
  BarKind K = BarKind(I.Aux);
  if (K == BarKind::RedPopc || K == BarKind::RedAnd || K == BarKind::RedOr) {
    uint32_t Pv = (W.Preds[I.A[3]] ^ ((I.Imm & 1) ? ~0u : 0u)) & G;
    Bar.Popc += popc32(Pv);
    Bar.AllTrue = Bar.AllTrue && Pv == G;
    Bar.AnyTrue = Bar.AnyTrue || Pv != 0;
    Bar.Reduce = true;
    W.RedDst = I.A[2];
    W.RedMask = G;
  }
  if (K == BarKind::Arrive)
    return;
  W.St = WarpCtx::Waiting;
  W.WaitKind = K;
  W.BarId = uint8_t(Id);
  Bar.Waiters.push_back(W.Index);
}

bool Worker::releaseBarriers() {
  bool Released = false;
  uint32_t Live = 0;
  for (const WarpCtx &W : B.Warps)
    Live += W.St != WarpCtx::Done;
  for (BarrierState &Bar : B.Bars) {
    if (Bar.ArrivedWarps == 0)
      continue;
    uint32_t Need = Bar.Expected ? Bar.Expected : Live;
    if (Bar.ArrivedWarps < Need)
      continue;
    for (uint32_t WI : Bar.Waiters) {
      WarpCtx &W = B.Warps[WI];
      W.St = WarpCtx::Ready;
      if (W.WaitKind == BarKind::RedPopc) {
        uint64_t *D = W.Regs + size_t(W.RedDst) * 32;
        forLanes(W.RedMask, [&](unsigned Ln) { D[Ln] = Bar.Popc; });
      } else if (W.WaitKind == BarKind::RedAnd || W.WaitKind == BarKind::RedOr) {
        bool V = W.WaitKind == BarKind::RedAnd ? Bar.AllTrue : Bar.AnyTrue;
        uint32_t &Pd = W.Preds[W.RedDst];
        Pd = (Pd & ~W.RedMask) | (V ? W.RedMask : 0);
      }
    }
    Bar.Waiters.clear();
    Bar.ArrivedWarps = 0;
    Released = true;
  }
  return Released;
}

//===----------------------------------------------------------------------===//
// The warp loop
//===----------------------------------------------------------------------===//

namespace {
/// Memory counters a traced instruction may move.
struct MemSnap {
  uint64_t GReq, GSec, SReq, SConf;
  explicit MemSnap(const Counters &C)
      : GReq(C.GLdReq + C.GStReq + C.GAtReq),
        GSec(C.GLdSec + C.GStSec + C.GAtSec), SReq(C.SLdReq + C.SStReq),
        SConf(C.SConflicts) {}
};
} // namespace

template <bool Traced> void Worker::runWarp(WarpCtx &W) {
  S.W = &W;
  S.Regs = W.Regs;
  S.Preds = W.Preds;
  S.WarpThreadBase = W.Index * 32;
  settle(W);
  if (W.St != WarpCtx::Ready)
    return;
  const Inst *Code = P.Code.data();
  Counters &Cn = C;
  uint64_t Budget = SliceBudget;
  StackEntry *Top = &W.Stack.back();
  uint32_t Pc = Top->Pc, M = Top->Mask, Rpc = Top->Rpc;
  uint64_t PopM = popc32(M);
  for (;;) {
    const Inst &I = Code[Pc];
    uint32_t G = M;
    if (I.Guard >= 0)
      G &= W.Preds[I.Guard] ^ I.GuardXor;
    ++Cn.WarpInst[I.Class];
    Cn.ThreadInst += PopM;
    if (__builtin_expect(I.Kind == InstKind::Op, 1)) {
      if constexpr (Traced) {
        TraceEvent E;
        E.Pc = Pc;
        E.Active = G;
        if (G) {
          MemSnap Before(Cn);
          S.ActiveMask = M;
          S.SectorOut = Sectors ? &Sectors[W.Index] : nullptr;
          I.Fn(S, I, G);
          S.SectorOut = nullptr;
          MemSnap After(Cn);
          InstClass IC = InstClass(I.Class);
          if (After.GReq != Before.GReq) {
            E.Space = TraceSpace::Global;
            E.Units = uint32_t(After.GSec - Before.GSec);
          } else if (After.SReq != Before.SReq ||
                     IC == InstClass::SharedLoad ||
                     IC == InstClass::SharedStore) {
            E.Space = TraceSpace::Shared;
            E.Units = 1 + uint32_t(After.SConf - Before.SConf);
          } else if (IC == InstClass::LocalLoad ||
                     IC == InstClass::LocalStore) {
            // Per-thread local memory is interleaved by 4-byte words: one
            // sector per 8 lanes of a full warp.
            E.Space = TraceSpace::Local;
            E.Units = (popc32(G) + 7) / 8;
          }
        }
        Trace[W.Index].push_back(E);
      } else if (G) {
        S.ActiveMask = M;
        I.Fn(S, I, G);
      }
      ++Pc;
      if (__builtin_expect(Pc != Rpc, 1) && __builtin_expect(--Budget != 0, 1))
        continue;
      Top->Pc = Pc;
      settle(W);
      if (W.St != WarpCtx::Ready || Budget == 0)
        return;
      Top = &W.Stack.back();
      Pc = Top->Pc;
      M = Top->Mask;
      Rpc = Top->Rpc;
      PopM = popc32(M);
      continue;
    }
    if constexpr (Traced) {
      TraceEvent E;
      E.Pc = Pc;
      E.Active = G;
      Trace[W.Index].push_back(E);
    }
    Top->Pc = Pc + 1;
    switch (I.Kind) {
    case InstKind::Bra: {
      ++Cn.Branches;
      uint32_t N = M & ~G;
      if (N == 0) {
        Top->Pc = I.Aux;
      } else if (G != 0) {
        ++Cn.Divergent;
        uint32_t R = I.Aux2;
        if (Top->Rpc == R) {
          // The top entry already ends at R: it would become an entry that
          // pops at once, so reuse it for the fall-through path (keeps
          // divergent loops at constant stack depth).
          if (Pc + 1 == R) {
            Top->Pc = I.Aux;
            Top->Mask = G;
          } else {
            Top->Pc = Pc + 1;
            Top->Mask = N;
            if (I.Aux != R)
              W.Stack.push_back({I.Aux, R, G, ~0u});
          }
        } else {
          Top->Pc = R;
          if (Pc + 1 != R)
            W.Stack.push_back({Pc + 1, R, N, ~0u});
          if (I.Aux != R)
            W.Stack.push_back({I.Aux, R, G, ~0u});
        }
      }
      break;
    }
    case InstKind::Exit:
      if (G)
        exitLanes(W, G);
      break;
    case InstKind::Ret:
      if (G)
        retLanes(W, G);
      break;
    case InstKind::Call:
      if (G)
        doCall(W, I, G, Pc);
      break;
    case InstKind::Bar:
      if (G) {
        arrive(W, I, G);
        if (W.St == WarpCtx::Waiting)
          return;
      }
      break;
    case InstKind::Trap:
      if (G)
        throwFault(I, LaunchStatus::Trap, "trap instruction executed");
      break;
    case InstKind::Unsupported:
      if (G)
        throwFault(I, LaunchStatus::UnsupportedInstruction, P.Messages[I.Aux]);
      break;
    case InstKind::Nop:
    case InstKind::Op:
      break;
    }
    settle(W);
    if (W.St != WarpCtx::Ready || --Budget == 0)
      return;
    Top = &W.Stack.back();
    Pc = Top->Pc;
    M = Top->Mask;
    Rpc = Top->Rpc;
    PopM = popc32(M);
  }
}

void Worker::runBlock(uint64_t Linear) {
  B.Linear = Linear;
  B.Idx.X = uint32_t(Linear % L.Grid.X);
  B.Idx.Y = uint32_t((Linear / L.Grid.X) % L.Grid.Y);
  B.Idx.Z = uint32_t(Linear / (uint64_t(L.Grid.X) * L.Grid.Y));
  for (BarrierState &Bar : B.Bars) {
    Bar.ArrivedWarps = 0;
    Bar.Waiters.clear();
  }
  for (WarpCtx &W : B.Warps) {
    W.Stack.clear();
    W.Calls.clear();
    W.SavedRegs.clear();
    W.SavedPreds.clear();
    W.Stack.push_back({P.Funcs[0].EntryPc, NoPc, W.Live, ~0u});
    W.Exited = 0;
    W.St = WarpCtx::Ready;
    if (used(SlotCtaIdX))
      fillSlot(W, SlotCtaIdX, B.Idx.X);
    if (used(SlotCtaIdY))
      fillSlot(W, SlotCtaIdY, B.Idx.Y);
    if (used(SlotCtaIdZ))
      fillSlot(W, SlotCtaIdZ, B.Idx.Z);
    setFrame(W, 0);
  }
  Trace = L.Trace ? L.Trace->traceBlock(Linear, uint32_t(B.Warps.size()))
                  : nullptr;
  Sectors = Trace ? L.Trace->traceSectors(Linear) : nullptr;
  uint64_t Start = 0;
  if (L.MaxWarpInstructions)
    for (uint64_t X : C.WarpInst)
      Start += X;
  for (;;) {
    bool Ran = false;
    for (WarpCtx &W : B.Warps)
      if (W.St == WarpCtx::Ready) {
        Ran = true;
        if (Trace)
          runWarp<true>(W);
        else
          runWarp<false>(W);
      }
    if (L.MaxWarpInstructions) {
      uint64_t Now = 0;
      for (uint64_t X : C.WarpInst)
        Now += X;
      if (Now - Start > L.MaxWarpInstructions)
        throw EmuFault{LaunchStatus::Trap,
                       "block exceeded the limit of " +
                           std::to_string(L.MaxWarpInstructions) + " warp instructions",
                       0};
    }
    bool Released = releaseBarriers();
    bool AllDone = true;
    for (const WarpCtx &W : B.Warps)
      AllDone = AllDone && W.St == WarpCtx::Done;
    if (AllDone)
      return;
    if (!Ran && !Released) {
      // Every unfinished warp waits at a barrier that cannot complete.
      for (const WarpCtx &W : B.Warps)
        if (W.St == WarpCtx::Waiting) {
          const Inst &I = P.Code[W.Stack.back().Pc - 1];
          uint32_t Live = 0, Arr = B.Bars[W.BarId].ArrivedWarps;
          for (const WarpCtx &X : B.Warps)
            Live += X.St != WarpCtx::Done;
          throwFault(I, LaunchStatus::Trap,
                     "barrier deadlock: " + std::to_string(Arr) + " of " +
                         std::to_string(B.Bars[W.BarId].Expected
                                            ? B.Bars[W.BarId].Expected
                                            : Live) +
                         " warps arrived at barrier " + std::to_string(W.BarId));
        }
      throw EmuFault{LaunchStatus::Internal, "internal error: no warp can run", 0};
    }
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

LaunchResult runLaunch(ModuleImpl &M, const KernelProgram &P,
                       const KernelInfo &KI, const LaunchOptions &O) {
  LaunchResult Res;
  auto invalid = [&](const std::string &Msg) {
    Res.Status = LaunchStatus::InvalidConfiguration;
    Res.Message = Msg + " for kernel '" + P.Name + "'";
    return Res;
  };
  const Dim3 &G = O.Grid, &Bk = O.Block;
  if (G.X == 0 || G.Y == 0 || G.Z == 0 || Bk.X == 0 || Bk.Y == 0 || Bk.Z == 0)
    return invalid("zero grid or block dimension");
  uint64_t Threads = Bk.count();
  uint64_t MaxThreads = O.MaxThreadsPerBlock ? O.MaxThreadsPerBlock : 1024;
  if (Threads > MaxThreads || Bk.X > 1024 || Bk.Y > 1024 || Bk.Z > 64)
    return invalid("block (" + std::to_string(Bk.X) + "," + std::to_string(Bk.Y) +
                   "," + std::to_string(Bk.Z) + ") too large");
  if (G.X > 2147483647u || G.Y > 65535 || G.Z > 65535)
    return invalid("grid too large");
  if (KI.MaxThreads && Threads > KI.MaxThreads)
    return invalid("block of " + std::to_string(Threads) + " threads exceeds .maxntid " +
                   std::to_string(KI.MaxThreads));
  if (KI.ReqNTid[0] && (Bk.X != KI.ReqNTid[0] || Bk.Y != KI.ReqNTid[1] ||
                        Bk.Z != KI.ReqNTid[2]))
    return invalid("block does not match .reqntid");
  uint64_t Shared = uint64_t(P.DynSharedOffset) + O.DynamicSharedBytes;
  if (O.DynamicSharedBytes == 0)
    Shared = P.StaticShared;
  if (O.MaxSharedBytesPerBlock && Shared > O.MaxSharedBytesPerBlock)
    return invalid(std::to_string(Shared) + " bytes of shared memory exceed the limit of " +
                   std::to_string(O.MaxSharedBytesPerBlock));
  if (!P.Error.empty()) {
    Res.Status = P.ErrorStatus;
    Res.Message = P.Error;
    return Res;
  }
  if (!O.Args && !KI.Params.empty()) {
    Res.Status = LaunchStatus::InvalidConfiguration;
    Res.Message = "no arguments given for kernel '" + P.Name + "'";
    return Res;
  }

  LaunchCtx L;
  L.P = &P;
  L.M = &M;
  L.Grid = G;
  L.Block = Bk;
  L.ThreadsPerBlock = uint32_t(Threads);
  L.WarpsPerBlock = uint32_t((Threads + 31) / 32);
  L.SharedBytes = Shared;
  L.DynSharedBytes = uint32_t(O.DynamicSharedBytes);
  L.GridId = M.GridCounter.fetch_add(1);
  L.Collect = O.Metrics != nullptr || O.Trace != nullptr;
  L.Trace = O.Trace;
  L.TrackWrites = O.WrittenPages != nullptr;
  L.MaxWarpInstructions = O.MaxWarpInstructionsPerBlock;
  L.GlobalCheck = O.GlobalCheck;
  L.GlobalCheckUser = O.GlobalCheckUser;
  L.GlobalRanges = O.GlobalRanges;
  L.ConstRanges = M.ConstRanges;
  // Rounded up to 8 bytes, as the parameter space is laid out: a load
  // wider than the last parameter stays inside (zeros); hLdParamK faults
  // on anything beyond.
  L.ParamBuf.assign((std::max<uint64_t>(KI.ParamBytes, 8) + 7) & ~uint64_t(7), 0);
  for (size_t K = 0; K < KI.Params.size(); ++K)
    if (O.Args[K])
      std::memcpy(L.ParamBuf.data() + KI.Params[K].Offset, O.Args[K], KI.Params[K].Size);

  uint64_t Total = G.count();
  std::vector<uint64_t> Blocks;
  bool Sampled = O.SampleBlocks > 0 && O.SampleBlocks < Total;
  uint64_t Count = Total;
  const uint64_t Stride = std::max<uint64_t>(O.BlockStride, 1);
  const bool Strided = !Sampled && O.StridedBlocks > 0;
  uint64_t FirstSetCount = 0;
  if (Strided) {
    Count = FirstSetCount =
        std::min<uint64_t>(O.StridedBlocks, (Total + Stride - 1) / Stride);
    if (O.SecondStride < Total)
      Count += std::min<uint64_t>(
          O.StridedBlocks, (Total - O.SecondStride + Stride - 1) / Stride);
    if (O.ExtraBlocks) {
      // Blocks beyond the strided sets, each once.
      uint64_t StridedCount = Count;
      auto inSets = [&](uint64_t L) {
        if (L % Stride == 0 && L / Stride < FirstSetCount)
          return true;
        return O.SecondStride < Total && L >= O.SecondStride &&
               (L - O.SecondStride) % Stride == 0 &&
               (L - O.SecondStride) / Stride < StridedCount - FirstSetCount;
      };
      for (uint64_t L : *O.ExtraBlocks)
        if (L < Total && !inSets(L))
          Blocks.push_back(L);
      std::sort(Blocks.begin(), Blocks.end());
      Blocks.erase(std::unique(Blocks.begin(), Blocks.end()), Blocks.end());
      Count += Blocks.size();
    }
  }
  if (Sampled) {
    Count = O.SampleBlocks;
    Blocks.resize(Count);
    // Centred systematic sampling: block floor((k + 1/2) * Total / Count).
    for (uint64_t K = 0; K < Count; ++K)
      Blocks[K] = uint64_t(((unsigned __int128)(2 * K + 1) * Total) / (2 * Count));
  }
  unsigned NT = std::max(1u, O.HostThreads);
  NT = unsigned(std::min<uint64_t>(NT, Count));

  std::atomic<uint64_t> Next{0};
  std::atomic<bool> Abort{false};
  std::mutex ErrMu;
  bool Failed = false;
  EmuFault Fault{LaunchStatus::Ok, "", 0};
  Dim3 FaultBlock;
  std::vector<Counters> Totals(NT);
  std::vector<std::vector<uint64_t>> WrittenBy(NT);
  bool WritesLost = false;
  auto work = [&](unsigned T) {
    try {
      Worker W(L);
      for (;;) {
        if (Abort.load(std::memory_order_relaxed))
          break;
        uint64_t K = Next.fetch_add(1);
        if (K >= Count)
          break;
        uint64_t Linear =
            Sampled   ? Blocks[K]
            : Strided ? (K < FirstSetCount ? K * Stride
                         : K < Count - Blocks.size()
                             ? O.SecondStride + (K - FirstSetCount) * Stride
                             : Blocks[K - (Count - Blocks.size())])
                      : K;
        try {
          W.runBlock(Linear);
        } catch (EmuFault &F) {
          std::lock_guard<std::mutex> Lock(ErrMu);
          if (!Failed) {
            Failed = true;
            Fault = F;
            FaultBlock.X = uint32_t(Linear % G.X);
            FaultBlock.Y = uint32_t((Linear / G.X) % G.Y);
            FaultBlock.Z = uint32_t(Linear / (uint64_t(G.X) * G.Y));
          }
          Abort = true;
          break;
        }
      }
      Totals[T] = W.C;
      WrittenBy[T] = std::move(W.Written.Pages);
    } catch (std::bad_alloc &) {
      std::lock_guard<std::mutex> Lock(ErrMu);
      WritesLost = true;
      if (!Failed) {
        Failed = true;
        Fault = EmuFault{LaunchStatus::Internal, "out of host memory", 0};
      }
      Abort = true;
    }
  };
  if (NT == 1) {
    work(0);
  } else {
    std::vector<std::thread> Ts;
    for (unsigned T = 0; T < NT; ++T)
      Ts.emplace_back(work, T);
    for (std::thread &T : Ts)
      T.join();
  }
  if (O.WrittenPages) {
    std::vector<uint64_t> &Pages = *O.WrittenPages;
    if (WritesLost)
      Pages.push_back(AllPagesWritten);
    for (const std::vector<uint64_t> &V : WrittenBy)
      Pages.insert(Pages.end(), V.begin(), V.end());
    std::sort(Pages.begin(), Pages.end());
    Pages.erase(std::unique(Pages.begin(), Pages.end()), Pages.end());
  }
  if (Failed) {
    Res.Status = Fault.Status;
    Res.Message = Fault.Message + " in kernel '" + P.Name + "'";
    if (Fault.Line)
      Res.Message += " at PTX line " + std::to_string(Fault.Line);
    Res.Message += " (block " + std::to_string(FaultBlock.X) + "," +
                   std::to_string(FaultBlock.Y) + "," + std::to_string(FaultBlock.Z) + ")";
    return Res;
  }
  if (O.Metrics) {
    Counters Sum;
    for (const Counters &C : Totals)
      Sum.add(C);
    double F = double(Total) / double(Count);
    auto sc = [&](uint64_t V) -> uint64_t {
      return Sampled ? uint64_t(std::llround(double(V) * F)) : V;
    };
    LaunchMetrics &Mt = *O.Metrics;
    Mt = LaunchMetrics();
    for (unsigned K = 0; K < unsigned(InstClass::Count); ++K)
      Mt.WarpInstructions[K] = sc(Sum.WarpInst[K]);
    Mt.ThreadInstructions = sc(Sum.ThreadInst);
    Mt.GlobalLoadRequests = sc(Sum.GLdReq);
    Mt.GlobalLoadSectors = sc(Sum.GLdSec);
    Mt.GlobalLoadLines = sc(Sum.GLdLines);
    Mt.GlobalStoreRequests = sc(Sum.GStReq);
    Mt.GlobalStoreSectors = sc(Sum.GStSec);
    Mt.GlobalAtomicRequests = sc(Sum.GAtReq);
    Mt.GlobalAtomicSectors = sc(Sum.GAtSec);
    uint64_t Hottest = 0;
    for (const auto &[Address, Ops] : Sum.AtomicOpsPerAddress)
      Hottest = std::max(Hottest, Ops);
    Mt.GlobalAtomicMaxAddressOps = sc(Hottest);
    Mt.SharedLoadRequests = sc(Sum.SLdReq);
    Mt.SharedStoreRequests = sc(Sum.SStReq);
    Mt.SharedBankConflicts = sc(Sum.SConflicts);
    Mt.Branches = sc(Sum.Branches);
    Mt.DivergentBranches = sc(Sum.Divergent);
    Mt.BlocksLaunched = Total;
    Mt.WarpsLaunched = Total * L.WarpsPerBlock;
    Mt.BlocksExecuted = Count;
    Mt.RegistersPerThread = KI.Registers;
    Mt.StaticSharedBytes = P.StaticShared;
    Mt.DynamicSharedBytes = uint32_t(O.DynamicSharedBytes);
    Mt.LocalBytesPerThread = P.FrameBytes;
    Mt.Sampled = Sampled;
  }
  return Res;
}

} // namespace klaraptor::emu
