// 2mm.cu - two chained matrix products, C = A*B then E = C*D, the 2MM
// kernels of PolyBench/GPU.
//
//   klaraptor-clang++ -O2 2mm.cu -o 2mm && ./2mm [N] [--no-check]
//
// A, B, C, D and E are N x N floats (default N = 100, checked against a CPU
// reference); C and E start at zero. mm2_kernel1 computes C += A*B, then
// mm2_kernel2 reads C and computes E += C*D. One thread per output element:
// col = x index, row = y index, grid ceil(N/bx) x ceil(N/by). The program
// asks for 32x8 blocks for both, as PolyBench/GPU hard-codes; each kernel
// has its own pragma, so klaraptor may choose any admissible shape for each
// (powers of two, bx, by <= N, 32..1024 threads).
//
// The memory traffic follows PolyBench/GPU on purpose: each sum is
// accumulated in global memory (no register sum, no __restrict__; int
// indices). nvcc keeps a store of the output element at every k and forwards
// it to the next step instead of reloading, as it does for the original. The
// real-timings judge compares klaraptor with measurements of the original
// programs (docs/results.md), so the kernels must do what they do.
//
// --no-check launches without the CPU reference, for large N (8192) with
// kernels not executed (KLARAPTOR_EMU_EXECUTE=0).
#include "polybench.h"

#pragma klaraptor data(N = n) block(bx, by) where(bx <= N, by <= N) grid(ceildiv(N, bx), ceildiv(N, by))
__global__ void mm2_kernel1(const float *a, const float *b, float *c, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    for (int k = 0; k < n; ++k)
      c[row * n + col] += a[row * n + k] * b[k * n + col];
  }
}

#pragma klaraptor data(N = n) block(bx, by) where(bx <= N, by <= N) grid(ceildiv(N, bx), ceildiv(N, by))
__global__ void mm2_kernel2(const float *c, const float *d, float *e, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    for (int k = 0; k < n; ++k)
      e[row * n + col] += c[row * n + k] * d[k * n + col];
  }
}

static bool run(int n, bool check) {
  const size_t nn = size_t(n) * size_t(n);
  const std::vector<float> a = filledArray(nn, 1), b = filledArray(nn, 2),
                           c(nn, 0.0f), d = filledArray(nn, 4), e(nn, 0.0f);
  DeviceArray da(a), db(b), dc(c), dd(d), de(e);

  dim3 block(32, 8); // what PolyBench/GPU hard-codes
  dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
  mm2_kernel1<<<grid, block>>>(da, db, dc, n);
  CHECK_CUDA(cudaGetLastError());
  mm2_kernel2<<<grid, block>>>(dc, dd, de, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<float> outC = dc.toHost(), outE = de.toHost();

  std::string label = "2mm N=" + std::to_string(n);
  if (!check)
    return reportUnchecked(label);
  // The kernels' operations in the kernels' order, in double.
  std::vector<double> wantC(nn), wantE(nn);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = c[size_t(i) * n + j];
      for (int k = 0; k < n; ++k)
        s += double(a[size_t(i) * n + k]) * b[size_t(k) * n + j];
      wantC[size_t(i) * n + j] = s;
    }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = e[size_t(i) * n + j];
      for (int k = 0; k < n; ++k)
        s += wantC[size_t(i) * n + k] * d[size_t(k) * n + j];
      wantE[size_t(i) * n + j] = s;
    }
  return reportOutputs(label, 1e-3, {{outC, wantC}, {outE, wantE}});
}

int main(int argc, char **argv) {
  PolybenchOptions O = parsePolybenchOptions(argc, argv);
  return run(O.N, O.Check) ? 0 : 1;
}
