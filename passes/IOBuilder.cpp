//===- IOBuilder.cpp - the klaraptor-io-builder module pass ---------------===//
///
/// \file
/// Finds annotated kernels and launch sites and inserts the runtime hooks;
/// IOBuilder.h describes what is emitted. USAGE:
///
///   opt -load-pass-plugin=build/lib/KlaraptorPlugin.so
///       -passes=klaraptor-io-builder -S in.ll -o out.ll
//===----------------------------------------------------------------------===//
#include "IOBuilder.h"
#include "HostModule.h"
#include "PassRegistration.h"

#include "DataFunctionBuilder.h"
#include "KernelSpec.h"
#include "LLVMCompat.h"
#include "RuntimeABI.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <optional>
#include <string>

using namespace llvm;

namespace klaraptor {

namespace {

/// What marks a launch the pass has already instrumented.
constexpr const char *InstrumentedMD = "klaraptor.instrumented";
/// Name prefixes of what the pass emits.
constexpr const char *DescPrefix = "__klaraptor.desc.";
constexpr const char *DataFnPrefix = "__klaraptor_data.";

/// One annotated kernel of the module.
struct Kernel {
  Function *Stub = nullptr;
  std::string SpecText; ///< The annotation, verbatim.
  std::optional<KernelSpec> Spec;
  std::string DeviceName; ///< The device symbol, for cuLaunchKernel's hook.
  GlobalVariable *Desc = nullptr;
  Function *DataFn = nullptr;
  uint32_t NumData = 0;
  std::string Name; ///< The source name, for symbols and remarks.
  StringRef name() const { return Name; }
};

/// The launch operands the runtime may change, as six i32 values.
struct LaunchDims {
  Value *Grid[3];
  Value *Block[3];
  /// The dynamic shared memory (i64): the pragma's shared(...) gives each
  /// block shape its own.
  Value *SharedMem = nullptr;
};

class IOBuilder {
public:
  explicit IOBuilder(Module &M) : M(M), C(M.getContext()), ABI(M) {}

  /// Returns true when the module changed.
  bool run();

private:
  Module &M;
  LLVMContext &C;
  RuntimeABI ABI;
  /// Annotated kernels by stub, in annotation order.
  MapVector<Function *, Kernel> Kernels;
  /// Functions that already hold a `klaraptor.info` alloca.
  DenseMap<Function *, AllocaInst *> InfoSlots;
  bool Changed = false;

  void collectExistingDescriptors();
  void collectAnnotations();
  void findDeviceNames();
  void emitKernel(Kernel &K);
  void emitConstructor(ArrayRef<Kernel *> New);

  void instrumentRuntimeLaunches(StringRef Callee);
  /// cudaLaunchKernelExC, or with \p Driver cuLaunchKernelEx.
  void instrumentLaunchesEx(StringRef Callee, bool Driver);
  void instrumentDriverLaunches(StringRef Callee);
  void instrumentKnownLaunch(CallBase &CB, Kernel &K);
  void instrumentHandleLaunch(CallBase &CB, Value *Handle);

