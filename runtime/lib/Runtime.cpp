//===- Runtime.cpp - launch decisions for annotated kernels ---------------===//
///
/// \file
/// The hot path (a launch whose key is memoised) finds the kernel in a
/// lock-free table and the decision in this thread's cache; it allocates
/// nothing and writes nothing other threads read. Past the thread cache, a
/// lookup takes one history shard's shared lock. A miss takes the kernel's
/// decision mutex, so a key is decided, and logged, once even when many
/// threads launch it together.
//===----------------------------------------------------------------------===//
#include "Runtime.h"

#include "Candidates.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

#ifndef KLARAPTOR_RT_VERSION
#define KLARAPTOR_RT_VERSION "0.0.0"
#endif

namespace klaraptor {

namespace {
/// Calls \p Call, a CUDA call of the runtime's own, so that the program's
/// error state stays its own: an error \p Call records is cleared, unless
/// the program had one pending (which cudaGetLastError must still return).
/// Returns \p Call's result.
template <typename Fn> int quietly(const CudaApi &A, Fn Call) {
  const bool Pending = A.PeekAtLastError && A.PeekAtLastError() != 0;
  const int Err = Call();
  if (Err != 0 && !Pending && A.GetLastError)
    A.GetLastError();
  return Err;
}

/// While it lives, this thread's stream capture mode is relaxed. The
/// runtime's own CUDA calls (the device and kernel queries of a new
/// decision, the refinement's events: created, waited for, destroyed) are
/// not part of the program's work; during a capture in the global or
/// thread-local mode they count as unsafe and would invalidate the CUDA
/// graph the program is capturing, on this thread or another. The previous
/// mode is restored.
class RelaxedCapture {
public:
  explicit RelaxedCapture(const CudaApi &A) : A(A) {
    if (A.ThreadExchangeStreamCaptureMode)
      Active = quietly(A, [&] {
                 return A.ThreadExchangeStreamCaptureMode(&Mode);
               }) == 0;
  }
  ~RelaxedCapture() {
    if (Active)
      quietly(A, [&] { return A.ThreadExchangeStreamCaptureMode(&Mode); });
  }
  RelaxedCapture(const RelaxedCapture &) = delete;
  RelaxedCapture &operator=(const RelaxedCapture &) = delete;

private:
  const CudaApi &A;
  int Mode = 2; // cudaStreamCaptureModeRelaxed; then the previous mode
  bool Active = false;
};

/// Whether \p Stream is being captured into a CUDA graph: yes, no, or
/// unknown (nullopt: the query failed for another reason than a capture,
/// e.g. no driver, or the program has an error pending that a failing
/// query would replace).
std::optional<bool> capturing(const CudaApi &A, void *Stream) {
  if (!A.StreamIsCapturing)
    return false;
  if (A.PeekAtLastError && A.PeekAtLastError() != 0)
    return std::nullopt;
  // No error is pending: one the query records is the runtime's to clear.
  int Status = 0;
  const int Err = A.StreamIsCapturing(Stream, &Status);
  if (Err != 0 && A.GetLastError)
    A.GetLastError();
  if (Err == 0)
    return Status != 0; // cudaStreamCaptureStatusNone is 0
  // cudaErrorStreamCaptureUnsupported (900) ... WrongThread (908): the
  // stream is, or the legacy stream cannot be used while another is,
  // captured.
  if (Err >= 900 && Err <= 908)
    return true;
  return std::nullopt;
}
} // namespace

Runtime::Runtime(const Config &C, const CudaApi &Api)
    : Cfg(C), Diags(C.Level), Log(C.LogPath, Diags),
      Cache(C.CachePath, Diags), Devices(Api), Plugin(Diags) {
  for (const std::string &W : Cfg.Warnings)
    Diags.reportOnce(LogLevel::Warn, W);
}

bool Runtime::anyPathExists(std::initializer_list<const char *> Paths) {
  struct stat St;
  for (const char *P : Paths)
    if (::stat(P, &St) == 0)
      return true;
  return false;
}

bool Runtime::gpuBuildWithoutGpu(bool DeviceNodes) const {
  return Cfg.TheMode != Mode::Off && Devices.api().hasRuntime() &&
         !Devices.api().hasEmulatorEstimates() && !DeviceNodes;
}

void Runtime::noteNoLaunchWithoutGpu() {
  if (AnyLaunch.load(std::memory_order_relaxed))
    return;
  Diags.reportOnce(
      LogLevel::Warn,
      "this program is built for a GPU and this machine has no NVIDIA GPU "
      "(no /dev/nvidiactl): no annotated launch reached klaraptor; to run it "
      "on klaraptor's emulator, build it with klaraptor-clang++ "
      "--klaraptor-emulate (docs/user-guide.md, section 3)",
      "gpu build without gpu");
}

Runtime &Runtime::global() {
  // Never destroyed: launches may come from other threads during exit.
  static Runtime *R = [] {
    auto *G = new Runtime(Config::fromEnvironment());
    // A program built for a GPU on a machine without one fails at its first
    // CUDA call, before any launch reaches the runtime ("CUDA driver version
    // is insufficient"): at exit, if nothing was launched, say what to do
    // instead. The device nodes tell without loading the driver:
    // /dev/nvidiactl on Linux, /dev/dxg under WSL 2.
    if (G->gpuBuildWithoutGpu(anyPathExists({"/dev/nvidiactl", "/dev/dxg"})))
      std::atexit([] { Runtime::global().noteNoLaunchWithoutGpu(); });
    return G;
  }();
  return *R;
}

static std::string pointerText(const void *P) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%p", P);
  return Buf;
}

static std::string dimsText(const Dim3 &D) {
  return std::to_string(D[0]) + "x" + std::to_string(D[1]) + "x" +
         std::to_string(D[2]);
}

std::string Runtime::dataText(const KernelEntry &E, const int64_t *Data) {
  std::string S;
  for (size_t I = 0; I < E.Spec->Data.size(); ++I) {
    if (I)
      S += ", ";
    S += E.Spec->Data[I].Name + "=" + std::to_string(Data[I]);
  }
  return S;
}

