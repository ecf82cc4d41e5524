//===- ModelRegistry.cpp - the performance models registered by name ------===//
///
/// \file
/// Looked up on decisions only (never on memoised launches), so a mutex
/// suffices.
//===----------------------------------------------------------------------===//
#include "ModelRegistry.h"

namespace klaraptor {

void ModelRegistry::set(const std::string &Kernel,
                        std::shared_ptr<const Model> TheModel) {
  std::lock_guard<std::mutex> G(M);
  if (TheModel)
    ByName[Kernel] = std::move(TheModel);
  else
    ByName.erase(Kernel);
}

std::shared_ptr<const Model>
ModelRegistry::find(const std::string &DeviceName,
                    const std::string &SourceName) const {
  std::lock_guard<std::mutex> G(M);
  if (!DeviceName.empty()) {
    auto It = ByName.find(DeviceName);
    if (It != ByName.end())
      return It->second;
  }
  if (!SourceName.empty()) {
    auto It = ByName.find(SourceName);
    if (It != ByName.end())
      return It->second;
  }
  return nullptr;
}

} // namespace klaraptor