  /// The direct calls of \p Callee, or none if its type is not \p Expected
  /// (then reported once as an unsupported signature).
  SmallVector<CallBase *, 8> launchCalls(StringRef Callee,
                                         FunctionType *Expected);
  AllocaInst *infoSlot(Function &F);
  AllocaInst *entryAlloca(Function &F, Type *Ty, const Twine &Name);
  /// Fills \p Info at \p B's insertion point, calls \p Hook(\p HookArg,
  /// \p Info) and returns the dims to launch with: the info's when the hook
  /// returned 0 (KLARAPTOR_OK), \p Dims otherwise.
  LaunchDims callHook(IRBuilder<> &B, AllocaInst *Info, Value *NumData,
                      Value *Data, Value *Args, const LaunchDims &Dims,
                      Value *SharedMem, Value *Stream, FunctionCallee Hook,
                      Value *HookArg);
  /// Calls __klaraptor_rt_launched(\p Info, status) right after the
  /// launch \p CB (its result is the status): the runtime times the launches
  /// of its online refinement between the two hooks. After an invoke, at the
  /// start of its normal destination when that has no other predecessor;
  /// otherwise not at all (the runtime then does not refine that launch).
  void callAfterHook(CallBase &CB, AllocaInst *Info);
  void markAndRemark(CallBase &CB, const Twine &What);
  void error(const Function &F, const Twine &Msg, const Instruction *At);
};

/// Splits a dim3 of a runtime-API launch, which x86-64 passes coerced as
/// (i64 x | y << 32, i32 z), into \p Out.
void splitCoerced(IRBuilder<> &B, Value *XY, Value *Z, Value *Out[3],
                  const char *What) {
  Out[0] = B.CreateTrunc(XY, B.getInt32Ty(), Twine(What) + ".x");
  Out[1] =
      B.CreateTrunc(B.CreateLShr(XY, 32), B.getInt32Ty(), Twine(What) + ".y");
  Out[2] = Z;
}

Value *joinCoerced(IRBuilder<> &B, Value *X, Value *Y, const Twine &Name) {
  Value *Lo = B.CreateZExt(X, B.getInt64Ty());
  Value *Hi = B.CreateShl(B.CreateZExt(Y, B.getInt64Ty()), 32);
  return B.CreateOr(Hi, Lo, Name);
}

} // namespace

bool IOBuilder::run() {
  if (isDeviceModule(M))
    return false;

  collectExistingDescriptors();
  collectAnnotations();
  findDeviceNames();

  SmallVector<Kernel *, 4> New;
  for (auto &[Stub, K] : Kernels)
    if (K.Spec && !K.Desc) {
      emitKernel(K);
      New.push_back(&K);
    }
  if (!New.empty())
    emitConstructor(New);

  instrumentRuntimeLaunches("cudaLaunchKernel");
  instrumentRuntimeLaunches("cudaLaunchKernel_ptsz");
  instrumentLaunchesEx("cudaLaunchKernelExC", /*Driver=*/false);
  instrumentLaunchesEx("cudaLaunchKernelExC_ptsz", /*Driver=*/false);
  instrumentDriverLaunches("cuLaunchKernel");
  instrumentDriverLaunches("cuLaunchKernel_ptsz");
  instrumentLaunchesEx("cuLaunchKernelEx", /*Driver=*/true);
  instrumentLaunchesEx("cuLaunchKernelEx_ptsz", /*Driver=*/true);
  return Changed;
}

void IOBuilder::error(const Function &F, const Twine &Msg,
                      const Instruction *At) {
  DiagnosticLocation Loc;
  if (At && At->getDebugLoc())
    Loc = DiagnosticLocation(At->getDebugLoc());
  else if (const DISubprogram *SP = F.getSubprogram())
    Loc = DiagnosticLocation(SP);
  C.diagnose(DiagnosticInfoUnsupported(F, Msg, Loc));
}

void IOBuilder::collectExistingDescriptors() {
  // Descriptors of an earlier run: their kernels are registered already, but
  // launches added since (e.g. by linking) still need the hook.
  for (GlobalVariable &GV : M.globals()) {
    if (!compat::startsWith(GV.getName(), DescPrefix) || !GV.hasInitializer())
      continue;
    auto *Init = dyn_cast<ConstantStruct>(GV.getInitializer());
    if (!Init || Init->getNumOperands() != 8)
      continue;
    auto *Stub = dyn_cast<Function>(
        Init->getOperand(RuntimeABI::DescHostHandle)->stripPointerCasts());
    auto *DataFn = dyn_cast<Function>(
        Init->getOperand(RuntimeABI::DescDataFn)->stripPointerCasts());
    auto *NumData =
        dyn_cast<ConstantInt>(Init->getOperand(RuntimeABI::DescNumData));
    if (!Stub || !DataFn || !NumData)
      continue;
    Kernel &K = Kernels[Stub];
    K.Stub = Stub;
    K.Name = GV.getName().drop_front(StringRef(DescPrefix).size()).str();
    K.Desc = &GV;
    K.DataFn = DataFn;
    K.NumData = uint32_t(NumData->getZExtValue());
  }
}

void IOBuilder::collectAnnotations() {
  GlobalVariable *GA = M.getNamedGlobal("llvm.global.annotations");
  if (!GA || !GA->hasInitializer())
    return;
  auto *Entries = dyn_cast<ConstantArray>(GA->getInitializer());
  if (!Entries)
    return;
  for (Value *Op : Entries->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(Op);
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    StringRef Text;
    if (!getConstantStringInfo(Entry->getOperand(1)->stripPointerCasts(),
                               Text) ||
        !compat::startsWith(Text, "klaraptor v"))
      continue;
    // The frontend annotates kernels only, whose annotated value is the
    // host stub; anything else is not ours to interpret.
    auto *Stub = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    if (!Stub)
      continue;
    Kernel &K = Kernels[Stub];
    K.Stub = Stub;
    if (K.Desc) // registered by an earlier run
      continue;
    if (!K.SpecText.empty()) {
      error(*Stub,
            "kernel '" + Stub->getName() +
                "' has more than one '#pragma klaraptor' annotation",
            nullptr);
      K.Spec.reset();
      continue;
    }
    K.SpecText = Text.str();
    std::string Err;
    K.Spec = parseKernelSpec(K.SpecText, Err);
    if (K.Spec)
      K.Name = K.Spec->KernelName;
    if (!K.Spec) {
      // Name the kernel as its 'kernel' line does, when it has one.
      std::string Name = Stub->getName().str();
      size_t At = K.SpecText.find("\nkernel ");
      if (At != std::string::npos) {
        size_t Begin = At + 8, End = K.SpecText.find('\n', Begin);
        Name = K.SpecText.substr(Begin, End - Begin);
      }
      std::string Msg = "invalid '#pragma klaraptor' encoding of kernel '" +
                        Name + "': " + Err;
      error(*Stub, Msg, nullptr);
    }
  }
}

/// The kernel's device symbol from its stub's: clang names the stub of
/// kernel `f` `__device_stub__f`, inside the mangling when there is one
/// (`_Z5saxpyPfPKffi` -> `_Z20__device_stub__saxpyPfPKffi`). Empty when
/// \p Stub is not named so.
static std::string deviceNameFromStub(StringRef Stub) {
  static constexpr StringRef Marker = "__device_stub__";
  size_t At = Stub.find(Marker);
  if (At == StringRef::npos)
    return "";
  size_t Digits = At;
  while (Digits > 0 && isDigit(Stub[Digits - 1]))
    --Digits;
  if (Digits == At) // extern "C": not mangled
    return (Stub.take_front(At) + Stub.drop_front(At + Marker.size())).str();
  unsigned Len = 0;
  if (Stub.slice(Digits, At).getAsInteger(10, Len) || Len <= Marker.size())
    return "";
  return (Stub.take_front(Digits) + Twine(Len - Marker.size()) +
          Stub.drop_front(At + Marker.size()))
      .str();
}

void IOBuilder::findDeviceNames() {
  // __cudaRegisterFunction(handle, ptr stub, ptr deviceFun, ptr deviceName,
  // ...) in __cuda_register_globals names each stub's device symbol.
  if (Function *Reg = M.getFunction("__cudaRegisterFunction")) {
    for (User *U : Reg->users()) {
      auto *CB = dyn_cast<CallBase>(U);
      if (!CB || CB->getCalledOperand() != Reg || CB->arg_size() < 3)
        continue;
      auto *Stub =
          dyn_cast<Function>(CB->getArgOperand(1)->stripPointerCasts());
      StringRef Name;
      if (!Stub || !Kernels.count(Stub) ||
          !getConstantStringInfo(CB->getArgOperand(2)->stripPointerCasts(),
                                 Name))
        continue;
      Kernels[Stub].DeviceName = Name.str();
    }
  }
  // Without a registration (a host compile with no GPU binary) the name
  // comes from the stub's, and failing that from the source.
  for (auto &[Stub, K] : Kernels) {
    if (!K.Spec || !K.DeviceName.empty())
      continue;
    K.DeviceName = deviceNameFromStub(Stub->getName());
    if (K.DeviceName.empty())
      K.DeviceName = K.Spec->KernelName;
  }
}

void IOBuilder::emitKernel(Kernel &K) {
  const KernelSpec &S = *K.Spec;
  K.NumData = uint32_t(S.Data.size());
  K.DataFn =
      DataFunctionBuilder(M, S, ABI.dataFnTy()).build(DataFnPrefix + K.name());
  // The annotation string lives in section llvm.metadata, which is not
  // emitted; the runtime gets its own copy.
  GlobalVariable *SpecStr =
      makeCString(M, K.SpecText, "__klaraptor.spec." + K.name());
  GlobalVariable *NameStr =
      makeCString(M, K.DeviceName, "__klaraptor.name." + K.name());
  Type *I32 = Type::getInt32Ty(C);
  Constant *Init = ConstantStruct::get(
      ABI.kernelDescTy(),
      {ConstantInt::get(I32, ABI.kernelDescSize()),
       ConstantInt::get(I32, RuntimeABI::AbiVersion), K.Stub, NameStr, SpecStr,
       K.DataFn, ConstantInt::get(I32, K.NumData), ConstantInt::get(I32, 0)});
  K.Desc = new GlobalVariable(M, ABI.kernelDescTy(), true,
                              GlobalValue::InternalLinkage, Init,
                              DescPrefix + K.name());
  K.Desc->setAlignment(Align(8));
  Changed = true;

  OptimizationRemarkEmitter ORE(K.Stub);
  ORE.emit([&] {
    return OptimizationRemark(IOBuilderPass::Name, "RegisteredKernel", K.Stub)
           << "registered kernel '" << K.name() << "' (device symbol '"
           << K.DeviceName << "', " << std::to_string(K.NumData)
           << (K.NumData == 1 ? " data parameter)" : " data parameters)");
  });
}

void IOBuilder::emitConstructor(ArrayRef<Kernel *> New) {
  auto *Ctor =
      Function::Create(FunctionType::get(Type::getVoidTy(C), false),
                       GlobalValue::InternalLinkage, "klaraptor.register", M);
  Ctor->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", Ctor));
  FunctionCallee Register = ABI.registerKernel();
  // The status is the runtime's to log; a kernel it refuses keeps its
  // launches as written.
  for (Kernel *K : New)
    B.CreateCall(Register, {K->Desc});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, 65535);
  Changed = true;
}

