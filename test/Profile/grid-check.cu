// The grid check (issue 16, item 3): a pragma whose grid(...) swaps the
// kernel's axes (x runs over the columns C in the kernel, over the rows R in
// the formula, as in PolyBench's own annotation) is caught at the program's
// own launch, in tune mode without a model and in profile mode before the
// sweep: one warning naming the kernel, both grids and the pragma's
// location; the program's launch is kept (its results stay right) and
// nothing is profiled. KLARAPTOR_GRID_CHECK=off trusts the formula.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %klaraptor-clangxx --klaraptor-emulate -O2 %s -o %t/swapped
// RUN: env KLARAPTOR_LOG=%t/tune.json %t/swapped 130 120 2>&1 | FileCheck %s --check-prefix=TUNE
// TUNE: klaraptor: warning: kernel 'scale': the pragma's grid formula gives grid 5x15x1 for the program's own block 32x8x1 at R=130, C=120, smaller than the grid 4x17x1 the program launches: the formula does not match the kernel's indexing (check grid(...) at {{.*}}grid-check.cu:{{[0-9]+}}:9; KLARAPTOR_GRID_CHECK=off trusts it); launching as requested
// TUNE-NEXT: scale 130x120: ok
// RUN: %python -c "import json; d=json.loads(open('%t/tune.json').readline()); print(d['source'], d['reason'], d['block'])" | FileCheck %s --check-prefix=TUNELOG
// TUNELOG: fallback grid formula disagrees with the launch [32, 8, 1]
// RUN: not klaraptor profile --sizes 130 --db %t/p.db -- %t/swapped {N} 120 > %t/prof.txt 2>&1
// RUN: FileCheck %s --check-prefix=PROF < %t/prof.txt
// PROF-DAG: klaraptor: warning: kernel 'scale': the pragma's grid formula gives grid 5x15x1 for the program's own block 32x8x1 at R=130, C=120, smaller than the grid 4x17x1 the program launches: {{.*}}; not profiled (its other shapes would leave data unprocessed), launching as requested
// PROF-DAG: scale 130x120: ok
// PROF-DAG: klaraptor: warning: no annotated launch was profiled
// RUN: env KLARAPTOR_GRID_CHECK=off klaraptor profile --sizes 130 --db %t/q.db -- %t/swapped {N} 120 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: grid formula
// OFF: _Z5scalePfii 1 data sizes, 51 samples (51 ok)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// x over the columns (C), y over the rows (R); the formula says otherwise.
#pragma klaraptor data(R = rows, C = cols) block(bx, by) \
    grid(ceildiv(R, bx), ceildiv(C, by))
__global__ void scale(float *a, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    a[r * cols + c] *= 2.0f;
}

int main(int argc, char **argv) {
  int R = argc > 1 ? std::atoi(argv[1]) : 130;
  int C = argc > 2 ? std::atoi(argv[2]) : 120;
  size_t n = size_t(R) * C;
  float *h = (float *)std::malloc(n * sizeof(float)), *d;
  for (size_t i = 0; i < n; ++i)
    h[i] = float(i % 7);
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(32, 8), grid((C + 31) / 32, (R + 7) / 8);
  scale<<<grid, block>>>(d, R, C);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (size_t i = 0; i < n; ++i)
    bad += h[i] != 2.0f * float(i % 7);
  std::printf("scale %dx%d: %s\n", R, C, bad ? "WRONG" : "ok");
  cudaFree(d);
  std::free(h);
  return bad != 0;
}
