// 2mm.cu - two chained matrix products, D = alpha*A*B*C + beta*D (PolyBench's 2mm).
//
//   klaraptor-clang++ -O2 2mm.cu -o 2mm && ./2mm [NI NJ NK NL]
//
// A is NI x NK, B is NK x NJ, C is NJ x NL, D is NI x NL (default
// 80 x 90 x 70 x 100, then 256 x 256 x 256 x 256). Kernel mm2_tmp computes
// tmp = alpha*A*B, kernel mm2_out computes D = tmp*C + beta*D; each has its
// own pragma, so klaraptor chooses their block shapes separately. The
// program asks for 16x16 blocks. Checked against a CPU reference.
#include "../common.h"

#include <cmath>
#include <vector>

#pragma klaraptor data(NI = ni, NJ = nj, NK = nk) block(bx, by) \
    grid(ceildiv(NJ, bx), ceildiv(NI, by))
__global__ void mm2_tmp(float *tmp, const float *a, const float *b, float alpha,
                        int ni, int nj, int nk) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= ni || j >= nj)
    return;
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k)
    sum += a[(size_t)i * nk + k] * b[(size_t)k * nj + j];
  tmp[(size_t)i * nj + j] = alpha * sum;
}

#pragma klaraptor data(NI = ni, NL = nl, NJ = nj) block(bx, by) \
    grid(ceildiv(NL, bx), ceildiv(NI, by))
__global__ void mm2_out(float *d, const float *tmp, const float *c, float beta,
                        int ni, int nl, int nj) {
  int l = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= ni || l >= nl)
    return;
  float sum = 0.0f;
  for (int j = 0; j < nj; ++j)
    sum += tmp[(size_t)i * nj + j] * c[(size_t)j * nl + l];
  d[(size_t)i * nl + l] = sum + beta * d[(size_t)i * nl + l];
}

static void fill(std::vector<float> &v, int mod, float step, float off) {
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = float(i % mod) * step + off;
}

static bool runOnce(int ni, int nj, int nk, int nl, bool check) {
  std::vector<float> a((size_t)ni * nk), b((size_t)nk * nj), c((size_t)nj * nl),
      d((size_t)ni * nl);
  fill(a, 13, 0.125f, -0.75f);
  fill(b, 7, 0.25f, -0.75f);
  fill(c, 11, 0.125f, -0.5f);
  fill(d, 5, 1.0f, -2.0f);
  const float alpha = 1.5f, beta = 1.2f;

  float *da, *db, *dc, *dd, *dtmp;
  CHECK_CUDA(cudaMalloc(&da, a.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, b.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dc, c.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dd, d.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dtmp, (size_t)ni * nj * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dc, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dd, d.data(), d.size() * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(16, 16); // what a programmer would hard-code
  dim3 grid1((nj + 15) / 16, (ni + 15) / 16);
  mm2_tmp<<<grid1, block>>>(dtmp, da, db, alpha, ni, nj, nk);
  CHECK_CUDA(cudaGetLastError());
  dim3 grid2((nl + 15) / 16, (ni + 15) / 16);
  mm2_out<<<grid2, block>>>(dd, dtmp, dc, beta, ni, nl, nj);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> out(d.size());
  CHECK_CUDA(cudaMemcpy(out.data(), dd, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
  CHECK_CUDA(cudaFree(dd));
  CHECK_CUDA(cudaFree(dtmp));
  if (!check) {
    std::printf("2mm %dx%dx%dx%d: launched (result not checked)\n", ni, nj, nk, nl);
    return true;
  }
  std::vector<double> tmp((size_t)ni * nj);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) {
      double s = 0;
      for (int k = 0; k < nk; ++k)
        s += (double)a[(size_t)i * nk + k] * b[(size_t)k * nj + j];
      tmp[(size_t)i * nj + j] = alpha * s;
    }
  size_t bad = 0;
  for (int i = 0; i < ni; ++i)
    for (int l = 0; l < nl; ++l) {
      double s = 0;
      for (int j = 0; j < nj; ++j)
        s += tmp[(size_t)i * nj + j] * c[(size_t)j * nl + l];
      double want = s + beta * d[(size_t)i * nl + l];
      if (std::fabs(out[(size_t)i * nl + l] - want) > 1e-3 * std::fmax(1.0, std::fabs(want)))
        ++bad;
    }
  std::printf("2mm %dx%dx%dx%d: %s\n", ni, nj, nk, nl, bad ? "FAILED" : "ok");
  if (bad)
    std::fprintf(stderr, "2mm %dx%dx%dx%d: %zu of %zu elements differ from the CPU reference\n",
                 ni, nj, nk, nl, bad, out.size());
  return bad == 0;
}

int main(int argc, char **argv) {
  ExampleOptions O = parseExampleOptions(argc, argv, "[NI NJ NK NL]");
  if (O.NumSizes != 0 && O.NumSizes != 4) {
    std::fprintf(stderr, "usage: %s [NI NJ NK NL] [--no-check]\n", argv[0]);
    return 1;
  }
  if (O.NumSizes == 4)
    return runOnce(int(O.Sizes[0]), int(O.Sizes[1]), int(O.Sizes[2]), int(O.Sizes[3]),
                   !O.NoCheck) ? 0 : 1;
  bool ok = runOnce(80, 90, 70, 100, !O.NoCheck);
  ok &= runOnce(256, 256, 256, 256, !O.NoCheck);
  return ok ? 0 : 1;
}