SmallVector<CallBase *, 8> IOBuilder::launchCalls(StringRef Callee,
                                                  FunctionType *Expected) {
  SmallVector<CallBase *, 8> Calls;
  Function *LF = M.getFunction(Callee);
  if (!LF)
    return Calls;
  bool Reported = false;
  for (User *U : LF->users()) {
    auto *CB = dyn_cast<CallBase>(U);
    if (!CB || CB->getCalledOperand() != LF || CB->getMetadata(InstrumentedMD))
      continue;
    if (CB->getFunctionType() != Expected) {
      // Reported once per callee: the declaration is what is wrong.
      if (!Reported) {
        std::string Found, Want;
        raw_string_ostream(Found) << *CB->getFunctionType();
        raw_string_ostream(Want) << *Expected;
        error(*CB->getFunction(),
              "unsupported signature of '" + Callee + "': expected '" + Want +
                  "', found '" + Found + "'",
              CB);
        Reported = true;
      }
      continue;
    }
    Calls.push_back(CB);
  }
  return Calls;
}

AllocaInst *IOBuilder::entryAlloca(Function &F, Type *Ty, const Twine &Name) {
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  AllocaInst *A = B.CreateAlloca(Ty, nullptr, Name);
  A->setAlignment(Align(8));
  return A;
}