klaraptor_status Runtime::registerKernel(const klaraptor_kernel_desc *K) {
  if (!K)
    return KLARAPTOR_ERR_BAD_ARGUMENT;
  if (KernelEntry *Known = Kernels.find(K))
    return Known->Status;
  auto E = std::make_unique<KernelEntry>();
  E->Desc = K;
  if (K->size < sizeof(klaraptor_kernel_desc) ||
      K->abi_version != KLARAPTOR_RT_ABI_VERSION) {
    E->Status = KLARAPTOR_ERR_ABI;
    Diags.reportOnce(
        LogLevel::Error,
        "kernel descriptor " + pointerText(K) + " has size " +
            std::to_string(K->size) + " and ABI version " +
            std::to_string(K->abi_version) + "; this runtime expects size " +
            std::to_string(sizeof(klaraptor_kernel_desc)) +
            " or more and ABI version " +
            std::to_string(KLARAPTOR_RT_ABI_VERSION) +
            "; its launches keep their configuration");
    return Kernels.insert(std::move(E))->Status;
  }
  E->HostHandle = K->host_handle;
  E->DataFn = K->data_fn;
  if (K->device_name)
    E->DeviceName = K->device_name;
  std::string Shown =
      E->DeviceName.empty() ? "at " + pointerText(K) : "'" + E->DeviceName + "'";
  if (!K->spec) {
    E->Status = KLARAPTOR_ERR_BAD_SPEC;
    Diags.reportOnce(LogLevel::Error, "kernel " + Shown +
                                          ": the descriptor has no spec; its "
                                          "launches keep their configuration");
  } else {
    std::string Error;
    E->Spec = parseKernelSpec(K->spec, Error);
    if (!E->Spec) {
      E->Status = KLARAPTOR_ERR_BAD_SPEC;
      Diags.reportOnce(LogLevel::Error,
                       "kernel " + Shown +
                           ": cannot parse its '#pragma klaraptor' encoding: " +
                           Error + "; its launches keep their configuration");
    }
  }
  if (E->Spec) {
    E->SourceName = E->Spec->KernelName;
    size_t N = E->Spec->Data.size();
    if (K->num_data != N && (K->data_fn || K->num_data != 0)) {
      E->Status = KLARAPTOR_ERR_BAD_SPEC;
      Diags.reportOnce(LogLevel::Error,
                       "kernel '" + E->SourceName + "': the descriptor has " +
                           std::to_string(K->num_data) +
                           " data parameters, its pragma " +
                           std::to_string(N) +
                           "; its launches keep their configuration");
    }
    E->NumParamSlots = unsigned(E->Spec->Params.size());
    if (E->Status != KLARAPTOR_OK)
      E->Spec.reset();
  }
  return Kernels.insert(std::move(E))->Status;
}

klaraptor_status Runtime::checkInfo(const klaraptor_launch_info *Info) {
  if (!Info)
    return KLARAPTOR_ERR_BAD_ARGUMENT;
  if (Info->size < sizeof(klaraptor_launch_info)) {
    Diags.reportOnce(LogLevel::Error,
                     "launch info of size " + std::to_string(Info->size) +
                         "; this runtime expects " +
                         std::to_string(sizeof(klaraptor_launch_info)) +
                         " or more; launching as requested");
    return KLARAPTOR_ERR_ABI;
  }
  return KLARAPTOR_OK;
}

klaraptor_status Runtime::launch(const klaraptor_kernel_desc *K,
                                 klaraptor_launch_info *Info) {
  if (Cfg.TheMode == Mode::Off)
    return KLARAPTOR_UNCHANGED;
  if (!K)
    return KLARAPTOR_ERR_BAD_ARGUMENT;
  if (klaraptor_status S = checkInfo(Info); S != KLARAPTOR_OK)
    return S;
  KernelEntry *E = Kernels.find(K);
  if (!E) {
    registerKernel(K);
    E = Kernels.find(K);
    if (!E)
      return KLARAPTOR_UNCHANGED;
  }
  if (E->Status == KLARAPTOR_ERR_ABI)
    return KLARAPTOR_ERR_ABI;
  return launchEntry(*E, Info, nullptr);
}

klaraptor_status Runtime::launchHandle(const void *Handle,
                                       klaraptor_launch_info *Info) {
  if (Cfg.TheMode == Mode::Off)
    return KLARAPTOR_UNCHANGED;
  if (klaraptor_status S = checkInfo(Info); S != KLARAPTOR_OK)
    return S;
  KernelEntry *E = Handle ? Kernels.findHandle(Handle) : nullptr;
  if (!E)
    return KLARAPTOR_UNCHANGED;
  return launchEntry(*E, Info, nullptr);
}

klaraptor_status Runtime::launchCuFunction(void *Function,
                                           klaraptor_launch_info *Info) {
  if (Cfg.TheMode == Mode::Off)
    return KLARAPTOR_UNCHANGED;
  if (klaraptor_status S = checkInfo(Info); S != KLARAPTOR_OK)
    return S;
  if (!Function)
    return KLARAPTOR_UNCHANGED;
  KernelEntry *E = nullptr;
  if (!Kernels.findFunction(Function, E)) {
    const uint64_t Registered = Kernels.registrations();
    const CudaApi &Api = Devices.api();
    if (!Api.FuncGetName) {
      Diags.reportOnce(LogLevel::Info,
                       "cuFuncGetName is not available in the process; "
                       "launches through cuLaunchKernel keep their "
                       "configuration");
    } else {
      const char *Name = nullptr;
      int Err = Api.FuncGetName(&Name, Function);
      if (Err != 0 || !Name)
        Diags.reportOnce(LogLevel::Warn,
                         "cuFuncGetName failed: " + Api.driverError(Err) +
                             "; that launch keeps its configuration",
                         "cuFuncGetName failed");
      else
        E = Kernels.findName(Name);
    }
    Kernels.cacheFunction(Function, E, Registered);
  }
  if (!E)
    return KLARAPTOR_UNCHANGED;
  return launchEntry(*E, Info, Function);
}

/// Reads kernel parameter \p P from the launch's argument array.
/// The value of \p T stored at \p At (a field of a packed struct may be
/// unaligned, hence the copy).
template <typename T> static int64_t load(const char *At) {
  T V;
  std::memcpy(&V, At, sizeof V);
  return int64_t(V);
}

static bool readParam(void *const *Args, const ParamRef &P, int64_t &V) {
  if (!Args[P.Index])
    return false;
  // A field of a struct parameter lies P.Offset bytes into its storage.
  const char *At = static_cast<const char *>(Args[P.Index]) + P.Offset;
  switch (P.Type) {
  case IntType::I8: V = load<int8_t>(At); return true;
  case IntType::U8: V = load<uint8_t>(At); return true;
  case IntType::I16: V = load<int16_t>(At); return true;
  case IntType::U16: V = load<uint16_t>(At); return true;
  case IntType::I32: V = load<int32_t>(At); return true;
  case IntType::U32: V = load<uint32_t>(At); return true;
  case IntType::I64: V = load<int64_t>(At); return true;
  case IntType::U64: {
    uint64_t U;
    std::memcpy(&U, At, sizeof U);
    if (U > uint64_t(std::numeric_limits<int64_t>::max()))
      return false;
    V = int64_t(U);
    return true;
  }
  }
  return false;
}

