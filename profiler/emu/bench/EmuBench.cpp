//===- EmuBench.cpp - speed of the PTX emulator ---------------------------===//
///
/// \file
/// klaraptor-emu-bench [--ptx FILE] [--n N] [--threads T] [--check]
///                     [--sampling]
///
/// Prints the emulator's speed in thread-instructions per second on one
/// host thread (an arithmetic loop kernel and a naive matrix product, with
/// and without metrics) and the time to emulate one launch of the
/// N x N x N (default 256) single-precision matrix product with 16x16
/// blocks. --check compares the product with a CPU reference. --sampling
/// prints the error of sampled metrics against full execution for a
/// stencil with boundary blocks, a kernel with data-dependent loops and the
/// matrix product.
//===----------------------------------------------------------------------===//
#include "Emulator.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace klaraptor::emu;

namespace {

double seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Run {
  double Secs = 0;
  LaunchMetrics M;
  bool Ok = false;
};

Run launch(Module &Mod, const char *Kernel, Dim3 Grid, Dim3 Block, void **Args,
           unsigned Threads, bool Metrics) {
  LaunchOptions O;
  O.Grid = Grid;
  O.Block = Block;
  O.Args = Args;
  O.HostThreads = Threads;
  Run R;
  O.Metrics = &R.M;
  LaunchMetrics Dummy;
  if (!Metrics)
    O.Metrics = nullptr;
  double T0 = seconds();
  LaunchResult Res = Mod.launch(Kernel, O);
  R.Secs = seconds() - T0;
  if (Res.Status != LaunchStatus::Ok) {
    std::fprintf(stderr, "klaraptor-emu-bench: error: %s\n", Res.Message.c_str());
    return R;
  }
  R.Ok = true;
  (void)Dummy;
  return R;
}

uint64_t totalWarpInstructions(const LaunchMetrics &M) {
  uint64_t S = 0;
  for (uint64_t V : M.WarpInstructions)
    S += V;
  return S;
}

/// Relative error of sampled metrics against a full launch.
bool sampleKernel(Module &Mod, const char *Name, const char *Kernel, Dim3 Grid,
                  Dim3 Block, void **Args) {
  Run Full = launch(Mod, Kernel, Grid, Block, Args, 1, true);
  if (!Full.Ok)
    return false;
  uint64_t Blocks = Grid.count();
  std::printf("sampling %s (%llu blocks):\n", Name, (unsigned long long)Blocks);
  std::printf("  %-8s %-9s %-12s %-12s %-12s %-12s\n", "samples", "time", "warp-inst",
              "thread-inst", "ld-sectors", "divergent");
  for (uint64_t S : {uint64_t(4), uint64_t(16), Blocks / 20, Blocks / 10, Blocks / 4}) {
    if (S < 2 || S >= Blocks)
      continue;
    LaunchOptions O;
    O.Grid = Grid;
    O.Block = Block;
    O.Args = Args;
    O.SampleBlocks = S;
    LaunchMetrics M;
    O.Metrics = &M;
    double T0 = seconds();
    if (Mod.launch(Kernel, O).Status != LaunchStatus::Ok)
      return false;
    double T = seconds() - T0;
    auto err = [](uint64_t A, uint64_t B) {
      return B ? 100.0 * (double(A) - double(B)) / double(B) : 0.0;
    };
    std::printf("  %-8llu %6.1f ms %+10.2f %% %+10.2f %% %+10.2f %% %+10.2f %%\n",
                (unsigned long long)S, T * 1e3,
                err(totalWarpInstructions(M), totalWarpInstructions(Full.M)),
                err(M.ThreadInstructions, Full.M.ThreadInstructions),
                err(M.GlobalLoadSectors, Full.M.GlobalLoadSectors),
                err(M.DivergentBranches, Full.M.DivergentBranches));
  }
  std::printf("  full     %6.1f ms\n", Full.Secs * 1e3);
  return true;
}

bool sampling(Module &Mod, void **MatmulArgs, int N) {
  int W = 1000, H = 700;
  std::vector<float> In(size_t(W) * H, 1.0f), Out(size_t(W) * H);
  const float *IP = In.data();
  float *OP = Out.data();
  void *SArgs[] = {&IP, &OP, &W, &H};
  if (!sampleKernel(Mod, "stencil 1000x700, 16x16 blocks", "stencil",
                    {(unsigned(W) + 15) / 16, (unsigned(H) + 15) / 16, 1}, {16, 16, 1}, SArgs))
    return false;
  int CN = 100000;
  std::vector<unsigned> CIn(CN), Steps(CN);
  for (int I = 0; I < CN; ++I)
    CIn[I] = unsigned(I + 1);
  const unsigned *CIP = CIn.data();
  unsigned *SP = Steps.data();
  void *CArgs[] = {&CIP, &SP, &CN};
  if (!sampleKernel(Mod, "collatz 100000, 256 threads", "collatz",
                    {unsigned(CN + 255) / 256, 1, 1}, {256, 1, 1}, CArgs))
    return false;
  return sampleKernel(Mod, "matmul, 16x16 blocks", "matmul",
                      {unsigned(N + 15) / 16, unsigned(N + 15) / 16, 1}, {16, 16, 1},
                      MatmulArgs);
}

} // namespace

