//===- KernelSpec.cpp - print, parse and evaluate encoded pragmas ---------===//
///
/// \file
/// The encoded text is line based; see docs/spec-format.md. Expressions are
/// printed fully parenthesised, so the parser here needs no precedence tricks,
/// but it accepts ordinary C precedence so that hand-written specs in tests
/// read naturally.
//===----------------------------------------------------------------------===//
#include "KernelSpec.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace klaraptor {

std::unique_ptr<Expr> Expr::literal(int64_t V) {
  auto E = std::make_unique<Expr>();
  E->K = Kind::Literal;
  E->Value = V;
  return E;
}

std::unique_ptr<Expr> Expr::leaf(Kind K, int64_t Index) {
  auto E = std::make_unique<Expr>();
  E->K = K;
  E->Value = Index;
  return E;
}

std::unique_ptr<Expr> Expr::unary(Op O, std::unique_ptr<Expr> A) {
  auto E = std::make_unique<Expr>();
  E->K = Kind::Unary;
  E->O = O;
  E->Args.push_back(std::move(A));
  return E;
}

std::unique_ptr<Expr> Expr::binary(Op O, std::unique_ptr<Expr> A,
                                   std::unique_ptr<Expr> B) {
  auto E = std::make_unique<Expr>();
  E->K = Kind::Binary;
  E->O = O;
  E->Args.push_back(std::move(A));
  E->Args.push_back(std::move(B));
  return E;
}

std::unique_ptr<Expr> Expr::call(Callee F,
                                 std::vector<std::unique_ptr<Expr>> Args) {
  auto E = std::make_unique<Expr>();
  E->K = Kind::Call;
  E->F = F;
  E->Args = std::move(Args);
  return E;
}

std::unique_ptr<Expr> Expr::clone() const {
  auto E = std::make_unique<Expr>();
  E->K = K;
  E->Value = Value;
  E->O = O;
  E->F = F;
  for (const auto &A : Args)
    E->Args.push_back(A->clone());
  return E;
}

const char *spelling(Expr::Op O) {
  switch (O) {
  case Expr::Op::Neg: return "-";
  case Expr::Op::Not: return "!";
  case Expr::Op::Add: return "+";
  case Expr::Op::Sub: return "-";
  case Expr::Op::Mul: return "*";
  case Expr::Op::Div: return "/";
  case Expr::Op::Rem: return "%";
  case Expr::Op::Lt: return "<";
  case Expr::Op::Le: return "<=";
  case Expr::Op::Gt: return ">";
  case Expr::Op::Ge: return ">=";
  case Expr::Op::Eq: return "==";
  case Expr::Op::Ne: return "!=";
  case Expr::Op::And: return "&&";
  case Expr::Op::Or: return "||";
  }
  return "?";
}

const char *spelling(Expr::Callee F) {
  switch (F) {
  case Expr::Callee::CeilDiv: return "ceildiv";
  case Expr::Callee::Min: return "min";
  case Expr::Callee::Max: return "max";
  }
  return "?";
}

std::pair<unsigned, unsigned> arity(Expr::Callee F) {
  if (F == Expr::Callee::CeilDiv)
    return {2, 2};
  return {2, 0};
}

const char *spelling(IntType T) {
  switch (T) {
  case IntType::I8: return "i8";
  case IntType::U8: return "u8";
  case IntType::I16: return "i16";
  case IntType::U16: return "u16";
  case IntType::I32: return "i32";
  case IntType::U32: return "u32";
  case IntType::I64: return "i64";
  case IntType::U64: return "u64";
  }
  return "?";
}

unsigned bitWidth(IntType T) {
  switch (T) {
  case IntType::I8: case IntType::U8: return 8;
  case IntType::I16: case IntType::U16: return 16;
  case IntType::I32: case IntType::U32: return 32;
  case IntType::I64: case IntType::U64: return 64;
  }
  return 0;
}

bool isSigned(IntType T) {
  return T == IntType::I8 || T == IntType::I16 || T == IntType::I32 ||
         T == IntType::I64;
}

