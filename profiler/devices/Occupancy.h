//===- Occupancy.h - resident blocks per SM from a device profile ---------===//
///
/// \file
/// The occupancy calculation behind
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor in the emulated runtime, from
/// a DeviceProfile and a kernel's resources. Four limits, the smallest wins
/// (docs/emulator.md, "Occupancy"):
///   warps      maxWarpsPerSM / ceil(T / warpSize)
///   blocks     maxBlocksPerMultiProcessor
///   registers  per warp: ceil(R * warpSize / regAllocUnit) * regAllocUnit;
///              each of the smSubPartitions quarters of the register file
///              holds floor(regsPerSM / parts / perWarp) warps
///   shared     ceil((static + dynamic + reserved) / unit) * unit per block,
///              against the SM's shared-memory configuration
/// and a block that cannot fit at all (too many threads, registers or
/// shared memory for one block) gives 0.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_DEVICES_OCCUPANCY_H
#define KLARAPTOR_PROFILER_DEVICES_OCCUPANCY_H

#include "DeviceProfile.h"

namespace klaraptor::devices {

/// What a kernel needs, as cudaFuncGetAttributes reports it.
struct KernelResources {
  int64_t Registers = 0;         ///< per thread; 0 when unknown
  int64_t StaticSharedBytes = 0; ///< per block
  /// cudaFuncAttributeMaxDynamicSharedMemorySize; -1: the default
  /// (sharedMemPerBlock - static).
  int64_t MaxDynamicSharedBytes = -1;
  /// cudaFuncAttributePreferredSharedMemoryCarveout in percent; -1: none.
  int64_t CarveoutPercent = -1;
  int64_t MaxThreadsPerBlock = 0; ///< .maxntid product; 0 when absent
};

struct Occupancy {
  int64_t ActiveBlocks = 0; ///< resident blocks per SM (the minimum below)
  int64_t LimitWarps = 0, LimitBlocks = 0, LimitRegisters = 0,
          LimitSharedMem = 0;
  int64_t WarpsPerBlock = 0;
  int64_t RegistersPerBlock = 0; ///< allocated
  int64_t SharedMemPerBlock = 0; ///< allocated, reservation included
  int64_t SharedMemPerSM = 0;    ///< the SM configuration used
  const char *Limiter = "";      ///< "warps", "blocks", "registers", "shared"
                                 ///< or "block does not fit"
};

/// Occupancy of \p K launched with \p BlockSize threads and \p DynamicShared
/// bytes of dynamic shared memory on \p P.
Occupancy computeOccupancy(const DeviceProfile &P, const KernelResources &K,
                           int64_t BlockSize, int64_t DynamicShared);

/// The largest block \p K can be launched with on \p P: the device limit,
/// the kernel's own limit, and what its registers allow for one block.
int64_t maxThreadsPerBlock(const DeviceProfile &P, const KernelResources &K);

/// The dynamic shared memory \p K may use by default or as raised.
int64_t maxDynamicSharedBytes(const DeviceProfile &P, const KernelResources &K);

/// The smallest shared-memory capacity of the SM (a carveout) that holds
/// \p Bytes, or -1 when none does.
int64_t sharedMemCarveout(const DeviceProfile &P, int64_t Bytes);

} // namespace klaraptor::devices

#endif // KLARAPTOR_PROFILER_DEVICES_OCCUPANCY_H
