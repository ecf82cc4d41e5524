//===- HookBench.cpp - what the launch hook costs -------------------------===//
///
/// \file
/// Measures the time of one __klaraptor_rt_launch call for a 1-D kernel
/// (pow2 candidates, a trivial model), or with --dims 2 a 2-D kernel (pow2
/// candidates: 51 shapes under 1024 threads): on a memoised launch ("hit":
/// the same data every call) and on a new decision ("miss": new data every
/// call).
/// The device is the one CUDA reports when the process has CUDA, else (or
/// with --fake-device) H100-like limits injected through the test hook.
///
///   klaraptor-hook-bench [--hits N] [--misses N] [--threads N] [--dims 1|2]
///                        [--shared] [--fake-device] [--api]
/// --shared gives the 1-D kernel `shared(4 * bx)` and its launches 1024 bytes
/// of dynamic shared memory (the check of the request and the chosen bytes).
/// --api instead measures the CUDA calls that name the current device
/// (--hits calls per thread, in 1, 2 and 4 threads).
//===----------------------------------------------------------------------===//
#include "RuntimeInternal.h"
#include "klaraptor/klaraptor_rt.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <thread>
#include <vector>

namespace {

// The specs' common lines: one data parameter N from the kernel's first.
#define BENCH_SPEC_HEAD                                                        \
  "klaraptor v1\n"                                                             \
  "kernel bench_axpy\n"                                                        \
  "loc HookBench.cpp:1:1\n"                                                    \
  "param 0 n i64\n"                                                            \
  "data N $0\n"

const char BenchSpec[] = BENCH_SPEC_HEAD "block bx\n"
                                         "grid ceildiv(N, bx)\n"
                                         "candidates pow2\n";

const char BenchSpec2D[] = BENCH_SPEC_HEAD "block bx by\n"
                                           "grid ceildiv(N, bx * by)\n"
                                           "grid 1\n"
                                           "grid 1\n"
                                           "candidates pow2\n";

/// --shared: the 1-D kernel with dynamic shared memory of 4 bytes a thread.
const char BenchSpecShared[] = BENCH_SPEC_HEAD "block bx\n"
                                               "grid ceildiv(N, bx)\n"
                                               "shared (4 * bx)\n"
                                               "candidates pow2\n";

int benchData(void *const *Args, int64_t *Out) {
  Out[0] = *static_cast<const int64_t *>(Args[0]);
  return 0;
}

std::atomic<uint64_t> Predictions{0};
bool TwoD = false;   // --dims 2
bool Shared = false; // --shared

double benchPredict(void *, const int64_t *Data, uint32_t,
                    const klaraptor_candidate *C,
                    const klaraptor_device_info *) {
  Predictions.fetch_add(1, std::memory_order_relaxed);
  // The best shape: 256 threads (1-D), 32x8 (2-D).
  double Cost = std::fabs(double(C->block[0]) * C->block[1] - 256.0) +
                double(Data[0]) * 1e-9;
  if (TwoD)
    Cost += std::fabs(double(C->block[0]) - 32.0);
  return Cost;
}

char StubAnchor;
klaraptor_kernel_desc Desc = {sizeof(klaraptor_kernel_desc),
                                    KLARAPTOR_RT_ABI_VERSION,
                                    &StubAnchor,
                                    "_Z10bench_axpyPfPKffl",
                                    BenchSpec,
                                    benchData,
                                    1,
                                    0};

klaraptor_launch_info makeInfo(const int64_t *Data, void *const *Args) {
  klaraptor_launch_info I;
  std::memset(&I, 0, sizeof(I));
  I.size = sizeof(I);
  I.num_data = Data ? 1 : 0;
  I.data = Data;
  I.args = Args;
  I.grid[0] = 4;
  I.grid[1] = I.grid[2] = 1;
  I.block[0] = 256;
  I.block[1] = I.block[2] = 1;
  if (TwoD) {
    I.block[0] = 32;
    I.block[1] = 8;
  }
  if (Shared)
    I.shared_mem = 4 * 256;
  return I;
}

using Clock = std::chrono::steady_clock;

double nsPer(Clock::time_point A, Clock::time_point B, uint64_t N) {
  return std::chrono::duration<double, std::nano>(B - A).count() / double(N);
}

/// Runs \p Call \p Calls times in each of \p Threads threads started
/// together, each after its own \p Setup; the mean over the threads of the
/// ns per call. The sum of Call's results goes to \p Sum (a sink the
/// compiler cannot drop, or a count).
template <typename SetupFn, typename CallFn>
double nsPerCallInThreads(unsigned Threads, uint64_t Calls, SetupFn Setup,
                          CallFn Call, uint64_t &Sum) {
  std::atomic<bool> Go{false};
  std::atomic<uint64_t> Total{0};
  std::vector<std::thread> Pool;
  std::vector<double> Ns(Threads);
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      Setup();
      while (!Go.load())
        ;
      uint64_t Local = 0;
      auto A = Clock::now();
      for (uint64_t I = 0; I < Calls; ++I)
        Local += Call();
      Ns[T] = nsPer(A, Clock::now(), Calls);
      Total.fetch_add(Local, std::memory_order_relaxed);
    });
  Go.store(true);
  for (auto &Th : Pool)
    Th.join();
  double Mean = 0;
  for (double V : Ns)
    Mean += V / Threads;
  Sum = Total.load();
  return Mean;
}

