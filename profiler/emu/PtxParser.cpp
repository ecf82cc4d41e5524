//===- PtxParser.cpp - PTX text to syntax tree ----------------------------===//
///
/// \file
/// A recursive-descent parser for the PTX that nvcc 13 emits (and the
/// hand-written PTX of inline asm inside it): module directives, variables
/// with initializers, .entry/.func definitions and declarations, and bodies
/// of declarations, labels, scope braces and instructions. Debug directives
/// (.file, .loc, .section) are skipped.
//===----------------------------------------------------------------------===//
#include "PtxAst.h"
#include "PtxLexer.h"

#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace klaraptor::emu::ptx {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type parseType(std::string_view S) {
  static const std::unordered_map<std::string_view, Type> Map = {
      {"pred", Type::Pred},  {"b8", Type::B8},        {"b16", Type::B16},
      {"b32", Type::B32},    {"b64", Type::B64},      {"b128", Type::B128},
      {"u8", Type::U8},      {"u16", Type::U16},      {"u32", Type::U32},
      {"u64", Type::U64},    {"s8", Type::S8},        {"s16", Type::S16},
      {"s32", Type::S32},    {"s64", Type::S64},      {"f16", Type::F16},
      {"f16x2", Type::F16x2}, {"bf16", Type::BF16},   {"bf16x2", Type::BF16x2},
      {"f32", Type::F32},    {"f64", Type::F64},      {"tf32", Type::TF32},
      {"e4m3x2", Type::E4M3x2}, {"e5m2x2", Type::E5M2x2},
      {"texref", Type::TexRef}, {"samplerref", Type::SamplerRef},
      {"surfref", Type::SurfRef}};
  auto It = Map.find(S);
  return It == Map.end() ? Type::None : It->second;
}

const char *typeName(Type T) {
  switch (T) {
  case Type::None: return "none";
  case Type::Pred: return "pred";
  case Type::B8: return "b8";
  case Type::B16: return "b16";
  case Type::B32: return "b32";
  case Type::B64: return "b64";
  case Type::B128: return "b128";
  case Type::U8: return "u8";
  case Type::U16: return "u16";
  case Type::U32: return "u32";
  case Type::U64: return "u64";
  case Type::S8: return "s8";
  case Type::S16: return "s16";
  case Type::S32: return "s32";
  case Type::S64: return "s64";
  case Type::F16: return "f16";
  case Type::F16x2: return "f16x2";
  case Type::BF16: return "bf16";
  case Type::BF16x2: return "bf16x2";
  case Type::F32: return "f32";
  case Type::F64: return "f64";
  case Type::TF32: return "tf32";
  case Type::E4M3x2: return "e4m3x2";
  case Type::E5M2x2: return "e5m2x2";
  case Type::TexRef: return "texref";
  case Type::SamplerRef: return "samplerref";
  case Type::SurfRef: return "surfref";
  }
  return "?";
}

unsigned typeSize(Type T) {
  switch (T) {
  case Type::B8: case Type::U8: case Type::S8:
    return 1;
  case Type::B16: case Type::U16: case Type::S16: case Type::F16:
  case Type::BF16: case Type::E4M3x2: case Type::E5M2x2:
    return 2;
  case Type::B32: case Type::U32: case Type::S32: case Type::F32:
  case Type::F16x2: case Type::BF16x2: case Type::TF32:
    return 4;
  case Type::B64: case Type::U64: case Type::S64: case Type::F64:
  case Type::TexRef: case Type::SamplerRef: case Type::SurfRef:
    return 8;
  case Type::B128:
    return 16;
  default:
    return 0;
  }
}

unsigned VarDecl::elemSize() const { return typeSize(T) * Vec; }

uint64_t VarDecl::byteSize() const {
  uint64_t N = elemSize();
  for (uint64_t D : Dims) {
    if (D == 0)
      return 0;
    N *= D;
  }
  return N;
}

