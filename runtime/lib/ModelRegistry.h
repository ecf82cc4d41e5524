//===- ModelRegistry.h - the performance models registered by name --------===//
///
/// \file
/// klaraptor_register_model stores a copy of a klaraptor_model under a
/// kernel name, source or device (mangled) name. A kernel's model is the one
/// registered under its device name, else under its source name.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_MODELREGISTRY_H
#define KLARAPTOR_RUNTIME_MODELREGISTRY_H

#include "klaraptor/klaraptor_rt.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace klaraptor {

/// A registered model, copied from the caller's structure.
struct Model {
  std::string Name;
  double (*Predict)(void *Ctx, const int64_t *Data, uint32_t NumData,
                    const klaraptor_candidate *Candidate,
                    const klaraptor_device_info *Device) = nullptr;
  void *Ctx = nullptr;
};

class ModelRegistry {
public:
  /// Registers \p M for \p Kernel; null removes the model.
  void set(const std::string &Kernel, std::shared_ptr<const Model> M);
  /// The model for a kernel with these names, or null.
  std::shared_ptr<const Model> find(const std::string &DeviceName,
                                    const std::string &SourceName) const;

private:
  mutable std::mutex M;
  std::unordered_map<std::string, std::shared_ptr<const Model>> ByName;
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_MODELREGISTRY_H
