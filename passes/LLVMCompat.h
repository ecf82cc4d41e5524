//===- LLVMCompat.h - every LLVM-version difference the passes meet -------===//
///
/// \file
/// The passes are written against LLVM 19. Whatever changed in the LLVM C++
/// API between the versions we build with is wrapped here, and only here, so
/// that a port to another LLVM touches one file.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PASSES_LLVMCOMPAT_H
#define KLARAPTOR_PASSES_LLVMCOMPAT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <dlfcn.h>

// Opaque pointers (LLVM 17 dropped typed ones) are assumed throughout.
static_assert(LLVM_VERSION_MAJOR >= 17,
              "klaraptor's passes need LLVM 17 or newer (opaque pointers)");

namespace klaraptor {
namespace compat {

/// `StringRef::startswith` became `starts_with` in LLVM 18 (both exist in 17).
inline bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) {
#if LLVM_VERSION_MAJOR >= 18
  return S.starts_with(Prefix);
#else
  return S.startswith(Prefix);
#endif
}

/// The (opaque) pointer type of address space \p AS.
inline llvm::PointerType *ptrTy(llvm::LLVMContext &C, unsigned AS = 0) {
  return llvm::PointerType::get(C, AS);
}

/// `Intrinsic::getDeclaration` is `Intrinsic::getOrInsertDeclaration` from
/// LLVM 20 on.
inline llvm::Function *intrinsic(llvm::Module &M, llvm::Intrinsic::ID ID,
                                 llvm::ArrayRef<llvm::Type *> Tys) {
#if LLVM_VERSION_MAJOR >= 20
  return llvm::Intrinsic::getOrInsertDeclaration(&M, ID, Tys);
#else
  return llvm::Intrinsic::getDeclaration(&M, ID, Tys);
#endif
}

/// Whether the process that loaded the plugin is clang: its registries of
/// pragma handlers and plugin actions are there. KlaraptorPlugin.so names
/// clang's symbols weakly (passes/CMakeLists.txt), so in opt, which has no
/// libclang-cpp, they are null and the frontend half must stay unregistered.
/// The names are `llvm::Registry<clang::PragmaHandler>::add_node` and
/// `llvm::Registry<clang::PluginASTAction>::add_node`, as Itanium-mangled
/// for the Registry API of LLVM 17 to 20.
inline bool clangFrontendPresent() {
  return dlsym(RTLD_DEFAULT, "_ZN4llvm8RegistryIN5clang13PragmaHandlerEE8"
                             "add_nodeEPNS3_4nodeE") &&
         dlsym(RTLD_DEFAULT, "_ZN4llvm8RegistryIN5clang15PluginASTActionEE8"
                             "add_nodeEPNS3_4nodeE");
}

} // namespace compat
} // namespace klaraptor

#endif // KLARAPTOR_PASSES_LLVMCOMPAT_H