int main(int Argc, char **Argv) {
  std::string PtxPath = KLARAPTOR_EMU_BENCH_PTX;
  int N = 256;
  unsigned Threads = 1;
  bool Check = false, Sampling = false;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--ptx") && I + 1 < Argc)
      PtxPath = Argv[++I];
    else if (!std::strcmp(Argv[I], "--n") && I + 1 < Argc)
      N = std::atoi(Argv[++I]);
    else if (!std::strcmp(Argv[I], "--threads") && I + 1 < Argc)
      Threads = unsigned(std::atoi(Argv[++I]));
    else if (!std::strcmp(Argv[I], "--check"))
      Check = true;
    else if (!std::strcmp(Argv[I], "--sampling"))
      Sampling = true;
    else {
      std::fprintf(stderr, "usage: klaraptor-emu-bench [--ptx FILE] [--n N] "
                           "[--threads T] [--check] [--sampling]\n");
      return 2;
    }
  }
  std::ifstream In(PtxPath);
  if (!In) {
    std::fprintf(stderr, "klaraptor-emu-bench: error: cannot read '%s'\n", PtxPath.c_str());
    return 1;
  }
  std::stringstream SS;
  SS << In.rdbuf();
  std::string Err;
  auto Mod = Module::load(SS.str(), Err);
  if (!Mod) {
    std::fprintf(stderr, "klaraptor-emu-bench: error: %s\n", Err.c_str());
    return 1;
  }

  // Arithmetic loop: 64 blocks of 256 threads.
  std::vector<float> Out(64 * 256);
  float *OutP = Out.data();
  int Iters = 1000;
  void *AluArgs[] = {&OutP, &Iters};
  Run Alu = launch(*Mod, "alu", {64, 1, 1}, {256, 1, 1}, AluArgs, 1, true);
  Run AluNoM = launch(*Mod, "alu", {64, 1, 1}, {256, 1, 1}, AluArgs, 1, false);
  if (!Alu.Ok || !AluNoM.Ok)
    return 1;
  std::printf("alu: %llu thread-instructions in %.3f s: %.1f million thread-instructions/s "
              "(%.1f million without metrics)\n",
              (unsigned long long)Alu.M.ThreadInstructions, Alu.Secs,
              Alu.M.ThreadInstructions / Alu.Secs / 1e6,
              Alu.M.ThreadInstructions / AluNoM.Secs / 1e6);

  // Matrix product.
  std::vector<float> A(size_t(N) * N), B(size_t(N) * N), C(size_t(N) * N);
  for (int I = 0; I < N * N; ++I) {
    A[I] = float((I * 7) % 13) * 0.25f;
    B[I] = float((I * 5) % 11) * 0.5f;
  }
  const float *AP = A.data(), *BP = B.data();
  float *CP = C.data();
  void *MArgs[] = {&AP, &BP, &CP, &N};
  Dim3 Grid{unsigned((N + 15) / 16), unsigned((N + 15) / 16), 1}, Block{16, 16, 1};
  Run Mm = launch(*Mod, "matmul", Grid, Block, MArgs, Threads, true);
  Run MmNoM = launch(*Mod, "matmul", Grid, Block, MArgs, Threads, false);
  if (!Mm.Ok || !MmNoM.Ok)
    return 1;
  std::printf("matmul %dx%dx%d (16x16 blocks, %u host thread%s): %.3f s per launch "
              "with metrics, %.3f s without; %.1f million thread-instructions/s\n",
              N, N, N, Threads, Threads == 1 ? "" : "s", Mm.Secs, MmNoM.Secs,
              Mm.M.ThreadInstructions / Mm.Secs / 1e6);
  std::printf("matmul metrics: %llu warp instructions, %llu global load requests, "
              "%llu sectors\n",
              (unsigned long long)[&] {
                uint64_t S = 0;
                for (uint64_t V : Mm.M.WarpInstructions)
                  S += V;
                return S;
              }(),
              (unsigned long long)Mm.M.GlobalLoadRequests,
              (unsigned long long)Mm.M.GlobalLoadSectors);
  if (Check) {
    int Bad = 0;
    for (int R = 0; R < N; ++R)
      for (int Cc = 0; Cc < N; ++Cc) {
        float S = 0;
        for (int K = 0; K < N; ++K)
          S = std::fma(A[size_t(R) * N + K], B[size_t(K) * N + Cc], S);
        if (S != C[size_t(R) * N + Cc])
          ++Bad;
      }
    std::printf("check: %d mismatches\n", Bad);
    if (Bad)
      return 1;
  }
  if (Sampling && !sampling(*Mod, MArgs, N))
    return 1;
  return 0;
}