unsigned KernelSpec::numFreeDims() const {
  return unsigned(FreeDims[0]) + unsigned(FreeDims[1]) + unsigned(FreeDims[2]);
}

int KernelSpec::findParam(unsigned Index, uint32_t Offset) const {
  for (size_t I = 0; I < Params.size(); ++I)
    if (Params[I].Index == Index && Params[I].Offset == Offset)
      return int(I);
  return -1;
}

/// How a ParamRef is referred to: `$3`, or `$2.8` for the field at byte 8.
static std::string paramKey(const ParamRef &P) {
  std::string K = std::to_string(P.Index);
  if (P.Offset)
    K += "." + std::to_string(P.Offset);
  return K;
}

static const char *const BlockDimNames[3] = {"bx", "by", "bz"};

static void printInto(const Expr &E, const KernelSpec &S, std::string &Out) {
  switch (E.K) {
  case Expr::Kind::Literal:
    // A negative literal prints as the negation the parser reads back, so
    // that printing, parsing and printing again gives the same text.
    if (E.Value == INT64_MIN)
      Out += "((-9223372036854775807) - 1)";
    else if (E.Value < 0)
      Out += "(-" + std::to_string(-E.Value) + ")";
    else
      Out += std::to_string(E.Value);
    return;
  case Expr::Kind::Data:
    if (E.Value >= 0 && size_t(E.Value) < S.Data.size())
      Out += S.Data[E.Value].Name;
    else
      Out += "<data" + std::to_string(E.Value) + ">";
    return;
  case Expr::Kind::BlockDim:
    Out += BlockDimNames[E.Value];
    return;
  case Expr::Kind::Param:
    if (E.Value >= 0 && size_t(E.Value) < S.Params.size())
      Out += "$" + paramKey(S.Params[size_t(E.Value)]);
    else
      Out += "<param" + std::to_string(E.Value) + ">";
    return;
  case Expr::Kind::Unary:
    Out += "(";
    Out += spelling(E.O);
    printInto(*E.Args[0], S, Out);
    Out += ")";
    return;
  case Expr::Kind::Binary:
    Out += "(";
    printInto(*E.Args[0], S, Out);
    Out += " ";
    Out += spelling(E.O);
    Out += " ";
    printInto(*E.Args[1], S, Out);
    Out += ")";
    return;
  case Expr::Kind::Call:
    Out += spelling(E.F);
    Out += "(";
    for (size_t I = 0; I < E.Args.size(); ++I) {
      if (I)
        Out += ", ";
      printInto(*E.Args[I], S, Out);
    }
    Out += ")";
    return;
  }
}

std::string printExpr(const Expr &E, const KernelSpec &S) {
  std::string Out;
  printInto(E, S, Out);
  return Out;
}

std::string printKernelSpec(const KernelSpec &S) {
  std::string Out = SpecMagic;
  Out += "\nkernel " + S.KernelName;
  Out += "\nloc " + S.Location;
  for (const auto &P : S.Params)
    Out += "\nparam " + paramKey(P) + " " + P.Name + " " + spelling(P.Type);
  for (const auto &D : S.Data)
    Out += "\ndata " + D.Name + " " + printExpr(*D.Value, S);
  Out += "\nblock";
  for (int D = 0; D < 3; ++D)
    if (S.FreeDims[D])
      Out += std::string(" ") + BlockDimNames[D];
  for (const auto &W : S.Where)
    Out += "\nwhere " + printExpr(*W, S);
  for (int D = 0; D < 3; ++D)
    Out += "\ngrid " + (S.Grid[D] ? printExpr(*S.Grid[D], S) : "1");
  if (S.Shared)
    Out += "\nshared " + printExpr(*S.Shared, S);
  Out += "\ncandidates ";
  switch (S.Candidates.K) {
  case CandidateSet::Kind::Pow2:
    Out += "pow2";
    break;
  case CandidateSet::Kind::Warp:
    Out += "warp";
    break;
  case CandidateSet::Kind::List:
    Out += "list";
    for (const auto &Sh : S.Candidates.Shapes)
      Out += " " + std::to_string(Sh[0]) + "x" + std::to_string(Sh[1]) + "x" +
             std::to_string(Sh[2]);
    break;
  }
  Out += "\n";
  return Out;
}

