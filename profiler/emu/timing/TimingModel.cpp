//===- TimingModel.cpp - abstract kernel emulation: latency/gap resources -===//
///
/// \file
/// The SM simulation (simulate), the sensitivity analysis (analyze) and the
/// parameter file parser. See TimingModel.h and docs/timing.md.
//===----------------------------------------------------------------------===//
#include "TimingModel.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <unordered_map>

namespace klaraptor::timing {

const char *resourceName(Resource R) {
  switch (R) {
  case Resource::Int: return "int";
  case Resource::Fp32: return "fp32";
  case Resource::Fp64: return "fp64";
  case Resource::Sfu: return "sfu";
  case Resource::Lsu: return "lsu";
  case Resource::Shared: return "shared";
  case Resource::L2: return "l2";
  case Resource::Dram: return "dram";
  case Resource::Branch: return "branch";
  case Resource::Count: break;
  }
  return "?";
}

std::string bottleneckLabel(Resource R, bool LatencyBound) {
  return std::string(resourceName(R)) +
         (LatencyBound ? " latency-bound" : " throughput-bound");
}

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

namespace {

std::string_view trim(std::string_view S) {
  while (!S.empty() && (S.front() == ' ' || S.front() == '\t'))
    S.remove_prefix(1);
  while (!S.empty() && (S.back() == ' ' || S.back() == '\t' ||
                        S.back() == '\r'))
    S.remove_suffix(1);
  return S;
}

} // namespace

bool parseTimingParams(std::string_view Text, const std::string &Origin,
                       TimingParams &P, std::string &Error) {
  unsigned LineNo = 0;
  while (!Text.empty()) {
    size_t NL = Text.find('\n');
    std::string_view Line = Text.substr(0, NL);
    Text.remove_prefix(NL == std::string_view::npos ? Text.size() : NL + 1);
    ++LineNo;
    if (size_t H = Line.find('#'); H != std::string_view::npos)
      Line = Line.substr(0, H);
    Line = trim(Line);
    if (Line.empty())
      continue;
    auto Fail = [&](const std::string &Msg) {
      Error = Origin + ":" + std::to_string(LineNo) + ": " + Msg;
      return false;
    };
    size_t Eq = Line.find('=');
    if (Eq == std::string_view::npos)
      return Fail("expected 'key = value'");
    std::string Key(trim(Line.substr(0, Eq)));
    std::string Val(trim(Line.substr(Eq + 1)));
    char *End = nullptr;
    double V = std::strtod(Val.c_str(), &End);
    if (Val.empty() || *End != 0 || !std::isfinite(V) || V < 0)
      return Fail("timing key '" + Key +
                  "' expects a non-negative number, got '" + Val + "'");
    bool Known = true;
    if (Key == "schedulers") {
      if (V < 1 || V != std::floor(V))
        return Fail("'schedulers' expects a positive integer");
      P.Schedulers = unsigned(V);
    } else if (Key == "issue_gap") {
      P.IssueGap = V;
    } else if (Key == "barrier_latency") {
      P.BarrierLatency = V;
    } else if (Key == "l2_hit_rate") {
      if (V > 1)
        return Fail("'l2_hit_rate' expects a value in [0, 1]");
      P.L2HitRate = V;
    } else if (Key == "clock_ghz") {
      if (V == 0)
        return Fail("'clock_ghz' must be positive");
      P.ClockGHz = V;
    } else if (Key == "launch_overhead_ns") {
      P.LaunchOverheadNs = V;
    } else if (Key == "block_launch_cycles") {
      P.BlockLaunchCycles = V;
    } else if (Key == "atomic_same_address_cycles") {
      P.AtomicSameAddressCycles = V;
    } else if (Key == "l1_bytes") {
      P.L1Bytes = V;
    } else if (Key == "l2_bytes") {
      P.L2Bytes = V;
    } else if (Key == "l1_latency") {
      P.L1Latency = V;
    } else if (Key == "l1_sectors_per_cycle") {
      if (V < 1)
        return Fail("'l1_sectors_per_cycle' expects a number >= 1");
      P.L1SectorsPerCycle = V;
    } else if (Key == "l2_request_cycles") {
      P.L2RequestCycles = V;
    } else if (Key == "l2_store_gap") {
      P.L2StoreGap = V;
    } else if (Key == "assembler_order") {
      if (V != 0 && V != 1)
        return Fail("'assembler_order' expects 0 or 1");
      P.AssemblerOrder = V == 1;
    } else if (Key == "wave_refill") {
      if (V != 0 && V != 1)
        return Fail("'wave_refill' expects 0 or 1");
      P.WaveRefill = V == 1;
    } else {
      Known = false;
      size_t Dot = Key.find('.');
      if (Dot != std::string::npos) {
        std::string Name = Key.substr(0, Dot), Field = Key.substr(Dot + 1);
        for (unsigned R = 0; R < NumResources; ++R)
          if (Name == resourceName(Resource(R))) {
            if (Field == "latency") {
              P.Res[R].Latency = V;
              Known = true;
            } else if (Field == "gap") {
              P.Res[R].Gap = V;
              Known = true;
            }
          }
      }
    }
    if (!Known)
      return Fail("unknown timing key '" + Key + "'");
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Simulation
//===----------------------------------------------------------------------===//

namespace {

constexpr double Never = std::numeric_limits<double>::infinity();

struct WarpState {
  uint32_t Pos = 0;
  uint32_t Sched = 0;
  bool Done = false, Waiting = false;
  double ReadyAt = 0; ///< barrier release
  double LastDone = 0; ///< when its latest result is there
  std::vector<double> RegReady;
};

/// What earliest() reads of a warp, packed apart from its WarpState (large)
/// and its instruction: the scan for the next event reads every warp's.
/// Kept by refresh() when the warp advances or its barrier releases it.
struct ReadyKey {
  /// When the next instruction's registers and the barrier allow it
  /// (ReadyAt and its sources' RegReady; only this warp changes them), so
  /// that earliest() need not look at the sources.
  double Deps = 0;
  uint32_t Slot = 0;   ///< its instruction's resource in Simulator::NextAt
  uint16_t Sched = 0;  ///< WarpState::Sched
  uint8_t Blocked = 1; ///< done or waiting at a barrier: never
  uint8_t Barrier = 0; ///< its instruction is a barrier: no resource
};

struct BlockState {
  uint32_t Live = 0, Arrived = 0;
  double LastArrival = 0;
  std::vector<uint32_t> Waiters;
};

/// An LRU cache of 128-byte lines with a valid bit per 32-byte sector
/// (the NVIDIA L1 and L2 organisation, fully associative here). The lines
/// live in an array linked in recency order, found through an open-addressed
/// table (linear probing): a look-up or a fill allocates nothing (a list and
/// a hash map of nodes made half of the cache model's simulation time).
class LineCache {
public:
  explicit LineCache(double Bytes)
      : Capacity(size_t(std::max(0.0, Bytes) / 128)) {}
  bool enabled() const { return Capacity > 0; }
  /// True when sector \p Sector is present; its line (present) becomes the
  /// most recent. \p ReadyAt, when given, receives when the sector's data
  /// is there (a sector still on its way from the miss that filled it is
  /// present, as a miss already asked for is in the hardware's cache: a
  /// later request waits for the same data, it does not ask again).
  bool lookUp(uint64_t Sector, double *ReadyAt = nullptr) {
    uint32_t N = find(Sector >> 2);
    if (N == None)
      return false;
    touch(N);
    if (ReadyAt)
      *ReadyAt = Nodes[N].Ready[Sector & 3];
    return (Nodes[N].Bits >> (Sector & 3)) & 1;
  }
  /// Makes sector \p Sector present, its data there at \p ReadyAt.
  void fill(uint64_t Sector, double ReadyAt = 0) {
    uint64_t Line = Sector >> 2;
    uint8_t Bit = uint8_t(1u << (Sector & 3));
    uint32_t N = find(Line);
    if (N != None) {
      Nodes[N].Bits |= Bit;
      Nodes[N].Ready[Sector & 3] = ReadyAt;
      touch(N);
      return;
    }
    if (Nodes.size() >= Capacity) {
      // The least recent line makes room.
      N = Tail;
      erase(Nodes[N].Line);
      unlink(N);
    } else {
      // At most half the table's slots in use.
      if (2 * (Nodes.size() + 1) > Table.size())
        grow();
      N = uint32_t(Nodes.size());
      Nodes.push_back({});
    }
    Nodes[N].Line = Line;
    Nodes[N].Bits = Bit;
    Nodes[N].Ready[Sector & 3] = ReadyAt;
    pushFront(N);
    insert(Line, N);
  }
  /// When a present sector \p Sector's data arrives (its miss's time,
  /// known once the access's stages are): no effect on the recency order.
  void setReady(uint64_t Sector, double ReadyAt) {
    uint32_t N = find(Sector >> 2);
    if (N != None)
      Nodes[N].Ready[Sector & 3] = ReadyAt;
  }
  void drop(uint64_t Sector) {
    uint32_t N = find(Sector >> 2);
    if (N != None)
      Nodes[N].Bits &= uint8_t(~(1u << (Sector & 3)));
  }

private:
  static constexpr uint32_t None = ~uint32_t(0);
  struct Node {
    uint64_t Line = 0;
    uint32_t Prev = None, Next = None; ///< toward the most / least recent
    uint8_t Bits = 0;
    double Ready[4] = {}; ///< when each sector's data is there
  };
  size_t Capacity;
  std::vector<Node> Nodes;
  uint32_t Head = None, Tail = None; ///< the most and the least recent
  std::vector<uint32_t> Table;       ///< node indices; None: empty
  unsigned Shift = 64;

  size_t home(uint64_t Line) const {
    return size_t((Line * 0x9E3779B97F4A7C15ull) >> Shift);
  }
  uint32_t find(uint64_t Line) const {
    if (Table.empty())
      return None;
    size_t M = Table.size() - 1;
    for (size_t I = home(Line);; I = (I + 1) & M) {
      uint32_t N = Table[I];
      if (N == None || Nodes[N].Line == Line)
        return N;
    }
  }
  void insert(uint64_t Line, uint32_t N) {
    size_t M = Table.size() - 1, I = home(Line);
    while (Table[I] != None)
      I = (I + 1) & M;
    Table[I] = N;
  }
  /// Removes \p Line's entry, moving later entries of its probe run back
  /// so that every entry stays reachable from its home slot.
  void erase(uint64_t Line) {
    size_t M = Table.size() - 1, I = home(Line);
    while (Nodes[Table[I]].Line != Line)
      I = (I + 1) & M;
    for (size_t J = (I + 1) & M; Table[J] != None; J = (J + 1) & M) {
      size_t H = home(Nodes[Table[J]].Line);
      // Entry J may fill the hole at I unless its home lies in (I, J].
      if (((J - H) & M) >= ((J - I) & M)) {
        Table[I] = Table[J];
        I = J;
      }
    }
    Table[I] = None;
  }
  void grow() {
    size_t Size = Table.empty() ? 64 : Table.size() * 2;
    Table.assign(Size, None);
    Shift = 64;
    for (size_t S = Size; S > 1; S >>= 1)
      --Shift;
    for (uint32_t N = 0; N < Nodes.size(); ++N)
      insert(Nodes[N].Line, N);
  }
  void unlink(uint32_t N) {
    Node &X = Nodes[N];
    (X.Prev == None ? Head : Nodes[X.Prev].Next) = X.Next;
    (X.Next == None ? Tail : Nodes[X.Next].Prev) = X.Prev;
    X.Prev = X.Next = None;
  }
  void pushFront(uint32_t N) {
    Nodes[N].Prev = None;
    Nodes[N].Next = Head;
    (Head == None ? Tail : Nodes[Head].Prev) = N;
    Head = N;
  }
  void touch(uint32_t N) {
    if (Head == N)
      return;
    unlink(N);
    pushFront(N);
  }
};

class Simulator {
public:
  Simulator(const SmWorkload &W, const TimingParams &P,
            const Perturbation *C)
      : W(W), P(P), Change(C), NS(std::max(1u, P.Schedulers)),
        L1(P.L1Bytes), L2(P.L2Bytes),
        Near(P.L2Bytes * double(W.NearShares)) {
    NextAt.assign(size_t(NumResources) * NS, 0.0);
    SchedNext.assign(NS, 0.0);
    Last.assign(NS, -1);
    Warps.resize(W.Warps.size());
    Keys.resize(W.Warps.size());
    Blocks.resize(W.NumBlocks);
    ByScheduler.resize(NS);
    for (uint32_t I = 0; I < Warps.size(); ++I) {
      WarpState &S = Warps[I];
      S.Sched = I % NS;
      S.RegReady.assign(W.NumRegs, 0.0);
      // The SM receives its blocks one after another (age order).
      S.ReadyAt = double(W.Warps[I].Block) * P.BlockLaunchCycles;
      ByScheduler[S.Sched].push_back(I);
      if (W.Warps[I].Insts.empty()) {
        S.Done = true;
        continue;
      }
      ++Live;
      ++Blocks[W.Warps[I].Block].Live;
      refresh(I);
    }
  }

  SimResult run() {
    double T = 0;
    while (Live > 0) {
      for (unsigned S = 0; S < NS; ++S) {
        if (SchedNext[S] > T)
          continue;
        int Pick = -1;
        if (Last[S] >= 0 && earliest(uint32_t(Last[S])) <= T)
          Pick = Last[S];
        else
          for (uint32_t WI : ByScheduler[S])
            if (earliest(WI) <= T) {
              Pick = int(WI);
              break;
            }
        if (Pick < 0)
          continue;
        issue(uint32_t(Pick), T);
        SchedNext[S] = T + P.IssueGap;
        Last[S] = Pick;
      }
      double NextT = Never;
      for (uint32_t WI = 0; WI < Warps.size(); ++WI)
        NextT = std::min(NextT, earliest(WI));
      if (NextT == Never)
        break; // every live warp waits at a barrier that cannot complete
      T = std::max(T, NextT);
    }
    R.Cycles = End;
    // Each block ends when its last warp's last result is there.
    std::vector<double> BlockEnd(Blocks.size(), -1.0);
    for (uint32_t WI = 0; WI < Warps.size(); ++WI) {
      double &E = BlockEnd[W.Warps[WI].Block];
      E = std::max(E, Warps[WI].LastDone);
    }
    double Sum = 0;
    unsigned N = 0;
    for (double E : BlockEnd)
      if (E >= 0) {
        Sum += E;
        ++N;
      }
    R.MeanBlockCycles = N ? Sum / N : 0;
    R.BusiestCycles = double(R.Issued) * P.IssueGap / double(NS);
    for (unsigned K = 0; K < NumResources; ++K)
      R.BusiestCycles =
          std::max(R.BusiestCycles,
                   R.Busy[K] / double(P.Res[K].PerScheduler ? NS : 1));
    return R;
  }

private:
  const SmWorkload &W;
  const TimingParams &P;
  const Perturbation *Change;
  unsigned NS;
  /// The L2 shares of the SMs that run the neighbouring blocks: what they
  /// accessed hits for this SM too (the L2 is shared).
  LineCache L1, L2, Near;
  /// When the SM's path to the L2 takes its next request
  /// (TimingParams::L2RequestCycles).
  double RequestNext = 0;
  /// The L1 sectors the access being issued fills (issue()'s scratch).
  std::vector<uint64_t> Filled;
  /// When each resource is next free: NumResources x NS, a resource shared
  /// by the schedulers in its first column.
  std::vector<double> NextAt;
  std::vector<double> SchedNext;
  std::vector<int> Last;
  std::vector<WarpState> Warps;
  std::vector<ReadyKey> Keys;
  std::vector<BlockState> Blocks;
  std::vector<std::vector<uint32_t>> ByScheduler;
  uint32_t Live = 0;
  double End = 0;
  SimResult R;

  uint32_t slot(Resource Res, unsigned Sched) const {
    return uint32_t(unsigned(Res) * NS +
                    (P.Res[unsigned(Res)].PerScheduler ? Sched : 0));
  }
  double &next(Resource Res, unsigned Sched) { return NextAt[slot(Res, Sched)]; }

  void params(Resource Res, uint32_t Region, double &L, double &G) const {
    L = P[Res].Latency;
    G = P[Res].Gap;
    if (Change && (Change->Region < 0 || uint32_t(Change->Region) == Region) &&
        (Change->Res < 0 || Change->Res == int(Res))) {
      L *= Change->LatencyFactor;
      G *= Change->GapFactor;
    }
  }

  /// Recomputes warp \p WI's ReadyKey after it advanced or its
  /// barrier released it.
  void refresh(uint32_t WI) {
    WarpState &S = Warps[WI];
    ReadyKey &K = Keys[WI];
    K.Blocked = S.Done || S.Waiting;
    if (S.Done)
      return;
    const StaticInst &I = W.Code[W.Warps[WI].Insts[S.Pos].Idx];
    double E = S.ReadyAt;
    for (unsigned J = 0; J < I.NumSrc; ++J)
      E = std::max(E, S.RegReady[I.Src[J]]);
    K.Deps = E;
    K.Sched = uint16_t(S.Sched);
    K.Barrier = I.Barrier;
    K.Slot = slot(I.Res, S.Sched);
  }

  /// When warp \p WI's next instruction could start (Never: it cannot).
  double earliest(uint32_t WI) const {
    const ReadyKey &K = Keys[WI];
    if (K.Blocked)
      return Never;
    double E = std::max(K.Deps, SchedNext[K.Sched]);
    if (!K.Barrier)
      E = std::max(E, NextAt[K.Slot]);
    return E;
  }

  /// Occupies \p Res from \p Start for \p Units units; returns when the
  /// result is ready.
  double stage(Resource Res, uint32_t Region, unsigned Sched, double Start,
               double Units) {
    double L, G;
    params(Res, Region, L, G);
    double &N = next(Res, Sched);
    double S = std::max(Start, N);
    N = S + Units * G;
    R.Busy[unsigned(Res)] += Units * G;
    return S + L + std::max(0.0, Units - 1) * G;
  }

  void issue(uint32_t WI, double T) {
    WarpState &S = Warps[WI];
    const DynInst &D = W.Warps[WI].Insts[S.Pos];
    const StaticInst &I = W.Code[D.Idx];
    ++R.Issued;
    End = std::max(End, T);
    if (I.Barrier) {
      BlockState &B = Blocks[W.Warps[WI].Block];
      S.Waiting = true;
      Keys[WI].Blocked = 1;
      ++B.Arrived;
      B.LastArrival = std::max(B.LastArrival, T);
      B.Waiters.push_back(WI);
      advance(WI);
      release(W.Warps[WI].Block);
      return;
    }
    double Done = stage(I.Res, I.Region, S.Sched, T, 1);
    if (D.Units > 0 && D.SecOff != DynInst::NoSectors && P.cacheModel()) {
      // The cache model: each sector hits the L1 (loads), the L2, or goes
      // to DRAM; stores and atomics go through to the L2.
      double L1Hits = 0, L2Hits = 0, Misses = 0, L2StoreHits = 0;
      // The lines the L1's misses ask the L2 for (sectors of one line go
      // in one request). An access's sectors come in ascending order
      // (SmWorkload::Sectors), so a new line is a change of line.
      uint64_t LastLine = ~uint64_t(0);
      double Lines = 0;
      // Every line the access touches, hit or miss, load or store, is one
      // wavefront through the L1's data path.
      uint64_t LastAnyLine = ~uint64_t(0);
      double Wavefronts = 0;
      // A hit on a sector an earlier miss asked for is ready when that
      // miss's data is; this access's misses fill the L1 when theirs is.
      double HitReady = 0;
      Filled.clear();
      // The neighbours, handed out just before this block, access first.
      if (Near.enabled())
        for (uint32_t K = 0; K < D.NearUnits; ++K)
          Near.fill(W.NearSectors[D.NearOff + K] & ((uint64_t(1) << 62) - 1));
      for (uint32_t K = 0; K < D.Units; ++K) {
        uint64_t Raw = W.Sectors[D.SecOff + K];
        bool Load = (Raw >> 62) == 0;
        R.LoadSectors += Load;
        uint64_t Sector = Raw & ((uint64_t(1) << 62) - 1);
        if ((Sector >> 2) != LastAnyLine) {
          LastAnyLine = Sector >> 2;
          ++Wavefronts;
        }
        double SectorReady = 0;
        if (Load && L1.enabled() && L1.lookUp(Sector, &SectorReady)) {
          ++L1Hits;
          HitReady = std::max(HitReady, SectorReady);
          continue;
        }
        if (!Load && L1.enabled())
          L1.drop(Sector);
        if ((Sector >> 2) != LastLine) {
          LastLine = Sector >> 2;
          ++Lines;
        }
        bool InL2 = L2.enabled() &&
                    (L2.lookUp(Sector) || (Near.enabled() && Near.lookUp(Sector)));
        (InL2 ? L2Hits : Misses) += 1;
        if (InL2 && !Load)
          ++L2StoreHits;
        if (Load)
          (InL2 ? R.L2ReadHitSectors : R.L2ReadMissSectors) += 1;
        if (L2.enabled())
          L2.fill(Sector);
        if (Load && L1.enabled()) {
          L1.fill(Sector, Never);
          Filled.push_back(Sector);
        }
      }
      R.L2Requests += Lines;
      if (Lines > 0 && P.L2RequestCycles > 0) {
        double Start = std::max(T, RequestNext);
        RequestNext = Start + Lines * P.L2RequestCycles;
        Done = std::max(Done, RequestNext);
      }
      R.L1HitSectors += L1Hits;
      R.L2HitSectors += L2Hits;
      R.MissSectors += Misses;
      // The access passes the SM's L1/shared-memory data path one line at
      // a time (a wavefront per 128-byte line, whatever its sectors), each
      // taking the time of a whole line at L1SectorsPerCycle sectors per
      // gap of the shared resource: a warp reading a column of 32 rows
      // takes 32 wavefronts where a coalesced row takes one.
      R.L1Wavefronts += Wavefronts;
      if (Wavefronts > 0) {
        double Ready = stage(Resource::Shared, I.Region, S.Sched, T,
                             Wavefronts * P.l1WavefrontUnits());
        Done = std::max(Done, Ready);
        if (L1Hits > 0)
          Done = std::max(Done, Ready + std::max(0.0, P.L1Latency -
                                                          P[Resource::Shared].Latency));
      }
      if (L2Hits > 0) {
        // A stored sector takes the L2's write time (L2StoreGap), in units
        // of its gap.
        double Gap = P[Resource::L2].Gap;
        double StoreUnits = P.L2StoreGap > 0 && Gap > 0 ? P.L2StoreGap / Gap : 1;
        Done = std::max(Done, stage(Resource::L2, I.Region, S.Sched, T,
                                    L2Hits + L2StoreHits * (StoreUnits - 1)));
      }
      if (Misses > 0)
        Done = std::max(Done, stage(Resource::Dram, I.Region, S.Sched, T, Misses));
      for (uint64_t Sector : Filled)
        L1.setReady(Sector, Done);
      Done = std::max(Done, HitReady);
    } else if (D.Units > 0) {
      double U = double(D.Units);
      switch (D.Mem) {
      case MemTarget::Global:
      case MemTarget::Local: {
        double H = P.L2HitRate;
        if (H > 0)
          Done = std::max(Done, stage(Resource::L2, I.Region, S.Sched, T, U * H));
        if (H < 1)
          Done = std::max(Done, stage(Resource::Dram, I.Region, S.Sched, T,
                                      U * (1 - H)));
        break;
      }
      case MemTarget::Shared:
        Done = std::max(Done, stage(Resource::Shared, I.Region, S.Sched, T, U));
        break;
      case MemTarget::None:
        break;
      }
    }
    for (unsigned K = 0; K < I.NumDst; ++K)
      S.RegReady[I.Dst[K]] = Done;
    S.LastDone = std::max(S.LastDone, Done);
    End = std::max(End, Done);
    advance(WI);
  }

  void advance(uint32_t WI) {
    WarpState &S = Warps[WI];
    if (++S.Pos < W.Warps[WI].Insts.size()) {
      refresh(WI);
      return;
    }
    S.Done = true;
    Keys[WI].Blocked = 1;
    --Live;
    BlockState &B = Blocks[W.Warps[WI].Block];
    if (S.Waiting) {
      // Its last instruction was the barrier: it still counts as arrived
      // until the release, then finishes.
      return;
    }
    --B.Live;
    release(W.Warps[WI].Block);
  }

  void release(uint32_t BI) {
    BlockState &B = Blocks[BI];
    if (B.Arrived == 0 || B.Arrived < B.Live)
      return;
    double At = B.LastArrival + P.BarrierLatency;
    for (uint32_t WI : B.Waiters) {
      WarpState &S = Warps[WI];
      S.Waiting = false;
      S.ReadyAt = std::max(S.ReadyAt, At);
      S.LastDone = std::max(S.LastDone, At);
      refresh(WI);
      if (S.Done)
        --B.Live;
    }
    End = std::max(End, At);
    B.Waiters.clear();
    B.Arrived = 0;
  }
};

} // namespace

SimResult simulate(const SmWorkload &W, const TimingParams &P,
                   const Perturbation *Change) {
  return Simulator(W, P, Change).run();
}

//===----------------------------------------------------------------------===//
// Sensitivity
//===----------------------------------------------------------------------===//

namespace {

/// Picks the entry with the largest relative change; latency wins ties only
/// when strictly larger.
void pickBottleneck(const std::vector<ResourceSensitivity> &T, Resource &Res,
                    bool &LatencyBound, double &Impact) {
  Impact = -1;
  for (const ResourceSensitivity &S : T) {
    if (S.Gap > Impact) {
      Impact = S.Gap;
      Res = S.Res;
      LatencyBound = false;
    }
    if (S.Latency > Impact) {
      Impact = S.Latency;
      Res = S.Res;
      LatencyBound = true;
    }
  }
  if (Impact < 0)
    Impact = 0;
}

} // namespace

Analysis analyze(const SmWorkload &W, const TimingParams &P,
                 unsigned MaxRegions, double Step) {
  Analysis A;
  SimResult Base = simulate(W, P);
  A.Base = Base;
  A.Cycles = Base.Cycles;
  A.Issued = Base.Issued;
  double T0 = Base.Cycles > 0 ? Base.Cycles : 1;
  auto rel = [&](const Perturbation &C) {
    return (simulate(W, P, &C).Cycles - Base.Cycles) / T0;
  };
  // Which resources the workload touches, overall and per region.
  size_t NR = std::max<size_t>(W.Regions.size(), 1);
  std::vector<std::vector<bool>> Uses(NR, std::vector<bool>(NumResources));
  std::vector<bool> UsesAny(NumResources);
  std::vector<uint64_t> Count(NR);
  double H = P.L2HitRate;
  for (const WarpStream &S : W.Warps)
    for (const DynInst &D : S.Insts) {
      const StaticInst &I = W.Code[D.Idx];
      uint32_t Rg = I.Region < NR ? I.Region : 0;
      ++Count[Rg];
      auto use = [&](Resource R) {
        Uses[Rg][unsigned(R)] = true;
        UsesAny[unsigned(R)] = true;
      };
      if (I.Barrier)
        continue;
      use(I.Res);
      if (D.Units == 0)
        continue;
      if (D.Mem == MemTarget::Shared)
        use(Resource::Shared);
      if (D.Mem == MemTarget::Global && D.SecOff != DynInst::NoSectors &&
          P.cacheModel()) {
        // The cache model may send its sectors to any level: the L1's data
        // path (the shared resource), the L2, DRAM.
        use(Resource::Shared);
        use(Resource::L2);
        use(Resource::Dram);
      } else if (D.Mem == MemTarget::Global || D.Mem == MemTarget::Local) {
        if (H > 0)
          use(Resource::L2);
        if (H < 1)
          use(Resource::Dram);
      }
    }
  for (unsigned R = 0; R < NumResources; ++R) {
    ResourceSensitivity S;
    S.Res = Resource(R);
    if (UsesAny[R]) {
      Perturbation C;
      C.Res = int(R);
      C.LatencyFactor = 1 + Step;
      S.Latency = rel(C);
      C.LatencyFactor = 1;
      C.GapFactor = 1 + Step;
      S.Gap = rel(C);
    }
    A.Table.push_back(S);
  }
  pickBottleneck(A.Table, A.Bottleneck, A.LatencyBound, A.Impact);
  if (MaxRegions == 0 || W.Regions.empty())
    return A;
  std::vector<uint32_t> Order;
  for (uint32_t Rg = 0; Rg < NR; ++Rg)
    if (Count[Rg])
      Order.push_back(Rg);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](uint32_t X, uint32_t Y) { return Count[X] > Count[Y]; });
  if (Order.size() > MaxRegions)
    Order.resize(MaxRegions);
  for (uint32_t Rg : Order) {
    RegionSensitivity RS;
    RS.Region = Rg;
    RS.Instructions = Count[Rg];
    for (unsigned R = 0; R < NumResources; ++R) {
      if (!Uses[Rg][R])
        continue;
      ResourceSensitivity S;
      S.Res = Resource(R);
      Perturbation C;
      C.Region = int(Rg);
      C.Res = int(R);
      C.LatencyFactor = 1 + Step;
      S.Latency = rel(C);
      C.LatencyFactor = 1;
      C.GapFactor = 1 + Step;
      S.Gap = rel(C);
      RS.Table.push_back(S);
    }
    pickBottleneck(RS.Table, RS.Bottleneck, RS.LatencyBound, RS.Impact);
    A.Regions.push_back(std::move(RS));
  }
  return A;
}

} // namespace klaraptor::timing
