// mvt.cu - two matrix-vector products, x1 += A*y1 and x2 += A^T*y2 (PolyBench's mvt).
//
//   klaraptor-clang++ -O2 mvt.cu -o mvt && ./mvt [N ...]
//
// A is N x N (default 500, then 2048). Each thread owns one element of its
// output vector and loops over a row (mvt_x1) or a column (mvt_x2) of A, so
// both kernels are 1-D: block(bx) leaves by = bz = 1, candidates(warp) keeps
// bx a multiple of 32 and where() caps it at 512 threads and at one warp
// more than N. The program asks for 256 threads. Checked against a CPU
// reference.
#include "../common.h"

#include <cmath>
#include <vector>

#pragma klaraptor data(N = n) block(bx) candidates(warp) \
    where(bx <= 512, bx < N + 32) grid(ceildiv(N, bx))
__global__ void mvt_x1(float *x1, const float *a, const float *y1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float sum = x1[i];
  for (int j = 0; j < n; ++j)
    sum += a[(size_t)i * n + j] * y1[j];
  x1[i] = sum;
}

#pragma klaraptor data(N = n) block(bx) candidates(warp) \
    where(bx <= 512, bx < N + 32) grid(ceildiv(N, bx))
__global__ void mvt_x2(float *x2, const float *a, const float *y2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float sum = x2[i];
  for (int j = 0; j < n; ++j)
    sum += a[(size_t)j * n + i] * y2[j];
  x2[i] = sum;
}

static bool runOnce(int n, bool check) {
  std::vector<float> a((size_t)n * n), x1(n), x2(n), y1(n), y2(n);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = float(i % 23) * 0.0625f - 0.5f;
  for (int i = 0; i < n; ++i) {
    x1[i] = float(i % 5) - 2.0f;
    x2[i] = float(i % 3) - 1.0f;
    y1[i] = float(i % 7) * 0.25f - 0.75f;
    y2[i] = float(i % 9) * 0.125f - 0.5f;
  }
  float *da, *dx1, *dx2, *dy1, *dy2;
  size_t vb = n * sizeof(float);
  CHECK_CUDA(cudaMalloc(&da, a.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dx1, vb));
  CHECK_CUDA(cudaMalloc(&dx2, vb));
  CHECK_CUDA(cudaMalloc(&dy1, vb));
  CHECK_CUDA(cudaMalloc(&dy2, vb));
  CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dx1, x1.data(), vb, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dx2, x2.data(), vb, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy1, y1.data(), vb, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy2, y2.data(), vb, cudaMemcpyHostToDevice));

  const int threads = 256; // what a programmer would hard-code
  mvt_x1<<<(n + threads - 1) / threads, threads>>>(dx1, da, dy1, n);
  CHECK_CUDA(cudaGetLastError());
  mvt_x2<<<(n + threads - 1) / threads, threads>>>(dx2, da, dy2, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> o1(n), o2(n);
  CHECK_CUDA(cudaMemcpy(o1.data(), dx1, vb, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(o2.data(), dx2, vb, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(dx1));
  CHECK_CUDA(cudaFree(dx2));
  CHECK_CUDA(cudaFree(dy1));
  CHECK_CUDA(cudaFree(dy2));
  if (!check) {
    std::printf("mvt N=%d: launched (result not checked)\n", n);
    return true;
  }
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    double w1 = x1[i], w2 = x2[i];
    for (int j = 0; j < n; ++j) {
      w1 += (double)a[(size_t)i * n + j] * y1[j];
      w2 += (double)a[(size_t)j * n + i] * y2[j];
    }
    if (std::fabs(o1[i] - w1) > 1e-3 * std::fmax(1.0, std::fabs(w1)))
      ++bad;
    if (std::fabs(o2[i] - w2) > 1e-3 * std::fmax(1.0, std::fabs(w2)))
      ++bad;
  }
  std::printf("mvt N=%d: %s\n", n, bad ? "FAILED" : "ok");
  if (bad)
    std::fprintf(stderr, "mvt N=%d: %d of %d elements differ from the CPU reference\n",
                 n, bad, 2 * n);
  return bad == 0;
}

int main(int argc, char **argv) {
  ExampleOptions O = parseExampleOptions(argc, argv, "[N ...]");
  if (O.NumSizes == 0) {
    O.Sizes[0] = 500;
    O.Sizes[1] = 2048;
    O.NumSizes = 2;
  }
  bool ok = true;
  for (int i = 0; i < O.NumSizes; ++i)
    ok &= runOnce(int(O.Sizes[i]), !O.NoCheck);
  return ok ? 0 : 1;
}
