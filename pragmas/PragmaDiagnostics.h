//===- PragmaDiagnostics.h - diagnostics of '#pragma klaraptor' -*- C++ -*-===//
///
/// \file
/// Every diagnostic the pragma plugin reports, as clang custom diagnostics.
/// Messages follow LLVM style (lower case, no final period) and are listed
/// with examples in docs/pragmas.md.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PRAGMAS_PRAGMADIAGNOSTICS_H
#define KLARAPTOR_PRAGMAS_PRAGMADIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"

namespace klaraptor {

/// One enumerator per message; the table in PragmaDiagnostics.cpp gives the
/// level and text.
enum class PragmaDiag {
  // Syntax (reported by the pragma handler).
  ExpectedClause,
  UnknownClause,
  DuplicateClause,
  PreviousClause,
  MissingClause,
  ExpectedLParen,
  ExpectedRParen,
  MatchingLParen,
  ExpectedCommaOrRParen,
  ExpectedExpression,
  UnsupportedOperator,
  InvalidLiteral,
  LiteralTooLarge,
  ExpressionTooDeep,
  ExpressionTooLong,
  TooManyItems,
  UnknownFunction,
  ExpectedCallParen,
  WrongArity,
  ExpectedDataName,
  ExpectedEqual,
  ReservedDataName,
  DuplicateDataName,
  PreviousDataName,
  ExpectedBlockDim,
  DuplicateBlockDim,
  TooManyGridDims,
  SharedTakesOne,
  ExpectedCandidates,
  ExpectedCandidateValue,
  CandidateTooLarge,
  CandidateArity,
  DuplicateCandidate,
  // Semantics (reported when the pragma meets its kernel).
  NotFollowedByKernel,
  TemplateKernel,
  DuplicatePragma,
  PreviousPragma,
  UnknownKernelParam,
  NonIntegerParam,
  ParamTooWide,
  ParamOutsideData,
  UnknownName,
  ParamAfterPack,
  InstantiatedHere,
  ExpectedFieldName,
  FieldThroughPointer,
  FieldOfNonStruct,
  NoSuchField,
  BitFieldParam,
  OverlappingFields,
  FieldOutsideData,
  ManagedVariable,
  InternalError,
};

/// Starts reporting \p D at \p Loc; stream the message's arguments into the
/// result.
clang::DiagnosticBuilder report(clang::DiagnosticsEngine &Diags,
                                clang::SourceLocation Loc, PragmaDiag D);

} // namespace klaraptor

#endif // KLARAPTOR_PRAGMAS_PRAGMADIAGNOSTICS_H
