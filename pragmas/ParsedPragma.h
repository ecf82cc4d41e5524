//===- ParsedPragma.h - a '#pragma klaraptor' before name resolution -*- C++ -*-===//
///
/// \file
/// What PragmaParser makes of one pragma's tokens: the clauses with their
/// expressions still spelled by name and every piece carrying its source
/// location. KernelAnnotator resolves the names once it knows the kernel the
/// pragma belongs to, and turns the result into a klaraptor::KernelSpec.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PRAGMAS_PARSEDPRAGMA_H
#define KLARAPTOR_PRAGMAS_PARSEDPRAGMA_H

#include "KernelSpec.h"

#include "clang/Basic/SourceLocation.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace klaraptor {

/// An expression as written: names are not resolved yet.
struct PragmaExpr {
  enum class Kind {
    Literal, ///< Value
    Name,    ///< Name (a kernel parameter, data parameter or bx/by/bz)
    Unary,   ///< Op; Args[0]
    Binary,  ///< Op; Args[0], Args[1]
    Call     ///< Callee; Args
  };
  Kind K = Kind::Literal;
  int64_t Value = 0;
  std::string Name;
  Expr::Op Op = Expr::Op::Add;
  Expr::Callee Callee = Expr::Callee::Min;
  clang::SourceLocation Loc; ///< The literal, name, operator or callee.
  std::vector<std::unique_ptr<PragmaExpr>> Args;
  /// A Name's field accesses in order (`d.size.rows`: size, rows), each
  /// with the location of its name.
  std::vector<std::pair<std::string, clang::SourceLocation>> Fields;

  /// A Name with its fields as written: `d.size.rows`.
  std::string path() const {
    std::string S = Name;
    for (const auto &F : Fields)
      S += "." + F.first;
    return S;
  }
};

/// One `NAME = EXPR` of the data clause.
struct PragmaDataParam {
  std::string Name;
  clang::SourceLocation NameLoc;
  std::unique_ptr<PragmaExpr> Value;
};

/// One explicit candidate: the values of the free block dimensions in the
/// order the block clause lists them.
struct PragmaCandidate {
  std::vector<uint32_t> Dims;
  clang::SourceLocation Loc;
};

/// The clauses of one pragma.
struct ParsedPragma {
  /// The `klaraptor` token: where the pragma is reported and recorded.
  clang::SourceLocation Loc;
  /// False once an error was reported for the pragma; an invalid pragma still
  /// claims the declaration after it but is not checked further.
  bool Valid = true;

  std::vector<PragmaDataParam> Data;
  /// Free block dimensions (0, 1, 2 for bx, by, bz) in clause order.
  std::vector<unsigned> BlockDims;
  std::vector<std::unique_ptr<PragmaExpr>> Where;
  std::vector<std::unique_ptr<PragmaExpr>> Grid;
  /// The shared(...) clause's expression, or null.
  std::unique_ptr<PragmaExpr> Shared;
  CandidateSet::Kind Candidates = CandidateSet::Kind::Pow2;
  std::vector<PragmaCandidate> CandidateList;
};

} // namespace klaraptor

#endif // KLARAPTOR_PRAGMAS_PARSEDPRAGMA_H