AllocaInst *IOBuilder::infoSlot(Function &F) {
  // One per function: launches in one frame never overlap.
  AllocaInst *&Slot = InfoSlots[&F];
  if (!Slot)
    Slot = entryAlloca(F, ABI.launchInfoTy(), "klaraptor.info");
  return Slot;
}

LaunchDims IOBuilder::callHook(IRBuilder<> &B, AllocaInst *Info, Value *NumData,
                               Value *Data, Value *Args, const LaunchDims &Dims,
                               Value *SharedMem, Value *Stream,
                               FunctionCallee Hook, Value *HookArg) {
  StructType *Ty = ABI.launchInfoTy();
  auto Field = [&](unsigned I, const char *Name) {
    return B.CreateStructGEP(Ty, Info, I, Name);
  };
  auto Elem = [&](unsigned F, unsigned D, const Twine &Name) {
    return B.CreateInBoundsGEP(
        Ty, Info, {B.getInt32(0), B.getInt32(F), B.getInt32(D)}, Name);
  };
  static const char *const XYZ[3] = {".x", ".y", ".z"};
  B.CreateStore(B.getInt32(ABI.launchInfoSize()),
                Field(RuntimeABI::InfoSize, "info.size"));
  B.CreateStore(NumData, Field(RuntimeABI::InfoNumData, "info.num_data"));
  B.CreateStore(Data, Field(RuntimeABI::InfoData, "info.data"));
  B.CreateStore(Args, Field(RuntimeABI::InfoArgs, "info.args"));
  Value *GridPtr[3], *BlockPtr[3];
  for (unsigned D = 0; D < 3; ++D) {
    GridPtr[D] = Elem(RuntimeABI::InfoGrid, D, Twine("info.grid") + XYZ[D]);
    B.CreateStore(Dims.Grid[D], GridPtr[D]);
  }
  for (unsigned D = 0; D < 3; ++D) {
    BlockPtr[D] = Elem(RuntimeABI::InfoBlock, D, Twine("info.block") + XYZ[D]);
    B.CreateStore(Dims.Block[D], BlockPtr[D]);
  }
  Value *SharedPtr = Field(RuntimeABI::InfoSharedMem, "info.shared_mem");
  B.CreateStore(SharedMem, SharedPtr);
  B.CreateStore(Stream, Field(RuntimeABI::InfoStream, "info.stream"));

  Value *Status = B.CreateCall(Hook, {HookArg, Info}, "klaraptor.status");
  // KLARAPTOR_OK: grid and block may have changed; anything else keeps the
  // launch the program asked for, whatever the runtime left in info.
  Value *Ok = B.CreateICmpEQ(Status, B.getInt32(0), "klaraptor.ok");
  LaunchDims Out;
  for (unsigned D = 0; D < 3; ++D) {
    Value *G =
        B.CreateLoad(B.getInt32Ty(), GridPtr[D], Twine("new.grid") + XYZ[D]);
    Out.Grid[D] =
        B.CreateSelect(Ok, G, Dims.Grid[D], Twine("launch.grid") + XYZ[D]);
  }
  for (unsigned D = 0; D < 3; ++D) {
    Value *Bl =
        B.CreateLoad(B.getInt32Ty(), BlockPtr[D], Twine("new.block") + XYZ[D]);
    Out.Block[D] =
        B.CreateSelect(Ok, Bl, Dims.Block[D], Twine("launch.block") + XYZ[D]);
  }
  Value *Sh = B.CreateLoad(B.getInt64Ty(), SharedPtr, "new.shared_mem");
  Out.SharedMem = B.CreateSelect(Ok, Sh, SharedMem, "launch.shared_mem");
  return Out;
}

