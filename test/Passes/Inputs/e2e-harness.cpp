//===- e2e-harness.cpp - runs host code the IO-builder instrumented -------===//
///
/// \file
/// Linked with Inputs/e2e.cu compiled through the IO-builder. It fakes the
/// CUDA runtime (FakeCuda.h) and the klaraptor hooks, drives every kind of
/// launch site and prints what each hook received and what each launch got.
/// The hooks choose: block 128 (1-D) or 32x8 (2-D) and the grid that covers
/// the data, returning KLARAPTOR_OK; in "keep" mode they scribble over the
/// info and return KLARAPTOR_UNCHANGED, which the launch must ignore.
//===----------------------------------------------------------------------===//
#include "FakeCuda.h"

#include "klaraptor/klaraptor_rt.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

extern "C" {
void run_saxpy(int n, unsigned grid, unsigned block);
void run_transpose(int rows, int cols);
void run_ratio(long a, int b);
void run_struct(long m, unsigned short n);
void run_plain();
void run_template(int n);
const void *saxpy_handle();
void run_pointer(const void *kernel, void **args);
int run_driver(void *f, void **params);
}

namespace {
bool Keep = false;
/// Registered descriptors by host stub; a function-local static because the
/// registering constructors may run before this file's initialisers.
std::map<const void *, const klaraptor_kernel_desc *> &descs() {
  static std::map<const void *, const klaraptor_kernel_desc *> Descs;
  return Descs;
}

std::string kernelLine(const char *Spec) {
  const char *K = std::strstr(Spec, "\nkernel ");
  if (!K)
    return "?";
  K += 8;
  return std::string(K, std::strcspn(K, "\n"));
}

int64_t ceilDiv(int64_t A, int64_t B) { return (A + B - 1) / B; }

void printInfo(const klaraptor_launch_info *I) {
  std::printf(" size=%s num_data=%u data=", 
              I->size == sizeof(klaraptor_launch_info) ? "ok" : "BAD",
              I->num_data);
  if (!I->data) {
    std::printf("null");
  } else {
    for (uint32_t D = 0; D < I->num_data; ++D)
      std::printf("%s%lld", D ? "," : "[", (long long)I->data[D]);
    std::printf("]");
  }
  std::printf(" grid=(%u,%u,%u) block=(%u,%u,%u) shmem=%llu stream=%p\n",
              I->grid[0], I->grid[1], I->grid[2], I->block[0], I->block[1],
              I->block[2], (unsigned long long)I->shared_mem, I->stream);
}

/// What every hook does once it has printed its input.
klaraptor_status decide(klaraptor_launch_info *I, const int64_t *Data,
                        uint32_t NumData) {
  fake::HookArgs = I->args;
  if (Keep) {
    for (int D = 0; D < 3; ++D)
      I->grid[D] = I->block[D] = 7777;
    return KLARAPTOR_UNCHANGED;
  }
  if (!Data || NumData == 0)
    return KLARAPTOR_ERR_EVAL;
  if (NumData >= 2 && I->block[1] > 1) {
    I->block[0] = 32, I->block[1] = 8, I->block[2] = 1;
    I->grid[0] = uint32_t(ceilDiv(Data[1], 32));
    I->grid[1] = uint32_t(ceilDiv(Data[0], 8));
    I->grid[2] = 1;
  } else {
    I->block[0] = 128, I->block[1] = 1, I->block[2] = 1;
    I->grid[0] = uint32_t(ceilDiv(Data[0], 128));
    I->grid[1] = I->grid[2] = 1;
  }
  return KLARAPTOR_OK;
}
} // namespace

extern "C" {
klaraptor_status __klaraptor_rt_register_kernel(const klaraptor_kernel_desc *K) {
  descs()[K->host_handle] = K;
  std::printf("register %s size=%s abi=%u device=%s registered-as=%s "
              "num_data=%u spec-starts=%s\n",
              kernelLine(K->spec).c_str(),
              K->size == sizeof(klaraptor_kernel_desc) ? "ok" : "BAD",
              K->abi_version, K->device_name, nameOf(K->host_handle),
              K->num_data,
              std::strncmp(K->spec, "klaraptor v1\n", 13) == 0 ? "ok" : "BAD");
  return KLARAPTOR_OK;
}

klaraptor_status __klaraptor_rt_launch(const klaraptor_kernel_desc *K,
                                       klaraptor_launch_info *I) {
  std::printf("hook %s", kernelLine(K->spec).c_str());
  printInfo(I);
  return decide(I, I->data, I->num_data);
}

klaraptor_status __klaraptor_rt_launch_handle(const void *H,
                                              klaraptor_launch_info *I) {
  std::printf("hook-handle %s", nameOf(H));
  printInfo(I);
  auto It = descs().find(H);
  if (It == descs().end())
    return decide(I, nullptr, 0);
  // What the runtime does: the descriptor's data function on info->args.
  int64_t Data[16];
  const klaraptor_kernel_desc *K = It->second;
  int St = K->data_fn(I->args, Data);
  std::printf("  data_fn status=%d first=%lld\n", St, (long long)Data[0]);
  return decide(I, St ? nullptr : Data, St ? 0 : K->num_data);
}

void __klaraptor_rt_launched(klaraptor_launch_info *I, int Status) {
  std::printf("launched status=%d stream=%p\n", Status, I ? I->stream : nullptr);
}

klaraptor_status __klaraptor_rt_launch_cufunction(void *F,
                                                  klaraptor_launch_info *I) {
  std::printf("hook-cufunction f=%p", F);
  printInfo(I);
  if (Keep)
    return decide(I, nullptr, 0);
  fake::HookArgs = I->args;
  I->grid[0] = 1, I->grid[1] = 2, I->grid[2] = 3;
  I->block[0] = 4, I->block[1] = 5, I->block[2] = 6;
  return KLARAPTOR_OK;
}
}

int main() {
  for (int Pass = 0; Pass < 2; ++Pass) {
    Keep = Pass == 1;
    std::printf("--- %s\n", Keep ? "keep" : "choose");
    run_saxpy(1000, 4, 256);
    run_transpose(100, 300);
    run_ratio(1000, 3);
    run_ratio(1000, 0);
    run_struct(1000, 65535);
    run_plain();
    run_template(5000);
    int N = 777;
    void *Args[] = {nullptr, nullptr, nullptr, &N};
    run_pointer(saxpy_handle(), Args);
    run_pointer((const void *)&main, Args);
    void *Params[] = {&N};
    run_driver((void *)0x1234, Params);
  }
  return 0;
}
