//===- Occupancy.cpp - resident blocks per SM from a device profile -------===//
///
/// \file
/// The calculation documented in Occupancy.h and docs/emulator.md. Every
/// per-architecture number comes from the DeviceProfile.
//===----------------------------------------------------------------------===//
#include "Occupancy.h"

#include <algorithm>
#include <limits>

namespace klaraptor::devices {

static int64_t ceilDiv(int64_t A, int64_t B) { return (A + B - 1) / B; }
static int64_t roundUp(int64_t A, int64_t B) { return ceilDiv(A, B) * B; }

int64_t sharedMemCarveout(const DeviceProfile &P, int64_t Bytes) {
  for (int64_t KiB : P.SharedMemCarveoutKiB)
    if (KiB * 1024 >= Bytes)
      return KiB * 1024;
  return -1;
}

int64_t maxDynamicSharedBytes(const DeviceProfile &P,
                              const KernelResources &K) {
  if (K.MaxDynamicSharedBytes >= 0)
    return K.MaxDynamicSharedBytes;
  return std::max<int64_t>(0, P.SharedMemPerBlock - K.StaticSharedBytes);
}

/// Registers one warp is allocated (per-warp granularity).
static int64_t registersPerWarp(const DeviceProfile &P, int64_t Registers) {
  return roundUp(Registers * P.WarpSize, P.RegAllocUnitSize);
}

/// Whether a block of \p Warps warps fits the per-block register limit.
static bool registersFit(const DeviceProfile &P, int64_t Registers,
                         int64_t Warps) {
  if (Registers <= 0)
    return true;
  if (Registers > P.MaxRegsPerThread)
    return false;
  if (!P.RegAllocPerWarp)
    return roundUp(Registers * P.WarpSize * Warps, P.RegAllocUnitSize) <=
           P.RegsPerBlock;
  int64_t PerWarp = registersPerWarp(P, Registers);
  // The launch check assumes a block's warps spread over every
  // sub-partition, so the warp count is rounded up to their number.
  return PerWarp * Warps <= P.RegsPerBlock &&
         PerWarp * roundUp(Warps, P.SmSubPartitions) <= P.RegsPerBlock;
}

int64_t maxThreadsPerBlock(const DeviceProfile &P, const KernelResources &K) {
  int64_t Limit = P.MaxThreadsPerBlock;
  if (K.MaxThreadsPerBlock > 0)
    Limit = std::min(Limit, K.MaxThreadsPerBlock);
  if (K.Registers <= 0)
    return Limit;
  int64_t Warps = ceilDiv(Limit, P.WarpSize);
  while (Warps > 0 && !registersFit(P, K.Registers, Warps))
    --Warps;
  return std::min(Limit, Warps * P.WarpSize);
}

Occupancy computeOccupancy(const DeviceProfile &P, const KernelResources &K,
                           int64_t BlockSize, int64_t DynamicShared) {
  Occupancy O;
  const int64_t Inf = std::numeric_limits<int64_t>::max();
  if (BlockSize <= 0 || BlockSize > maxThreadsPerBlock(P, K) ||
      DynamicShared < 0) {
    O.Limiter = "block does not fit";
    return O;
  }
  O.WarpsPerBlock = ceilDiv(BlockSize, P.WarpSize);

  O.LimitWarps = P.maxWarpsPerMultiProcessor() / O.WarpsPerBlock;
  O.LimitBlocks = P.MaxBlocksPerMultiProcessor;

  if (K.Registers <= 0) {
    O.LimitRegisters = Inf;
  } else if (P.RegAllocPerWarp) {
    int64_t PerWarp = registersPerWarp(P, K.Registers);
    O.RegistersPerBlock = PerWarp * O.WarpsPerBlock;
    int64_t WarpsPerPart =
        (P.RegsPerMultiprocessor / P.SmSubPartitions) / PerWarp;
    O.LimitRegisters = WarpsPerPart * P.SmSubPartitions / O.WarpsPerBlock;
  } else {
    O.RegistersPerBlock =
        roundUp(K.Registers * P.WarpSize * O.WarpsPerBlock, P.RegAllocUnitSize);
    O.LimitRegisters = P.RegsPerMultiprocessor / O.RegistersPerBlock;
  }

  // Shared memory: what the block asks for, plus what CUDA reserves per
  // block, in allocation units; the SM is configured to the carveout the
  // kernel prefers, or larger when a block would not fit in it.
  int64_t Used = K.StaticSharedBytes + DynamicShared;
  bool SharedFits =
      DynamicShared <= maxDynamicSharedBytes(P, K) &&
      Used <= std::max(P.SharedMemPerBlockOptin, P.SharedMemPerBlock);
  O.SharedMemPerBlock =
      roundUp(Used + P.ReservedSharedMemPerBlock, P.SharedMemAllocUnitSize);
  int64_t PerSM = P.SharedMemPerMultiprocessor;
  if (K.CarveoutPercent >= 0) {
    int64_t Preferred = sharedMemCarveout(
        P, K.CarveoutPercent * P.SharedMemPerMultiprocessor / 100);
    if (Preferred < O.SharedMemPerBlock)
      Preferred = sharedMemCarveout(P, O.SharedMemPerBlock);
    PerSM = Preferred < 0 ? 0 : Preferred;
  }
  O.SharedMemPerSM = PerSM;
  if (!SharedFits || O.SharedMemPerBlock > PerSM)
    O.LimitSharedMem = 0;
  else
    O.LimitSharedMem = O.SharedMemPerBlock ? PerSM / O.SharedMemPerBlock : Inf;

  struct {
    int64_t V;
    const char *Name;
  } Limits[] = {{O.LimitWarps, "warps"},
                {O.LimitBlocks, "blocks"},
                {O.LimitRegisters, "registers"},
                {O.LimitSharedMem, "shared"}};
  O.ActiveBlocks = Inf;
  for (const auto &L : Limits)
    if (L.V < O.ActiveBlocks) {
      O.ActiveBlocks = L.V;
      O.Limiter = L.Name;
    }
  return O;
}

} // namespace klaraptor::devices
