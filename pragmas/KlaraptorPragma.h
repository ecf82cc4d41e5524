//===- KlaraptorPragma.h - '#pragma klaraptor' handler and action -*- C++ -*-===//
///
/// \file
/// The two clang plugin classes that passes/KlaraptorPlugin.cpp registers:
///
///   - PragmaKlaraptorHandler lexes and parses every `#pragma klaraptor` as the
///     preprocessor meets it, reports syntax errors at the offending token and
///     queues the parsed pragma for the preprocessor that saw it;
///   - KlaraptorPluginAction (an AddBeforeMainAction, so a plain
///     `-fplugin=KlaraptorPlugin.so` activates it) returns a KernelAnnotator
///     that pairs each queued pragma with the declaration that follows it,
///     checks it against the kernel's parameters and attaches the encoded
///     KernelSpec to the kernel as an `annotate` attribute.
///
/// The handler is default-constructed by clang's PragmaHandlerRegistry, so the
/// two share state through PragmaQueue, keyed by the Preprocessor
/// (PragmaQueue.h). The pragma language is described in docs/pragmas.md.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PRAGMAS_KLARAPTORPRAGMA_H
#define KLARAPTOR_PRAGMAS_KLARAPTORPRAGMA_H

#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Pragma.h"

#include <memory>
#include <string>
#include <vector>

namespace klaraptor {

/// Handles `#pragma klaraptor ...`. On the device side of a CUDA compile it
/// only discards the pragma's tokens, so that errors are reported once.
class PragmaKlaraptorHandler : public clang::PragmaHandler {
public:
  PragmaKlaraptorHandler();
  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &FirstToken) override;
};

/// Runs before the main action (code generation or -fsyntax-only) and
/// attaches the parsed pragmas to their kernels. Takes no plugin arguments.
class KlaraptorPluginAction : public clang::PluginASTAction {
protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI,
                    llvm::StringRef InFile) override;
  bool ParseArgs(const clang::CompilerInstance &CI,
                 const std::vector<std::string> &Args) override;
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace klaraptor

#endif // KLARAPTOR_PRAGMAS_KLARAPTORPRAGMA_H
