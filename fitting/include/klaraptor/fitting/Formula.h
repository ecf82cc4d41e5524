//===- Formula.h - quantities computed exactly, not fitted ------*- C++ -*-===//
///
/// \file
/// Some quantities are known exactly and are never fitted: threads per
/// block is the product of the block dimensions, and the number of blocks
/// is the product of the pragma's grid formulas. A Formula is such an integer
/// expression over the fitted variables, in the pragma's own expression
/// language (runtime/spec/KernelSpec.h, docs/spec-format.md: + - * / %,
/// comparisons, && ||, ceildiv, min, max, 64-bit with overflow checks). It
/// is evaluated with the spec's evaluator, so it means exactly what the
/// runtime computes, and it can be checked against measured samples and
/// emitted as C.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_FITTING_FORMULA_H
#define KLARAPTOR_FITTING_FORMULA_H

#include "KernelSpec.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace klaraptor {
namespace fitting {

class Formula {
public:
  /// Parses \p Text over the variables \p Vars (bx, by and bz are the block
  /// dimensions; any other name is a data parameter). Errors name the
  /// column of \p Text.
  static std::optional<Formula> parse(const std::string &Text,
                                      const std::vector<std::string> &Vars,
                                      std::string &Error);
  /// The threads per block of \p S's kernel: the product of its free block
  /// dimensions (the others are 1).
  static std::optional<Formula>
  threadsPerBlock(const KernelSpec &S, const std::vector<std::string> &Vars,
                  std::string &Error);
  /// The number of blocks of \p S's kernel: the product of its three grid
  /// formulas.
  static std::optional<Formula> numBlocks(const KernelSpec &S,
                                          const std::vector<std::string> &Vars,
                                          std::string &Error);

  const std::vector<std::string> &vars() const { return Vars; }
  /// The value at \p X (one value per variable).
  EvalStatus evaluate(const int64_t *X, int64_t &Out) const;
  /// The value as the emitted C returns it: NaN when evaluation fails.
  double evaluateAsC(const int64_t *X) const;
  /// The expression, fully parenthesised.
  std::string str() const;
  /// The expression as a C expression over the variables; \p Err names an
  /// `int` flag the helpers set on overflow or division by zero.
  std::string cExpression(const std::string &Err) const;

private:
  static std::optional<Formula>
  fromSpec(const KernelSpec &S, const std::vector<std::string> &Vars,
           std::unique_ptr<Expr> E, std::array<int, 3> BlockVar,
           std::vector<int> DataVar, std::string &Error);

  std::vector<std::string> Vars;
  std::shared_ptr<KernelSpec> Spec; ///< owns the data names
  std::shared_ptr<Expr> E;
  std::vector<int> DataVar;                   ///< spec data index -> variable
  std::array<int, 3> BlockVar = {-1, -1, -1}; ///< block dim -> variable
};

} // namespace fitting
} // namespace klaraptor

#endif // KLARAPTOR_FITTING_FORMULA_H