bool Runtime::dataValues(KernelEntry &E, const klaraptor_launch_info *Info,
                         int64_t *Out) {
  const KernelSpec &S = *E.Spec;
  size_t N = S.Data.size();
  const std::string &Name = E.displayName();
  if (Info->data) {
    if (Info->num_data != N) {
      Diags.reportOnce(LogLevel::Warn,
                       "kernel '" + Name + "': the launch gives " +
                           std::to_string(Info->num_data) +
                           " data values, its pragma names " +
                           std::to_string(N) + "; launching as requested");
      return false;
    }
    std::memcpy(Out, Info->data, N * sizeof(int64_t));
    return true;
  }
  if (!Info->args) {
    Diags.reportOnce(LogLevel::Warn,
                     "kernel '" + Name +
                         "': data evaluation failed: the launch gives "
                         "neither data values nor kernel arguments; "
                         "launching as requested");
    return false;
  }
  if (E.DataFn) {
    int Rc = E.DataFn(Info->args, Out);
    if (Rc != 0) {
      Diags.reportOnce(LogLevel::Warn,
                       "kernel '" + Name +
                           "': data expression failed (the data function "
                           "returned " +
                           std::to_string(Rc) + "); launching as requested");
      return false;
    }
    return true;
  }
  // No generated data function: evaluate the pragma's data expressions on
  // the arguments it names.
  int64_t SmallParams[16];
  std::vector<int64_t> LargeParams;
  int64_t *Params = SmallParams;
  if (E.NumParamSlots > 16) {
    LargeParams.resize(E.NumParamSlots);
    Params = LargeParams.data();
  }
  for (unsigned I = 0; I < E.NumParamSlots; ++I)
    Params[I] = 0;
  for (size_t I = 0; I < S.Params.size(); ++I)
    if (!readParam(Info->args, S.Params[I], Params[I])) {
      const ParamRef &P = S.Params[I];
      Diags.reportOnce(LogLevel::Warn,
                       "kernel '" + Name + "': data expression failed: "
                                           "cannot read parameter $" +
                           std::to_string(P.Index) + " '" + P.Name +
                           "'; launching as requested");
      return false;
    }
  EvalEnv Env;
  Env.Params = Params;
  Env.NumParams = E.NumParamSlots;
  for (size_t I = 0; I < N; ++I) {
    EvalStatus St = evaluate(*S.Data[I].Value, Env, Out[I]);
    if (St != EvalStatus::Ok) {
      Diags.reportOnce(LogLevel::Warn, "kernel '" + Name +
                                           "': data expression failed: '" +
                                           S.Data[I].Name + "': " +
                                           describe(St) +
                                           "; launching as requested");
      return false;
    }
  }
  return true;
}

/// Replaces the launch's shape with \p Block and \p Grid, and with a
/// shared(...) clause its dynamic shared memory with the clause's bytes for
/// \p Block (the candidates were admitted with it, so it evaluates).
static klaraptor_status apply(bool Tuned, const Dim3 &Block, const Dim3 &Grid,
                              const KernelSpec &S, const int64_t *Data,
                              klaraptor_launch_info *Info) {
  if (!Tuned)
    return KLARAPTOR_UNCHANGED;
  if (S.Shared) {
    int64_t Bytes = 0;
    if (dynamicSharedBytes(S, Data, S.Data.size(), Block, Bytes) !=
            EvalStatus::Ok ||
        Bytes < 0)
      return KLARAPTOR_UNCHANGED;
    Info->shared_mem = uint64_t(Bytes);
  }
  for (int D = 0; D < 3; ++D) {
    Info->grid[D] = Grid[D];
    Info->block[D] = Block[D];
  }
  return KLARAPTOR_OK;
}

namespace {

/// A decision this thread used recently. Valid while its kernel's history
/// is at the same generation, so a repeated launch touches nothing that
/// other threads write. Plain data, zero-initialised: no TLS constructor.
struct ThreadCachedDecision {
  static constexpr size_t MaxKey = 8;
  uint64_t EntryId; ///< KernelEntry::Id; 0 for an empty slot
  uint64_t Generation;
  uint64_t Hash;
  size_t KeyLen;
  int64_t Key[MaxKey];
  Request Req;
  bool Tuned;
  Dim3 Block, Grid;

  bool matches(uint64_t Id, uint64_t Gen, uint64_t H, const int64_t *K,
               size_t N, const Request &R) const {
    return EntryId == Id && Generation == Gen && Hash == H && KeyLen == N &&
           Req == R && std::memcmp(Key, K, N * sizeof(int64_t)) == 0;
  }
};

constexpr unsigned ThreadCacheSlots = 16;
thread_local ThreadCachedDecision ThreadCache[ThreadCacheSlots];

} // namespace

klaraptor_status Runtime::launchEntry(KernelEntry &E,
                                      klaraptor_launch_info *Info,
                                      void *CuFunction) {
  if (!AnyLaunch.load(std::memory_order_relaxed))
    AnyLaunch.store(true, std::memory_order_relaxed);
  if (!E.usable())
    return KLARAPTOR_UNCHANGED;
  const KernelSpec &S = *E.Spec;
  const size_t NumData = S.Data.size();
  // The key: device, then the data values.
  const size_t KeyLen = 1 + NumData;
  int64_t SmallKey[32];
  std::vector<int64_t> LargeKey;
  int64_t *Key = SmallKey;
  if (KeyLen > 32) {
    LargeKey.resize(KeyLen);
    Key = LargeKey.data();
  }
  int64_t *Data = Key + 1;
  if (!dataValues(E, Info, Data))
    return KLARAPTOR_UNCHANGED;
  const int Device = Devices.currentDevice();
  Key[0] = Device;
  dropPendingTrial();
  if ((S.Shared || Info->shared_mem) && !sharedMatches(E, Data, Info))
    return KLARAPTOR_UNCHANGED;
  if (Cfg.TheMode == Mode::Profile)
    return profileLaunch(E, Info, CuFunction, Key, KeyLen);
  const uint64_t Hash = History::hash(Key, KeyLen);
  const Request Req = {Info->grid[0],  Info->grid[1],  Info->grid[2],
                       Info->block[0], Info->block[1], Info->block[2]};

  // 1. This thread's cache.
  const uint64_t Gen = E.Hist.generation();
  ThreadCachedDecision *Cached =
      KeyLen <= ThreadCachedDecision::MaxKey
          ? &ThreadCache[Hash & (ThreadCacheSlots - 1)]
          : nullptr;
  if (Cached && Cached->matches(E.Id, Gen, Hash, Key, KeyLen, Req))
    return apply(Cached->Tuned, Cached->Block, Cached->Grid, S, Data, Info);
  auto Remember = [&](bool Tuned, const Dim3 &Block, const Dim3 &Grid) {
    if (!Cached)
      return;
    Cached->EntryId = E.Id;
    Cached->Generation = Gen;
    Cached->Hash = Hash;
    Cached->KeyLen = KeyLen;
    std::memcpy(Cached->Key, Key, KeyLen * sizeof(int64_t));
    Cached->Req = Req;
    Cached->Tuned = Tuned;
    Cached->Block = Block;
    Cached->Grid = Grid;
  };

  // 2. The kernel's history. Requests are tracked only to log a decision
  // once per request.
  const bool Track = Log.enabled() || Diags.enabled(LogLevel::Info);
  History::Hit Hit;
  auto Reuse = [&]() {
    if (Hit.NewRequest)
      if (auto R = E.Hist.claimRequest(Key, KeyLen, Hash, Req))
        logDecision(E, Device, Data, Req, Hit.Tuned, Hit.Block, Hit.Grid, *R,
                    /*Reused=*/true);
    Remember(Hit.Tuned, Hit.Block, Hit.Grid);
    return apply(Hit.Tuned, Hit.Block, Hit.Grid, S, Data, Info);
  };
  if (E.Hist.find(Key, KeyLen, Hash, Track ? &Req : nullptr, Hit)) {
    if (Hit.Refine)
      return refineLaunch(E, *Hit.Refine, Data, Info);
    return Reuse();
  }

  // 3. A new decision, made once per key. Its device and kernel queries
  // may come while the program captures a CUDA graph.
  RelaxedCapture Relaxed(Devices.api());
  std::unique_lock<std::mutex> Lock(E.DecideMutex);
  if (E.Hist.find(Key, KeyLen, Hash, Track ? &Req : nullptr, Hit)) {
    Lock.unlock();
    if (Hit.Refine)
      return refineLaunch(E, *Hit.Refine, Data, Info);
    return Reuse();
  }
  const Dim3 ReqGrid = {Req[0], Req[1], Req[2]};
  const Dim3 ReqBlock = {Req[3], Req[4], Req[5]};
  if (!Cfg.BenchPath.empty() && Device >= 0) {
    // The bench times a decision as later launches pay it: the one-time
    // device and kernel queries of the first launch are made first.
    std::string Why;
    std::vector<Candidate> Warm;
    admissible(E, Device, Data, CuFunction, Warm, nullptr, Why);
  }
  const auto T0 = std::chrono::steady_clock::now();
  const bool Refine = canRefine() &&
                      E.Refinements.size() < KernelEntry::MaxRefinements;
  std::vector<Refinement::Trial> Ranking;
  std::string CacheKey;
  Decision D = decide(E, Device, Data, ReqGrid, ReqBlock, CuFunction,
                      Refine ? &Ranking : nullptr, &CacheKey);
  if (!Cfg.BenchPath.empty())
    benchDecision(E, Info, CuFunction, Device, Data, D,
                  std::chrono::duration<double, std::nano>(
                      std::chrono::steady_clock::now() - T0)
                      .count());
  Decisions.fetch_add(1, std::memory_order_relaxed);
  const bool Tuned = D.Tuned;
  const Dim3 Block = D.Block, Grid = D.Grid;
  std::shared_ptr<const DecisionRecord> Record = D.Record;
  // The repeats of this key will time the model's best shapes (this first
  // launch is the model's choice, untimed: it pays the warm-up).
  if (Tuned && Ranking.size() >= 2 &&
      Record->Source == DecisionSource::Model) {
    auto R = std::make_unique<Refinement>();
    R->Trials = std::move(Ranking);
    R->Key.assign(Key, Key + KeyLen);
    R->Hash = Hash;
    R->Req = Req;
    R->Record = Record;
    R->CacheKey = CacheKey;
    D.Refine = R.get();
    E.Refinements.push_back(std::move(R));
  }
  const bool Refining = D.Refine != nullptr;
  E.Hist.insert(Key, KeyLen, Hash, std::move(D), Req);
  Lock.unlock();
  logDecision(E, Device, Data, Req, Tuned, Block, Grid, *Record,
              /*Reused=*/false);
  if (!Refining)
    Remember(Tuned, Block, Grid);
  return apply(Tuned, Block, Grid, S, Data, Info);
}

