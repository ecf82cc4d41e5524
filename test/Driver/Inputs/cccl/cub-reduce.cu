// CUB from the toolkit's CCCL headers: a BlockReduce in a user's kernel and
// cub::DeviceReduce (CUB's own kernels, in CUB's arch-named namespace).
#include <cub/cub.cuh>

#include <cstdio>

__global__ void blockSum(int *out, const int *in) {
  using Reduce = cub::BlockReduce<int, 128>;
  __shared__ typename Reduce::TempStorage Temp;
  int Sum = Reduce(Temp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0)
    *out = Sum;
}

int main() {
  const int N = 1000;
  int Host[N];
  for (int I = 0; I < N; ++I)
    Host[I] = I % 7;
  int *In, *Out1, *Out2;
  cudaMalloc(&In, N * sizeof(int));
  cudaMalloc(&Out1, sizeof(int));
  cudaMalloc(&Out2, sizeof(int));
  cudaMemcpy(In, Host, sizeof Host, cudaMemcpyHostToDevice);
  cudaMemset(Out1, 0, sizeof(int));
  cudaMemset(Out2, 0, sizeof(int));
  blockSum<<<1, 128>>>(Out1, In);
  void *Temp = nullptr;
  size_t Bytes = 0;
  cub::DeviceReduce::Sum(Temp, Bytes, In, Out2, N);
  cudaMalloc(&Temp, Bytes);
  cudaError_t Err = cub::DeviceReduce::Sum(Temp, Bytes, In, Out2, N);
  int Block = -1, Device = -1;
  cudaMemcpy(&Block, Out1, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&Device, Out2, sizeof(int), cudaMemcpyDeviceToHost);
  int WantBlock = 0, WantDevice = 0;
  for (int I = 0; I < N; ++I)
    WantDevice += Host[I];
  for (int I = 0; I < 128; ++I)
    WantBlock += Host[I];
  std::printf("BlockReduce %d (want %d), DeviceReduce %d (want %d): %s\n",
              Block, WantBlock, Device, WantDevice, cudaGetErrorString(Err));
  return Block == WantBlock && Device == WantDevice ? 0 : 1;
}
