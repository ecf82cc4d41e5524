//===- KernelRegistry.h - the annotated kernels a process has registered --===//
///
/// \file
/// One KernelEntry per kernel descriptor, indexed by the descriptor's
/// address, its host stub, its device (mangled) name and its source name,
/// plus a cache of the CUfunctions already resolved to a kernel. Entries
/// live until the process ends: hooks may run in any thread at any time.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_KERNELREGISTRY_H
#define KLARAPTOR_RUNTIME_KERNELREGISTRY_H

#include "ConcurrentPtrMap.h"
#include "DeviceQuery.h"
#include "History.h"
#include "Refinement.h"
#include "KernelSpec.h"
#include "klaraptor/klaraptor_rt.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace klaraptor {

/// Everything the runtime knows about one annotated kernel.
struct KernelEntry {
  KernelEntry();
  /// Unique in the process, across Runtime instances (thread caches).
  uint64_t Id;
  const klaraptor_kernel_desc *Desc = nullptr;
  /// KLARAPTOR_OK, or why every launch of the kernel keeps its request
  /// (KLARAPTOR_ERR_ABI, KLARAPTOR_ERR_BAD_SPEC).
  klaraptor_status Status = KLARAPTOR_OK;
  std::string DeviceName;
  std::string SourceName;
  const void *HostHandle = nullptr;
  klaraptor_data_fn DataFn = nullptr;
  std::optional<KernelSpec> Spec;
  /// How many values the data expressions read: the spec's ParamRefs.
  unsigned NumParamSlots = 0;

  History Hist;
  /// Serialises decisions, so that one key is decided once.
  std::mutex DecideMutex;
  /// Per (device, CUfunction) kernel limits, under DecideMutex.
  std::map<std::pair<int, void *>, DeviceQuery::KernelLimits> Limits;
  /// The online refinements of this kernel's decisions (under DecideMutex;
  /// never freed before the entry, so a decision's pointer stays valid).
  std::vector<std::unique_ptr<Refinement>> Refinements;
  /// Refinements per kernel at most (a program with ever-new sizes stops
  /// refining new ones beyond it).
  static constexpr size_t MaxRefinements = 4096;

  bool usable() const { return Status == KLARAPTOR_OK && Spec.has_value(); }
  /// The name diagnostics use.
  const std::string &displayName() const {
    return SourceName.empty() ? DeviceName : SourceName;
  }
};

class KernelRegistry {
public:
  /// The entry of descriptor \p D, or null. Hot path.
  KernelEntry *find(const klaraptor_kernel_desc *D) const;
  /// The entry whose host stub is \p Handle, or null. Hot path.
  KernelEntry *findHandle(const void *Handle) const;
  /// The entry with device name \p Name, else with source name \p Name.
  KernelEntry *findName(const std::string &Name) const;

  /// Adds \p E unless its descriptor is known; returns the entry kept.
  KernelEntry *insert(std::unique_ptr<KernelEntry> E);

  /// Calls \p F on every entry.
  void forEach(const std::function<void(KernelEntry &)> &F) const;

  /// The kernel a CUfunction was resolved to: returns false when \p F has
  /// not been resolved since the last kernel registration, else sets \p E
  /// (null: not an annotated kernel). Hot path for driver-API launches.
  bool findFunction(void *F, KernelEntry *&E) const;
  /// Records what \p F resolved to; \p Registrations is registrations()
  /// as read before resolving.
  void cacheFunction(void *F, KernelEntry *E, uint64_t Registrations);
  /// How many kernels have been registered.
  uint64_t registrations() const {
    return Registrations.load(std::memory_order_acquire);
  }

private:
  mutable std::shared_mutex M;
  std::vector<std::unique_ptr<KernelEntry>> Entries;
  std::unordered_map<std::string, KernelEntry *> ByDeviceName;
  std::unordered_map<std::string, KernelEntry *> BySourceName;
  // Lock-free lookups for the launch paths.
  ConcurrentPtrMap ByDesc;
  ConcurrentPtrMap ByHandle;
  /// CUfunction -> KernelEntry*, or (registration count << 1 | 1) for a
  /// function that was not an annotated kernel at that count.
  ConcurrentPtrMap ByFunction;
  std::atomic<uint64_t> Registrations{0};
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_KERNELREGISTRY_H
