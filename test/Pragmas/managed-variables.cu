// __managed__ variables cannot be built by klaraptor-clang++ (clang's CUDA
// host compile ignores the attribute, and the host would use a variable of
// its own): klaraptor_host_defines.h, which the driver -include's, marks them
// with an annotation, and the plugin reports each, wherever it is declared.
// RUN: %host_cuda -fplugin=%plugin -fsyntax-only -include %klaraptor_lib/klaraptor/cuda-shim/klaraptor_host_defines.h -Xclang -verify %s

// expected-error@+1 {{'total' is a __managed__ variable, which klaraptor-clang++ cannot build: the host side is compiled by clang, whose CUDA does not implement managed variables (the host would use a copy of its own); allocate it with cudaMallocManaged}}
__managed__ int total;
namespace ns {
// expected-error@+1 {{'ns::scale' is a __managed__ variable}}
static __device__ __managed__ float scale = 2.0f;
} // namespace ns

// Other device variables are fine.
__device__ int counter;
__constant__ float coeffs[4];

__global__ void add(int n) { total += n * int(ns::scale) + counter; }
