// gemm.cu - C = alpha*A*B + beta*C with 2-D blocks (PolyBench's gemm).
//
//   klaraptor-clang++ -O2 gemm.cu -o gemm && ./gemm [NI NJ NK ...]
//
// A is NI x NK, B is NK x NJ, C is NI x NJ (default 100 x 120 x 80, then
// 512 x 512 x 512). Each thread computes one element of C; the program asks
// for 32x8 blocks and klaraptor may choose any admissible shape. The result
// is checked against a CPU reference.
#include "../common.h"

#include <cmath>
#include <vector>

#pragma klaraptor data(NI = ni, NJ = nj, NK = nk) block(bx, by) \
    grid(ceildiv(NJ, bx), ceildiv(NI, by))
__global__ void gemm(float *c, const float *a, const float *b, float alpha,
                     float beta, int ni, int nj, int nk) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= ni || j >= nj)
    return;
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k)
    sum += a[(size_t)i * nk + k] * b[(size_t)k * nj + j];
  c[(size_t)i * nj + j] = alpha * sum + beta * c[(size_t)i * nj + j];
}

static bool runOnce(int ni, int nj, int nk, bool check) {
  std::vector<float> a((size_t)ni * nk), b((size_t)nk * nj), c((size_t)ni * nj);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = float(i % 17) * 0.125f - 1.0f;
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = float(i % 11) * 0.25f - 1.25f;
  for (size_t i = 0; i < c.size(); ++i)
    c[i] = float(i % 7) - 3.0f;
  const float alpha = 1.5f, beta = 1.2f;

  float *da, *db, *dc;
  CHECK_CUDA(cudaMalloc(&da, a.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, b.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dc, c.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dc, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(32, 8); // what a programmer would hard-code
  dim3 grid((nj + block.x - 1) / block.x, (ni + block.y - 1) / block.y);
  gemm<<<grid, block>>>(dc, da, db, alpha, beta, ni, nj, nk);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> out(c.size());
  CHECK_CUDA(cudaMemcpy(out.data(), dc, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
  if (!check) {
    std::printf("gemm %dx%dx%d: launched (result not checked)\n", ni, nj, nk);
    return true;
  }
  size_t bad = 0;
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) {
      double sum = 0;
      for (int k = 0; k < nk; ++k)
        sum += (double)a[(size_t)i * nk + k] * b[(size_t)k * nj + j];
      double want = alpha * sum + beta * c[(size_t)i * nj + j];
      if (std::fabs(out[(size_t)i * nj + j] - want) > 1e-3 * std::fmax(1.0, std::fabs(want)))
        ++bad;
    }
  std::printf("gemm %dx%dx%d: %s\n", ni, nj, nk, bad ? "FAILED" : "ok");
  if (bad)
    std::fprintf(stderr, "gemm %dx%dx%d: %zu of %zu elements differ from the CPU reference\n",
                 ni, nj, nk, bad, out.size());
  return bad == 0;
}

int main(int argc, char **argv) {
  ExampleOptions O = parseExampleOptions(argc, argv, "[NI NJ NK]");
  if (O.NumSizes != 0 && O.NumSizes != 3) {
    std::fprintf(stderr, "usage: %s [NI NJ NK] [--no-check]\n", argv[0]);
    return 1;
  }
  if (O.NumSizes == 3)
    return runOnce(int(O.Sizes[0]), int(O.Sizes[1]), int(O.Sizes[2]), !O.NoCheck) ? 0 : 1;
  bool ok = runOnce(100, 120, 80, !O.NoCheck);
  ok &= runOnce(512, 512, 512, !O.NoCheck);
  return ok ? 0 : 1;
}
