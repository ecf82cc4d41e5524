// bicg.cu - the BiCG sub-kernel, s = A^T*r and q = A*p (PolyBench's bicg).
//
//   klaraptor-clang++ -O2 bicg.cu -o bicg && ./bicg [N M]
//
// A is N x M (default 400 x 300, then 2048 x 1536). bicg_s gives one thread
// per column of A, bicg_q one per row; both are 1-D kernels (block(bx),
// candidates(warp), at most 512 threads). The program asks for 128 threads.
// Checked against a CPU reference.
#include "../common.h"

#include <cmath>
#include <vector>

#pragma klaraptor data(N = n, M = m) block(bx) candidates(warp) \
    where(bx <= 512, bx < M + 32) grid(ceildiv(M, bx))
__global__ void bicg_s(float *s, const float *a, const float *r, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m)
    return;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i)
    sum += r[i] * a[(size_t)i * m + j];
  s[j] = sum;
}

#pragma klaraptor data(N = n, M = m) block(bx) candidates(warp) \
    where(bx <= 512, bx < N + 32) grid(ceildiv(N, bx))
__global__ void bicg_q(float *q, const float *a, const float *p, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float sum = 0.0f;
  for (int j = 0; j < m; ++j)
    sum += a[(size_t)i * m + j] * p[j];
  q[i] = sum;
}

static bool runOnce(int n, int m, bool check) {
  std::vector<float> a((size_t)n * m), r(n), p(m);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = float(i % 29) * 0.0625f - 0.875f;
  for (int i = 0; i < n; ++i)
    r[i] = float(i % 7) * 0.5f - 1.5f;
  for (int j = 0; j < m; ++j)
    p[j] = float(j % 11) * 0.25f - 1.25f;

  float *da, *dr, *dp, *ds, *dq;
  CHECK_CUDA(cudaMalloc(&da, a.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dr, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dp, m * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&ds, m * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dq, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dr, r.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dp, p.data(), m * sizeof(float), cudaMemcpyHostToDevice));

  const int threads = 128; // what a programmer would hard-code
  bicg_s<<<(m + threads - 1) / threads, threads>>>(ds, da, dr, n, m);
  CHECK_CUDA(cudaGetLastError());
  bicg_q<<<(n + threads - 1) / threads, threads>>>(dq, da, dp, n, m);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> s(m), q(n);
  CHECK_CUDA(cudaMemcpy(s.data(), ds, m * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(q.data(), dq, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(dr));
  CHECK_CUDA(cudaFree(dp));
  CHECK_CUDA(cudaFree(ds));
  CHECK_CUDA(cudaFree(dq));
  if (!check) {
    std::printf("bicg %dx%d: launched (result not checked)\n", n, m);
    return true;
  }
  int bad = 0;
  for (int j = 0; j < m; ++j) {
    double want = 0;
    for (int i = 0; i < n; ++i)
      want += (double)r[i] * a[(size_t)i * m + j];
    if (std::fabs(s[j] - want) > 1e-3 * std::fmax(1.0, std::fabs(want)))
      ++bad;
  }
  for (int i = 0; i < n; ++i) {
    double want = 0;
    for (int j = 0; j < m; ++j)
      want += (double)a[(size_t)i * m + j] * p[j];
    if (std::fabs(q[i] - want) > 1e-3 * std::fmax(1.0, std::fabs(want)))
      ++bad;
  }
  std::printf("bicg %dx%d: %s\n", n, m, bad ? "FAILED" : "ok");
  if (bad)
    std::fprintf(stderr, "bicg %dx%d: %d of %d elements differ from the CPU reference\n",
                 n, m, bad, n + m);
  return bad == 0;
}

int main(int argc, char **argv) {
  ExampleOptions O = parseExampleOptions(argc, argv, "[N M]");
  if (O.NumSizes != 0 && O.NumSizes != 2) {
    std::fprintf(stderr, "usage: %s [N M] [--no-check]\n", argv[0]);
    return 1;
  }
  if (O.NumSizes == 2)
    return runOnce(int(O.Sizes[0]), int(O.Sizes[1]), !O.NoCheck) ? 0 : 1;
  bool ok = runOnce(400, 300, !O.NoCheck);
  ok &= runOnce(2048, 1536, !O.NoCheck);
  return ok ? 0 : 1;
}