/// What the CUDA calls that name the current device cost, in 1, 2 and 4
/// threads at once (--api): cudaGetDevice, which the hook pays on every
/// launch, against the driver's cuCtxGetCurrent and cuCtxGetDevice. Needs
/// the CUDA runtime in the process (linked or preloaded); false without.
bool measureDeviceApis(uint64_t Calls) {
  using GetDeviceFn = int (*)(int *);
  using FreeFn = int (*)(void *);
  using CtxGetCurrentFn = int (*)(void **);
  auto GetDevice =
      reinterpret_cast<GetDeviceFn>(::dlsym(RTLD_DEFAULT, "cudaGetDevice"));
  auto Free = reinterpret_cast<FreeFn>(::dlsym(RTLD_DEFAULT, "cudaFree"));
  if (!GetDevice || !Free) {
    std::fprintf(stderr, "klaraptor-hook-bench: --api: no CUDA runtime in the "
                         "process (link or preload libcudart)\n");
    return false;
  }
  if (int E = Free(nullptr)) { // creates the primary context
    std::fprintf(stderr, "klaraptor-hook-bench: --api: cudaFree(0) failed: %d\n", E);
    return false;
  }
  void *Drv = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto CtxGetCurrent = Drv ? reinterpret_cast<CtxGetCurrentFn>(
                                 ::dlsym(Drv, "cuCtxGetCurrent"))
                           : nullptr;
  auto CtxGetDevice =
      Drv ? reinterpret_cast<GetDeviceFn>(::dlsym(Drv, "cuCtxGetDevice"))
          : nullptr;
  std::printf("cuCtxGetDevice in the global scope (where the runtime looks): %s\n",
              ::dlsym(RTLD_DEFAULT, "cuCtxGetDevice") ? "yes" : "no");
  // Each thread makes the primary context current first, as a thread that
  // launches kernels has.
  auto Setup = [&] {
    int Dev = -1;
    GetDevice(&Dev);
    Free(nullptr);
  };
  auto Run = [&](const char *Name, auto Succeeds) {
    for (unsigned Threads : {1u, 2u, 4u}) {
      uint64_t Failed = 0;
      double Ns = nsPerCallInThreads(
          Threads, Calls, Setup,
          [&] { return uint64_t(!Succeeds()); }, Failed);
      std::printf("%s, %u thread%s: %.1f ns/call per thread%s\n", Name, Threads,
                  Threads == 1 ? "" : "s", Ns,
                  Failed ? " (some calls FAILED)" : "");
    }
  };
  Run("cudaGetDevice", [&] {
    int D = -1;
    return GetDevice(&D) == 0 && D >= 0;
  });
  if (CtxGetCurrent && CtxGetDevice) {
    Run("cuCtxGetCurrent", [&] {
      void *C = nullptr;
      return CtxGetCurrent(&C) == 0 && C;
    });
    Run("cuCtxGetDevice", [&] {
      int D = -1;
      return CtxGetDevice(&D) == 0 && D >= 0;
    });
  } else {
    std::printf("libcuda.so.1 is not loaded: no driver figures\n");
  }
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  uint64_t Hits = 5000000, Misses = 200000;
  unsigned Threads = 2;
  bool FakeDevice = false, Api = false;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&]() -> uint64_t {
      if (I + 1 >= Argc) {
        std::fprintf(stderr, "klaraptor-hook-bench: error: '%s' needs a value\n",
                     A.c_str());
        std::exit(2);
      }
      return std::strtoull(Argv[++I], nullptr, 10);
    };
    if (A == "--hits")
      Hits = Next();
    else if (A == "--misses")
      Misses = Next();
    else if (A == "--threads")
      Threads = unsigned(Next());
    else if (A == "--dims") {
      uint64_t Dims = Next();
      if (Dims != 1 && Dims != 2) {
        std::fprintf(stderr, "klaraptor-hook-bench: error: --dims takes 1 or 2\n");
        return 2;
      }
      TwoD = Dims == 2;
      Desc.spec = TwoD ? BenchSpec2D : BenchSpec;
    } else if (A == "--shared") {
      Shared = true;
      Desc.spec = BenchSpecShared;
    } else if (A == "--api")
      Api = true;
    else if (A == "--fake-device")
      FakeDevice = true;
    else {
      std::fprintf(stderr,
                   "usage: klaraptor-hook-bench [--hits N] [--misses N] "
                   "[--threads N] [--dims 1|2] [--shared] [--fake-device] "
                   "[--api]\n");
      return 2;
    }
  }
  if (!Hits || !Misses || !Threads) {
    std::fprintf(stderr, "klaraptor-hook-bench: error: counts must be positive\n");
    return 2;
  }

  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (Api)
    return measureDeviceApis(Hits) ? 0 : 1;
  std::printf("%s\n", klaraptor_version());
  if (__klaraptor_rt_register_kernel(&Desc) != KLARAPTOR_OK) {
    std::fprintf(stderr, "klaraptor-hook-bench: error: cannot register the kernel\n");
    return 1;
  }
  klaraptor_model Model;
  std::memset(&Model, 0, sizeof(Model));
  Model.size = sizeof(Model);
  Model.abi_version = KLARAPTOR_RT_ABI_VERSION;
  Model.name = "trivial";
  Model.predict = benchPredict;
  klaraptor_register_model("bench_axpy", &Model);

  // Use the real device when CUDA answers; otherwise H100-like limits.
  int64_t Probe = 1 << 20;
  klaraptor_launch_info ProbeInfo = makeInfo(&Probe, nullptr);
  bool Real = !FakeDevice &&
              __klaraptor_rt_launch(&Desc, &ProbeInfo) == KLARAPTOR_OK;
  if (!Real) {
    klaraptor_device_info D;
    std::memset(&D, 0, sizeof(D));
    D.size = sizeof(D);
    std::snprintf(D.name, sizeof(D.name), "injected H100-like limits");
    D.cc_major = 9;
    D.sm_count = 132;
    D.max_threads_per_block = 1024;
    D.max_block_dim[0] = D.max_block_dim[1] = 1024;
    D.max_block_dim[2] = 64;
    D.max_grid_dim[0] = 2147483647;
    D.max_grid_dim[1] = D.max_grid_dim[2] = 65535;
    D.max_threads_per_sm = 2048;
    D.max_blocks_per_sm = 32;
    D.regs_per_sm = D.regs_per_block = 65536;
    D.warp_size = 32;
    D.shared_mem_per_sm = 233472;
    D.shared_mem_per_block = 49152;
    if (klaraptor_rt_internal_set_device_limits(&D) != KLARAPTOR_OK) {
      std::fprintf(stderr, "klaraptor-hook-bench: error: cannot set device limits\n");
      return 1;
    }
  }
  std::printf("device: %s\n", Real ? "from CUDA" : "injected H100-like limits");

  // Warm the entry for the hit measurements.
  int64_t N = 1000000;
  klaraptor_launch_info Info = makeInfo(&N, nullptr);
  if (__klaraptor_rt_launch(&Desc, &Info) != KLARAPTOR_OK) {
    std::fprintf(stderr, "klaraptor-hook-bench: error: the warm-up launch kept its configuration\n");
    return 1;
  }
  std::printf("decision for N=%lld: block %ux%ux%u grid %ux%ux%u\n",
              (long long)N, Info.block[0], Info.block[1], Info.block[2],
              Info.grid[0], Info.grid[1], Info.grid[2]);

  uint64_t Sink = 0;
  auto T0 = Clock::now();
  for (uint64_t I = 0; I < Hits; ++I) {
    klaraptor_launch_info L = makeInfo(&N, nullptr);
    Sink += __klaraptor_rt_launch(&Desc, &L) + L.block[0];
  }
  auto T1 = Clock::now();
  std::printf("hook hit: %.1f ns/call\n", nsPer(T0, T1, Hits));

  // What an instrumented launch pays in all: the hook before and the
  // after-launch hook (no refinement trial pending: a thread-local read).
  T0 = Clock::now();
  for (uint64_t I = 0; I < Hits; ++I) {
    klaraptor_launch_info L = makeInfo(&N, nullptr);
    Sink += __klaraptor_rt_launch(&Desc, &L) + L.block[0];
    __klaraptor_rt_launched(&L, 0);
  }
  T1 = Clock::now();
  std::printf("hook hit + after-launch hook: %.1f ns/call\n",
              nsPer(T0, T1, Hits));

  void *Args[1] = {&N};
  T0 = Clock::now();
  for (uint64_t I = 0; I < Hits; ++I) {
    klaraptor_launch_info L = makeInfo(nullptr, Args);
    Sink += __klaraptor_rt_launch(&Desc, &L) + L.block[0];
  }
  T1 = Clock::now();
  std::printf("hook hit (data from args): %.1f ns/call\n", nsPer(T0, T1, Hits));

  T0 = Clock::now();
  for (uint64_t I = 0; I < Hits; ++I) {
    klaraptor_launch_info L = makeInfo(nullptr, Args);
    Sink += __klaraptor_rt_launch_handle(&StubAnchor, &L) + L.block[0];
  }
  T1 = Clock::now();
  std::printf("hook hit (by handle): %.1f ns/call\n", nsPer(T0, T1, Hits));

  {
    uint64_t Launched = 0;
    double Ns = nsPerCallInThreads(
        Threads, Hits,
        [&] {
          // A thread that launches kernels has the device's context current
          // (its first launch makes it so): the same here, on a real device.
          if (Real)
            if (auto Free = reinterpret_cast<int (*)(void *)>(
                    ::dlsym(RTLD_DEFAULT, "cudaFree")))
              Free(nullptr);
        },
        [&] {
          klaraptor_launch_info L = makeInfo(&N, nullptr);
          return uint64_t(__klaraptor_rt_launch(&Desc, &L) + L.block[0]);
        },
        Launched);
    Sink += Launched;
    std::printf("hook hit (%u threads): %.1f ns/call per thread\n", Threads, Ns);
  }

  uint64_t Before = klaraptor_rt_internal_decision_count();
  uint64_t PredBefore = Predictions.load();
  T0 = Clock::now();
  for (uint64_t I = 0; I < Misses; ++I) {
    int64_t M = int64_t(2000000 + I);
    klaraptor_launch_info L = makeInfo(&M, nullptr);
    Sink += __klaraptor_rt_launch(&Desc, &L) + L.block[0];
  }
  T1 = Clock::now();
  uint64_t Decided = klaraptor_rt_internal_decision_count() - Before;
  uint64_t Predicted = Predictions.load() - PredBefore;
  std::printf("hook miss (trivial model, %llu candidates): %.1f ns/call\n",
              (unsigned long long)(Decided ? Predicted / Decided : 0),
              nsPer(T0, T1, Misses));
  if (Decided != Misses) {
    std::fprintf(stderr,
                 "klaraptor-hook-bench: error: %llu decisions for %llu misses\n",
                 (unsigned long long)Decided, (unsigned long long)Misses);
    return 1;
  }
  return Sink == 42 ? 3 : 0;
}
