//===- DataFunctionBuilder.cpp - emit a kernel's klaraptor_data_fn --------===//
///
/// \file
/// See DataFunctionBuilder.h. The generated code mirrors klaraptor::evaluate
/// operation by operation, so the runtime may use either and get the same
/// values and the same failures (test/Passes/io-builder-datafn-eval.test
/// compares the two on many inputs).
//===----------------------------------------------------------------------===//
#include "DataFunctionBuilder.h"

#include "LLVMCompat.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace klaraptor {

DataFunctionBuilder::DataFunctionBuilder(Module &M, const KernelSpec &Spec,
                                         FunctionType *DataFnTy)
    : M(M), Spec(Spec), DataFnTy(DataFnTy), B(M.getContext()) {}

Function *DataFunctionBuilder::build(const Twine &Name) {
  LLVMContext &C = M.getContext();
  F = Function::Create(DataFnTy, GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::WillReturn);
  Argument *Args = F->getArg(0);
  Argument *Out = F->getArg(1);
  Args->setName("args");
  Out->setName("out");

  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  ErrorBB = BasicBlock::Create(C, "error", F);
  B.SetInsertPoint(ErrorBB);
  // Any nonzero status means "could not evaluate"; 1 is all we use.
  B.CreateRet(B.getInt32(1));

  B.SetInsertPoint(Entry);
  loadParams(Args);
  SmallVector<Value *, 4> Values;
  for (const DataParam &D : Spec.Data) {
    Value *V = emit(*D.Value);
    // Name the value after its data parameter unless it is a parameter's
    // (named already) or a constant.
    if (isa<Instruction>(V) && !isa<LoadInst>(V) &&
        !(isa<CastInst>(V) && isa<LoadInst>(cast<CastInst>(V)->getOperand(0))))
      V->setName(D.Name);
    Values.push_back(V);
  }
  // Stores only once every value is known, so a failing launch never leaves
  // a half-written out[].
  for (size_t I = 0; I < Values.size(); ++I) {
    Value *Slot = B.CreateConstInBoundsGEP1_64(B.getInt64Ty(), Out, I,
                                               "out." + Spec.Data[I].Name);
    B.CreateAlignedStore(Values[I], Slot, Align(8));
  }
  B.CreateRet(B.getInt32(0));
  // Keep the error block last, where a reader expects it, or drop it when
  // nothing can fail.
  if (pred_empty(ErrorBB))
    ErrorBB->eraseFromParent();
  else
    ErrorBB->moveAfter(&F->back());
  return F;
}

void DataFunctionBuilder::loadParams(Value *Args) {
  Type *Ptr = compat::ptrTy(M.getContext());
  for (unsigned I = 0; I < Spec.Params.size(); ++I) {
    const ParamRef &P = Spec.Params[I];
    // args[k] points to the storage of kernel parameter k, whatever the
    // parameters before it look like (structs by value included).
    Value *Slot =
        B.CreateConstInBoundsGEP1_64(Ptr, Args, P.Index, P.Name + ".slot");
    Value *Addr = B.CreateAlignedLoad(Ptr, Slot, Align(8), P.Name + ".addr");
    unsigned Bits = bitWidth(P.Type);
    // A field of a struct parameter (`s.rows`) lies Offset bytes into its
    // storage, which is aligned only as the struct is: a packed one's
    // fields may be anywhere, so a field is read with alignment 1.
    const bool Field = P.Offset != 0 || P.Name.find('.') != std::string::npos;
    if (P.Offset)
      Addr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Addr, P.Offset,
                                          P.Name + ".field");
    Value *Raw = B.CreateAlignedLoad(B.getIntNTy(Bits), Addr,
                                     Align(Field ? 1 : Bits / 8), P.Name);
    Value *Wide = Raw;
    if (Bits < 64)
      Wide = isSigned(P.Type)
                 ? B.CreateSExt(Raw, B.getInt64Ty(), P.Name + ".i64")
                 : B.CreateZExt(Raw, B.getInt64Ty(), P.Name + ".i64");
    Params[I] = Wide;
  }
}

