//===- ModelRegistry.h - the performance models registered by name --------===//
///
/// \file
/// klaraptor_register_model stores a copy of a klaraptor_model under a
/// kernel name, source or device (mangled) name. A kernel's model is the one
/// registered under its device name, else under its portable device name
/// (below), else under its source name.
///
/// nvcc names a kernel in an anonymous namespace after where its file is
/// (`_ZN35_GLOBAL__N__454c96d6_7_anon_cu_main4stepEPf`): the same file built
/// in another folder gets another name, and a model fitted from one build
/// would miss the other. Such a name's portable form puts back the
/// namespace's plain mangling (`_ZN12_GLOBAL__N_14stepEPf`, what clang
/// writes), and a model registered under the one is found by the other.
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
  /// By portableName(), for the names that have another portable form.
  std::unordered_map<std::string, std::shared_ptr<const Model>> ByPortable;
};

/// \p Mangled with each nvcc anonymous-namespace component
/// (`<len>_GLOBAL__N__<hash>_<file>...`) written as clang writes the
/// anonymous namespace (`12_GLOBAL__N_1`); \p Mangled itself when it has
/// none.
std::string portableName(const std::string &Mangled);

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_MODELREGISTRY_H
