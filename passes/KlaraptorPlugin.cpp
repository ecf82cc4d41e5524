//===- KlaraptorPlugin.cpp - every entry point of KlaraptorPlugin.so -------===//
///
/// \file
/// KlaraptorPlugin.so is both a clang plugin and an LLVM pass plugin:
///
///   clang++-19 -fplugin=KlaraptorPlugin.so -fpass-plugin=KlaraptorPlugin.so ...
///   opt -load-pass-plugin=KlaraptorPlugin.so -passes=klaraptor-io-builder ...
///
/// This is the only file that registers anything: the `#pragma klaraptor`
/// handler, the frontend action that attaches parsed pragmas to kernels, and
/// the IO-builder pass.
//===----------------------------------------------------------------------===//
#include "IOBuilder.h"
#include "KlaraptorPragma.h"

#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

static clang::PragmaHandlerRegistry::Add<klaraptor::PragmaKlaraptorHandler>
    KlaraptorPragma("klaraptor", "klaraptor kernel launch annotations");

static clang::FrontendPluginRegistry::Add<klaraptor::KlaraptorPluginAction>
    KlaraptorAction("klaraptor",
                    "attach '#pragma klaraptor' annotations to CUDA kernels");

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "klaraptor", "0.1.0",
          [](llvm::PassBuilder &PB) { klaraptor::registerIOBuilder(PB); }};
}
