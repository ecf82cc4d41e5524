//===- ModuleImpl.h - a loaded PTX module ---------------------------------===//
///
/// \file
/// What Module owns: the syntax tree, the storage of module-scope .global
/// and .const variables (initialised from their initializers), the kernels'
/// KernelInfo and their decoded KernelPrograms (built at load).
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_MODULEIMPL_H
#define KLARAPTOR_PROFILER_EMU_MODULEIMPL_H

#include "Emulator.h"
#include "Program.h"
#include "PtxAst.h"

#include <atomic>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace klaraptor::emu {

/// Tag of function "addresses" (`mov.u64 %rd, func`): tag | module index.
constexpr uint64_t FunctionAddressTag = 0xfeed000000000000ull;

class ModuleImpl {
public:
  std::unique_ptr<ptx::Module> Ast;

  struct Var {
    const ptx::VarDecl *D = nullptr;
    uint8_t *Data = nullptr;
    uint64_t Size = 0;
  };
  std::vector<Var> Vars;                            ///< .global / .const
  std::unordered_map<std::string, size_t> VarIndex; ///< into Vars
  /// Module-scope .shared variables (static and `.extern` dynamic).
  std::unordered_map<std::string, const ptx::VarDecl *> SharedVars;
  /// Functions by name (definitions win over declarations).
  std::unordered_map<std::string, size_t> FuncIndex;

  std::vector<KernelInfo> Kernels;
  std::vector<std::unique_ptr<KernelProgram>> Programs; ///< parallel to Kernels
  std::unordered_map<std::string, size_t> KernelIndex;

  std::vector<std::pair<uint64_t, uint64_t>> ConstRanges;
  std::atomic<uint64_t> GridCounter{1};

  ModuleImpl() = default;
  ~ModuleImpl();
  ModuleImpl(const ModuleImpl &) = delete;
  ModuleImpl &operator=(const ModuleImpl &) = delete;

  /// Allocates and initialises variables, indexes functions, builds every
  /// kernel. Returns false with \p Error on a malformed module.
  bool init(std::string &Error);

  /// Host address of a .global/.const variable (0 when unknown).
  uint64_t varAddress(const std::string &Name) const;

private:
  std::vector<void *> Allocations;
};

} // namespace klaraptor::emu

#endif // KLARAPTOR_PROFILER_EMU_MODULEIMPL_H
