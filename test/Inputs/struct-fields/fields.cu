// fields.cu - a kernel whose sizes come in a struct passed by value: the
// pragma reads them as d.rows and d.cols (test/Profile/struct-fields.test).
//
//   fields ROWS COLS [ROWS COLS ...]
//
// For each pair: out = v + row + d.offset over a ROWS x COLS matrix, with
// 16x16 blocks as written; every element is checked.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

struct Dims {
  int rows;
  long long cols;
  short offset;
};

#pragma klaraptor data(R = d.rows, C = d.cols) block(bx, by) \
    where(bx * by >= 32) grid(ceildiv(C, bx), ceildiv(R, by))
__global__ void fill(float *out, Dims d, float v) {
  long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < d.rows && c < d.cols)
    out[r * d.cols + c] = v + r + d.offset;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc % 2 == 0) {
    std::fprintf(stderr, "usage: %s ROWS COLS [ROWS COLS ...]\n", argv[0]);
    return 2;
  }
  bool Ok = true;
  for (int A = 1; A + 1 < argc; A += 2) {
    Dims d{std::atoi(argv[A]), std::atoll(argv[A + 1]), 3};
    size_t n = size_t(d.rows) * size_t(d.cols);
    float *out;
    if (cudaMalloc(&out, n * sizeof(float)) != cudaSuccess)
      return 1;
    dim3 block(16, 16);
    dim3 grid(unsigned((d.cols + 15) / 16), unsigned((d.rows + 15) / 16));
    fill<<<grid, block>>>(out, d, 1.0f);
    std::vector<float> h(n);
    if (cudaMemcpy(h.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost) !=
        cudaSuccess)
      return 1;
    cudaFree(out);
    size_t Bad = 0;
    for (int r = 0; r < d.rows; ++r)
      for (long long c = 0; c < d.cols; ++c)
        Bad += h[size_t(r) * size_t(d.cols) + size_t(c)] != 1.0f + r + 3;
    std::printf("fields %dx%lld: %s\n", d.rows, d.cols, Bad ? "FAILED" : "ok");
    Ok = Ok && !Bad;
  }
  return Ok ? 0 : 1;
}
