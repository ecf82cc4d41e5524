// Kernels for the emulator's whole-program tests (test/Unit/Emu). The build
// compiles this file to PTX with `nvcc -arch=sm_90 -ptx`; test/Emu runs the
// same tests on PTX for sm_75 and sm_80. Each kernel has a CPU reference in
// ProgramTests.cpp.
#include <cassert>
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>

// Block reduction in shared memory with barriers, any block size.
extern "C" __global__ void block_reduce(const int *In, int *Out, int N) {
  extern __shared__ int Buf[];
  unsigned T = threadIdx.x;
  unsigned I = blockIdx.x * blockDim.x + T;
  Buf[T] = I < N ? In[I] : 0;
  __syncthreads();
  for (unsigned S = 1; S < blockDim.x; S *= 2) {
    if (T % (2 * S) == 0 && T + S < blockDim.x)
      Buf[T] += Buf[T + S];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Buf[0];
}

// Warp-shuffle reduction: per-warp sums, then one atomic per warp.
extern "C" __global__ void warp_reduce(const int *In, int *WarpSums, int *Total,
                                       int N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  int V = I < N ? In[I] : 0;
  for (int Off = 16; Off > 0; Off /= 2)
    V += __shfl_down_sync(0xffffffffu, V, Off);
  unsigned Warp = I / 32;
  if ((threadIdx.x & 31) == 0) {
    WarpSums[Warp] = V;
    atomicAdd(Total, V);
  }
}

// Butterfly reduction inside groups of Width lanes, and shfl up/idx.
extern "C" __global__ void shuffles(const int *In, int *Xor8, int *Up3,
                                    int *Idx5, int *Up3W8) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  int V = In[I];
  int X = V;
  for (int M = 1; M < 8; M *= 2)
    X += __shfl_xor_sync(0xffffffffu, X, M, 8);
  Xor8[I] = X;
  Up3[I] = __shfl_up_sync(0xffffffffu, V, 3);
  Idx5[I] = __shfl_sync(0xffffffffu, V, 5);
  Up3W8[I] = __shfl_up_sync(0xffffffffu, V, 3, 8);
}

// Histogram with shared-memory atomics, then global atomics.
extern "C" __global__ void histogram(const unsigned *In, unsigned *Bins, int N,
                                     int NBins) {
  extern __shared__ unsigned Local[];
  for (int B = threadIdx.x; B < NBins; B += blockDim.x)
    Local[B] = 0;
  __syncthreads();
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += blockDim.x * gridDim.x)
    atomicAdd(&Local[In[I] % NBins], 1u);
  __syncthreads();
  for (int B = threadIdx.x; B < NBins; B += blockDim.x)
    atomicAdd(&Bins[B], Local[B]);
}

// Divergent loops: per-lane trip counts, early exit, break and continue.
extern "C" __global__ void collatz(const int *In, int *Steps, int *Odd, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  unsigned X = In[I];
  int S = 0, O = 0;
  while (X != 1) {
    if (S > 1000)
      break;
    ++S;
    if (X & 1) {
      X = 3 * X + 1;
      ++O;
      continue;
    }
    X /= 2;
  }
  Steps[I] = S;
  Odd[I] = O;
}

// 3-D blocks and grids: every thread records where it is.
extern "C" __global__ void where3d(unsigned *Out) {
  unsigned BlockLinear =
      blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned ThreadLinear =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned G = BlockLinear * (blockDim.x * blockDim.y * blockDim.z) + ThreadLinear;
  unsigned Lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(Lane));
  Out[4 * G + 0] = threadIdx.x | threadIdx.y << 10 | threadIdx.z << 20;
  Out[4 * G + 1] = blockIdx.x | blockIdx.y << 10 | blockIdx.z << 20;
  Out[4 * G + 2] = blockDim.x | blockDim.y << 10 | blockDim.z << 20;
  Out[4 * G + 3] = Lane | (ThreadLinear / 32) << 8;
}

// A 2-D five-point stencil with boundary handling.
extern "C" __global__ void stencil2d(const float *In, float *Out, int W, int H) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= W || Y >= H)
    return;
  float C = In[Y * W + X];
  if (X == 0 || Y == 0 || X == W - 1 || Y == H - 1) {
    Out[Y * W + X] = C;
    return;
  }
  Out[Y * W + X] = 0.5f * C + 0.125f * (In[Y * W + X - 1] + In[Y * W + X + 1] +
                                        In[(Y - 1) * W + X] + In[(Y + 1) * W + X]);
}

