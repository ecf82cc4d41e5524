//===- ModelRegistry.cpp - the performance models registered by name ------===//
///
/// \file
/// Looked up on decisions only (never on memoised launches), so a mutex
/// suffices.
//===----------------------------------------------------------------------===//
#include "ModelRegistry.h"

namespace klaraptor {

std::string portableName(const std::string &Mangled) {
  static const std::string Marker = "_GLOBAL__N_";
  static const std::string Plain = "12_GLOBAL__N_1";
  std::string Out;
  size_t Done = 0;
  for (size_t At = Mangled.find(Marker); At != std::string::npos;
       At = Mangled.find(Marker, At + Marker.size())) {
    // <length><identifier>: the digits right before the marker.
    size_t Digits = At;
    while (Digits > Done && Mangled[Digits - 1] >= '0' &&
           Mangled[Digits - 1] <= '9')
      --Digits;
    if (Digits == At || At - Digits > 4)
      continue;
    size_t Len = std::stoul(Mangled.substr(Digits, At - Digits));
    if (Len <= Marker.size() || At + Len > Mangled.size())
      continue;
    Out += Mangled.substr(Done, Digits - Done) + Plain;
    Done = At + Len;
  }
  if (Done == 0)
    return Mangled;
  return Out + Mangled.substr(Done);
}

void ModelRegistry::set(const std::string &Kernel,
                        std::shared_ptr<const Model> TheModel) {
  std::lock_guard<std::mutex> G(M);
  const std::string Portable = portableName(Kernel);
  if (TheModel) {
    if (Portable != Kernel)
      ByPortable[Portable] = TheModel;
    ByName[Kernel] = std::move(TheModel);
  } else {
    ByName.erase(Kernel);
    if (Portable != Kernel)
      ByPortable.erase(Portable);
  }
}

std::shared_ptr<const Model>
ModelRegistry::find(const std::string &DeviceName,
                    const std::string &SourceName) const {
  std::lock_guard<std::mutex> G(M);
  if (!DeviceName.empty()) {
    auto It = ByName.find(DeviceName);
    if (It != ByName.end())
      return It->second;
    if (!ByPortable.empty()) {
      auto P = ByPortable.find(portableName(DeviceName));
      if (P != ByPortable.end())
        return P->second;
    }
  }
  if (!SourceName.empty()) {
    auto It = ByName.find(SourceName);
    if (It != ByName.end())
      return It->second;
  }
  return nullptr;
}

} // namespace klaraptor
