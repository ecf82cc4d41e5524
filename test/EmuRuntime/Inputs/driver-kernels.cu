// Kernels the driver-API test loads as PTX, fatbin and cubin.
extern "C" __global__ void scale(float *p, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= s;
}

__device__ float bias = 0.5f;

extern "C" __global__ void add_bias(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += bias;
}
