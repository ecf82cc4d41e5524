//===- KernelRegistry.cpp - the annotated kernels a process has registered ===//
///
/// \file
/// A name or handle registered twice keeps its first kernel; the later
/// kernel stays reachable through its descriptor.
//===----------------------------------------------------------------------===//
#include "KernelRegistry.h"

namespace klaraptor {

static std::atomic<uint64_t> NextEntryId{1};

KernelEntry::KernelEntry() : Id(NextEntryId.fetch_add(1)) {}

KernelEntry *KernelRegistry::find(const klaraptor_kernel_desc *D) const {
  uintptr_t V = 0;
  return ByDesc.find(D, V) ? reinterpret_cast<KernelEntry *>(V) : nullptr;
}

KernelEntry *KernelRegistry::findHandle(const void *Handle) const {
  uintptr_t V = 0;
  return ByHandle.find(Handle, V) ? reinterpret_cast<KernelEntry *>(V)
                                  : nullptr;
}

KernelEntry *KernelRegistry::findName(const std::string &Name) const {
  std::shared_lock<std::shared_mutex> L(M);
  auto It = ByDeviceName.find(Name);
  if (It != ByDeviceName.end())
    return It->second;
  It = BySourceName.find(Name);
  return It == BySourceName.end() ? nullptr : It->second;
}

KernelEntry *KernelRegistry::insert(std::unique_ptr<KernelEntry> E) {
  std::unique_lock<std::shared_mutex> L(M);
  if (KernelEntry *Known = find(E->Desc))
    return Known;
  KernelEntry *P = E.get();
  Entries.push_back(std::move(E));
  if (P->Status != KLARAPTOR_ERR_ABI) {
    if (P->HostHandle)
      ByHandle.insert(P->HostHandle, reinterpret_cast<uintptr_t>(P));
    if (!P->DeviceName.empty())
      ByDeviceName.emplace(P->DeviceName, P);
    if (!P->SourceName.empty())
      BySourceName.emplace(P->SourceName, P);
  }
  // Last: a launch that finds the descriptor finds everything else.
  ByDesc.insert(P->Desc, reinterpret_cast<uintptr_t>(P));
  Registrations.fetch_add(1, std::memory_order_release);
  return P;
}

void KernelRegistry::forEach(const std::function<void(KernelEntry &)> &F) const {
  std::vector<KernelEntry *> All;
  {
    std::shared_lock<std::shared_mutex> L(M);
    for (const auto &E : Entries)
      All.push_back(E.get());
  }
  for (KernelEntry *E : All)
    F(*E);
}

bool KernelRegistry::findFunction(void *F, KernelEntry *&E) const {
  uintptr_t V = 0;
  if (!ByFunction.find(F, V))
    return false;
  if (V & 1) {
    // Not annotated when looked up; a kernel registered since may be it.
    if ((V >> 1) != Registrations.load(std::memory_order_acquire))
      return false;
    E = nullptr;
    return true;
  }
  E = reinterpret_cast<KernelEntry *>(V);
  return true;
}

void KernelRegistry::cacheFunction(void *F, KernelEntry *E,
                                   uint64_t RegistrationsSeen) {
  uintptr_t V = E ? reinterpret_cast<uintptr_t>(E)
                  : uintptr_t(RegistrationsSeen << 1) | 1;
  ByFunction.set(F, V);
}

} // namespace klaraptor
