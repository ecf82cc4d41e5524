// saxpy.cu - a 1-D kernel whose block size klaraptor chooses.
//
//   klaraptor-clang++ -O2 saxpy.cu -o saxpy && ./saxpy [N ...]
//
// Runs y = a*x + y once for each size given (default 1000 and 1000000) and
// checks every result against a CPU reference. The program asks for 256
// threads per block; with a model, klaraptor picks the block size per launch.
#include "../common.h"

#include <cmath>
#include <vector>

#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
__global__ void saxpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

static bool runOnce(int n, bool check) {
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 97) * 0.5f;
    y[i] = float(i % 13) - 6.0f;
  }
  const float a = 1.75f;
  float *dx = nullptr, *dy = nullptr;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dy, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const int threads = 256; // what a programmer would hard-code
  saxpy<<<(n + threads - 1) / threads, threads>>>(dy, dx, a, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> out(n);
  CHECK_CUDA(cudaMemcpy(out.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(dx));
  CHECK_CUDA(cudaFree(dy));
  if (!check) {
    std::printf("saxpy N=%d: launched (result not checked)\n", n);
    return true;
  }
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float want = a * x[i] + y[i];
    if (std::fabs(out[i] - want) > 1e-5f * std::fmax(1.0f, std::fabs(want)))
      ++bad;
  }
  std::printf("saxpy N=%d: %s\n", n, bad ? "FAILED" : "ok");
  if (bad)
    std::fprintf(stderr, "saxpy N=%d: %d of %d elements differ from the CPU reference\n",
                 n, bad, n);
  return bad == 0;
}

int main(int argc, char **argv) {
  ExampleOptions O = parseExampleOptions(argc, argv, "[N ...]");
  if (O.NumSizes == 0) {
    O.Sizes[0] = 1000;
    O.Sizes[1] = 1000000;
    O.NumSizes = 2;
  }
  bool ok = true;
  for (int i = 0; i < O.NumSizes; ++i)
    ok &= runOnce(int(O.Sizes[i]), !O.NoCheck);
  return ok ? 0 : 1;
}
