// The emulated device is described by a device profile: h100-sxm by
// default, another built-in one or a file with KLARAPTOR_EMU_DEVICE. The
// runtime API, the driver API and the attribute queries agree.
// RUN: %klaraptor-clangxx --klaraptor-emulate %s -o %t
// RUN: %t | FileCheck --check-prefix=H100 %s
// RUN: env KLARAPTOR_EMU_DEVICE=h100-sxm %t | FileCheck --check-prefix=H100 %s
// RUN: env KLARAPTOR_EMU_DEVICE=t4 %t | FileCheck --check-prefix=T4 %s
// RUN: env KLARAPTOR_EMU_DEVICE=a100-sxm4-80gb %t | FileCheck --check-prefix=A100 %s
// RUN: env KLARAPTOR_EMU_DEVICE=h200 %t | FileCheck --check-prefix=H200 %s
// RUN: env KLARAPTOR_EMU_DEVICE=%S/Inputs/custom.device %t | FileCheck --check-prefix=CUSTOM %s
// RUN: env KLARAPTOR_EMU_DEVICE=%S/Inputs/broken.device not %t 2>&1 | FileCheck --check-prefix=BROKEN %s
// RUN: env KLARAPTOR_EMU_DEVICE=v100 not %t 2>&1 | FileCheck --check-prefix=UNKNOWN %s
// RUN: env KLARAPTOR_EMU_DEVICE=%S/Inputs/format2.device not %t 2>&1 | FileCheck --check-prefix=FORMAT2 %s
// RUN: env KLARAPTOR_EMU_DEVICE=%S/Inputs/noformat.device not %t 2>&1 | FileCheck --check-prefix=NOFORMAT %s
// RUN: env KLARAPTOR_EMU_DEVICE=%S/Inputs/unknown-key.device not %t 2>&1 | FileCheck --check-prefix=UNKNOWNKEY %s
// RUN: env KLARAPTOR_EMU_DEVICE=%S/Inputs/missing-key.device not %t 2>&1 | FileCheck --check-prefix=MISSING %s
// RUN: env KLARAPTOR_EMU_DEVICE=%S/Inputs/none.device not %t 2>&1 | FileCheck --check-prefix=NOFILE %s
// The profiles are also installed next to the library, for users to copy.
// RUN: ls %obj_root/share/klaraptor/devices | FileCheck --check-prefix=FILES %s
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

