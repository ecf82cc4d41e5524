//===- KlaraptorPlugin.cpp - every entry point of KlaraptorPlugin.so ------===//
///
/// \file
/// KlaraptorPlugin.so is both a clang plugin and an LLVM pass plugin:
///
///   clang++-19 -fplugin=KlaraptorPlugin.so -fpass-plugin=KlaraptorPlugin.so
///   opt -load-pass-plugin=KlaraptorPlugin.so -passes=klaraptor-io-builder ...
///
/// This is the only file that registers anything: the `#pragma klaraptor`
/// handler, the frontend action that attaches parsed pragmas to kernels, the
/// device-names pass and the IO-builder pass.
///
/// The plugin links no Clang library: inside clang the Clang symbols come from
/// clang's own libclang-cpp, and they are weak references (see
/// passes/CMakeLists.txt), because opt cannot load libclang-cpp (both define
/// the option `-pgo-cold-func-opt`, and LLVM aborts on the second
/// registration). So the frontend half registers itself only when clang is
/// the host; in opt only the pass is there.
//===----------------------------------------------------------------------===//
#include "DeviceNames.h"
#include "IOBuilder.h"
#include "KlaraptorPragma.h"
#include "LLVMCompat.h"

#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

namespace {

void registerFrontend() {
  static clang::PragmaHandlerRegistry::Add<klaraptor::PragmaKlaraptorHandler>
      KlaraptorPragma("klaraptor", "klaraptor kernel launch annotations");
  static clang::FrontendPluginRegistry::Add<klaraptor::KlaraptorPluginAction>
      KlaraptorAction("klaraptor",
                      "attach '#pragma klaraptor' annotations to CUDA kernels");
}

[[maybe_unused]] const bool FrontendRegistered = [] {
  if (!klaraptor::compat::clangFrontendPresent())
    return false;
  registerFrontend();
  return true;
}();

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "klaraptor", "0.1.0",
          [](llvm::PassBuilder &PB) {
            // In this order: the IO-builder reads the names the device-names
            // pass gives the kernels.
            klaraptor::registerDeviceNames(PB);
            klaraptor::registerIOBuilder(PB);
          }};
}
