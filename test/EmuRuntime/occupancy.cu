// cudaOccupancyMaxActiveBlocksPerMultiprocessor from the device profile:
// the warp, block, register and shared-memory limits, each checked against
// a value computed by hand below. Register counts are ptxas's (CUDA 13.0,
// sm_90; the first lines check them, so a ptxas that allocates differently
// shows up there first).
// RUN: %klaraptor-clangxx --klaraptor-emulate %s -o %t
// RUN: %t | FileCheck --check-prefix=H100 %s
// RUN: %klaraptor-clangxx --klaraptor-emulate --klaraptor-arch=sm_75 %s -o %t-sm75
// RUN: env KLARAPTOR_EMU_DEVICE=t4 %t-sm75 | FileCheck --check-prefix=T4 %s
// Code for sm_90 only does not load on a compute capability 7.5 device.
// RUN: env KLARAPTOR_EMU_DEVICE=t4 %t 2>&1 | FileCheck --check-prefix=NOIMAGE %s
#include <cuda_runtime.h>
#include <cstdio>

__global__ void tiny(float *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }

__global__ void shared16k(float *p) {
  __shared__ float buf[4096];
  buf[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = buf[4095 - threadIdx.x];
}

// 48 live values per thread: ptxas gives it 56 registers.
__global__ void heavy(float *out, const float *in, int n) {
  float acc[48];
#pragma unroll
  for (int k = 0; k < 48; ++k)
    acc[k] = in[threadIdx.x + k * n];
  float s = 0;
#pragma unroll
  for (int k = 0; k < 48; ++k)
    s += acc[k] * acc[(k * 7 + 3) % 48];
  out[threadIdx.x] = s;
}

__global__ void __launch_bounds__(256) bounded(float *p) { p[threadIdx.x] = 2.0f; }

template <typename K> static int occ(K kernel, int block, size_t dyn = 0) {
  int n = -1;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, block, dyn);
  return e == cudaSuccess ? n : -int(e);
}

