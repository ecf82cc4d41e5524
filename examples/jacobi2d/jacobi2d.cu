// jacobi2d.cu - a 2-D 5-point Jacobi stencil over several time steps (PolyBench's jacobi-2d).
//
//   klaraptor-clang++ -O2 jacobi2d.cu -o jacobi2d && ./jacobi2d [N T]
//
// Two N x N grids A and B (default 200 x 200 for 10 steps, then 1024 x 1024
// for 20). Each step launches jacobi2d_step twice, B = stencil(A) and then
// A = stencil(B), on the interior points; the border keeps its initial
// values. Every launch has the same data, so klaraptor decides once and the
// memoised shape serves the other launches. The program asks for 32x4
// blocks. Checked against a CPU reference.
#include "../common.h"

#include <cmath>
#include <utility>
#include <vector>

#pragma klaraptor data(N = n) block(bx, by) where(by <= N) \
    grid(ceildiv(N, bx), ceildiv(N, by))
__global__ void jacobi2d_step(float *out, const float *in, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= n - 1 || j >= n - 1)
    return;
  size_t c = (size_t)i * n + j;
  out[c] = 0.2f * (in[c] + in[c - 1] + in[c + 1] + in[c - n] + in[c + n]);
}

static void stepCpu(std::vector<float> &out, const std::vector<float> &in, int n) {
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j) {
      size_t c = (size_t)i * n + j;
      out[c] = 0.2f * (in[c] + in[c - 1] + in[c + 1] + in[c - n] + in[c + n]);
    }
}

static bool runOnce(int n, int steps, bool check) {
  size_t total = (size_t)n * n;
  std::vector<float> a(total);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      a[(size_t)i * n + j] = float((i * (j + 2) + 2) % n) / float(n);
  float *da, *db;
  CHECK_CUDA(cudaMalloc(&da, total * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, total * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(da, a.data(), total * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, a.data(), total * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(32, 4); // what a programmer would hard-code
  dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
  for (int t = 0; t < steps; ++t) {
    jacobi2d_step<<<grid, block>>>(db, da, n);
    CHECK_CUDA(cudaGetLastError());
    jacobi2d_step<<<grid, block>>>(da, db, n);
    CHECK_CUDA(cudaGetLastError());
  }
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> out(total);
  CHECK_CUDA(cudaMemcpy(out.data(), da, total * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  if (!check) {
    std::printf("jacobi2d N=%d T=%d: launched (result not checked)\n", n, steps);
    return true;
  }
  std::vector<float> b = a;
  for (int t = 0; t < steps; ++t) {
    stepCpu(b, a, n);
    stepCpu(a, b, n);
  }
  return reportCheck("jacobi2d N=" + std::to_string(n) + " T=" + std::to_string(steps),
                     countMismatches(out, a, 1e-4), total);
}

int main(int argc, char **argv) {
  ExampleOptions O = parseExampleOptions(argc, argv, "[N T]");
  if (O.NumSizes != 0 && O.NumSizes != 2) {
    std::fprintf(stderr, "usage: %s [N T] [--no-check]\n", argv[0]);
    return 1;
  }
  if (O.NumSizes == 2)
    return runOnce(int(O.Sizes[0]), int(O.Sizes[1]), !O.NoCheck) ? 0 : 1;
  bool ok = runOnce(200, 10, !O.NoCheck);
  ok &= runOnce(1024, 20, !O.NoCheck);
  return ok ? 0 : 1;
}
