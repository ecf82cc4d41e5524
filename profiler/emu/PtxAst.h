//===- PtxAst.h - the syntax tree of a PTX module -------------------------===//
///
/// \file
/// What PtxParser produces: module-scope variables, functions (entries and
/// device functions) with parameters, and their bodies as a flat list of
/// statements (declarations, labels, instructions, scope braces). Operands
/// stay symbolic (register and symbol names); the decoder (Decoder.cpp)
/// resolves them for one kernel.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_PTXAST_H
#define KLARAPTOR_PROFILER_EMU_PTXAST_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace klaraptor::emu::ptx {

/// Fundamental PTX types.
enum class Type : uint8_t {
  None,
  Pred,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, F32, F64,
  TF32, E4M3x2, E5M2x2,
  TexRef, SamplerRef, SurfRef
};

/// Parses a type suffix without its dot ("u32"); None when it is no type.
Type parseType(std::string_view S);
const char *typeName(Type T);
/// Size in bytes (0 for Pred / opaque types).
unsigned typeSize(Type T);
inline bool isSigned(Type T) {
  return T == Type::S8 || T == Type::S16 || T == Type::S32 || T == Type::S64;
}
inline bool isFloat(Type T) {
  return T == Type::F16 || T == Type::F16x2 || T == Type::BF16 ||
         T == Type::BF16x2 || T == Type::F32 || T == Type::F64;
}

enum class Space : uint8_t { None, Reg, SReg, Global, Shared, Local, Param, Const, Tex };

/// One element of an initializer: an integer, a float, or the address of a
/// symbol (plus an offset; Generic for `generic(sym)`).
struct InitElem {
  enum Kind : uint8_t { Int, Float, Addr } K = Int;
  bool Generic = false;
  uint64_t IntVal = 0; ///< Int; Float literal bits when FloatBits != 0
  uint8_t FloatBits = 0;
  double FVal = 0;
  int64_t Offset = 0;
  std::string Sym;
};

struct VarDecl {
  Space S = Space::None;
  Type T = Type::None;
  unsigned Vec = 1;   ///< .v2 / .v4
  unsigned Align = 0; ///< 0: natural
  std::string Name;
  /// Array dimensions; a 0 entry is an unsized dimension (`[]`).
  std::vector<uint64_t> Dims;
  bool Extern = false, Visible = false, Weak = false;
  /// `%r<12>`: a parameterized register name; RangeCount registers
  /// `%r0..%r11`. 0 when the declaration is a plain name.
  unsigned RangeCount = 0;
  bool HasInit = false;
  std::vector<InitElem> Init; ///< flattened
  uint32_t Line = 0;

  /// Bytes of one element (vector included).
  unsigned elemSize() const;
  /// Total bytes (0 for unsized arrays).
  uint64_t byteSize() const;
  unsigned alignment() const;
};

/// An instruction operand as written.
struct Operand {
  enum Kind : uint8_t {
    Name,  ///< register, special register, symbol or label (`Name`+`Offset`)
    Imm,   ///< integer constant (IntVal)
    FImm,  ///< 0f/0d constant (IntVal = bits, FloatBits) or decimal (FVal)
    Addr,  ///< [Name + Offset] / [Offset]
    Vec,   ///< {a, b, ...}
    List,  ///< (a, b, ...) in call
    Sink   ///< `_`
  } K = Name;
  bool Neg = false;     ///< `!%p`
  uint8_t FloatBits = 0;
  std::string Text;     ///< the name (Name, Addr base)
  std::string Text2;    ///< second destination of `a|b`
  int64_t Offset = 0;   ///< Name/Addr: added constant
  uint64_t IntVal = 0;
  double FVal = 0;
  std::vector<Operand> Elems; ///< Vec / List
};

struct Instruction {
  std::string Opcode;                 ///< full dotted text
  std::vector<std::string> Parts; ///< Opcode split at dots
  std::string GuardReg;               ///< empty when unguarded
  bool GuardNeg = false;
  std::vector<Operand> Ops;
  uint32_t Line = 0;
  /// The source position of the last `.loc` before it in its function
  /// (file id of a `.file` directive, line), 0 when none.
  uint32_t SrcFile = 0, SrcLine = 0;
};

struct Statement {
  enum Kind : uint8_t { Inst, Label, Decl, Open, Close } K = Inst;
  uint32_t Index = 0; ///< into Function::Insts / Decls; Label: into Labels
};

struct Function {
  std::string Name;
  bool IsEntry = false;
  bool Visible = false, Extern = false, Weak = false;
  bool HasBody = false;
  std::vector<VarDecl> Params;  ///< .param (or .reg) parameters
  std::vector<VarDecl> Rets;    ///< .func return parameters
  unsigned MaxNTid[3] = {0, 0, 0};
  unsigned ReqNTid[3] = {0, 0, 0};
  unsigned MinNCtaPerSm = 0;
  unsigned MaxNReg = 0;
  std::vector<Statement> Body;
  std::vector<Instruction> Insts;
  std::vector<VarDecl> Decls;
  std::vector<std::string> Labels;
  uint32_t Line = 0;
};

struct Module {
  std::string Version;
  std::string Target;
  unsigned AddressSize = 64;
  std::vector<VarDecl> Globals;
  std::vector<Function> Functions;
  /// `.file` directives: id and file name.
  std::vector<std::pair<uint32_t, std::string>> Files;
};

/// Parses PTX text. On failure returns null and sets \p Error
/// ("ptx:LINE: ...").
std::unique_ptr<Module> parseModule(std::string_view Text, std::string &Error);

} // namespace klaraptor::emu::ptx

#endif // KLARAPTOR_PROFILER_EMU_PTXAST_H
