//===- DeviceQueryTest.cpp - device limits through a stand-in CUDA --------===//
///
/// \file
/// A CudaApi whose functions are the fakes below, so the tests can count
/// calls, fail on purpose and report another CUDA version.
//===----------------------------------------------------------------------===//
#include "DeviceQuery.h"
#include "RuntimeTestSupport.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

using namespace klaraptor;
using namespace klaraptor::test;

namespace {

struct FakeCuda {
  int Device = 0;
  int GetDeviceError = 0;
  int PropsError = 0;
  int Version = CUDART_VERSION;
  int PendingError = 0; ///< what cudaPeekAtLastError reports
  int LastError = 0;    ///< what the runtime's last call left
  int MaxThreads = 1024;
  int FuncMaxThreads = 384;
  int FuncError = 0;
  int PropsCalls = 0, AttrCalls = 0, GetLastErrorCalls = 0, FuncCalls = 0;
  int DrvAttrCalls = 0;
};
FakeCuda Fake;

int fakeGetDevice(int *D) {
  if (Fake.GetDeviceError)
    return Fake.LastError = Fake.GetDeviceError;
  *D = Fake.Device;
  return 0;
}

int fakeProps(void *P, int Device) {
  ++Fake.PropsCalls;
  if (Fake.PropsError)
    return Fake.LastError = Fake.PropsError;
  cudaDeviceProp Prop;
  std::memset(&Prop, 0, sizeof(Prop));
  std::snprintf(Prop.name, sizeof(Prop.name), "fake device %d", Device);
  Prop.major = 9;
  Prop.minor = 0;
  Prop.multiProcessorCount = 132;
  Prop.maxThreadsPerBlock = Fake.MaxThreads;
  Prop.maxThreadsDim[0] = 1024;
  Prop.maxThreadsDim[1] = 1024;
  Prop.maxThreadsDim[2] = 64;
  Prop.maxGridSize[0] = 2147483647;
  Prop.maxGridSize[1] = 65535;
  Prop.maxGridSize[2] = 65535;
  Prop.maxThreadsPerMultiProcessor = 2048;
  Prop.maxBlocksPerMultiProcessor = 32;
  Prop.regsPerMultiprocessor = 65536;
  Prop.regsPerBlock = 65536;
  Prop.warpSize = 32;
  Prop.sharedMemPerMultiprocessor = 233472;
  Prop.sharedMemPerBlock = 49152;
  std::memcpy(P, &Prop, sizeof(Prop));
  return 0;
}

int attrValue(int Attr) {
  switch (Attr) {
  case cudaDevAttrMaxThreadsPerBlock: return 512;
  case cudaDevAttrMaxBlockDimX: return 512;
  case cudaDevAttrMaxBlockDimY: return 512;
  case cudaDevAttrMaxBlockDimZ: return 32;
  case cudaDevAttrMaxGridDimX: return 1000000;
  case cudaDevAttrMaxGridDimY: return 60000;
  case cudaDevAttrMaxGridDimZ: return 50000;
  case cudaDevAttrWarpSize: return 32;
  case cudaDevAttrMultiProcessorCount: return 80;
  case cudaDevAttrComputeCapabilityMajor: return 8;
  case cudaDevAttrComputeCapabilityMinor: return 6;
  case cudaDevAttrMaxSharedMemoryPerBlock: return 49152;
  default: return 7;
  }
}

int fakeAttr(int *V, int Attr, int) {
  ++Fake.AttrCalls;
  *V = attrValue(Attr);
  return 0;
}

int fakeDrvAttr(int *V, int Attr, int) {
  ++Fake.DrvAttrCalls;
  *V = attrValue(Attr); // CUdevice_attribute numbers equal cudaDeviceAttr's
  return 0;
}

int fakeDrvName(char *Name, int Len, int Device) {
  std::snprintf(Name, size_t(Len), "driver device %d", Device);
  return 0;
}

int fakeCtxGetDevice(int *D) {
  *D = 1;
  return 0;
}

void *FakeCurrentContext = nullptr; ///< what cuCtxGetCurrent answers
int GetDeviceCalls = 0;

int fakeCtxGetCurrent(void **C) {
  *C = FakeCurrentContext;
  return 0;
}

int countingGetDevice(int *D) {
  ++GetDeviceCalls;
  *D = 0;
  return 0;
}

int fakeVersion(int *V) {
  *V = Fake.Version;
  return 0;
}

const char *fakeErrorString(int E) {
  return E == 100 ? "no CUDA-capable device is detected" : "some error";
}

int fakeGetLastError() {
  ++Fake.GetLastErrorCalls;
  int E = Fake.LastError;
  Fake.LastError = 0;
  return E;
}

int fakePeek() { return Fake.PendingError; }

int fakeFuncAttrs(void *A, const void *) {
  ++Fake.FuncCalls;
  if (Fake.FuncError)
    return Fake.LastError = Fake.FuncError;
  cudaFuncAttributes Attr;
  std::memset(&Attr, 0, sizeof(Attr));
  Attr.maxThreadsPerBlock = Fake.FuncMaxThreads;
  Attr.maxDynamicSharedSizeBytes = 48128;
  std::memcpy(A, &Attr, sizeof(Attr));
  return 0;
}

int fakeCuFuncAttr(int *V, int Attr, void *) {
  *V = Attr == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK            ? 640
       : Attr == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ? 100000
                                                                 : 0;
  return 0;
}

CudaApi runtimeApi() {
  CudaApi A;
  A.GetDevice = fakeGetDevice;
  A.GetDeviceProperties = fakeProps;
  A.DevicePropertiesSymbol = "cudaGetDeviceProperties";
  A.DeviceGetAttribute = fakeAttr;
  A.FuncGetAttributes = fakeFuncAttrs;
  A.RuntimeGetVersion = fakeVersion;
  A.GetErrorString = fakeErrorString;
  A.GetLastError = fakeGetLastError;
  A.PeekAtLastError = fakePeek;
  return A;
}

class DeviceQueryTest : public ::testing::Test {
protected:
  void SetUp() override { Fake = FakeCuda(); }
};

} // namespace

