//===- RuntimeABI.cpp - the runtime's C ABI as seen from LLVM IR ----------===//
///
/// \file
/// Builds the struct types and hook declarations of RuntimeABI.h.
//===----------------------------------------------------------------------===//
#include "RuntimeABI.h"

#include "LLVMCompat.h"

#include "llvm/IR/DataLayout.h"

using namespace llvm;

namespace klaraptor {

/// The named struct \p Name with body \p Elts: an existing type of that name
/// is reused when its body is the same (a module the pass already ran on),
/// otherwise a fresh type is made (LLVM renames it on a clash).
static StructType *namedStruct(LLVMContext &C, StringRef Name,
                               ArrayRef<Type *> Elts) {
  if (StructType *T = StructType::getTypeByName(C, Name))
    if (!T->isOpaque() && T->elements() == Elts && !T->isPacked())
      return T;
  return StructType::create(C, Elts, Name);
}

RuntimeABI::RuntimeABI(Module &M) : M(M) {
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C);
  Type *I64 = Type::getInt64Ty(C);
  Type *Ptr = compat::ptrTy(C);
  Type *Dim = ArrayType::get(I32, 3);
  // Member for member as in klaraptor_rt.h; see DescField and InfoField.
  DescTy = namedStruct(C, "klaraptor.kernel_desc",
                       {I32, I32, Ptr, Ptr, Ptr, Ptr, I32, I32});
  InfoTy = namedStruct(C, "klaraptor.launch_info",
                       {I32, I32, Ptr, Ptr, Dim, Dim, I64, Ptr});
  DataFnTy = FunctionType::get(I32, {Ptr, Ptr}, false);
}

uint32_t RuntimeABI::kernelDescSize() const {
  return uint32_t(M.getDataLayout().getTypeAllocSize(DescTy).getFixedValue());
}

uint32_t RuntimeABI::launchInfoSize() const {
  return uint32_t(M.getDataLayout().getTypeAllocSize(InfoTy).getFixedValue());
}

FunctionCallee RuntimeABI::hook(StringRef Name, unsigned NumPtrArgs) const {
  LLVMContext &C = M.getContext();
  SmallVector<Type *, 2> Params(NumPtrArgs, compat::ptrTy(C));
  return M.getOrInsertFunction(
      Name, FunctionType::get(Type::getInt32Ty(C), Params, false));
}

FunctionCallee RuntimeABI::registerKernel() const {
  return hook("__klaraptor_rt_register_kernel", 1);
}
FunctionCallee RuntimeABI::launch() const {
  return hook("__klaraptor_rt_launch", 2);
}
FunctionCallee RuntimeABI::launchHandle() const {
  return hook("__klaraptor_rt_launch_handle", 2);
}
FunctionCallee RuntimeABI::launchCUfunction() const {
  return hook("__klaraptor_rt_launch_cufunction", 2);
}
FunctionCallee RuntimeABI::launched() const {
  LLVMContext &C = M.getContext();
  return M.getOrInsertFunction(
      "__klaraptor_rt_launched",
      FunctionType::get(Type::getVoidTy(C),
                        {compat::ptrTy(C), Type::getInt32Ty(C)}, false));
}

} // namespace klaraptor
