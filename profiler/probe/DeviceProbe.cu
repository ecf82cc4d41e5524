//===- DeviceProbe.cu - microbenchmarks that measure a device profile -----===//
///
/// \file
/// USAGE: klaraptor-device-probe [--out FILE] [--base PROFILE] [--quick]
///                               [--id ID]
///
/// Measures the timing parameters of the GPU it runs on with
/// microbenchmarks and writes a device profile (docs/emulator.md, "Device
/// profiles") holding the device's own limits (cudaGetDeviceProperties),
/// the measured `timing.*` and `mwp.*` keys, each with its source, and the
/// keys it cannot measure copied from a base profile. `klaraptor device
/// probe` runs it (docs/cli.md). Every measurement is repeated; the profile
/// gets the median, its comment the spread.
///
/// Built with klaraptor-clang++ for the GPU, and with `--klaraptor-emulate`
/// (klaraptor-device-probe-emu) for testing the plumbing on the CPU PTX
/// emulator, whose numbers are not hardware numbers (the profile says so).
///
/// Exit status: 0 written, 1 error, 2 no CUDA device.
//===----------------------------------------------------------------------===//
#include "DeviceProfile.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

// The kernels have external linkage: nvcc and clang name kernels in an
// anonymous namespace differently, and the host side finds them by name.
namespace klaraptor::probe {

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

// Loads through L2 only (ld.global.cg), as inline PTX: clang's CUDA headers,
// which compile the host side, have no __ldcg.
__device__ inline unsigned ldcg(const unsigned *P) {
  unsigned V;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(V) : "l"(P));
  return V;
}
__device__ inline float ldcg(const float *P) {
  float V;
  asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(V) : "l"(P));
  return V;
}
__device__ inline float4 ldcg(const float4 *P) {
  float4 V;
  asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(V.x), "=f"(V.y), "=f"(V.z), "=f"(V.w)
               : "l"(P));
  return V;
}

/// One thread follows \p Steps links of the chain \p Next from \p Start,
/// loading through L2 only (ld.global.cg), and records the cycles taken.
__global__ void chaseGlobal(const unsigned *__restrict__ Next, unsigned Start,
                            int Steps, long long *Cycles, unsigned *Sink) {
  unsigned P = Start;
  long long T0 = clock64();
  for (int I = 0; I < Steps; ++I)
    P = ldcg(Next + P);
  long long T1 = clock64();
  Cycles[0] = T1 - T0;
  Sink[0] = P;
}

constexpr int SharedChain = 4096;

/// The same chain walk in shared memory (the chain copied there first).
__global__ void chaseShared(const unsigned *__restrict__ Next, int Steps,
                            long long *Cycles, unsigned *Sink) {
  __shared__ unsigned S[SharedChain];
  for (int I = threadIdx.x; I < SharedChain; I += blockDim.x)
    S[I] = Next[I];
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  unsigned P = 0;
  long long T0 = clock64();
  for (int I = 0; I < Steps; ++I)
    P = S[P];
  long long T1 = clock64();
  Cycles[0] = T1 - T0;
  Sink[0] = P;
}

/// One warp issues \p N independent loads back to back (load k of lane l at
/// A + k * LoadStride + l * LaneStride floats, through L2 only) and sums
/// them; the cycles from before the first load to after the sum.
template <int N>
__global__ void departure(const float *__restrict__ A, int LaneStride,
                          int LoadStride, long long *Cycles, float *Sink) {
  __shared__ float Keep[32];
  const float *P = A + threadIdx.x * LaneStride;
  float V[N];
  long long T0 = clock64();
#pragma unroll
  for (int K = 0; K < N; ++K)
    V[K] = ldcg(P + K * LoadStride);
  float S = 0;
#pragma unroll
  for (int K = 0; K < N; ++K)
    S += V[K];
  // The store needs the sum, so the second clock read issues after it.
  Keep[threadIdx.x] = S;
  long long T1 = clock64();
  if (threadIdx.x == 0) {
    Cycles[0] = T1 - T0;
    Sink[0] = Keep[0];
  }
}

/// A streaming copy (16 bytes per thread per step, grid-stride).
__global__ void copyKernel(const float4 *__restrict__ In,
                           float4 *__restrict__ Out, size_t N) {
  for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < N;
       I += size_t(gridDim.x) * blockDim.x)
    Out[I] = In[I];
}

/// Reads \p N float4s \p Passes times (an array that fits in L2).
__global__ void readKernel(const float4 *__restrict__ In, size_t N,
                           int Passes, float *Sink) {
  float S = 0;
  for (int Pass = 0; Pass < Passes; ++Pass)
    for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < N;
         I += size_t(gridDim.x) * blockDim.x) {
      float4 V = ldcg(In + I);
      S += V.x + V.y + V.z + V.w;
    }
  if (S == 1234.5f)
    Sink[0] = S;
}

/// Reads one float of each of \p Lines 128-byte lines \p Passes times, lane
/// l of a warp its own line, through L2 only: every warp access asks the L2
/// for 32 lines of one sector each (the requests of a 1-wide block).
__global__ void lineKernel(const float *__restrict__ In, size_t Lines,
                           int Passes, float *Sink) {
  float S = 0;
  for (int Pass = 0; Pass < Passes; ++Pass)
    for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < Lines;
         I += size_t(gridDim.x) * blockDim.x)
      S += ldcg(In + I * 32);
  if (S == 1234.5f)
    Sink[0] = S;
}

/// Writes \p N float4s \p Passes times (an array that fits in L2): the
/// L2's write bandwidth, the stores of a kernel that writes its output
/// element at every step (PolyBench's gemm, syrk).
__global__ void writeKernel(float4 *__restrict__ Out, size_t N, int Passes) {
  for (int Pass = 0; Pass < Passes; ++Pass)
    for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < N;
         I += size_t(gridDim.x) * blockDim.x)
      Out[I] = make_float4(float(Pass), 0.f, 0.f, 0.f);
}

__global__ void emptyKernel() {}

// Same-address atomics: lane 0 of every warp adds to one float Iters times
// (a `red`, the result unused), so the L2 performs every warp's additions
// to that address one after another.
__global__ void sameAddressAtomics(float *Target, int Iters) {
  if ((threadIdx.x & 31) == 0)
    for (int I = 0; I < Iters; ++I)
      atomicAdd(Target, 1.0f);
}

