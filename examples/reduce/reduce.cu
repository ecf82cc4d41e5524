// reduce.cu - a sum whose blocks reduce in dynamic shared memory, sized by
// the block: klaraptor chooses the block size and gives each its memory.
//
//   klaraptor-clang++ -O2 reduce.cu -o reduce && ./reduce [N ...]
//
// Sums N floats once for each size given (default 1000 and 1000000): each
// block adds its blockDim.x elements in shared memory (blockDim.x floats,
// requested at launch), then one atomicAdd per block. The program asks for
// 128 threads and 128 * 4 bytes; the pragma's shared(4 * bx) tells klaraptor
// how much another block size needs (docs/pragmas.md, "shared").
#include "../common.h"

#include <vector>

#ifdef REDUCE_WITHOUT_SHARED_CLAUSE
// For the tests: a pragma that does not say how the shared memory grows.
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
#else
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx)) shared(4 * bx)
#endif
__global__ void block_sum(float *sum, const float *x, int n) {
  extern __shared__ float partial[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  // blockDim.x is a power of two (the pragma's default candidates).
  for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      partial[threadIdx.x] += partial[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(sum, partial[0]);
}

static bool runOnce(int n, bool check) {
  // Small integers: every partial sum is exact in float, whatever the order.
  std::vector<float> x(n);
  double want = 0;
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 7);
    want += x[i];
  }
  float *dx = nullptr, *dsum = nullptr;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dsum, sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dsum, 0, sizeof(float)));

  const int threads = 128; // what a programmer would hard-code
  block_sum<<<(n + threads - 1) / threads, threads, threads * sizeof(float)>>>(
      dsum, dx, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  float got = 0;
  CHECK_CUDA(cudaMemcpy(&got, dsum, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(dx));
  CHECK_CUDA(cudaFree(dsum));
  if (!check) {
    std::printf("reduce N=%d: launched (result not checked)\n", n);
    return true;
  }
  // float holds integers up to 2^24 exactly; larger sums are compared
  // relatively.
  bool ok = std::fabs(double(got) - want) <= 1e-6 * want;
  std::printf("reduce N=%d: %s\n", n, ok ? "ok" : "FAILED");
  if (!ok)
    std::fprintf(stderr, "reduce N=%d: sum %.1f, expected %.1f\n", n,
                 double(got), want);
  return ok;
}

int main(int argc, char **argv) {
  ExampleOptions O = parseExampleOptions(argc, argv, "[N ...]");
  if (O.NumSizes == 0) {
    O.Sizes[0] = 1000;
    O.Sizes[1] = 1000000;
    O.NumSizes = 2;
  }
  bool ok = true;
  for (int i = 0; i < O.NumSizes; ++i)
    ok &= runOnce(int(O.Sizes[i]), !O.NoCheck);
  return ok ? 0 : 1;
}