int main() {
  cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, heavy);
  if (e != cudaSuccess) {
    std::printf("cudaFuncGetAttributes: %s\n", cudaGetErrorString(e));
    return 0;
  }
  std::printf("heavy: %d registers, max %d threads\n", a.numRegs, a.maxThreadsPerBlock);
  cudaFuncGetAttributes(&a, tiny);
  std::printf("tiny: %d registers\n", a.numRegs);
  cudaFuncGetAttributes(&a, shared16k);
  std::printf("shared16k: %zu bytes shared\n", a.sharedSizeBytes);
  cudaFuncGetAttributes(&a, bounded);
  std::printf("bounded: max %d threads, ptx %d, binary %d\n", a.maxThreadsPerBlock,
              a.ptxVersion, a.binaryVersion);

  std::printf("tiny 1024: %d\n", occ(tiny, 1024));
  std::printf("tiny 32: %d\n", occ(tiny, 32));
  std::printf("tiny 256 + 40000 dynamic: %d\n", occ(tiny, 256, 40000));
  std::printf("tiny 256 + 49152 dynamic: %d\n", occ(tiny, 256, 49152));
  std::printf("tiny 256 + 49153 dynamic: %d\n", occ(tiny, 256, 49153));
  std::printf("shared16k 64: %d\n", occ(shared16k, 64));
  std::printf("heavy 256: %d\n", occ(heavy, 256));
  std::printf("heavy 128: %d\n", occ(heavy, 128));
  std::printf("bounded 512: %d\n", occ(bounded, 512));
  std::printf("tiny 2048: %d\n", occ(tiny, 2048));

  int minGrid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, heavy);
  std::printf("heavy best block %d, min grid %d\n", block, minGrid);
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, tiny);
  std::printf("tiny best block %d, min grid %d\n", block, minGrid);
  size_t avail = 0;
  cudaOccupancyAvailableDynamicSMemPerBlock(&avail, tiny, 4, 256);
  std::printf("dynamic shared for 4 blocks of 256: %zu\n", avail);

  float *p = nullptr;
  cudaMalloc(&p, 4096 * sizeof(float));
  bounded<<<1, 512>>>(p);
  std::printf("launch bounded with 512: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}

// Hand computation, H100 (h100-sxm: 64 warps, 32 blocks, 65536 registers in
// 4 sub-partitions allocated per warp in units of 256, 233472 bytes of
// shared memory in units of 128 plus 1024 reserved per block):
//  tiny (10 regs -> 320 -> 512 per warp; 16384/512 = 32 warps per quarter)
//   1024 threads = 32 warps: warps 64/32 = 2, regs 128/32 = 4        -> 2
//   32 threads: warps 64, regs 128, blocks 32                          -> 32
//   256 + 40000: (40000 + 1024) -> 41088; 233472/41088 = 5             -> 5
//   256 + 49152: 50176; 233472/50176 = 4; 49152 is the default maximum -> 4
//   256 + 49153: above the function's maximum dynamic size              -> 0
//  shared16k 64: (16384 + 1024) = 17408; 233472/17408 = 13              -> 13
//  heavy (56 regs -> 1792 per warp; 16384/1792 = 9 warps per quarter, 36
//   per SM): 256 = 8 warps: 36/8 = 4; 128 = 4 warps: 36/4 = 9            -> 4, 9
//   best block: the largest with the most warps (36): 576 = 18 warps x 2
//   blocks; min grid 2 x 132 SMs = 264
//  tiny best block 1024 (2 x 32 warps = 64), min grid 2 x 132 = 264
//  dynamic shared for 4 blocks of 256: 233472/4 = 58368 -> 58368 - 1024
//   = 57344, but a block may use only 49152 without opt-in             -> 49152
// H100: heavy: 56 registers, max 1024 threads
// H100-NEXT: tiny: 10 registers
// H100-NEXT: shared16k: 16384 bytes shared
// H100-NEXT: bounded: max 256 threads, ptx 90, binary 90
// H100-NEXT: tiny 1024: 2
// H100-NEXT: tiny 32: 32
// H100-NEXT: tiny 256 + 40000 dynamic: 5
// H100-NEXT: tiny 256 + 49152 dynamic: 4
// H100-NEXT: tiny 256 + 49153 dynamic: 0
// H100-NEXT: shared16k 64: 13
// H100-NEXT: heavy 256: 4
// H100-NEXT: heavy 128: 9
// H100-NEXT: bounded 512: 0
// H100-NEXT: tiny 2048: 0
// H100-NEXT: heavy best block 576, min grid 264
// H100-NEXT: tiny best block 1024, min grid 264
// H100-NEXT: dynamic shared for 4 blocks of 256: 49152
// H100-NEXT: launch bounded with 512: cudaErrorLaunchOutOfResources

// T4 (t4: 32 warps, 16 blocks, 65536 registers as above, 65536 bytes of
// shared memory in units of 256, no reservation), code for sm_75:
//  tiny (10 regs, 128 warps by registers): 1024 -> 32/32 = 1; 32 -> 16
//   256 + 40000 -> 40192: 65536/40192 = 1; 256 + 49152: 1; 49153: 0
//  shared16k 64: 65536/16384 = 4
//  heavy (64 regs on sm_75 -> 2048 per warp; 8 warps per quarter, 32 per
//   SM): 256 -> 32/8 = 4, warps 32/8 = 4 -> 4; 128 -> 8
//   best block 1024 (1 block of 32 warps = all), min grid 40
//  dynamic shared for 4 blocks of 256: 65536/4 = 16384
// T4: heavy: 64 registers, max 1024 threads
// T4-NEXT: tiny: 10 registers
// T4-NEXT: shared16k: 16384 bytes shared
// T4-NEXT: bounded: max 256 threads, ptx 75, binary 75
// T4-NEXT: tiny 1024: 1
// T4-NEXT: tiny 32: 16
// T4-NEXT: tiny 256 + 40000 dynamic: 1
// T4-NEXT: tiny 256 + 49152 dynamic: 1
// T4-NEXT: tiny 256 + 49153 dynamic: 0
// T4-NEXT: shared16k 64: 4
// T4-NEXT: heavy 256: 4
// T4-NEXT: heavy 128: 8
// T4-NEXT: bounded 512: 0
// T4-NEXT: tiny 2048: 0
// T4-NEXT: heavy best block 1024, min grid 40
// T4-NEXT: tiny best block 1024, min grid 40
// T4-NEXT: dynamic shared for 4 blocks of 256: 16384
// T4-NEXT: launch bounded with 512: cudaErrorLaunchOutOfResources

// NOIMAGE: klaraptor emulator: error: the program's fatbin holds no PTX for compute_75 or older (it has: compute_90, sm_90)
// NOIMAGE: cudaFuncGetAttributes: no kernel image is available for execution on the device