void IOBuilder::callAfterHook(CallBase &CB, AllocaInst *Info) {
  Instruction *At = CB.getNextNode();
  if (auto *II = dyn_cast<InvokeInst>(&CB)) {
    BasicBlock *Normal = II->getNormalDest();
    if (!Normal->getSinglePredecessor())
      return;
    At = &*Normal->getFirstInsertionPt();
  }
  if (!At)
    return;
  IRBuilder<> B(At);
  B.CreateCall(ABI.launched(), {Info, &CB});
}

void IOBuilder::markAndRemark(CallBase &CB, const Twine &What) {
  CB.setMetadata(InstrumentedMD, MDNode::get(C, {}));
  Changed = true;
  OptimizationRemarkEmitter ORE(CB.getFunction());
  std::string Msg = What.str();
  ORE.emit([&] {
    return OptimizationRemark(IOBuilderPass::Name, "InstrumentedLaunch", &CB)
           << Msg;
  });
}

/// cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block,
/// void **args, size_t shmem, cudaStream_t stream), as x86-64 lowers it.
static FunctionType *runtimeLaunchTy(LLVMContext &C) {
  Type *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C);
  Type *Ptr = compat::ptrTy(C);
  return FunctionType::get(I32, {Ptr, I64, I32, I64, I32, Ptr, I64, Ptr},
                           false);
}

/// CUresult cuLaunchKernel(CUfunction f, unsigned gx, gy, gz, bx, by, bz,
/// unsigned shmem, CUstream stream, void **params, void **extra).
static FunctionType *driverLaunchTy(LLVMContext &C) {
  Type *I32 = Type::getInt32Ty(C);
  Type *Ptr = compat::ptrTy(C);
  return FunctionType::get(
      I32, {Ptr, I32, I32, I32, I32, I32, I32, I32, Ptr, Ptr, Ptr}, false);
}

void IOBuilder::instrumentRuntimeLaunches(StringRef Callee) {
  for (CallBase *CB : launchCalls(Callee, runtimeLaunchTy(C))) {
    Value *Handle = CB->getArgOperand(0)->stripPointerCasts();
    if (auto *F = dyn_cast<Function>(Handle)) {
      auto It = Kernels.find(F);
      if (It != Kernels.end() && It->second.Desc) {
        instrumentKnownLaunch(*CB, It->second);
        continue;
      }
      // A kernel defined here without an annotation has nothing to tune. An
      // annotated one whose encoding is broken was reported already.
      if (!F->isDeclaration())
        continue;
      // Declared only: it may be annotated where it is defined.
    }
    instrumentHandleLaunch(*CB, CB->getArgOperand(0));
  }
}

