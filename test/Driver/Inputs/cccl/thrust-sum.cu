// Thrust with device vectors (transform, reduce, sort) and libcu++'s
// cuda::std types, from the toolkit's CCCL headers.
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cuda/std/array>
#include <cuda/std/type_traits>

#include <cstdio>

struct Square {
  __host__ __device__ int operator()(int X) const { return X * X; }
};

static_assert(cuda::std::is_same_v<cuda::std::remove_cv_t<const int>, int>);

int main() {
  thrust::device_vector<int> V(100);
  thrust::sequence(V.begin(), V.end());
  thrust::device_vector<int> W(100);
  thrust::transform(V.begin(), V.end(), W.begin(), Square());
  int Sum = thrust::reduce(W.begin(), W.end(), 0, thrust::plus<int>());
  thrust::sort(V.begin(), V.end(), thrust::greater<int>());
  int First = V[0];
  cuda::std::array<int, 3> A{1, 2, 3};
  std::printf("sum of squares %d (want 328350), largest %d, array %d\n", Sum,
              First, A[0] + A[1] + A[2]);
  return Sum == 328350 && First == 99 && A[2] == 3 ? 0 : 1;
}
