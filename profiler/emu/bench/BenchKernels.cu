// Kernels of klaraptor-emu-bench (compiled to PTX with nvcc -arch=sm_90).

/// Naive single-precision matrix product C = A * B of n x n matrices.
extern "C" __global__ void matmul(const float *A, const float *B, float *C,
                                  int N) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row < N && Col < N) {
    float Sum = 0.0f;
    for (int K = 0; K < N; ++K)
      Sum += A[Row * N + K] * B[K * N + Col];
    C[Row * N + Col] = Sum;
  }
}

/// Integer and floating-point arithmetic in a loop, one store per thread.
extern "C" __global__ void alu(float *Out, int Iters) {
  float X = threadIdx.x;
  unsigned H = threadIdx.x + blockIdx.x * blockDim.x;
  for (int I = 0; I < Iters; ++I) {
    X = X * 0.999f + 0.5f;
    H = H * 1664525u + 1013904223u;
    H ^= H >> 13;
  }
  Out[blockIdx.x * blockDim.x + threadIdx.x] = X + float(H & 0xff);
}

/// A 2-D five-point stencil whose boundary threads take a shorter path
/// (the blocks on the grid's edge differ from the interior ones).
extern "C" __global__ void stencil(const float *In, float *Out, int W, int H) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= W || Y >= H)
    return;
  float C = In[Y * W + X];
  if (X == 0 || Y == 0 || X == W - 1 || Y == H - 1) {
    Out[Y * W + X] = C;
    return;
  }
  Out[Y * W + X] = 0.5f * C + 0.125f * (In[Y * W + X - 1] + In[Y * W + X + 1] +
                                        In[(Y - 1) * W + X] + In[(Y + 1) * W + X]);
}

/// Data-dependent trip counts: every thread iterates the Collatz map.
extern "C" __global__ void collatz(const unsigned *In, unsigned *Steps, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  unsigned X = In[I], S = 0;
  while (X != 1 && S < 10000) {
    X = (X & 1) ? 3 * X + 1 : X / 2;
    ++S;
  }
  Steps[I] = S;
}