void IOBuilder::instrumentKnownLaunch(CallBase &CB, Kernel &K) {
  Function &F = *CB.getFunction();
  AllocaInst *Info = infoSlot(F);
  Type *DataTy = ArrayType::get(Type::getInt64Ty(C), K.NumData);
  AllocaInst *Data = entryAlloca(F, DataTy, "klaraptor.data");

  IRBuilder<> B(&CB);
  Value *Args = CB.getArgOperand(5);
  Value *DataStatus = B.CreateCall(FunctionCallee(ABI.dataFnTy(), K.DataFn),
                                   {Args, Data}, "klaraptor.data.status");
  // A data expression that cannot be evaluated (division by zero, overflow)
  // is told to the runtime as data == NULL, num_data == 0: it keeps the
  // requested launch.
  Value *DataOk =
      B.CreateICmpEQ(DataStatus, B.getInt32(0), "klaraptor.data.ok");
  Value *DataPtr = B.CreateSelect(
      DataOk, Data, ConstantPointerNull::get(compat::ptrTy(C)), "data");
  Value *NumData =
      B.CreateSelect(DataOk, B.getInt32(K.NumData), B.getInt32(0), "num_data");

  LaunchDims In;
  splitCoerced(B, CB.getArgOperand(1), CB.getArgOperand(2), In.Grid, "grid");
  splitCoerced(B, CB.getArgOperand(3), CB.getArgOperand(4), In.Block, "block");
  LaunchDims Out =
      callHook(B, Info, NumData, DataPtr, Args, In, CB.getArgOperand(6),
               CB.getArgOperand(7), ABI.launch(), K.Desc);
  CB.setArgOperand(1, joinCoerced(B, Out.Grid[0], Out.Grid[1], "grid.xy"));
  CB.setArgOperand(2, Out.Grid[2]);
  CB.setArgOperand(3, joinCoerced(B, Out.Block[0], Out.Block[1], "block.xy"));
  CB.setArgOperand(4, Out.Block[2]);
  CB.setArgOperand(6, Out.SharedMem);
  callAfterHook(CB, Info);
  markAndRemark(CB, "instrumented launch of '" + K.name() + "'");
}

/// How a remark names the kernel a launch by handle starts: the function
/// \p Handle is, quoted, else \p Unknown.
static std::string launchedName(Value *Handle, const char *Unknown) {
  if (auto *F = dyn_cast<Function>(Handle->stripPointerCasts()))
    return "'" + F->getName().str() + "'";
  return Unknown;
}

void IOBuilder::instrumentHandleLaunch(CallBase &CB, Value *Handle) {
  Function &F = *CB.getFunction();
  AllocaInst *Info = infoSlot(F);
  IRBuilder<> B(&CB);
  LaunchDims In;
  splitCoerced(B, CB.getArgOperand(1), CB.getArgOperand(2), In.Grid, "grid");
  splitCoerced(B, CB.getArgOperand(3), CB.getArgOperand(4), In.Block, "block");
  // The runtime computes the data itself: the handle names the descriptor,
  // info.args the values.
  LaunchDims Out = callHook(B, Info, B.getInt32(0),
                            ConstantPointerNull::get(compat::ptrTy(C)),
                            CB.getArgOperand(5), In, CB.getArgOperand(6),
                            CB.getArgOperand(7), ABI.launchHandle(), Handle);
  CB.setArgOperand(1, joinCoerced(B, Out.Grid[0], Out.Grid[1], "grid.xy"));
  CB.setArgOperand(2, Out.Grid[2]);
  CB.setArgOperand(3, joinCoerced(B, Out.Block[0], Out.Block[1], "block.xy"));
  CB.setArgOperand(4, Out.Block[2]);
  CB.setArgOperand(6, Out.SharedMem);
  callAfterHook(CB, Info);
  markAndRemark(CB, "instrumented launch of " +
                        launchedName(Handle, "a kernel known at run time") +
                        " (by handle)");
}

