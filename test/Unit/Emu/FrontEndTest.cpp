//===- FrontEndTest.cpp - PTX parsing, module variables and kernel info ---===//
///
/// \file
/// Directives, comments and debug sections, variables with initializers
/// (arrays, floats, addresses of other symbols), parameter layout,
/// performance directives, nested scopes and inline-asm blocks, call
/// prototypes and external declarations.
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

using namespace emutest;

namespace {

TEST(FrontEnd, ModuleVariablesAndInitializers) {
  std::string P = ptxHeader() + R"(
// a comment
/* a block
   comment */
.file 1 "/tmp/x.cu"
.global .align 4 .b8 bytes[8] = {1, 2, 3, 4, 0, 0, 128, 63};
.const .align 4 .f32 floats[3] = {0f3F800000, 2.5, -0f40000000};
.global .align 8 .u64 ptrs[2] = {generic(bytes), floats+4};
.global .s32 scalar = -7;
.global .align 16 .b8 zeros[32];
.const .align 8 .f64 d = 0d3FF8000000000000;
.extern .global .align 4 .b8 missing[];
.visible .entry k(
  .param .u64 .ptr .global .align 8 k_param_0,
  .param .align 8 .b8 k_param_1[12],
  .param .u8 k_param_2,
  .param .f64 k_param_3
)
.maxntid 128, 2, 1
.minnctapersm 4
{
  .loc 1 10 3
  ret;
}
.section .debug_info
{
  .b32 42
  .b8 0, 1
}
)";
  auto M = load(P);
  ASSERT_TRUE(M);
  void *A;
  size_t S;
  ASSERT_TRUE(M->findGlobal("bytes", A, S));
  EXPECT_EQ(S, 8u);
  float F;
  std::memcpy(&F, static_cast<uint8_t *>(A) + 4, 4);
  EXPECT_EQ(F, 1.0f);
  void *FA;
  ASSERT_TRUE(M->findGlobal("floats", FA, S));
  float *Fl = static_cast<float *>(FA);
  EXPECT_EQ(Fl[0], 1.0f);
  EXPECT_EQ(Fl[1], 2.5f);
  EXPECT_EQ(Fl[2], -2.0f);
  ASSERT_TRUE(M->findGlobal("ptrs", A, S));
  uint64_t *Ptr = static_cast<uint64_t *>(A);
  void *BA;
  ASSERT_TRUE(M->findGlobal("bytes", BA, S));
  EXPECT_EQ(Ptr[0], uint64_t(BA));
  EXPECT_EQ(Ptr[1], uint64_t(FA) + 4);
  ASSERT_TRUE(M->findGlobal("scalar", A, S));
  EXPECT_EQ(*static_cast<int32_t *>(A), -7);
  ASSERT_TRUE(M->findGlobal("zeros", A, S));
  EXPECT_EQ(S, 32u);
  EXPECT_EQ(uint64_t(A) % 16, 0u);
  ASSERT_TRUE(M->findGlobal("d", A, S));
  EXPECT_EQ(*static_cast<double *>(A), 1.5);
  EXPECT_FALSE(M->findGlobal("missing", A, S));
  const KernelInfo *K = M->findKernel("k");
  ASSERT_TRUE(K);
  ASSERT_EQ(K->Params.size(), 4u);
  EXPECT_EQ(K->Params[0].Offset, 0u);
  EXPECT_EQ(K->Params[0].Size, 8u);
  EXPECT_EQ(K->Params[1].Offset, 8u);
  EXPECT_EQ(K->Params[1].Size, 12u);
  EXPECT_EQ(K->Params[1].Align, 8u);
  EXPECT_EQ(K->Params[2].Offset, 20u);
  EXPECT_EQ(K->Params[2].Size, 1u);
  EXPECT_EQ(K->Params[3].Offset, 24u);
  EXPECT_EQ(K->ParamBytes, 32u);
  EXPECT_EQ(K->MaxThreads, 256u);
  EXPECT_EQ(M->kernels().size(), 1u);
}