TEST_F(DeviceQueryTest, PropertiesOfTheSameCudaVersion) {
  CudaApi A = runtimeApi();
  DeviceQuery Q(A);
  EXPECT_EQ(Q.currentDevice(), 0);
  std::string Why;
  const klaraptor_device_info *I = Q.limits(0, Why);
  ASSERT_NE(I, nullptr) << Why;
  EXPECT_STREQ(I->name, "fake device 0");
  EXPECT_EQ(I->size, sizeof(klaraptor_device_info));
  EXPECT_EQ(I->max_threads_per_block, 1024);
  EXPECT_EQ(I->max_block_dim[2], 64);
  EXPECT_EQ(I->max_grid_dim[0], 2147483647);
  EXPECT_EQ(I->max_grid_dim[1], 65535);
  EXPECT_EQ(I->warp_size, 32);
  EXPECT_EQ(I->sm_count, 132);
  EXPECT_EQ(I->cc_major, 9);
  EXPECT_EQ(I->max_threads_per_sm, 2048);
  EXPECT_EQ(I->max_blocks_per_sm, 32);
  EXPECT_EQ(I->regs_per_sm, 65536);
  EXPECT_EQ(I->shared_mem_per_sm, 233472u);
  EXPECT_EQ(I->shared_mem_per_block, 49152u);
  EXPECT_EQ(Fake.AttrCalls, 0);
  // Queried once per device.
  EXPECT_EQ(Q.limits(0, Why), I);
  EXPECT_EQ(Fake.PropsCalls, 1);
  Q.limits(1, Why);
  EXPECT_EQ(Fake.PropsCalls, 2);
}

