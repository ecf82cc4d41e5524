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

/// A column step in the manner of PolyBench's fdtd_step2: column 0 is a
/// border and does nothing. With 1 x 1024 blocks, the first block of the
/// grid is that column alone.
extern "C" __global__ void column_step(float *A, const float *B, int Rows,
                                       int Cols) {
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  if (Row < Rows && Col > 0 && Col < Cols)
    A[Row * Cols + Col] -= 0.5f * (B[Row * Cols + Col] - B[Row * Cols + Col - 1]);
}

/// A row step in the manner of PolyBench's fdtd_step1: row 0 is a border.
/// Each row of B is read by its own row's threads and by the next row's: in
/// one-row blocks, by two blocks that run at the same time on different
/// SMs, so that the second read is an L2 hit (the L2 is shared).
extern "C" __global__ void row_step(float *A, const float *B, int Rows,
                                    int Cols) {
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  if (Row > 0 && Row < Rows && Col < Cols)
    A[Row * Cols + Col] -= 0.5f * (B[Row * Cols + Col] - B[(Row - 1) * Cols + Col]);
}

/// Each thread sums its own row, as PolyBench's atax_kernel1 does: a warp's
/// 32 rows are 32 lines, each read again for the next seven columns.
extern "C" __global__ void row_sums(const float *A, float *Out, int Rows,
                                    int Cols) {
  int Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row < Rows) {
    float S = 0;
    for (int C = 0; C < Cols; ++C)
      S += A[(long long)Row * Cols + C];
    Out[Row] = S;
  }
}
