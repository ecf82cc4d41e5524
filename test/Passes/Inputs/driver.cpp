// A driver-API launch: cuLaunchKernel with a CUfunction.
// Host IR of it: test/Passes/io-builder-culaunchkernel.ll.
#include <cuda.h>

CUresult launch(CUfunction f, void **params, CUstream s, unsigned n) {
  return cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 256, s, params,
                        nullptr);
}
