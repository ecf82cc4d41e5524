//===- KernelSpec.h - the encoded form of a '#pragma klaraptor' -----------===//
///
/// \file
/// A KernelSpec is what one `#pragma klaraptor` says about one kernel: its data
/// parameters (integer expressions over kernel parameters), its free block
/// dimensions, its where-constraints, its grid formula, its dynamic shared
/// memory and its candidate set.
///
/// The frontend plugin (pragmas/) builds a KernelSpec from the pragma's tokens
/// and writes it into the IR as the text of an `annotate` attribute on the
/// kernel; the IO-builder pass (passes/) and the runtime (runtime/) read that
/// text back with parseKernelSpec. The text format is described in
/// docs/spec-format.md; it is versioned by its first line, `klaraptor v1`.
///
/// This file depends on the C++ standard library only, so that the plugin, the
/// pass and the runtime can all compile it.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_SPEC_KERNELSPEC_H
#define KLARAPTOR_SPEC_KERNELSPEC_H

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace klaraptor {

/// First line of every encoded spec; the version changes when the format does.
inline constexpr const char *SpecMagic = "klaraptor v1";

/// An integer expression node. Leaves are literals, data parameters, block
/// dimensions and kernel parameters; inner nodes are operators and calls.
struct Expr {
  enum class Kind {
    Literal,  ///< Value
    Data,     ///< Index into the spec's data parameters
    BlockDim, ///< Index 0, 1, 2 for bx, by, bz
    Param,    ///< Index into the spec's Params ($k or $k.offset)
    Unary,    ///< Op is '-' or '!'; Args[0]
    Binary,   ///< Op; Args[0], Args[1]
    Call      ///< Callee; Args
  };
  enum class Op {
    Neg, Not, Add, Sub, Mul, Div, Rem, Lt, Le, Gt, Ge, Eq, Ne, And, Or
  };
  enum class Callee { CeilDiv, Min, Max };

  Kind K = Kind::Literal;
  /// Literal value, or the index for Data/BlockDim/Param (for Param the
  /// position of its ParamRef in KernelSpec::Params, not the kernel
  /// parameter's position: a struct parameter may have several).
  int64_t Value = 0;
  Op O = Op::Add;
  Callee F = Callee::Min;
  std::vector<std::unique_ptr<Expr>> Args;

  static std::unique_ptr<Expr> literal(int64_t V);
  static std::unique_ptr<Expr> leaf(Kind K, int64_t Index);
  static std::unique_ptr<Expr> unary(Op O, std::unique_ptr<Expr> A);
  static std::unique_ptr<Expr> binary(Op O, std::unique_ptr<Expr> A,
                                      std::unique_ptr<Expr> B);
  static std::unique_ptr<Expr> call(Callee F,
                                    std::vector<std::unique_ptr<Expr>> Args);
  std::unique_ptr<Expr> clone() const;
};

/// The spelling of an operator or callee ("+", "<=", "ceildiv", ...).
const char *spelling(Expr::Op O);
const char *spelling(Expr::Callee F);
/// Minimum and maximum argument counts of a callee (max 0 means unbounded).
std::pair<unsigned, unsigned> arity(Expr::Callee F);

/// Integer kinds a data parameter may be computed from.
enum class IntType { I8, U8, I16, U16, I32, U32, I64, U64 };
const char *spelling(IntType T);
unsigned bitWidth(IntType T);
bool isSigned(IntType T);

/// A kernel parameter, or an integer field of a struct parameter passed by
/// value, that a data expression reads.
struct ParamRef {
  unsigned Index = 0;  ///< Position in the kernel's parameter list.
  uint32_t Offset = 0; ///< Byte offset of the field in the parameter's storage.
  std::string Name;    ///< The parameter's name, or its field's: `d.rows`.
  IntType Type = IntType::I32;
};

struct DataParam {
  std::string Name;
  std::unique_ptr<Expr> Value; ///< Over Param leaves and literals only.
};

/// Which block shapes are tried.
struct CandidateSet {
  enum class Kind {
    Pow2, ///< free dims powers of two, 32 <= threads <= device maximum
    Warp, ///< bx a multiple of 32, other free dims powers of two
    List  ///< exactly the listed shapes
  };
  Kind K = Kind::Pow2;
  std::vector<std::array<uint32_t, 3>> Shapes; ///< For List; unused dims are 1.
};

struct KernelSpec {
  std::string KernelName; ///< As written in the source (not mangled).
  std::string Location;   ///< file:line:col of the pragma.
  std::vector<ParamRef> Params;
  std::vector<DataParam> Data;
  std::array<bool, 3> FreeDims = {false, false, false}; ///< bx, by, bz
  std::vector<std::unique_ptr<Expr>> Where;
  std::array<std::unique_ptr<Expr>, 3> Grid; ///< Over Data/BlockDim leaves.
  /// The launch's dynamic shared memory in bytes, over Data/BlockDim leaves
  /// (the pragma's shared(...) clause); null when the pragma has none, which
  /// means 0 bytes.
  std::unique_ptr<Expr> Shared;
  CandidateSet Candidates;

  unsigned numFreeDims() const;
  /// The position in Params of the ParamRef that reads kernel parameter
  /// \p Index at byte \p Offset, or -1.
  int findParam(unsigned Index, uint32_t Offset = 0) const;
};

/// Prints \p E in the canonical, fully parenthesised form; names come from
/// \p S (data names, $k for parameters).
std::string printExpr(const Expr &E, const KernelSpec &S);
/// The encoded text of \p S (docs/spec-format.md).
std::string printKernelSpec(const KernelSpec &S);

/// Parses encoded text. On failure returns nullopt and sets \p Error to a
/// message naming the line that is wrong.
std::optional<KernelSpec> parseKernelSpec(const std::string &Text,
                                          std::string &Error);

/// Values an expression is evaluated with.
struct EvalEnv {
  const int64_t *Data = nullptr;
  size_t NumData = 0;
  std::array<int64_t, 3> Block = {1, 1, 1};
  const int64_t *Params = nullptr; ///< Indexed like KernelSpec::Params.
  size_t NumParams = 0;
};

enum class EvalStatus { Ok, DivisionByZero, Overflow, Unbound };
const char *describe(EvalStatus S);

/// Evaluates \p E with 64-bit signed arithmetic; '/' and '%' truncate as in
/// C, ceildiv(a, b) rounds the quotient towards +infinity, comparisons and
/// logical operators give 0 or 1.
EvalStatus evaluate(const Expr &E, const EvalEnv &Env, int64_t &Result);

/// ceildiv with the semantics above; \p B must not be zero.
int64_t ceilDiv(int64_t A, int64_t B);

} // namespace klaraptor

#endif // KLARAPTOR_SPEC_KERNELSPEC_H