const klaraptor_device_info *
Runtime::admissible(KernelEntry &E, int Device, const int64_t *Data,
                    void *CuFunction, std::vector<Candidate> &Cands,
                    RejectCounts *Rejects, std::string &Why) {
  const klaraptor_device_info *Info = Devices.limits(Device, Why);
  if (!Info)
    return nullptr;
  CandidateEnumerator Enum(*E.Spec, launchLimits(E, Device, CuFunction, *Info));
  Cands = Enum.admissible(Data, E.Spec->Data.size(), Rejects);
  return Info;
}

LaunchLimits Runtime::launchLimits(KernelEntry &E, int Device,
                                   void *CuFunction,
                                   const klaraptor_device_info &Info) {
  auto Slot = E.Limits.find({Device, CuFunction});
  if (Slot == E.Limits.end())
    Slot = E.Limits
               .emplace(std::make_pair(Device, CuFunction),
                        Devices.kernelLimits(E.HostHandle, CuFunction, Device))
               .first;
  return LaunchLimits::from(Info, Slot->second.MaxThreads,
                            Slot->second.MaxDynamicShared);
}

void Runtime::describeLaunch(KernelEntry &E, const klaraptor_launch_info *Info,
                             void *CuFunction, const int64_t *Data,
                             const std::vector<Candidate> &Cands,
                             const klaraptor_device_info *Dev,
                             std::vector<const char *> &Names,
                             std::vector<klaraptor_candidate> &Out,
                             std::vector<uint64_t> &Shared,
                             klaraptor_profile_launch &L) {
  const KernelSpec &S = *E.Spec;
  Names.clear();
  for (const DataParam &P : S.Data)
    Names.push_back(P.Name.c_str());
  Out.clear();
  Shared.clear();
  for (const Candidate &C : Cands) {
    Shared.push_back(C.Shared);
    klaraptor_candidate K;
    K.size = sizeof(K);
    for (int D = 0; D < 3; ++D) {
      K.block[D] = C.Block[D];
      K.grid[D] = C.Grid[D];
    }
    Out.push_back(K);
  }
  std::memset(&L, 0, sizeof(L));
  L.size = sizeof(L);
  L.abi_version = KLARAPTOR_RT_ABI_VERSION;
  L.kernel = E.DeviceName.c_str();
  L.source_name = E.SourceName.c_str();
  L.spec = E.Desc && E.Desc->spec ? E.Desc->spec : "";
  L.host_handle = E.HostHandle;
  L.cu_function = CuFunction;
  L.num_data = uint32_t(S.Data.size());
  L.data_names = Names.data();
  L.data = Data;
  for (int D = 0; D < 3; ++D) {
    L.grid[D] = Info->grid[D];
    L.block[D] = Info->block[D];
  }
  L.shared_mem = Info->shared_mem;
  L.stream = Info->stream;
  L.args = Info->args;
  L.num_candidates = uint32_t(Out.size());
  L.candidates = Out.data();
  L.device = Dev;
  L.candidate_shared_mem = Shared.data();
}

bool Runtime::gridCovers(KernelEntry &E, int Device, const int64_t *Data,
                         const Dim3 &ReqGrid, const Dim3 &ReqBlock,
                         void *CuFunction, const klaraptor_device_info &Dev,
                         const char *Consequence) {
  if (!Cfg.GridCheck)
    return true;
  // For the program's own block, the pragma's grid formula must cover the
  // program's own grid (at least as many blocks in every dimension): a
  // smaller grid means the formula does not describe how the kernel maps
  // threads to data (e.g. its x and y swapped), and any other shape would
  // leave data unprocessed. A larger one is a program that launches fewer
  // blocks than the formula asks for (a guard or a grid-stride loop covers
  // the rest), which the formula's launches also cover. A block the pragma
  // cannot express (a fixed dimension other than 1) or one its where
  // clauses reject says nothing about the formula.
  const KernelSpec &S = *E.Spec;
  for (int D = 0; D < 3; ++D)
    if (!S.FreeDims[D] && ReqBlock[D] != 1)
      return true;
  Dim3 FormulaGrid;
  if (!CandidateEnumerator(S, launchLimits(E, Device, CuFunction, Dev))
           .admit(Data, S.Data.size(), ReqBlock, FormulaGrid))
    return true;
  if (FormulaGrid[0] >= ReqGrid[0] && FormulaGrid[1] >= ReqGrid[1] &&
      FormulaGrid[2] >= ReqGrid[2])
    return true;
  const std::string &Name = E.displayName();
  Diags.reportOnce(
      LogLevel::Warn,
      "kernel '" + Name + "': the pragma's grid formula gives grid " +
          dimsText(FormulaGrid) + " for the program's own block " +
          dimsText(ReqBlock) + " at " + dataText(E, Data) +
          ", smaller than the grid " + dimsText(ReqGrid) +
          " the program launches: the formula does not match the kernel's "
          "indexing (check grid(...) at " +
          S.Location + "; KLARAPTOR_GRID_CHECK=off trusts it); " +
          Consequence,
      "grid mismatch:" + Name);
  return false;
}