TEST(FrontEnd, ScopesInlineAsmAndPrototypes) {
  std::string P = ptxHeader() + R"(
.extern .func (.param .b32 func_retval0) vprintf
(
  .param .b64 vprintf_param_0,
  .param .b64 vprintf_param_1
)
;
.weak .func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %a;
  ld.param.b32 %a, [x];
  shl.b32 %a, %a, 1;
  st.param.b32 [r], %a;
  ret;
}
.visible .entry k(.param .u64 out, .param .u32 v)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [v];
  // begin inline asm
  { .reg .b32 %r1; mov.u32 %r1, 1000; add.u32 %r2, %r1, 1; }
  // end inline asm
  { .reg .b32 tmp;
    mov.b32 tmp, %r1;
    add.u32 %r3, tmp, %r2;
  }
  mov.u64 %rd2, twice;
  {
    .param .b32 param0;
    st.param.b32 [param0+0], %r3;
    .param .b32 retval0;
    prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
    call (retval0), %rd2, (param0), prototype_0;
    ld.param.b32 %r3, [retval0+0];
  }
  st.global.u32 [%rd1], %r3;
  ret;
}
)";
  auto M = load(P);
  ASSERT_TRUE(M);
  Buffer<uint32_t> Out(1);
  uint32_t *O = Out.data(), V = 5;
  LaunchResult R = run(*M, "k", {1, 1, 1}, {1, 1, 1}, {&O, &V});
  ASSERT_EQ(R.Status, LaunchStatus::Ok) << R.Message;
  // The inner %r1 shadows the outer one only inside its braces.
  EXPECT_EQ(Out[0], 2u * (5 + 1001));
}

TEST(FrontEnd, SyntaxErrors) {
  struct {
    const char *Body;
    const char *Error;
  } Cases[] = {
      {".visible .entry k()\n{\n  bogus %r1\n}\n", "ptx:7: expected ',' or ';' after operand of 'bogus', found '}'"},
      {".global .f32 x[2] = {1.0, 2.0, 3.0};\n", "ptx:4: too many initializers for 'x'"},
      {".visible .entry k(.param .u32 a\n{\n}\n", "ptx:5: expected ',' or ')' in parameter list, found '{'"},
      {".visible .entry k()\n{\n  mov.u32 %r1, 0f3F80;\n}\n", "ptx:6: malformed floating-point constant '0f3F80'"},
      // Loader limits: a register range that ptxas rejects or that would
      // make every thread allocate gigabytes, too many registers in one
      // function, a huge array, a constant expression nested without end.
      {".visible .entry k()\n{\n  .reg .f32 %f<2000000000>;\n}\n", "ptx:6: register range <2000000000> must be 1 to 65536"},
      {".visible .entry k()\n{\n  .reg .b64 %rd<-1>;\n}\n", "ptx:6: register range <-1> must be 1 to 65536"},
      {".visible .entry k()\n{\n  .reg .b64 %rd<0>;\n}\n", "ptx:6: register range <0> must be 1 to 65536"},
      {".visible .entry k()\n{\n  .reg .b32 %r<40000>;\n  .reg .b32 %s<40000>;\n}\n", "ptx:7: more than 65536 registers declared in one function"},
      {".visible .entry k()\n{\n  .local .b8 a[4294967296];\n}\n", "ptx:6: array of more than 268435456 elements"},
      {".visible .entry k()\n{\n  .local .b8 a[65536][65536];\n}\n", "ptx:6: array of more than 268435456 elements"},
      // Found by the PTX fuzzer: a kernel defined twice ran with the other
      // definition's parameters; parameters past CUDA's 32764 bytes wrapped
      // the 32-bit offsets.
      {".visible .entry k()\n{\n  ret;\n}\n.visible .entry k(.param .u64 p)\n{\n  ret;\n}\n", "ptx:8: kernel 'k' is defined twice"},
      {".visible .entry k(.param .align 8 .b8 p[40000])\n{\n  ret;\n}\n", "ptx:4: the parameters of kernel 'k' take more than 32764 bytes"},
      // An alignment that is not a power of two reached posix_memalign.
      {".global .align 43 .b8 a[4096];\n", "ptx:4: .align 43 must be a power of two up to 65536"},
      {".global .align 0 .b8 a[16];\n", "ptx:4: .align 0 must be a power of two up to 65536"},
      {".visible .entry k(.param .align 3 .b8 p[8])\n{\n  ret;\n}\n", "ptx:4: .align 3 must be a power of two up to 65536"},
      {".visible .entry k()\n{\n  .local .align 131072 .b8 a[4];\n}\n", "ptx:6: .align 131072 must be a power of two up to 65536"},
  };
  for (auto &C : Cases) {
    std::string Err;
    auto M = Module::load(ptxHeader() + C.Body, Err);
    EXPECT_FALSE(M) << C.Body;
    EXPECT_EQ(Err, C.Error) << C.Body;
  }
  // 100000 nested braces, parentheses or '!' in an operand (the PTX
  // fuzzer's finding: a stack overflow): an error.
  for (const char *Open : {"{", "(", "!"}) {
    std::string Nested;
    for (int I = 0; I < 100000; ++I)
      Nested += Open;
    std::string Err;
    auto M = Module::load(ptxHeader() + ".visible .entry k()\n{\n  mov.u32 %r1, " +
                              Nested + ";\n}\n",
                          Err);
    EXPECT_FALSE(M);
    EXPECT_EQ(Err, "ptx:6: operand nested more than 64 levels deep") << Open;
  }
  // 100000 nested parentheses or signs in a constant: an error, not a stack
  // overflow.
  for (const char *Open : {"(", "-", "~"}) {
    std::string Expr;
    for (int I = 0; I < 100000; ++I)
      Expr += Open;
    Expr += "1";
    if (std::string(Open) == "(")
      Expr += std::string(100000, ')');
    std::string Err;
    auto M = Module::load(
        ptxHeader() + ".global .u32 x[" + Expr + "];\n", Err);
    EXPECT_FALSE(M) << Open;
    EXPECT_EQ(Err, "ptx:4: constant expression nested more than 64 levels deep")
        << Open;
  }
}

