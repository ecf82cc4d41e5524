// Kernels without annotations launched with <<<...>>>: nothing for the
// IO-builder to do. Host IR of it: test/Passes/io-builder-unchanged.ll.
__global__ void plain(int *p) {}

template <typename T> __global__ void fill(T *p, T v, int n) {}

void run(int *p, float *f, int n) {
  plain<<<1, 1>>>(p);
  fill<<<(n + 127) / 128, 128>>>(f, 1.0f, n);
}
