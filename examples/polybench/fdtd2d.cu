// fdtd2d.cu - 2-D finite-difference time-domain electromagnetics, the
// FDTD_2D kernels of PolyBench/GPU.
//
//   klaraptor-clang++ -O2 fdtd2d.cu -o fdtd2d && ./fdtd2d [N [TMAX]] [--no-check]
//
// hz is N x N, ex is N x (N+1) and ey is (N+1) x N floats; fict holds TMAX
// floats on the device (default N = 100, TMAX = 4, checked against a CPU
// reference; PolyBench/GPU runs 500 steps, profiling uses 1 or 2). Each
// time step t launches, in order:
//   fdtd_step1_kernel  ey[0][col] = fict[t]; other rows
//                      ey[row][col] -= 0.5*(hz[row][col] - hz[row-1][col])
//   fdtd_step2_kernel  for col > 0:
//                      ex[row][col] -= 0.5*(hz[row][col] - hz[row][col-1])
//   fdtd_step3_kernel  hz[row][col] -= 0.7*(ex[row][col+1] - ex[row][col]
//                                          + ey[row+1][col] - ey[row][col])
// with one thread per (row, col) of the N x N domain: col = x index, row =
// y index, grid ceil(N/bx) x ceil(N/by). The program asks for 32x8 blocks,
// as PolyBench/GPU hard-codes; each kernel has its own pragma, so klaraptor
// may choose any admissible shape for each (powers of two, bx, by <= N,
// 32..1024 threads).
//
// The memory traffic follows PolyBench/GPU on purpose (the same loads and
// stores, the same padded ex and ey, no __restrict__, int indices): the
// real-timings judge compares klaraptor with measurements of the original
// programs (docs/results.md), so the kernels must do what they do.
//
// --no-check launches without the CPU reference, for large N (8192) with
// kernels not executed (KLARAPTOR_EMU_EXECUTE=0).
#include "../common.h"

#include <cstdint>
#include <vector>

#pragma klaraptor data(N = n) block(bx, by) where(bx <= N, by <= N) grid(ceildiv(N, bx), ceildiv(N, by))
__global__ void fdtd_step1_kernel(const float *fict, float *ey, const float *hz,
                                  int t, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    if (row == 0)
      ey[row * n + col] = fict[t];
    else
      ey[row * n + col] =
          ey[row * n + col] - 0.5f * (hz[row * n + col] - hz[(row - 1) * n + col]);
  }
}

#pragma klaraptor data(N = n) block(bx, by) where(bx <= N, by <= N) grid(ceildiv(N, bx), ceildiv(N, by))
__global__ void fdtd_step2_kernel(float *ex, const float *hz, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n && col > 0)
    ex[row * (n + 1) + col] =
        ex[row * (n + 1) + col] - 0.5f * (hz[row * n + col] - hz[row * n + (col - 1)]);
}

#pragma klaraptor data(N = n) block(bx, by) where(bx <= N, by <= N) grid(ceildiv(N, bx), ceildiv(N, by))
__global__ void fdtd_step3_kernel(const float *ex, const float *ey, float *hz,
                                  int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n)
    hz[row * n + col] =
        hz[row * n + col] -
        0.7f * (ex[row * (n + 1) + (col + 1)] - ex[row * (n + 1) + col] +
                ey[(row + 1) * n + col] - ey[row * n + col]);
}

/// Deterministic inputs in [-0.5, 0.5) with no short period, so that a
/// transposed or shifted index changes the result.
static void fillArray(std::vector<float> &v, uint32_t seed) {
  for (size_t i = 0; i < v.size(); ++i) {
    uint32_t h = uint32_t(i) * 2654435761u + seed * 40503u;
    v[i] = (float(h >> 26) - 31.5f) / 64.0f;
  }
}

