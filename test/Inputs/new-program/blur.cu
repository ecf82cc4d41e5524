// A new user's program: a 3x3 box blur of an H x W image, two data
// parameters, written from scratch (not one of the examples).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#pragma klaraptor data(H = height, W = width) block(bx, by) \
    where(bx * by >= 32)                                     \
    grid(ceildiv(W, bx), ceildiv(H, by))
__global__ void blur3(float *out, const float *in, int height, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float s = 0;
  int n = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = x + dx, yy = y + dy;
      if (xx >= 0 && xx < width && yy >= 0 && yy < height) {
        s += in[(size_t)yy * width + xx];
        ++n;
      }
    }
  out[(size_t)y * width + x] = s / n;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s HEIGHT WIDTH\n", argv[0]);
    return 1;
  }
  int h = std::atoi(argv[1]), w = std::atoi(argv[2]);
  size_t n = (size_t)h * w;
  std::vector<float> img(n);
  for (size_t i = 0; i < n; ++i)
    img[i] = float(i % 17);
  float *din, *dout;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMemcpy(din, img.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(16, 16);
  dim3 grid((w + 15) / 16, (h + 15) / 16);
  blur3<<<grid, block>>>(dout, din, h, w);
  cudaDeviceSynchronize();
  cudaFree(din);
  cudaFree(dout);
  std::printf("blur %dx%d: launched\n", h, w);
  return 0;
}
