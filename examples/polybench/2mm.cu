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
#include "../common.h"

#include <cstdint>
#include <vector>

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

/// Deterministic inputs in [-0.5, 0.5) with no short period, so that sums
/// stay small and a transposed or shifted index changes the result.
static void fillArray(std::vector<float> &v, uint32_t seed) {
  for (size_t i = 0; i < v.size(); ++i) {
    uint32_t h = uint32_t(i) * 2654435761u + seed * 40503u;
    v[i] = (float(h >> 26) - 31.5f) / 64.0f;
  }
}

static bool run(int n, bool check) {
  const size_t nn = size_t(n) * size_t(n);
  const size_t bytes = nn * sizeof(float);
  std::vector<float> a(nn), b(nn), c(nn, 0.0f), d(nn), e(nn, 0.0f);
  fillArray(a, 1);
  fillArray(b, 2);
  fillArray(d, 4);

  float *da, *db, *dc, *dd, *de;
  CHECK_CUDA(cudaMalloc(&da, bytes));
  CHECK_CUDA(cudaMalloc(&db, bytes));
  CHECK_CUDA(cudaMalloc(&dc, bytes));
  CHECK_CUDA(cudaMalloc(&dd, bytes));
  CHECK_CUDA(cudaMalloc(&de, bytes));
  CHECK_CUDA(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dc, c.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dd, d.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(de, e.data(), bytes, cudaMemcpyHostToDevice));

  dim3 block(32, 8); // what PolyBench/GPU hard-codes
  dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
  mm2_kernel1<<<grid, block>>>(da, db, dc, n);
  CHECK_CUDA(cudaGetLastError());
  mm2_kernel2<<<grid, block>>>(dc, dd, de, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> outC(nn), outE(nn);
  CHECK_CUDA(cudaMemcpy(outC.data(), dc, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(outE.data(), de, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
  CHECK_CUDA(cudaFree(dd));
  CHECK_CUDA(cudaFree(de));

  std::string label = "2mm N=" + std::to_string(n);
  if (!check) {
    std::printf("%s: launched (result not checked)\n", label.c_str());
    return true;
  }
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
  size_t bad = countMismatches(std::vector<double>(outC.begin(), outC.end()), wantC, 1e-3) +
               countMismatches(std::vector<double>(outE.begin(), outE.end()), wantE, 1e-3);
  return reportCheck(label, bad, 2 * nn);
}

int main(int argc, char **argv) {
  ExampleOptions O = parseExampleOptions(argc, argv, "[N]");
  // int indices, as in PolyBench/GPU: N*N must fit in an int.
  if (O.NumSizes > 1 || (O.NumSizes == 1 && O.Sizes[0] > 46000)) {
    std::fprintf(stderr, "usage: %s [N] [--no-check]  (N <= 46000)\n", argv[0]);
    return 1;
  }
  int n = O.NumSizes ? int(O.Sizes[0]) : 100;
  return run(n, !O.NoCheck) ? 0 : 1;
}
