/*===- RecordingCudart.c - a test stand-in for libcudart that records launches ===*
 *
 * \file
 * Tests on machines without a GPU preload this library
 * (LD_PRELOAD=libklaraptor_recording_cudart.so) in front of the real
 * libcudart. It implements the part of the CUDA runtime that klaraptor's
 * examples and runtime use: device memory lives in host memory, a device with
 * H100 SXM limits is reported, and every kernel launch is *recorded* (kernel
 * name, grid, block) instead of executed. It exists to test instrumentation:
 * that the hook saw the launch and that the launch used what the hook chose.
 * Kernels do not run, so results are not computed; the emulator (a later
 * issue) is what runs kernels without a GPU.
 *
 * KLARAPTOR_TEST_LAUNCH_LOG=<file> receives one line per launch:
 *   launch <device-name> grid X Y Z block X Y Z shmem S
 * Launches that exceed the device limits fail with
 * cudaErrorInvalidConfiguration, as on a real device.
 *===------------------------------------------------------------------------===*/
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

enum { MaxKernels = 4096 };
static struct {
  const void *host;
  char name[512];
} Kernels[MaxKernels];
static int NumKernels;
static cudaError_t LastError = cudaSuccess;
static struct {
  dim3 grid, block;
  size_t shmem;
  void *stream;
  int valid;
} Pushed;

static const char *kernelName(const void *host) {
  for (int I = 0; I < NumKernels; ++I)
    if (Kernels[I].host == host)
      return Kernels[I].name;
  return "<unregistered>";
}

static cudaError_t fail(cudaError_t E) {
  LastError = E;
  return E;
}

static void record(const char *name, unsigned gx, unsigned gy, unsigned gz,
                   unsigned bx, unsigned by, unsigned bz, size_t shmem) {
  char line[1024];
  int n = snprintf(line, sizeof line,
                   "launch %s grid %u %u %u block %u %u %u shmem %zu\n", name,
                   gx, gy, gz, bx, by, bz, shmem);
  const char *path = getenv("KLARAPTOR_TEST_LAUNCH_LOG");
  int fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND, 0644) : 2;
  if (fd < 0)
    return;
  if (write(fd, line, (size_t)n) < 0) {
    /* Nothing useful to do: the test reading the log will notice. */
  }
  if (fd != 2)
    close(fd);
}

static int validLaunch(unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                       unsigned by, unsigned bz) {
  unsigned long long threads = (unsigned long long)bx * by * bz;
  return gx >= 1 && gy >= 1 && gz >= 1 && bx >= 1 && by >= 1 && bz >= 1 &&
         threads <= 1024 && bx <= 1024 && by <= 1024 && bz <= 64 &&
         gx <= 2147483647u && gy <= 65535 && gz <= 65535;
}

/* ---- registration, as emitted by clang for the host side ---------------- */

EXPORT void **__cudaRegisterFatBinary(void *fatCubin) {
  static void *Handle;
  (void)fatCubin;
  return &Handle;
}
EXPORT void __cudaRegisterFatBinaryEnd(void **h) { (void)h; }
EXPORT void __cudaUnregisterFatBinary(void **h) { (void)h; }
EXPORT void __cudaRegisterFunction(void **h, const char *hostFun,
                                   char *deviceFun, const char *deviceName,
                                   int threadLimit, uint3 *tid, uint3 *bid,
                                   dim3 *bDim, dim3 *gDim, int *wSize) {
  (void)h; (void)deviceFun; (void)threadLimit; (void)tid; (void)bid;
  (void)bDim; (void)gDim; (void)wSize;
  if (NumKernels < MaxKernels) {
    Kernels[NumKernels].host = hostFun;
    snprintf(Kernels[NumKernels].name, sizeof Kernels[NumKernels].name, "%s",
             deviceName);
    ++NumKernels;
  }
}
EXPORT void __cudaRegisterVar(void **h, char *hostVar, char *deviceAddress,
                              const char *deviceName, int ext, size_t size,
                              int constant, int global) {
  (void)h; (void)hostVar; (void)deviceAddress; (void)deviceName; (void)ext;
  (void)size; (void)constant; (void)global;
}
EXPORT unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block,
                                            size_t shmem, void *stream) {
  Pushed.grid = grid;
  Pushed.block = block;
  Pushed.shmem = shmem;
  Pushed.stream = stream;
  Pushed.valid = 1;
  return 0;
}
EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block,
                                              size_t *shmem, void *stream) {
  if (!Pushed.valid)
    return fail(cudaErrorMissingConfiguration);
  *grid = Pushed.grid;
  *block = Pushed.block;
  *shmem = Pushed.shmem;
  *(void **)stream = Pushed.stream;
  Pushed.valid = 0;
  return cudaSuccess;
}

/* ---- launches ------------------------------------------------------------ */

EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block,
                                    void **args, size_t shmem,
                                    cudaStream_t stream) {
  (void)args; (void)stream;
  if (!validLaunch(grid.x, grid.y, grid.z, block.x, block.y, block.z))
    return fail(cudaErrorInvalidConfiguration);
  record(kernelName(func), grid.x, grid.y, grid.z, block.x, block.y, block.z,
         shmem);
  return cudaSuccess;
}

