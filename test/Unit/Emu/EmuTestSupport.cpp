//===- EmuTestSupport.cpp - helpers of the emulator's GoogleTest suites ---===//
///
/// \file
/// See EmuTestSupport.h. Also the test binary's main(), which accepts
/// --ptx-dir=DIR (used by test/Emu to run the program tests on PTX for
/// other targets).
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include <fstream>
#include <sstream>

namespace emutest {

std::string &ptxDir() {
  static std::string Dir = KLARAPTOR_EMU_TEST_PTX_DIR;
  return Dir;
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

std::unique_ptr<Module> load(const std::string &Ptx) {
  std::string Err;
  auto M = Module::load(Ptx, Err);
  EXPECT_TRUE(M) << "load failed: " << Err << "\n" << Ptx;
  return M;
}

Module &programs() {
  static std::unique_ptr<Module> M;
  if (!M) {
    std::string Text = readFile(ptxDir() + "/programs.ptx");
    if (Text.empty()) {
      ADD_FAILURE() << "cannot read " << ptxDir() << "/programs.ptx";
      std::abort();
    }
    std::string Err;
    M = Module::load(Text, Err);
    if (!M) {
      ADD_FAILURE() << "programs.ptx: " << Err;
      std::abort();
    }
  }
  return *M;
}

LaunchResult run(Module &M, const std::string &Kernel, Dim3 Grid, Dim3 Block,
                 std::vector<void *> Args, LaunchMetrics *Metrics,
                 size_t DynShared, unsigned HostThreads, uint64_t SampleBlocks) {
  LaunchOptions O;
  O.Grid = Grid;
  O.Block = Block;
  O.Args = Args.data();
  O.Metrics = Metrics;
  O.DynamicSharedBytes = DynShared;
  O.HostThreads = HostThreads;
  O.SampleBlocks = SampleBlocks;
  return M.launch(Kernel, O);
}

static unsigned bitsOf(const std::string &T) {
  if (T == "pred")
    return 1;
  if (T.find("64") != std::string::npos)
    return 64;
  if (T.find("32") != std::string::npos || T == "f16x2" || T == "bf16x2")
    return 32;
  if (T.find("16") != std::string::npos)
    return 16;
  return 8;
}

static std::string loadInto(const std::string &Reg, const std::string &T,
                            const std::string &X) {
  switch (bitsOf(T)) {
  case 1: return "setp.ne.u64 " + Reg + ", " + X + ", 0;\n";
  case 64: return "mov.b64 " + Reg + ", " + X + ";\n";
  case 32: return "cvt.u32.u64 %t32, " + X + ";\nmov.b32 " + Reg + ", %t32;\n";
  default: return "cvt.u16.u64 %t16, " + X + ";\nmov.b16 " + Reg + ", %t16;\n";
  }
}

static std::string storeFrom(const std::string &Reg, const std::string &T) {
  switch (bitsOf(T)) {
  case 1: return "selp.u64 %y, 1, 0, " + Reg + ";\n";
  case 64: return "mov.b64 %y, " + Reg + ";\n";
  case 32: return "mov.b32 %t32, " + Reg + ";\ncvt.u64.u32 %y, %t32;\n";
  default: return "mov.b16 %t16, " + Reg + ";\ncvt.u64.u16 %y, %t16;\n";
  }
}

std::vector<OpResult> runOp(const std::string &Body, const std::string &DType,
                            const std::vector<std::string> &STypes,
                            const std::vector<OpCase> &Cases,
                            const std::string &EType) {
  std::string P = ptxHeader();
  P += ".visible .entry op(.param .u64 out, .param .u64 in)\n{\n";
  P += ".reg .b64 %x<3>;\n.reg .b64 %y, %pin, %pout, %off;\n";
  P += ".reg .b32 %t32, %lane;\n.reg .b16 %t16;\n";
  P += ".reg ." + DType + " %d;\n";
  if (!EType.empty())
    P += ".reg ." + EType + " %e;\n";
  const char *Names[] = {"%a", "%b", "%c"};
  for (size_t K = 0; K < STypes.size(); ++K)
    P += ".reg ." + STypes[K] + " " + Names[K] + ";\n";
  P += "mov.u32 %lane, %tid.x;\n"
       "mov.u32 %t32, %ctaid.x;\n"
       "mad.lo.u32 %lane, %t32, 32, %lane;\n"
       "ld.param.u64 %pin, [in];\n"
       "ld.param.u64 %pout, [out];\n"
       "mul.wide.u32 %off, %lane, 24;\n"
       "add.s64 %pin, %pin, %off;\n"
       "ld.global.u64 %x0, [%pin];\n"
       "ld.global.u64 %x1, [%pin+8];\n"
       "ld.global.u64 %x2, [%pin+16];\n";
  const char *Xs[] = {"%x0", "%x1", "%x2"};
  for (size_t K = 0; K < STypes.size(); ++K)
    P += loadInto(Names[K], STypes[K], Xs[K]);
  P += Body + "\n";
  P += "mul.wide.u32 %off, %lane, 16;\nadd.s64 %pout, %pout, %off;\n";
  P += storeFrom("%d", DType) + "st.global.u64 [%pout], %y;\n";
  if (!EType.empty())
    P += storeFrom("%e", EType) + "st.global.u64 [%pout+8], %y;\n";
  P += "ret;\n}\n";
  std::vector<OpResult> R(Cases.size());
  auto M = load(P);
  if (!M)
    return R;
  size_t N = (Cases.size() + 31) / 32 * 32;
  Buffer<uint64_t> In(N * 3), Out(N * 2);
  for (size_t K = 0; K < Cases.size(); ++K) {
    In[3 * K] = Cases[K].A;
    In[3 * K + 1] = Cases[K].B;
    In[3 * K + 2] = Cases[K].C;
  }
  uint64_t *OutP = Out.data(), *InP = In.data();
  LaunchResult LR = run(*M, "op", {unsigned(N / 32), 1, 1}, {32, 1, 1}, {&OutP, &InP});
  EXPECT_EQ(LR.Status, LaunchStatus::Ok) << LR.Message << "\n" << Body;
  for (size_t K = 0; K < Cases.size(); ++K) {
    R[K].D = Out[2 * K];
    R[K].E = Out[2 * K + 1];
  }
  return R;
}

std::vector<uint64_t> runOpD(const std::string &Body, const std::string &DType,
                             const std::vector<std::string> &STypes,
                             const std::vector<OpCase> &Cases) {
  std::vector<uint64_t> D;
  for (const OpResult &R : runOp(Body, DType, STypes, Cases))
    D.push_back(R.D);
  return D;
}

} // namespace emutest

int main(int Argc, char **Argv) {
  testing::InitGoogleTest(&Argc, Argv);
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--ptx-dir=", 0) == 0)
      emutest::ptxDir() = A.substr(10);
  }
  return RUN_ALL_TESTS();
}
