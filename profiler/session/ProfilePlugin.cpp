//===- ProfilePlugin.cpp - libklaraptor_profile.so: sweeps into the DB ----===//
///
/// \file
/// The profiler plug-in of klaraptor/klaraptor_profile.h. libklaraptor_rt
/// loads it in KLARAPTOR_MODE=profile and with KLARAPTOR_BENCH.
///
/// Profile mode (`klaraptor profile` sets it up): at an annotated launch the
/// plug-in runs the kernel once per admissible block shape not yet in the
/// profile database, under the profiler backend, and records the sweep
/// (metrics, registers, shared memory, time) in one transaction. The
/// backend restores the program's device memory after each shape.
///   KLARAPTOR_PROFILE_DB   the database (default klaraptor-profile.db)
///   KLARAPTOR_PROFILE_RUN  the run id `klaraptor profile` created; without
///                          it the plug-in records a run of its own
///   KLARAPTOR_PROFILE_QUIET=1  no progress lines on stderr
///   KLARAPTOR_PROFILE_TIMES_ONLY=1  times without metrics (samples that
///                          `klaraptor fit` cannot use; for comparisons)
///
/// Bench (KLARAPTOR_BENCH=FILE, tune mode): after each new decision the
/// plug-in times every candidate (emu: the estimate only, one SM's wave;
/// cupti: CUDA events, no metrics) and appends one JSON line to FILE: the decision, its cost and every shape's
/// time, which `klaraptor bench` turns into chosen/best ratios.
///
/// Backends: `emu` when the process has the emulated runtime (its
/// klaraptor_emu_sweep, found with dlsym), else `cupti` (a real GPU: CUDA
/// events and the CUPTI Range Profiler, profiler/backend/CuptiSweep.h).
/// When the chosen backend cannot run (no driver, no device, no libcupti,
/// profiling not permitted) that is reported once and nothing is recorded.
/// A database holds the measurements of one backend and one device.
//===----------------------------------------------------------------------===//
#include "Backend.h"
#include "CuptiSweep.h"
#include "ProfileDb.h"
#include "klaraptor/klaraptor_profile.h"

#include <cerrno>
#include <algorithm>
#include <chrono>
#include <functional>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#ifndef KLARAPTOR_VERSION
#define KLARAPTOR_VERSION "unknown"
#endif

using namespace klaraptor;