TEST_F(DeviceQueryTest, AnotherCudaVersionUsesAttributes) {
  Fake.Version = 12080;
  CudaApi A = runtimeApi();
  DeviceQuery Q(A);
  std::string Why;
  const klaraptor_device_info *I = Q.limits(0, Why);
  ASSERT_NE(I, nullptr) << Why;
  EXPECT_STREQ(I->name, "fake device 0"); // the name is the first field
  EXPECT_EQ(I->max_threads_per_block, 512);
  EXPECT_EQ(I->max_block_dim[0], 512);
  EXPECT_EQ(I->max_block_dim[2], 32);
  EXPECT_EQ(I->max_grid_dim[0], 1000000);
  EXPECT_EQ(I->max_grid_dim[2], 50000);
  EXPECT_EQ(I->sm_count, 80);
  EXPECT_EQ(I->cc_major, 8);
  EXPECT_EQ(I->cc_minor, 6);
  EXPECT_EQ(I->shared_mem_per_block, 49152u);
  EXPECT_GT(Fake.AttrCalls, 10);
}

TEST_F(DeviceQueryTest, DriverOnlyProcess) {
  CudaApi A;
  A.CtxGetDevice = fakeCtxGetDevice;
  A.DrvDeviceGetAttribute = fakeDrvAttr;
  A.DrvDeviceGetName = fakeDrvName;
  DeviceQuery Q(A);
  EXPECT_EQ(Q.currentDevice(), 1);
  std::string Why;
  const klaraptor_device_info *I = Q.limits(1, Why);
  ASSERT_NE(I, nullptr) << Why;
  EXPECT_STREQ(I->name, "driver device 1");
  EXPECT_EQ(I->max_threads_per_block, 512);
  EXPECT_EQ(I->max_grid_dim[1], 60000);
  EXPECT_GT(Fake.DrvAttrCalls, 10);
}

TEST_F(DeviceQueryTest, TheCurrentContextNamesTheDevice) {
  // With the driver's current context at hand, its device is the answer and
  // the runtime is not asked (cudaGetDevice contends between threads).
  CudaApi A = runtimeApi();
  A.GetDevice = countingGetDevice;
  A.CtxGetCurrent = fakeCtxGetCurrent;
  A.CtxGetDevice = fakeCtxGetDevice; // device 1
  DeviceQuery Q(A);
  int Context = 0;
  FakeCurrentContext = &Context;
  GetDeviceCalls = 0;
  EXPECT_EQ(Q.currentDevice(), 1);
  EXPECT_EQ(GetDeviceCalls, 0);
  // A thread with no current context yet asks the runtime.
  FakeCurrentContext = nullptr;
  EXPECT_EQ(Q.currentDevice(), 0);
  EXPECT_EQ(GetDeviceCalls, 1);
  // Only cuCtxGetDevice, no cuCtxGetCurrent: the runtime first, as before.
  CudaApi B = runtimeApi();
  B.GetDevice = countingGetDevice;
  B.CtxGetDevice = fakeCtxGetDevice;
  DeviceQuery R(B);
  EXPECT_EQ(R.currentDevice(), 0);
  EXPECT_EQ(GetDeviceCalls, 2);
}

TEST_F(DeviceQueryTest, FailuresAreCachedAndTheirErrorsCleared) {
  Fake.PropsError = 100;
  CudaApi A = runtimeApi();
  DeviceQuery Q(A);
  std::string Why;
  EXPECT_EQ(Q.limits(0, Why), nullptr);
  EXPECT_EQ(Why, "cudaGetDeviceProperties(0) failed: error 100 (no "
                 "CUDA-capable device is detected)");
  // The runtime's own error does not stay for the program to find.
  EXPECT_EQ(Fake.LastError, 0);
  EXPECT_EQ(Fake.GetLastErrorCalls, 1);
  Why.clear();
  EXPECT_EQ(Q.limits(0, Why), nullptr);
  EXPECT_FALSE(Why.empty());
  EXPECT_EQ(Fake.PropsCalls, 1);
}