namespace {

/// Recursive-descent parser for one expression line.
class ExprParser {
public:
  /// \p Column0 is the offset of \p Text in its line, so that messages
  /// give columns of the line.
  ExprParser(const std::string &Text, const KernelSpec &S, bool AllowParams,
             bool AllowNames, size_t Column0)
      : T(Text), S(S), AllowParams(AllowParams), AllowNames(AllowNames),
        Column0(Column0) {}

  std::unique_ptr<Expr> parseAll(std::string &Error) {
    auto E = parseOr();
    skipSpace();
    if (E && Pos != T.size())
      fail("unexpected '" + T.substr(Pos, 8) + "'");
    // The tree's depth bounds the parentheses its printed form nests (every
    // operator is printed in parentheses): deeper, and the text printed
    // from it could not be read back.
    if (E && Err.empty() && treeDepth(*E) > MaxTreeDepth)
      fail("expression nested too deeply (more than " +
           std::to_string(MaxTreeDepth) + " operators deep)");
    if (!Err.empty()) {
      Error = Err;
      return nullptr;
    }
    return E;
  }

private:
  const std::string &T;
  const KernelSpec &S;
  bool AllowParams, AllowNames;
  size_t Column0;
  size_t Pos = 0;
  std::string Err;

  /// Bounds on what is parsed, so that nothing recursing over the tree
  /// later (or this parser) runs out of stack on a malformed spec: the
  /// plugin writes at most 256 nodes per expression, every binary and unary
  /// node in parentheses (docs/spec-format.md). MaxDepth bounds the
  /// parser's own recursion (parentheses, unary operators, calls),
  /// MaxTreeDepth the tree it builds.
  static constexpr unsigned MaxDepth = 1000, MaxNodes = 1024,
                            MaxTreeDepth = 300;
  /// Operators and calls on the longest path from the root (the node limit
  /// bounds the recursion).
  static unsigned treeDepth(const Expr &E) {
    unsigned D = 0;
    for (const auto &A : E.Args)
      D = std::max(D, treeDepth(*A));
    return E.Args.empty() ? 0 : D + 1;
  }
  unsigned Depth = 0, Nodes = 0;
  /// One more node, and with \p Nested one more level; false (failed) past
  /// a bound. The caller undoes the level with --Depth.
  bool enter(bool Nested, bool Node = true) {
    if (Node && ++Nodes > MaxNodes) {
      fail("expression too long (more than " + std::to_string(MaxNodes) +
           " nodes)");
      return false;
    }
    if (Nested && ++Depth > MaxDepth) {
      fail("expression nested too deeply (more than " +
           std::to_string(MaxDepth) + " levels)");
      return false;
    }
    return true;
  }

  void fail(const std::string &M) {
    if (Err.empty())
      Err = M + " at column " + std::to_string(Column0 + Pos + 1);
  }
  void skipSpace() {
    while (Pos < T.size() && std::isspace((unsigned char)T[Pos]))
      ++Pos;
  }
  bool eat(const char *Tok) {
    skipSpace();
    size_t N = std::strlen(Tok);
    if (T.compare(Pos, N, Tok) != 0)
      return false;
    // Do not split "<=" into "<" and "=", nor "||" into "|".
    if (N == 1 && Pos + 1 < T.size()) {
      char C = Tok[0], D = T[Pos + 1];
      if ((C == '<' || C == '>' || C == '!' || C == '=') && D == '=')
        return false;
      if ((C == '&' && D == '&') || (C == '|' && D == '|'))
        return false;
    }
    Pos += N;
    return true;
  }

