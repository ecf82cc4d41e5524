//===- Explain.cpp - KLARAPTOR_EMU_EXPLAIN: per-launch timing reports -----===//
///
/// \file
/// With KLARAPTOR_EMU_EXPLAIN=<file>, each launch (or only the N-th, with
/// KLARAPTOR_EMU_EXPLAIN_LAUNCH=N) appends a readable report to the file:
/// the time estimate, occupancy, bottleneck and sensitivity table of the
/// launch's own shape (docs/timing.md) and, for an annotated kernel, of the
/// fastest of its admissible candidates. The candidates come from
/// libklaraptor_rt (klaraptor_candidates, found with dlsym so nothing links
/// differently). Candidates are estimated before the real launch, each on
/// two SMs' waves of blocks; every allocation and the module's registered
/// variables are saved before and restored after each estimate, so the
/// program's memory is what it would have been without the explanation.
/// `klaraptor explain` (tools/klaraptor/Explain.cpp) prints the file.
//===----------------------------------------------------------------------===//
#include "EmuRuntime.h"

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <cxxabi.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

namespace klaraptor::emurt {

namespace {

/// klaraptor_candidates of klaraptor_rt.h, declared here so that the
/// emulated runtime does not depend on the runtime's header.
struct RtCandidate {
  uint32_t Size;
  uint32_t Block[3];
  uint32_t Grid[3];
};
using CandidatesFn = int (*)(const char *, void *const *, RtCandidate *,
                             uint32_t, uint32_t *);
/// klaraptor_candidates_shared_mem: each candidate's dynamic shared memory.
using SharedFn = int (*)(const char *, void *const *, uint64_t *, uint32_t,
                         uint32_t *);

std::string fmt(const char *Format, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char *Format, ...) {
  char Buf[512];
  va_list Ap;
  va_start(Ap, Format);
  std::vsnprintf(Buf, sizeof(Buf), Format, Ap);
  va_end(Ap);
  return Buf;
}

std::string dim(const emu::Dim3 &D) {
  return fmt("%ux%ux%u", unsigned(D.X), unsigned(D.Y), unsigned(D.Z));
}

std::string timeText(double Ns) {
  if (Ns >= 1e6)
    return fmt("%.3f ms", Ns / 1e6);
  if (Ns >= 1e3)
    return fmt("%.2f us", Ns / 1e3);
  return fmt("%.0f ns", Ns);
}

} // namespace

void Runtime::initExplain() {
  if (const char *P = std::getenv("KLARAPTOR_EMU_EXPLAIN"))
    ExplainPath = P;
  if (const char *N = std::getenv("KLARAPTOR_EMU_EXPLAIN_LAUNCH")) {
    char *End = nullptr;
    errno = 0;
    unsigned long long V = std::strtoull(N, &End, 10);
    // strtoull takes "-1" as 2^64 - 1: a sign is refused, as is overflow.
    if (*N && *N != '-' && *N != '+' && !*End && errno == 0 && V >= 1)
      ExplainOnly = V;
    else
      note(std::string("KLARAPTOR_EMU_EXPLAIN_LAUNCH='") + N +
           "' is not a launch number (1, 2, ...); explaining every launch");
  }
}

bool Runtime::explainThis() {
  if (ExplainPath.empty())
    return false;
  uint64_t N = ++ExplainCounter;
  return !ExplainOnly || N == ExplainOnly;
}

Runtime::SavedMemory::SavedMemory(Runtime &R, const Function &F,
                                  bool FollowWrites)
    : R(R), FollowWrites(FollowWrites) {
  {
    std::lock_guard<std::mutex> G(R.MemoryMutex);
    for (const auto &[Base, A] : R.Allocations) {
      auto *P = reinterpret_cast<char *>(Base);
      Regions.emplace_back(P, std::vector<char>(P, P + A.Size));
    }
  }
  std::lock_guard<std::mutex> G(R.RegistryMutex);
  for (const auto &[Host, V] : R.HostVars) {
    (void)Host;
    void *Address = nullptr;
    size_t Size = 0;
    if (V.Fatbin && V.Fatbin->Module == F.Module &&
        F.Module->M->findGlobal(V.DeviceName, Address, Size) && Address) {
      auto *P = static_cast<char *>(Address);
      Regions.emplace_back(P, std::vector<char>(P, P + Size));
    }
  }
  std::sort(Regions.begin(), Regions.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  if (FollowWrites)
    R.WrittenPages = &Written;
}

Runtime::SavedMemory::~SavedMemory() { R.WrittenPages = nullptr; }

void Runtime::restoreMemory(SavedMemory &Saved) {
  // Sorted and distinct: each launch leaves it so (LaunchOptions::
  // WrittenPages).
  std::vector<uint64_t> &Pages = Saved.Written;
  const bool All = !Saved.FollowWrites ||
                   (!Pages.empty() && Pages.back() == emu::AllPagesWritten);
  for (auto &[P, Bytes] : Saved.Regions) {
    if (Bytes.empty())
      continue;
    if (All) {
      std::memcpy(P, Bytes.data(), Bytes.size());
      continue;
    }
    // Runs of consecutive written pages, cut to the region.
    const uint64_t Lo = reinterpret_cast<uint64_t>(P),
                   Hi = Lo + Bytes.size();
    auto It = std::lower_bound(Pages.begin(), Pages.end(), Lo >> 12);
    while (It != Pages.end() && (*It << 12) < Hi) {
      uint64_t First = *It, Last = *It;
      while (++It != Pages.end() && *It == Last + 1)
        ++Last;
      uint64_t From = std::max(Lo, First << 12),
               To = std::min(Hi, (Last + 1) << 12);
      std::memcpy(P + (From - Lo), Bytes.data() + (From - Lo), To - From);
    }
  }
  Pages.clear();
}

std::string Runtime::explainShape(const char *Title, const Function &F,
                                  const timing::LaunchEstimate &E,
                                  const timing::SmWorkload *W,
                                  const emu::Dim3 &Grid,
                                  const emu::Dim3 &Block,
                                  uint64_t DynamicShared) {
  const devices::DeviceProfile &D = *device();
  std::string S = fmt("  %s: grid %s, block %s (%" PRIu64 " threads",
                      Title, dim(Grid).c_str(), dim(Block).c_str(),
                      uint64_t(Block.count()));
  if (DynamicShared)
    S += fmt(", %" PRIu64 " bytes of dynamic shared memory", DynamicShared);
  S += ")\n";
  S += "    estimated time: " + timeText(E.Ns) +
       fmt(" (%.0f cycles per wave x %" PRIu64 " waves, %" PRIu64
           " blocks simulated on %s)\n",
           E.CyclesPerWave, E.Waves, E.BlocksSimulated,
           std::isnan(E.OtherCycles) ? "1 SM" : "2 SMs, the slower counts");
  // The bound by same-address atomics decides: the lines below describe
  // the SMs' simulation, which it overrides.
  if (E.AtomicBoundNs > 0 && E.Ns <= E.AtomicBoundNs)
    S += "    bound by same-address atomics: " + timeText(E.AtomicBoundNs) +
         " (the SMs' simulation below: " + timeText(E.SimulatedNs) +
         "; docs/timing.md, \"Same-address atomics\")\n";
  int64_t MaxWarps = D.maxWarpsPerMultiProcessor();
  int64_t Warps = E.Occ.ActiveBlocks * E.Occ.WarpsPerBlock;
  S += fmt("    occupancy: %" PRId64 " blocks/SM, %" PRId64 " of %" PRId64
           " warps/SM (%.0f %%), limited by %s\n",
           E.Occ.ActiveBlocks, Warps, MaxWarps,
           MaxWarps ? 100.0 * double(Warps) / double(MaxWarps) : 0.0,
           E.Occ.Limiter);
  S += "    bottleneck: " +
       timing::bottleneckLabel(E.A.Bottleneck, E.A.LatencyBound) +
       fmt(" (+10 %% -> %+.1f %%)\n", 100 * E.A.Impact);
  S += "    sensitivity (time change for +10 %):\n"
       "      resource   latency      gap\n";
  for (const timing::ResourceSensitivity &R : E.A.Table) {
    if (R.Latency == 0 && R.Gap == 0)
      continue;
    S += fmt("      %-8s %+7.2f %% %+7.2f %%\n", timing::resourceName(R.Res),
             100 * R.Latency, 100 * R.Gap);
  }
  if (!E.A.Regions.empty())
    S += "    regions (busiest first):\n";
  for (const timing::RegionSensitivity &R : E.A.Regions) {
    std::string Name = W && R.Region < W->Regions.size()
                           ? W->Regions[R.Region].Name
                           : fmt("region %u", unsigned(R.Region));
    S += fmt("      %-14s %10" PRIu64 " warp instructions  ", Name.c_str(),
             R.Instructions) +
         timing::bottleneckLabel(R.Bottleneck, R.LatencyBound) +
         fmt(" (%+.1f %%)\n", 100 * R.Impact);
  }
  (void)F;
  return S;
}

bool Runtime::estimateShape(const Function &F, const LaunchRequest &R,
                            const emu::Dim3 &Grid, const emu::Dim3 &Block,
                            int Regions, timing::LaunchEstimate &E,
                            std::unique_ptr<timing::SmWorkload> *W,
                            std::string &Why) {
  TracedShape T;
  return traceShape(F, R, Grid, Block, T, Why) &&
         T.estimate(Regions, E, W, Why);
}

bool Runtime::traceShape(const Function &F, const LaunchRequest &R,
                         const emu::Dim3 &Grid, const emu::Dim3 &Block,
                         TracedShape &T, std::string &Why) {
  const devices::DeviceProfile &D = *device();
  const timing::TimingParams *TP = timingParams();
  const emu::KernelProgram *Prog = timing::kernelProgram(*F.Module->M, F.Name);
  if (!TP || !Prog) {
    Why = TP ? "the kernel's code is not available" : "no timing parameters";
    return false;
  }
  devices::KernelResources K = F.resources();
  devices::Occupancy Occ = devices::computeOccupancy(
      D, K, int64_t(Block.count()), int64_t(R.DynamicShared));
  if (Occ.ActiveBlocks <= 0) {
    Why = std::string("the block does not fit on an SM (") + Occ.Limiter + ")";
    return false;
  }
  timing::EstimatedBlocks B =
      timing::estimatedBlocks(D, Grid.count(), Occ.ActiveBlocks);
  if (TP->cacheModel())
    timing::addNeighbours(B, Grid);
  auto C = std::make_unique<timing::TraceCollector>(B, TP->cacheModel());
  emu::LaunchOptions O;
  O.Grid = Grid;
  O.Block = Block;
  O.DynamicSharedBytes = R.DynamicShared;
  O.Args = R.Args;
  // Only the two SMs' blocks the estimate simulates, the ones a traced
  // launch of the whole grid hands the collector too.
  timing::runOnly(B, O);
  O.HostThreads = HostThreads;
  O.MaxThreadsPerBlock = uint32_t(D.MaxThreadsPerBlock);
  O.MaxSharedBytesPerBlock =
      size_t(std::max(D.SharedMemPerBlockOptin, D.SharedMemPerBlock));
  O.Trace = C.get();
  O.WrittenPages = WrittenPages;
  if (TP->atomicBound())
    O.Metrics = &T.Metrics;
  MemoryMap Memory;
  if (CheckMemory) {
    Memory = memoryMap();
    O.GlobalRanges = &Memory.Ranges;
  }
  emu::LaunchResult Res = F.Module->M->launch(F.Name, O);
  if (Res.Status != emu::LaunchStatus::Ok) {
    Why = Res.Message;
    return false;
  }
  T.Prog = Prog;
  T.D = &D;
  T.TP = TP;
  T.K = K;
  T.Grid = Grid;
  T.Block = Block;
  T.DynamicShared = R.DynamicShared;
  T.C = std::move(C);
  T.Threads = HostThreads;
  return true;
}

bool Runtime::TracedShape::estimate(int Regions, timing::LaunchEstimate &E,
                                    std::unique_ptr<timing::SmWorkload> *W,
                                    std::string &Why) const {
  timing::SmWorkload Simulated;
  if (!timing::estimateFromTrace(*Prog, *C, *D, K, *TP, Grid, Block,
                                 DynamicShared, Regions, E, Why, Threads,
                                 &Metrics, W ? &Simulated : nullptr))
    return false;
  if (W)
    *W = std::make_unique<timing::SmWorkload>(std::move(Simulated));
  return true;
}

void Runtime::explainCandidates(const LaunchRequest &R, std::string &Out,
                                double &BestOutNs) {
  const Function &F = *R.F;
  static CandidatesFn Fn = reinterpret_cast<CandidatesFn>(
      ::dlsym(RTLD_DEFAULT, "klaraptor_candidates"));
  if (!Fn) {
    Out += "  best shape: not searched (the program does not use "
           "libklaraptor_rt)\n";
    return;
  }
  uint32_t Count = 0;
  int S = Fn(F.Name.c_str(), R.Args, nullptr, 0, &Count);
  if (S != 0) {
    Out += S == -1 ? "  not annotated: no candidate shapes\n"
                   : fmt("  best shape: not searched (klaraptor_candidates "
                         "returned %d)\n",
                         S);
    return;
  }
  std::vector<RtCandidate> Cands(Count);
  if (Count && Fn(F.Name.c_str(), R.Args, Cands.data(), Count, &Count) != 0)
    Count = 0;
  Cands.resize(std::min<size_t>(Count, Cands.size()));
  if (Cands.empty()) {
    Out += "  best shape: none (no admissible candidate)\n";
    return;
  }
  // Each candidate's dynamic shared memory (the pragma's shared(...)); a
  // runtime without the query gives every shape the launch's own.
  static SharedFn Shared = reinterpret_cast<SharedFn>(
      ::dlsym(RTLD_DEFAULT, "klaraptor_candidates_shared_mem"));
  std::vector<uint64_t> Bytes(Cands.size(), R.DynamicShared);
  uint32_t SharedCount = 0;
  if (Shared &&
      (Shared(F.Name.c_str(), R.Args, Bytes.data(), uint32_t(Bytes.size()),
              &SharedCount) != 0 ||
       SharedCount != Cands.size()))
    Bytes.assign(Cands.size(), R.DynamicShared);
  auto RequestOf = [&](size_t I) {
    LaunchRequest C = R;
    C.DynamicShared = size_t(Bytes[I]);
    return C;
  };
  // The estimates run kernels: one at a time, like every launch.
  std::lock_guard<std::mutex> L(LaunchMutex);
  SavedMemory Saved(*this, F, /*FollowWrites=*/true);
  double BestNs = 0;
  int Best = -1;
  unsigned Failed = 0;
  for (size_t I = 0; I < Cands.size(); ++I) {
    emu::Dim3 G{Cands[I].Grid[0], Cands[I].Grid[1], Cands[I].Grid[2]};
    emu::Dim3 B{Cands[I].Block[0], Cands[I].Block[1], Cands[I].Block[2]};
    timing::LaunchEstimate E;
    std::string Why;
    bool Ok = estimateShape(F, RequestOf(I), G, B, 0, E, nullptr, Why);
    restoreMemory(Saved);
    if (!Ok) {
      ++Failed;
      continue;
    }
    if (Best < 0 || E.Ns < BestNs) {
      Best = int(I);
      BestNs = E.Ns;
    }
  }
  Out += fmt("  candidates: %zu admissible, %zu estimated\n", Cands.size(),
             Cands.size() - Failed);
  if (Best < 0)
    return;
  emu::Dim3 G{Cands[Best].Grid[0], Cands[Best].Grid[1], Cands[Best].Grid[2]};
  emu::Dim3 B{Cands[Best].Block[0], Cands[Best].Block[1],
              Cands[Best].Block[2]};
  timing::LaunchEstimate E;
  std::unique_ptr<timing::SmWorkload> W;
  std::string Why;
  bool Ok = estimateShape(F, RequestOf(size_t(Best)), G, B, 3, E, &W, Why);
  restoreMemory(Saved);
  if (Ok) {
    Out += explainShape("best shape", F, E, W.get(), G, B, Bytes[size_t(Best)]);
    BestOutNs = E.Ns;
  }
}

/// A kernel's name as its source spells it: the demangled name without its
/// parameter list and, for a template's specialization, without the return
/// type the demangler prints first (`matrix_scale`, `ns::k<int>`), or
/// \p Mangled when it does not demangle (extern "C" kernels).
static std::string sourceName(const std::string &Mangled) {
  int Status = 0;
  char *D = abi::__cxa_demangle(Mangled.c_str(), nullptr, nullptr, &Status);
  if (Status != 0 || !D)
    return Mangled;
  std::string Name = D;
  std::free(D);
  // Cut the parameter list: the last top-level '(' (template arguments may
  // hold parentheses of their own).
  int Depth = 0;
  size_t Cut = std::string::npos;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    if (C == '<')
      ++Depth;
    else if (C == '>' && Depth > 0)
      --Depth;
    else if (C == '(' && Depth == 0) {
      Cut = I;
      break;
    }
  }
  if (Cut != std::string::npos)
    Name.resize(Cut);
  // A template specialization's mangling encodes its return type, which
  // the demangler prints first; a kernel's is always void.
  static constexpr char Void[] = "void ";
  if (Name.compare(0, sizeof Void - 1, Void) == 0)
    Name.erase(0, sizeof Void - 1);
  return Name;
}

void Runtime::writeLaunchReport(const LaunchRequest &R, const char *Note,
                                bool Ok, const timing::LaunchEstimate &E,
                                const timing::SmWorkload *W,
                                const std::string &Why,
                                const std::string &CandidateText,
                                double BestNs) {
  const Function &F = *R.F;
  std::string S = fmt("launch %" PRIu64 ": kernel '%s' (%s) on %s%s\n",
                      uint64_t(ExplainCounter.load()),
                      sourceName(F.Name).c_str(), F.Name.c_str(),
                      device()->Id.c_str(), Note);
  if (Ok)
    S += explainShape("own shape", F, E, W, R.Grid, R.Block, R.DynamicShared);
  else
    S += "  own shape: grid " + dim(R.Grid) + ", block " + dim(R.Block) +
         ": no estimate: " + Why + "\n";
  S += CandidateText;
  if (Ok && BestNs > 0)
    S += fmt("  own / best: %.2f\n", E.Ns / BestNs);
  S += "\n";
  writeExplain(S);
}

void Runtime::explainOwn(const LaunchRequest &R,
                         const timing::TraceCollector *Trace,
                         const emu::KernelProgram *Prog,
                         const emu::LaunchMetrics &Metrics,
                         const std::string &CandidateText, double BestNs) {
  const Function &F = *R.F;
  const timing::TimingParams *TP = timingParams();
  timing::LaunchEstimate E;
  timing::SmWorkload W;
  std::string Why = "no time estimate";
  bool Ok = false;
  if (Trace && Prog && TP) {
    // With the launch's metrics, as the candidates' estimates and the
    // launch's record have them (the same-address atomics' bound).
    Ok = timing::estimateFromTrace(*Prog, *Trace, *device(), F.resources(),
                                   *TP, R.Grid, R.Block, R.DynamicShared, 3, E,
                                   Why, HostThreads, &Metrics, &W);
  } else if (!TP) {
    Why = "no timing parameters (KLARAPTOR_EMU_ESTIMATE=0?)";
  }
  writeLaunchReport(R, "", Ok, E, &W, Why, CandidateText, BestNs);
}

void Runtime::explainUnexecuted(const LaunchRequest &R) {
  timing::LaunchEstimate E;
  std::unique_ptr<timing::SmWorkload> W;
  std::string Why;
  bool Ok;
  {
    std::lock_guard<std::mutex> L(LaunchMutex);
    SavedMemory Saved(*this, *R.F, /*FollowWrites=*/true);
    Ok = estimateShape(*R.F, R, R.Grid, R.Block, 3, E, &W, Why);
    restoreMemory(Saved);
  }
  std::string Candidates;
  double BestNs = -1;
  explainCandidates(R, Candidates, BestNs);
  writeLaunchReport(R,
                    " (not executed: every shape estimated from its "
                    "simulated blocks alone)",
                    Ok, E, W.get(), Why, Candidates, BestNs);
}

void Runtime::writeExplain(const std::string &Text) {
  std::lock_guard<std::mutex> G(ObserverMutex);
  int Fd = ::open(ExplainPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                  0644);
  if (Fd < 0) {
    note("warning: KLARAPTOR_EMU_EXPLAIN: cannot open '" + ExplainPath +
         "': " + std::strerror(errno));
    return;
  }
  if (::write(Fd, Text.data(), Text.size()) != ssize_t(Text.size()))
    note("warning: KLARAPTOR_EMU_EXPLAIN: cannot write '" + ExplainPath + "'");
  ::close(Fd);
}

} // namespace klaraptor::emurt
