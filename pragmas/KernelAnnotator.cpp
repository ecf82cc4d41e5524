//===- KernelAnnotator.cpp - attach parsed pragmas to their kernels -------===//
///
/// \file
/// Pragmas and declarations meet by source location, not by the order in
/// which the parser hands them over: the parser reads one token ahead, so a
/// pragma is often queued before the declaration in front of it reaches
/// HandleTopLevelDecl, and a namespace reaches it only when it closes.
//===----------------------------------------------------------------------===//
#include "KernelAnnotator.h"
#include "PragmaDiagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace clang;

namespace klaraptor {

KernelAnnotator::KernelAnnotator(CompilerInstance &CI)
    : PP(CI.getPreprocessor()), Diags(CI.getDiagnostics()),
      Active(!CI.getLangOpts().CUDAIsDevice), Queue(PragmaQueue::get(PP)) {
  // Nothing has been parsed yet: whatever is queued was left by an earlier
  // compile whose Preprocessor had the same address.
  Queue->Pending.clear();
}

KernelAnnotator::~KernelAnnotator() { PragmaQueue::release(PP); }

void KernelAnnotator::Initialize(ASTContext &Context) { Ctx = &Context; }

SourceManager &KernelAnnotator::sourceManager() const {
  return PP.getSourceManager();
}

bool KernelAnnotator::isBefore(SourceLocation A, SourceLocation B) const {
  SourceManager &SM = sourceManager();
  // Locations inside one macro expansion share their expansion location;
  // there the tokens' own order decides (a `_Pragma` that a macro expands
  // in front of the kernel it also defines: KERN(a1) KERN(a2)).
  SourceLocation EA = SM.getExpansionLoc(A), EB = SM.getExpansionLoc(B);
  if (EA != EB)
    return SM.isBeforeInTranslationUnit(EA, EB);
  return SM.isBeforeInTranslationUnit(A, B);
}

bool KernelAnnotator::HandleTopLevelDecl(DeclGroupRef DG) {
  if (!Active) {
    Queue->Pending.clear();
    return true;
  }
  for (Decl *D : DG)
    visit(D);
  return true;
}

void KernelAnnotator::HandleTranslationUnit(ASTContext &) {
  if (!Active) {
    Queue->Pending.clear();
    return;
  }
  for (ParsedPragma &P : Queue->Pending)
    if (P.Valid)
      report(Diags, P.Loc, PragmaDiag::NotFollowedByKernel);
  Queue->Pending.clear();
  // The specializations that did not pass through HandleTopLevelDecl before
  // now: clang instantiates the kernels a translation unit uses at its end,
  // and code generation emits them after this consumer's turn.
  for (auto &[FTD, TP] : Templates)
    for (FunctionDecl *FD : FTD->specializations())
      annotateSpecialization(FD);
}

void KernelAnnotator::rejectPragmasBefore(SourceLocation Loc) {
  auto &Pending = Queue->Pending;
  while (!Pending.empty() && isBefore(Pending.front().Loc, Loc)) {
    if (Pending.front().Valid)
      report(Diags, Pending.front().Loc, PragmaDiag::NotFollowedByKernel);
    Pending.pop_front();
  }
}

void KernelAnnotator::visit(Decl *D) {
  auto &Pending = Queue->Pending;
  if ((Pending.empty() && Templates.empty()) || D->getBeginLoc().isInvalid())
    return;
  // An instantiation has its template's source location but comes when
  // clang instantiates it: it takes no queued pragma.
  auto *FD = dyn_cast<FunctionDecl>(D);
  if (FD && isTemplateInstantiation(FD->getTemplateSpecializationKind())) {
    annotateSpecialization(FD);
    return;
  }

  // Look inside namespaces and linkage specifications. A braced one is itself
  // a declaration, so a pragma right in front of it has no kernel to go to;
  // neither has one left at its end.
  auto VisitBraced = [&](DeclContext *DC, bool Braced) {
    if (Braced)
      rejectPragmasBefore(D->getBeginLoc());
    for (Decl *Child : DC->decls())
      visit(Child);
    if (Braced)
      rejectPragmasBefore(D->getEndLoc());
  };
  if (auto *NS = dyn_cast<NamespaceDecl>(D))
    return VisitBraced(NS, true);
  if (auto *LS = dyn_cast<LinkageSpecDecl>(D))
    return VisitBraced(LS, LS->hasBraces());
  if (D->isImplicit())
    return;

  // Every pragma before the end of D belongs to D: it precedes D, or it is
  // inside D (a function body, a class) where no kernel can follow it.
  while (!Pending.empty() && isBefore(Pending.front().Loc, D->getEndLoc())) {
    ParsedPragma P = std::move(Pending.front());
    Pending.pop_front();
    if (isBefore(P.Loc, D->getBeginLoc()))
      claim(P, D);
    else if (P.Valid)
      report(Diags, P.Loc, PragmaDiag::NotFollowedByKernel);
  }
  // An explicit specialization without a pragma of its own takes its
  // template's; code generation emits it right after this.
  if (FD && FD->getTemplateSpecializationKind() == TSK_ExplicitSpecialization)
    annotateSpecialization(FD);
}

void KernelAnnotator::claim(ParsedPragma &P, Decl *D) {
  // What was wrong with an invalid pragma has been reported already.
  if (!P.Valid)
    return;
  if (auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
    return claimTemplate(P, FTD);
  auto *FD = dyn_cast<FunctionDecl>(D);
  if (!FD || !FD->hasAttr<CUDAGlobalAttr>()) {
    report(Diags, P.Loc, PragmaDiag::NotFollowedByKernel);
    return;
  }
  // A plain kernel, or an explicit specialization of a kernel template
  // (template <> __global__ void k<int>(...)), whose own pragma wins over
  // its template's.
  if (FD->getTemplatedKind() != FunctionDecl::TK_NonTemplate &&
      FD->getTemplatedKind() != FunctionDecl::TK_FunctionTemplateSpecialization) {
    report(Diags, P.Loc, PragmaDiag::TemplateKernel) << FD->getName();
    return;
  }
  auto [It, Inserted] = Claimed.try_emplace(FD->getCanonicalDecl(), P.Loc);
  if (!Inserted) {
    report(Diags, P.Loc, PragmaDiag::DuplicatePragma) << kernelName(*FD);
    report(Diags, It->second, PragmaDiag::PreviousPragma);
    return;
  }
  if (std::optional<KernelSpec> Spec = buildSpec(P, *FD, *FD))
    attach(FD, *Spec, P.Loc);
}

void KernelAnnotator::claimTemplate(ParsedPragma &P, FunctionTemplateDecl *FTD) {
  FunctionDecl *Pattern = FTD->getTemplatedDecl();
  if (!Pattern->hasAttr<CUDAGlobalAttr>()) {
    report(Diags, P.Loc, PragmaDiag::NotFollowedByKernel);
    return;
  }
  if (FTD->getDeclContext()->isRecord()) {
    report(Diags, P.Loc, PragmaDiag::TemplateKernel) << FTD->getName();
    return;
  }
  const FunctionTemplateDecl *Key = FTD->getCanonicalDecl();
  auto Previous = Templates.find(Key);
  if (Previous != Templates.end()) {
    report(Diags, P.Loc, PragmaDiag::DuplicatePragma)
        << FTD->getQualifiedNameAsString();
    report(Diags, Previous->second.P.Loc, PragmaDiag::PreviousPragma);
    return;
  }
  // The names, and the types that are known before instantiation.
  if (!buildSpec(P, *Pattern, *Pattern, /*Template=*/true))
    return;
  TemplatePragma &TP = Templates[Key];
  TP.P = std::move(P);
  TP.Named = Pattern;
  // Specializations declared before the pragma (a redeclaration of the
  // template carries it).
  for (FunctionDecl *Spec : FTD->specializations())
    annotateSpecialization(Spec);
}

void KernelAnnotator::annotateSpecialization(FunctionDecl *FD) {
  FunctionTemplateDecl *FTD = FD->getPrimaryTemplate();
  if (!FTD || !FD->hasAttr<CUDAGlobalAttr>())
    return;
  auto It = Templates.find(FTD->getCanonicalDecl());
  if (It == Templates.end())
    return;
  const TemplatePragma &TP = It->second;
  if (!Claimed.try_emplace(FD->getCanonicalDecl(), TP.P.Loc).second)
    return; // annotated already, or by a pragma of its own
  std::optional<KernelSpec> Spec = buildSpec(TP.P, *TP.Named, *FD);
  if (!Spec) {
    SourceLocation Where = FD->getPointOfInstantiation();
    report(Diags, Where.isValid() ? Where : FD->getLocation(),
           PragmaDiag::InstantiatedHere)
        << kernelName(*FD);
    return;
  }
  attach(FD, *Spec, TP.P.Loc);
}

void KernelAnnotator::attach(FunctionDecl *FD, const KernelSpec &Spec,
                             SourceLocation PragmaLoc) {
  std::string Text = printKernelSpec(Spec);

  // The pass and the runtime read this text back; make sure they can.
  std::string Error;
  std::optional<KernelSpec> Back = parseKernelSpec(Text, Error);
  if (!Back || printKernelSpec(*Back) != Text) {
    report(Diags, PragmaLoc, PragmaDiag::InternalError)
        << (Back ? "the encoded spec does not read back the same"
                 : "the encoded spec does not read back: " + Error);
    return;
  }

  // Declarations seen so far get the attribute here; later ones inherit it.
  for (FunctionDecl *R : FD->redecls())
    R->addAttr(AnnotateAttr::CreateImplicit(*Ctx, Text, nullptr, 0,
                                            SourceRange(PragmaLoc)));
}

std::string KernelAnnotator::kernelName(const FunctionDecl &FD) const {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD.getNameForDiagnostic(OS, Ctx->getPrintingPolicy(), /*Qualified=*/true);
  OS.flush();
  // The spec is line based.
  std::replace(Name.begin(), Name.end(), '\n', ' ');
  return Name;
}

//===- name resolution ----------------------------------------------------===//

namespace {

/// Resolves the names of one pragma for one kernel and reports what does not
/// resolve.
class Resolver {
public:
  /// Names resolve against \p Named's parameters, types are \p FD's
  /// (docs: KernelAnnotator::buildSpec).
  Resolver(DiagnosticsEngine &Diags, ASTContext &Ctx, const ParsedPragma &P,
           const FunctionDecl &Named, const FunctionDecl &FD, bool Template,
           KernelSpec &Spec)
      : Diags(Diags), Ctx(Ctx), P(P), Named(Named), FD(FD), Template(Template),
        Spec(Spec) {}

  bool Ok = true;

  /// A data expression: names are kernel parameters.
  std::unique_ptr<Expr> data(const PragmaExpr &E) {
    return convert(E, [&](const PragmaExpr &Leaf) { return param(Leaf); });
  }

  /// A where, grid or shared expression: names are data parameters and bx,
  /// by, bz.
  std::unique_ptr<Expr> shape(const PragmaExpr &E, const char *Clause) {
    return convert(E, [&](const PragmaExpr &Leaf) {
      return dataOrDim(Leaf, Clause);
    });
  }

private:
  DiagnosticsEngine &Diags;
  ASTContext &Ctx;
  const ParsedPragma &P;
  const FunctionDecl &Named;
  const FunctionDecl &FD;
  bool Template;
  KernelSpec &Spec;

  template <typename NameFn>
  std::unique_ptr<Expr> convert(const PragmaExpr &E, NameFn Name) {
    switch (E.K) {
    case PragmaExpr::Kind::Literal:
      return Expr::literal(E.Value);
    case PragmaExpr::Kind::Name:
      return Name(E);
    case PragmaExpr::Kind::Unary:
      return Expr::unary(E.Op, convert(*E.Args[0], Name));
    case PragmaExpr::Kind::Binary: {
      auto L = convert(*E.Args[0], Name);
      return Expr::binary(E.Op, std::move(L), convert(*E.Args[1], Name));
    }
    case PragmaExpr::Kind::Call: {
      std::vector<std::unique_ptr<Expr>> Args;
      for (const auto &A : E.Args)
        Args.push_back(convert(*A, Name));
      return Expr::call(E.Callee, std::move(Args));
    }
    }
    return Expr::literal(0);
  }

  const ParmVarDecl *findParam(llvm::StringRef Name, unsigned &Index) const {
    for (unsigned I = 0; I < Named.getNumParams(); ++I)
      if (Named.getParamDecl(I)->getName() == Name) {
        Index = I;
        return Named.getParamDecl(I);
      }
    return nullptr;
  }

  /// The first parameter pack of \p Named's parameters, or null: the
  /// parameters after it have other positions in each specialization.
  const ParmVarDecl *firstPack(unsigned Before) const {
    for (unsigned I = 0; I <= Before && I < Named.getNumParams(); ++I)
      if (Named.getParamDecl(I)->isParameterPack())
        return Named.getParamDecl(I);
    return nullptr;
  }

  /// Errors leave a literal in place so that the walk can go on and report
  /// every bad name at once.
  std::unique_ptr<Expr> fail() {
    Ok = false;
    return Expr::literal(0);
  }

  std::unique_ptr<Expr> param(const PragmaExpr &Leaf) {
    unsigned Index = 0;
    const ParmVarDecl *PVD = findParam(Leaf.Name, Index);
    if (!PVD) {
      report(Diags, Leaf.Loc, PragmaDiag::UnknownKernelParam) << Leaf.Name;
      return fail();
    }
    if (const ParmVarDecl *Pack = firstPack(Index)) {
      if (Pack == PVD) // a pack is not one integer
        report(Diags, Leaf.Loc, PragmaDiag::NonIntegerParam)
            << Leaf.Name << PVD->getType();
      else
        report(Diags, Leaf.Loc, PragmaDiag::ParamAfterPack)
            << Leaf.Name << Pack->getName();
      return fail();
    }
    if (Index >= FD.getNumParams()) {
      report(Diags, Leaf.Loc, PragmaDiag::InternalError)
          << "the kernel has fewer parameters than its template";
      return fail();
    }
    QualType T = FD.getParamDecl(Index)->getType();
    // A template's own parameter types may depend on its parameters: each
    // specialization checks its own.
    if (Template && T->isDependentType()) {
      if (!Spec.findParam(Index))
        Spec.Params.push_back({Index, Leaf.Name, IntType::I64});
      return Expr::leaf(Expr::Kind::Param, Index);
    }
    QualType C = T.getCanonicalType().getUnqualifiedType();
    // Plain integer types only: no bool, no enums, no _BitInt.
    if (!isa<BuiltinType>(C) || !C->isIntegerType() || C->isBooleanType()) {
      report(Diags, Leaf.Loc, PragmaDiag::NonIntegerParam) << Leaf.Name << T;
      return fail();
    }
    uint64_t Width = Ctx.getTypeSize(C);
    bool Signed = C->isSignedIntegerType();
    IntType IT;
    switch (Width) {
    case 8: IT = Signed ? IntType::I8 : IntType::U8; break;
    case 16: IT = Signed ? IntType::I16 : IntType::U16; break;
    case 32: IT = Signed ? IntType::I32 : IntType::U32; break;
    case 64: IT = Signed ? IntType::I64 : IntType::U64; break;
    default:
      report(Diags, Leaf.Loc, PragmaDiag::ParamTooWide) << Leaf.Name << T;
      return fail();
    }
    if (!Spec.findParam(Index))
      Spec.Params.push_back({Index, Leaf.Name, IT});
    return Expr::leaf(Expr::Kind::Param, Index);
  }

  std::unique_ptr<Expr> dataOrDim(const PragmaExpr &Leaf, const char *Clause) {
    static const char *const Dims[] = {"bx", "by", "bz"};
    for (int D = 0; D < 3; ++D)
      if (Leaf.Name == Dims[D])
        return Expr::leaf(Expr::Kind::BlockDim, D);
    for (size_t I = 0; I < P.Data.size(); ++I)
      if (P.Data[I].Name == Leaf.Name)
        return Expr::leaf(Expr::Kind::Data, int64_t(I));
    unsigned Index;
    if (findParam(Leaf.Name, Index))
      report(Diags, Leaf.Loc, PragmaDiag::ParamOutsideData)
          << Leaf.Name << Clause;
    else
      report(Diags, Leaf.Loc, PragmaDiag::UnknownName) << Leaf.Name << Clause;
    return fail();
  }
};

} // namespace

std::optional<KernelSpec> KernelAnnotator::buildSpec(const ParsedPragma &P,
                                                     const FunctionDecl &Named,
                                                     const FunctionDecl &FD,
                                                     bool Template) {
  KernelSpec Spec;
  Spec.KernelName = kernelName(FD);
  SourceManager &SM = sourceManager();
  PresumedLoc PLoc = SM.getPresumedLoc(SM.getExpansionLoc(P.Loc));
  if (PLoc.isValid())
    Spec.Location = std::string(PLoc.getFilename()) + ":" +
                    std::to_string(PLoc.getLine()) + ":" +
                    std::to_string(PLoc.getColumn());

  Resolver R(Diags, *Ctx, P, Named, FD, Template, Spec);
  for (const PragmaDataParam &D : P.Data)
    Spec.Data.push_back({D.Name, R.data(*D.Value)});
  for (unsigned D : P.BlockDims)
    Spec.FreeDims[D] = true;
  for (const auto &W : P.Where)
    Spec.Where.push_back(R.shape(*W, "where"));
  for (size_t I = 0; I < 3; ++I)
    Spec.Grid[I] =
        I < P.Grid.size() ? R.shape(*P.Grid[I], "grid") : Expr::literal(1);
  if (P.Shared)
    Spec.Shared = R.shape(*P.Shared, "shared");
  if (!R.Ok)
    return std::nullopt;

  std::sort(Spec.Params.begin(), Spec.Params.end(),
            [](const ParamRef &A, const ParamRef &B) {
              return A.Index < B.Index;
            });
  Spec.Candidates.K = P.Candidates;
  for (const PragmaCandidate &C : P.CandidateList) {
    std::array<uint32_t, 3> Shape = {1, 1, 1};
    for (size_t I = 0; I < C.Dims.size(); ++I)
      Shape[P.BlockDims[I]] = C.Dims[I];
    Spec.Candidates.Shapes.push_back(Shape);
  }
  return Spec;
}

} // namespace klaraptor
