//===- PragmaDiagnostics.cpp - diagnostics of '#pragma klaraptor' ---------===//
///
/// \file
/// The level and text of every PragmaDiag. clang hands out one custom ID per
/// distinct (level, text), so asking again for the same diagnostic is cheap.
//===----------------------------------------------------------------------===//
#include "PragmaDiagnostics.h"

#include "clang/Basic/DiagnosticIDs.h"

using namespace clang;

namespace klaraptor {

namespace {
struct DiagInfo {
  PragmaDiag Kind;
  DiagnosticIDs::Level Level;
  const char *Text;
};

constexpr DiagnosticIDs::Level Error = DiagnosticIDs::Error;
constexpr DiagnosticIDs::Level Note = DiagnosticIDs::Note;

// Keep in the order of the enum; report() checks it.
const DiagInfo Table[] = {
    {PragmaDiag::ExpectedClause, Error,
     "'#pragma klaraptor' expects a clause: 'data', 'block', 'where', 'grid', "
     "'candidates' or 'shared'"},
    {PragmaDiag::UnknownClause, Error,
     "unknown clause '%0' in '#pragma klaraptor'"},
    {PragmaDiag::DuplicateClause, Error,
     "'#pragma klaraptor' has more than one '%0(...)' clause"},
    {PragmaDiag::PreviousClause, Note, "previous '%0(...)' clause is here"},
    {PragmaDiag::MissingClause, Error,
     "'#pragma klaraptor' expects '%0(...)' clause"},
    {PragmaDiag::ExpectedLParen, Error, "expected '(' after '%0'"},
    {PragmaDiag::ExpectedRParen, Error, "expected ')'"},
    {PragmaDiag::MatchingLParen, Note, "to match this '('"},
    {PragmaDiag::ExpectedCommaOrRParen, Error,
     "expected ',' or ')' in '%0(...)'"},
    {PragmaDiag::ExpectedExpression, Error, "expected an expression"},
    {PragmaDiag::UnsupportedOperator, Error,
     "'%0' is not supported in '#pragma klaraptor' expressions"},
    {PragmaDiag::InvalidLiteral, Error,
     "invalid integer literal '%0' in '#pragma klaraptor'"},
    {PragmaDiag::LiteralTooLarge, Error,
     "integer literal '%0' is too large for a 64-bit signed integer"},
    {PragmaDiag::ExpressionTooDeep, Error,
     "expression nested too deeply: more than %0 levels of parentheses, "
     "calls and unary operators"},
    {PragmaDiag::ExpressionTooLong, Error,
     "expression too long: more than %0 operators and operands"},
    {PragmaDiag::TooManyItems, Error, "more than %1 %0 in one pragma"},
    {PragmaDiag::UnknownFunction, Error,
     "unknown function '%0'; expected 'ceildiv', 'min' or 'max'"},
    {PragmaDiag::ExpectedCallParen, Error,
     "expected '(' after '%0'; 'ceildiv', 'min' and 'max' are functions"},
    {PragmaDiag::WrongArity, Error, "'%0' takes %1 arguments, not %2"},
    {PragmaDiag::ExpectedDataName, Error,
     "expected a data parameter name in 'data(...)'"},
    {PragmaDiag::ExpectedEqual, Error,
     "expected '=' after data parameter '%0'"},
    {PragmaDiag::ReservedDataName, Error,
     "'%0' is reserved and cannot name a data parameter"},
    {PragmaDiag::DuplicateDataName, Error,
     "data parameter '%0' is defined more than once"},
    {PragmaDiag::PreviousDataName, Note, "previous definition of '%0' is here"},
    {PragmaDiag::ExpectedBlockDim, Error,
     "expected 'bx', 'by' or 'bz' in 'block(...)'"},
    {PragmaDiag::DuplicateBlockDim, Error,
     "block dimension '%0' is listed more than once"},
    {PragmaDiag::TooManyGridDims, Error,
     "'grid(...)' takes at most three expressions"},
    {PragmaDiag::SharedTakesOne, Error,
     "'shared(...)' takes one expression: the launch's dynamic shared memory "
     "in bytes"},
    {PragmaDiag::ExpectedCandidates, Error,
     "expected 'pow2', 'warp' or a list of block shapes in 'candidates(...)'"},
    {PragmaDiag::ExpectedCandidateValue, Error,
     "expected a positive integer literal in 'candidates(...)'"},
    {PragmaDiag::CandidateTooLarge, Error,
     "candidate block dimension '%0' is too large"},
    {PragmaDiag::CandidateArity, Error,
     "candidate shape has %0 %plural{1:dimension|:dimensions}0 but "
     "'block(...)' has %1 free %plural{1:dimension|:dimensions}1"},
    {PragmaDiag::DuplicateCandidate, Error,
     "candidate shape %0 is listed more than once"},
    {PragmaDiag::NotFollowedByKernel, Error,
     "'#pragma klaraptor' must be followed by a '__global__' function"},
    {PragmaDiag::TemplateKernel, Error,
     "'#pragma klaraptor' cannot annotate '%0': only kernels and kernel "
     "templates at namespace scope can be annotated"},
    {PragmaDiag::DuplicatePragma, Error,
     "kernel '%0' has more than one '#pragma klaraptor'"},
    {PragmaDiag::PreviousPragma, Note, "previous '#pragma klaraptor' is here"},
    {PragmaDiag::UnknownKernelParam, Error,
     "unknown kernel parameter '%0' in 'data(...)'"},
    {PragmaDiag::NonIntegerParam, Error,
     "kernel parameter '%0' of type %1 is not an integer"},
    {PragmaDiag::ParamTooWide, Error,
     "kernel parameter '%0' of type %1 is wider than 64 bits"},
    {PragmaDiag::ParamOutsideData, Error,
     "kernel parameter '%0' cannot be used in '%1(...)'; give it a name in "
     "'data(...)'"},
    {PragmaDiag::UnknownName, Error,
     "unknown name '%0' in '%1(...)'; expected a data parameter or 'bx', "
     "'by', 'bz'"},
    {PragmaDiag::ParamAfterPack, Error,
     "kernel parameter '%0' comes after the parameter pack '%1'; 'data(...)' "
     "can name only the parameters before a pack"},
    {PragmaDiag::InstantiatedHere, Note,
     "in the kernel '%0' instantiated here"},
    {PragmaDiag::ExpectedFieldName, Error,
     "expected a field name after '%0.'"},
    {PragmaDiag::FieldThroughPointer, Error,
     "'->' cannot read '%0': the host does not read device memory; pass the "
     "struct by value or the size as an integer parameter"},
    {PragmaDiag::FieldOfNonStruct, Error,
     "'%0' of type %1 has no fields; '.' reads a field of a struct parameter "
     "passed by value"},
    {PragmaDiag::NoSuchField, Error, "%1 has no field named '%2' (in '%0')"},
    {PragmaDiag::BitFieldParam, Error,
     "'%0' is a bit-field; 'data(...)' reads whole integer fields"},
    {PragmaDiag::OverlappingFields, Error,
     "'%0' and '%1' share their bytes (a union); name one of them"},
    {PragmaDiag::FieldOutsideData, Error,
     "'%0' cannot be used in '%1(...)'; a field of a kernel parameter goes in "
     "'data(...)'"},
    {PragmaDiag::ManagedVariable, Error,
     "'%0' is a __managed__ variable, which klaraptor-clang++ cannot build: "
     "the host side is compiled by clang, whose CUDA does not implement "
     "managed variables (the host would use a copy of its own); allocate it "
     "with cudaMallocManaged"},
    {PragmaDiag::InternalError, Error,
     "internal error in '#pragma klaraptor': %0"},
};
} // namespace

DiagnosticBuilder report(DiagnosticsEngine &Diags, SourceLocation Loc,
                         PragmaDiag D) {
  // Found by kind, not by position: an entry out of order (in a build
  // without asserts) must not give another diagnostic's text.
  const DiagInfo *Found = &Table[0];
  for (const DiagInfo &E : Table)
    if (E.Kind == D) {
      Found = &E;
      break;
    }
  const DiagInfo &Info = *Found;
  assert(Info.Kind == D && "PragmaDiagnostics table lacks a diagnostic");
  unsigned ID =
      Diags.getDiagnosticIDs()->getCustomDiagID(Info.Level, Info.Text);
  return Diags.Report(Loc, ID);
}

} // namespace klaraptor
