//===- FuzzSpec.cpp - libFuzzer target: the kernel spec decoder ------------===//
///
/// \file
/// An encoded pragma (docs/spec-format.md) as the runtime reads it from a
/// binary: parsed, printed and parsed again (the round trip must hold), and
/// every expression (data, where, grid, shared) evaluated with sample data,
/// block and parameter values.
/// Must never crash, hang or fail a sanitizer; any text may be rejected.
//===----------------------------------------------------------------------===//
#include "KernelSpec.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace klaraptor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  std::string Error;
  std::optional<KernelSpec> S = parseKernelSpec(Text, Error);
  if (!S)
    return 0;
  // Printing what was read and reading it back gives the same spec.
  std::string Printed = printKernelSpec(*S);
  std::optional<KernelSpec> Again = parseKernelSpec(Printed, Error);
  if (!Again || printKernelSpec(*Again) != Printed) {
    std::fprintf(stderr, "round trip failed: %s\n%s\n", Error.c_str(),
                 Printed.c_str());
    std::abort();
  }
  // Evaluation: data from parameters, then where, grid and shared over data
  // and block values, with extreme numbers among them.
  const int64_t Samples[] = {0, 1, -1, 7, 1024, INT64_MAX, INT64_MIN};
  std::vector<int64_t> Params(64), Values(S->Data.size());
  for (size_t I = 0; I < Params.size(); ++I)
    Params[I] = Samples[I % 7];
  EvalEnv Env;
  Env.Params = Params.data();
  Env.NumParams = Params.size();
  for (size_t I = 0; I < S->Data.size(); ++I)
    if (evaluate(*S->Data[I].Value, Env, Values[I]) != EvalStatus::Ok)
      Values[I] = 1;
  Env.Data = Values.data();
  Env.NumData = Values.size();
  for (int64_t B : {int64_t(1), int64_t(32), int64_t(1024), INT64_MAX}) {
    Env.Block = {B, 1, 2};
    int64_t R;
    for (const auto &W : S->Where)
      evaluate(*W, Env, R);
    for (const auto &G : S->Grid)
      if (G)
        evaluate(*G, Env, R);
    if (S->Shared)
      evaluate(*S->Shared, Env, R);
  }
  return 0;
}
