//===- KernelAnnotator.h - attach parsed pragmas to their kernels -*- C++ -*-===//
///
/// \file
/// KernelAnnotator is the AST consumer of KlaraptorPluginAction. It runs
/// before the main consumer (code generation), walks the top-level
/// declarations in source order (looking inside namespaces and linkage
/// specifications) and gives each queued pragma the first declaration after
/// it. That declaration must be a non-template `__global__` function; the
/// pragma's names are then resolved against the kernel's parameters and the
/// resulting KernelSpec is attached, as an implicit `annotate` attribute, to
/// every declaration of the kernel (later redeclarations inherit it).
///
/// On the device side of a CUDA compile it does nothing.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PRAGMAS_KERNELANNOTATOR_H
#define KLARAPTOR_PRAGMAS_KERNELANNOTATOR_H

#include "PragmaQueue.h"

#include "clang/AST/ASTConsumer.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <optional>

namespace clang {
class CompilerInstance;
class Decl;
class FunctionDecl;
class DiagnosticsEngine;
class Preprocessor;
class SourceManager;
} // namespace clang

namespace klaraptor {

class KernelAnnotator : public clang::ASTConsumer {
public:
  explicit KernelAnnotator(clang::CompilerInstance &CI);
  ~KernelAnnotator() override;

  void Initialize(clang::ASTContext &Context) override;
  bool HandleTopLevelDecl(clang::DeclGroupRef DG) override;
  void HandleTranslationUnit(clang::ASTContext &Context) override;

private:
  clang::Preprocessor &PP;
  clang::DiagnosticsEngine &Diags;
  clang::ASTContext *Ctx = nullptr;
  /// False on the device side of a CUDA compile.
  bool Active;
  std::shared_ptr<PragmaQueue> Queue;
  /// The pragma already attached to each kernel (by canonical declaration).
  llvm::DenseMap<const clang::FunctionDecl *, clang::SourceLocation> Claimed;

  clang::SourceManager &sourceManager() const;
  /// Whether \p A comes before \p B in the translation unit.
  bool isBefore(clang::SourceLocation A, clang::SourceLocation B) const;

  void visit(clang::Decl *D);
  /// Reports every queued pragma before \p Loc as not followed by a kernel.
  void rejectPragmasBefore(clang::SourceLocation Loc);
  /// Gives pragma \p P to declaration \p D.
  void claim(ParsedPragma &P, clang::Decl *D);
  /// The spec of \p P for kernel \p FD, or nothing after reporting errors.
  std::optional<KernelSpec> buildSpec(const ParsedPragma &P,
                                      const clang::FunctionDecl &FD);
};

} // namespace klaraptor

#endif // KLARAPTOR_PRAGMAS_KERNELANNOTATOR_H
