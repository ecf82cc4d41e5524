// Block-shape timings for the GPU validation of the timing engine
// (test/Timing/gpu-validation.test, docs/timing.md "Validation with a GPU").
// With --measure (a real GPU) each launch shape runs 3 warm-up launches,
// then 21 timed ones (cudaEvent pairs), and prints the median; without it
// every shape is launched once (for --klaraptor-emulate, whose report file
// carries the estimates). Output lines:
//   kernel=copy n=1048576 grid=4096 block=256 ns=12345.6
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

extern "C" __global__ void copy(const float *In, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[I];
}

extern "C" __global__ void fma_chain(float *Out, float A, int Iters, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float X = threadIdx.x;
#pragma unroll 1
  for (int K = 0; K < Iters; ++K) {
#pragma unroll
    for (int J = 0; J < 8; ++J)
      X = X * A + 1.0f;
  }
  if (I < N)
    Out[I] = X;
}

static int check(cudaError_t E, const char *What) {
  if (E != cudaSuccess) {
    std::fprintf(stderr, "gpu-timing: %s: %s\n", What, cudaGetErrorString(E));
    return 1;
  }
  return 0;
}

int main(int Argc, char **Argv) {
  bool Measure = Argc > 1 && std::strcmp(Argv[1], "--measure") == 0;
  const int Warm = Measure ? 3 : 0, Reps = Measure ? 21 : 1;
  const int MaxN = 1 << 22;
  float *In = nullptr, *Out = nullptr;
  if (check(cudaMalloc(&In, MaxN * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&Out, MaxN * sizeof(float)), "cudaMalloc") ||
      check(cudaMemset(In, 0, MaxN * sizeof(float)), "cudaMemset"))
    return 1;
  cudaEvent_t Start = nullptr, Stop = nullptr;
  if (Measure && (check(cudaEventCreate(&Start), "cudaEventCreate") ||
                  check(cudaEventCreate(&Stop), "cudaEventCreate")))
    return 1;
  struct Case {
    const char *Kernel;
    int N;
  };
  const Case Cases[] = {{"copy", 1 << 20}, {"copy", 1 << 22},
                        {"fma_chain", 1 << 16}};
  const int Blocks[] = {32, 64, 128, 256, 512, 1024};
  for (const Case &C : Cases)
    for (int B : Blocks) {
      int N = C.N, Iters = 16;
      float A = 0.5f;
      unsigned Grid = unsigned((N + B - 1) / B);
      auto launch = [&] {
        if (C.Kernel[0] == 'c')
          copy<<<Grid, B>>>(In, Out, N);
        else
          fma_chain<<<Grid, B>>>(Out, A, Iters, N);
      };
      std::vector<float> Ms;
      for (int R = 0; R < Warm + Reps; ++R) {
        if (Measure && R >= Warm)
          cudaEventRecord(Start);
        launch();
        if (Measure && R >= Warm) {
          cudaEventRecord(Stop);
          cudaEventSynchronize(Stop);
          float T = 0;
          cudaEventElapsedTime(&T, Start, Stop);
          Ms.push_back(T);
        }
      }
      if (check(cudaDeviceSynchronize(), C.Kernel))
        return 1;
      double Ns = 0;
      if (!Ms.empty()) {
        std::sort(Ms.begin(), Ms.end());
        Ns = 1e6 * Ms[Ms.size() / 2];
      }
      std::printf("kernel=%s n=%d grid=%u block=%d ns=%.1f\n", C.Kernel, N,
                  Grid, B, Ns);
    }
  cudaFree(In);
  cudaFree(Out);
  return 0;
}
