// templates.cu - kernel templates under klaraptor: one pragma on a template
// annotates each specialization, and each is profiled, fitted and tuned on
// its own (test/Profile/template-kernels.test).
//
//   templates N [N ...]
//
// For each N: y = a*x + y in float and in double (two specializations of
// scale_add), and a moving sum of radius 2 (box_sum<2>); every result is
// checked against a CPU reference.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t E = (call);                                                    \
    if (E != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(E));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace kernels {
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <typename T>
__global__ void scale_add(T *y, const T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
} // namespace kernels

#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <int Radius>
__global__ void box_sum(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0;
  for (int d = -Radius; d <= Radius; ++d)
    if (i + d >= 0 && i + d < n)
      s += in[i + d];
  out[i] = s;
}

template <typename T> static bool scaleAdd(int n) {
  std::vector<T> x(n), y(n), want(n);
  for (int i = 0; i < n; ++i) {
    x[i] = T(i % 31) * T(0.5);
    y[i] = T(i % 7) - T(3);
    want[i] = T(1.5) * x[i] + y[i];
  }
  T *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(T)));
  CHECK(cudaMalloc(&dy, n * sizeof(T)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  kernels::scale_add<<<(n + 255) / 256, 256>>>(dy, dx, T(1.5), n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  for (int i = 0; i < n; ++i)
    if (std::fabs(double(y[i] - want[i])) > 1e-5)
      return false;
  return true;
}

static bool boxSum(int n) {
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = float(i % 5);
  float *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  box_sum<2><<<(n + 127) / 128, 128>>>(dout, din, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  for (int i = 0; i < n; ++i) {
    float s = 0;
    for (int d = -2; d <= 2; ++d)
      if (i + d >= 0 && i + d < n)
        s += in[i + d];
    if (out[i] != s)
      return false;
  }
  return true;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s N [N ...]\n", argv[0]);
    return 2;
  }
  bool Ok = true;
  for (int A = 1; A < argc; ++A) {
    int n = std::atoi(argv[A]);
    bool F = scaleAdd<float>(n), D = scaleAdd<double>(n), B = boxSum(n);
    std::printf("templates N=%d: float %s, double %s, box_sum %s\n", n,
                F ? "ok" : "FAILED", D ? "ok" : "FAILED", B ? "ok" : "FAILED");
    Ok = Ok && F && D && B;
  }
  return Ok ? 0 : 1;
}
