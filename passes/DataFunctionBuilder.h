//===- DataFunctionBuilder.h - emit a kernel's klaraptor_data_fn ----------===//
///
/// \file
/// Emits, for one annotated kernel, the function that computes its data
/// parameters from a launch's argument array:
///
///   define internal i32 @__klaraptor_data.<kernel>(ptr %args, ptr %out)
///
/// Kernel parameter `$k` of type iN is read as
/// `load iN, (load ptr, (gep ptr %args, k))` and sign- or zero-extended to
/// i64 as its spec type says. Expressions are evaluated exactly like
/// klaraptor::evaluate (runtime/spec/KernelSpec.cpp): 64-bit signed
/// arithmetic, `/` and `%` truncate, `ceildiv` rounds towards +infinity, `&&`
/// and `||` short-circuit, and division by zero, INT64_MIN / -1 and signed
/// overflow of `+ - *` and unary `-` are errors. An error branches to a block
/// that returns 1 before any undefined operation executes; otherwise every
/// value is stored to `out[i]` and the function returns 0.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PASSES_DATAFUNCTIONBUILDER_H
#define KLARAPTOR_PASSES_DATAFUNCTIONBUILDER_H

#include "KernelSpec.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace klaraptor {

/// Builds one data function; use once.
class DataFunctionBuilder {
public:
  DataFunctionBuilder(llvm::Module &M, const KernelSpec &Spec,
                      llvm::FunctionType *DataFnTy);

  /// Emits the function under \p Name (internal linkage) and returns it.
  llvm::Function *build(const llvm::Twine &Name);

private:
  llvm::Module &M;
  const KernelSpec &Spec;
  llvm::FunctionType *DataFnTy;
  llvm::IRBuilder<> B;
  llvm::Function *F = nullptr;
  llvm::BasicBlock *ErrorBB = nullptr;
  /// The i64 value of each ParamRef of the spec, by its position.
  llvm::DenseMap<unsigned, llvm::Value *> Params;

  void loadParams(llvm::Value *Args);
  llvm::Value *emit(const Expr &E);
  llvm::Value *emitBinary(const Expr &E);
  llvm::Value *emitShortCircuit(const Expr &E);
  llvm::Value *emitCall(const Expr &E);
  /// Leaves the current block towards ErrorBB when \p Bad holds and goes on
  /// in a fresh block named \p Cont.
  void failIf(llvm::Value *Bad, const llvm::Twine &Cont);
  /// Guards `A / B`, `A % B` and `ceildiv(A, B)`: B == 0 or
  /// (A == INT64_MIN and B == -1) is an error.
  void guardDivision(llvm::Value *A, llvm::Value *Divisor);
  /// `A op B` through llvm.s{add,sub,mul}.with.overflow, failing on overflow.
  llvm::Value *checkedArith(llvm::Intrinsic::ID ID, llvm::Value *A,
                            llvm::Value *B, const llvm::Twine &Name);
};

} // namespace klaraptor

#endif // KLARAPTOR_PASSES_DATAFUNCTIONBUILDER_H
