//===- FakeCuda.h - just enough CUDA runtime to run instrumented host code ===//
///
/// \file
/// The test harnesses of test/Passes link host objects that the IO-builder
/// instrumented against this instead of libcudart: kernel registration is
/// recorded (host stub -> device name), `<<<...>>>` configurations go through
/// a one-deep push/pop, and the launch entry points print what they receive.
/// Including it defines the functions, so include it once per program.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TEST_FAKECUDA_H
#define KLARAPTOR_TEST_FAKECUDA_H

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

/// dim3 as the host ABI passes it (three unsigned ints).
struct FakeDim3 {
  unsigned x, y, z;
};

/// Host stub -> device symbol, from __cudaRegisterFunction.
inline std::map<const void *, std::string> &deviceNames() {
  static std::map<const void *, std::string> Names;
  return Names;
}

inline const char *nameOf(const void *Handle) {
  auto It = deviceNames().find(Handle);
  return It == deviceNames().end() ? "<unregistered>" : It->second.c_str();
}

namespace fake {
inline FakeDim3 PushedGrid, PushedBlock;
inline size_t PushedShmem;
inline void *PushedStream;
/// The args array the last hook saw, to check the launch gets the same.
inline void *const *HookArgs;
} // namespace fake

extern "C" {
void **__cudaRegisterFatBinary(void *) {
  static void *Handle;
  return &Handle;
}
void __cudaRegisterFatBinaryEnd(void **) {}
void __cudaUnregisterFatBinary(void **) {}
void __cudaRegisterFunction(void **, const char *HostFun, char *DeviceFun,
                            const char *, int, void *, void *, void *, void *,
                            int *) {
  deviceNames()[HostFun] = DeviceFun;
}
unsigned __cudaPushCallConfiguration(FakeDim3 Grid, FakeDim3 Block,
                                     size_t Shmem, void *Stream) {
  fake::PushedGrid = Grid;
  fake::PushedBlock = Block;
  fake::PushedShmem = Shmem;
  fake::PushedStream = Stream;
  return 0;
}
int __cudaPopCallConfiguration(FakeDim3 *Grid, FakeDim3 *Block, size_t *Shmem,
                               void **Stream) {
  *Grid = fake::PushedGrid;
  *Block = fake::PushedBlock;
  *Shmem = fake::PushedShmem;
  *Stream = fake::PushedStream;
  return 0;
}
int cudaLaunchKernel(const void *Func, FakeDim3 Grid, FakeDim3 Block,
                     void **Args, size_t Shmem, void *Stream) {
  std::printf("launch %s grid=(%u,%u,%u) block=(%u,%u,%u) shmem=%zu "
              "stream=%p args=%s\n",
              nameOf(Func), Grid.x, Grid.y, Grid.z, Block.x, Block.y, Block.z,
              Shmem, Stream, Args == fake::HookArgs ? "as-hooked" : "other");
  fake::HookArgs = nullptr;
  return 0;
}
int cuLaunchKernel(void *F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,
                   unsigned BY, unsigned BZ, unsigned Shmem, void *Stream,
                   void **Params, void **Extra) {
  std::printf("cuLaunchKernel f=%p grid=(%u,%u,%u) block=(%u,%u,%u) shmem=%u "
              "stream=%p params=%s\n",
              F, GX, GY, GZ, BX, BY, BZ, Shmem, Stream,
              Params == fake::HookArgs ? "as-hooked" : "other");
  fake::HookArgs = nullptr;
  return 0;
}
}

#endif // KLARAPTOR_TEST_FAKECUDA_H