  std::unique_ptr<Expr> parseOr() {
    auto L = parseAnd();
    while (L && eat("||"))
      L = combine(Expr::Op::Or, std::move(L), parseAnd());
    return L;
  }
  std::unique_ptr<Expr> parseAnd() {
    auto L = parseCmp();
    while (L && eat("&&"))
      L = combine(Expr::Op::And, std::move(L), parseCmp());
    return L;
  }
  std::unique_ptr<Expr> parseCmp() {
    auto L = parseAdd();
    if (!L)
      return L;
    static const std::pair<const char *, Expr::Op> Ops[] = {
        {"<=", Expr::Op::Le}, {">=", Expr::Op::Ge}, {"==", Expr::Op::Eq},
        {"!=", Expr::Op::Ne}, {"<", Expr::Op::Lt},  {">", Expr::Op::Gt}};
    for (const auto &[Tok, O] : Ops)
      if (eat(Tok))
        return combine(O, std::move(L), parseAdd());
    return L;
  }
  std::unique_ptr<Expr> parseAdd() {
    auto L = parseMul();
    while (L) {
      if (eat("+"))
        L = combine(Expr::Op::Add, std::move(L), parseMul());
      else if (eat("-"))
        L = combine(Expr::Op::Sub, std::move(L), parseMul());
      else
        break;
    }
    return L;
  }
  std::unique_ptr<Expr> parseMul() {
    auto L = parseUnary();
    while (L) {
      if (eat("*"))
        L = combine(Expr::Op::Mul, std::move(L), parseUnary());
      else if (eat("/"))
        L = combine(Expr::Op::Div, std::move(L), parseUnary());
      else if (eat("%"))
        L = combine(Expr::Op::Rem, std::move(L), parseUnary());
      else
        break;
    }
    return L;
  }
  std::unique_ptr<Expr> parseUnary() {
    for (auto [Tok, O] : {std::make_pair("-", Expr::Op::Neg),
                          std::make_pair("!", Expr::Op::Not)})
      if (eat(Tok)) {
        if (!enter(/*Nested=*/true))
          return nullptr;
        auto A = parseUnary();
        --Depth;
        return A ? Expr::unary(O, std::move(A)) : nullptr;
      }
    return parsePrimary();
  }
  std::unique_ptr<Expr> combine(Expr::Op O, std::unique_ptr<Expr> L,
                                std::unique_ptr<Expr> R) {
    if (!L || !R || !enter(/*Nested=*/false))
      return nullptr;
    return Expr::binary(O, std::move(L), std::move(R));
  }
  std::unique_ptr<Expr> parsePrimary() {
    skipSpace();
    if (Pos >= T.size()) {
      fail("expected an expression");
      return nullptr;
    }
    char C = T[Pos];
    if (eat("(")) {
      // A parenthesis is a level of the parser's recursion, not a node (the
      // printed form adds one around every operator).
      if (!enter(/*Nested=*/true, /*Node=*/false))
        return nullptr;
      auto E = parseOr();
      --Depth;
      if (E && !eat(")")) {
        fail("expected ')'");
        return nullptr;
      }
      return E;
    }
    if (std::isdigit((unsigned char)C)) {
      size_t Start = Pos;
      uint64_t V = 0;
      while (Pos < T.size() && std::isdigit((unsigned char)T[Pos])) {
        unsigned Digit = T[Pos] - '0';
        if (V > (uint64_t(INT64_MAX) - Digit) / 10) {
          Pos = Start;
          fail("integer literal too large");
          return nullptr;
        }
        V = V * 10 + Digit;
        ++Pos;
      }
      return Expr::literal(int64_t(V));
    }
    if (C == '$') {
      size_t Dollar = Pos;
      ++Pos;
      // $INDEX, or $INDEX.OFFSET for a field of a struct parameter.
      auto Number = [&](int64_t &V) {
        size_t Start = Pos;
        V = 0;
        while (Pos < T.size() && std::isdigit((unsigned char)T[Pos]) &&
               V < 1000000)
          V = V * 10 + (T[Pos++] - '0');
        return Pos > Start;
      };
      int64_t V = 0, Offset = 0;
      if (!Number(V)) {
        fail("expected a parameter index after '$'");
        return nullptr;
      }
      if (Pos < T.size() && T[Pos] == '.') {
        ++Pos;
        if (!Number(Offset)) {
          fail("expected a byte offset after '$" + std::to_string(V) + ".'");
          return nullptr;
        }
      }
      if (!AllowParams) {
        Pos = Dollar;
        fail("kernel parameters may appear only in data expressions");
        return nullptr;
      }
      int Ref = S.findParam(unsigned(V), uint32_t(Offset));
      if (Ref < 0) {
        ParamRef Missing;
        Missing.Index = unsigned(V);
        Missing.Offset = uint32_t(Offset);
        Pos = Dollar;
        fail("parameter $" + paramKey(Missing) + " has no 'param' line");
        return nullptr;
      }
      return Expr::leaf(Expr::Kind::Param, Ref);
    }
    if (std::isalpha((unsigned char)C) || C == '_') {
      size_t Start = Pos;
      while (Pos < T.size() &&
             (std::isalnum((unsigned char)T[Pos]) || T[Pos] == '_'))
        ++Pos;
      std::string Name = T.substr(Start, Pos - Start);
      static const std::pair<const char *, Expr::Callee> Calls[] = {
          {"ceildiv", Expr::Callee::CeilDiv},
          {"min", Expr::Callee::Min},
          {"max", Expr::Callee::Max}};
      for (const auto &[Spelling, F] : Calls) {
        if (Name != Spelling)
          continue;
        if (!eat("(")) {
          fail("expected '(' after '" + Name + "'");
          return nullptr;
        }
        if (!enter(/*Nested=*/true))
          return nullptr;
        std::vector<std::unique_ptr<Expr>> Args;
        do {
          auto A = parseOr();
          if (!A)
            return nullptr;
          Args.push_back(std::move(A));
        } while (eat(","));
        --Depth;
        if (!eat(")")) {
          fail("expected ')' after the arguments of '" + Name + "'");
          return nullptr;
        }
        auto [Min, Max] = arity(F);
        if (Args.size() < Min || (Max && Args.size() > Max)) {
          Pos = Start;
          fail("wrong number of arguments to '" + Name + "'");
          return nullptr;
        }
        return Expr::call(F, std::move(Args));
      }
      if (!AllowNames) {
        Pos = Start;
        fail("data expressions may use only kernel parameters, not '" + Name +
             "'");
        return nullptr;
      }
      for (int D = 0; D < 3; ++D)
        if (Name == BlockDimNames[D])
          return Expr::leaf(Expr::Kind::BlockDim, D);
      for (size_t I = 0; I < S.Data.size(); ++I)
        if (S.Data[I].Name == Name)
          return Expr::leaf(Expr::Kind::Data, int64_t(I));
      Pos = Start;
      fail("unknown name '" + Name + "'");
      return nullptr;
    }
    fail(std::string("unexpected character '") + C + "'");
    return nullptr;
  }
};

bool parseIntType(const std::string &S, IntType &T) {
  static const IntType All[] = {IntType::I8,  IntType::U8,  IntType::I16,
                                IntType::U16, IntType::I32, IntType::U32,
                                IntType::I64, IntType::U64};
  for (IntType C : All)
    if (S == spelling(C)) {
      T = C;
      return true;
    }
  return false;
}

/// The first control character (a byte below 0x20, or 0x7f) in \p S, or -1.
/// Names and locations are printed one per line, so a control character
/// (a carriage return at the end of a line, above all) would not read back
/// as itself.
int controlCharacter(const std::string &S) {
  for (char C : S)
    if ((unsigned char)C < 0x20 || (unsigned char)C == 0x7f)
      return (unsigned char)C;
  return -1;
}

std::string controlMessage(const char *What, int C) {
  char Buf[96];
  std::snprintf(Buf, sizeof Buf, "control character 0x%02x in the %s", C,
                What);
  return Buf;
}

bool isIdentifier(const std::string &S) {
  if (S.empty() || !(std::isalpha((unsigned char)S[0]) || S[0] == '_'))
    return false;
  for (char C : S)
    if (!(std::isalnum((unsigned char)C) || C == '_'))
      return false;
  return true;
}

} // namespace

