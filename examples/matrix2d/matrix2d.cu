// matrix2d.cu - a 2-D kernel with two data parameters and a grid built from both.
//
//   klaraptor-clang++ -O2 matrix2d.cu -o matrix2d && ./matrix2d [ROWS COLS]
//
// out[r][c] = in[r][c] * scale[r] + bias[c] on a ROWS x COLS matrix (default
// 300 x 70 and then 1024 x 4096), checked against a CPU reference. The
// program asks for 16x16 blocks; klaraptor may choose any admissible shape.
#include "../common.h"

#include <cmath>
#include <vector>

#pragma klaraptor data(R = rows, C = cols) block(bx, by) \
    where(bx * by >= 64, by <= R)                          \
    grid(ceildiv(C, bx), ceildiv(R, by))
__global__ void matrix_scale(float *out, const float *in, const float *scale,
                             const float *bias, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    out[(size_t)r * cols + c] = in[(size_t)r * cols + c] * scale[r] + bias[c];
}

static bool runOnce(int rows, int cols, bool check) {
  size_t n = (size_t)rows * cols;
  std::vector<float> in(n), scale(rows), bias(cols), out(n, 0.0f);
  for (size_t i = 0; i < n; ++i)
    in[i] = float(i % 31) - 15.0f;
  for (int r = 0; r < rows; ++r)
    scale[r] = 0.25f * float(r % 7 + 1);
  for (int c = 0; c < cols; ++c)
    bias[c] = float(c % 5) - 2.0f;

  float *dout, *din, *dscale, *dbias;
  CHECK_CUDA(cudaMalloc(&dout, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&din, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dscale, rows * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dbias, cols * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dscale, scale.data(), rows * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dbias, bias.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dout, 0, n * sizeof(float)));

  dim3 block(16, 16); // what a programmer would hard-code
  dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  matrix_scale<<<grid, block>>>(dout, din, dscale, dbias, rows, cols);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(dout));
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dscale));
  CHECK_CUDA(cudaFree(dbias));
  if (!check) {
    std::printf("matrix2d %dx%d: launched (result not checked)\n", rows, cols);
    return true;
  }
  size_t bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      float want = in[(size_t)r * cols + c] * scale[r] + bias[c];
      if (std::fabs(out[(size_t)r * cols + c] - want) > 1e-5f * std::fmax(1.0f, std::fabs(want)))
        ++bad;
    }
  std::printf("matrix2d %dx%d: %s\n", rows, cols, bad ? "FAILED" : "ok");
  if (bad)
    std::fprintf(stderr, "matrix2d %dx%d: %zu of %zu elements differ from the CPU reference\n",
                 rows, cols, bad, n);
  return bad == 0;
}

int main(int argc, char **argv) {
  ExampleOptions O = parseExampleOptions(argc, argv, "[ROWS COLS ...]");
  if (O.NumSizes % 2 != 0) {
    std::fprintf(stderr, "usage: %s [ROWS COLS ...] [--no-check]\n", argv[0]);
    return 1;
  }
  if (O.NumSizes == 0) {
    long def[4] = {300, 70, 1024, 4096};
    for (int i = 0; i < 4; ++i)
      O.Sizes[i] = def[i];
    O.NumSizes = 4;
  }
  bool ok = true;
  for (int i = 0; i < O.NumSizes; i += 2)
    ok &= runOnce(int(O.Sizes[i]), int(O.Sizes[i + 1]), !O.NoCheck);
  return ok ? 0 : 1;
}
