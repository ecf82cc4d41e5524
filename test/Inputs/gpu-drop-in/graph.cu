// graph.cu - what real programs do that klaraptor must not break, for a GPU
// (test/Runtime/drop-in-gpu.test): a static kernel (registered under nvcc's
// name), a static __constant__ written with cudaMemcpyToSymbol, a kernel
// template, sizes in a struct, and repeated launches captured into a CUDA
// graph while the runtime refines them.
//
//   graph N
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

static __constant__ float increment;

#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
static __global__ void step(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += increment;
}

struct Size {
  int n;
};

#pragma klaraptor data(N = s.n) block(bx) grid(ceildiv(N, bx))
template <typename T> __global__ void twice(T *y, Size s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n)
    y[i] *= T(2);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  float *y;
  cudaMalloc(&y, n * sizeof(float));
  cudaMemset(y, 0, n * sizeof(float));
  const float One = 1.0f;
  cudaError_t Symbol = cudaMemcpyToSymbol(increment, &One, sizeof One);
  cudaStream_t S;
  cudaStreamCreate(&S);
  // Eight steps captured into a graph, then launched: y = 8.
  cudaError_t Begin = cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  for (int I = 0; I < 8; ++I)
    step<<<(n + 255) / 256, 256, 0, S>>>(y, n);
  cudaGraph_t G = nullptr;
  cudaError_t End = cudaStreamEndCapture(S, &G);
  cudaGraphExec_t E = nullptr;
  cudaError_t Inst = End == cudaSuccess
                         ? cudaGraphInstantiate(&E, G, 0)
                         : cudaErrorInvalidValue;
  cudaError_t Run = Inst == cudaSuccess ? cudaGraphLaunch(E, S)
                                        : cudaErrorInvalidValue;
  cudaStreamSynchronize(S);
  // Eight more, launched directly (the runtime's refinement times some):
  // y = 16; then doubled by the template: y = 32.
  for (int I = 0; I < 8; ++I)
    step<<<(n + 255) / 256, 256, 0, S>>>(y, n);
  twice<<<(n + 127) / 128, 128, 0, S>>>(y, Size{n});
  cudaError_t Last = cudaStreamSynchronize(S);
  std::vector<float> H(n);
  cudaMemcpy(H.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  int Bad = 0;
  for (float V : H)
    Bad += V != 32;
  std::printf("symbol %s, capture %s, end %s, instantiate %s, graph %s, "
              "after %s: %s\n",
              cudaGetErrorString(Symbol), cudaGetErrorString(Begin),
              cudaGetErrorString(End), cudaGetErrorString(Inst),
              cudaGetErrorString(Run), cudaGetErrorString(Last),
              Bad ? "FAILED" : "ok");
  return Bad ? 1 : 0;
}
