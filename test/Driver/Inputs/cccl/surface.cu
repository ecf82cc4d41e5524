// Surface and texture objects: surf2Dwrite in a kernel, a cudaArray with a
// channel descriptor (cudaCreateChannelDesc), a texture object read back.
#include <cstdio>

__global__ void fill(cudaSurfaceObject_t Surf, int W, int H) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X < W && Y < H)
    surf2Dwrite(float(X + 100 * Y), Surf, X * int(sizeof(float)), Y);
}

__global__ void readBack(float *Out, cudaTextureObject_t Tex, int W, int H) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X < W && Y < H)
    Out[Y * W + X] = tex2D<float>(Tex, X + 0.5f, Y + 0.5f);
}

int main() {
  const int W = 16, H = 8;
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaArray_t Arr;
  cudaError_t Err = cudaMallocArray(&Arr, &Desc, W, H, cudaArraySurfaceLoadStore);
  if (Err != cudaSuccess) {
    std::printf("cudaMallocArray: %s\n", cudaGetErrorString(Err));
    return 1;
  }
  cudaResourceDesc Res = {};
  Res.resType = cudaResourceTypeArray;
  Res.res.array.array = Arr;
  cudaSurfaceObject_t Surf;
  cudaCreateSurfaceObject(&Surf, &Res);
  fill<<<dim3(1, 1), dim3(16, 8)>>>(Surf, W, H);
  cudaTextureDesc TD = {};
  TD.addressMode[0] = TD.addressMode[1] = cudaAddressModeClamp;
  TD.filterMode = cudaFilterModePoint;
  TD.readMode = cudaReadModeElementType;
  cudaTextureObject_t Tex;
  cudaCreateTextureObject(&Tex, &Res, &TD, nullptr);
  float *Out;
  cudaMalloc(&Out, W * H * sizeof(float));
  readBack<<<dim3(1, 1), dim3(16, 8)>>>(Out, Tex, W, H);
  float Host[W * H];
  Err = cudaMemcpy(Host, Out, sizeof Host, cudaMemcpyDeviceToHost);
  std::printf("%s: [3,2] = %g (want 203)\n", cudaGetErrorString(Err), Host[2 * W + 3]);
  return Host[2 * W + 3] == 203 ? 0 : 1;
}
