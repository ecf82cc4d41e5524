// syrk.cu - symmetric rank-k update C = alpha*A*A^T + beta*C, the SYRK
// kernel of PolyBench/GPU.
//
//   klaraptor-clang++ -O2 syrk.cu -o syrk && ./syrk [N] [--no-check]
//
// A and C are N x N floats (default N = 100, checked against a CPU
// reference). One thread per element of C (the whole matrix, as in
// PolyBench/GPU): col = x index, row = y index, grid ceil(N/bx) x ceil(N/by).
// The program asks for 32x8 blocks, as PolyBench/GPU hard-codes; klaraptor
// may choose any admissible shape (powers of two, bx, by <= N, 32..1024
// threads).
//
// The memory traffic follows PolyBench/GPU on purpose: C[row][col] is scaled
// by beta in memory, then the sum is accumulated in global memory (no
// register sum, no __restrict__; int indices). nvcc keeps a store of C at
// every k and forwards it to the next step instead of reloading, as it does
// for the original. The real-timings judge compares klaraptor with
// measurements of the original programs (docs/results.md), so the kernel
// must do what they do.
//
// --no-check launches without the CPU reference, for large N (8192) with
// kernels not executed (KLARAPTOR_EMU_EXECUTE=0).
#include "polybench.h"

#pragma klaraptor data(N = n) block(bx, by) where(bx <= N, by <= N) grid(ceildiv(N, bx), ceildiv(N, by))
__global__ void syrk_kernel(const float *a, float *c, float alpha, float beta,
                            int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    c[row * n + col] *= beta;
    for (int k = 0; k < n; ++k)
      c[row * n + col] += alpha * a[row * n + k] * a[col * n + k];
  }
}

static bool run(int n, bool check) {
  const size_t nn = size_t(n) * size_t(n);
  const std::vector<float> a = filledArray(nn, 1), c = filledArray(nn, 3);
  const float alpha = 1.5f, beta = 1.2f;
  DeviceArray da(a), dc(c);

  dim3 block(32, 8); // what PolyBench/GPU hard-codes
  dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
  syrk_kernel<<<grid, block>>>(da, dc, alpha, beta, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<float> out = dc.toHost();

  std::string label = "syrk N=" + std::to_string(n);
  if (!check)
    return reportUnchecked(label);
  // The kernel's operations in the kernel's order, in double.
  std::vector<double> want(nn);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = double(c[size_t(i) * n + j]) * beta;
      for (int k = 0; k < n; ++k)
        s += double(alpha) * a[size_t(i) * n + k] * a[size_t(j) * n + k];
      want[size_t(i) * n + j] = s;
    }
  return reportOutputs(label, 1e-3, {{out, want}});
}

int main(int argc, char **argv) {
  PolybenchOptions O = parsePolybenchOptions(argc, argv);
  return run(O.N, O.Check) ? 0 : 1;
}