int main() {
  int count = -1;
  cudaError_t e = cudaGetDeviceCount(&count);
  std::printf("devices: %d (%s)\n", count, cudaGetErrorName(e));
  if (e != cudaSuccess)
    return 1;
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  std::printf("name: %s\n", p.name);
  std::printf("cc %d.%d, %d SMs, %zu bytes\n", p.major, p.minor, p.multiProcessorCount,
              p.totalGlobalMem);
  std::printf("per SM: %d threads, %d blocks, %d regs, %zu shared\n",
              p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor,
              p.regsPerMultiprocessor, p.sharedMemPerMultiprocessor);
  std::printf("per block: %d threads (%d %d %d), %d regs, %zu shared, %zu opt-in, %zu reserved\n",
              p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1],
              p.maxThreadsDim[2], p.regsPerBlock, p.sharedMemPerBlock,
              p.sharedMemPerBlockOptin, p.reservedSharedMemPerBlock);
  std::printf("grid: %d %d %d, warp %d, L2 %d\n", p.maxGridSize[0], p.maxGridSize[1],
              p.maxGridSize[2], p.warpSize, p.l2CacheSize);

  // Attributes agree with the properties.
  int sms = 0, major = 0, clock = 0, smem = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  std::printf("attributes: %d SMs, cc %d, clock %d kHz, opt-in %d\n", sms, major, clock, smem);
  int v = 0;
  std::printf("attribute of device 1: %s\n",
              cudaGetErrorName(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1)));
  std::printf("cudaSetDevice(1): %s\n", cudaGetErrorName(cudaSetDevice(1)));

  // The driver API sees the same device.
  cuInit(0);
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  char name[256];
  cuDeviceGetName(name, sizeof name, dev);
  int drvSms = 0;
  cuDeviceGetAttribute(&drvSms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  size_t mem = 0;
  cuDeviceTotalMem(&mem, dev);
  std::printf("driver: %s, %d SMs, %zu bytes\n", name, drvSms, mem);
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  std::printf("versions: runtime %d, driver %d\n", rt, drv);
  return 0;
}
// H100: devices: 1 (cudaSuccess)
// H100-NEXT: name: NVIDIA H100 80GB HBM3
// H100-NEXT: cc 9.0, 132 SMs, 85899345920 bytes
// H100-NEXT: per SM: 2048 threads, 32 blocks, 65536 regs, 233472 shared
// H100-NEXT: per block: 1024 threads (1024 1024 64), 65536 regs, 49152 shared, 232448 opt-in, 1024 reserved
// H100-NEXT: grid: 2147483647 65535 65535, warp 32, L2 52428800
// H100-NEXT: attributes: 132 SMs, cc 9, clock 1980000 kHz, opt-in 232448
// H100-NEXT: attribute of device 1: cudaErrorInvalidDevice
// H100-NEXT: cudaSetDevice(1): cudaErrorInvalidDevice
// H100-NEXT: driver: NVIDIA H100 80GB HBM3, 132 SMs, 85899345920 bytes
// H100-NEXT: versions: runtime 13000, driver 13000

// T4: name: Tesla T4
// T4-NEXT: cc 7.5, 40 SMs, 17179869184 bytes
// T4-NEXT: per SM: 1024 threads, 16 blocks, 65536 regs, 65536 shared
// T4-NEXT: per block: 1024 threads (1024 1024 64), 65536 regs, 49152 shared, 65536 opt-in, 0 reserved
// T4: attributes: 40 SMs, cc 7, clock 1590000 kHz, opt-in 65536

// A100: name: NVIDIA A100-SXM4-80GB
// A100-NEXT: cc 8.0, 108 SMs, 85899345920 bytes
// A100-NEXT: per SM: 2048 threads, 32 blocks, 65536 regs, 167936 shared

// H200 inherits from h100-sxm and changes the memory.
// H200: name: NVIDIA H200
// H200-NEXT: cc 9.0, 132 SMs, 151397597184 bytes
// H200-NEXT: per SM: 2048 threads, 32 blocks, 65536 regs, 233472 shared

// CUSTOM: name: Test GPU
// CUSTOM-NEXT: cc 7.5, 7 SMs, 17179869184 bytes
// CUSTOM: driver: Test GPU, 7 SMs

// BROKEN: klaraptor emulator: error: KLARAPTOR_EMU_DEVICE: {{.*}}broken.device:3: 'multiProcessorCount' expects a non-negative integer, not 'many'; no CUDA device is emulated
// BROKEN: devices: 0 (cudaErrorNoDevice)

// UNKNOWN: klaraptor emulator: error: KLARAPTOR_EMU_DEVICE: unknown device profile 'v100' (built-in profiles: a100-sxm4-80gb h100-sxm h200 h200-probed rtx-2070-super rtx-4090 t4; or give a file path); no CUDA device is emulated
// UNKNOWN: devices: 0 (cudaErrorNoDevice)

// FORMAT2: format2.device:1: unsupported profile format '2' (this klaraptor reads format 1)
// NOFORMAT: noformat.device:2: expected 'format = 1' first
// UNKNOWNKEY: unknown-key.device:3: unknown key 'warpsize'
// MISSING: missing-key.device:4: missing required key 'regAllocGranularity'
// NOFILE: cannot read device profile '{{.*}}none.device'

// FILES: a100-sxm4-80gb.device
// FILES: h100-sxm.device
// FILES: h200.device
// FILES: t4.device