namespace {

/// klaraptor_emu_sweep (profiler/emu/cudart/EmuCudart.h).
using SweepFn = int (*)(const void *, void *const *, uint64_t,
                        const uint32_t *, uint32_t, int,
                        void (*)(void *, uint32_t, const void *, const char *),
                        void *, char *, uint64_t);
using DeviceFn = const char *(*)();
constexpr int EstimateOnly = 1;   // KLARAPTOR_EMU_SWEEP_ESTIMATE_ONLY
constexpr int SharedPerShape = 2; // KLARAPTOR_EMU_SWEEP_SHARED_PER_SHAPE

void say(const char *Format, ...) __attribute__((format(printf, 1, 2)));
void say(const char *Format, ...) {
  char Buf[2048];
  va_list Ap;
  va_start(Ap, Format);
  std::vsnprintf(Buf, sizeof(Buf), Format, Ap);
  va_end(Ap);
  std::fprintf(stderr, "klaraptor profile: %s\n", Buf);
}

bool quiet() {
  const char *Q = std::getenv("KLARAPTOR_PROFILE_QUIET");
  return Q && *Q && std::strcmp(Q, "0") != 0;
}

std::string dataText(const klaraptor_profile_launch &L) {
  std::string S;
  for (uint32_t I = 0; I < L.num_data; ++I)
    S += std::string(I ? "," : "") + L.data_names[I] + "=" +
         std::to_string(L.data[I]);
  return S;
}

const char *kernelName(const klaraptor_profile_launch &L) {
  return L.source_name && *L.source_name ? L.source_name : L.kernel;
}

/// The process's command line from /proc/self/cmdline, words joined.
std::string ownCommandLine() {
  std::string S;
  if (FILE *F = std::fopen("/proc/self/cmdline", "rb")) {
    int C;
    while ((C = std::fgetc(F)) != EOF)
      S += C ? char(C) : ' ';
    std::fclose(F);
  }
  while (!S.empty() && S.back() == ' ')
    S.pop_back();
  return S;
}

struct Backend {
  SweepFn Sweep = nullptr; ///< the emu backend's; null for cupti
  bool Cupti = false;
  std::string Device;
  /// "emu" or "cupti".
  const char *name() const { return Cupti ? "cupti" : "emu"; }
  /// The record key of a shape's time: the emulator's estimate, or the
  /// median of the CUDA-event timings.
  const char *timeKey() const { return Cupti ? "gpu_time_ns" : "estimated_ns"; }
  /// \p TimeOnly: the caller needs times only (KLARAPTOR_BENCH).
  bool find(bool TimeOnly, std::string &Error) {
    Sweep = reinterpret_cast<SweepFn>(::dlsym(RTLD_DEFAULT,
                                              "klaraptor_emu_sweep"));
    if (!Sweep) {
      Cupti = true;
      std::string Why;
      if (!profiler::cupti::cuptiReady(TimeOnly, Device, Why)) {
        Error = "the program runs on the CUDA runtime, and the 'cupti' "
                "profiler backend cannot run: " + Why +
                " (a program built with 'klaraptor-clang++ "
                "--klaraptor-emulate' is profiled on the emulator)";
        return false;
      }
      return true;
    }
    auto Dev = reinterpret_cast<DeviceFn>(
        ::dlsym(RTLD_DEFAULT, "klaraptor_emu_device_profile"));
    const char *D = Dev ? Dev() : nullptr;
    if (!D) {
      Error = "the emulated device's profile could not be loaded "
              "(KLARAPTOR_EMU_DEVICE)";
      return false;
    }
    Device = D;
    return true;
  }
};

/// One shape's result from the backend.
struct ShapeResult {
  bool Ok = false;
  std::string Message;
  profiler::LaunchRecord Record;
};

struct SweepCtx {
  std::vector<ShapeResult> *Out;
  uint32_t Total;
  std::chrono::steady_clock::time_point Start, LastNote;
  std::string What;
  bool Progress;
  /// Called with each shape's index once its result is in Out.
  std::function<void(uint32_t)> Done;
};

void onShape(void *Ctx, uint32_t Index, const void *Record,
             const char *Message) {
  auto &C = *static_cast<SweepCtx *>(Ctx);
  if (Index >= C.Out->size())
    return;
  ShapeResult &R = (*C.Out)[Index];
  R.Ok = Record != nullptr;
  R.Message = Message ? Message : "";
  if (Record)
    R.Record = *static_cast<const profiler::LaunchRecord *>(Record);
  if (C.Done)
    C.Done(Index);
  auto Now = std::chrono::steady_clock::now();
  if (C.Progress && Now - C.LastNote > std::chrono::seconds(2)) {
    C.LastNote = Now;
    say("%s: %u/%u shapes, %.1f s", C.What.c_str(), Index + 1, C.Total,
        std::chrono::duration<double>(Now - C.Start).count());
  }
}

/// The dynamic shared memory of \p L's candidate \p I: the pragma's
/// shared(...) for its block, or the launch's own from a runtime that
/// predates candidate_shared_mem.
uint64_t candidateShared(const klaraptor_profile_launch &L, uint32_t I) {
  if (L.size >= offsetof(klaraptor_profile_launch, candidate_shared_mem) +
                     sizeof(L.candidate_shared_mem) &&
      L.candidate_shared_mem)
    return L.candidate_shared_mem[I];
  return L.shared_mem;
}

/// Runs \p Shapes (6 numbers each) through the backend, shape I with
/// \p Shared[I] bytes of dynamic shared memory.
bool runSweep(Backend &B, const klaraptor_profile_launch &L,
              const std::vector<uint32_t> &Shapes,
              const std::vector<uint64_t> &Shared, int Flags, bool Progress,
              std::vector<ShapeResult> &Out, std::string &Error,
              std::function<void(uint32_t)> Done = {}) {
  uint32_t N = uint32_t(Shapes.size() / 6);
  // Septuples for the backends: each shape with its shared memory.
  std::vector<uint32_t> WithShared;
  WithShared.reserve(size_t(N) * 7);
  for (uint32_t I = 0; I < N; ++I) {
    WithShared.insert(WithShared.end(), Shapes.begin() + 6 * I,
                      Shapes.begin() + 6 * I + 6);
    if (Shared[I] > UINT32_MAX) {
      Error = "a shape's dynamic shared memory (" + std::to_string(Shared[I]) +
              " bytes) does not fit a launch";
      return false;
    }
    WithShared.push_back(uint32_t(Shared[I]));
  }
  Out.assign(N, ShapeResult());
  SweepCtx C{&Out, N, std::chrono::steady_clock::now(),
             std::chrono::steady_clock::now(),
             std::string(kernelName(L)) + "(" + dataText(L) + ")", Progress,
             std::move(Done)};
  char Why[512] = "";
  const void *Fn = L.cu_function ? L.cu_function : L.host_handle;
  if (B.Cupti)
    return profiler::cupti::cuptiSweep(
               Fn, L.cu_function != nullptr, L.args, L.shared_mem, L.stream,
               WithShared.data(), N,
               ((Flags & EstimateOnly) ? profiler::cupti::SweepTimeOnly : 0) |
                   profiler::cupti::SweepSharedPerShape,
               onShape, &C, Error) == 0;
  if (B.Sweep(Fn, L.args, L.shared_mem, WithShared.data(), N,
              Flags | SharedPerShape, onShape, &C, Why,
              sizeof(Why)) != 0) {
    Error = Why;
    return false;
  }
  return true;
}

/// Writes the meta keys cuda_driver_version and cuda_runtime_version from
/// the process's CUDA runtime (cudaDriverGetVersion, cudaRuntimeGetVersion,
/// found with dlsym); a missing function or a failed call leaves its key out.
void recordCudaVersions(profiledb::ProfileDb &Db) {
  using VersionFn = int (*)(int *);
  for (auto [Fn, Key] : {std::pair<const char *, const char *>{
                             "cudaDriverGetVersion", "cuda_driver_version"},
                         {"cudaRuntimeGetVersion", "cuda_runtime_version"}}) {
    auto F = reinterpret_cast<VersionFn>(::dlsym(RTLD_DEFAULT, Fn));
    int V = 0;
    std::string Error;
    if (F && F(&V) == 0 && V > 0)
      Db.setMeta(Key,
                 std::to_string(V / 1000) + "." + std::to_string(V % 1000 / 10),
                 Error);
  }
}

class Session {
public:
  int onLaunch(const klaraptor_profile_launch &L);
  int onDecision(const klaraptor_profile_launch &L,
                 const klaraptor_profile_decision &D);

private:
  std::mutex M;
  bool Started = false, Broken = false;
  Backend B;
  std::unique_ptr<profiledb::ProfileDb> Db;
  int64_t Run = -1;
  // Bench.
  bool BenchStarted = false, BenchBroken = false;
  int BenchFd = -1;

