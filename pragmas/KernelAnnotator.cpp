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
#include "clang/AST/RecordLayout.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <functional>
#include <tuple>

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
  if (D->getBeginLoc().isInvalid())
    return;
  if (auto *VD = dyn_cast<VarDecl>(D))
    checkManaged(*VD);
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
  if (D->isImplicit() || (Pending.empty() && Templates.empty()))
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

void KernelAnnotator::checkManaged(const VarDecl &VD) {
  // klaraptor_host_defines.h (klaraptor-clang++'s host compile) turns
  // __managed__, which clang's CUDA ignores, into this annotation.
  for (const auto *A : VD.specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == "klaraptor.managed") {
      report(Diags, VD.getLocation(), PragmaDiag::ManagedVariable)
          << VD.getQualifiedNameAsString();
      return;
    }
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
    // The fields named after the parameter: their byte offset in its storage.
    std::string Path = Leaf.Name;
    uint64_t Offset = 0;
    for (const auto &[Field, FieldLoc] : Leaf.Fields) {
      // A template's own parameter types may depend on its parameters: each
      // specialization checks its own.
      if (Template && T->isDependentType())
        break;
      if (!fieldOffset(T, Path, Field, FieldLoc, Offset))
        return fail();
      Path += "." + Field;
    }
    if (Template && T->isDependentType())
      return ref(Index, 0, Path, IntType::I64, Leaf.Loc);
    QualType C = T.getCanonicalType().getUnqualifiedType();
    // Plain integer types only: no bool, no enums, no _BitInt.
    if (!isa<BuiltinType>(C) || !C->isIntegerType() || C->isBooleanType()) {
      report(Diags, Leaf.Loc, PragmaDiag::NonIntegerParam) << Path << T;
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
      report(Diags, Leaf.Loc, PragmaDiag::ParamTooWide) << Path << T;
      return fail();
    }
    return ref(Index, Offset, Path, IT, Leaf.Loc);
  }

  /// Steps from \p T, the type of \p Path, to its field \p Field: adds the
  /// field's byte offset to \p Offset and sets \p T to its type.
  bool fieldOffset(QualType &T, const std::string &Path,
                   const std::string &Field, SourceLocation Loc,
                   uint64_t &Offset) {
    const auto *RT = T.getCanonicalType()->getAs<RecordType>();
    const RecordDecl *RD = RT ? RT->getDecl()->getDefinition() : nullptr;
    if (!RD || RD->isInvalidDecl()) {
      report(Diags, Loc, PragmaDiag::FieldOfNonStruct) << Path << T;
      return false;
    }
    // A field of an anonymous struct or union member is found through it.
    for (NamedDecl *ND : RD->lookup(&Ctx.Idents.get(Field))) {
      llvm::SmallVector<FieldDecl *, 2> Chain;
      if (auto *FDecl = dyn_cast<FieldDecl>(ND))
        Chain.push_back(FDecl);
      else if (auto *IFD = dyn_cast<IndirectFieldDecl>(ND))
        for (NamedDecl *Link : IFD->chain())
          Chain.push_back(cast<FieldDecl>(Link));
      else
        continue;
      for (FieldDecl *Link : Chain) {
        if (Link->isBitField()) {
          report(Diags, Loc, PragmaDiag::BitFieldParam) << Path + "." + Field;
          return false;
        }
        const ASTRecordLayout &L = Ctx.getASTRecordLayout(Link->getParent());
        Offset += L.getFieldOffset(Link->getFieldIndex()) / 8;
      }
      T = Chain.back()->getType();
      return true;
    }
    report(Diags, Loc, PragmaDiag::NoSuchField) << Path << T << Field;
    return false;
  }

  /// The leaf of kernel parameter \p Index's bytes at \p Offset, read as
  /// \p Type, named \p Path in the spec.
  std::unique_ptr<Expr> ref(unsigned Index, uint64_t Offset,
                            const std::string &Path, IntType Type,
                            SourceLocation Loc) {
    int Ref = Spec.findParam(Index, uint32_t(Offset));
    if (Ref >= 0 && (Spec.Params[size_t(Ref)].Type != Type ||
                     Spec.Params[size_t(Ref)].Name != Path) && !Template) {
      report(Diags, Loc, PragmaDiag::OverlappingFields)
          << Spec.Params[size_t(Ref)].Name << Path;
      return fail();
    }
    if (Ref < 0) {
      Ref = int(Spec.Params.size());
      Spec.Params.push_back({Index, uint32_t(Offset), Path, Type});
    }
    return Expr::leaf(Expr::Kind::Param, Ref);
  }

  std::unique_ptr<Expr> dataOrDim(const PragmaExpr &Leaf, const char *Clause) {
    static const char *const Dims[] = {"bx", "by", "bz"};
    if (!Leaf.Fields.empty()) {
      report(Diags, Leaf.Loc, PragmaDiag::FieldOutsideData)
          << Leaf.path() << Clause;
      return fail();
    }
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

  // The spec lists the parameters in order (by position, then offset); the
  // data expressions' leaves follow them to their new places.
  std::vector<size_t> Order(Spec.Params.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    const ParamRef &X = Spec.Params[A], &Y = Spec.Params[B];
    return std::tie(X.Index, X.Offset) < std::tie(Y.Index, Y.Offset);
  });
  std::vector<int64_t> NewPlace(Order.size());
  std::vector<ParamRef> Sorted;
  for (size_t I = 0; I < Order.size(); ++I) {
    NewPlace[Order[I]] = int64_t(I);
    Sorted.push_back(Spec.Params[Order[I]]);
  }
  Spec.Params = std::move(Sorted);
  std::function<void(Expr &)> Renumber = [&](Expr &E) {
    if (E.K == Expr::Kind::Param)
      E.Value = NewPlace[size_t(E.Value)];
    for (auto &A : E.Args)
      Renumber(*A);
  };
  for (DataParam &D : Spec.Data)
    Renumber(*D.Value);
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
