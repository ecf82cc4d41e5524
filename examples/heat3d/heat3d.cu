// heat3d.cu - a 3-D 7-point heat-equation stencil over several time steps (PolyBench's heat-3d).
//
//   klaraptor-clang++ -O2 heat3d.cu -o heat3d && ./heat3d [N T]
//
// Two N x N x N grids A and B (default 40^3 for 10 steps, then 128^3 for 20).
// Each step launches heat3d_step twice, B = stencil(A) and A = stencil(B), on
// the interior points; the border keeps its initial values. The kernel has
// 3-D blocks, block(bx, by, bz), x along the innermost (contiguous) index.
// The program asks for 32x4x2 blocks. Checked against a CPU reference.
#include "../common.h"

#include <cmath>
#include <vector>

#pragma klaraptor data(N = n) block(bx, by, bz) where(by <= N, bz <= N) \
    grid(ceildiv(N, bx), ceildiv(N, by), ceildiv(N, bz))
__global__ void heat3d_step(float *out, const float *in, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int i = blockIdx.z * blockDim.z + threadIdx.z;
  if (i < 1 || j < 1 || k < 1 || i >= n - 1 || j >= n - 1 || k >= n - 1)
    return;
  size_t s = (size_t)n * n;
  size_t c = (size_t)i * s + (size_t)j * n + k;
  float v = in[c];
  out[c] = 0.125f * (in[c + s] - 2.0f * v + in[c - s]) +
           0.125f * (in[c + n] - 2.0f * v + in[c - n]) +
           0.125f * (in[c + 1] - 2.0f * v + in[c - 1]) + v;
}

static void stepCpu(std::vector<float> &out, const std::vector<float> &in, int n) {
  size_t s = (size_t)n * n;
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      for (int k = 1; k < n - 1; ++k) {
        size_t c = (size_t)i * s + (size_t)j * n + k;
        float v = in[c];
        out[c] = 0.125f * (in[c + s] - 2.0f * v + in[c - s]) +
                 0.125f * (in[c + n] - 2.0f * v + in[c - n]) +
                 0.125f * (in[c + 1] - 2.0f * v + in[c - 1]) + v;
      }
}

static bool runOnce(int n, int steps, bool check) {
  size_t total = (size_t)n * n * n;
  std::vector<float> a(total);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        a[((size_t)i * n + j) * n + k] = float((i + j + (n - k)) * 10 % n) / float(n);
  float *da, *db;
  CHECK_CUDA(cudaMalloc(&da, total * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, total * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(da, a.data(), total * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, a.data(), total * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(32, 4, 2); // what a programmer would hard-code
  dim3 grid((n + 31) / 32, (n + 3) / 4, (n + 1) / 2);
  for (int t = 0; t < steps; ++t) {
    heat3d_step<<<grid, block>>>(db, da, n);
    CHECK_CUDA(cudaGetLastError());
    heat3d_step<<<grid, block>>>(da, db, n);
    CHECK_CUDA(cudaGetLastError());
  }
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> out(total);
  CHECK_CUDA(cudaMemcpy(out.data(), da, total * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  if (!check) {
    std::printf("heat3d N=%d T=%d: launched (result not checked)\n", n, steps);
    return true;
  }
  std::vector<float> b = a;
  for (int t = 0; t < steps; ++t) {
    stepCpu(b, a, n);
    stepCpu(a, b, n);
  }
  return reportCheck("heat3d N=" + std::to_string(n) + " T=" + std::to_string(steps),
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
  bool ok = runOnce(40, 10, !O.NoCheck);
  ok &= runOnce(128, 20, !O.NoCheck);
  return ok ? 0 : 1;
}
