//===- FuzzPragma.cpp - libFuzzer target: '#pragma klaraptor' ---------------===//
///
/// \file
/// The pragma handler, parser and kernel annotator (pragmas/) inside a real
/// clang frontend: each input becomes a small CUDA translation unit,
///
///     #define __global__ __attribute__((global))
///     #define K <the input's second line, if any>
///     struct Dims { int rows; long cols; struct { short x; } inner;
///                   unsigned flags : 3; };
///     #pragma klaraptor <the input's first line>
///     __global__ void kern(int n, int m, long len, float *p, const int *q,
///                          Dims d) {}
///
/// compiled with -fsyntax-only on the host side, so the pragma is lexed with
/// macro expansion, parsed, resolved against the kernel's parameters and
/// encoded. A pragma may be rejected with any diagnostic; the frontend must
/// not crash, hang or fail a sanitizer, and a pragma it accepts must encode
/// to a spec that the runtime's decoder reads back (KernelSpec.h).
///
/// The compiler instance is made once and reused (a fresh preprocessor,
/// AST context and semantic analysis per input, as clang's own driver makes
/// per file); only pragmas/ is instrumented, clang's libraries are not.
//===----------------------------------------------------------------------===//
#include "KernelAnnotator.h"
#include "KernelSpec.h"
#include "KlaraptorPragma.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclGroup.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

using namespace clang;

namespace {

/// After the annotator: every `klaraptor v1` annotation of a kernel must be
/// a spec the runtime reads.
class SpecChecker : public ASTConsumer {
public:
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      if (auto *FD = dyn_cast<FunctionDecl>(D))
        Kernels.push_back(FD);
    return true;
  }
  void HandleTranslationUnit(ASTContext &) override {
    for (FunctionDecl *FD : Kernels)
      for (const auto *A : FD->specific_attrs<AnnotateAttr>()) {
        std::string Text = A->getAnnotation().str();
        if (Text.rfind("klaraptor v1", 0) != 0)
          continue;
        std::string Error;
        if (!klaraptor::parseKernelSpec(Text, Error)) {
          std::fprintf(stderr, "the annotator encoded a spec the runtime "
                               "cannot read: %s\n%s\n",
                       Error.c_str(), Text.c_str());
          std::abort();
        }
      }
  }

private:
  std::vector<FunctionDecl *> Kernels;
};

/// -fsyntax-only with the pragma handler and, in front of the checker, the
/// annotator (as the plugin's AddBeforeMainAction runs it).
class FuzzAction : public SyntaxOnlyAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    CI.getPreprocessor().AddPragmaHandler(
        new klaraptor::PragmaKlaraptorHandler());
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::make_unique<klaraptor::KernelAnnotator>(CI));
    Consumers.push_back(std::make_unique<SpecChecker>());
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }
};

std::shared_ptr<CompilerInvocation> makeInvocation(DiagnosticsEngine &Diags) {
  // What the driver gives cc1 for the host side of
  // `clang++ -x cuda --cuda-host-only -nocudainc -nocudalib -fsyntax-only`,
  // without headers.
  const char *Args[] = {"-triple", "x86_64-unknown-linux-gnu",
                        "-aux-triple", "nvptx64-nvidia-cuda",
                        "-fsyntax-only", "-x", "cuda", "-std=c++17",
                        "-nostdsysteminc", "-nobuiltininc", "fuzz.cu"};
  std::vector<const char *> V(std::begin(Args), std::end(Args));
  auto CI = std::make_shared<CompilerInvocation>();
  if (!CompilerInvocation::CreateFromArgs(*CI, V, Diags)) {
    std::fprintf(stderr, "FuzzPragma: cannot make the compiler invocation\n");
    std::abort();
  }
  return CI;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts = new DiagnosticOptions();
  static IgnoringDiagConsumer Ignore;
  static IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
      new DiagnosticsEngine(new DiagnosticIDs(), DiagOpts, &Ignore, false);
  static std::shared_ptr<CompilerInvocation> Base = makeInvocation(*Diags);

  // The pragma (first line) and the macro K (second line): no newline, no
  // NUL inside either, so the translation unit keeps its shape.
  std::string In(reinterpret_cast<const char *>(Data), Size);
  std::string Pragma = In, Macro;
  size_t NL = In.find('\n');
  if (NL != std::string::npos) {
    Pragma = In.substr(0, NL);
    Macro = In.substr(NL + 1);
    size_t NL2 = Macro.find('\n');
    if (NL2 != std::string::npos)
      Macro.resize(NL2);
  }
  for (std::string *S : {&Pragma, &Macro})
    for (char &C : *S)
      if (C == '\0' || C == '\r' || C == '\\')
        C = ' ';
  std::string Source = "#define __global__ __attribute__((global))\n";
  if (!Macro.empty())
    Source += "#define K " + Macro + "\n";
  Source += "struct Dims { int rows; long cols; struct { short x; } inner; "
            "unsigned flags : 3; };\n";
  Source += "#pragma klaraptor " + Pragma +
            "\n__global__ void kern(int n, int m, long len, float *p, "
            "const int *q, Dims d) {}\n";

  auto Invocation = std::make_shared<CompilerInvocation>(*Base);
  Invocation->getPreprocessorOpts().addRemappedFile(
      "fuzz.cu", llvm::MemoryBuffer::getMemBufferCopy(Source, "fuzz.cu").release());
  Invocation->getPreprocessorOpts().RetainRemappedFileBuffers = false;
  CompilerInstance CI;
  CI.setInvocation(std::move(Invocation));
  CI.createDiagnostics(&Ignore, /*ShouldOwnClient=*/false);
  FuzzAction Action;
  CI.ExecuteAction(Action);
  return 0;
}