  bool start();
  bool startBench();
};

Session &session() {
  static Session *S = new Session; // never destroyed: atexit still uses it
  return *S;
}

std::mutex OwnRunMutex;
profiledb::ProfileDb *OwnRunDb = nullptr;
int64_t OwnRunId = -1;

void endOwnRun() {
  std::lock_guard<std::mutex> G(OwnRunMutex);
  if (OwnRunDb && OwnRunId >= 0) {
    std::string Error;
    if (!OwnRunDb->endRun(OwnRunId, "ok", Error))
      say("%s", Error.c_str());
  }
  OwnRunId = -1;
}

bool Session::start() {
  if (Started)
    return !Broken;
  Started = true;
  auto Fail = [&](const std::string &Why) {
    Broken = true;
    say("error: %s; nothing is profiled", Why.c_str());
    return false;
  };
  std::string Error;
  if (!B.find(false, Error))
    return Fail(Error);
  const char *Path = std::getenv("KLARAPTOR_PROFILE_DB");
  std::string DbPath = Path && *Path ? Path : "klaraptor-profile.db";
  profiledb::MetaInfo Meta{KLARAPTOR_VERSION, B.Device, B.name()};
  Db = profiledb::ProfileDb::open(DbPath, Meta, Error);
  if (!Db)
    return Fail(Error);
  std::string Have = Db->meta("device");
  if (Have.empty()) {
    if (!Db->setMeta("device", B.Device, Error))
      return Fail(Error);
  } else if (Have != B.Device) {
    return Fail(DbPath + " holds measurements of device '" + Have +
                "', and this run is on '" + B.Device + "'; use another --db" +
                (B.Cupti ? std::string()
                         : " (or KLARAPTOR_EMU_DEVICE=" + Have + ")"));
  }
  std::string Backend = Db->meta("backend");
  if (Backend.empty() && !Db->setMeta("backend", B.name(), Error))
    return Fail(Error);
  if (!Backend.empty() && Backend != B.name())
    return Fail(DbPath + " holds measurements of the '" + Backend +
                "' backend, and this run uses '" + B.name() + "'");
  // Provenance for `klaraptor dataset export` (docs/dataset.md): the CUDA
  // driver and runtime versions of a real GPU's measurements, as "13.0".
  if (B.Cupti)
    recordCudaVersions(*Db);
  if (const char *R = std::getenv("KLARAPTOR_PROFILE_RUN")) {
    char *End = nullptr;
    errno = 0;
    long long V = std::strtoll(R, &End, 10);
    if (!*R || *End || V <= 0 || errno == ERANGE)
      return Fail(std::string("KLARAPTOR_PROFILE_RUN='") + R +
                  "' is not a run id");
    if (!Db->hasRun(V))
      return Fail(std::string("KLARAPTOR_PROFILE_RUN=") + R + ": the database '" +
                  DbPath + "' has no run " + R +
                  " (klaraptor profile creates it; unset the variable to "
                  "record a run of the plug-in's own)");
    Run = V;
  } else {
    Run = Db->beginRun(ownCommandLine(), {}, Error);
    if (Run < 0)
      return Fail(Error);
    std::lock_guard<std::mutex> G(OwnRunMutex);
    OwnRunDb = Db.get();
    OwnRunId = Run;
    std::atexit(endOwnRun);
  }
  return true;
}

int Session::onLaunch(const klaraptor_profile_launch &L) {
  std::lock_guard<std::mutex> G(M);
  if (!start())
    return -1;
  const auto T0 = std::chrono::steady_clock::now();
  std::string Error;
  int64_t Kernel = Db->recordKernel(L.kernel, L.spec, Error);
  if (Kernel < 0) {
    say("error: %s", Error.c_str());
    return -1;
  }
  profiledb::DataTuple Data;
  for (uint32_t I = 0; I < L.num_data; ++I)
    Data[L.data_names[I]] = L.data[I];
  std::vector<uint32_t> Shapes;
  std::vector<uint64_t> Shared;
  uint32_t Resumed = 0;
  for (uint32_t I = 0; I < L.num_candidates; ++I) {
    const klaraptor_candidate &C = L.candidates[I];
    if (Db->hasSample(Kernel, Data, C.block)) {
      ++Resumed;
      continue;
    }
    Shapes.insert(Shapes.end(), {C.grid[0], C.grid[1], C.grid[2], C.block[0],
                                 C.block[1], C.block[2]});
    Shared.push_back(candidateShared(L, I));
  }
  const std::string What =
      std::string(kernelName(L)) + "(" + dataText(L) + ")";
  if (Shapes.empty()) {
    if (!quiet())
      say("%s: all %u shapes were measured before", What.c_str(),
          L.num_candidates);
    return 0;
  }
  std::vector<ShapeResult> Results;
  // KLARAPTOR_PROFILE_TIMES_ONLY=1: times without metrics (emu: the
  // estimate of one SM's wave, cheap at large sizes; cupti: events only).
  const char *TimesOnly = std::getenv("KLARAPTOR_PROFILE_TIMES_ONLY");
  const int Flags =
      TimesOnly && *TimesOnly && std::strcmp(TimesOnly, "0") != 0
          ? EstimateOnly
          : 0;
  // The samples are written as they are measured (at most once a second,
  // and at the end; the launch with the first of them): a sweep killed half
  // way keeps what it measured, and the next run resumes after it.
  int64_t Launch = -1;
  unsigned Failed = 0;
  std::vector<profiledb::Sample> Pending;
  auto LastWrite = std::chrono::steady_clock::now();
  bool WriteFailed = false;
  auto flush = [&] {
    if (!WriteFailed && !Pending.empty()) {
      bool Ok = Launch < 0 ? (Launch = Db->recordSweep(Run, Kernel, Data, L.grid,
                                                       L.block, Pending, Error)) >= 0
                           : Db->appendSamples(Launch, Pending, Error);
      if (!Ok) {
        say("error: %s", Error.c_str());
        WriteFailed = true;
      }
    }
    Pending.clear();
    LastWrite = std::chrono::steady_clock::now();
  };
  auto done = [&](uint32_t I) {
    const ShapeResult &R = Results[I];
    profiledb::Sample S;
    for (int D = 0; D < 3; ++D) {
      S.Grid[D] = Shapes[6 * I + D];
      S.Block[D] = Shapes[6 * I + 3 + D];
    }
    if (!R.Ok) {
      S.Status = R.Message.empty() ? "failed" : R.Message;
      ++Failed;
    } else {
      const profiler::LaunchRecord &Rec = R.Record;
      S.Registers = int64_t(Rec.get("registers_per_thread"));
      S.SharedBytes = int64_t(Rec.get("static_shared_bytes") +
                              Rec.get("dynamic_shared_bytes_per_block"));
      S.TimeNs = Rec.get(B.timeKey(), NAN);
      if (std::isnan(S.TimeNs)) {
        S.TimeNs = 0;
        S.Status = "no time estimate: " + R.Message;
        ++Failed;
      } else if (B.Cupti && !R.Message.empty()) {
        // Timed, but the Range Profiler failed for this shape.
        S.Status = R.Message;
        ++Failed;
      }
      S.Metrics = Rec.Values;
    }
    Pending.push_back(std::move(S));
    if (std::chrono::steady_clock::now() - LastWrite >= std::chrono::seconds(1))
      flush();
  };
  bool Swept =
      runSweep(B, L, Shapes, Shared, Flags, !quiet(), Results, Error, done);
  flush();
  if (!Swept) {
    say("error: %s: %s", What.c_str(), Error.c_str());
    return -1;
  }
  if (WriteFailed)
    return -1;
  if (!quiet()) {
    double S = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             T0)
                   .count();
    std::string Extra;
    if (Resumed)
      Extra += ", " + std::to_string(Resumed) + " measured before";
    if (Failed)
      Extra += ", " + std::to_string(Failed) + " failed";
    say("%s: %zu shapes in %.2f s%s", What.c_str(), Results.size(), S,
        Extra.c_str());
  }
  return 0;
}

