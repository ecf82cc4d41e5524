//===- datafn-eval-harness.cpp - data function vs. klaraptor::evaluate ----===//
///
/// \file
/// Linked with Inputs/datafn-eval.cu compiled through the IO-builder and with
/// runtime/spec/KernelSpec.cpp. Takes the registered descriptor's data
/// function and, for many parameter values (edge values of each type and a
/// fixed-seed random mix), checks that it fails exactly when
/// klaraptor::evaluate fails on some data parameter and otherwise returns the
/// same values. Prints the mismatches and a summary.
//===----------------------------------------------------------------------===//
#include "FakeCuda.h"

#include "KernelSpec.h"
#include "klaraptor/klaraptor_rt.h"

#include <cinttypes>
#include <cstdint>
#include <random>
#include <vector>

static const klaraptor_kernel_desc *Desc;

extern "C" klaraptor_status
__klaraptor_rt_register_kernel(const klaraptor_kernel_desc *K) {
  Desc = K;
  return KLARAPTOR_OK;
}
extern "C" klaraptor_status __klaraptor_rt_launch(const klaraptor_kernel_desc *,
                                                  klaraptor_launch_info *) {
  return KLARAPTOR_UNCHANGED;
}
extern "C" void __klaraptor_rt_launched(klaraptor_launch_info *, int) {}

int main() {
  using klaraptor::IntType;
  std::string Err;
  auto Spec = klaraptor::parseKernelSpec(Desc->spec, Err);
  if (!Spec) {
    std::printf("spec does not parse: %s\n", Err.c_str());
    return 1;
  }
  const int64_t Big = INT64_MAX, Small = INT64_MIN;
  // Edge values, in the parameter's own type (converted below).
  const std::vector<int64_t> Values[6] = {
      {0, 1, -1, 2, -2, 3, 7, -7, 256, 1000003, Big, Small, Small + 1,
       int64_t(1) << 32, int64_t(1) << 62, -(int64_t(1) << 40)},
      {0, 1, 2, 3, 255, 256, 0x7fffffff, 0x80000000, 0xffffffff},
      {0, 1, -1, 2, -32768, 32767, 3, -7, 1000},
      {0, 1, -1, -128, 127, 3, 5},
      {0, 1, 2, 3, Big, Small, -1, 1000, int64_t(1) << 63 >> 1},
      {0, 1, -1, 2, -2, 3, -7, 256, INT32_MIN, INT32_MAX}};
  size_t NumData = Spec->Data.size();
  std::mt19937_64 Rng(12345);
  long Checked = 0, Ok = 0, Failed = 0, Mismatches = 0;
  auto Check = [&](const int64_t Raw[6]) {
    // Storage as the kernel's parameters hold it.
    int64_t A = Raw[0];
    uint32_t B = uint32_t(Raw[1]);
    int16_t C = int16_t(Raw[2]);
    int8_t D = int8_t(Raw[3]);
    uint64_t G = uint64_t(Raw[4]);
    int32_t H = int32_t(Raw[5]);
    void *Args[6] = {&A, &B, &C, &D, &G, &H};
    int64_t Params[6] = {A, int64_t(B), C, D, int64_t(G), H};
    klaraptor::EvalEnv Env;
    Env.Params = Params;
    Env.NumParams = 6;
    std::vector<int64_t> Want(NumData), Got(NumData, 0x5a5a);
    bool WantOk = true;
    for (size_t I = 0; I < NumData; ++I)
      if (klaraptor::evaluate(*Spec->Data[I].Value, Env, Want[I]) !=
          klaraptor::EvalStatus::Ok)
        WantOk = false;
    int St = Desc->data_fn(Args, Got.data());
    ++Checked;
    bool Same = (St == 0) == WantOk;
    if (Same && WantOk)
      Same = Got == Want;
    (WantOk ? Ok : Failed)++;
    if (!Same && Mismatches++ < 10) {
      std::printf("mismatch at a=%" PRId64 " b=%u c=%d d=%d g=%" PRIu64
                  " h=%d: status %d, expected %s\n",
                  A, B, C, D, G, H, St, WantOk ? "ok" : "failure");
      for (size_t I = 0; WantOk && I < NumData; ++I)
        std::printf("  %s: got %" PRId64 " want %" PRId64 "\n",
                    Spec->Data[I].Name.c_str(), Got[I], Want[I]);
    }
  };
  // Every edge value of a and h, with the others drawn from their edges.
  for (int64_t A : Values[0])
    for (int64_t H : Values[5])
      for (int R = 0; R < 40; ++R) {
        int64_t Raw[6] = {A, 0, 0, 0, 0, H};
        for (int P = 1; P < 5; ++P)
          Raw[P] = Values[P][Rng() % Values[P].size()];
        Check(Raw);
      }
  // Random values of every magnitude.
  for (int R = 0; R < 100000; ++R) {
    int64_t Raw[6];
    for (int P = 0; P < 6; ++P) {
      int64_t V = int64_t(Rng());
      Raw[P] = (Rng() & 1) ? V >> (Rng() % 64) : Values[P][Rng() % Values[P].size()];
    }
    Check(Raw);
  }
  std::printf("checked %ld: %ld ok, %ld failed, %ld mismatches\n", Checked, Ok,
              Failed, Mismatches);
  return Mismatches != 0;
}