EXPORT CUresult cuInit(unsigned flags) { (void)flags; return CUDA_SUCCESS; }

EXPORT CUresult cuFuncGetName(const char **name, CUfunction f) {
  /* In this stand-in a CUfunction is the kernel's host handle. */
  *name = kernelName((const void *)f);
  return CUDA_SUCCESS;
}

EXPORT CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attr,
                                   CUfunction f) {
  (void)f;
  if (attr == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK) {
    *value = 1024;
    return CUDA_SUCCESS;
  }
  *value = 0;
  return CUDA_SUCCESS;
}

EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy,
                               unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shmem, CUstream stream,
                               void **params, void **extra) {
  (void)stream; (void)params; (void)extra;
  if (!validLaunch(gx, gy, gz, bx, by, bz))
    return CUDA_ERROR_INVALID_VALUE;
  record(kernelName((const void *)f), gx, gy, gz, bx, by, bz, shmem);
  return CUDA_SUCCESS;
}

/* ---- memory -------------------------------------------------------------- */

EXPORT cudaError_t cudaMalloc(void **p, size_t n) {
  *p = malloc(n ? n : 1);
  return *p ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}
EXPORT cudaError_t cudaFree(void *p) { free(p); return cudaSuccess; }
EXPORT cudaError_t cudaMemcpy(void *d, const void *s, size_t n,
                              enum cudaMemcpyKind k) {
  (void)k;
  memmove(d, s, n);
  return cudaSuccess;
}
EXPORT cudaError_t cudaMemset(void *d, int v, size_t n) {
  memset(d, v, n);
  return cudaSuccess;
}
EXPORT cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
EXPORT cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
EXPORT cudaError_t cudaGetLastError(void) {
  cudaError_t E = LastError;
  LastError = cudaSuccess;
  return E;
}
EXPORT cudaError_t cudaPeekAtLastError(void) { return LastError; }
EXPORT const char *cudaGetErrorString(cudaError_t e) {
  switch (e) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidConfiguration: return "invalid configuration argument";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorMissingConfiguration: return "missing configuration";
  default: return "error (recording stand-in)";
  }
}
EXPORT const char *cudaGetErrorName(cudaError_t e) {
  return e == cudaSuccess ? "cudaSuccess" : "cudaError";
}

/* ---- device -------------------------------------------------------------- */

EXPORT cudaError_t cudaGetDeviceCount(int *n) { *n = 1; return cudaSuccess; }
EXPORT cudaError_t cudaGetDevice(int *d) { *d = 0; return cudaSuccess; }
EXPORT cudaError_t cudaSetDevice(int d) {
  return d == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}
EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d) {
  if (d != 0)
    return fail(cudaErrorInvalidDevice);
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name,
           "klaraptor recording stand-in (H100 SXM limits)");
  p->major = 9;
  p->minor = 0;
  p->multiProcessorCount = 132;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = 1024;
  p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = 65535;
  p->maxGridSize[2] = 65535;
  p->warpSize = 32;
  p->maxThreadsPerMultiProcessor = 2048;
  p->maxBlocksPerMultiProcessor = 32;
  p->regsPerMultiprocessor = 65536;
  p->regsPerBlock = 65536;
  p->sharedMemPerMultiprocessor = 233472;
  p->sharedMemPerBlock = 49152;
  p->sharedMemPerBlockOptin = 232448;
  p->totalGlobalMem = (size_t)80 << 30;
  return cudaSuccess;
}
EXPORT cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int d) {
  struct cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, d) != cudaSuccess)
    return fail(cudaErrorInvalidDevice);
  switch (a) {
  case cudaDevAttrMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; break;
  case cudaDevAttrMaxBlockDimX: *v = p.maxThreadsDim[0]; break;
  case cudaDevAttrMaxBlockDimY: *v = p.maxThreadsDim[1]; break;
  case cudaDevAttrMaxBlockDimZ: *v = p.maxThreadsDim[2]; break;
  case cudaDevAttrMaxGridDimX: *v = p.maxGridSize[0]; break;
  case cudaDevAttrMaxGridDimY: *v = p.maxGridSize[1]; break;
  case cudaDevAttrMaxGridDimZ: *v = p.maxGridSize[2]; break;
  case cudaDevAttrWarpSize: *v = p.warpSize; break;
  case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; break;
  case cudaDevAttrComputeCapabilityMajor: *v = p.major; break;
  case cudaDevAttrComputeCapabilityMinor: *v = p.minor; break;
  default: *v = 0; break;
  }
  return cudaSuccess;
}
EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a,
                                         const void *func) {
  (void)func;
  memset(a, 0, sizeof *a);
  a->maxThreadsPerBlock = 1024;
  a->numRegs = 32;
  a->ptxVersion = 90;
  a->binaryVersion = 90;
  return cudaSuccess;
}
EXPORT cudaError_t cudaRuntimeGetVersion(int *v) { *v = 13000; return cudaSuccess; }
EXPORT cudaError_t cudaDriverGetVersion(int *v) { *v = 13000; return cudaSuccess; }
EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s) {
  *s = (cudaStream_t)malloc(1);
  return cudaSuccess;
}
EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s) { free(s); return cudaSuccess; }
EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s) { (void)s; return cudaSuccess; }