bool Runtime::sharedMatches(KernelEntry &E, const int64_t *Data,
                            const klaraptor_launch_info *Info) {
  const KernelSpec &S = *E.Spec;
  const Dim3 ReqBlock = {Info->block[0], Info->block[1], Info->block[2]};
  int64_t Bytes = 0;
  EvalStatus St = dynamicSharedBytes(S, Data, S.Data.size(), ReqBlock, Bytes);
  if (St == EvalStatus::Ok && Bytes >= 0 && uint64_t(Bytes) == Info->shared_mem)
    return true;
  const std::string &Name = E.displayName();
  const char *Consequence = Cfg.TheMode == Mode::Profile
                                ? "not profiled, launching as requested"
                                : "launching as requested";
  std::string Asks = "the launch asks for " +
                     std::to_string(Info->shared_mem) +
                     " bytes of dynamic shared memory with block " +
                     dimsText(ReqBlock) + " at " + dataText(E, Data);
  std::string Msg;
  if (!S.Shared)
    Msg = "kernel '" + Name + "': " + Asks + ", and its pragma at " +
          S.Location +
          " has no shared(...) clause, so klaraptor cannot give another "
          "block shape the memory it needs; " +
          Consequence +
          " (add shared(BYTES) to the pragma: the bytes as an expression "
          "of the data names and bx, by, bz, e.g. shared(4 * bx), or a "
          "constant when the amount does not depend on the shape)";
  else if (St != EvalStatus::Ok)
    Msg = "kernel '" + Name + "': " + Asks + "; the pragma's shared(...) at " +
          S.Location + " cannot be evaluated for that block (" +
          describe(St) + "); " + Consequence;
  else
    Msg = "kernel '" + Name + "': " + Asks + "; the pragma's shared(...) at " +
          S.Location + " gives " + std::to_string(Bytes) +
          " bytes for that block, so it does not describe this launch; " +
          Consequence;
  Diags.reportOnce(LogLevel::Warn, Msg, "shared mismatch:" + Name);
  return false;
}

klaraptor_status Runtime::profileLaunch(KernelEntry &E,
                                        klaraptor_launch_info *Info,
                                        void *CuFunction, const int64_t *Key,
                                        size_t KeyLen) {
  const int Device = int(Key[0]);
  const int64_t *Data = Key + 1;
  if (Device < 0) {
    Diags.reportOnce(LogLevel::Warn,
                     "KLARAPTOR_MODE=profile: no CUDA device: " +
                         Devices.whyNoDevice() + "; nothing is profiled",
                     "no CUDA device");
    return KLARAPTOR_UNCHANGED;
  }
  // A launch captured into a CUDA graph does not run now, and the sweep's
  // launches and waits would end up in the graph or invalidate it: it is
  // left alone (and the same data may still be profiled when it runs).
  // (A query that cannot answer profiles: the profiler says what is wrong.)
  if (capturing(Devices.api(), Info->stream).value_or(false)) {
    Diags.reportOnce(LogLevel::Info,
                     "KLARAPTOR_MODE=profile: kernel '" + E.displayName() +
                         "': a launch captured into a CUDA graph is not "
                         "profiled",
                     "profile: captured launch of " + E.displayName());
    return KLARAPTOR_UNCHANGED;
  }
  {
    std::vector<int64_t> Id(Key, Key + KeyLen);
    Id.insert(Id.begin(), int64_t(E.Id));
    std::lock_guard<std::mutex> G(ProfiledMutex);
    if (!Profiled.insert(std::move(Id)).second)
      return KLARAPTOR_UNCHANGED;
  }
  if (!Info->args) {
    Diags.reportOnce(LogLevel::Warn,
                     "KLARAPTOR_MODE=profile: kernel '" + E.displayName() +
                         "': the launch passed no argument array, so the "
                         "kernel cannot be run for profiling; launching as "
                         "requested");
    return KLARAPTOR_UNCHANGED;
  }
  klaraptor_profile_launch_fn Fn = Plugin.launchFn();
  if (!Fn)
    return KLARAPTOR_UNCHANGED;
  std::lock_guard<std::mutex> G(E.DecideMutex);
  std::string Why;
  std::vector<Candidate> Cands;
  const klaraptor_device_info *Dev =
      admissible(E, Device, Data, CuFunction, Cands, nullptr, Why);
  if (!Dev) {
    Diags.reportOnce(LogLevel::Warn, "KLARAPTOR_MODE=profile: device " +
                                         std::to_string(Device) + ": " + Why +
                                         "; nothing is profiled");
    return KLARAPTOR_UNCHANGED;
  }
  const Dim3 ReqGrid = {Info->grid[0], Info->grid[1], Info->grid[2]};
  const Dim3 ReqBlock = {Info->block[0], Info->block[1], Info->block[2]};
  if (!gridCovers(E, Device, Data, ReqGrid, ReqBlock, CuFunction, *Dev,
                  "not profiled (its other shapes would leave data "
                  "unprocessed), launching as requested"))
    return KLARAPTOR_UNCHANGED;
  std::vector<const char *> Names;
  std::vector<klaraptor_candidate> Out;
  std::vector<uint64_t> Shared;
  klaraptor_profile_launch L;
  describeLaunch(E, Info, CuFunction, Data, Cands, Dev, Names, Out, Shared, L);
  Fn(&L);
  return KLARAPTOR_UNCHANGED;
}

void Runtime::benchDecision(KernelEntry &E, klaraptor_launch_info *Info,
                            void *CuFunction, int Device, const int64_t *Data,
                            const Decision &D, double DecisionNs) {
  klaraptor_profile_decision_fn Fn = Plugin.decisionFn();
  if (!Fn || !Info->args || Device < 0)
    return;
  std::string Why;
  std::vector<Candidate> Cands;
  const klaraptor_device_info *Dev =
      admissible(E, Device, Data, CuFunction, Cands, nullptr, Why);
  if (!Dev)
    return;
  std::vector<const char *> Names;
  std::vector<klaraptor_candidate> Out;
  std::vector<uint64_t> Shared;
  klaraptor_profile_launch L;
  describeLaunch(E, Info, CuFunction, Data, Cands, Dev, Names, Out, Shared, L);
  klaraptor_profile_decision P;
  std::memset(&P, 0, sizeof(P));
  P.size = sizeof(P);
  P.tuned = D.Tuned ? 1 : 0;
  P.chosen.size = sizeof(P.chosen);
  for (int I = 0; I < 3; ++I) {
    P.chosen.block[I] = D.Tuned ? D.Block[I] : Info->block[I];
    P.chosen.grid[I] = D.Tuned ? D.Grid[I] : Info->grid[I];
  }
  P.predicted = D.Record ? D.Record->Predicted : 0;
  P.decision_ns = DecisionNs;
  P.source = D.Record ? spelling(D.Record->Source) : "fallback";
  P.model = D.Record ? D.Record->ModelName.c_str() : "";
  Fn(&L, &P);
}