// Double-precision matrix product with 16x16 shared-memory tiles.
extern "C" __global__ void dgemm_tiled(const double *A, const double *B,
                                       double *C, int N) {
  __shared__ double TA[16][16], TB[16][16];
  int Row = blockIdx.y * 16 + threadIdx.y, Col = blockIdx.x * 16 + threadIdx.x;
  double Sum = 0;
  for (int T = 0; T < (N + 15) / 16; ++T) {
    int AC = T * 16 + threadIdx.x, BR = T * 16 + threadIdx.y;
    TA[threadIdx.y][threadIdx.x] = Row < N && AC < N ? A[Row * N + AC] : 0.0;
    TB[threadIdx.y][threadIdx.x] = BR < N && Col < N ? B[BR * N + Col] : 0.0;
    __syncthreads();
    for (int K = 0; K < 16; ++K)
      Sum += TA[threadIdx.y][K] * TB[K][threadIdx.x];
    __syncthreads();
  }
  if (Row < N && Col < N)
    C[Row * N + Col] = Sum;
}

// Naive double-precision matrix product (any block shape).
extern "C" __global__ void dgemm_naive(const double *A, const double *B,
                                       double *C, int N) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= N || Col >= N)
    return;
  double Sum = 0;
  for (int K = 0; K < N; ++K)
    Sum += A[Row * N + K] * B[K * N + Col];
  C[Row * N + Col] = Sum;
}

// Device-function calls: structures by value, results, recursion.
struct Pair {
  double D;
  int Y;
};
__device__ __noinline__ Pair scalePair(Pair P, int K) {
  Pair R;
  R.D = P.D * K;
  R.Y = P.Y + K;
  return R;
}
__device__ __noinline__ int fib(int N) { return N < 2 ? N : fib(N - 1) + fib(N - 2); }
__device__ __noinline__ void addTo(int *P, int V) { *P += V; }
extern "C" __global__ void calls(int *OutI, double *OutD) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  Pair P{1.5, T};
  P = scalePair(P, T % 5);
  int F = 0;
  if (T % 3 != 0) // divergent call
    F = fib(T % 13);
  addTo(&F, 1000);
  OutI[T] = F + P.Y;
  OutD[T] = P.D;
}

// Thread-local arrays with dynamic indexing.
extern "C" __global__ void local_array(int *Out, int K) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  int A[24];
  for (int I = 0; I < 24; ++I)
    A[I] = I * T + K;
  int S = 0;
  for (int I = 0; I < 24; ++I)
    S += A[(I * 7 + T) % 24] * (I + 1);
  Out[T] = S + A[(T + K) % 24];
}

// Dynamic shared memory: reverse each block's chunk.
extern "C" __global__ void reverse_block(const float *In, float *Out) {
  extern __shared__ float S[];
  unsigned T = threadIdx.x, Base = blockIdx.x * blockDim.x;
  S[T] = In[Base + T];
  __syncthreads();
  Out[Base + T] = S[blockDim.x - 1 - T];
}

// bar.red: __syncthreads_count/and/or; warp vote, match and redux.
extern "C" __global__ void votes(const int *In, int *Out) {
  unsigned T = threadIdx.x, I = blockIdx.x * blockDim.x + T;
  int V = In[I];
  int Count = __syncthreads_count(V > 0);
  int All = __syncthreads_and(V > -100);
  int Any = __syncthreads_or(V == 7);
  unsigned Ballot = __ballot_sync(0xffffffffu, V & 1);
  int WAll = __all_sync(0xffffffffu, V >= 0);
  int WAny = __any_sync(0xffffffffu, V == 3);
  unsigned Match = __match_any_sync(0xffffffffu, V % 4);
#if __CUDA_ARCH__ >= 800
  int Mn = __reduce_min_sync(0xffffffffu, V);
  unsigned Sum = __reduce_add_sync(0xffffffffu, (unsigned)V);
#else
  int Mn = V;
  unsigned Sum = V;
  for (int M = 1; M < 32; M *= 2) {
    Mn = min(Mn, __shfl_xor_sync(0xffffffffu, Mn, M));
    Sum += __shfl_xor_sync(0xffffffffu, Sum, M);
  }
#endif
  unsigned Active = 0;
  if (V % 3 == 0)
    Active = __activemask();
  Out[8 * I + 0] = Count;
  Out[8 * I + 1] = All | Any << 1 | WAll << 2 | WAny << 3;
  Out[8 * I + 2] = Ballot;
  Out[8 * I + 3] = Match;
  Out[8 * I + 4] = Mn;
  Out[8 * I + 5] = Sum;
  Out[8 * I + 6] = Active;
  Out[8 * I + 7] = __popc(Ballot) + __clz(Ballot) + __ffs(V) + __brev(V);
}

