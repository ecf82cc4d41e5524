//===- PragmaParser.cpp - parse the tokens of '#pragma klaraptor' ---------===//
///
/// \file
/// Expressions follow C precedence (lowest first): `||`, `&&`, `== !=`,
/// `< <= > >=`, `+ -`, `* / %`, then unary `- ! +`. After the first syntax
/// error the rest of the pragma is skipped, so one mistake gives one error.
//===----------------------------------------------------------------------===//
#include "PragmaParser.h"

#include "clang/Lex/LiteralSupport.h"

#include "clang/Basic/TokenKinds.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>

using namespace clang;

namespace klaraptor {

static const char *const ClauseNames[] = {"data", "block", "where", "grid",
                                          "candidates", "shared"};
static const char *const BlockDimNames[] = {"bx", "by", "bz"};

PragmaParser::PragmaParser(Preprocessor &PP, llvm::ArrayRef<Token> Toks,
                           SourceLocation PragmaLoc)
    : PP(PP), Toks(Toks) {
  assert(!Toks.empty() &&
         (Toks.back().is(tok::eod) || Toks.back().is(tok::eof)) &&
         "pragma tokens must end with eod");
  Result.Loc = PragmaLoc;
}

bool PragmaParser::isReservedName(llvm::StringRef Name) {
  return llvm::is_contained(
      std::initializer_list<llvm::StringRef>{"bx", "by", "bz", "ceildiv",
                                             "min", "max"},
      Name);
}

DiagnosticBuilder PragmaParser::diag(SourceLocation Loc, PragmaDiag D) {
  // Notes do not make a pragma invalid; everything else does.
  if (D != PragmaDiag::PreviousClause && D != PragmaDiag::PreviousDataName &&
      D != PragmaDiag::MatchingLParen)
    Result.Valid = false;
  return report(PP.getDiagnostics(), Loc, D);
}

std::string PragmaParser::spelling(const Token &T) const {
  if (T.is(tok::eod) || T.is(tok::eof))
    return "end of pragma";
  return PP.getSpelling(T);
}

ParsedPragma PragmaParser::parse() {
  while (!atEnd())
    if (!parseClause())
      return std::move(Result);
  finish();
  return std::move(Result);
}

bool PragmaParser::parseClause() {
  const Token &NameTok = cur();
  if (!NameTok.getIdentifierInfo()) {
    diag(NameTok.getLocation(), PragmaDiag::ExpectedClause);
    return false;
  }
  llvm::StringRef Name = NameTok.getIdentifierInfo()->getName();
  int C = llvm::StringSwitch<int>(Name)
              .Case("data", Data)
              .Case("block", Block)
              .Case("where", Where)
              .Case("grid", Grid)
              .Case("candidates", Candidates)
              .Case("shared", Shared)
              .Default(-1);
  if (C < 0) {
    diag(NameTok.getLocation(), PragmaDiag::UnknownClause) << Name;
    return false;
  }
  // A repeated clause is reported and then parsed into a scratch pragma, so
  // that its syntax is still checked but its content is not mixed in.
  ParsedPragma Scratch;
  ParsedPragma *Into = &Result;
  if (ClauseLoc[C].isValid()) {
    diag(NameTok.getLocation(), PragmaDiag::DuplicateClause) << Name;
    diag(ClauseLoc[C], PragmaDiag::PreviousClause) << Name;
    Into = &Scratch;
  } else {
    ClauseLoc[C] = NameTok.getLocation();
  }
  advance();
  if (!at(tok::l_paren)) {
    diag(cur().getLocation(), PragmaDiag::ExpectedLParen) << Name;
    return false;
  }
  SourceLocation LParen = cur().getLocation();
  advance();

  switch (C) {
  case Data:
    return parseList(Name, LParen, [&] { return parseDataItem(*Into); });
  case Block:
    return parseList(Name, LParen, [&] { return parseBlockItem(*Into); });
  case Where:
    return parseList(Name, LParen, [&] {
      auto E = parseExpr();
      if (!E)
        return false;
      Into->Where.push_back(std::move(E));
      return true;
    });
  case Grid: {
    unsigned Count = 0;
    return parseList(Name, LParen, [&] {
      SourceLocation Loc = cur().getLocation();
      auto E = parseExpr();
      if (!E)
        return false;
      if (++Count == 4)
        diag(Loc, PragmaDiag::TooManyGridDims);
      Into->Grid.push_back(std::move(E));
      return true;
    });
  }
  case Candidates:
    return parseCandidates(*Into, LParen);
  case Shared: {
    // One expression: the launch's dynamic shared memory in bytes.
    auto E = parseExpr();
    if (!E)
      return false;
    Into->Shared = std::move(E);
    if (consume(tok::r_paren))
      return true;
    if (atEnd())
      return expectRParen(LParen);
    diag(cur().getLocation(), PragmaDiag::SharedTakesOne);
    return false;
  }
  }
  return false;
}

bool PragmaParser::expectRParen(SourceLocation LParen) {
  if (consume(tok::r_paren))
    return true;
  diag(cur().getLocation(), PragmaDiag::ExpectedRParen);
  diag(LParen, PragmaDiag::MatchingLParen);
  return false;
}

bool PragmaParser::parseList(llvm::StringRef ClauseName, SourceLocation LParen,
                             const std::function<bool()> &ParseItem) {
  do {
    if (!ParseItem())
      return false;
  } while (consume(tok::comma));
  if (consume(tok::r_paren))
    return true;
  if (atEnd())
    return expectRParen(LParen);
  diag(cur().getLocation(), PragmaDiag::ExpectedCommaOrRParen) << ClauseName;
  diag(LParen, PragmaDiag::MatchingLParen);
  return false;
}

bool PragmaParser::parseDataItem(ParsedPragma &Into) {
  if (!at(tok::identifier)) {
    diag(cur().getLocation(), PragmaDiag::ExpectedDataName);
    return false;
  }
  if (Into.Data.size() == MaxDataParams) {
    diag(cur().getLocation(), PragmaDiag::TooManyItems)
        << "data parameters" << MaxDataParams;
    return false;
  }
  PragmaDataParam D;
  D.Name = cur().getIdentifierInfo()->getName().str();
  D.NameLoc = cur().getLocation();
  advance();
  if (isReservedName(D.Name))
    diag(D.NameLoc, PragmaDiag::ReservedDataName) << D.Name;
  for (const PragmaDataParam &Prev : Into.Data)
    if (Prev.Name == D.Name) {
      diag(D.NameLoc, PragmaDiag::DuplicateDataName) << D.Name;
      diag(Prev.NameLoc, PragmaDiag::PreviousDataName) << D.Name;
      break;
    }
  if (!consume(tok::equal)) {
    diag(cur().getLocation(), PragmaDiag::ExpectedEqual) << D.Name;
    return false;
  }
  D.Value = parseExpr();
  if (!D.Value)
    return false;
  Into.Data.push_back(std::move(D));
  return true;
}

bool PragmaParser::parseBlockItem(ParsedPragma &Into) {
  int Dim = -1;
  if (at(tok::identifier))
    Dim = llvm::StringSwitch<int>(cur().getIdentifierInfo()->getName())
              .Case("bx", 0)
              .Case("by", 1)
              .Case("bz", 2)
              .Default(-1);
  if (Dim < 0) {
    diag(cur().getLocation(), PragmaDiag::ExpectedBlockDim);
    return false;
  }
  if (llvm::is_contained(Into.BlockDims, unsigned(Dim)))
    diag(cur().getLocation(), PragmaDiag::DuplicateBlockDim)
        << BlockDimNames[Dim];
  else
    Into.BlockDims.push_back(unsigned(Dim));
  advance();
  return true;
}

bool PragmaParser::parseCandidates(ParsedPragma &Into, SourceLocation LParen) {
  if (at(tok::identifier)) {
    llvm::StringRef Name = cur().getIdentifierInfo()->getName();
    if (Name == "pow2" || Name == "warp") {
      Into.Candidates =
          Name == "pow2" ? CandidateSet::Kind::Pow2 : CandidateSet::Kind::Warp;
      advance();
      return expectRParen(LParen);
    }
  }
  if (at(tok::identifier) || at(tok::r_paren) || atEnd()) {
    diag(cur().getLocation(), PragmaDiag::ExpectedCandidates);
    return false;
  }
  Into.Candidates = CandidateSet::Kind::List;
  return parseList("candidates", LParen, [&] {
    if (Into.CandidateList.size() == MaxCandidateShapes) {
      diag(cur().getLocation(), PragmaDiag::TooManyItems)
          << "candidate shapes" << MaxCandidateShapes;
      return false;
    }
    PragmaCandidate C;
    C.Loc = cur().getLocation();
    if (!consume(tok::l_paren)) {
      if (!parseCandidateValue(C.Dims))
        return false;
    } else {
      do {
        if (!parseCandidateValue(C.Dims))
          return false;
      } while (consume(tok::comma));
      if (!expectRParen(C.Loc))
        return false;
    }
    Into.CandidateList.push_back(std::move(C));
    return true;
  });
}

bool PragmaParser::parseCandidateValue(std::vector<uint32_t> &Dims) {
  const Token &T = cur();
  uint64_t V = 0;
  bool TooLarge = false;
  if (!T.is(tok::numeric_constant) || !literalValue(T, 32, V, TooLarge)) {
    diag(T.getLocation(), PragmaDiag::ExpectedCandidateValue);
    return false;
  }
  // Zero and too-large values are reported but do not stop the parse.
  if (TooLarge)
    diag(T.getLocation(), PragmaDiag::CandidateTooLarge) << spelling(T);
  else if (V == 0)
    diag(T.getLocation(), PragmaDiag::ExpectedCandidateValue);
  Dims.push_back(uint32_t(V));
  advance();
  return true;
}

/// A diagnostics engine that drops everything: clang's literal parser
/// reports to it, the pragma parser reports its own, located error.
static clang::DiagnosticsEngine &quietDiagnostics() {
  static clang::DiagnosticsEngine D(
      llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs>(new clang::DiagnosticIDs),
      llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions>(
          new clang::DiagnosticOptions),
      new clang::IgnoringDiagConsumer, /*ShouldOwnClient=*/true);
  return D;
}

bool PragmaParser::literalValue(const Token &T, unsigned MaxBits,
                                uint64_t &Value, bool &TooLarge) {
  TooLarge = false;
  llvm::SmallString<32> Buffer;
  bool Invalid = false;
  llvm::StringRef S = PP.getSpelling(T, Buffer, &Invalid);
  if (Invalid)
    return false;
  // The language's own rules (clang's literal parser, without its
  // diagnostics: the caller reports): an integer literal with a valid
  // suffix (u, l, ll and their combinations; z and uz only in C++23).
  // Suffixes do not change the value: every expression is evaluated in
  // 64-bit signed arithmetic.
  clang::NumericLiteralParser Literal(S, T.getLocation(), PP.getSourceManager(),
                                     PP.getLangOpts(), PP.getTargetInfo(),
                                     quietDiagnostics());
  if (Literal.hadError || !Literal.isIntegerLiteral() || Literal.hasUDSuffix() ||
      (Literal.isSizeT && !PP.getLangOpts().CPlusPlus23) ||
      Literal.isBitInt || Literal.MicrosoftInteger)
    return false;
  llvm::APInt V(128, 0);
  if (Literal.GetIntegerValue(V) || V.getActiveBits() > MaxBits) {
    TooLarge = true;
    Value = 0;
    return true;
  }
  Value = V.getZExtValue();
  return true;
}

//===- expressions --------------------------------------------------------===//

/// The precedence of binary operator \p K (0 if it is not one) and its op.
static int binaryPrecedence(tok::TokenKind K, Expr::Op &O) {
  switch (K) {
  case tok::pipepipe: O = Expr::Op::Or; return 1;
  case tok::ampamp: O = Expr::Op::And; return 2;
  case tok::equalequal: O = Expr::Op::Eq; return 3;
  case tok::exclaimequal: O = Expr::Op::Ne; return 3;
  case tok::less: O = Expr::Op::Lt; return 4;
  case tok::lessequal: O = Expr::Op::Le; return 4;
  case tok::greater: O = Expr::Op::Gt; return 4;
  case tok::greaterequal: O = Expr::Op::Ge; return 4;
  case tok::plus: O = Expr::Op::Add; return 5;
  case tok::minus: O = Expr::Op::Sub; return 5;
  case tok::star: O = Expr::Op::Mul; return 6;
  case tok::slash: O = Expr::Op::Div; return 6;
  case tok::percent: O = Expr::Op::Rem; return 6;
  default: return 0;
  }
}

bool PragmaParser::rejectUnsupported(const Token &T) {
  switch (T.getKind()) {
  case tok::amp: case tok::pipe: case tok::caret: case tok::tilde:
  case tok::lessless: case tok::greatergreater: case tok::question:
  case tok::equal: case tok::plusplus: case tok::minusminus:
  case tok::plusequal: case tok::minusequal: case tok::starequal:
  case tok::slashequal: case tok::percentequal: case tok::ampequal:
  case tok::pipeequal: case tok::caretequal: case tok::lesslessequal:
  case tok::greatergreaterequal: case tok::spaceship: case tok::l_square:
  case tok::period: case tok::arrow: case tok::coloncolon:
    diag(T.getLocation(), PragmaDiag::UnsupportedOperator) << spelling(T);
    return true;
  default:
    return false;
  }
}

bool PragmaParser::enter(SourceLocation Loc, bool Nested) {
  if (++ExprNodes > MaxExprNodes) {
    diag(Loc, PragmaDiag::ExpressionTooLong) << MaxExprNodes;
    return false;
  }
  if (Nested && ++ExprDepth > MaxExprDepth) {
    diag(Loc, PragmaDiag::ExpressionTooDeep) << MaxExprDepth;
    return false;
  }
  return true;
}

std::unique_ptr<PragmaExpr> PragmaParser::parseExpr() {
  // Each top-level expression (a data value, a grid or where expression)
  // counts its own nodes; the depth unwinds as the parse returns.
  const bool TopLevel = ExprDepth == 0;
  if (TopLevel)
    ExprNodes = 0;
  auto E = parseBinary(1);
  if (TopLevel)
    ExprDepth = 0;
  return E;
}

std::unique_ptr<PragmaExpr> PragmaParser::parseBinary(int MinPrecedence) {
  auto L = parseUnary();
  while (L) {
    if (rejectUnsupported(cur()))
      return nullptr;
    Expr::Op O;
    int P = binaryPrecedence(cur().getKind(), O);
    if (P == 0 || P < MinPrecedence)
      break;
    SourceLocation OpLoc = cur().getLocation();
    if (!enter(OpLoc, /*Nested=*/false))
      return nullptr;
    advance();
    // Left-associative: the right operand binds tighter operators only.
    auto R = parseBinary(P + 1);
    if (!R)
      return nullptr;
    auto B = std::make_unique<PragmaExpr>();
    B->K = PragmaExpr::Kind::Binary;
    B->Op = O;
    B->Loc = OpLoc;
    B->Args.push_back(std::move(L));
    B->Args.push_back(std::move(R));
    L = std::move(B);
  }
  return L;
}

std::unique_ptr<PragmaExpr> PragmaParser::parseUnary() {
  if (at(tok::plus) || at(tok::minus) || at(tok::exclaim)) {
    if (!enter(cur().getLocation(), /*Nested=*/true))
      return nullptr;
    // Unary plus changes nothing: it leaves no node.
    if (consume(tok::plus)) {
      auto A = parseUnary();
      --ExprDepth;
      return A;
    }
    auto U = std::make_unique<PragmaExpr>();
    U->K = PragmaExpr::Kind::Unary;
    U->Op = at(tok::minus) ? Expr::Op::Neg : Expr::Op::Not;
    U->Loc = cur().getLocation();
    advance();
    auto A = parseUnary();
    --ExprDepth;
    if (!A)
      return nullptr;
    U->Args.push_back(std::move(A));
    return U;
  }
  return parsePrimary();
}

std::unique_ptr<PragmaExpr> PragmaParser::parsePrimary() {
  const Token &T = cur();
  auto E = std::make_unique<PragmaExpr>();
  E->Loc = T.getLocation();
  // A parenthesis or a call ("name(") opens a level.
  const bool Nests =
      T.is(tok::l_paren) || (T.is(tok::identifier) && Pos + 1 < Toks.size() &&
                             Toks[Pos + 1].is(tok::l_paren));
  if (!enter(T.getLocation(), Nests))
    return nullptr;
  // The level a parenthesis or a call opened closes when it is parsed.
  struct Leave {
    unsigned &Depth;
    bool Active;
    ~Leave() {
      if (Active)
        --Depth;
    }
  } L{ExprDepth, Nests};

  if (T.is(tok::numeric_constant)) {
    uint64_t V = 0;
    bool TooLarge = false;
    if (!literalValue(T, 63, V, TooLarge)) {
      diag(T.getLocation(), PragmaDiag::InvalidLiteral) << spelling(T);
      return nullptr;
    }
    if (TooLarge) {
      diag(T.getLocation(), PragmaDiag::LiteralTooLarge) << spelling(T);
      return nullptr;
    }
    E->K = PragmaExpr::Kind::Literal;
    E->Value = int64_t(V);
    advance();
    return E;
  }

  if (T.is(tok::l_paren)) {
    SourceLocation LParen = T.getLocation();
    advance();
    auto Inner = parseExpr();
    if (!Inner || !expectRParen(LParen))
      return nullptr;
    return Inner;
  }

  if (T.is(tok::identifier)) {
    std::string Name = T.getIdentifierInfo()->getName().str();
    advance();
    std::optional<Expr::Callee> F;
    if (Name == "ceildiv")
      F = Expr::Callee::CeilDiv;
    else if (Name == "min")
      F = Expr::Callee::Min;
    else if (Name == "max")
      F = Expr::Callee::Max;

    if (!at(tok::l_paren)) {
      if (F) {
        diag(cur().getLocation(), PragmaDiag::ExpectedCallParen) << Name;
        return nullptr;
      }
      E->K = PragmaExpr::Kind::Name;
      E->Name = std::move(Name);
      // Fields of a struct parameter passed by value: `d.rows`.
      while (at(tok::period)) {
        advance();
        if (!at(tok::identifier)) {
          diag(cur().getLocation(), PragmaDiag::ExpectedFieldName)
              << E->path();
          return nullptr;
        }
        E->Fields.push_back({cur().getIdentifierInfo()->getName().str(),
                             cur().getLocation()});
        advance();
      }
      if (at(tok::arrow)) {
        diag(cur().getLocation(), PragmaDiag::FieldThroughPointer)
            << E->path();
        return nullptr;
      }
      return E;
    }
    if (!F) {
      diag(E->Loc, PragmaDiag::UnknownFunction) << Name;
      return nullptr;
    }
    SourceLocation LParen = cur().getLocation();
    advance();
    E->K = PragmaExpr::Kind::Call;
    E->Callee = *F;
    E->Name = std::move(Name);
    do {
      auto A = parseExpr();
      if (!A)
        return nullptr;
      E->Args.push_back(std::move(A));
    } while (consume(tok::comma));
    if (!expectRParen(LParen))
      return nullptr;
    auto [Min, Max] = arity(*F);
    unsigned N = E->Args.size();
    if (N < Min || (Max && N > Max)) {
      std::string Expected = Min == Max ? std::to_string(Min)
                             : Max      ? std::to_string(Min) + " to " +
                                         std::to_string(Max)
                                        : "at least " + std::to_string(Min);
      diag(E->Loc, PragmaDiag::WrongArity) << E->Name << Expected << N;
      return nullptr;
    }
    return E;
  }

  if (!rejectUnsupported(T))
    diag(T.getLocation(), PragmaDiag::ExpectedExpression);
  return nullptr;
}

//===- whole-pragma checks ------------------------------------------------===//

void PragmaParser::finish() {
  for (Clause C : {Data, Block, Grid})
    if (ClauseLoc[C].isInvalid())
      diag(Result.Loc, PragmaDiag::MissingClause) << ClauseNames[C];

  if (Result.Candidates != CandidateSet::Kind::List ||
      ClauseLoc[Block].isInvalid())
    return;
  unsigned Free = Result.BlockDims.size();
  for (size_t I = 0; I < Result.CandidateList.size(); ++I) {
    const PragmaCandidate &C = Result.CandidateList[I];
    if (C.Dims.size() != Free) {
      diag(C.Loc, PragmaDiag::CandidateArity)
          << unsigned(C.Dims.size()) << Free;
      continue;
    }
    for (size_t J = 0; J < I; ++J)
      if (Result.CandidateList[J].Dims == C.Dims) {
        std::string Shape;
        for (uint32_t D : C.Dims)
          Shape += (Shape.empty() ? "" : ", ") + std::to_string(D);
        if (C.Dims.size() > 1)
          Shape = "(" + Shape + ")";
        diag(C.Loc, PragmaDiag::DuplicateCandidate) << Shape;
        break;
      }
  }
}

} // namespace klaraptor