static bool run(int n, int tmax, bool check) {
  const size_t nn = size_t(n) * size_t(n);
  const size_t nx = size_t(n) * size_t(n + 1); // ex and ey
  std::vector<float> fict(tmax), ex(nx), ey(nx), hz(nn);
  for (int t = 0; t < tmax; ++t)
    fict[t] = float(t % 8) * 0.125f;
  fillArray(ex, 1);
  fillArray(ey, 2);
  fillArray(hz, 3);

  float *dfict, *dex, *dey, *dhz;
  CHECK_CUDA(cudaMalloc(&dfict, tmax * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dex, nx * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dey, nx * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dhz, nn * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dfict, fict.data(), tmax * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dex, ex.data(), nx * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dey, ey.data(), nx * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dhz, hz.data(), nn * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(32, 8); // what PolyBench/GPU hard-codes
  dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
  for (int t = 0; t < tmax; ++t) {
    fdtd_step1_kernel<<<grid, block>>>(dfict, dey, dhz, t, n);
    CHECK_CUDA(cudaGetLastError());
    fdtd_step2_kernel<<<grid, block>>>(dex, dhz, n);
    CHECK_CUDA(cudaGetLastError());
    fdtd_step3_kernel<<<grid, block>>>(dex, dey, dhz, n);
    CHECK_CUDA(cudaGetLastError());
  }
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> outEx(nx), outEy(nx), outHz(nn);
  CHECK_CUDA(cudaMemcpy(outEx.data(), dex, nx * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(outEy.data(), dey, nx * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(outHz.data(), dhz, nn * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(dfict));
  CHECK_CUDA(cudaFree(dex));
  CHECK_CUDA(cudaFree(dey));
  CHECK_CUDA(cudaFree(dhz));

  std::string label = "fdtd2d N=" + std::to_string(n) + " TMAX=" + std::to_string(tmax);
  if (!check) {
    std::printf("%s: launched (result not checked)\n", label.c_str());
    return true;
  }
  // The kernels' operations in the kernels' order, in double; each step
  // reads only what the previous kernel wrote, so sweeping in place is
  // what the parallel kernels compute.
  std::vector<double> wx(ex.begin(), ex.end()), wy(ey.begin(), ey.end()),
      wz(hz.begin(), hz.end());
  const size_t m = size_t(n) + 1;
  for (int t = 0; t < tmax; ++t) {
    for (size_t i = 0; i < size_t(n); ++i)
      for (size_t j = 0; j < size_t(n); ++j)
        wy[i * n + j] = i == 0 ? double(fict[t])
                               : wy[i * n + j] - 0.5 * (wz[i * n + j] - wz[(i - 1) * n + j]);
    for (size_t i = 0; i < size_t(n); ++i)
      for (size_t j = 1; j < size_t(n); ++j)
        wx[i * m + j] -= 0.5 * (wz[i * n + j] - wz[i * n + j - 1]);
    for (size_t i = 0; i < size_t(n); ++i)
      for (size_t j = 0; j < size_t(n); ++j)
        wz[i * n + j] -= 0.7 * (wx[i * m + j + 1] - wx[i * m + j] + wy[(i + 1) * n + j] -
                                wy[i * n + j]);
  }
  size_t bad =
      countMismatches(std::vector<double>(outEx.begin(), outEx.end()), wx, 1e-4) +
      countMismatches(std::vector<double>(outEy.begin(), outEy.end()), wy, 1e-4) +
      countMismatches(std::vector<double>(outHz.begin(), outHz.end()), wz, 1e-4);
  return reportCheck(label, bad, 2 * nx + nn);
}

int main(int argc, char **argv) {
  ExampleOptions O = parseExampleOptions(argc, argv, "[N [TMAX]]");
  // int indices, as in PolyBench/GPU: N*(N+1) must fit in an int.
  if (O.NumSizes > 2 || (O.NumSizes >= 1 && O.Sizes[0] > 46000)) {
    std::fprintf(stderr, "usage: %s [N [TMAX]] [--no-check]  (N <= 46000)\n", argv[0]);
    return 1;
  }
  int n = O.NumSizes >= 1 ? int(O.Sizes[0]) : 100;
  int tmax = O.NumSizes >= 2 ? int(O.Sizes[1]) : 4;
  return run(n, tmax, !O.NoCheck) ? 0 : 1;
}
