// tiled_gemm.cu - C = A*B with square shared-memory tiles and barriers.
//
//   klaraptor-clang++ -O2 tiled_gemm.cu -o tiled_gemm && ./tiled_gemm [NI NJ NK]
//
// A is NI x NK, B is NK x NJ (default 100 x 120 x 80, then 512 x 512 x 512).
// The tile is the block: a block of T x T threads stages T x T tiles of A and
// B in shared memory, so the pragma admits square blocks only, at most
// MAX_TILE x MAX_TILE (the static shared arrays' size). The program asks for
// 16x16; klaraptor may choose 8x8, 16x16 or 32x32. Checked against a CPU
// reference.
#include "../common.h"

#include <cmath>
#include <vector>

#define MAX_TILE 32

#pragma klaraptor data(NI = ni, NJ = nj, NK = nk) block(bx, by) \
    where(bx == by, bx <= MAX_TILE)                               \
    grid(ceildiv(NJ, bx), ceildiv(NI, by))
__global__ void tiled_gemm(float *c, const float *a, const float *b, int ni,
                           int nj, int nk) {
  __shared__ float As[MAX_TILE][MAX_TILE];
  __shared__ float Bs[MAX_TILE][MAX_TILE];
  const int t = blockDim.x; // == blockDim.y
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int j = blockIdx.x * t + tx;
  const int i = blockIdx.y * t + ty;
  float sum = 0.0f;
  // Every thread takes part in every barrier, also those outside C.
  for (int k0 = 0; k0 < nk; k0 += t) {
    As[ty][tx] = (i < ni && k0 + tx < nk) ? a[(size_t)i * nk + k0 + tx] : 0.0f;
    Bs[ty][tx] = (j < nj && k0 + ty < nk) ? b[(size_t)(k0 + ty) * nj + j] : 0.0f;
    __syncthreads();
    for (int k = 0; k < t; ++k)
      sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (i < ni && j < nj)
    c[(size_t)i * nj + j] = sum;
}

static bool runOnce(int ni, int nj, int nk, bool check) {
  std::vector<float> a((size_t)ni * nk), b((size_t)nk * nj);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = float(i % 13) * 0.25f - 1.5f;
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = float(i % 19) * 0.125f - 1.0f;

  float *da, *db, *dc;
  size_t nc = (size_t)ni * nj;
  CHECK_CUDA(cudaMalloc(&da, a.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, b.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dc, nc * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dc, 0, nc * sizeof(float)));

  const int tile = 16; // what a programmer would hard-code
  dim3 block(tile, tile);
  dim3 grid((nj + tile - 1) / tile, (ni + tile - 1) / tile);
  tiled_gemm<<<grid, block>>>(dc, da, db, ni, nj, nk);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> out(nc);
  CHECK_CUDA(cudaMemcpy(out.data(), dc, nc * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
  if (!check) {
    std::printf("tiled_gemm %dx%dx%d: launched (result not checked)\n", ni, nj, nk);
    return true;
  }
  size_t bad = 0;
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) {
      double want = 0;
      for (int k = 0; k < nk; ++k)
        want += (double)a[(size_t)i * nk + k] * b[(size_t)k * nj + j];
      if (std::fabs(out[(size_t)i * nj + j] - want) > 1e-3 * std::fmax(1.0, std::fabs(want)))
        ++bad;
    }
  std::printf("tiled_gemm %dx%dx%d: %s\n", ni, nj, nk, bad ? "FAILED" : "ok");
  if (bad)
    std::fprintf(stderr, "tiled_gemm %dx%dx%d: %zu of %zu elements differ from the CPU reference\n",
                 ni, nj, nk, bad, nc);
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