TEST(FrontEnd, ModuleDirectivesAreRequired) {
  // What ptxas rejects (issue 16): no .version first, no .target after it.
  struct {
    const char *Text;
    const char *Error;
  } Cases[] = {
      {".target sm_90\n.visible .entry k()\n{\n  ret;\n}\n",
       "ptx:1: the module does not begin with a '.version' directive (found '.target')"},
      {"// nothing but a comment\n",
       "ptx:2: the module does not begin with a '.version' directive (it is empty)"},
      {".version 8.0\n.visible .entry k()\n{\n  ret;\n}\n",
       "ptx:2: '.version' must be followed by a '.target' directive (found '.visible')"},
      {".version 8.0\n", "ptx:2: '.version' must be followed by a '.target' directive"},
      {".version 8.0\n.target sm_90\n.version 8.0\n", "ptx:3: a second '.version' directive"},
  };
  for (auto &C : Cases) {
    std::string Err;
    EXPECT_FALSE(Module::load(C.Text, Err)) << C.Text;
    EXPECT_EQ(Err, C.Error) << C.Text;
  }
  std::string Err;
  EXPECT_TRUE(Module::load("// a comment\n.version 8.0\n.target sm_90\n", Err)) << Err;
}

TEST(FrontEnd, ArithmeticOperandsHaveTheTypesSize) {
  // ptxas: "Arguments mismatch"; the emulator ran them on the register's
  // bytes (issue 16: add.bf16x2 into a 64-bit register).
  std::string P = ptxHeader() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b16 %rs<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .f32 %f<3>;
  .reg .pred %p<2>;
  add.rn.bf16x2 %rd1, %r1, %r2;
  add.s32 %r1, %rd1, 1;
  fma.rn.f32 %f1, %f2, %rd2, %f1;
  mul.wide.s32 %r3, %r1, %r2;
  mad.wide.u32 %rd1, %r1, %r2, %r3;
  mul.wide.u16 %r1, %rs1, %rs2;
  mad.wide.s32 %rd1, %r1, %r2, %rd2;
  add.f16x2 %r1, %r2, %r3;
  and.pred %p1, %p0, %p1;
  add.u64 %rd1, %rd2, %tid.x;
  ret;
}
)";
  auto M = load(P);
  ASSERT_TRUE(M);
  const KernelInfo *K = M->findKernel("k");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Unsupported, (std::vector<std::string>{
      "invalid instruction 'add.rn.bf16x2': operand '%rd1' is a 64-bit register where .bf16x2 needs 32 bits at PTX line 12",
      "invalid instruction 'add.s32': operand '%rd1' is a 64-bit register where .s32 needs 32 bits at PTX line 13",
      "invalid instruction 'fma.rn.f32': operand '%rd2' is a 64-bit register where .f32 needs 32 bits at PTX line 14",
      "invalid instruction 'mul.wide.s32': operand '%r3' is a 32-bit register where .s32 (.wide) needs 64 bits at PTX line 15",
      "invalid instruction 'mad.wide.u32': operand '%r3' is a 32-bit register where .u32 (.wide) needs 64 bits at PTX line 16",
  }));
}

TEST(FrontEnd, InvalidInstructionsAreReportedWhenExecuted) {
  std::string P = ptxHeader() + R"(
.visible .entry k()
{
  .reg .b32 %r<2>;
  add.s32 %r1, %nosuch, 1;
  ret;
}
)";
  auto M = load(P);
  ASSERT_TRUE(M);
  ASSERT_EQ(M->findKernel("k")->Unsupported.size(), 1u);
  LaunchResult R = run(*M, "k", {1, 1, 1}, {1, 1, 1}, {});
  EXPECT_EQ(R.Status, LaunchStatus::UnsupportedInstruction);
  EXPECT_EQ(R.Message, "invalid instruction 'add.s32': unknown register '%nosuch' in kernel "
                       "'k' at PTX line 8 (block 0,0,0)");
}

} // namespace