/// Spins one thread until the global timer advanced by \p Ns; records the
/// SM clock cycles and the nanoseconds that passed.
__global__ void clockKernel(long long Ns, long long *Out) {
  unsigned long long G0, G1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(G0));
  long long C0 = clock64();
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(G1));
  } while ((long long)(G1 - G0) < Ns);
  long long C1 = clock64();
  Out[0] = C1 - C0;
  Out[1] = (long long)(G1 - G0);
}

/// The operation of each pipe, on a register. int is a xor and an add
/// (two instructions, LOP3 and IADD3 on the int pipe); sfu is MUFU.RSQ.
struct OpFp32 {
  using T = float;
  static constexpr int InstsPerOp = 1;
  __device__ static T op(T X, T A, T B) { return fmaf(X, A, B); }
};
struct OpFp64 {
  using T = double;
  static constexpr int InstsPerOp = 1;
  __device__ static T op(T X, T A, T B) { return fma(X, A, B); }
};
struct OpInt {
  using T = unsigned;
  static constexpr int InstsPerOp = 2;
  __device__ static T op(T X, T A, T B) { return (X ^ A) + B; }
};
struct OpSfu {
  using T = float;
  static constexpr int InstsPerOp = 1;
  __device__ static T op(T X, T, T) {
    asm volatile("rsqrt.approx.f32 %0, %0;" : "+f"(X));
    return X;
  }
};

constexpr int Unroll = 16;

/// One thread runs a dependent chain of Iters * Unroll operations.
template <class Op>
__global__ void pipeLatency(typename Op::T A, typename Op::T B, int Iters,
                            long long *Cycles, typename Op::T *Sink) {
  typename Op::T X = A;
  long long T0 = clock64();
  for (int I = 0; I < Iters; ++I) {
#pragma unroll
    for (int U = 0; U < Unroll; ++U)
      X = Op::op(X, A, B);
  }
  long long T1 = clock64();
  Cycles[0] = T1 - T0;
  Sink[0] = X;
}

constexpr int Chains = 8;

/// Every thread runs Chains independent chains of Iters * Unroll / 2
/// operations each: enough independent work to keep the pipe busy.
template <class Op>
__global__ void pipeThroughput(typename Op::T A, typename Op::T B, int Iters,
                               typename Op::T *Sink) {
  typename Op::T X[Chains];
#pragma unroll
  for (int C = 0; C < Chains; ++C)
    X[C] = A + typename Op::T(threadIdx.x + C);
  for (int I = 0; I < Iters; ++I) {
#pragma unroll
    for (int U = 0; U < Unroll / 2; ++U)
#pragma unroll
      for (int C = 0; C < Chains; ++C)
        X[C] = Op::op(X[C], A, B);
  }
  typename Op::T S = 0;
#pragma unroll
  for (int C = 0; C < Chains; ++C)
    S += X[C];
  if (S == typename Op::T(12345))
    Sink[0] = S;
}

} // namespace klaraptor::probe

namespace {

using namespace klaraptor::probe;

//===----------------------------------------------------------------------===//
// Host side
//===----------------------------------------------------------------------===//

/// Median and spread of a measurement's repeats.
struct Stat {
  double Median = 0, Min = 0, Max = 0;
  int N = 0;
};

Stat stat(std::vector<double> V) {
  Stat S;
  if (V.empty())
    return S;
  std::sort(V.begin(), V.end());
  S.N = int(V.size());
  S.Min = V.front();
  S.Max = V.back();
  S.Median = V.size() % 2 ? V[V.size() / 2]
                          : (V[V.size() / 2 - 1] + V[V.size() / 2]) / 2;
  return S;
}

std::string num(double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.6g", V);
  return Buf;
}

/// A CUDA call that must succeed: throws a message naming it.
struct CudaError {
  std::string Message;
};
void check(cudaError_t E, const char *What) {
  if (E != cudaSuccess)
    throw CudaError{std::string(What) + ": " + cudaGetErrorString(E)};
}
#define CK(X) check((X), #X)

struct Options {
  std::string Out = "klaraptor-probed.device";
  std::string Base; ///< empty: the built-in profile of the same CC
  std::string Id;
  bool Quick = false;
};

/// The sizes and repeat counts of a run.
struct Plan {
  int Repeats;
  size_t DramChainBytes; ///< beyond L2
  size_t L2ChainBytes;   ///< fits in L2, beyond L1
  int ChaseSteps;
  size_t CopyBytes; ///< per array
  int L2ReadPasses;
  int PipeLatencyIters, PipeThroughputIters, ThroughputBlocksPerSM;
  int Launches;
  int BlocksPerSmForLaunch; ///< empty blocks per SM of the block-rate launch
  int AtomicIters; ///< same-address atomics per warp (4 warps per SM)
  long long ClockNs;
  size_t FlushBytes; ///< twice L2
};

Plan makePlan(const cudaDeviceProp &P, bool Quick) {
  Plan R;
  size_t L2 = P.l2CacheSize > 0 ? size_t(P.l2CacheSize) : (size_t(4) << 20);
  if (Quick) {
    R.Repeats = 3;
    R.DramChainBytes = size_t(1) << 20;
    R.L2ChainBytes = size_t(64) << 10;
    R.ChaseSteps = 256;
    R.CopyBytes = size_t(1) << 20;
    R.L2ReadPasses = 2;
    R.PipeLatencyIters = 16;
    R.PipeThroughputIters = 2;
    R.ThroughputBlocksPerSM = 1;
    R.Launches = 20;
    R.BlocksPerSmForLaunch = 4;
    R.AtomicIters = 16;
    R.ClockNs = 200000;
    R.FlushBytes = size_t(1) << 20;
    return R;
  }
  R.Repeats = 7;
  R.DramChainBytes = std::max(4 * L2, size_t(256) << 20);
  R.L2ChainBytes = std::min(L2 / 4, size_t(1) << 20);
  R.ChaseSteps = 8192;
  R.CopyBytes = std::max(4 * L2, size_t(256) << 20);
  R.L2ReadPasses = 64;
  R.PipeLatencyIters = 4096;
  R.PipeThroughputIters = 4096;
  R.ThroughputBlocksPerSM =
      std::max(1, P.maxThreadsPerMultiProcessor / 256);
  R.Launches = 2000;
  R.BlocksPerSmForLaunch = 256;
  R.AtomicIters = 2000;
  R.ClockNs = 20000000;
  R.FlushBytes = 2 * L2;
  return R;
}

/// A chain of Bytes / 4 unsigned links visiting one link per 128-byte
/// line (every line of the array) in a random order; returns the start.
unsigned makeChain(std::vector<unsigned> &Next, size_t Bytes,
                   unsigned Stride, uint64_t Seed) {
  size_t N = Bytes / sizeof(unsigned);
  Next.assign(N, 0);
  size_t Lines = N / Stride;
  std::vector<unsigned> Order(Lines);
  for (size_t I = 0; I < Lines; ++I)
    Order[I] = unsigned(I * Stride);
  std::mt19937_64 Rng(Seed);
  std::shuffle(Order.begin(), Order.end(), Rng);
  for (size_t I = 0; I < Lines; ++I)
    Next[Order[I]] = Order[(I + 1) % Lines];
  return Order[0];
}

/// One measured value: what the profile gets and how it was measured.
struct Measured {
  Stat S;
  double Value = 0; ///< what the profile key gets (derived from S.Median)
  std::string How;
};

class Probe {
public:
  Probe(const cudaDeviceProp &P, const Plan &PL) : Prop(P), PL(PL) {}

