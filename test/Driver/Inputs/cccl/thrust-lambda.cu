// A __device__ lambda given to Thrust and a constexpr host function called
// in device code: what clang's CUDA accepts without a flag, and nvcc with
// --extended-lambda and --expt-relaxed-constexpr (test/Driver/cccl.test).
#include <cstdio>

#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>

constexpr float scale(float x) { return 3 * x; }

int main() {
  thrust::device_vector<float> v(1000, 2.0f);
  thrust::transform(v.begin(), v.end(), v.begin(),
                    [] __device__(float x) { return scale(x) + 1; });
  float Sum = thrust::reduce(v.begin(), v.end());
  std::printf("lambda sum %g (want 7000): %s\n", Sum,
              cudaGetErrorString(cudaGetLastError()));
  return Sum == 7000 ? 0 : 1;
}
