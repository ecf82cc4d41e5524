// Launches of kernels the pass cannot name: through the cudaLaunchKernel<T>
// template of cuda_runtime.h, and through the C entry point with a pointer
// that is only known at run time.
// Host IR of it: test/Passes/io-builder-dynamic-handle.ll.
__global__ void plain(int *p) {}

void viaTemplate(int *p) {
  void *args[] = {&p};
  cudaLaunchKernel(plain, dim3(4), dim3(64), args, 0, nullptr);
}

void viaPointer(const void *kernel, void **args, cudaStream_t s) {
  cudaLaunchKernel(kernel, dim3(8, 2), dim3(32, 4, 2), args, 128, s);
}