  std::map<std::string, Measured> run();

private:
  const cudaDeviceProp &Prop;
  const Plan &PL;
  long long *DCycles = nullptr;
  unsigned *DSink = nullptr;
  float *DFSink = nullptr;
  /// Written before each DRAM measurement to evict what L2 holds.
  char *DFlush = nullptr;
  size_t FlushBytes = 0;
  double *DDSink = nullptr;

  cudaEvent_t E0 = nullptr, E1 = nullptr;

  template <class F> double timeMs(F Launch) {
    CK(cudaEventRecord(E0));
    Launch();
    CK(cudaGetLastError());
    CK(cudaEventRecord(E1));
    CK(cudaEventSynchronize(E1));
    float Ms = 0;
    CK(cudaEventElapsedTime(&Ms, E0, E1));
    return Ms;
  }
  long long cycles() {
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    long long C = 0;
    CK(cudaMemcpy(&C, DCycles, sizeof C, cudaMemcpyDeviceToHost));
    return C;
  }
  double chase(size_t Bytes, uint64_t Seed, bool Warm);
  template <int N> double departureCycles(const float *A, int LaneStride);
  template <class Op> double latency();
  template <class Op> double throughputMs();
};

double Probe::chase(size_t Bytes, uint64_t Seed, bool Warm) {
  std::vector<unsigned> Next;
  unsigned Start = makeChain(Next, Bytes, 32, Seed);
  unsigned *D = nullptr;
  CK(cudaMalloc(&D, Next.size() * sizeof(unsigned)));
  CK(cudaMemcpy(D, Next.data(), Next.size() * sizeof(unsigned),
                cudaMemcpyHostToDevice));
  int Lines = int(Next.size() / 32);
  if (Warm) // one full walk puts the chain in L2 (and its pages in the TLB)
    chaseGlobal<<<1, 1>>>(D, Start, Lines, DCycles, DSink);
  std::vector<double> V;
  for (int R = 0; R < PL.Repeats; ++R) {
    if (!Warm) // the copy of the chain left part of it in L2
      CK(cudaMemset(DFlush, R, FlushBytes));
    chaseGlobal<<<1, 1>>>(D, Start, PL.ChaseSteps, DCycles, DSink);
    V.push_back(double(cycles()) / PL.ChaseSteps);
  }
  CK(cudaFree(D));
  return stat(V).Median;
}

template <int N>
double Probe::departureCycles(const float *A, int LaneStride) {
  departure<N><<<1, 32>>>(A, LaneStride, 1024, DCycles, DFSink);
  return double(cycles());
}

template <class Op> double Probe::latency() {
  using T = typename Op::T;
  pipeLatency<Op><<<1, 1>>>(T(1), T(1), PL.PipeLatencyIters, DCycles,
                            reinterpret_cast<T *>(DDSink));
  return double(cycles()) /
         (double(PL.PipeLatencyIters) * Unroll * Op::InstsPerOp);
}

template <class Op> double Probe::throughputMs() {
  using T = typename Op::T;
  int Blocks = Prop.multiProcessorCount * PL.ThroughputBlocksPerSM;
  return timeMs([&] {
    pipeThroughput<Op><<<Blocks, 256>>>(T(1), T(0), PL.PipeThroughputIters,
                                        reinterpret_cast<T *>(DDSink));
  });
}

std::map<std::string, Measured> Probe::run() {
  std::map<std::string, Measured> M;
  CK(cudaMalloc(&DCycles, 4 * sizeof(long long)));
  CK(cudaMalloc(&DSink, 64));
  CK(cudaMalloc(&DFSink, 64));
  CK(cudaMalloc(&DDSink, 64));
  CK(cudaEventCreate(&E0));
  CK(cudaEventCreate(&E1));
  FlushBytes = PL.FlushBytes;
  CK(cudaMalloc(&DFlush, FlushBytes));
  std::string R = std::to_string(PL.Repeats);
  auto Add = [&](const std::string &Key, std::vector<double> V,
                 const std::string &How, double Scale = 1) {
    Measured X;
    X.S = stat(V);
    X.Value = X.S.Median * Scale;
    X.How = How;
    M[Key] = X;
  };

  // The SM clock under load: clock64 against the global timer.
  std::vector<double> Clock;
  for (int I = 0; I < PL.Repeats; ++I) {
    clockKernel<<<1, 1>>>(PL.ClockNs, DCycles);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    long long Out[2];
    CK(cudaMemcpy(Out, DCycles, sizeof Out, cudaMemcpyDeviceToHost));
    Clock.push_back(Out[1] > 0 ? double(Out[0]) / double(Out[1]) : 0);
  }
  Add("timing.clock_ghz", Clock,
      "clock64 cycles / %globaltimer ns while one thread spins " +
          num(PL.ClockNs / 1e6) + " ms");
  double ClockGhz = M["timing.clock_ghz"].Value;

  // Latencies by pointer chasing (one thread, each load needs the last).
  std::vector<double> V;
  for (int I = 0; I < PL.Repeats; ++I)
    V.push_back(chase(PL.DramChainBytes, 1000 + I, false));
  Add("timing.dram.latency", V,
      "pointer chase by one thread, ld.global.cg, random order over the "
      "128-byte lines of " +
          num(PL.DramChainBytes / 1048576.0) + " MiB" +
          (PL.DramChainBytes > size_t(Prop.l2CacheSize) ? " (beyond L2), "
                                                         : " (--quick: fits "
                                                           "in L2), ") +
          std::to_string(PL.ChaseSteps) + " steps, cycles per step");
  V.clear();
  for (int I = 0; I < PL.Repeats; ++I)
    V.push_back(chase(PL.L2ChainBytes, 2000 + I, true));
  Add("timing.l2.latency", V,
      "pointer chase by one thread, ld.global.cg, over " +
          num(PL.L2ChainBytes / 1024.0) +
          " KiB after a warming walk (L2 hits), cycles per step");
  {
    std::vector<unsigned> Next;
    makeChain(Next, SharedChain * sizeof(unsigned), 1, 3000);
    // Shared links are indices into the shared array; start at 0.
    unsigned *D = nullptr;
    CK(cudaMalloc(&D, Next.size() * sizeof(unsigned)));
    CK(cudaMemcpy(D, Next.data(), Next.size() * sizeof(unsigned),
                  cudaMemcpyHostToDevice));
    V.clear();
    for (int I = 0; I < PL.Repeats; ++I) {
      chaseShared<<<1, 256>>>(D, PL.ChaseSteps, DCycles, DSink);
      V.push_back(double(cycles()) / PL.ChaseSteps);
    }
    CK(cudaFree(D));
    Add("timing.shared.latency", V,
        "pointer chase by one thread in a 16 KiB shared-memory chain, "
        "cycles per step");
  }

  // Departure delays: N back-to-back independent loads of one warp cost
  // about latency + (N - 1) * delay; the slope between N = 4 and N = 32.
  {
    // Each run reads fresh lines: 32 loads x 4 KiB apart, lanes 4 or 128
    // bytes apart; the cursor walks a buffer beyond L2.
    size_t Run = 32 * 1024 * sizeof(float) + 32 * 32 * sizeof(float);
    size_t Bytes = std::max(PL.DramChainBytes, Run * 4 * PL.Repeats);
    float *A = nullptr;
    CK(cudaMalloc(&A, Bytes));
    CK(cudaMemset(A, 0, Bytes));
    size_t Cursor = 0;
    auto Next = [&]() {
      if (Cursor + Run > Bytes)
        Cursor = 0;
      const float *P = A + Cursor / sizeof(float);
      Cursor += Run;
      return P;
    };
    std::vector<double> Coal, Uncoal;
    CK(cudaMemset(DFlush, 0, FlushBytes));
    for (int I = 0; I < PL.Repeats; ++I) {
      double C4 = departureCycles<4>(Next(), 1);
      double C32 = departureCycles<32>(Next(), 1);
      Coal.push_back((C32 - C4) / 28);
      double U4 = departureCycles<4>(Next(), 32);
      double U32 = departureCycles<32>(Next(), 32);
      // 32 transactions (one 128-byte line per lane) per load.
      Uncoal.push_back((U32 - U4) / 28 / 32);
    }
    CK(cudaFree(A));
    Add("mwp.departure_del_coal", Coal,
        "one warp, N back-to-back independent coalesced loads (128 bytes, "
        "from DRAM): (cycles(N=32) - cycles(N=4)) / 28");
    Add("mwp.departure_del_uncoal", Uncoal,
        "one warp, N back-to-back loads with each lane on its own 128-byte "
        "line (32 transactions, from DRAM): (cycles(N=32) - cycles(N=4)) / "
        "28 / 32, per transaction");
  }

  // Bandwidths.
  {
    size_t N4 = PL.CopyBytes / sizeof(float4);
    float4 *In = nullptr, *Out = nullptr;
    CK(cudaMalloc(&In, N4 * sizeof(float4)));
    CK(cudaMalloc(&Out, N4 * sizeof(float4)));
    CK(cudaMemset(In, 0, N4 * sizeof(float4)));
    // Full SMs: enough loads in flight to reach the bandwidth.
    int Blocks = Prop.multiProcessorCount * PL.ThroughputBlocksPerSM;
    copyKernel<<<Blocks, 256>>>(In, Out, N4); // first touch
    V.clear();
    for (int I = 0; I < PL.Repeats; ++I) {
      double Ms = timeMs([&] { copyKernel<<<Blocks, 256>>>(In, Out, N4); });
      V.push_back(Ms > 0 ? 2.0 * N4 * sizeof(float4) / (Ms * 1e6) : 0);
    }
    Add("mwp.mem_bandwidth_gbs", V,
        "copy of " + num(PL.CopyBytes / 1048576.0) +
            " MiB (read + write bytes) timed with cudaEvents, GB/s");
    // L2: reads of an array that fits in L2, many passes.
    size_t L2N4 = std::min(N4, size_t(std::max(Prop.l2CacheSize / 4, 1 << 16)) /
                                    sizeof(float4));
    readKernel<<<Blocks, 256>>>(In, L2N4, 1, DFSink);
    V.clear();
    for (int I = 0; I < PL.Repeats; ++I) {
      double Ms = timeMs([&] {
        readKernel<<<Blocks, 256>>>(In, L2N4, PL.L2ReadPasses, DFSink);
      });
      V.push_back(Ms > 0 ? double(PL.L2ReadPasses) * L2N4 * sizeof(float4) /
                               (Ms * 1e6)
                         : 0);
    }
    // SM cycles per unit of work of \p Launch (a warm-up run first, then
    // PL.Repeats timed ones of PL.L2ReadPasses passes over \p Units units):
    // time x clock x SMs / units.
    auto SmCyclesPer = [&](auto Launch, double Units) {
      Launch(1);
      std::vector<double> Cycles;
      for (int I = 0; I < PL.Repeats; ++I) {
        double Ms = timeMs([&] { Launch(PL.L2ReadPasses); });
        Cycles.push_back(Ms * 1e6 * ClockGhz * Prop.multiProcessorCount /
                         (double(PL.L2ReadPasses) * Units));
      }
      return Cycles;
    };
    // L2 requests: the same L2-resident bytes read a float per 128-byte
    // line; SM cycles per line request (for the cache model's
    // `l2_request_cycles`, docs/timing.md).
    size_t Lines = L2N4 * sizeof(float4) / 128;
    const float *InF = reinterpret_cast<const float *>(In);
    std::vector<double> Req = SmCyclesPer(
        [&](int Passes) { lineKernel<<<Blocks, 256>>>(InF, Lines, Passes, DFSink); },
        double(Lines));
    // L2 stores: the same L2-resident bytes written; SM cycles per stored
    // 32-byte sector (for the cache model's `l2_store_gap`).
    std::vector<double> Store = SmCyclesPer(
        [&](int Passes) { writeKernel<<<Blocks, 256>>>(In, L2N4, Passes); },
        double(L2N4) * (sizeof(float4) / 32.0));
    CK(cudaFree(In));
    CK(cudaFree(Out));
    Add("l2.store_gap", Store,
        "writes of " + num(L2N4 * 16 / 1048576.0) + " MiB, " +
            std::to_string(PL.L2ReadPasses) +
            " passes, cudaEvent time x clock_ghz x SMs / 32-byte sectors "
            "written: SM cycles per stored sector (the cache model's "
            "timing.l2_store_gap)");
    Add("l2.request_cycles", Req,
        "reads (ld.global.cg) of one float per 128-byte line of " +
            num(Lines * 128 / 1048576.0) + " MiB, " +
            std::to_string(PL.L2ReadPasses) +
            " passes, cudaEvent time x clock_ghz x SMs / lines: SM cycles "
            "per line request (the cache model's timing.l2_request_cycles)");
    Add("l2.bandwidth_gbs", V,
        "reads (ld.global.cg) of " + num(L2N4 * 16 / 1048576.0) + " MiB, " +
            std::to_string(PL.L2ReadPasses) +
            " passes, timed with cudaEvents, GB/s");
  }

  // Pipes: latency from a dependent chain in one thread, throughput from
  // full SMs of independent chains.
  auto Pipe = [&](const char *Name, double (Probe::*Lat)(),
                  double (Probe::*Thr)(), int InstsPerOp) {
    std::vector<double> L, G, Cyc;
    int Blocks = Prop.multiProcessorCount * PL.ThroughputBlocksPerSM;
    double WarpInstsPerSM = double(Blocks) * (256 / 32) *
                            PL.PipeThroughputIters * (Unroll / 2) * Chains *
                            InstsPerOp / Prop.multiProcessorCount;
    for (int I = 0; I < PL.Repeats; ++I) {
      L.push_back((this->*Lat)());
      double Ms = (this->*Thr)();
      // Cycles per warp instruction on one SM.
      Cyc.push_back(Ms * 1e6 * ClockGhz / WarpInstsPerSM);
    }
    std::string P = std::string("timing.") + Name;
    Add(P + ".latency", L,
        "dependent chain in one thread, clock64 cycles per instruction");
    Add(P + ".sm_cycles_per_inst", Cyc,
        "independent chains in " + std::to_string(PL.ThroughputBlocksPerSM) +
            " blocks of 256 threads per SM, cudaEvent time x clock_ghz / "
            "warp instructions per SM");
  };
  Pipe("fp32", &Probe::latency<OpFp32>, &Probe::throughputMs<OpFp32>, 1);
  Pipe("int", &Probe::latency<OpInt>, &Probe::throughputMs<OpInt>, 2);
  Pipe("fp64", &Probe::latency<OpFp64>, &Probe::throughputMs<OpFp64>, 1);
  Pipe("sfu", &Probe::latency<OpSfu>, &Probe::throughputMs<OpSfu>, 1);

  // Launch overhead: back-to-back empty kernels on one stream.
  emptyKernel<<<1, 1>>>();
  V.clear();
  for (int I = 0; I < PL.Repeats; ++I) {
    double Ms = timeMs([&] {
      for (int K = 0; K < PL.Launches; ++K)
        emptyKernel<<<1, 1>>>();
    });
    V.push_back(Ms * 1e6 / PL.Launches);
  }
  Add("timing.launch_overhead_ns", V,
      std::to_string(PL.Launches) +
          " back-to-back empty kernels <<<1,1>>> between two cudaEvents, ns "
          "per launch");

  // Block launch rate: a launch of BlocksPerSmForLaunch empty one-warp
  // blocks per SM against one of one block per SM; the difference is what
  // the SMs' extra blocks cost, one after another on each SM.
  {
    int SMs = Prop.multiProcessorCount;
    int PerSm = PL.BlocksPerSmForLaunch;
    int Rounds = std::max(1, PL.Launches / 20);
    // SM cycles per extra block of an SM, for blocks of Threads threads.
    auto PerBlock = [&](int Threads) {
      emptyKernel<<<SMs * PerSm, Threads>>>();
      std::vector<double> C;
      for (int I = 0; I < PL.Repeats; ++I) {
        double Many = timeMs([&] {
          for (int K = 0; K < Rounds; ++K)
            emptyKernel<<<SMs * PerSm, Threads>>>();
        });
        double One = timeMs([&] {
          for (int K = 0; K < Rounds; ++K)
            emptyKernel<<<SMs, Threads>>>();
        });
        C.push_back(std::max(0.0, (Many - One) / Rounds * 1e6 * ClockGhz /
                                      double(PerSm - 1)));
      }
      return C;
    };
    V = PerBlock(32);
    // The same with larger blocks, recorded in the comment only (the
    // estimator and the models take the one-warp rate): whether a block's
    // cost grows with its warps is what a model of the dispatch needs to
    // know (docs/timing.md).
    std::string Larger;
    for (int Threads : {128, 256, 1024})
      if (Threads <= Prop.maxThreadsPerBlock)
        Larger += (Larger.empty() ? "" : ", ") + std::to_string(Threads) +
                  " threads " + num(stat(PerBlock(Threads)).Median);
    Add("timing.block_launch_cycles", V,
        std::to_string(Rounds) + " launches of " + std::to_string(PerSm) +
            " empty 32-thread blocks per SM against as many of one block "
            "per SM (cudaEvents): the extra time x clock_ghz per extra "
            "block of an SM" +
            (Larger.empty() ? std::string()
                            : "; the same for larger blocks, not used: " +
                                  Larger + " cycles per block"));
  }

  // Same-address atomics: 4 warps per SM, each adding AtomicIters times to
  // one float; the L2 performs them one after another, so the launch's
  // time over their number is the spacing.
  {
    int SMs = Prop.multiProcessorCount;
    double Ops = double(SMs) * 4 * PL.AtomicIters;
    sameAddressAtomics<<<SMs, 128>>>(DFSink, PL.AtomicIters);
    V.clear();
    for (int I = 0; I < PL.Repeats; ++I) {
      double Ms = timeMs(
          [&] { sameAddressAtomics<<<SMs, 128>>>(DFSink, PL.AtomicIters); });
      V.push_back(Ms * 1e6 * ClockGhz / Ops);
    }
    Add("timing.atomic_same_address_cycles", V,
        "atomicAdd to one float by lane 0 of 4 warps per SM, " +
            std::to_string(PL.AtomicIters) +
            " each (cudaEvents): time x clock_ghz per atomic");
  }

  cudaEventDestroy(E0);
  cudaEventDestroy(E1);
  cudaFree(DCycles);
  cudaFree(DSink);
  cudaFree(DFSink);
  cudaFree(DDSink);
  cudaFree(DFlush);
  return M;
}

//===----------------------------------------------------------------------===//
// The profile file
//===----------------------------------------------------------------------===//

std::string today() {
  std::time_t T = std::time(nullptr);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%d", std::gmtime(&T));
  return Buf;
}

/// A profile id from a device name: lower case, [a-z0-9] runs joined by '-'.
std::string idFromName(const std::string &Name) {
  std::string Id;
  for (char C : Name) {
    if (std::isalnum((unsigned char)C))
      Id += char(std::tolower((unsigned char)C));
    else if (!Id.empty() && Id.back() != '-')
      Id += '-';
  }
  while (!Id.empty() && Id.back() == '-')
    Id.pop_back();
  return Id.empty() ? "probed" : Id;
}

/// Writes `key = value  # source` lines.
class Writer {
public:
  std::ostringstream OS;
  void comment(const std::string &C) { OS << "# " << C << "\n"; }
  void key(const std::string &K, const std::string &V, const std::string &Src) {
    std::string L = K + " = " + V;
    if (L.size() < 42)
      L.resize(42, ' ');
    OS << L << " # " << Src << "\n";
  }
};

bool pickBase(const cudaDeviceProp &P, const std::string &Asked,
              klaraptor::devices::DeviceProfile &Base, std::string &Note,
              std::string &Error) {
  using namespace klaraptor::devices;
  if (!Asked.empty()) {
    if (!loadDeviceProfile(Asked, Base, Error))
      return false;
    Note = "the base profile given (--base " + Asked + ")";
    return true;
  }
  for (const std::string &Name : builtinDeviceProfiles()) {
    DeviceProfile B;
    std::string E;
    if (loadDeviceProfile(Name, B, E) && B.Major == P.major &&
        B.Minor == P.minor) {
      Base = B;
      Note = "the built-in profile of the same compute capability " +
             std::to_string(P.major) + "." + std::to_string(P.minor);
      return true;
    }
  }
  if (!loadDeviceProfile(defaultDeviceProfile(), Base, Error))
    return false;
  Note = "the default built-in profile (no built-in profile has compute "
         "capability " +
         std::to_string(P.major) + "." + std::to_string(P.minor) +
         "; check the copied keys)";
  return true;
}

std::string render(const cudaDeviceProp &P, int ClockKHz, int MemClockKHz,
                   int Driver, int Runtime, bool Emulated, const Options &O,
                   const klaraptor::devices::DeviceProfile &Base,
                   const std::string &BaseNote,
                   const std::map<std::string, Measured> &M) {
  using namespace klaraptor::devices;
  Writer W;
  std::string Date = today();
  std::string Src = "microbenchmark (klaraptor device probe, " + Date + ")";
  std::string Rt = "[rt] cudaGetDeviceProperties";
  std::string Copied = "[base] copied from base profile '" + Base.Id + "'";
  W.comment("klaraptor device profile: " + std::string(P.name) + ", CC " +
            std::to_string(P.major) + "." + std::to_string(P.minor) +
            ", measured by 'klaraptor device probe' on " + Date +
            (O.Quick ? " (--quick: small sizes, few repeats)" : "") + ".");
  if (Emulated)
    W.comment("WARNING: measured on the klaraptor CPU PTX emulator; these "
              "numbers are not hardware numbers.");
  W.comment("CUDA driver " + std::to_string(Driver / 1000) + "." +
            std::to_string(Driver % 1000 / 10) + " (" +
            std::to_string(Driver) + "), runtime " +
            std::to_string(Runtime / 1000) + "." +
            std::to_string(Runtime % 1000 / 10) + " (" +
            std::to_string(Runtime) + ")");
  W.comment("Sources:");
  W.comment("  [rt]   cudaGetDeviceProperties / cudaDeviceGetAttribute on "
            "this device");
  W.comment("  [base] copied from " + BaseNote + ": '" + Base.Id + "' (" +
            Base.Origin + ")");
  W.comment("  " + Src + ": measured on this device; the comment says how, "
            "the median of the repeats and their spread");
  W.OS << "format = 1\n";
  W.key("id", O.Id.empty() ? idFromName(P.name) : O.Id,
        "--id, or the device name");
  std::string Name = P.name;
  Name.erase(std::remove_if(Name.begin(), Name.end(),
                            [](char C) { return C == '"' || C == '#'; }),
             Name.end());
  W.key("name", "\"" + Name + "\"", Rt);
  auto I = [&](const char *K, long long V) { W.key(K, std::to_string(V), Rt); };
  I("major", P.major);
  I("minor", P.minor);
  I("multiProcessorCount", P.multiProcessorCount);
  I("totalGlobalMem", (long long)P.totalGlobalMem);
  I("totalConstMem", (long long)P.totalConstMem);
  I("sharedMemPerBlock", (long long)P.sharedMemPerBlock);
  I("sharedMemPerBlockOptin", (long long)P.sharedMemPerBlockOptin);
  I("sharedMemPerMultiprocessor", (long long)P.sharedMemPerMultiprocessor);
  I("reservedSharedMemPerBlock", (long long)P.reservedSharedMemPerBlock);
  I("regsPerBlock", P.regsPerBlock);
  I("regsPerMultiprocessor", P.regsPerMultiprocessor);
  I("warpSize", P.warpSize);
  I("maxThreadsPerBlock", P.maxThreadsPerBlock);
  W.key("maxThreadsDim",
        std::to_string(P.maxThreadsDim[0]) + " " +
            std::to_string(P.maxThreadsDim[1]) + " " +
            std::to_string(P.maxThreadsDim[2]),
        Rt);
  W.key("maxGridSize",
        std::to_string(P.maxGridSize[0]) + " " +
            std::to_string(P.maxGridSize[1]) + " " +
            std::to_string(P.maxGridSize[2]),
        Rt);
  I("maxThreadsPerMultiProcessor", P.maxThreadsPerMultiProcessor);
  I("maxBlocksPerMultiProcessor", P.maxBlocksPerMultiProcessor);
  I("l2CacheSize", P.l2CacheSize);
  I("persistingL2CacheMaxSize", P.persistingL2CacheMaxSize);
  I("memoryBusWidth", P.memoryBusWidth);
  W.key("clockRate", std::to_string(ClockKHz),
        "[rt] cudaDevAttrClockRate (kHz)");
  W.key("memoryClockRate", std::to_string(MemClockKHz),
        "[rt] cudaDevAttrMemoryClockRate (kHz)");
  I("memPitch", (long long)P.memPitch);
  I("textureAlignment", (long long)P.textureAlignment);
  I("texturePitchAlignment", (long long)P.texturePitchAlignment);
  I("asyncEngineCount", P.asyncEngineCount);
  I("concurrentKernels", P.concurrentKernels);
  I("ECCEnabled", P.ECCEnabled);
  I("unifiedAddressing", P.unifiedAddressing);
  I("managedMemory", P.managedMemory);
  I("concurrentManagedAccess", P.concurrentManagedAccess);
  I("cooperativeLaunch", P.cooperativeLaunch);
  I("clusterLaunch", P.clusterLaunch);
  I("computePreemptionSupported", P.computePreemptionSupported);
  I("globalL1CacheSupported", P.globalL1CacheSupported);
  I("localL1CacheSupported", P.localL1CacheSupported);
  I("streamPrioritiesSupported", P.streamPrioritiesSupported);
  I("canMapHostMemory", P.canMapHostMemory);
  I("integrated", P.integrated);
  I("memoryPoolsSupported", P.memoryPoolsSupported);
  I("accessPolicyMaxWindowSize", P.accessPolicyMaxWindowSize);
  W.comment("Occupancy calculator granularities (the runtime does not "
            "report them).");
  W.key("regAllocUnitSize", std::to_string(Base.RegAllocUnitSize), Copied);
  W.key("regAllocGranularity", Base.RegAllocPerWarp ? "warp" : "block",
        Copied);
  W.key("maxRegsPerThread", std::to_string(Base.MaxRegsPerThread), Copied);
  W.key("smSubPartitions", std::to_string(Base.SmSubPartitions), Copied);
  W.key("sharedMemAllocUnitSize", std::to_string(Base.SharedMemAllocUnitSize),
        Copied);
  std::string Carve;
  for (int64_t K : Base.SharedMemCarveoutKiB)
    Carve += (Carve.empty() ? "" : " ") + std::to_string(K);
  W.key("sharedMemCarveoutKiB", Carve, Copied);

  // Measured values, each checked: a value that is not positive and finite
  // is not written; the base's value is.
  auto Good = [&](const std::string &K) {
    auto It = M.find(K);
    return It != M.end() && std::isfinite(It->second.Value) &&
           It->second.Value > 0;
  };
  auto Spread = [&](const Measured &X) {
    return "; measured: median " + num(X.S.Median) + " of " +
           std::to_string(X.S.N) + " repeats, min " + num(X.S.Min) +
           ", max " + num(X.S.Max);
  };
  std::map<std::string, std::pair<double, std::string>> Timing, Mwp;
  auto Measure = [&](std::map<std::string, std::pair<double, std::string>> &To,
                     const std::string &Key, const std::string &From,
                     double Value, const std::string &Extra) {
    const Measured &X = M.at(From);
    To[Key] = {Value, Src + ": " + X.How + Extra + Spread(X)};
  };
  for (const char *K : {"clock_ghz", "dram.latency", "l2.latency",
                        "shared.latency", "launch_overhead_ns",
                        "block_launch_cycles", "atomic_same_address_cycles"})
    if (Good(std::string("timing.") + K))
      Measure(Timing, K, std::string("timing.") + K,
              M.at(std::string("timing.") + K).Value, "");
  for (const char *K : {"fp32", "int", "fp64", "sfu"}) {
    std::string P = std::string("timing.") + K;
    if (Good(P + ".latency"))
      Measure(Timing, std::string(K) + ".latency", P + ".latency",
              M.at(P + ".latency").Value, "");
  }
  // Gaps are per scheduler: SM cycles per warp instruction x schedulers.
  double Sched = Base.Timing.count("schedulers") ? Base.Timing.at("schedulers")
                                                 : double(Base.SmSubPartitions);
  if (Sched <= 0)
    Sched = 4;
  for (const char *K : {"fp32", "int", "fp64", "sfu"}) {
    std::string From = std::string("timing.") + K + ".sm_cycles_per_inst";
    if (Good(From))
      Measure(Timing, std::string(K) + ".gap", From,
              M.at(From).Value * Sched,
              "; x " + num(Sched) + " schedulers (base timing.schedulers)");
  }
  double Clock = Good("timing.clock_ghz") ? M.at("timing.clock_ghz").Value
                                          : ClockKHz / 1e6;
  int SMs = P.multiProcessorCount;
  // Bytes per sector / (bytes per cycle per SM).
  auto SectorGap = [&](double Gbs) { return 32.0 / (Gbs / SMs / Clock); };
  if (Good("mwp.mem_bandwidth_gbs") && Clock > 0 && SMs > 0) {
    double Gbs = M.at("mwp.mem_bandwidth_gbs").Value;
    Measure(Timing, "dram.gap", "mwp.mem_bandwidth_gbs", SectorGap(Gbs),
            "; gap = 32 B / (GB/s / " + std::to_string(SMs) + " SMs / " +
                num(Clock) + " GHz)");
    Measure(Mwp, "mem_bandwidth_gbs", "mwp.mem_bandwidth_gbs", Gbs, "");
  }
  if (Good("l2.bandwidth_gbs") && Clock > 0 && SMs > 0)
    Measure(Timing, "l2.gap", "l2.bandwidth_gbs",
            SectorGap(M.at("l2.bandwidth_gbs").Value),
            "; gap = 32 B / (GB/s / " + std::to_string(SMs) + " SMs / " +
                num(Clock) + " GHz)");
  // The cache model's costs of a line request on the SM's path to the L2
  // and of a stored sector at the L2 (docs/timing.md, "The shared L2"):
  // written like the others; the estimator uses them only with the cache
  // model on.
  for (const auto &[Key, From] :
       {std::pair<const char *, const char *>{"l2_request_cycles",
                                              "l2.request_cycles"},
        {"l2_store_gap", "l2.store_gap"}})
    if (Good(From))
      Measure(Timing, Key, From, M.at(From).Value,
              "; used with the cache model only (the estimator's default)");
  // The departure delays are measured (one warp's back-to-back loads) but
  // not used: that is the single-warp issue path, not the spacing of many
  // warps' requests that MWP-CWP means. On an H200 the probe measured 49.8
  // cycles coalesced and 2.3 per uncoalesced transaction, and with them the
  // model picked 4x128 for gemm, 0.24 of the best (docs/results.md, "The
  // probed H200 profile"). The base's values stay; the comment keeps ours.
  std::map<std::string, std::string> UnusedMeasured;
  for (const char *K : {"departure_del_coal", "departure_del_uncoal"})
    if (Good(std::string("mwp.") + K))
      UnusedMeasured[K] = "measured " +
                          num(M.at(std::string("mwp.") + K).Value) +
                          " (one warp's back-to-back loads) but not used: "
                          "not the departure delay MWP-CWP means "
                          "(docs/models.md)";
  if (Good("timing.fp32.sm_cycles_per_inst"))
    Measure(Mwp, "issue_cycles", "timing.fp32.sm_cycles_per_inst",
            M.at("timing.fp32.sm_cycles_per_inst").Value,
            "; the fp32 FMA throughput: SM cycles per warp instruction");

  auto Emit = [&](const char *Prefix, const std::vector<std::string> &Keys,
                  std::map<std::string, std::pair<double, std::string>> &Got,
                  const std::map<std::string, double> &BaseVals) {
    for (const std::string &K : Keys) {
      auto It = Got.find(K);
      if (It != Got.end()) {
        W.key(Prefix + K, num(It->second.first), It->second.second);
        continue;
      }
      // Only MWP-CWP keys are measured and left unused.
      auto Note = std::string(Prefix) == "mwp." ? UnusedMeasured.find(K)
                                                : UnusedMeasured.end();
      const bool Unused = Note != UnusedMeasured.end();
      auto B = BaseVals.find(K);
      if (B != BaseVals.end()) {
        W.key(Prefix + K, num(B->second),
              Copied + (Unused ? "; " + Note->second
                               : std::string(" (not measured by the probe)")));
        continue;
      }
      W.comment(Prefix + K +
                (Unused ? ": " + Note->second + ", and not in the base profile "
                        : ": not measured and not in the base profile ") +
                (std::string(Prefix) == "timing."
                     ? "(left out; the estimator's default applies)"
                     : "(left out; the MWP-CWP model needs it: add it)"));
    }
  };
  W.comment("Timing parameters (docs/timing.md), in SM cycles.");
  Emit("timing.", timingKeys(), Timing, Base.Timing);
  W.comment("MWP-CWP parameters (docs/models.md).");
  Emit("mwp.", mwpKeys(), Mwp, Base.Mwp);
  return W.OS.str();
}

const char *Usage =
    "USAGE: klaraptor-device-probe [--out FILE] [--base PROFILE] [--quick] "
    "[--id ID]\n\n"
    "Measures this GPU with microbenchmarks and writes a device profile.\n"
    "  --out FILE      the profile to write (default "
    "klaraptor-probed.device)\n"
    "  --base PROFILE  built-in name or .device file the keys that are not\n"
    "                  measured are copied from (default: the built-in\n"
    "                  profile of the same compute capability)\n"
    "  --quick         small sizes and 3 repeats (tests; not for use)\n"
    "  --id ID         the profile's id (default: from the device name)\n"
    "Exit status: 0 written, 1 error, 2 no CUDA device.\n";

int fail(const std::string &Message) {
  std::fprintf(stderr, "klaraptor-device-probe: error: %s\n",
               Message.c_str());
  return 1;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](std::string &To) {
      if (I + 1 >= Argc)
        return false;
      To = Argv[++I];
      return true;
    };
    if (A == "--help" || A == "-h") {
      std::fputs(Usage, stdout);
      return 0;
    }
    if (A == "--quick")
      O.Quick = true;
    else if (A == "--out" || A == "--base" || A == "--id") {
      std::string &To = A == "--out" ? O.Out : A == "--base" ? O.Base : O.Id;
      if (!Value(To) || To.empty())
        return fail("'" + A + "' expects a value");
    } else
      return fail("unknown argument '" + A + "' (see --help)");
  }

  int Count = 0;
  cudaError_t E = cudaGetDeviceCount(&Count);
  if (E != cudaSuccess || Count == 0) {
    fail(std::string("no CUDA device: ") +
                (E != cudaSuccess
                     ? std::string("cudaGetDeviceCount: ") +
                           cudaGetErrorString(E)
                     : std::string("cudaGetDeviceCount found none")) +
                " (the probe measures a GPU; klaraptor-device-probe-emu "
                "runs it on the CPU emulator, for tests)");
    return 2; // `klaraptor device probe` tells this apart from failures
  }
  bool Emulated = dlsym(RTLD_DEFAULT, "klaraptor_emu_device_profile") != nullptr;

  try {
    cudaDeviceProp P;
    CK(cudaGetDeviceProperties(&P, 0));
    int ClockKHz = 0, MemClockKHz = 0, Driver = 0, Runtime = 0;
    CK(cudaDeviceGetAttribute(&ClockKHz, cudaDevAttrClockRate, 0));
    CK(cudaDeviceGetAttribute(&MemClockKHz, cudaDevAttrMemoryClockRate, 0));
    CK(cudaDriverGetVersion(&Driver));
    CK(cudaRuntimeGetVersion(&Runtime));

    klaraptor::devices::DeviceProfile Base;
    std::string BaseNote, Error;
    if (!pickBase(P, O.Base, Base, BaseNote, Error))
      return fail("--base: " + Error);

    std::printf("device 0: %s, CC %d.%d, %d SMs, driver %d, runtime %d%s\n",
                P.name, P.major, P.minor, P.multiProcessorCount, Driver,
                Runtime, Emulated ? " (the klaraptor CPU emulator: numbers "
                                    "are not hardware numbers)"
                                  : "");
    std::printf("base profile: %s (%s)\n", Base.Id.c_str(),
                Base.Origin.c_str());
    std::fflush(stdout);
    Plan PL = makePlan(P, O.Quick);
    Probe Pr(P, PL);
    std::map<std::string, Measured> M = Pr.run();

    std::printf("%-36s %12s %12s %12s\n", "measurement", "median", "min",
                "max");
    for (const auto &[K, X] : M)
      std::printf("%-36s %12s %12s %12s\n", K.c_str(), num(X.S.Median).c_str(),
                  num(X.S.Min).c_str(), num(X.S.Max).c_str());

    std::string Text = render(P, ClockKHz, MemClockKHz, Driver, Runtime,
                              Emulated, O, Base, BaseNote, M);
    // Check it reads back before writing it.
    klaraptor::devices::DeviceProfile Check;
    if (!Check.parse(Text, O.Out, Error))
      return fail("the profile written does not parse (a bug): " + Error);
    std::ofstream F(O.Out, std::ios::binary | std::ios::trunc);
    if (!F || !(F << Text) || !F.flush())
      return fail("cannot write '" + O.Out + "': " + std::strerror(errno));
    std::printf("wrote %s\n", O.Out.c_str());
  } catch (const CudaError &X) {
    return fail(X.Message);
  }
  return 0;
}