void DataFunctionBuilder::failIf(Value *Bad, const Twine &Cont) {
  BasicBlock *Next = BasicBlock::Create(M.getContext(), Cont, F);
  B.CreateCondBr(Bad, ErrorBB, Next);
  B.SetInsertPoint(Next);
}

void DataFunctionBuilder::guardDivision(Value *A, Value *Divisor) {
  // A nonzero constant divisor other than -1 cannot fail: no guard.
  if (auto *CI = dyn_cast<ConstantInt>(Divisor))
    if (!CI->isZero() && !CI->isMinusOne())
      return;
  Value *Zero = B.CreateICmpEQ(Divisor, B.getInt64(0), "div.zero");
  Value *Min = B.CreateICmpEQ(A, B.getInt64(INT64_MIN), "div.min");
  Value *MinusOne = B.CreateICmpEQ(Divisor, B.getInt64(-1), "div.minus1");
  Value *Bad = B.CreateOr(Zero, B.CreateAnd(Min, MinusOne), "div.bad");
  failIf(Bad, "div.ok");
}

Value *DataFunctionBuilder::checkedArith(Intrinsic::ID ID, Value *A, Value *V,
                                         const Twine &Name) {
  Function *Decl = compat::intrinsic(M, ID, {B.getInt64Ty()});
  Value *Pair = B.CreateCall(Decl, {A, V});
  Value *Result = B.CreateExtractValue(Pair, 0, Name);
  Value *Overflow = B.CreateExtractValue(Pair, 1, Name + ".ovf");
  failIf(Overflow, Name + ".ok");
  return Result;
}

Value *DataFunctionBuilder::emit(const Expr &E) {
  switch (E.K) {
  case Expr::Kind::Literal:
    return B.getInt64(E.Value);
  case Expr::Kind::Param: {
    auto It = Params.find(unsigned(E.Value));
    if (It != Params.end())
      return It->second;
    // The parser rejects a $k without a 'param' line; evaluate() calls it
    // unbound, and so do we.
    B.CreateBr(ErrorBB);
    B.SetInsertPoint(BasicBlock::Create(M.getContext(), "unreachable", F));
    return B.getInt64(0);
  }
  case Expr::Kind::Data:
  case Expr::Kind::BlockDim:
    // Not allowed in data expressions (the parser says so); unbound.
    B.CreateBr(ErrorBB);
    B.SetInsertPoint(BasicBlock::Create(M.getContext(), "unreachable", F));
    return B.getInt64(0);
  case Expr::Kind::Unary: {
    Value *A = emit(*E.Args[0]);
    if (E.O == Expr::Op::Not)
      return B.CreateZExt(B.CreateICmpEQ(A, B.getInt64(0)), B.getInt64Ty(),
                          "not");
    // -INT64_MIN overflows.
    failIf(B.CreateICmpEQ(A, B.getInt64(INT64_MIN), "neg.min"), "neg.ok");
    return B.CreateNSWNeg(A, "neg");
  }
  case Expr::Kind::Binary:
    if (E.O == Expr::Op::And || E.O == Expr::Op::Or)
      return emitShortCircuit(E);
    return emitBinary(E);
  case Expr::Kind::Call:
    return emitCall(E);
  }
  return B.getInt64(0);
}

Value *DataFunctionBuilder::emitBinary(const Expr &E) {
  Value *A = emit(*E.Args[0]);
  Value *V = emit(*E.Args[1]);
  auto Bool = [&](Value *Cmp) {
    return B.CreateZExt(Cmp, B.getInt64Ty(), "cmp");
  };
  switch (E.O) {
  case Expr::Op::Add:
    return checkedArith(Intrinsic::sadd_with_overflow, A, V, "add");
  case Expr::Op::Sub:
    return checkedArith(Intrinsic::ssub_with_overflow, A, V, "sub");
  case Expr::Op::Mul:
    return checkedArith(Intrinsic::smul_with_overflow, A, V, "mul");
  case Expr::Op::Div:
    guardDivision(A, V);
    return B.CreateSDiv(A, V, "div");
  case Expr::Op::Rem:
    guardDivision(A, V);
    return B.CreateSRem(A, V, "rem");
  case Expr::Op::Lt:
    return Bool(B.CreateICmpSLT(A, V));
  case Expr::Op::Le:
    return Bool(B.CreateICmpSLE(A, V));
  case Expr::Op::Gt:
    return Bool(B.CreateICmpSGT(A, V));
  case Expr::Op::Ge:
    return Bool(B.CreateICmpSGE(A, V));
  case Expr::Op::Eq:
    return Bool(B.CreateICmpEQ(A, V));
  case Expr::Op::Ne:
    return Bool(B.CreateICmpNE(A, V));
  default:
    break;
  }
  return B.getInt64(0);
}

