// A sweep (klaraptor_emu_sweep: what `klaraptor profile` and the tuning
// runs ask of the emulated runtime) runs a launch once per block shape and
// leaves the memory as it found it: after each shape it copies back what
// that launch wrote (the pages its stores and atomics touched), also when
// the launch fails part way, and for estimate-only sweeps (a few blocks
// run). The kernel scatters stores over a 4 MiB array (at the start of
// every 16th 4 KiB page, and through a generic address on the page after),
// adds to a __device__ counter atomically, and with Fail set makes block 0
// read past the end after its stores.
// RUN: %klaraptor-clangxx --klaraptor-emulate -O2 %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// CHECK: full sweep: 3 shapes ran, 1 failed; memory unchanged
// CHECK-NEXT: estimate-only sweep: 3 shapes ran, 1 failed; memory unchanged
// CHECK-NEXT: the program's own launch: 64 stores, counter 64
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

extern "C" int klaraptor_emu_sweep(
    const void *function, void *const *args, uint64_t shared_bytes,
    const uint32_t *shapes, uint32_t count, int flags,
    void (*fn)(void *, uint32_t, const void *, const char *), void *ctx,
    char *error, uint64_t error_size);

__device__ unsigned Counter;

__global__ void scatter(float *A, int N, int Stride, int Fail) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I * Stride >= N)
    return;
  A[I * Stride] += 1.0f;
  // st without a state space: a generic address.
  asm volatile("st.f32 [%0], %1;" ::"l"(A + I * Stride + 1024), "f"(-1.0f)
               : "memory");
  atomicAdd(&Counter, 1u);
  if (Fail && blockIdx.x == 0 && threadIdx.x == 0)
    A[1] = A[N + (1 << 20)]; // out of bounds: the launch fails
}

struct Tally {
  unsigned Ran = 0, Failed = 0;
};

static void onShape(void *Ctx, uint32_t, const void *Record, const char *) {
  Tally &T = *static_cast<Tally *>(Ctx);
  ++(Record ? T.Ran : T.Failed);
}

int main() {
  const int N = 1 << 20; // floats
  int S = 16 * 1024;      // floats between stores: every 16th 4 KiB page
  std::vector<float> Host(N);
  for (int I = 0; I < N; ++I)
    Host[I] = float(I % 977);
  float *A = nullptr;
  cudaMalloc(&A, N * sizeof(float));
  cudaMemcpy(A, Host.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  unsigned Zero = 7;
  cudaMemcpyToSymbol(Counter, &Zero, sizeof(Zero));

  auto Unchanged = [&] {
    std::vector<float> Now(N);
    unsigned C = 0;
    cudaMemcpy(Now.data(), A, N * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpyFromSymbol(&C, Counter, sizeof(C));
    return std::memcmp(Now.data(), Host.data(), N * sizeof(float)) == 0 &&
           C == 7;
  };
  // 4096 threads, of which the first 64 store (elements 0, S, ..., 63 S):
  // two shapes that work, then one that fails after its stores.
  int Fail = 0, FailToo = 1, Len = N;
  void *Args[] = {&A, &Len, &S, &Fail};
  void *ArgsFail[] = {&A, &Len, &S, &FailToo};
  const uint32_t Shapes[] = {64, 1, 1, 64, 1, 1, 16, 1, 1, 256, 1, 1};
  char Error[256] = "";
  for (int Flags = 0; Flags < 2; ++Flags) {
    Tally T;
    if (klaraptor_emu_sweep(reinterpret_cast<const void *>(&scatter), Args, 0,
                            Shapes, 2, Flags, onShape, &T, Error,
                            sizeof(Error)) != 0 ||
        klaraptor_emu_sweep(reinterpret_cast<const void *>(&scatter), ArgsFail,
                            0, Shapes, 1, Flags, onShape, &T, Error,
                            sizeof(Error)) != 0)
      std::printf("sweep error: %s\n", Error);
    // The failed shape leaves the runtime's sticky error alone.
    std::printf("%s sweep: %u shapes ran, %u failed; memory %s\n",
                Flags ? "estimate-only" : "full", T.Ran + T.Failed, T.Failed,
                Unchanged() ? "unchanged" : "CHANGED");
  }
  scatter<<<64, 64>>>(A, N, S, 0);
  cudaDeviceSynchronize();
  std::vector<float> Now(N);
  unsigned C = 0;
  cudaMemcpy(Now.data(), A, N * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&C, Counter, sizeof(C));
  unsigned Stores = 0;
  for (int I = 0; I < N; I += S)
    Stores += Now[I] == Host[I] + 1.0f && Now[I + 1024] == -1.0f;
  std::printf("the program's own launch: %u stores, counter %u\n", Stores,
              C - 7);
  return 0;
}
