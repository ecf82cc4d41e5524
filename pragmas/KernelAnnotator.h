//===- KernelAnnotator.h - attach parsed pragmas to their kernels -*- C++ -*-===//
///
/// \file
/// KernelAnnotator is the AST consumer of KlaraptorPluginAction. It runs
/// before the main consumer (code generation), walks the top-level
/// declarations in source order (looking inside namespaces and linkage
/// specifications) and gives each queued pragma the first declaration after
/// it. That declaration must be a `__global__` function or function
/// template; the pragma's names are then resolved against the kernel's
/// parameters and the resulting KernelSpec is attached, as an implicit
/// `annotate` attribute, to every declaration of the kernel (later
/// redeclarations inherit it).
///
/// A kernel template's pragma is checked where it stands (names; the types
/// that do not depend on template parameters) and kept: each specialization
/// of the template (implicit and explicit instantiations, and explicit
/// specializations without a pragma of their own) gets a spec of its own,
/// named with its template arguments (`axpy<float>`) and with its own
/// parameter types, when it reaches this consumer: before code generation
/// sees it (HandleTopLevelDecl), or at the end of the translation unit, when
/// clang emits the instantiations it deferred.
///
/// It also reports each `__managed__` variable (klaraptor-clang++'s
/// klaraptor_host_defines.h marks them with an annotation): clang's CUDA host
/// compile cannot build them.
///
/// On the device side of a CUDA compile it does nothing.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PRAGMAS_KERNELANNOTATOR_H
#define KLARAPTOR_PRAGMAS_KERNELANNOTATOR_H

#include "PragmaQueue.h"

#include "clang/AST/ASTConsumer.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace clang {
class CompilerInstance;
class Decl;
class FunctionDecl;
class FunctionTemplateDecl;
class VarDecl;
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
  /// A kernel template's pragma, kept for its specializations.
  struct TemplatePragma {
    ParsedPragma P;
    /// The declaration after the pragma: its parameter names are the ones
    /// the pragma uses.
    const clang::FunctionDecl *Named = nullptr;
  };
  /// By canonical template declaration.
  std::map<const clang::FunctionTemplateDecl *, TemplatePragma> Templates;

  clang::SourceManager &sourceManager() const;
  /// Whether \p A comes before \p B in the translation unit.
  bool isBefore(clang::SourceLocation A, clang::SourceLocation B) const;

  void visit(clang::Decl *D);
  /// Reports every queued pragma before \p Loc as not followed by a kernel.
  void rejectPragmasBefore(clang::SourceLocation Loc);
  /// Reports \p VD if it is a `__managed__` variable (marked by
  /// klaraptor_host_defines.h), which the host compile cannot build.
  void checkManaged(const clang::VarDecl &VD);
  /// Gives pragma \p P to declaration \p D.
  void claim(ParsedPragma &P, clang::Decl *D);
  /// Keeps pragma \p P of kernel template \p FTD for its specializations.
  void claimTemplate(ParsedPragma &P, clang::FunctionTemplateDecl *FTD);
  /// Gives \p FD, a specialization of an annotated kernel template, that
  /// template's pragma (once; not when it has a pragma of its own).
  void annotateSpecialization(clang::FunctionDecl *FD);
  /// Attaches \p Spec to every declaration of \p FD.
  void attach(clang::FunctionDecl *FD, const KernelSpec &Spec,
              clang::SourceLocation PragmaLoc);
  /// The kernel's name as a person reads it: qualified, with the template
  /// arguments of a specialization (`ns::axpy<float>`).
  std::string kernelName(const clang::FunctionDecl &FD) const;
  /// The spec of \p P for kernel \p FD, or nothing after reporting errors.
  /// Names resolve against \p Named's parameters (the declaration after
  /// the pragma), types are \p FD's. With \p Template (checking a kernel
  /// template's own declaration) a type that depends on a template
  /// parameter is left to the specializations.
  std::optional<KernelSpec> buildSpec(const ParsedPragma &P,
                                      const clang::FunctionDecl &Named,
                                      const clang::FunctionDecl &FD,
                                      bool Template = false);
};

} // namespace klaraptor

#endif // KLARAPTOR_PRAGMAS_KERNELANNOTATOR_H
