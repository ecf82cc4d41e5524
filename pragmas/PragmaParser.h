//===- PragmaParser.h - parse the tokens of '#pragma klaraptor' -*- C++ -*-===//
///
/// \file
/// PragmaParser turns the tokens of one `#pragma klaraptor` (everything after
/// the `klaraptor` token, macro-expanded, ending with `eod`) into a
/// ParsedPragma. It reports syntax errors, and the errors that need only the
/// pragma itself (a missing or repeated clause, a reserved or repeated data
/// name, a candidate of the wrong arity), at the offending token. Names are
/// resolved later, by KernelAnnotator. The grammar is in docs/pragmas.md.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PRAGMAS_PRAGMAPARSER_H
#define KLARAPTOR_PRAGMAS_PRAGMAPARSER_H

#include "ParsedPragma.h"
#include "PragmaDiagnostics.h"

#include "clang/Lex/Token.h"
#include "llvm/ADT/ArrayRef.h"

#include <functional>

namespace clang {
class Preprocessor;
} // namespace clang

namespace klaraptor {

/// Recursive-descent parser over one pragma's tokens.
class PragmaParser {
public:
  /// \p Toks must end with an `eod` (or `eof`) token; \p PragmaLoc is the
  /// location of the `klaraptor` token.
  PragmaParser(clang::Preprocessor &PP, llvm::ArrayRef<clang::Token> Toks,
               clang::SourceLocation PragmaLoc);

  /// Parses the whole pragma. The result is marked invalid if anything was
  /// reported.
  ParsedPragma parse();

  /// Whether \p Name may not name a data parameter (bx, by, bz, ceildiv, min,
  /// max).
  static bool isReservedName(llvm::StringRef Name);

private:
  enum Clause { Data, Block, Where, Grid, Candidates, Shared, NumClauses };

  clang::Preprocessor &PP;
  llvm::ArrayRef<clang::Token> Toks;
  size_t Pos = 0;
  ParsedPragma Result;
  clang::SourceLocation ClauseLoc[NumClauses];

  const clang::Token &cur() const { return Toks[Pos]; }
  bool at(clang::tok::TokenKind K) const { return cur().is(K); }
  bool atEnd() const { return at(clang::tok::eod) || at(clang::tok::eof); }
  void advance() {
    if (!atEnd())
      ++Pos;
  }
  bool consume(clang::tok::TokenKind K) {
    if (!at(K))
      return false;
    advance();
    return true;
  }
  clang::DiagnosticBuilder diag(clang::SourceLocation Loc, PragmaDiag D);
  std::string spelling(const clang::Token &T) const;

  bool parseClause();
  /// Parses `ITEM (',' ITEM)* ')'` after the '(' at \p LParen.
  bool parseList(llvm::StringRef ClauseName, clang::SourceLocation LParen,
                 const std::function<bool()> &ParseItem);
  /// Expects ')' closing the '(' at \p LParen.
  bool expectRParen(clang::SourceLocation LParen);

  bool parseDataItem(ParsedPragma &Into);
  bool parseBlockItem(ParsedPragma &Into);
  bool parseCandidates(ParsedPragma &Into, clang::SourceLocation LParen);
  bool parseCandidateValue(std::vector<uint32_t> &Dims);

  /// Expression limits, so that every later pass over the tree (the
  /// resolver, the spec encoder, the evaluators) recurses a bounded depth:
  /// parentheses, calls and unary operators nest at most MaxExprDepth deep,
  /// and one expression has at most MaxExprNodes operators and operands.
  /// Bounds on the lists, so that the checks that compare items (duplicate
  /// names, name lookups) stay cheap: no kernel has more data parameters,
  /// and no block-shape list more shapes.
  static constexpr size_t MaxDataParams = 64, MaxCandidateShapes = 1024;
  static constexpr unsigned MaxExprDepth = 64;
  static constexpr unsigned MaxExprNodes = 256;
  unsigned ExprDepth = 0, ExprNodes = 0;
  /// Counts one more node (and, with \p Nested, one more level) at \p Loc;
  /// false with an error once a limit is passed.
  bool enter(clang::SourceLocation Loc, bool Nested);

  std::unique_ptr<PragmaExpr> parseExpr();
  std::unique_ptr<PragmaExpr> parseBinary(int MinPrecedence);
  std::unique_ptr<PragmaExpr> parseUnary();
  std::unique_ptr<PragmaExpr> parsePrimary();
  /// Reports \p T if it is a C operator that pragma expressions do not have.
  bool rejectUnsupported(const clang::Token &T);

  /// The value of the integer literal \p T; reports and returns false when it
  /// is not one or needs more than \p MaxBits bits.
  bool literalValue(const clang::Token &T, unsigned MaxBits, uint64_t &Value,
                    bool &TooLarge);

  void finish();
};

} // namespace klaraptor

#endif // KLARAPTOR_PRAGMAS_PRAGMAPARSER_H