/// The launches that take their configuration in a structure:
/// cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const
/// void *func, void **args) (what cuda_runtime.h's cudaLaunchKernelEx
/// template calls) and CUresult cuLaunchKernelEx(const CUlaunchConfig
/// *config, CUfunction f, void **kernelParams, void **extra).
static FunctionType *launchExTy(LLVMContext &C, bool Driver) {
  Type *Ptr = compat::ptrTy(C);
  SmallVector<Type *, 4> Params = {Ptr, Ptr, Ptr};
  if (Driver)
    Params.push_back(Ptr);
  return FunctionType::get(Type::getInt32Ty(C), Params, false);
}

/// The configuration structures, x86-64 (both 56 bytes):
///  * cudaLaunchConfig_t (driver_types.h): dim3 gridDim at 0, dim3 blockDim
///    at 12, size_t dynamicSmemBytes at 24, cudaStream_t stream at 32,
///    cudaLaunchAttribute *attrs at 40, unsigned numAttrs at 48;
///  * CUlaunchConfig (cuda.h): unsigned gridDimX..Z at 0, blockDimX..Z at
///    12, unsigned sharedMemBytes at 24, CUstream hStream at 32,
///    CUlaunchAttribute *attrs at 40, unsigned numAttrs at 48.
/// Both as { [3 x i32] grid, [3 x i32] block, iN shared, ptr stream, ptr
/// attrs, i32 numAttrs }.
enum LaunchConfigField : unsigned {
  ConfigGrid,
  ConfigBlock,
  ConfigSharedMem,
  ConfigStream,
  ConfigAttrs,
  ConfigNumAttrs
};
static StructType *launchConfigTy(LLVMContext &C, bool Driver) {
  Type *I32 = Type::getInt32Ty(C), *Ptr = compat::ptrTy(C);
  ArrayType *Dim3 = ArrayType::get(I32, 3);
  return StructType::get(
      C, {Dim3, Dim3, Driver ? I32 : Type::getInt64Ty(C), Ptr, Ptr, I32});
}

void IOBuilder::instrumentLaunchesEx(StringRef Callee, bool Driver) {
  StructType *ConfigTy = launchConfigTy(C, Driver);
  const uint64_t ConfigSize = M.getDataLayout().getTypeAllocSize(ConfigTy);
  Type *SharedTy = ConfigTy->getElementType(ConfigSharedMem);
  for (CallBase *CB : launchCalls(Callee, launchExTy(C, Driver))) {
    Function &F = *CB->getFunction();
    AllocaInst *Info = infoSlot(F);
    // The launch gets a copy of the program's configuration (a const
    // structure it may reuse) with the hook's grid, block and shared
    // memory; a null configuration stays null (CUDA's error to report).
    AllocaInst *Copy = entryAlloca(F, ConfigTy, "klaraptor.config");
    IRBuilder<> B(CB);
    Value *Config = CB->getArgOperand(0);
    Value *IsNull = B.CreateIsNull(Config, "config.null");
    const std::string ZeroName =
        Driver ? "__klaraptor.null_cu_config" : "__klaraptor.null_config";
    GlobalVariable *Zero = M.getNamedGlobal(ZeroName);
    if (!Zero) {
      Zero = new GlobalVariable(M, ConfigTy, true, GlobalValue::PrivateLinkage,
                                Constant::getNullValue(ConfigTy), ZeroName);
      Zero->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
      Zero->setAlignment(Align(8));
    }
    Value *Src = B.CreateSelect(IsNull, Zero, Config, "config.src");
    B.CreateMemCpy(Copy, Align(8), Src, Align(8), ConfigSize);
    auto Elem = [&](unsigned Field, unsigned D, const Twine &Name) {
      return B.CreateInBoundsGEP(
          ConfigTy, Copy, {B.getInt32(0), B.getInt32(Field), B.getInt32(D)},
          Name);
    };
    static const char *const XYZ[3] = {".x", ".y", ".z"};
    LaunchDims In;
    Value *GridPtr[3], *BlockPtr[3];
    for (unsigned D = 0; D < 3; ++D) {
      GridPtr[D] = Elem(ConfigGrid, D, Twine("config.grid") + XYZ[D]);
      BlockPtr[D] = Elem(ConfigBlock, D, Twine("config.block") + XYZ[D]);
      In.Grid[D] = B.CreateLoad(B.getInt32Ty(), GridPtr[D],
                                Twine("grid") + XYZ[D]);
      In.Block[D] = B.CreateLoad(B.getInt32Ty(), BlockPtr[D],
                                 Twine("block") + XYZ[D]);
    }
    Value *SharedPtr =
        B.CreateStructGEP(ConfigTy, Copy, ConfigSharedMem, "config.shared");
    Value *Shared = B.CreateZExtOrBitCast(
        B.CreateLoad(SharedTy, SharedPtr, "config.shared_mem"),
        B.getInt64Ty(), "shared_mem");
    Value *Stream = B.CreateLoad(
        compat::ptrTy(C),
        B.CreateStructGEP(ConfigTy, Copy, ConfigStream, "config.stream"),
        "stream");
    Value *NumAttrs = B.CreateLoad(
        B.getInt32Ty(),
        B.CreateStructGEP(ConfigTy, Copy, ConfigNumAttrs, "config.num_attrs"),
        "num_attrs");
    // Launch attributes may tie the grid to the block (clusters, cooperative
    // launches): such a launch is kept, by a null handle or function, which
    // the runtime answers with KLARAPTOR_UNCHANGED.
    Value *Keep =
        B.CreateOr(IsNull, B.CreateICmpNE(NumAttrs, B.getInt32(0)), "keep");
    Value *Handle = B.CreateSelect(
        Keep, ConstantPointerNull::get(compat::ptrTy(C)),
        CB->getArgOperand(1), Driver ? "function" : "handle");
    LaunchDims Out = callHook(
        B, Info, B.getInt32(0), ConstantPointerNull::get(compat::ptrTy(C)),
        CB->getArgOperand(2), In, Shared, Stream,
        Driver ? ABI.launchCUfunction() : ABI.launchHandle(), Handle);
    for (unsigned D = 0; D < 3; ++D) {
      B.CreateStore(Out.Grid[D], GridPtr[D]);
      B.CreateStore(Out.Block[D], BlockPtr[D]);
    }
    // The runtime never gives more than the kernel may have (an unsigned
    // for the driver).
    B.CreateStore(B.CreateTruncOrBitCast(Out.SharedMem, SharedTy,
                                         "launch.config.shared_mem"),
                  SharedPtr);
    CB->setArgOperand(0, B.CreateSelect(IsNull, Config, Copy, "config"));
    callAfterHook(*CB, Info);
    markAndRemark(*CB, "instrumented launch of " +
                           launchedName(CB->getArgOperand(1),
                                        Driver ? "a CUfunction"
                                               : "a kernel known at run time") +
                           " ('" + Callee + "')");
  }
}