// Atomics on global and shared memory.
extern "C" __global__ void atomics(int *G, unsigned *U, double *D,
                                   unsigned long long *L) {
  __shared__ int S[4];
  unsigned T = threadIdx.x;
  if (T < 4)
    S[T] = 0;
  __syncthreads();
  atomicAdd(&S[0], 1);
  atomicMax(&S[1], (int)T - 20);
  atomicMin(&S[2], -(int)T);
  atomicXor(&S[3], 1 << (T % 31));
  __syncthreads();
  if (T < 4)
    atomicAdd(&G[T], S[T]);
  atomicInc(&U[0], 9);
  atomicDec(&U[1], 5);
  atomicOr(&U[2], 1u << (T % 32));
  atomicAnd(&U[3], ~(1u << (T % 32)));
  atomicCAS((int *)&U[4], (int)T, (int)T + 1);
  atomicExch(&U[5], T);
  atomicAdd(&D[0], 0.5);
  atomicAdd(&L[0], 3ull);
  atomicMax(&L[1], (unsigned long long)T * 1000000007ull);
}

// printf from the device.
extern "C" __global__ void hello(int K) {
  if (threadIdx.x % 16 == 0)
    printf("hello from thread %d of block %d: k=%d x=%.2f s=%s\n", threadIdx.x,
           blockIdx.x, K, K * 0.5, "ok");
}

// Single-precision math library functions (full-precision versions).
extern "C" __global__ void mathfns(const float *X, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float V = X[I];
  Out[8 * I + 0] = sinf(V);
  Out[8 * I + 1] = expf(V * 0.1f);
  Out[8 * I + 2] = logf(fabsf(V) + 1.0f);
  Out[8 * I + 3] = sqrtf(fabsf(V));
  Out[8 * I + 4] = V / 3.0f;
  Out[8 * I + 5] = powf(fabsf(V) + 0.5f, 1.5f);
  Out[8 * I + 6] = __expf(V * 0.1f);
  Out[8 * I + 7] = tanhf(V * 0.25f);
}

// Double-precision math.
extern "C" __global__ void mathfns64(const double *X, double *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  double V = X[I];
  Out[4 * I + 0] = sin(V);
  Out[4 * I + 1] = exp(V * 0.1);
  Out[4 * I + 2] = sqrt(fabs(V));
  Out[4 * I + 3] = V / 3.0;
}

// Half precision.
extern "C" __global__ void halves(const float *X, unsigned short *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  __half A = __float2half(X[I]), B = __float2half(0.75f);
  __half R = __hfma(A, B, __hadd(A, B));
  __half2 P = __halves2half2(A, B);
  P = __hmul2(P, P);
  Out[3 * I + 0] = __half_as_ushort(R);
  Out[3 * I + 1] = __half_as_ushort(__low2half(P));
  Out[3 * I + 2] = __half_as_ushort(__float2half_rz(X[I] * 3.0f));
}

// Device heap.
extern "C" __global__ void heap(int *Out) {
  int *P = (int *)malloc(4 * sizeof(int));
  for (int I = 0; I < 4; ++I)
    P[I] = threadIdx.x * (I + 1);
  Out[threadIdx.x] = P[0] + P[1] + P[2] + P[3];
  free(P);
}

// A failing assertion.
extern "C" __global__ void asserts(int K) { assert(threadIdx.x != K); }

// Asynchronous copies from global to shared memory (cp.async on sm_80+).
extern "C" __global__ void async_copy(const float4 *In, float4 *Out) {
  __shared__ float4 Buf[128];
  unsigned T = threadIdx.x;
#if __CUDA_ARCH__ >= 800
  __pipeline_memcpy_async(&Buf[T], &In[blockIdx.x * blockDim.x + T], sizeof(float4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
#else
  Buf[T] = In[blockIdx.x * blockDim.x + T];
#endif
  __syncthreads();
  float4 V = Buf[blockDim.x - 1 - T];
  Out[blockIdx.x * blockDim.x + T] = make_float4(V.w, V.z, V.y, V.x);
}