Decision Runtime::decide(KernelEntry &E, int Device, const int64_t *Data,
                         const Dim3 &ReqGrid, const Dim3 &ReqBlock,
                         void *CuFunction,
                         std::vector<Refinement::Trial> *Ranking,
                         std::string *CacheKeyOut) {
  const KernelSpec &S = *E.Spec;
  const std::string &Name = E.displayName();
  auto Record = std::make_shared<DecisionRecord>();
  Decision D;
  D.Record = Record;
  auto Fallback = [&](const char *Reason) {
    Record->Source = DecisionSource::Fallback;
    Record->Reason = Reason;
    D.Tuned = false;
    return D;
  };

  if (Device < 0) {
    Diags.reportOnce(LogLevel::Warn, "no CUDA device: " +
                                         Devices.whyNoDevice() +
                                         "; launches keep their configuration",
                     "no CUDA device");
    return Fallback("no CUDA device");
  }
  std::string Why;
  RejectCounts Rejects;
  std::vector<Candidate> Cands;
  const klaraptor_device_info *Info =
      admissible(E, Device, Data, CuFunction, Cands, &Rejects, Why);
  if (!Info) {
    Diags.reportOnce(LogLevel::Warn, "no CUDA device: device " +
                                         std::to_string(Device) + ": " + Why +
                                         "; launches keep their configuration");
    return Fallback("no CUDA device");
  }
  Record->Candidates = unsigned(Cands.size());
  if (Cands.empty()) {
    Diags.reportOnce(
        LogLevel::Warn,
        "kernel '" + Name + "': no admissible launch configuration for " +
            dataText(E, Data) + " (where false " +
            std::to_string(Rejects.WhereFalse) + ", where failed " +
            std::to_string(Rejects.WhereError) + ", grid failed " +
            std::to_string(Rejects.GridError) + ", grid out of range " +
            std::to_string(Rejects.GridOutOfRange) +
            (S.Shared ? ", shared failed " +
                            std::to_string(Rejects.SharedError) +
                            ", shared above the kernel's limit " +
                            std::to_string(Rejects.SharedOutOfRange)
                      : std::string()) +
            "); launching as requested",
        "no admissible:" + Name);
    return Fallback("no admissible candidate");
  }
  if (!gridCovers(E, Device, Data, ReqGrid, ReqBlock, CuFunction, *Info,
                  "launching as requested"))
    return Fallback("grid formula disagrees with the launch");
  std::shared_ptr<const Model> M = Models.find(E.DeviceName, E.SourceName);
  if (!M)
    return Fallback("no model");

  // The persistent cache, keyed by program, kernel, GPU, model and data.
  std::string CacheKey;
  if (Cache.enabled()) {
    CacheKey = "prog=" + DecisionCache::programIdentity() + "|kernel=" +
               E.DeviceName + ":" +
               std::to_string(DecisionCache::fnv1a(E.Desc->spec)) + "|gpu=" +
               Info->name + ":" + std::to_string(Info->cc_major) + "." +
               std::to_string(Info->cc_minor) + ":" +
               std::to_string(Info->sm_count) + "|model=" + M->Name +
               ":" KLARAPTOR_RT_VERSION "|margin=" +
               std::to_string(Cfg.Margin) + "|data=";
    for (size_t I = 0; I < S.Data.size(); ++I)
      CacheKey += (I ? "," : "") + std::to_string(Data[I]);
    if (CacheKeyOut)
      *CacheKeyOut = CacheKey;
    // A measured decision (the online refinement's), else the model's; used
    // only if it is still one of the admissible candidates.
    auto FromCache = [&](const std::string &K, DecisionSource Source) {
      CachedDecision C;
      if (!Cache.lookup(K, C))
        return false;
      for (const Candidate &Cand : Cands)
        if (Cand.Block == C.Block && Cand.Grid == C.Grid) {
          D.Tuned = true;
          D.Block = C.Block;
          D.Grid = C.Grid;
          Record->Source = Source;
          Record->ModelName = M->Name;
          // A measured record keeps its time where a model's keeps its
          // prediction.
          (Source == DecisionSource::Measured ? Record->MeasuredNs
                                              : Record->Predicted) =
              C.Predicted;
          return true;
        }
      return false;
    };
    if (FromCache(refinedCacheKey(CacheKey), DecisionSource::Measured) ||
        FromCache(CacheKey, DecisionSource::Cache))
      return D;
  }

  klaraptor_candidate KC;
  std::memset(&KC, 0, sizeof(KC));
  KC.size = sizeof(KC);
  std::vector<double> Predictions(Cands.size(), NAN);
  double Best = 0, RequestPrediction = NAN;
  int BestIndex = -1, RequestIndex = -1;
  bool BestIsRequest = false;
  for (size_t I = 0; I < Cands.size(); ++I) {
    const Candidate &C = Cands[I];
    for (int Dim = 0; Dim < 3; ++Dim) {
      KC.block[Dim] = C.Block[Dim];
      KC.grid[Dim] = C.Grid[Dim];
    }
    double P = M->Predict(M->Ctx, Data, uint32_t(S.Data.size()), &KC, Info);
    if (Diags.enabled(LogLevel::Debug))
      Diags.report(LogLevel::Debug, "kernel '" + Name + "' (" +
                                        dataText(E, Data) + "): block " +
                                        dimsText(C.Block) + " grid " +
                                        dimsText(C.Grid) + ": predicted " +
                                        std::to_string(P));
    // Only finite, non-negative predictions count.
    if (!std::isfinite(P) || P < 0)
      continue;
    Predictions[I] = P;
    bool IsRequest = C.Block == ReqBlock && C.Grid == ReqGrid;
    if (IsRequest) {
      RequestIndex = int(I);
      RequestPrediction = P;
    }
    // Exactly equal predictions: the requested launch, else the block
    // nearest the requested one, else the first in enumeration order.
    if (BestIndex < 0 || P < Best ||
        (P == Best && !BestIsRequest &&
         (IsRequest ||
          blockDistance(C.Block, ReqBlock) <
              blockDistance(Cands[size_t(BestIndex)].Block, ReqBlock)))) {
      Best = P;
      BestIndex = int(I);
      BestIsRequest = IsRequest;
    }
  }
  if (BestIndex < 0) {
    Diags.reportOnce(LogLevel::Warn,
                     "kernel '" + Name + "': model '" + M->Name +
                         "' gave no valid prediction (NaN, infinite or "
                         "negative) for the " +
                         std::to_string(Cands.size()) + " candidates at " +
                         dataText(E, Data) + "; launching as requested",
                     "no valid prediction:" + Name + ":" + M->Name);
    Record->ModelName = M->Name;
    return Fallback("no valid prediction");
  }
  // The model's resolution: the requested shape stays unless a candidate is
  // predicted faster by more than the margin (KLARAPTOR_MARGIN).
  if (RequestIndex >= 0 && !(Best < RequestPrediction * (1 - Cfg.Margin))) {
    BestIndex = RequestIndex;
    Best = RequestPrediction;
  }
  D.Tuned = true;
  D.Block = Cands[BestIndex].Block;
  D.Grid = Cands[BestIndex].Grid;
  Record->Source = DecisionSource::Model;
  Record->ModelName = M->Name;
  Record->Predicted = Best;
  if (Cache.enabled())
    Cache.store(CacheKey, CachedDecision{D.Block, D.Grid, Best});
  if (Ranking) {
    // The choice, then the others by prediction (on a tie the block nearest
    // the requested one, then enumeration order).
    std::vector<size_t> Order;
    for (size_t I = 0; I < Cands.size(); ++I)
      if (int(I) != BestIndex && !std::isnan(Predictions[I]))
        Order.push_back(I);
    std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      if (Predictions[A] != Predictions[B])
        return Predictions[A] < Predictions[B];
      return blockDistance(Cands[A].Block, ReqBlock) <
             blockDistance(Cands[B].Block, ReqBlock);
    });
    Order.insert(Order.begin(), size_t(BestIndex));
    Ranking->clear();
    for (size_t I = 0; I < Order.size() && I < Cfg.RefineShapes; ++I) {
      Refinement::Trial T;
      T.Block = Cands[Order[I]].Block;
      T.Grid = Cands[Order[I]].Grid;
      T.Predicted = Predictions[Order[I]];
      Ranking->push_back(T);
    }
  }
  return D;
}

