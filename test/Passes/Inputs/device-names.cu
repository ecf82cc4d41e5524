// Kernels that clang (host) and nvcc (device) name differently, and ones
// they name alike: the host IR of this file with nvcc's fatbin embedded is
// test/Passes/device-names.ll.
static __global__ void internal(float *p) {}
namespace {
__global__ void hidden(float *p) {}
} // namespace
__global__ void plain(float *p) {}
extern "C" __global__ void unmangled(float *p) {}

void launch(float *p) {
  internal<<<1, 1>>>(p);
  hidden<<<1, 1>>>(p);
  plain<<<1, 1>>>(p);
  unmangled<<<1, 1>>>(p);
}