std::optional<KernelSpec> parseKernelSpec(const std::string &Text,
                                          std::string &Error) {
  KernelSpec S;
  std::istringstream In(Text);
  std::string Line;
  unsigned LineNo = 0;
  unsigned GridCount = 0;
  bool SawBlock = false, SawCandidates = false, SawKernel = false;
  auto Fail = [&](const std::string &M) {
    Error = "spec line " + std::to_string(LineNo) + ": " + M;
    return std::nullopt;
  };
  while (std::getline(In, Line)) {
    ++LineNo;
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    if (LineNo == 1) {
      if (Line != SpecMagic)
        return Fail(std::string("expected '") + SpecMagic + "', found '" +
                    Line + "'");
      continue;
    }
    if (Line.empty())
      continue;
    size_t Sp = Line.find(' ');
    std::string Key = Line.substr(0, Sp);
    std::string Rest = Sp == std::string::npos ? "" : Line.substr(Sp + 1);
    if (Key == "kernel") {
      if (Rest.empty())
        return Fail("'kernel' needs a name");
      if (int C = controlCharacter(Rest); C >= 0)
        return Fail(controlMessage("kernel name", C));
      S.KernelName = Rest;
      SawKernel = true;
    } else if (Key == "loc") {
      if (int C = controlCharacter(Rest); C >= 0)
        return Fail(controlMessage("location", C));
      S.Location = Rest;
    } else if (Key == "param") {
      std::istringstream P(Rest);
      std::string Key, Name, Type, Extra;
      if (!(P >> Key >> Name >> Type) || (P >> Extra))
        return Fail("expected 'param INDEX NAME TYPE' or "
                    "'param INDEX.OFFSET NAME TYPE'");
      // INDEX, or INDEX.OFFSET: a field at byte OFFSET of a struct parameter.
      auto Digits = [](const std::string &T, uint64_t Max, uint64_t &V) {
        V = 0;
        if (T.empty() || T.size() > 7)
          return false;
        for (char C : T) {
          if (!std::isdigit((unsigned char)C))
            return false;
          V = V * 10 + uint64_t(C - '0');
        }
        return V <= Max;
      };
      size_t Dot = Key.find('.');
      uint64_t Index = 0, Offset = 0;
      if (!Digits(Key.substr(0, Dot), 1000000, Index) ||
          (Dot != std::string::npos &&
           !Digits(Key.substr(Dot + 1), 65535, Offset)))
        return Fail("expected a parameter index or INDEX.OFFSET (an offset "
                    "below 65536), found '" + Key + "'");
      if (int C = controlCharacter(Name); C >= 0)
        return Fail(controlMessage("parameter name", C));
      ParamRef R;
      R.Index = unsigned(Index);
      R.Offset = uint32_t(Offset);
      R.Name = Name;
      if (!parseIntType(Type, R.Type))
        return Fail("unknown parameter type '" + Type + "'");
      if (S.findParam(R.Index, R.Offset) >= 0)
        return Fail("parameter " + paramKey(R) + " given twice");
      S.Params.push_back(std::move(R));
    } else if (Key == "data") {
      size_t Sp2 = Rest.find(' ');
      std::string Name = Rest.substr(0, Sp2);
      if (!isIdentifier(Name) || Sp2 == std::string::npos)
        return Fail("expected 'data NAME EXPR'");
      for (const auto &D : S.Data)
        if (D.Name == Name)
          return Fail("data parameter '" + Name + "' given twice");
      std::string Err;
      auto E = ExprParser(Rest.substr(Sp2 + 1), S, true, false, Sp + Sp2 + 2)
                   .parseAll(Err);
      if (!E)
        return Fail(Err);
      S.Data.push_back({Name, std::move(E)});
    } else if (Key == "block") {
      if (SawBlock)
        return Fail("'block' given twice");
      SawBlock = true;
      std::istringstream B(Rest);
      std::string Dim;
      while (B >> Dim) {
        int D = Dim == "bx" ? 0 : Dim == "by" ? 1 : Dim == "bz" ? 2 : -1;
        if (D < 0)
          return Fail("unknown block dimension '" + Dim + "'");
        if (S.FreeDims[D])
          return Fail("block dimension '" + Dim + "' given twice");
        S.FreeDims[D] = true;
      }
      if (S.numFreeDims() == 0)
        return Fail("'block' needs at least one of bx, by, bz");
    } else if (Key == "where" || Key == "grid" || Key == "shared") {
      if (!SawBlock)
        return Fail("'" + Key + "' before 'block'");
      std::string Err;
      auto E = ExprParser(Rest, S, false, true, Sp + 1).parseAll(Err);
      if (!E)
        return Fail(Err);
      if (Key == "where") {
        S.Where.push_back(std::move(E));
      } else if (Key == "shared") {
        if (S.Shared)
          return Fail("'shared' given twice");
        S.Shared = std::move(E);
      } else {
        if (GridCount == 3)
          return Fail("more than three 'grid' lines");
        S.Grid[GridCount++] = std::move(E);
      }
    } else if (Key == "candidates") {
      if (SawCandidates)
        return Fail("'candidates' given twice");
      SawCandidates = true;
      std::istringstream C(Rest);
      std::string Kind;
      C >> Kind;
      if (Kind == "pow2") {
        S.Candidates.K = CandidateSet::Kind::Pow2;
      } else if (Kind == "warp") {
        S.Candidates.K = CandidateSet::Kind::Warp;
      } else if (Kind == "list") {
        S.Candidates.K = CandidateSet::Kind::List;
        std::string Shape;
        while (C >> Shape) {
          unsigned long X = 0, Y = 0, Z = 0;
          char Tail = 0;
          if (std::sscanf(Shape.c_str(), "%lux%lux%lu%c", &X, &Y, &Z, &Tail) !=
                  3 ||
              !X || !Y || !Z || X > 0xffffffffUL || Y > 0xffffffffUL ||
              Z > 0xffffffffUL)
            return Fail("bad shape '" + Shape + "' (expected XxYxZ)");
          S.Candidates.Shapes.push_back(
              {uint32_t(X), uint32_t(Y), uint32_t(Z)});
        }
        if (S.Candidates.Shapes.empty())
          return Fail("'candidates list' needs at least one shape");
      } else {
        return Fail("unknown candidate set '" + Kind + "'");
      }
    } else {
      return Fail("unknown key '" + Key + "'");
    }
  }
  if (LineNo == 0)
    return Fail("empty spec");
  if (!SawKernel)
    return Fail("no 'kernel' line");
  if (S.Data.empty())
    return Fail("no 'data' line");
  if (!SawBlock)
    return Fail("no 'block' line");
  if (GridCount == 0)
    return Fail("no 'grid' line");
  for (unsigned D = GridCount; D < 3; ++D)
    S.Grid[D] = Expr::literal(1);
  return S;
}