Value *DataFunctionBuilder::emitShortCircuit(const Expr &E) {
  // Real control flow, not a select: the right operand is evaluated only
  // when it decides the result, so `N > 0 && M / N > 2` never fails on N == 0.
  bool IsAnd = E.O == Expr::Op::And;
  LLVMContext &C = M.getContext();
  Value *L = emit(*E.Args[0]);
  Value *LTrue = B.CreateICmpNE(L, B.getInt64(0), IsAnd ? "and.lhs" : "or.lhs");
  BasicBlock *LEnd = B.GetInsertBlock();
  BasicBlock *RHS = BasicBlock::Create(C, IsAnd ? "and.rhs" : "or.rhs", F);
  BasicBlock *End = BasicBlock::Create(C, IsAnd ? "and.end" : "or.end", F);
  if (IsAnd)
    B.CreateCondBr(LTrue, RHS, End);
  else
    B.CreateCondBr(LTrue, End, RHS);
  B.SetInsertPoint(RHS);
  Value *R = emit(*E.Args[1]);
  Value *RTrue =
      B.CreateICmpNE(R, B.getInt64(0), IsAnd ? "and.rhs.nz" : "or.rhs.nz");
  BasicBlock *REnd = B.GetInsertBlock();
  B.CreateBr(End);
  // The blocks the right operand made sit before End, in emission order.
  End->moveAfter(REnd);
  B.SetInsertPoint(End);
  PHINode *Phi = B.CreatePHI(B.getInt1Ty(), 2, IsAnd ? "and" : "or");
  Phi->addIncoming(B.getInt1(!IsAnd), LEnd);
  Phi->addIncoming(RTrue, REnd);
  return B.CreateZExt(Phi, B.getInt64Ty(), IsAnd ? "and.i64" : "or.i64");
}

Value *DataFunctionBuilder::emitCall(const Expr &E) {
  SmallVector<Value *, 4> Args;
  for (const auto &A : E.Args)
    Args.push_back(emit(*A));
  switch (E.F) {
  case Expr::Callee::CeilDiv: {
    Value *A = Args[0], *D = Args[1];
    guardDivision(A, D);
    // q + (r != 0 && sign(a) == sign(b)), as klaraptor::ceilDiv.
    Value *Q = B.CreateSDiv(A, D, "ceildiv.q");
    Value *R = B.CreateSRem(A, D, "ceildiv.r");
    Value *Inexact = B.CreateICmpNE(R, B.getInt64(0), "ceildiv.inexact");
    Value *SameSign =
        B.CreateICmpSGT(B.CreateXor(A, D), B.getInt64(-1), "ceildiv.samesign");
    Value *Up = B.CreateZExt(B.CreateAnd(Inexact, SameSign), B.getInt64Ty());
    // Cannot overflow: rounding up happens only when |q| < |a|.
    return B.CreateNSWAdd(Q, Up, "ceildiv");
  }
  case Expr::Callee::Min:
  case Expr::Callee::Max: {
    bool IsMin = E.F == Expr::Callee::Min;
    Intrinsic::ID ID = IsMin ? Intrinsic::smin : Intrinsic::smax;
    Function *Decl = compat::intrinsic(M, ID, {B.getInt64Ty()});
    Value *R = Args[0];
    for (size_t I = 1; I < Args.size(); ++I)
      R = B.CreateCall(Decl, {R, Args[I]}, IsMin ? "min" : "max");
    return R;
  }
  }
  return B.getInt64(0);
}

} // namespace klaraptor
