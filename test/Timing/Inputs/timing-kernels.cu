// Kernels with known performance behaviour for the timing engine's tests
// (test/Unit/Timing/EstimatorTest.cpp); compiled to PTX by nvcc at build
// time (test/Unit/Timing/CMakeLists.txt).

/// Coalesced copy: one 32-byte sector per 8 lanes.
extern "C" __global__ void copy(const float *In, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[I];
}

/// Strided gather: every lane touches its own sector.
extern "C" __global__ void strided_copy(const float *In, float *Out, int N,
                                        int Stride) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[(long long)I * Stride];
}

/// A long dependent chain of single-precision multiply-adds: 8 per
/// iteration, so that the loop counter's own chain does not dominate.
extern "C" __global__ void fma_chain(float *Out, float A, int Iters) {
  float X = threadIdx.x;
#pragma unroll 1
  for (int K = 0; K < Iters; ++K) {
#pragma unroll
    for (int J = 0; J < 8; ++J)
      X = X * A + 1.0f;
  }
  Out[blockIdx.x * blockDim.x + threadIdx.x] = X;
}