void IOBuilder::instrumentDriverLaunches(StringRef Callee) {
  for (CallBase *CB : launchCalls(Callee, driverLaunchTy(C))) {
    AllocaInst *Info = infoSlot(*CB->getFunction());
    IRBuilder<> B(CB);
    LaunchDims In;
    for (unsigned D = 0; D < 3; ++D) {
      In.Grid[D] = CB->getArgOperand(1 + D);
      In.Block[D] = CB->getArgOperand(4 + D);
    }
    Value *SharedMem = B.CreateZExt(CB->getArgOperand(7), B.getInt64Ty());
    // kernelParams is the same void ** array as cudaLaunchKernel's args; it
    // is null when the arguments travel in 'extra', and then the runtime
    // cannot compute data and keeps the launch.
    LaunchDims Out = callHook(
        B, Info, B.getInt32(0), ConstantPointerNull::get(compat::ptrTy(C)),
        CB->getArgOperand(9), In, SharedMem, CB->getArgOperand(8),
        ABI.launchCUfunction(), CB->getArgOperand(0));
    for (unsigned D = 0; D < 3; ++D) {
      CB->setArgOperand(1 + D, Out.Grid[D]);
      CB->setArgOperand(4 + D, Out.Block[D]);
    }
    // The runtime never gives more than the kernel may have (an unsigned).
    CB->setArgOperand(7, B.CreateTrunc(Out.SharedMem, B.getInt32Ty(),
                                       "launch.shared_mem.u32"));
    callAfterHook(*CB, Info);
    markAndRemark(*CB, "instrumented driver API launch ('" + Callee + "')");
  }
}

PreservedAnalyses IOBuilderPass::run(Module &M, ModuleAnalysisManager &) {
  return IOBuilder(M).run() ? PreservedAnalyses::none()
                            : PreservedAnalyses::all();
}

void registerIOBuilder(PassBuilder &PB) {
  registerModulePass<IOBuilderPass>(PB);
}

} // namespace klaraptor
