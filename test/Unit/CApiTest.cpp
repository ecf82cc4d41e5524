//===- CApiTest.cpp - the C entry points of klaraptor_rt.h ----------------===//
///
/// \file
/// Calls the C functions, which use the process's runtime. This test binary
/// loads no CUDA, so until the test hook injects a device every launch must
/// fall back gracefully.
//===----------------------------------------------------------------------===//
#include "RuntimeInternal.h"
#include "RuntimeTestSupport.h"
#include "klaraptor/klaraptor_rt.h"

#include <vector>

#include <gtest/gtest.h>

using namespace klaraptor;
using namespace klaraptor::test;

TEST(CApi, Version) {
  std::string V = klaraptor_version();
  EXPECT_EQ(V.rfind("klaraptor-rt ", 0), 0u) << V;
  EXPECT_NE(V.find(" (abi 1)"), std::string::npos) << V;
}

TEST(CApi, NullPointersAndGarbageSizes) {
  EXPECT_EQ(__klaraptor_rt_register_kernel(nullptr), KLARAPTOR_ERR_BAD_ARGUMENT);
  EXPECT_EQ(__klaraptor_rt_launch(nullptr, nullptr), KLARAPTOR_ERR_BAD_ARGUMENT);
  TestKernel K(oneDimSpec("capi_null"), "capi_null");
  EXPECT_EQ(__klaraptor_rt_launch(&K.Desc, nullptr), KLARAPTOR_ERR_BAD_ARGUMENT);
  Launch L({1000});
  EXPECT_EQ(__klaraptor_rt_launch_handle(nullptr, &L.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(__klaraptor_rt_launch_handle(&K.Stub, nullptr),
            KLARAPTOR_ERR_BAD_ARGUMENT);
  EXPECT_EQ(__klaraptor_rt_launch_cufunction(nullptr, &L.Info),
            KLARAPTOR_UNCHANGED);
  EXPECT_EQ(klaraptor_register_model(nullptr, nullptr), KLARAPTOR_ERR_BAD_ARGUMENT);
  L.Info.size = 0xdeadbeef; // larger than known: accepted
  testing::internal::CaptureStderr();
  EXPECT_EQ(__klaraptor_rt_launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  testing::internal::GetCapturedStderr();
  // The message is written once per process and size: vary the size so
  // that --gtest_repeat sees a new one each time.
  static uint32_t Small = 3;
  L.Info.size = Small++ % 32;
  testing::internal::CaptureStderr();
  EXPECT_EQ(__klaraptor_rt_launch(&K.Desc, &L.Info), KLARAPTOR_ERR_ABI);
  EXPECT_EQ(__klaraptor_rt_launch(&K.Desc, &L.Info), KLARAPTOR_ERR_ABI);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "klaraptor: error: launch info of size " +
                std::to_string(L.Info.size) + "; this runtime expects " +
                std::to_string(sizeof(klaraptor_launch_info)) +
                " or more; launching as requested\n");
  TestKernel Garbage(oneDimSpec("capi_garbage"), "capi_garbage");
  Garbage.Desc.size = 0xffffffffu;
  Garbage.Desc.abi_version = 0x12345678u;
  testing::internal::CaptureStderr();
  EXPECT_EQ(__klaraptor_rt_register_kernel(&Garbage.Desc), KLARAPTOR_ERR_ABI);
  testing::internal::GetCapturedStderr();
  klaraptor_clear_history();
}

TEST(CApi, WithoutCudaLaunchesKeepTheirConfiguration) {
  TestKernel K(oneDimSpec("capi_nocuda"), "capi_nocuda");
  TestModel M([](const int64_t *, uint32_t, const klaraptor_candidate &C) {
    return double(C.block[0]);
  });
  ASSERT_EQ(__klaraptor_rt_register_kernel(&K.Desc), KLARAPTOR_OK);
  ASSERT_EQ(__klaraptor_rt_register_kernel(&K.Desc), KLARAPTOR_OK);
  ASSERT_EQ(klaraptor_register_model("capi_nocuda", &M.Model), KLARAPTOR_OK);
  Launch L({1000}, {4, 1, 1}, {256, 1, 1});
  // (The "no CUDA device" warning appears once per process: test/Runtime
  // checks it with a C program.)
  testing::internal::CaptureStderr();
  EXPECT_EQ(__klaraptor_rt_launch(&K.Desc, &L.Info), KLARAPTOR_UNCHANGED);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(L.block(), (Dim3{256, 1, 1}));
  EXPECT_EQ(L.grid(), (Dim3{4, 1, 1}));
  EXPECT_EQ(M.Calls.load(), 0u);

  // With a device injected through the test hook the model decides.
  klaraptor_device_info D = h100();
  ASSERT_EQ(klaraptor_rt_internal_set_device_limits(&D), KLARAPTOR_OK);
  uint64_t Before = klaraptor_rt_internal_decision_count();
  Launch L2({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(__klaraptor_rt_launch(&K.Desc, &L2.Info), KLARAPTOR_OK);
  EXPECT_EQ(L2.block(), (Dim3{32, 1, 1}));
  EXPECT_EQ(L2.grid(), (Dim3{32, 1, 1}));
  Launch L3({1000});
  EXPECT_EQ(__klaraptor_rt_launch_handle(&K.Stub, &L3.Info), KLARAPTOR_OK);
  EXPECT_EQ(L3.block(), (Dim3{32, 1, 1}));
  EXPECT_EQ(klaraptor_rt_internal_decision_count(), Before + 1);
  klaraptor_clear_history();
  Launch L4({1000});
  EXPECT_EQ(__klaraptor_rt_launch(&K.Desc, &L4.Info), KLARAPTOR_OK);
  EXPECT_EQ(klaraptor_rt_internal_decision_count(), Before + 2);

  D.max_threads_per_block = -1;
  EXPECT_EQ(klaraptor_rt_internal_set_device_limits(&D),
            KLARAPTOR_ERR_BAD_ARGUMENT);
  ASSERT_EQ(klaraptor_rt_internal_set_device_limits(nullptr), KLARAPTOR_OK);
  Launch L5({1000}, {4, 1, 1}, {256, 1, 1});
  EXPECT_EQ(__klaraptor_rt_launch(&K.Desc, &L5.Info), KLARAPTOR_UNCHANGED);
  EXPECT_EQ(L5.block(), (Dim3{256, 1, 1}));
}

// klaraptor_candidates: the admissible candidates of a registered kernel
// for a launch's arguments, without a model and without a decision.
TEST(CApi, Candidates) {
  // Static: descriptors are identified by address, and a stack object could
  // reuse the address of an earlier test's descriptor.
  static TestKernel K(oneDimSpec("capi_cands"), "capi_cands");
  ASSERT_EQ(__klaraptor_rt_register_kernel(&K.Desc), KLARAPTOR_OK);
  int64_t N = 1000;
  void *Args[] = {&N};
  uint32_t Count = 99;
  EXPECT_EQ(klaraptor_candidates("capi_cands", Args, nullptr, 0, nullptr),
            KLARAPTOR_ERR_BAD_ARGUMENT);
  EXPECT_EQ(klaraptor_candidates("no_such_kernel", Args, nullptr, 0, &Count),
            KLARAPTOR_ERR_BAD_ARGUMENT);
  EXPECT_EQ(Count, 0u);

  klaraptor_device_info D = h100();
  ASSERT_EQ(klaraptor_rt_internal_set_device_limits(&D), KLARAPTOR_OK);
  uint64_t Before = klaraptor_rt_internal_decision_count();
  ASSERT_EQ(klaraptor_candidates("capi_cands", Args, nullptr, 0, &Count),
            KLARAPTOR_OK);
  ASSERT_GT(Count, 1u);
  std::vector<klaraptor_candidate> C(Count);
  uint32_t Again = 0;
  ASSERT_EQ(klaraptor_candidates("capi_cands", Args, C.data(), 2, &Again),
            KLARAPTOR_OK);
  EXPECT_EQ(Again, Count); // the total, though only 2 were written
  ASSERT_EQ(klaraptor_candidates("capi_cands", Args, C.data(), Count, &Again),
            KLARAPTOR_OK);
  for (const klaraptor_candidate &X : C) {
    EXPECT_EQ(X.size, sizeof(klaraptor_candidate));
    EXPECT_EQ(X.block[1], 1u);
    EXPECT_EQ(X.grid[0], (1000 + X.block[0] - 1) / X.block[0]);
  }
  EXPECT_EQ(C.back().block[0], 1024u);
  EXPECT_EQ(C.back().grid[0], 1u);
  EXPECT_EQ(klaraptor_rt_internal_decision_count(), Before);
  ASSERT_EQ(klaraptor_rt_internal_set_device_limits(nullptr), KLARAPTOR_OK);
}

// klaraptor_candidates_shared_mem: each candidate's dynamic shared memory,
// in klaraptor_candidates' order.
TEST(CApi, CandidatesSharedMemory) {
  static TestKernel K(oneDimSpec("capi_shared", "shared ((8 * bx) + N)\n"),
                      "capi_shared");
  ASSERT_EQ(__klaraptor_rt_register_kernel(&K.Desc), KLARAPTOR_OK);
  klaraptor_device_info D = h100();
  ASSERT_EQ(klaraptor_rt_internal_set_device_limits(&D), KLARAPTOR_OK);
  int64_t N = 1000;
  void *Args[] = {&N};
  uint32_t Count = 0, SharedCount = 0;
  ASSERT_EQ(klaraptor_candidates("capi_shared", Args, nullptr, 0, &Count),
            KLARAPTOR_OK);
  std::vector<klaraptor_candidate> C(Count);
  std::vector<uint64_t> Bytes(Count);
  ASSERT_EQ(klaraptor_candidates("capi_shared", Args, C.data(), Count, &Count),
            KLARAPTOR_OK);
  ASSERT_EQ(klaraptor_candidates_shared_mem("capi_shared", Args, Bytes.data(),
                                            Count, &SharedCount),
            KLARAPTOR_OK);
  ASSERT_EQ(SharedCount, Count);
  ASSERT_EQ(Count, 6u);
  for (uint32_t I = 0; I < Count; ++I)
    EXPECT_EQ(Bytes[I], 8u * C[I].block[0] + 1000u);
  EXPECT_EQ(klaraptor_candidates_shared_mem("capi_shared", Args, nullptr, 1,
                                            &SharedCount),
            KLARAPTOR_ERR_BAD_ARGUMENT);
  ASSERT_EQ(klaraptor_rt_internal_set_device_limits(nullptr), KLARAPTOR_OK);
}

// docs/runtime-abi.md gives these x86-64 layouts; the IO-builder pass emits
// descriptors and launch infos with them.
TEST(CApi, StructureLayouts) {
  EXPECT_EQ(sizeof(klaraptor_kernel_desc), 48u);
  EXPECT_EQ(offsetof(klaraptor_kernel_desc, host_handle), 8u);
  EXPECT_EQ(offsetof(klaraptor_kernel_desc, device_name), 16u);
  EXPECT_EQ(offsetof(klaraptor_kernel_desc, spec), 24u);
  EXPECT_EQ(offsetof(klaraptor_kernel_desc, data_fn), 32u);
  EXPECT_EQ(offsetof(klaraptor_kernel_desc, num_data), 40u);
  EXPECT_EQ(sizeof(klaraptor_launch_info), 64u);
  EXPECT_EQ(offsetof(klaraptor_launch_info, data), 8u);
  EXPECT_EQ(offsetof(klaraptor_launch_info, args), 16u);
  EXPECT_EQ(offsetof(klaraptor_launch_info, grid), 24u);
  EXPECT_EQ(offsetof(klaraptor_launch_info, block), 36u);
  EXPECT_EQ(offsetof(klaraptor_launch_info, shared_mem), 48u);
  EXPECT_EQ(offsetof(klaraptor_launch_info, stream), 56u);
  EXPECT_EQ(sizeof(klaraptor_device_info), 344u);
  EXPECT_EQ(offsetof(klaraptor_device_info, cc_major), 264u);
  EXPECT_EQ(offsetof(klaraptor_device_info, max_block_dim), 280u);
  EXPECT_EQ(offsetof(klaraptor_device_info, max_grid_dim), 292u);
  EXPECT_EQ(offsetof(klaraptor_device_info, warp_size), 320u);
  EXPECT_EQ(offsetof(klaraptor_device_info, shared_mem_per_sm), 328u);
  EXPECT_EQ(sizeof(klaraptor_candidate), 28u);
  EXPECT_EQ(offsetof(klaraptor_candidate, grid), 16u);
  EXPECT_EQ(sizeof(klaraptor_model), 32u);
  EXPECT_EQ(offsetof(klaraptor_model, predict), 16u);
  EXPECT_EQ(offsetof(klaraptor_model, ctx), 24u);
}
