// correlation.cu - the correlation matrix of M variables over N samples (PolyBench's correlation).
//
//   klaraptor-clang++ -O2 correlation.cu -o correlation && ./correlation [N M]
//
// DATA is N x M, one row per sample (default 300 x 120, then 2048 x 1024).
// Four kernels, each with its own pragma: corr_mean and corr_std (1-D, one
// thread per variable), corr_center (2-D over DATA: centre and scale every
// sample) and corr_matrix (2-D over the M x M result). The program asks for
// 256 threads and 16x16 blocks. Checked against a CPU reference.
#include "../common.h"

#include <cmath>
#include <vector>

#pragma klaraptor data(N = n, M = m) block(bx) grid(ceildiv(M, bx))
__global__ void corr_mean(float *mean, const float *data, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m)
    return;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i)
    sum += data[(size_t)i * m + j];
  mean[j] = sum / (float)n;
}

#pragma klaraptor data(N = n, M = m) block(bx) grid(ceildiv(M, bx))
__global__ void corr_std(float *stddev, const float *mean, const float *data,
                         int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m)
    return;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) {
    float d = data[(size_t)i * m + j] - mean[j];
    sum += d * d;
  }
  float s = sqrtf(sum / (float)n);
  // A constant variable would divide by zero: PolyBench uses 1 instead.
  stddev[j] = s <= 0.1f ? 1.0f : s;
}

#pragma klaraptor data(N = n, M = m) block(bx, by) \
    grid(ceildiv(M, bx), ceildiv(N, by))
__global__ void corr_center(float *data, const float *mean, const float *stddev,
                            int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= m)
    return;
  size_t c = (size_t)i * m + j;
  data[c] = (data[c] - mean[j]) / (sqrtf((float)n) * stddev[j]);
}

#pragma klaraptor data(N = n, M = m) block(bx, by) \
    grid(ceildiv(M, bx), ceildiv(M, by))
__global__ void corr_matrix(float *corr, const float *data, int n, int m) {
  int j2 = blockIdx.x * blockDim.x + threadIdx.x;
  int j1 = blockIdx.y * blockDim.y + threadIdx.y;
  if (j1 >= m || j2 >= m)
    return;
  float sum = 0.0f;
  if (j1 == j2) {
    sum = 1.0f;
  } else {
    for (int i = 0; i < n; ++i)
      sum += data[(size_t)i * m + j1] * data[(size_t)i * m + j2];
  }
  corr[(size_t)j1 * m + j2] = sum;
}

static bool runOnce(int n, int m, bool check) {
  size_t total = (size_t)n * m;
  std::vector<float> data(total);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      data[(size_t)i * m + j] = float((i * j) % 13 + (i + 3 * j) % 7) * 0.5f + float(j % 5);

  float *ddata, *dmean, *dstd, *dcorr;
  CHECK_CUDA(cudaMalloc(&ddata, total * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dmean, m * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dstd, m * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dcorr, (size_t)m * m * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(ddata, data.data(), total * sizeof(float), cudaMemcpyHostToDevice));

  const int threads = 256; // what a programmer would hard-code
  dim3 block(16, 16);
  corr_mean<<<(m + threads - 1) / threads, threads>>>(dmean, ddata, n, m);
  CHECK_CUDA(cudaGetLastError());
  corr_std<<<(m + threads - 1) / threads, threads>>>(dstd, dmean, ddata, n, m);
  CHECK_CUDA(cudaGetLastError());
  corr_center<<<dim3((m + 15) / 16, (n + 15) / 16), block>>>(ddata, dmean, dstd, n, m);
  CHECK_CUDA(cudaGetLastError());
  corr_matrix<<<dim3((m + 15) / 16, (m + 15) / 16), block>>>(dcorr, ddata, n, m);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> out((size_t)m * m);
  CHECK_CUDA(cudaMemcpy(out.data(), dcorr, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(ddata));
  CHECK_CUDA(cudaFree(dmean));
  CHECK_CUDA(cudaFree(dstd));
  CHECK_CUDA(cudaFree(dcorr));
  if (!check) {
    std::printf("correlation %dx%d: launched (result not checked)\n", n, m);
    return true;
  }
  std::vector<double> mean(m, 0.0), sd(m, 0.0), cen(total);
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < n; ++i)
      mean[j] += data[(size_t)i * m + j];
    mean[j] /= n;
    for (int i = 0; i < n; ++i) {
      double d = data[(size_t)i * m + j] - mean[j];
      sd[j] += d * d;
    }
    sd[j] = std::sqrt(sd[j] / n);
    if (sd[j] <= 0.1)
      sd[j] = 1.0;
    for (int i = 0; i < n; ++i)
      cen[(size_t)i * m + j] = (data[(size_t)i * m + j] - mean[j]) / (std::sqrt((double)n) * sd[j]);
  }
  size_t bad = 0;
  for (int j1 = 0; j1 < m; ++j1)
    for (int j2 = 0; j2 < m; ++j2) {
      double want = 1.0;
      if (j1 != j2) {
        want = 0.0;
        for (int i = 0; i < n; ++i)
          want += cen[(size_t)i * m + j1] * cen[(size_t)i * m + j2];
      }
      if (std::fabs(out[(size_t)j1 * m + j2] - want) > 1e-3)
        ++bad;
    }
  std::printf("correlation %dx%d: %s\n", n, m, bad ? "FAILED" : "ok");
  if (bad)
    std::fprintf(stderr, "correlation %dx%d: %zu of %zu elements differ from the CPU reference\n",
                 n, m, bad, out.size());
  return bad == 0;
}

int main(int argc, char **argv) {
  ExampleOptions O = parseExampleOptions(argc, argv, "[N M]");
  if (O.NumSizes != 0 && O.NumSizes != 2) {
    std::fprintf(stderr, "usage: %s [N M] [--no-check]\n", argv[0]);
    return 1;
  }
  if (O.NumSizes == 2)
    return runOnce(int(O.Sizes[0]), int(O.Sizes[1]), !O.NoCheck) ? 0 : 1;
  bool ok = runOnce(300, 120, !O.NoCheck);
  ok &= runOnce(2048, 1024, !O.NoCheck);
  return ok ? 0 : 1;
}