//===-- Online refinement ---------------------------------------------------===//

namespace {
/// The trial this thread launched and whose after-launch hook has not come
/// yet. Plain data: no TLS constructor.
thread_local Refinement *PendingRefinement = nullptr;
thread_local unsigned PendingTrial = 0;

} // namespace

bool Runtime::canRefine() const {
  if (Cfg.RefineShapes < 2)
    return false;
  const CudaApi &A = Devices.api();
  return A.hasEmulatorEstimates() || A.hasEvents();
}

void Runtime::dropPendingTrial() {
  Refinement *R = PendingRefinement;
  if (!R)
    return;
  PendingRefinement = nullptr;
  std::lock_guard<std::mutex> G(R->M);
  R->Trials[PendingTrial].Failed = true;
  Diags.reportOnce(LogLevel::Info,
                   "a launch site has no after-launch hook (built by an "
                   "older klaraptor-clang++?); its launches are not refined",
                   "no after-launch hook");
}

void Runtime::launched(klaraptor_launch_info *Info, int Status) {
  Refinement *R = PendingRefinement;
  if (!R)
    return;
  PendingRefinement = nullptr;
  std::lock_guard<std::mutex> G(R->M);
  Refinement::Trial &T = R->Trials[PendingTrial];
  T.Stopped = true;
  const CudaApi &A = Devices.api();
  if (Status != 0) {
    T.Failed = true;
  } else if (A.hasEmulatorEstimates()) {
    double Ns = NAN;
    if (A.EmuLastLaunchEstimate(&Ns) == 0 && std::isfinite(Ns) && Ns >= 0)
      T.Ns = Ns;
    else
      T.Failed = true;
  } else {
    RelaxedCapture Relaxed(A);
    if (!T.Stop || !Info || A.EventRecord(T.Stop, Info->stream) != 0)
      T.Failed = true;
  }
}

klaraptor_status Runtime::refineLaunch(KernelEntry &E, Refinement &R,
                                       const int64_t *Data,
                                       klaraptor_launch_info *Info) {
  std::lock_guard<std::mutex> G(R.M);
  // No trial so far has a time (no estimate, no after-launch hook, the
  // launch failed): the others would be launched for nothing.
  auto HasTime = [](const Refinement::Trial &T) {
    return !T.Failed && (std::isfinite(T.Ns) || (T.Launched && T.Stopped));
  };
  if (!R.Finished && R.Next > 0 &&
      std::none_of(R.Trials.begin(), R.Trials.begin() + R.Next, HasTime))
    R.Next = unsigned(R.Trials.size());
  const CudaApi &A = Devices.api();
  // A launch captured into a CUDA graph does not run now: it is neither
  // timed nor waited for; it gets the model's decision, and the trials go
  // on with the launches that run.
  // (A query that cannot answer: not timed either.)
  if (!R.Finished && !A.hasEmulatorEstimates() &&
      capturing(A, Info->stream).value_or(true))
    return apply(true, R.Trials[0].Block, R.Trials[0].Grid, *E.Spec, Data,
                 Info);
  if (!R.Finished && R.Next < R.Trials.size()) {
    const unsigned I = R.Next++;
    Refinement::Trial &T = R.Trials[I];
    bool Armed = false;
    if (A.hasEmulatorEstimates()) {
      A.EmuEstimateNextLaunch();
      Armed = true;
    } else {
      RelaxedCapture Relaxed(A);
      // cudaEventDefault: timing events on the launch's stream.
      if (!T.Start && A.EventCreateWithFlags(&T.Start, 0) != 0)
        T.Start = nullptr;
      if (!T.Stop && A.EventCreateWithFlags(&T.Stop, 0) != 0)
        T.Stop = nullptr;
      Armed = T.Start && T.Stop && A.EventRecord(T.Start, Info->stream) == 0;
    }
    T.Launched = Armed;
    T.Failed = !Armed;
    if (Armed) {
      PendingRefinement = &R;
      PendingTrial = I;
    }
    return apply(true, T.Block, T.Grid, *E.Spec, Data, Info);
  }
  if (!R.Finished)
    finishRefinement(E, R);
  return apply(true, R.Block, R.Grid, *E.Spec, Data, Info);
}

void Runtime::finishRefinement(KernelEntry &E, Refinement &R) {
  const CudaApi &A = Devices.api();
  const bool Events = !A.hasEmulatorEstimates();
  RelaxedCapture Relaxed(A);
  int BestIndex = -1;
  unsigned Timed = 0;
  for (size_t I = 0; I < R.Trials.size(); ++I) {
    Refinement::Trial &T = R.Trials[I];
    if (Events && T.Launched && T.Stopped && !T.Failed) {
      float Ms = 0;
      // The trial ended before this launch was made: waiting for its stop
      // event waits for that launch only.
      if (A.EventSynchronize(T.Stop) == 0 &&
          A.EventElapsedTime(&Ms, T.Start, T.Stop) == 0 && Ms >= 0)
        T.Ns = double(Ms) * 1e6;
      else
        T.Failed = true;
    }
    if (Events) {
      if (T.Start)
        A.EventDestroy(T.Start);
      if (T.Stop)
        A.EventDestroy(T.Stop);
      T.Start = T.Stop = nullptr;
    }
    if (T.Failed || !std::isfinite(T.Ns))
      continue;
    ++Timed;
    if (BestIndex < 0 || T.Ns < R.Trials[size_t(BestIndex)].Ns)
      BestIndex = int(I);
  }
  R.Finished = true;
  // Nothing timed (every launch failed, no after-launch hook, no events):
  // the model's decision stays.
  const Refinement::Trial &Best = R.Trials[BestIndex < 0 ? 0 : BestIndex];
  R.Block = Best.Block;
  R.Grid = Best.Grid;
  auto Record = std::make_shared<DecisionRecord>(*R.Record);
  if (BestIndex >= 0) {
    Record->Source = DecisionSource::Measured;
    Record->Predicted = Best.Predicted;
    Record->MeasuredNs = Best.Ns;
    Record->Trials = Timed;
    if (!R.CacheKey.empty())
      Cache.store(refinedCacheKey(R.CacheKey),
                  CachedDecision{Best.Block, Best.Grid, Best.Ns});
  }
  Decision D;
  D.Tuned = true;
  D.Block = Best.Block;
  D.Grid = Best.Grid;
  D.Record = Record;
  E.Hist.insert(R.Key.data(), R.Key.size(), R.Hash, D, R.Req);
  if (BestIndex >= 0)
    logDecision(E, int(R.Key[0]), R.Key.data() + 1, R.Req, true, Best.Block,
                Best.Grid, *Record, /*Reused=*/false);
}

