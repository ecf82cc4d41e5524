// Kernels and variables that clang (host) and nvcc (device) name
// differently, and ones they name alike: the host IR of this file with
// nvcc's fatbin embedded is test/Passes/device-names.ll.
static __global__ void internal(float *p) {}
namespace {
__global__ void hidden(float *p) {}
__device__ int counter;
} // namespace
__global__ void plain(float *p) {}
extern "C" __global__ void unmangled(float *p) {}
static __constant__ float coeffs[4];
__constant__ float shared_coeffs[4];

__global__ void reads(float *p) { p[0] = coeffs[0] + shared_coeffs[0] + counter; }

// The host refers to the variables (as cudaMemcpyToSymbol does), so it
// registers them.
const void *symbols[] = {&coeffs, &shared_coeffs, &counter};

void launch(float *p) {
  internal<<<1, 1>>>(p);
  hidden<<<1, 1>>>(p);
  plain<<<1, 1>>>(p);
  unmangled<<<1, 1>>>(p);
  reads<<<1, 1>>>(p);
}