unsigned VarDecl::alignment() const {
  if (Align)
    return Align;
  unsigned S = elemSize();
  return S ? S : 1;
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {

class Parser {
public:
  Parser(std::vector<Token> &Toks, std::string &Error)
      : Toks(Toks), Error(Error) {}

  std::unique_ptr<Module> run();

private:
  std::vector<Token> &Toks;
  std::string &Error;
  size_t Pos = 0;
  bool Failed = false;
  /// The last `.loc` of the function being parsed (file id, line; 0: none).
  uint32_t LocFile = 0, LocLine = 0;

  const Token &tok() const { return Toks[Pos]; }
  const Token &peek(size_t K = 1) const {
    return Toks[std::min(Pos + K, Toks.size() - 1)];
  }
  void next() {
    if (Toks[Pos].Kind != TokKind::End)
      ++Pos;
  }
  bool fail(const std::string &Msg) {
    if (!Failed) {
      Error = "ptx:" + std::to_string(tok().Line) + ": " + Msg;
      Failed = true;
    }
    return false;
  }
  std::string describe(const Token &T) const {
    if (T.Kind == TokKind::End)
      return "end of input";
    return "'" + std::string(T.Text) + "'";
  }
  bool expect(char C) {
    if (!tok().is(C))
      return fail(std::string("expected '") + C + "', found " + describe(tok()));
    next();
    return true;
  }
  bool expectInt(uint64_t &V) {
    bool Neg = false;
    if (tok().is('-')) {
      Neg = true;
      next();
    }
    if (tok().Kind != TokKind::Int)
      return fail("expected an integer, found " + describe(tok()));
    V = Neg ? 0 - tok().IntVal : tok().IntVal;
    next();
    return true;
  }
  void skipLine() {
    uint32_t L = tok().Line;
    while (tok().Kind != TokKind::End && tok().Line == L)
      next();
  }
  void skipToSemicolon() {
    while (tok().Kind != TokKind::End && !tok().is(';'))
      next();
    if (tok().is(';'))
      next();
  }
  bool skipBraces() {
    // At '{': skip to the matching '}'.
    int Depth = 0;
    do {
      if (tok().Kind == TokKind::End)
        return fail("unbalanced braces");
      if (tok().is('{'))
        ++Depth;
      else if (tok().is('}'))
        --Depth;
      next();
    } while (Depth > 0);
    return true;
  }

  /// The most registers one `.reg ... %r<N>` declares, and nesting levels
  /// of a constant expression (its parser recurses).
  static constexpr uint64_t MaxRegisterRange = 1u << 16;
  /// The most registers one function declares (every thread of a block gets
  /// them all: 1024 threads x 65536 x 8 bytes is already 512 MiB).
  static constexpr uint64_t MaxFunctionRegisters = 1u << 16;
  /// The most elements of one array variable (the emulator lays frames and
  /// shared memory out with 32-bit offsets).
  static constexpr uint64_t MaxArrayElements = 1u << 28;
  uint64_t FunctionRegisters = 0;
  /// How deep constant expressions and operands may nest (operands nest
  /// in braces, parentheses and '!': two levels in real PTX); the parser
  /// recurses once per level.
  static constexpr unsigned MaxNesting = 64;
  unsigned ConstExprDepth = 0, OperandDepth = 0;
  /// \p Body one level deeper in \p Depth, or a located error naming
  /// \p What beyond MaxNesting.
  template <typename F> bool nested(unsigned &Depth, const char *What, F Body) {
    if (Depth >= MaxNesting)
      return fail(std::string(What) + " nested more than " +
                  std::to_string(MaxNesting) + " levels deep");
    ++Depth;
    bool Ok = Body();
    --Depth;
    return Ok;
  }
  bool parseOperandAt(Operand &O);
  bool parseConstExpr(int64_t &V);
  bool parsePrimaryExpr(int64_t &V);
  /// `-x`, `~x` or `(x)` (parsePrimaryExpr counts the level).
  bool parseNestedExpr(int64_t &V);
  bool parseVarDecl(VarDecl &D, bool InParams);
  bool parseInitializer(VarDecl &D);
  /// The `<N>` register range and `[N]...` array dimensions after a
  /// declared name.
  bool parseNameSuffix(VarDecl &D);
  bool parseInitElem(VarDecl &D);
  bool parseFunction(Module &M, bool Visible, bool Extern, bool Weak);
  bool parseParamList(std::vector<VarDecl> &Out);
  bool parseBody(Function &F);
  bool parseInstruction(Function &F);
  bool parseOperand(Operand &O);
  bool parseAddress(Operand &O);
};

} // namespace

bool Parser::parsePrimaryExpr(int64_t &V) {
  if (tok().is('-') || tok().is('~') || tok().is('('))
    return nested(ConstExprDepth, "constant expression",
                  [&] { return parseNestedExpr(V); });
  if (tok().Kind == TokKind::Int) {
    V = int64_t(tok().IntVal);
    next();
    return true;
  }
  return fail("expected a constant expression, found " + describe(tok()));
}

bool Parser::parseNestedExpr(int64_t &V) {
  if (tok().is('-')) {
    next();
    if (!parsePrimaryExpr(V))
      return false;
    V = int64_t(0 - uint64_t(V)); // wraps like PTX's 64-bit constants
    return true;
  }
  if (tok().is('~')) {
    next();
    if (!parsePrimaryExpr(V))
      return false;
    V = ~V;
    return true;
  }
  next(); // '('
  if (!parseConstExpr(V))
    return false;
  return expect(')');
}

bool Parser::parseConstExpr(int64_t &V) {
  if (!parsePrimaryExpr(V))
    return false;
  while (tok().is('+') || tok().is('-') || tok().is('*') || tok().is('/') ||
         tok().is('&') || tok().is('|') || tok().is('^')) {
    char Op = tok().P;
    next();
    int64_t R;
    if (!parsePrimaryExpr(R))
      return false;
    switch (Op) {
    case '+': V = int64_t(uint64_t(V) + uint64_t(R)); break;
    case '-': V = int64_t(uint64_t(V) - uint64_t(R)); break;
    case '*': V = int64_t(uint64_t(V) * uint64_t(R)); break;
    case '/':
      if (R == 0)
        return fail("division by zero in constant expression");
      V = (V == INT64_MIN && R == -1) ? V : V / R;
      break;
    case '&': V &= R; break;
    case '|': V |= R; break;
    case '^': V ^= R; break;
    }
  }
  return true;
}

bool Parser::parseInitElem(VarDecl &D) {
  InitElem E;
  if (tok().is('{')) {
    // Nested aggregate: flatten.
    next();
    while (!tok().is('}')) {
      if (!parseInitElem(D))
        return false;
      if (tok().is(','))
        next();
      else if (!tok().is('}'))
        return fail("expected ',' or '}' in initializer, found " +
                    describe(tok()));
    }
    next();
    return true;
  }
  bool Neg = false;
  if (tok().is('-') && peek().Kind == TokKind::Float) {
    Neg = true;
    next();
  }
  if (tok().Kind == TokKind::Float) {
    E.K = InitElem::Float;
    E.FloatBits = tok().FloatBits;
    E.IntVal = tok().IntVal;
    E.FVal = Neg ? -tok().FVal : tok().FVal;
    if (Neg && E.FloatBits == 32)
      E.IntVal ^= 0x80000000u;
    else if (Neg && E.FloatBits == 64)
      E.IntVal ^= 0x8000000000000000ull;
    next();
    D.Init.push_back(E);
    return true;
  }
  if (tok().Kind == TokKind::Word) {
    E.K = InitElem::Addr;
    if (tok().Text == "generic" && peek().is('(')) {
      E.Generic = true;
      next();
      next();
      if (tok().Kind != TokKind::Word)
        return fail("expected a symbol in generic(), found " + describe(tok()));
      E.Sym = std::string(tok().Text);
      next();
      if (tok().is('+') || tok().is('-')) {
        bool Minus = tok().is('-');
        next();
        int64_t Off;
        if (!parsePrimaryExpr(Off))
          return false;
        E.Offset = Minus ? -Off : Off;
      }
      if (!expect(')'))
        return false;
    } else {
      E.Sym = std::string(tok().Text);
      next();
    }
    if (tok().is('+') || tok().is('-')) {
      bool Minus = tok().is('-');
      next();
      int64_t Off;
      if (!parsePrimaryExpr(Off))
        return false;
      E.Offset += Minus ? -Off : Off;
    }
    D.Init.push_back(E);
    return true;
  }
  int64_t V;
  if (!parseConstExpr(V))
    return false;
  E.K = InitElem::Int;
  E.IntVal = uint64_t(V);
  D.Init.push_back(E);
  return true;
}

bool Parser::parseNameSuffix(VarDecl &D) {
  if (tok().is('<')) {
    next();
    uint64_t N;
    if (!expectInt(N))
      return false;
    if (!expect('>'))
      return false;
    // ptxas rejects a negative or zero count; the bound keeps a typo such as
    // %f<2000000000> from making every thread allocate gigabytes.
    if (N == 0 || N > MaxRegisterRange)
      return fail("register range <" + std::to_string(int64_t(N)) +
                  "> must be 1 to " + std::to_string(MaxRegisterRange));
    D.RangeCount = unsigned(N);
  }
  while (tok().is('[')) {
    next();
    if (tok().is(']')) {
      D.Dims.push_back(0);
      next();
      continue;
    }
    int64_t N;
    if (!parseConstExpr(N))
      return false;
    if (N <= 0)
      return fail("array dimension must be positive");
    D.Dims.push_back(uint64_t(N));
    uint64_t Elements = 1;
    for (uint64_t X : D.Dims)
      if (X && (Elements = Elements * X) > MaxArrayElements)
        break;
    if (uint64_t(N) > MaxArrayElements || Elements > MaxArrayElements)
      return fail("array of more than " + std::to_string(MaxArrayElements) +
                  " elements");
    if (!expect(']'))
      return false;
  }
  if (D.S == Space::Reg &&
      (FunctionRegisters += D.RangeCount ? D.RangeCount : 1) >
          MaxFunctionRegisters)
    return fail("more than " + std::to_string(MaxFunctionRegisters) +
                " registers declared in one function");
  return true;
}

bool Parser::parseInitializer(VarDecl &D) {
  D.HasInit = true;
  return parseInitElem(D);
}

/// Parses `[attrs] .type name[dims] [= init]` after the state space; the
/// caller has consumed linkage and the space directive.
bool Parser::parseVarDecl(VarDecl &D, bool InParams) {
  D.Line = tok().Line;
  // Attributes and the type.
  for (;;) {
    if (tok().Kind != TokKind::Word || tok().Text.empty() ||
        tok().Text[0] != '.')
      break;
    std::string_view W = tok().Text;
    if (W == ".align") {
      next();
      uint64_t A;
      if (!expectInt(A))
        return false;
      // The PTX ISA: a power of two. The loader allocates module variables
      // with it (posix_memalign takes only powers of two).
      if (A == 0 || (A & (A - 1)) != 0 || A > (uint64_t(1) << 16))
        return fail(".align " + std::to_string(int64_t(A)) +
                    " must be a power of two up to 65536");
      D.Align = unsigned(A);
      continue;
    }
    if (W == ".v2" || W == ".v4" || W == ".v8") {
      D.Vec = unsigned(W[2] - '0');
      next();
      continue;
    }
    if (W.substr(0, 4) == ".ptr") {
      // .ptr[.space][.align N] parameter attribute
      next();
      if (W.find(".align") != std::string_view::npos) {
        uint64_t A;
        if (!expectInt(A))
          return false;
      }
      continue;
    }
    if (InParams && (W == ".global" || W == ".shared" || W == ".const" ||
                     W == ".local")) {
      next(); // `.ptr .global .align N` written with spaces
      continue;
    }
    if (W == ".attribute") {
      next();
      if (tok().is('(')) {
        while (!tok().is(')') && tok().Kind != TokKind::End)
          next();
        next();
      }
      continue;
    }
    Type T = parseType(W.substr(1));
    if (T == Type::None)
      return fail("unknown directive '" + std::string(W) + "' in declaration");
    if (D.T != Type::None)
      return fail("two types in declaration");
    D.T = T;
    next();
  }
  if (D.T == Type::None)
    return fail("expected a type in declaration, found " + describe(tok()));
  if (tok().Kind != TokKind::Word)
    return fail("expected a name in declaration, found " + describe(tok()));
  D.Name = std::string(tok().Text);
  next();
  if (!parseNameSuffix(D))
    return false;
  if (tok().is('=')) {
    next();
    if (!parseInitializer(D))
      return false;
  }
  return true;
}

bool Parser::parseParamList(std::vector<VarDecl> &Out) {
  if (!expect('('))
    return false;
  while (!tok().is(')')) {
    VarDecl D;
    if (tok().isWord(".param"))
      D.S = Space::Param;
    else if (tok().isWord(".reg"))
      D.S = Space::Reg;
    else
      return fail("expected '.param' or '.reg' in parameter list, found " +
                  describe(tok()));
    next();
    if (!parseVarDecl(D, /*InParams=*/true))
      return false;
    Out.push_back(std::move(D));
    if (tok().is(','))
      next();
    else if (!tok().is(')'))
      return fail("expected ',' or ')' in parameter list, found " +
                  describe(tok()));
  }
  next();
  return true;
}

bool Parser::parseFunction(Module &M, bool Visible, bool Extern, bool Weak) {
  FunctionRegisters = 0;
  Function F;
  F.Line = tok().Line;
  F.IsEntry = tok().isWord(".entry");
  F.Visible = Visible;
  F.Extern = Extern;
  F.Weak = Weak;
  next();
  if (!F.IsEntry && tok().is('(')) {
    if (!parseParamList(F.Rets))
      return false;
  }
  if (tok().Kind != TokKind::Word)
    return fail("expected a function name, found " + describe(tok()));
  F.Name = std::string(tok().Text);
  next();
  if (tok().is('(')) {
    if (!parseParamList(F.Params))
      return false;
  }
  // Performance-tuning and other directives.
  for (;;) {
    if (tok().is(';')) {
      next();
      M.Functions.push_back(std::move(F));
      return true;
    }
    if (tok().is('{'))
      break;
    if (tok().Kind != TokKind::Word)
      return fail("expected '{' or ';' after function header, found " +
                  describe(tok()));
    std::string_view W = tok().Text;
    next();
    auto readDims = [&](unsigned *Dst) {
      for (unsigned I = 0; I < 3; ++I) {
        uint64_t V;
        if (!expectInt(V))
          return false;
        Dst[I] = unsigned(V);
        if (!tok().is(','))
          break;
        next();
      }
      return true;
    };
    if (W == ".maxntid") {
      F.MaxNTid[1] = F.MaxNTid[2] = 1;
      if (!readDims(F.MaxNTid))
        return false;
    } else if (W == ".reqntid") {
      F.ReqNTid[1] = F.ReqNTid[2] = 1;
      if (!readDims(F.ReqNTid))
        return false;
    } else if (W == ".minnctapersm") {
      uint64_t V;
      if (!expectInt(V))
        return false;
      F.MinNCtaPerSm = unsigned(V);
    } else if (W == ".maxnreg") {
      uint64_t V;
      if (!expectInt(V))
        return false;
      F.MaxNReg = unsigned(V);
    } else if (W == ".pragma") {
      skipToSemicolon();
    } else if (W == ".noreturn" || W == ".explicitcluster" ||
               W == ".abi_preserve" || W == ".abi_preserve_control") {
      // no semantic effect here
      while (tok().Kind == TokKind::Int || tok().is(','))
        next();
    } else if (W == ".reqnctapercluster" || W == ".maxclusterrank" ||
               W == ".maxnctapersm" || W == ".blocksareclusters") {
      while (tok().Kind == TokKind::Int || tok().is(','))
        next();
    } else {
      return fail("unknown function directive '" + std::string(W) + "'");
    }
  }
  F.HasBody = true;
  if (!parseBody(F))
    return false;
  M.Functions.push_back(std::move(F));
  return true;
}

bool Parser::parseBody(Function &F) {
  // At '{'.
  LocFile = LocLine = 0;
  int Depth = 0;
  do {
    const Token &T = tok();
    if (T.Kind == TokKind::End)
      return fail("unexpected end of input in the body of '" + F.Name + "'");
    if (T.is('{')) {
      ++Depth;
      if (Depth > 1) {
        Statement S;
        S.K = Statement::Open;
        F.Body.push_back(S);
      }
      next();
      continue;
    }
    if (T.is('}')) {
      --Depth;
      if (Depth > 0) {
        Statement S;
        S.K = Statement::Close;
        F.Body.push_back(S);
      }
      next();
      continue;
    }
    if (T.is(';')) {
      next();
      continue;
    }
    if (T.Kind == TokKind::Word && !T.Text.empty() && T.Text[0] == '.') {
      std::string_view W = T.Text;
      if (W == ".loc") {
        // `.loc file line column [, function_name ..., inlined_at ...]`:
        // the source position of the instructions that follow.
        uint32_t L = T.Line;
        next();
        if (tok().Kind == TokKind::Int && tok().Line == L) {
          uint32_t File = uint32_t(tok().IntVal);
          next();
          if (tok().Kind == TokKind::Int && tok().Line == L) {
            LocFile = File;
            LocLine = uint32_t(tok().IntVal);
          }
        }
        if (tok().Line == L)
          skipLine();
        continue;
      }
      if (W == ".file") {
        skipLine();
        continue;
      }
      if (W == ".pragma") {
        skipToSemicolon();
        continue;
      }
      Space S = Space::None;
      if (W == ".reg")
        S = Space::Reg;
      else if (W == ".local")
        S = Space::Local;
      else if (W == ".shared")
        S = Space::Shared;
      else if (W == ".param")
        S = Space::Param;
      else if (W == ".const")
        S = Space::Const;
      else if (W == ".global")
        S = Space::Global;
      else if (W == ".sreg")
        S = Space::SReg;
      if (S == Space::None)
        return fail("unknown directive '" + std::string(W) + "' in function body");
      next();
      // .reg .b32 a, b<3>, c;  shares the type among names.
      VarDecl Proto;
      Proto.S = S;
      if (!parseVarDecl(Proto, false))
        return false;
      for (;;) {
        Statement St;
        St.K = Statement::Decl;
        St.Index = uint32_t(F.Decls.size());
        F.Decls.push_back(Proto);
        F.Body.push_back(St);
        if (!tok().is(','))
          break;
        next();
        if (tok().Kind != TokKind::Word)
          return fail("expected a name in declaration, found " + describe(tok()));
        Proto.Name = std::string(tok().Text);
        Proto.RangeCount = 0;
        Proto.Dims.clear();
        Proto.Init.clear();
        Proto.HasInit = false;
        next();
        if (!parseNameSuffix(Proto))
          return false;
      }
      if (!expect(';'))
        return false;
      continue;
    }
    if (T.Kind == TokKind::Word && peek().is(':')) {
      // A label, or a named directive such as `.callprototype`.
      std::string Name(T.Text);
      next();
      next();
      if (tok().isWord(".callprototype") || tok().isWord(".branchtargets") ||
          tok().isWord(".calltargets")) {
        bool Targets = tok().isWord(".branchtargets");
        if (Targets) {
          // Kept as a label followed by nothing: brx.idx is unsupported and
          // reports itself.
        }
        skipToSemicolon();
        continue;
      }
      Statement St;
      St.K = Statement::Label;
      St.Index = uint32_t(F.Labels.size());
      F.Labels.push_back(Name);
      F.Body.push_back(St);
      continue;
    }
    if (!parseInstruction(F))
      return false;
  } while (Depth > 0);
  return true;
}

bool Parser::parseAddress(Operand &O) {
  // At '['.
  next();
  O.K = Operand::Addr;
  if (tok().Kind == TokKind::Word) {
    O.Text = std::string(tok().Text);
    next();
  } else if (tok().Kind == TokKind::Int || tok().is('-') || tok().is('(')) {
    int64_t V;
    if (!parseConstExpr(V))
      return false;
    O.Offset = V;
    return expect(']');
  } else {
    return fail("expected an address, found " + describe(tok()));
  }
  while (tok().is('+') || tok().is('-')) {
    bool Minus = tok().is('-');
    next();
    bool Minus2 = false;
    while (tok().is('-') || tok().is('+')) { // `+-4`
      if (tok().is('-'))
        Minus2 = !Minus2;
      next();
    }
    int64_t V;
    if (!parsePrimaryExpr(V))
      return false;
    if (Minus != Minus2)
      V = -V;
    O.Offset += V;
  }
  if (!tok().is(']')) {
    // Texture/surface coordinates and other forms: kept as one opaque
    // operand (the decoder reports such instructions as unsupported).
    O.Text = "<complex>";
    int Depth = 1;
    while (Depth > 0 && tok().Kind != TokKind::End) {
      if (tok().is('['))
        ++Depth;
      else if (tok().is(']'))
        --Depth;
      next();
    }
    return true;
  }
  next();
  return true;
}

bool Parser::parseOperand(Operand &O) {
  return nested(OperandDepth, "operand", [&] { return parseOperandAt(O); });
}

bool Parser::parseOperandAt(Operand &O) {
  const Token &T = tok();
  if (T.is('!')) {
    next();
    if (!parseOperand(O))
      return false;
    O.Neg = true;
    return true;
  }
  if (T.is('[')) {
    return parseAddress(O);
  }
  if (T.is('{') || T.is('(')) {
    char Close = T.is('{') ? '}' : ')';
    O.K = T.is('{') ? Operand::Vec : Operand::List;
    next();
    while (!tok().is(Close)) {
      Operand E;
      if (!parseOperand(E))
        return false;
      O.Elems.push_back(std::move(E));
      if (tok().is(','))
        next();
      else if (!tok().is(Close))
        return fail(std::string("expected ',' or '") + Close + "', found " +
                    describe(tok()));
    }
    next();
    return true;
  }
  if (T.is('-') && peek().Kind == TokKind::Float) {
    next();
    if (!parseOperand(O))
      return false;
    if (O.FloatBits == 32)
      O.IntVal ^= 0x80000000u;
    else if (O.FloatBits == 64)
      O.IntVal ^= 0x8000000000000000ull;
    else
      O.FVal = -O.FVal;
    return true;
  }
  if (T.Kind == TokKind::Float) {
    O.K = Operand::FImm;
    O.FloatBits = T.FloatBits;
    O.IntVal = T.IntVal;
    O.FVal = T.FVal;
    next();
    return true;
  }
  if (T.Kind == TokKind::Int || T.is('-') || T.is('(') || T.is('~')) {
    int64_t V;
    if (!parseConstExpr(V))
      return false;
    O.K = Operand::Imm;
    O.IntVal = uint64_t(V);
    return true;
  }
  if (T.Kind == TokKind::Word) {
    if (T.Text == "_") {
      O.K = Operand::Sink;
      next();
      return true;
    }
    O.K = Operand::Name;
    O.Text = std::string(T.Text);
    next();
    if (tok().is('+') && (peek().Kind == TokKind::Int || peek().is('('))) {
      next();
      int64_t V;
      if (!parsePrimaryExpr(V))
        return false;
      O.Offset = V;
    }
    if (tok().is('|')) {
      next();
      if (tok().Kind != TokKind::Word)
        return fail("expected a predicate after '|', found " + describe(tok()));
      O.Text2 = std::string(tok().Text);
      next();
    }
    return true;
  }
  return fail("expected an operand, found " + describe(T));
}

bool Parser::parseInstruction(Function &F) {
  Instruction I;
  I.Line = tok().Line;
  I.SrcFile = LocFile;
  I.SrcLine = LocLine;
  if (tok().is('@')) {
    next();
    if (tok().is('!')) {
      I.GuardNeg = true;
      next();
    }
    if (tok().Kind != TokKind::Word)
      return fail("expected a predicate after '@', found " + describe(tok()));
    I.GuardReg = std::string(tok().Text);
    next();
  }
  if (tok().Kind != TokKind::Word)
    return fail("expected an instruction, found " + describe(tok()));
  I.Opcode = std::string(tok().Text);
  next();
  {
    size_t P = 0;
    const std::string &S = I.Opcode;
    while (P <= S.size()) {
      size_t Q = S.find('.', P);
      if (Q == std::string::npos)
        Q = S.size();
      if (Q > P)
        I.Parts.push_back(S.substr(P, Q - P));
      P = Q + 1;
    }
  }
  // Some opcodes carry separate qualifier words (`mov.u32 ...` never does,
  // but hand-written PTX may put a space before a qualifier).
  while (tok().Kind == TokKind::Word && !tok().Text.empty() &&
         tok().Text[0] == '.' && !peek().is(':')) {
    std::string_view W = tok().Text;
    size_t P = 1;
    while (P <= W.size()) {
      size_t Q = W.find('.', P);
      if (Q == std::string_view::npos)
        Q = W.size();
      if (Q > P)
        I.Parts.push_back(std::string(W.substr(P, Q - P)));
      P = Q + 1;
    }
    I.Opcode += std::string(W);
    next();
  }
  while (!tok().is(';')) {
    Operand O;
    if (!parseOperand(O))
      return false;
    I.Ops.push_back(std::move(O));
    if (tok().is(',')) {
      next();
      if (tok().is(';'))
        return fail("expected an operand, found ';'");
    } else if (!tok().is(';'))
      return fail("expected ',' or ';' after operand of '" + I.Opcode +
                  "', found " + describe(tok()));
  }
  next();
  Statement St;
  St.K = Statement::Inst;
  St.Index = uint32_t(F.Insts.size());
  F.Insts.push_back(std::move(I));
  F.Body.push_back(St);
  return true;
}

std::unique_ptr<Module> Parser::run() {
  auto M = std::make_unique<Module>();
  // PTX ISA, "PTX Module Directives": a module begins with `.version`,
  // followed by `.target`; ptxas rejects a module without them.
  bool SawVersion = false, SawTarget = false;
  while (tok().Kind != TokKind::End) {
    const Token &T = tok();
    if (T.is(';')) {
      next();
      continue;
    }
    if (T.Kind != TokKind::Word) {
      fail("unexpected " + describe(T) + " at module scope");
      return nullptr;
    }
    std::string_view W = T.Text;
    if (!SawVersion && W != ".version") {
      fail("the module does not begin with a '.version' directive (found " +
           describe(T) + ")");
      return nullptr;
    }
    if (SawVersion && W == ".version") {
      fail("a second '.version' directive");
      return nullptr;
    }
    if (SawVersion && !SawTarget && W != ".target") {
      fail("'.version' must be followed by a '.target' directive (found " +
           describe(T) + ")");
      return nullptr;
    }
    SawTarget |= W == ".target";
    SawVersion = true;
    if (W == ".version") {
      next();
      if (tok().Kind == TokKind::Float || tok().Kind == TokKind::Int) {
        M->Version = std::string(tok().Text);
        next();
      } else {
        fail("expected a version number after '.version'");
        return nullptr;
      }
      continue;
    }
    if (W == ".target") {
      next();
      M->Target = tok().Kind == TokKind::Word ? std::string(tok().Text) : "";
      next();
      while (tok().is(',')) {
        next();
        next();
      }
      continue;
    }
    if (W == ".address_size") {
      next();
      uint64_t V;
      if (!expectInt(V))
        return nullptr;
      M->AddressSize = unsigned(V);
      continue;
    }
    if (W == ".file") {
      // `.file id "name" [, timestamp, size]`.
      uint32_t L = tok().Line;
      next();
      if (tok().Kind == TokKind::Int && tok().Line == L) {
        uint32_t Id = uint32_t(tok().IntVal);
        next();
        if (tok().Kind == TokKind::String && tok().Line == L)
          M->Files.emplace_back(Id, std::string(tok().Text));
      }
      if (tok().Line == L)
        skipLine();
      continue;
    }
    if (W == ".loc") {
      skipLine();
      continue;
    }
    if (W == ".section") {
      next();
      while (tok().Kind != TokKind::End && !tok().is('{'))
        next();
      if (!skipBraces())
        return nullptr;
      continue;
    }
    if (W == ".pragma") {
      skipToSemicolon();
      continue;
    }
    if (W == ".alias") {
      skipToSemicolon();
      continue;
    }
    bool Visible = false, Extern = false, Weak = false;
    while (tok().isWord(".visible") || tok().isWord(".extern") ||
           tok().isWord(".weak") || tok().isWord(".common")) {
      if (tok().isWord(".visible"))
        Visible = true;
      else if (tok().isWord(".extern"))
        Extern = true;
      else
        Weak = true;
      next();
    }
    if (tok().isWord(".entry") || tok().isWord(".func")) {
      if (!parseFunction(*M, Visible, Extern, Weak))
        return nullptr;
      continue;
    }
    Space S = Space::None;
    if (tok().isWord(".global"))
      S = Space::Global;
    else if (tok().isWord(".const"))
      S = Space::Const;
    else if (tok().isWord(".shared"))
      S = Space::Shared;
    else if (tok().isWord(".local"))
      S = Space::Local;
    else if (tok().isWord(".tex"))
      S = Space::Tex;
    if (S == Space::None) {
      fail("unknown directive " + describe(tok()) + " at module scope");
      return nullptr;
    }
    next();
    VarDecl Proto;
    Proto.S = S;
    Proto.Extern = Extern;
    Proto.Visible = Visible;
    Proto.Weak = Weak;
    if (!parseVarDecl(Proto, false))
      return nullptr;
    M->Globals.push_back(Proto);
    while (tok().is(',')) {
      next();
      VarDecl D = Proto;
      D.Init.clear();
      D.HasInit = false;
      D.Dims.clear();
      if (tok().Kind != TokKind::Word) {
        fail("expected a name in declaration, found " + describe(tok()));
        return nullptr;
      }
      D.Name = std::string(tok().Text);
      next();
      while (tok().is('[')) {
        next();
        int64_t N = 0;
        if (!tok().is(']') && !parseConstExpr(N))
          return nullptr;
        D.Dims.push_back(uint64_t(N));
        if (!expect(']'))
          return nullptr;
      }
      if (tok().is('=')) {
        next();
        if (!parseInitializer(D))
          return nullptr;
      }
      M->Globals.push_back(std::move(D));
    }
    if (!expect(';'))
      return nullptr;
  }
  if (Failed)
    return nullptr;
  if (!SawTarget) {
    fail(SawVersion ? "'.version' must be followed by a '.target' directive"
                    : "the module does not begin with a '.version' directive "
                      "(it is empty)");
    return nullptr;
  }
  return M;
}

std::unique_ptr<Module> parseModule(std::string_view Text, std::string &Error) {
  std::vector<Token> Toks;
  if (!tokenize(Text, Toks, Error))
    return nullptr;
  Parser P(Toks, Error);
  auto M = P.run();
  return M;
}

} // namespace klaraptor::emu::ptx