void Runtime::logDecision(KernelEntry &E, int Device, const int64_t *Data,
                          const Request &Req, bool Tuned, const Dim3 &Block,
                          const Dim3 &Grid, const DecisionRecord &R,
                          bool Reused) {
  LogEntry L;
  L.Kernel = E.SourceName;
  L.DeviceName = E.DeviceName;
  L.Device = Device;
  for (size_t I = 0; I < E.Spec->Data.size(); ++I)
    L.Data.emplace_back(E.Spec->Data[I].Name, Data[I]);
  L.RequestedGrid = {Req[0], Req[1], Req[2]};
  L.RequestedBlock = {Req[3], Req[4], Req[5]};
  L.Grid = Tuned ? Grid : L.RequestedGrid;
  L.Block = Tuned ? Block : L.RequestedBlock;
  int64_t Shared = 0;
  if (E.Spec->Shared &&
      dynamicSharedBytes(*E.Spec, Data, E.Spec->Data.size(), L.Block,
                         Shared) == EvalStatus::Ok &&
      Shared >= 0) {
    L.HaveShared = true;
    L.Shared = uint64_t(Shared);
  }
  L.Source = R.Source;
  const bool Modelled = R.Source == DecisionSource::Model ||
                        R.Source == DecisionSource::Cache ||
                        R.Source == DecisionSource::Measured;
  if (Reused && Modelled)
    L.Source = DecisionSource::History;
  L.Reason = R.Reason;
  L.ModelName = R.ModelName;
  // A measured decision read from the cache has no prediction of its own.
  L.HavePrediction = Modelled && (R.Source != DecisionSource::Measured ||
                                  R.Predicted > 0);
  L.Predicted = R.Predicted;
  L.MeasuredNs = R.MeasuredNs;
  L.Trials = R.Trials;
  L.Candidates = R.Candidates;
  L.Pid = long(::getpid());
  Log.write(L);
  if (Diags.enabled(LogLevel::Info)) {
    std::string Msg = "kernel '" + E.displayName() + "' (" +
                      dataText(E, Data) + "): block " + dimsText(L.Block) +
                      " grid " + dimsText(L.Grid) + " (" +
                      spelling(L.Source);
    if (!L.ModelName.empty())
      Msg += " '" + L.ModelName + "'";
    if (!L.Reason.empty())
      Msg += ": " + L.Reason;
    Msg += ", " + std::to_string(L.Candidates) + " candidates)";
    Diags.report(LogLevel::Info, Msg);
  }
}

klaraptor_status Runtime::registerModel(const char *Kernel,
                                        const klaraptor_model *M) {
  if (!Kernel || !*Kernel)
    return KLARAPTOR_ERR_BAD_ARGUMENT;
  std::shared_ptr<Model> P;
  if (M) {
    if (M->size < sizeof(klaraptor_model) ||
        M->abi_version != KLARAPTOR_RT_ABI_VERSION) {
      Diags.reportOnce(LogLevel::Error,
                       std::string("model for kernel '") + Kernel +
                           "' has size " + std::to_string(M->size) +
                           " and ABI version " +
                           std::to_string(M->abi_version) +
                           "; this runtime expects size " +
                           std::to_string(sizeof(klaraptor_model)) +
                           " or more and ABI version " +
                           std::to_string(KLARAPTOR_RT_ABI_VERSION));
      return KLARAPTOR_ERR_ABI;
    }
    if (!M->predict)
      return KLARAPTOR_ERR_BAD_ARGUMENT;
    P = std::make_shared<Model>();
    P->Name = M->name ? M->name : "unnamed";
    P->Predict = M->predict;
    P->Ctx = M->ctx;
  }
  const std::string Name = Kernel;
  Models.set(Name, std::move(P));
  Kernels.forEach([&](KernelEntry &E) {
    if (E.DeviceName != Name && E.SourceName != Name)
      return;
    std::lock_guard<std::mutex> G(E.DecideMutex);
    E.Hist.clear();
  });
  return KLARAPTOR_OK;
}

void Runtime::clearHistory() {
  Kernels.forEach([](KernelEntry &E) {
    std::lock_guard<std::mutex> G(E.DecideMutex);
    E.Hist.clear();
  });
}

klaraptor_status Runtime::candidates(const char *Kernel, void *const *Args,
                                     std::vector<Candidate> &Out) {
  Out.clear();
  if (!Kernel || !Args)
    return KLARAPTOR_ERR_BAD_ARGUMENT;
  KernelEntry *E = Kernels.findName(Kernel);
  if (!E)
    return KLARAPTOR_ERR_BAD_ARGUMENT;
  if (!E->usable())
    return E->Status == KLARAPTOR_OK ? KLARAPTOR_ERR_BAD_SPEC : E->Status;
  const KernelSpec &S = *E->Spec;
  std::vector<int64_t> Data(S.Data.size() + 1);
  klaraptor_launch_info Info;
  std::memset(&Info, 0, sizeof(Info));
  Info.size = sizeof(Info);
  Info.args = Args;
  if (!dataValues(*E, &Info, Data.data()))
    return KLARAPTOR_ERR_EVAL;
  const int Device = Devices.currentDevice();
  if (Device < 0)
    return KLARAPTOR_ERR_NO_DEVICE;
  std::lock_guard<std::mutex> G(E->DecideMutex);
  std::string Why;
  if (!admissible(*E, Device, Data.data(), nullptr, Out, nullptr, Why))
    return KLARAPTOR_ERR_NO_DEVICE;
  return KLARAPTOR_OK;
}

klaraptor_status Runtime::setDeviceOverride(const klaraptor_device_info *Info) {
  if (Info && Info->size < offsetof(klaraptor_device_info, shared_mem_per_block) +
                               sizeof(uint64_t))
    return KLARAPTOR_ERR_ABI;
  std::string Why;
  if (!Devices.setOverride(Info, &Why)) {
    Diags.reportOnce(LogLevel::Error, "device limits rejected: " + Why);
    return KLARAPTOR_ERR_BAD_ARGUMENT;
  }
  Kernels.forEach([](KernelEntry &E) {
    std::lock_guard<std::mutex> G(E.DecideMutex);
    E.Hist.clear();
    E.Limits.clear();
  });
  return KLARAPTOR_OK;
}

} // namespace klaraptor
