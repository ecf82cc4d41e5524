// bicg.cu - the two products of the BiCG method, s = A^T*r and q = A*p,
// the BICG kernels of PolyBench/GPU.
//
//   klaraptor-clang++ -O2 bicg.cu -o bicg && ./bicg [N] [--no-check]
//
// A is N x N, r, p, s and q are N floats (default N = 100, checked against
// a CPU reference). bicg_kernel1 sets s[i] = 0 and accumulates A^T*r
// (thread i walks column i of A), bicg_kernel2 sets q[i] = 0 and
// accumulates A*p (thread i walks row i of A). Both are 1-D: i = x index,
// grid ceil(N/bx). The program asks for 256 threads for both, as
// PolyBench/GPU hard-codes; each kernel has its own pragma, so klaraptor
// may choose any admissible block for each (powers of two, 32 <= bx <= N,
// at most 1024).
//
// The memory traffic follows PolyBench/GPU on purpose: the output element is
// zeroed and the sum accumulated in global memory (no register sum, no
// __restrict__; int indices). nvcc keeps a store of the output element at
// every step and forwards it to the next step instead of reloading, as it
// does for the original. The real-timings judge compares klaraptor with
// measurements of the original programs (docs/results.md), so the kernels
// must do what they do.
//
// --no-check launches without the CPU reference, for large N (8192) with
// kernels not executed (KLARAPTOR_EMU_EXECUTE=0).
#include "../common.h"

#include <cstdint>
#include <vector>

#pragma klaraptor data(N = n) block(bx) where(bx <= N) grid(ceildiv(N, bx))
__global__ void bicg_kernel1(const float *a, const float *r, float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[i] = 0.0f;
    for (int k = 0; k < n; ++k)
      s[i] += a[k * n + i] * r[k];
  }
}

#pragma klaraptor data(N = n) block(bx) where(bx <= N) grid(ceildiv(N, bx))
__global__ void bicg_kernel2(const float *a, const float *p, float *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    q[i] = 0.0f;
    for (int j = 0; j < n; ++j)
      q[i] += a[i * n + j] * p[j];
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
  const size_t vb = size_t(n) * sizeof(float);
  std::vector<float> a(nn), r(n), p(n), s(n), q(n);
  fillArray(a, 1);
  fillArray(r, 2);
  fillArray(p, 3);
  fillArray(s, 4); // overwritten by the kernels
  fillArray(q, 5);

  float *da, *dr, *dp, *ds, *dq;
  CHECK_CUDA(cudaMalloc(&da, nn * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dr, vb));
  CHECK_CUDA(cudaMalloc(&dp, vb));
  CHECK_CUDA(cudaMalloc(&ds, vb));
  CHECK_CUDA(cudaMalloc(&dq, vb));
  CHECK_CUDA(cudaMemcpy(da, a.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dr, r.data(), vb, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dp, p.data(), vb, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(ds, s.data(), vb, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dq, q.data(), vb, cudaMemcpyHostToDevice));

  const int threads = 256; // what PolyBench/GPU hard-codes
  const int blocks = (n + threads - 1) / threads;
  bicg_kernel1<<<blocks, threads>>>(da, dr, ds, n);
  CHECK_CUDA(cudaGetLastError());
  bicg_kernel2<<<blocks, threads>>>(da, dp, dq, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> outS(n), outQ(n);
  CHECK_CUDA(cudaMemcpy(outS.data(), ds, vb, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(outQ.data(), dq, vb, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(dr));
  CHECK_CUDA(cudaFree(dp));
  CHECK_CUDA(cudaFree(ds));
  CHECK_CUDA(cudaFree(dq));

  std::string label = "bicg N=" + std::to_string(n);
  if (!check) {
    std::printf("%s: launched (result not checked)\n", label.c_str());
    return true;
  }
  // The kernels' operations in the kernels' order, in double.
  std::vector<double> wantS(n), wantQ(n);
  for (int i = 0; i < n; ++i) {
    double s1 = 0, s2 = 0;
    for (int k = 0; k < n; ++k) {
      s1 += double(a[size_t(k) * n + i]) * r[k];
      s2 += double(a[size_t(i) * n + k]) * p[k];
    }
    wantS[i] = s1;
    wantQ[i] = s2;
  }
  size_t bad = countMismatches(std::vector<double>(outS.begin(), outS.end()), wantS, 1e-3) +
               countMismatches(std::vector<double>(outQ.begin(), outQ.end()), wantQ, 1e-3);
  return reportCheck(label, bad, 2 * size_t(n));
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