const char *describe(EvalStatus S) {
  switch (S) {
  case EvalStatus::Ok: return "ok";
  case EvalStatus::DivisionByZero: return "division by zero";
  case EvalStatus::Overflow: return "integer overflow";
  case EvalStatus::Unbound: return "unbound name";
  }
  return "?";
}

int64_t ceilDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  if (A % B != 0 && ((A < 0) == (B < 0)))
    ++Q;
  return Q;
}

EvalStatus evaluate(const Expr &E, const EvalEnv &Env, int64_t &R) {
  switch (E.K) {
  case Expr::Kind::Literal:
    R = E.Value;
    return EvalStatus::Ok;
  case Expr::Kind::Data:
    if (E.Value < 0 || size_t(E.Value) >= Env.NumData || !Env.Data)
      return EvalStatus::Unbound;
    R = Env.Data[E.Value];
    return EvalStatus::Ok;
  case Expr::Kind::BlockDim:
    R = Env.Block[E.Value];
    return EvalStatus::Ok;
  case Expr::Kind::Param:
    if (E.Value < 0 || size_t(E.Value) >= Env.NumParams || !Env.Params)
      return EvalStatus::Unbound;
    R = Env.Params[E.Value];
    return EvalStatus::Ok;
  case Expr::Kind::Unary: {
    int64_t A;
    if (auto St = evaluate(*E.Args[0], Env, A); St != EvalStatus::Ok)
      return St;
    if (E.O == Expr::Op::Not) {
      R = !A;
      return EvalStatus::Ok;
    }
    if (A == INT64_MIN)
      return EvalStatus::Overflow;
    R = -A;
    return EvalStatus::Ok;
  }
  case Expr::Kind::Binary: {
    int64_t A, B;
    if (auto St = evaluate(*E.Args[0], Env, A); St != EvalStatus::Ok)
      return St;
    // && and || short-circuit as in C, so 'N > 0 && M / N > 2' is safe.
    if (E.O == Expr::Op::And && !A) {
      R = 0;
      return EvalStatus::Ok;
    }
    if (E.O == Expr::Op::Or && A) {
      R = 1;
      return EvalStatus::Ok;
    }
    if (auto St = evaluate(*E.Args[1], Env, B); St != EvalStatus::Ok)
      return St;
    switch (E.O) {
    case Expr::Op::Add:
      return __builtin_add_overflow(A, B, &R) ? EvalStatus::Overflow
                                              : EvalStatus::Ok;
    case Expr::Op::Sub:
      return __builtin_sub_overflow(A, B, &R) ? EvalStatus::Overflow
                                              : EvalStatus::Ok;
    case Expr::Op::Mul:
      return __builtin_mul_overflow(A, B, &R) ? EvalStatus::Overflow
                                              : EvalStatus::Ok;
    case Expr::Op::Div:
    case Expr::Op::Rem:
      if (B == 0)
        return EvalStatus::DivisionByZero;
      if (A == INT64_MIN && B == -1)
        return EvalStatus::Overflow;
      R = E.O == Expr::Op::Div ? A / B : A % B;
      return EvalStatus::Ok;
    case Expr::Op::Lt: R = A < B; return EvalStatus::Ok;
    case Expr::Op::Le: R = A <= B; return EvalStatus::Ok;
    case Expr::Op::Gt: R = A > B; return EvalStatus::Ok;
    case Expr::Op::Ge: R = A >= B; return EvalStatus::Ok;
    case Expr::Op::Eq: R = A == B; return EvalStatus::Ok;
    case Expr::Op::Ne: R = A != B; return EvalStatus::Ok;
    case Expr::Op::And: R = B != 0; return EvalStatus::Ok;
    case Expr::Op::Or: R = B != 0; return EvalStatus::Ok;
    default:
      return EvalStatus::Unbound;
    }
  }
  case Expr::Kind::Call: {
    // The runtime evaluates grid formulas for every candidate at every new
    // data size: keep the common calls (up to 8 arguments) off the heap.
    int64_t Small[8];
    std::vector<int64_t> Large;
    int64_t *V = Small;
    if (E.Args.size() > 8) {
      Large.resize(E.Args.size());
      V = Large.data();
    }
    for (size_t I = 0; I < E.Args.size(); ++I)
      if (auto St = evaluate(*E.Args[I], Env, V[I]); St != EvalStatus::Ok)
        return St;
    switch (E.F) {
    case Expr::Callee::CeilDiv:
      if (V[1] == 0)
        return EvalStatus::DivisionByZero;
      if (V[0] == INT64_MIN && V[1] == -1)
        return EvalStatus::Overflow;
      R = ceilDiv(V[0], V[1]);
      return EvalStatus::Ok;
    case Expr::Callee::Min:
    case Expr::Callee::Max:
      R = V[0];
      for (size_t I = 1; I < E.Args.size(); ++I)
        R = E.F == Expr::Callee::Min ? std::min(R, V[I]) : std::max(R, V[I]);
      return EvalStatus::Ok;
    }
  }
  }
  return EvalStatus::Unbound;
}

} // namespace klaraptor
