//===- Estimator.cpp - launch time estimates from the emulator's traces ---===//
///
/// \file
/// Timing parameters from the device profile, trace collection, the mapping of
/// decoded PTX instructions to resources and registers, and the launch
/// estimate (Estimator.h). The parameter values live in the .device files
/// (`timing.*` keys, each with its source); the defaults here only fill
/// keys a user's profile leaves out.
//===----------------------------------------------------------------------===//
#include "Estimator.h"

#include "ModuleImpl.h"
#include "Program.h"
#include "Schedule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <thread>
#include <sys/stat.h>
#include <sstream>
#include <system_error>
#include <unordered_map>

namespace klaraptor::timing {

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

TimingParams builtinTimingParams(const devices::DeviceProfile &D) {
  // Defaults for a profile that lacks timing keys (a user's own profile):
  // h100-sxm's pipe values, the profile's clock and schedulers, and DRAM
  // from its bus width and memory clock. The shipped profiles carry every
  // key (docs/timing.md lists the values and their sources).
  TimingParams P;
  P.ClockGHz = D.ClockRate > 0 ? double(D.ClockRate) / 1e6 : 1.98;
  P.Schedulers = D.SmSubPartitions > 0 ? unsigned(D.SmSubPartitions) : 4;
  int64_t SMs = D.MultiProcessorCount > 0 ? D.MultiProcessorCount : 1;
  double DramGBs = D.MemoryBusWidth > 0 && D.MemoryClockRate > 0
                       ? 2.0 * double(D.MemoryClockRate) * 1e3 *
                             double(D.MemoryBusWidth) / 8 / 1e9
                       : 3350;
  auto set = [&](Resource R, double L, double G, bool PerSched) {
    P[R].Latency = L;
    P[R].Gap = G;
    P[R].PerScheduler = PerSched;
  };
  // The pipes exist once per SM sub-partition (warp scheduler); the memory
  // path once per SM.
  set(Resource::Int, 4, 2, true);
  set(Resource::Fp32, 4, 1, true);
  set(Resource::Fp64, 8, 2, true);
  set(Resource::Sfu, 18, 8, true);
  set(Resource::Branch, 4, 2, true);
  set(Resource::Lsu, 4, 1, false);
  set(Resource::Shared, 29, 1, false);
  set(Resource::L2, 262, 32.0 * double(SMs) * P.ClockGHz / 5500, false);
  set(Resource::Dram, 480, 32.0 * double(SMs) * P.ClockGHz / DramGBs, false);
  P.IssueGap = 1;
  P.BarrierLatency = 20;
  P.L2HitRate = 0;
  P.LaunchOverheadNs = 2000;
  // The profile's own values.
  std::string Text;
  unsigned Missing = 0;
  for (const std::string &K : devices::timingKeys()) {
    auto It = D.Timing.find(K);
    if (It == D.Timing.end()) {
      ++Missing;
      continue;
    }
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.17g", It->second);
    Text += K + " = " + Buf + "\n";
  }
  std::string Error;
  if (!parseTimingParams(Text, "device profile '" + D.Id + "'", P, Error))
    P.Source = Error + "; ";
  P.Source += "device profile '" + D.Id + "'";
  if (Missing == devices::timingKeys().size())
    P.Source += " (no timing keys: defaults)";
  else if (Missing)
    P.Source += " (" + std::to_string(Missing) + " timing keys defaulted)";
  // The estimator's configuration (docs/timing.md, "The estimator's
  // configuration"): the cache model, with the profile's L1 on the SM and
  // the SM's share of the L2 all SMs share ("The cache model"); each traced
  // pass through a basic block replayed in the assembler's order ("The
  // assembler's order"); a launch's waves before its last refilled block by
  // block ("Waves after the first"). Chosen on the real-timings judges,
  // every GPU at once (docs/results.md, "The estimator's default").
  P.L2Bytes = D.L2CacheSize > 0 ? double(D.L2CacheSize) / double(SMs) : 0;
  P.AssemblerOrder = true;
  P.WaveRefill = true;
  if (P.cacheModel()) {
    char Buf[96];
    std::snprintf(Buf, sizeof(Buf), ", cache model (L1 %.0f B, L2 share %.0f B)",
                  P.L1Bytes, P.L2Bytes);
    P.Source += Buf;
  } else {
    P.Source += ", no cache model (neither timing.l1_bytes nor l2CacheSize)";
  }
  return P;
}

bool timingParamsFor(const devices::DeviceProfile &D, TimingParams &P,
                     std::string &Error) {
  P = builtinTimingParams(D);
  if (const char *Cache = std::getenv("KLARAPTOR_EMU_CACHE"); Cache && *Cache) {
    std::string V(Cache);
    if (V == "0" || V == "off") {
      // Every global sector from DRAM (or timing.l2_hit_rate of them from
      // the L2): the estimator before the cache model.
      P.L1Bytes = P.L2Bytes = 0;
      P.Source += "; cache model off (KLARAPTOR_EMU_CACHE=" + V + ")";
    } else if (V != "1" && V != "on") {
      Error = "KLARAPTOR_EMU_CACHE: expected 1, on, 0 or off, not '" + V + "'";
      return false;
    } else if (!P.cacheModel()) {
      Error = "KLARAPTOR_EMU_CACHE=" + V + ": device profile '" + D.Id +
              "' has neither timing.l1_bytes nor l2CacheSize";
      return false;
    }
  }
  const char *File = std::getenv("KLARAPTOR_EMU_TIMING_PARAMS");
  if (!File || !*File)
    return true;
  struct stat St;
  if (::stat(File, &St) == 0 && !S_ISREG(St.st_mode)) {
    Error = std::string("timing parameters '") + File +
            "' is not a regular file";
    return false;
  }
  std::ifstream In(File);
  if (!In) {
    Error = std::string("cannot read timing parameters '") + File + "'";
    return false;
  }
  std::stringstream SS;
  SS << In.rdbuf();
  if (!parseTimingParams(SS.str(), File, P, Error))
    return false;
  P.Source += std::string(" + ") + File;
  return true;
}

//===----------------------------------------------------------------------===//
// Traces and workloads
//===----------------------------------------------------------------------===//

std::vector<uint64_t> EstimatedBlocks::neighboursOf(uint64_t Linear) const {
  std::vector<uint64_t> N;
  uint64_t GX = std::max<uint64_t>(Grid.X, 1), GY = std::max<uint64_t>(Grid.Y, 1);
  if (Linear % GX > 0)
    N.push_back(Linear - 1);
  if ((Linear / GX) % GY > 0)
    N.push_back(Linear - GX);
  if (Linear / (GX * GY) > 0)
    N.push_back(Linear - GX * GY);
  return N;
}

int EstimatedBlocks::setOf(uint64_t Linear) const {
  for (int S = 0; S < 2; ++S)
    if (Start[S] != None && Linear >= Start[S] &&
        (Linear - Start[S]) % Stride == 0 && (Linear - Start[S]) / Stride < PerSm)
      return S;
  return -1;
}

void addNeighbours(EstimatedBlocks &B, emu::Dim3 Grid) {
  B.Grid = Grid;
  B.Neighbours.clear();
  uint64_t Total = Grid.count();
  for (int S = 0; S < 2; ++S)
    for (uint64_t K = 0; B.Start[S] != EstimatedBlocks::None && K < B.PerSm;
         ++K) {
      uint64_t L = B.Start[S] + K * B.Stride;
      if (L >= Total)
        break;
      for (uint64_t N : B.neighboursOf(L))
        if (B.setOf(N) != S)
          B.Neighbours.push_back(N);
    }
  std::sort(B.Neighbours.begin(), B.Neighbours.end());
  B.Neighbours.erase(std::unique(B.Neighbours.begin(), B.Neighbours.end()),
                     B.Neighbours.end());
}

int TraceCollector::setOf(uint64_t Linear) const {
  if (int Set = Est.setOf(Linear); Set >= 0)
    return Set;
  if (KeepSectors && std::binary_search(Est.Neighbours.begin(),
                                        Est.Neighbours.end(), Linear))
    return int(NeighbourSet);
  return -1;
}

bool TraceCollector::twoSets() const { return Kept[1] > 0; }

std::vector<emu::TraceEvent> *TraceCollector::traceBlock(uint64_t Linear,
                                                         uint32_t Warps) {
  int Set = Est.Stride ? setOf(Linear) : 0;
  if (Set < 0)
    return nullptr;
  std::lock_guard<std::mutex> G(M);
  if (Set < 2) {
    if (Kept[Set] >= Est.PerSm)
      return nullptr;
    ++Kept[Set];
  }
  auto B = std::make_unique<Block>();
  B->Linear = Linear;
  B->Set = unsigned(Set);
  B->Warps.resize(Warps);
  if (KeepSectors)
    B->Sectors.resize(Warps);
  Blocks.push_back(std::move(B));
  return Blocks.back()->Warps.data();
}

std::vector<uint64_t> *TraceCollector::traceSectors(uint64_t Linear) {
  if (!KeepSectors)
    return nullptr;
  std::lock_guard<std::mutex> G(M);
  for (auto It = Blocks.rbegin(); It != Blocks.rend(); ++It)
    if ((*It)->Linear == Linear)
      return (*It)->Sectors.empty() ? nullptr : (*It)->Sectors.data();
  return nullptr;
}

namespace {

Resource resourceOf(const emu::Inst &I) {
  using emu::InstClass;
  using emu::InstKind;
  if (I.Kind != InstKind::Op && I.Kind != InstKind::Nop)
    return Resource::Branch;
  switch (InstClass(I.Class)) {
  case InstClass::Fp32: return Resource::Fp32;
  case InstClass::Fp64: return Resource::Fp64;
  case InstClass::Special: return Resource::Sfu;
  case InstClass::GlobalLoad:
  case InstClass::GlobalStore:
  case InstClass::SharedLoad:
  case InstClass::SharedStore:
  case InstClass::LocalLoad:
  case InstClass::LocalStore:
  case InstClass::Atomic:
    return Resource::Lsu;
  case InstClass::Branch: return Resource::Branch;
  default: return Resource::Int;
  }
}

StaticInst describe(const emu::KernelProgram &P, uint32_t Pc) {
  using emu::InstClass;
  const emu::Inst &I = P.Code[Pc];
  StaticInst S;
  S.Res = resourceOf(I);
  S.Barrier = I.Kind == emu::InstKind::Bar && emu::BarKind(I.Aux) != emu::BarKind::Arrive;
  S.Line = I.Line;
  constexpr unsigned MaxSrc = sizeof(S.Src) / sizeof(S.Src[0]);
  constexpr unsigned MaxDst = sizeof(S.Dst) / sizeof(S.Dst[0]);
  // Predicates are registers numbered after the register slots; the
  // constant-true/false predicates and the `_` sink carry no dependence.
  auto realPred = [&](uint32_t X) {
    return X < P.NumPreds && X != P.PredTrue && X != P.PredFalse &&
           X != P.PredSink;
  };
  if (I.Guard >= 0 && realPred(uint32_t(I.Guard)) && S.NumSrc < MaxSrc)
    S.Src[S.NumSrc++] = P.NumSlots + uint32_t(I.Guard);
  if (Pc < P.PredUses.size()) {
    const emu::PredUse &U = P.PredUses[Pc];
    for (uint32_t X : U.Read)
      if (realPred(X) && S.NumSrc < MaxSrc)
        S.Src[S.NumSrc++] = P.NumSlots + X;
    for (uint32_t X : U.Written)
      if (realPred(X) && S.NumDst < MaxDst)
        S.Dst[S.NumDst++] = P.NumSlots + X;
  }
  if (I.Kind != emu::InstKind::Op)
    return S;
  // Operand slots: A[0] is the destination by convention (A[0..3] for
  // vector loads), stores only read. Predicate operands share the index
  // space, so only slots of declared registers count; a predicate index
  // landing there adds a false dependence at worst.
  auto isReg = [&](uint32_t Slot) {
    return Slot >= emu::NumSpecialSlots && Slot < P.ConstBase;
  };
  InstClass C = InstClass(I.Class);
  bool Store = C == InstClass::GlobalStore || C == InstClass::SharedStore ||
               C == InstClass::LocalStore;
  bool Load = C == InstClass::GlobalLoad || C == InstClass::SharedLoad ||
              C == InstClass::LocalLoad;
  unsigned FirstSrc = Store ? 0 : Load ? 4 : 1;
  // An instruction whose first PTX operand is a predicate (setp) has no
  // register destination.
  bool PredDst = Pc < P.PredUses.size() && P.PredUses[Pc].Written[0] != ~0u;
  if (!Store && !PredDst)
    for (unsigned K = 0; K < (Load ? 4u : 1u); ++K)
      if (isReg(I.A[K]) && S.NumDst < MaxDst)
        S.Dst[S.NumDst++] = I.A[K];
  for (unsigned K = FirstSrc; K < 6; ++K)
    if (isReg(I.A[K]) && S.NumSrc < MaxSrc)
      S.Src[S.NumSrc++] = I.A[K];
  return S;
}

std::string baseName(const std::string &Path) {
  size_t Slash = Path.find_last_of('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

} // namespace

SmWorkload buildWorkload(const emu::KernelProgram &P, const TraceCollector &C,
                         int Set, bool AssemblerOrder) {
  SmWorkload W;
  // Registers, then predicates (describe()).
  W.NumRegs = std::max<uint32_t>(P.NumSlots + P.NumPreds, 1);
  size_t N = P.Code.size();
  // Regions: a new one starts at every branch target and after every
  // branch, within each function.
  std::vector<bool> Starts(N + 1, false);
  if (N)
    Starts[0] = true;
  for (const emu::FunctionInfo &F : P.Funcs)
    if (F.EntryPc < N)
      Starts[F.EntryPc] = true;
  for (size_t I = 0; I < N; ++I) {
    const emu::Inst &In = P.Code[I];
    if (In.Kind == emu::InstKind::Bra) {
      if (In.Aux < N)
        Starts[In.Aux] = true;
      Starts[I + 1] = true;
    }
  }
  W.Code.reserve(N);
  uint32_t Region = 0;
  for (size_t I = 0; I < N; ++I) {
    if (Starts[I] && I > 0)
      ++Region;
    StaticInst S = describe(P, uint32_t(I));
    S.Region = Region;
    if (W.Regions.size() <= Region)
      W.Regions.push_back({S.Line, S.Line, ""});
    CodeRegion &R = W.Regions[Region];
    if (S.Line) {
      if (!R.FirstLine || S.Line < R.FirstLine)
        R.FirstLine = S.Line;
      R.LastLine = std::max(R.LastLine, S.Line);
    }
    W.Code.push_back(S);
  }
  // Source lines (`.loc`): each region is named by the file most of its
  // instructions come from and that file's line range; regions without any
  // `.loc` (and all of them in PTX without -lineinfo) by their PTX lines.
  std::vector<std::vector<uint32_t>> FileCount(W.Regions.size());
  if (!P.SrcLine.empty())
    for (size_t I = 0; I < N; ++I)
      if (P.SrcLine[I]) {
        std::vector<uint32_t> &FC = FileCount[W.Code[I].Region];
        FC.resize(P.SrcFiles.size() + 1, 0);
        ++FC[P.SrcFile[I]];
      }
  for (uint32_t RI = 0; RI < W.Regions.size(); ++RI) {
    CodeRegion &R = W.Regions[RI];
    const std::vector<uint32_t> &FC = FileCount[RI];
    if (!FC.empty()) {
      uint32_t F = uint32_t(std::max_element(FC.begin(), FC.end()) - FC.begin());
      for (size_t I = 0; I < N; ++I)
        if (W.Code[I].Region == RI && P.SrcLine[I] && P.SrcFile[I] == F) {
          uint32_t L = P.SrcLine[I];
          if (!R.FirstSrcLine || L < R.FirstSrcLine)
            R.FirstSrcLine = L;
          R.LastSrcLine = std::max(R.LastSrcLine, L);
        }
      R.File = F < P.SrcFiles.size() ? P.SrcFiles[F] : "";
      std::string Shown = R.File.empty() ? "src" : baseName(R.File);
      R.Name = Shown + ":" + std::to_string(R.FirstSrcLine);
      if (R.LastSrcLine != R.FirstSrcLine)
        R.Name += "-" + std::to_string(R.LastSrcLine);
      continue;
    }
    R.Name = "ptx:" + std::to_string(R.FirstLine) + "-" +
             std::to_string(R.LastLine);
  }
  // Each pass through a region in the order ptxas would issue it.
  std::vector<uint32_t> Rank;
  if (AssemblerOrder)
    Rank = assemblerOrder(P, W.Code);
  // Blocks in grid order, so that the result does not depend on which host
  // thread ran which.
  std::vector<const TraceCollector::Block *> Bs;
  std::unordered_map<uint64_t, const TraceCollector::Block *> ByLinear;
  for (const auto &B : C.Blocks) {
    if (!B->Sectors.empty())
      ByLinear[B->Linear] = B.get();
    if (B->Set != TraceCollector::NeighbourSet &&
        (Set < 0 || B->Set == unsigned(Set)))
      Bs.push_back(B.get());
  }
  std::sort(Bs.begin(), Bs.end(), [](auto *X, auto *Y) {
    return X->Linear < Y->Linear;
  });
  // The shared L2: one share per grid dimension whose neighbours exist.
  if (!C.Est.Neighbours.empty())
    W.NearShares = unsigned(C.Est.Grid.X > 1) + unsigned(C.Est.Grid.Y > 1) +
                   unsigned(C.Est.Grid.Z > 1);
  // A warp's stream in steps: a step is one pass through a code region (a
  // new one starts where the region changes or the code goes back, as a
  // loop's next iteration does). Within a step the loads issue back to
  // back, in whatever order the compiler chose.
  auto stepper = [&W]() {
    return [&W, Region = ~0u, Pc = ~0u, Step = -1](uint32_t NextPc) mutable {
      uint32_t R = NextPc < W.Code.size() ? W.Code[NextPc].Region : 0;
      if (R != Region || NextPc <= Pc)
        ++Step;
      Region = R;
      Pc = NextPc;
      return Step;
    };
  };
  // The global accesses of a traced warp: where each one's sectors start
  // in its Sectors, how many, and its step.
  struct Access {
    size_t Off;
    uint32_t Units;
    int Step;
  };
  auto accesses = [&](const TraceCollector::Block &B, size_t WI) {
    std::vector<Access> A;
    if (B.Sectors.empty() || WI >= B.Warps.size())
      return A;
    size_t Next = 0;
    auto step = stepper();
    for (const emu::TraceEvent &E : B.Warps[WI]) {
      int St = step(E.Pc);
      if (E.Space == emu::TraceSpace::Global &&
          Next + E.Units <= B.Sectors[WI].size()) {
        A.push_back({Next, E.Units, St});
        Next += E.Units;
      }
    }
    return A;
  };
  for (uint32_t BI = 0; BI < Bs.size(); ++BI) {
    // Its neighbours on other SMs (EstimatedBlocks::Neighbours).
    std::vector<const TraceCollector::Block *> Near;
    if (W.NearShares)
      for (uint64_t N : C.Est.neighboursOf(Bs[BI]->Linear)) {
        auto It = ByLinear.find(N);
        if (It != ByLinear.end() && C.Est.setOf(N) != int(Bs[BI]->Set))
          Near.push_back(It->second);
      }
    for (size_t WI = 0; WI < Bs[BI]->Warps.size(); ++WI) {
      const std::vector<emu::TraceEvent> &Ev = Bs[BI]->Warps[WI];
      // The warp's global sectors, consumed in order by its global events.
      const std::vector<uint64_t> *Sec =
          Bs[BI]->Sectors.empty() ? nullptr : &Bs[BI]->Sectors[WI];
      size_t NextSec = 0;
      // The same warp of each neighbour, handed out before this block, is
      // a step ahead: this warp's first global access of its k-th step
      // comes after the neighbour's accesses of steps 0 ... k.
      std::vector<std::vector<Access>> NearAcc;
      std::vector<size_t> NearNext(Near.size(), 0);
      for (const TraceCollector::Block *N : Near)
        NearAcc.push_back(accesses(*N, WI));
      auto step = stepper();
      WarpStream S;
      S.Block = BI;
      S.Insts.reserve(Ev.size());
      for (const emu::TraceEvent &E : Ev) {
        int Step = step(E.Pc);
        DynInst D;
        D.Idx = E.Pc;
        D.Units = E.Units;
        if (Sec && E.Space == emu::TraceSpace::Global &&
            NextSec + E.Units <= Sec->size()) {
          D.SecOff = uint32_t(W.Sectors.size());
          W.Sectors.insert(W.Sectors.end(), Sec->begin() + NextSec,
                           Sec->begin() + NextSec + E.Units);
          NextSec += E.Units;
          D.NearOff = uint32_t(W.NearSectors.size());
          for (size_t NI = 0; NI < Near.size(); ++NI)
            for (size_t &K = NearNext[NI];
                 K < NearAcc[NI].size() && NearAcc[NI][K].Step <= Step; ++K) {
              const Access &A = NearAcc[NI][K];
              const std::vector<uint64_t> &NS = Near[NI]->Sectors[WI];
              W.NearSectors.insert(W.NearSectors.end(), NS.begin() + A.Off,
                                   NS.begin() + A.Off + A.Units);
            }
          D.NearUnits = uint32_t(W.NearSectors.size() - D.NearOff);
        }
        switch (E.Space) {
        case emu::TraceSpace::Global: D.Mem = MemTarget::Global; break;
        case emu::TraceSpace::Shared: D.Mem = MemTarget::Shared; break;
        case emu::TraceSpace::Local: D.Mem = MemTarget::Local; break;
        case emu::TraceSpace::None: break;
        }
        S.Insts.push_back(D);
      }
      if (AssemblerOrder)
        replayInAssemblerOrder(S.Insts, W.Code, Rank);
      W.Warps.push_back(std::move(S));
    }
  }
  W.NumBlocks = uint32_t(Bs.size());
  return W;
}

//===----------------------------------------------------------------------===//
// Estimates
//===----------------------------------------------------------------------===//

uint64_t smStride(const devices::DeviceProfile &D) {
  return D.MultiProcessorCount > 0 ? uint64_t(D.MultiProcessorCount) : 1;
}

uint64_t blocksOnOneSm(const devices::DeviceProfile &D, uint64_t Blocks,
                       int64_t Resident) {
  uint64_t SMs = D.MultiProcessorCount > 0 ? uint64_t(D.MultiProcessorCount) : 1;
  uint64_t PerSm = (Blocks + SMs - 1) / SMs;
  return std::min<uint64_t>(PerSm, uint64_t(std::max<int64_t>(Resident, 1)));
}

EstimatedBlocks estimatedBlocks(const devices::DeviceProfile &D,
                                uint64_t Blocks, int64_t Resident) {
  EstimatedBlocks B;
  B.Stride = smStride(D);
  B.PerSm = blocksOnOneSm(D, Blocks, Resident);
  uint64_t S = B.Stride;
  if (S < 2 || Blocks < 2)
    return B;
  uint64_t PerWave = uint64_t(std::max<int64_t>(Resident, 1)) * S;
  uint64_t Sm = (S / 2) | 1; // odd, below S
  uint64_t Wave = (Blocks / 2) / PerWave;
  uint64_t Start = Wave * PerWave + Sm;
  if (Start < Blocks)
    B.Start[1] = Start;
  return B;
}

void runOnly(const EstimatedBlocks &B, emu::LaunchOptions &O) {
  O.SampleBlocks = 0;
  O.StridedBlocks = B.PerSm;
  O.BlockStride = B.Stride;
  O.SecondStride = B.Start[1];
  O.ExtraBlocks = B.Neighbours.empty() ? nullptr : &B.Neighbours;
}

double cyclesPerWave(const SimResult &R, uint64_t Waves) {
  if (Waves < 2 || !(R.MeanBlockCycles > 0))
    return R.Cycles;
  double W = double(Waves);
  double Earlier = std::min(R.Cycles, std::max(R.MeanBlockCycles, R.BusiestCycles));
  return ((W - 1) * Earlier + R.Cycles) / W;
}

bool estimateFromTrace(const emu::KernelProgram &P, const TraceCollector &C,
                       const devices::DeviceProfile &D,
                       const devices::KernelResources &K,
                       const TimingParams &TP, emu::Dim3 Grid,
                       emu::Dim3 Block, uint64_t DynamicShared, int Regions,
                       LaunchEstimate &E, std::string &Error,
                       unsigned Threads, const emu::LaunchMetrics *Atomics,
                       SmWorkload *Simulated) {
  E = LaunchEstimate();
  E.Occ = devices::computeOccupancy(D, K, int64_t(Block.count()),
                                    int64_t(DynamicShared));
  E.ResidentBlocks = E.Occ.ActiveBlocks;
  if (E.ResidentBlocks <= 0) {
    Error = std::string("a block of ") + std::to_string(Block.count()) +
            " threads does not fit on an SM (" + E.Occ.Limiter + ")";
    return false;
  }
  if (C.Blocks.empty()) {
    Error = "no block was traced";
    return false;
  }
  E.Blocks = Grid.count();
  uint64_t SMs = D.MultiProcessorCount > 0 ? uint64_t(D.MultiProcessorCount) : 1;
  uint64_t PerWave = uint64_t(E.ResidentBlocks) * SMs;
  E.Waves = (E.Blocks + PerWave - 1) / PerWave;
  // The cache model's L2 share is the L2 over the SMs that share it: with
  // fewer blocks than SMs, only as many SMs have blocks (round-robin), and
  // each of those has a larger part of the L2.
  TimingParams Shared;
  const TimingParams *Use = &TP;
  if (uint64_t Busy = std::min<uint64_t>(SMs, E.Blocks);
      TP.L2Bytes > 0 && Busy > 0 && Busy < SMs) {
    Shared = TP;
    Shared.L2Bytes = TP.L2Bytes * double(SMs) / double(Busy);
    Use = &Shared;
  }
  auto perWave = [&](const SimResult &R) {
    return TP.WaveRefill ? cyclesPerWave(R, E.Waves) : R.Cycles;
  };
  // With two SMs' blocks, the slower SM's (EstimatedBlocks).
  SmWorkload W;
  SimResult R;
  E.OtherCycles = NAN;
  if (C.twoSets()) {
    SmWorkload W0 = buildWorkload(P, C, 0, TP.AssemblerOrder),
               W1 = buildWorkload(P, C, 1, TP.AssemblerOrder);
    SimResult R0, R1;
    // Each simulation reads only its workload and the parameters: the
    // second SM's runs on a thread of its own when there are threads to
    // spare and the trace is long enough to repay starting one (about
    // 50 us; a simulation takes some 10-50 ns per warp instruction).
    size_t Insts = 0;
    for (const WarpStream &S : W1.Warps)
      Insts += S.Insts.size();
    std::exception_ptr Failed;
    std::thread Second;
    if (Threads >= 2 && Insts >= 20000) {
      try {
        Second = std::thread([&] {
          try {
            R1 = simulate(W1, *Use);
          } catch (...) {
            Failed = std::current_exception();
          }
        });
      } catch (const std::system_error &) {
        // No thread to be had: one after the other, below.
      }
    }
    if (Second.joinable()) {
      try {
        R0 = simulate(W0, *Use);
      } catch (...) {
        Second.join();
        throw;
      }
      Second.join();
      if (Failed)
        std::rethrow_exception(Failed);
    } else {
      R0 = simulate(W0, *Use);
      R1 = simulate(W1, *Use);
    }
    E.BlocksSimulated = W0.NumBlocks + W1.NumBlocks;
    double C0 = perWave(R0), C1 = perWave(R1);
    E.Set = C1 > C0 ? 1 : 0;
    E.OtherCycles = E.Set ? C0 : C1;
    W = std::move(E.Set ? W1 : W0);
    R = E.Set ? R1 : R0;
  } else {
    W = buildWorkload(P, C, -1, TP.AssemblerOrder);
    E.BlocksSimulated = W.NumBlocks;
    if (Regions == 0)
      R = simulate(W, *Use);
  }
  if (Regions != 0) {
    E.A = analyze(W, *Use, Regions > 0 ? unsigned(Regions) : 0);
  } else {
    E.A.Base = R;
    E.A.Cycles = R.Cycles;
    E.A.Issued = R.Issued;
  }
  E.CyclesPerWave = perWave(E.A.Base);
  E.Ns = E.SimulatedNs =
      E.CyclesPerWave * double(E.Waves) / TP.ClockGHz + TP.LaunchOverheadNs;
  // Same-address atomics, one after another at the L2 whatever the SMs do.
  if (TP.atomicBound() && Atomics && Atomics->GlobalAtomicMaxAddressOps > 0 &&
      Atomics->BlocksExecuted > 0 && TP.ClockGHz > 0) {
    double Ops = double(Atomics->GlobalAtomicMaxAddressOps) *
                 double(Atomics->BlocksLaunched) /
                 double(Atomics->BlocksExecuted);
    E.AtomicBoundNs =
        Ops * TP.AtomicSameAddressCycles / TP.ClockGHz + TP.LaunchOverheadNs;
    E.Ns = std::max(E.Ns, E.AtomicBoundNs);
  }
  if (Simulated)
    *Simulated = std::move(W);
  return true;
}

const emu::KernelProgram *kernelProgram(emu::Module &M,
                                        std::string_view Kernel) {
  emu::ModuleImpl &I = M.impl();
  auto It = I.KernelIndex.find(std::string(Kernel));
  if (It == I.KernelIndex.end() || It->second >= I.Programs.size())
    return nullptr;
  return I.Programs[It->second].get();
}

bool estimateLaunch(emu::Module &M, std::string_view Kernel,
                    emu::LaunchOptions O, const devices::DeviceProfile &D,
                    const devices::KernelResources &K, const TimingParams &TP,
                    int Regions, LaunchEstimate &E, std::string &Error) {
  const emu::KernelProgram *P = kernelProgram(M, Kernel);
  if (!P) {
    Error = "no kernel '" + std::string(Kernel) + "'";
    return false;
  }
  devices::Occupancy Occ = devices::computeOccupancy(
      D, K, int64_t(O.Block.count()), int64_t(O.DynamicSharedBytes));
  EstimatedBlocks B =
      estimatedBlocks(D, O.Grid.count(), Occ.ActiveBlocks);
  if (TP.cacheModel())
    addNeighbours(B, O.Grid);
  TraceCollector C(B, TP.cacheModel());
  O.Trace = &C;
  runOnly(B, O);
  // The blocks' atomics per address, for the bound (only when it is on).
  emu::LaunchMetrics Mt;
  O.Metrics = TP.atomicBound() ? &Mt : nullptr;
  emu::LaunchResult R = M.launch(Kernel, O);
  if (R.Status != emu::LaunchStatus::Ok) {
    Error = R.Message;
    return false;
  }
  return estimateFromTrace(*P, C, D, K, TP, O.Grid, O.Block,
                           O.DynamicSharedBytes, Regions, E, Error, 1,
                           O.Metrics);
}

} // namespace klaraptor::timing
