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
#include "polybench.h"

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

static bool run(int n, int tmax, bool check) {
  const size_t nn = size_t(n) * size_t(n);
  const size_t nx = size_t(n) * size_t(n + 1); // ex and ey
  std::vector<float> fict(tmax);
  for (int t = 0; t < tmax; ++t)
    fict[t] = float(t % 8) * 0.125f;
  const std::vector<float> ex = filledArray(nx, 1), ey = filledArray(nx, 2),
                           hz = filledArray(nn, 3);
  DeviceArray dfict(fict), dex(ex), dey(ey), dhz(hz);

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
  const std::vector<float> outEx = dex.toHost(), outEy = dey.toHost(),
                           outHz = dhz.toHost();

  std::string label = "fdtd2d N=" + std::to_string(n) + " TMAX=" + std::to_string(tmax);
  if (!check)
    return reportUnchecked(label);
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
  return reportOutputs(label, 1e-4, {{outEx, wx}, {outEy, wy}, {outHz, wz}});
}

int main(int argc, char **argv) {
  PolybenchOptions O = parsePolybenchOptions(argc, argv, "[N [TMAX]]", 4);
  return run(O.N, O.Second, O.Check) ? 0 : 1;
}