bool Session::startBench() {
  if (BenchStarted)
    return !BenchBroken;
  BenchStarted = true;
  std::string Error;
  const char *Path = std::getenv("KLARAPTOR_BENCH");
  if (!B.find(true, Error)) {
    BenchBroken = true;
    say("error: KLARAPTOR_BENCH: %s", Error.c_str());
    return false;
  }
  BenchFd = ::open(Path ? Path : "", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                   0644);
  if (BenchFd < 0) {
    BenchBroken = true;
    say("error: KLARAPTOR_BENCH: cannot open '%s': %s", Path ? Path : "",
        std::strerror(errno));
    return false;
  }
  return true;
}

std::string dims(const uint32_t D[3]) {
  return "[" + std::to_string(D[0]) + "," + std::to_string(D[1]) + "," +
         std::to_string(D[2]) + "]";
}

std::string number(double V) {
  if (!std::isfinite(V))
    return "null";
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.17g", V);
  return Buf;
}

int Session::onDecision(const klaraptor_profile_launch &L,
                        const klaraptor_profile_decision &D) {
  std::lock_guard<std::mutex> G(M);
  if (!startBench())
    return -1;
  std::vector<uint32_t> Shapes;
  std::vector<uint64_t> Shared;
  bool RequestedIsCandidate = false;
  for (uint32_t I = 0; I < L.num_candidates; ++I) {
    const klaraptor_candidate &C = L.candidates[I];
    Shapes.insert(Shapes.end(), {C.grid[0], C.grid[1], C.grid[2], C.block[0],
                                 C.block[1], C.block[2]});
    Shared.push_back(candidateShared(L, I));
    RequestedIsCandidate |=
        std::equal(C.block, C.block + 3, L.block) &&
        std::equal(C.grid, C.grid + 3, L.grid);
  }
  // The program's own launch is estimated also when the pragma does not
  // admit it (its time is the baseline best/requested compares with); it
  // is not one of the shapes the best is chosen among.
  if (!RequestedIsCandidate) {
    Shapes.insert(Shapes.end(), {L.grid[0], L.grid[1], L.grid[2], L.block[0],
                                 L.block[1], L.block[2]});
    Shared.push_back(L.shared_mem);
  }
  const auto T0 = std::chrono::steady_clock::now();
  std::vector<ShapeResult> Results;
  std::string Error;
  if (!runSweep(B, L, Shapes, Shared, EstimateOnly, false, Results, Error)) {
    say("error: KLARAPTOR_BENCH: %s", Error.c_str());
    return -1;
  }
  double RequestedNs = NAN;
  if (!RequestedIsCandidate && !Results.empty()) {
    if (Results.back().Ok)
      RequestedNs = Results.back().Record.get(B.timeKey(), NAN);
    Results.pop_back();
  }
  double SweepS =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
          .count();
  std::string J = "{\"kernel\":";
  profiler::appendJsonString(J, L.kernel);
  J += ",\"source_name\":";
  profiler::appendJsonString(J, L.source_name ? L.source_name : "");
  J += ",\"device\":";
  profiler::appendJsonString(J, B.Device);
  J += ",\"data\":{";
  for (uint32_t I = 0; I < L.num_data; ++I) {
    J += I ? "," : "";
    profiler::appendJsonString(J, L.data_names[I]);
    J += ":" + std::to_string(L.data[I]);
  }
  J += "},\"requested\":{\"grid\":" + dims(L.grid) +
       ",\"block\":" + dims(L.block) + "}";
  if (!RequestedIsCandidate)
    J += ",\"requested_ns\":" + number(RequestedNs) +
         ",\"requested_admissible\":false";
  J += ",\"chosen\":{\"grid\":" + dims(D.chosen.grid) +
       ",\"block\":" + dims(D.chosen.block) + "}";
  J += ",\"tuned\":" + std::to_string(D.tuned) + ",\"source\":";
  profiler::appendJsonString(J, D.source ? D.source : "");
  J += ",\"model\":";
  profiler::appendJsonString(J, D.model ? D.model : "");
  J += ",\"predicted\":" + number(D.predicted) +
       ",\"decision_ns\":" + number(D.decision_ns) +
       ",\"search_seconds\":" + number(SweepS) + ",\"shapes\":[";
  for (size_t I = 0; I < Results.size(); ++I) {
    const ShapeResult &R = Results[I];
    J += I ? "," : "";
    J += "{\"grid\":" + dims(&Shapes[6 * I]) +
         ",\"block\":" + dims(&Shapes[6 * I + 3]) + ",\"ns\":" +
         (R.Ok ? number(R.Record.get(B.timeKey(), NAN)) : "null");
    if (!R.Message.empty()) {
      J += ",\"error\":";
      profiler::appendJsonString(J, R.Message);
    }
    J += "}";
  }
  J += "]}\n";
  if (::write(BenchFd, J.data(), J.size()) != ssize_t(J.size())) {
    say("error: KLARAPTOR_BENCH: cannot write: %s", std::strerror(errno));
    return -1;
  }
  return 0;
}

bool validLaunch(const klaraptor_profile_launch *L) {
  // candidate_shared_mem, the last member, came later (candidateShared).
  return L &&
         L->size >= offsetof(klaraptor_profile_launch, candidate_shared_mem) &&
         L->abi_version == KLARAPTOR_RT_ABI_VERSION && L->kernel && L->spec &&
         (L->num_data == 0 || (L->data_names && L->data)) &&
         (L->num_candidates == 0 || L->candidates);
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
klaraptor_profile_on_launch(const klaraptor_profile_launch *L) {
  if (!validLaunch(L)) {
    say("error: a launch description of an unknown version; nothing is "
        "profiled");
    return -1;
  }
  return session().onLaunch(*L);
}

extern "C" __attribute__((visibility("default"))) int
klaraptor_profile_on_decision(const klaraptor_profile_launch *L,
                              const klaraptor_profile_decision *D) {
  if (!validLaunch(L) || !D || D->size < sizeof(klaraptor_profile_decision)) {
    say("error: a decision description of an unknown version");
    return -1;
  }
  return session().onDecision(*L, *D);
}