TEST_F(DeviceQueryTest, ImplausibleLimitsAreRejected) {
  Fake.MaxThreads = 0;
  CudaApi A = runtimeApi();
  DeviceQuery Q(A);
  std::string Why;
  EXPECT_EQ(Q.limits(0, Why), nullptr);
  EXPECT_EQ(Why, "implausible device limit maxThreadsPerBlock = 0");
  klaraptor_device_info D = h100();
  D.max_grid_dim[2] = 0;
  EXPECT_FALSE(Q.setOverride(&D, &Why));
  EXPECT_EQ(Why, "implausible device limit maxGridSize = 0");
}

TEST_F(DeviceQueryTest, NoDevice) {
  Fake.GetDeviceError = 100;
  CudaApi A = runtimeApi();
  DeviceQuery Q(A);
  EXPECT_EQ(Q.currentDevice(), -1);
  EXPECT_EQ(Q.whyNoDevice(), "cudaGetDevice failed: error 100 (no "
                             "CUDA-capable device is detected)");
  DeviceQuery None(CudaApi::none());
  EXPECT_EQ(None.currentDevice(), -1);
  EXPECT_NE(None.whyNoDevice().find("neither cudaGetDevice nor cuCtxGetDevice"),
            std::string::npos);
}

TEST_F(DeviceQueryTest, KernelLimits) {
  CudaApi A = runtimeApi();
  DeviceQuery Q(A);
  char Stub;
  EXPECT_EQ(Q.kernelLimits(&Stub, nullptr, 0).MaxThreads, 384);
  EXPECT_EQ(Q.kernelLimits(&Stub, nullptr, 0).MaxDynamicShared, 48128);
  // A failing query is 0 and its error is cleared.
  Fake.FuncError = 98;
  EXPECT_EQ(Q.kernelLimits(&Stub, nullptr, 0).MaxThreads, 0);
  EXPECT_EQ(Q.kernelLimits(&Stub, nullptr, 0).MaxDynamicShared, 0);
  EXPECT_EQ(Fake.LastError, 0);
  // While the program has an error pending the runtime asks nothing.
  Fake.PendingError = 700;
  int Calls = Fake.FuncCalls;
  EXPECT_EQ(Q.kernelLimits(&Stub, nullptr, 0).MaxThreads, 0);
  EXPECT_EQ(Fake.FuncCalls, Calls);
  // A CUfunction is asked through the driver.
  A.FuncGetAttribute = fakeCuFuncAttr;
  DeviceQuery Drv(A);
  int F;
  EXPECT_EQ(Drv.kernelLimits(&Stub, &F, 0).MaxThreads, 640);
  EXPECT_EQ(Drv.kernelLimits(&Stub, &F, 0).MaxDynamicShared, 100000);
}

TEST_F(DeviceQueryTest, OverrideReplacesTheDevice) {
  CudaApi A = runtimeApi();
  DeviceQuery Q(A);
  klaraptor_device_info D = h100();
  D.device = 3;
  ASSERT_TRUE(Q.setOverride(&D));
  EXPECT_EQ(Q.currentDevice(), 3);
  std::string Why;
  const klaraptor_device_info *I = Q.limits(3, Why);
  ASSERT_NE(I, nullptr);
  EXPECT_STREQ(I->name, "test H100");
  EXPECT_EQ(Fake.PropsCalls, 0);
  char Stub;
  EXPECT_EQ(Q.kernelLimits(&Stub, nullptr, 3).MaxThreads, 0);
  Q.setKernelMaxThreadsOverride(&Stub, 128);
  EXPECT_EQ(Q.kernelLimits(&Stub, nullptr, 3).MaxThreads, 128);
  ASSERT_TRUE(Q.setOverride(nullptr));
  EXPECT_EQ(Q.currentDevice(), 0);
}
