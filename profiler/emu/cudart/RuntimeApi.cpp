//===- RuntimeApi.cpp - the CUDA runtime API of the emulated runtime ------===//
///
/// \file
/// The cuda* functions and the __cuda* registration entry points the host
/// code clang generates for a .cu file calls, with the signatures of CUDA
/// 13's cuda_runtime_api.h (C ABI). Every function records a failure as the
/// thread's last error, as libcudart does. Functions of CUDA 13's libcudart
/// not defined here are in Unsupported.cpp.
//===----------------------------------------------------------------------===//
#include "EmuCudart.h"
#include "EmuRuntime.h"

#include <cuda_profiler_api.h>

#include <cstring>

using namespace klaraptor;
using namespace klaraptor::emurt;

#define API extern "C"

namespace {

Runtime &rt() {
  Runtime &R = Runtime::get();
  // Any runtime call initializes the driver and makes the primary context
  // current, as libcudart does.
  R.initDriver();
  if (!Runtime::currentContext())
    Runtime::currentContext() = R.primaryContext();
  return R;
}

cudaError_t ret(cudaError_t E) { return Runtime::get().ret(E); }

emu::Dim3 dim(const dim3 &D) { return {D.x, D.y, D.z}; }

bool validKind(cudaMemcpyKind K) {
  return K >= cudaMemcpyHostToHost && K <= cudaMemcpyDefault;
}

/// Common checks of the device-touching calls: the sticky error of a failed
/// kernel, a device, a stream.
cudaError_t ready(const void *Stream = nullptr) {
  Runtime &R = rt();
  if (cudaError_t S = R.sticky())
    return S;
  if (!R.device())
    return cudaErrorNoDevice;
  if (!R.validStream(Stream))
    return cudaErrorInvalidResourceHandle;
  return cudaSuccess;
}

cudaError_t copy(void *Dst, const void *Src, size_t Count, cudaMemcpyKind Kind,
                 const void *Stream) {
  if (cudaError_t E = ready(Stream))
    return E;
  if (!validKind(Kind))
    return cudaErrorInvalidMemcpyDirection;
  if (Count == 0)
    return cudaSuccess;
  if (!Dst || !Src)
    return cudaErrorInvalidValue;
  std::memmove(Dst, Src, Count);
  return cudaSuccess;
}

cudaError_t copy2D(void *Dst, size_t DPitch, const void *Src, size_t SPitch,
                   size_t Width, size_t Height, cudaMemcpyKind Kind,
                   const void *Stream) {
  if (cudaError_t E = ready(Stream))
    return E;
  if (!validKind(Kind))
    return cudaErrorInvalidMemcpyDirection;
  if (Width > DPitch || Width > SPitch)
    return cudaErrorInvalidPitchValue;
  if (Width == 0 || Height == 0)
    return cudaSuccess;
  if (!Dst || !Src)
    return cudaErrorInvalidValue;
  for (size_t Row = 0; Row < Height; ++Row)
    std::memmove(static_cast<char *>(Dst) + Row * DPitch,
                 static_cast<const char *>(Src) + Row * SPitch, Width);
  return cudaSuccess;
}

cudaError_t set2D(void *Ptr, size_t Pitch, int Value, size_t Width,
                  size_t Height, const void *Stream) {
  if (cudaError_t E = ready(Stream))
    return E;
  if (Width > Pitch && Height > 1)
    return cudaErrorInvalidPitchValue;
  if (Width == 0 || Height == 0)
    return cudaSuccess;
  if (!Ptr)
    return cudaErrorInvalidValue;
  for (size_t Row = 0; Row < Height; ++Row)
    std::memset(static_cast<char *>(Ptr) + Row * Pitch, Value, Width);
  return cudaSuccess;
}

cudaError_t symbolCopy(const void *Symbol, void *Host, size_t Count,
                       size_t Offset, cudaMemcpyKind Kind, bool ToSymbol,
                       const void *Stream) {
  if (cudaError_t E = ready(Stream))
    return E;
  bool KindOk =
      Kind == cudaMemcpyDefault || Kind == cudaMemcpyDeviceToDevice ||
      Kind == (ToSymbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
  if (!KindOk)
    return cudaErrorInvalidMemcpyDirection;
  void *Address = nullptr;
  size_t Size = 0;
  if (cudaError_t E = Runtime::get().hostVariable(Symbol, Address, Size))
    return E;
  if (Offset > Size || Count > Size - Offset)
    return cudaErrorInvalidValue;
  if (Count == 0)
    return cudaSuccess;
  if (!Host)
    return cudaErrorInvalidValue;
  char *Dev = static_cast<char *>(Address) + Offset;
  if (ToSymbol)
    std::memmove(Dev, Host, Count);
  else
    std::memmove(Host, Dev, Count);
  return cudaSuccess;
}

cudaError_t launchHost(const void *Func, dim3 Grid, dim3 Block, void **Args,
                       size_t Shared, const void *Stream) {
  Runtime &R = rt();
  LaunchRequest L;
  if (cudaError_t E = R.hostFunction(Func, L.F))
    return E;
  L.Grid = dim(Grid);
  L.Block = dim(Block);
  L.DynamicShared = Shared;
  L.Args = Args;
  L.Stream = Stream;
  return R.launch(L);
}

} // namespace

// --- versions and errors
// -------------------------------------------------------

API cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
  if (!runtimeVersion)
    return ret(cudaErrorInvalidValue);
  *runtimeVersion = CUDART_VERSION;
  return cudaSuccess;
}

API cudaError_t cudaDriverGetVersion(int *driverVersion) {
  if (!driverVersion)
    return ret(cudaErrorInvalidValue);
  *driverVersion = CUDA_VERSION;
  return cudaSuccess;
}

API cudaError_t cudaGetLastError(void) {
  return Runtime::get().lastError(/*Reset=*/true);
}

API cudaError_t cudaPeekAtLastError(void) {
  return Runtime::get().lastError(/*Reset=*/false);
}

API const char *cudaGetErrorName(cudaError_t error) {
  switch (error) {
#define CUDART_ERROR(Name, Value, Message)                                     \
  case Name:                                                                   \
    return #Name;
#include "RuntimeErrors.def"
  default:
    return "unrecognized error code";
  }
}

API const char *cudaGetErrorString(cudaError_t error) {
  switch (error) {
#define CUDART_ERROR(Name, Value, Message)                                     \
  case Name:                                                                   \
    return Message;
#include "RuntimeErrors.def"
  default:
    return "unrecognized error code";
  }
}

#define CUDART_ERROR(Name, Value, Message)                                     \
  static_assert(Name == Value, #Name " changed its value");
#include "RuntimeErrors.def"

// --- channel descriptors
// --------------------------------------------------------

// A plain value: what cudaCreateChannelDesc<T>() of cuda_runtime.h calls.
// The arrays, textures and surfaces it describes are outside the emulated
// subset (cudaMallocArray and the object calls report so, Unsupported.cpp).
API cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                cudaChannelFormatKind f) {
  cudaChannelFormatDesc D;
  D.x = x;
  D.y = y;
  D.z = z;
  D.w = w;
  D.f = f;
  return D;
}

// --- device management
// --------------------------------------------------------

API cudaError_t cudaGetDeviceCount(int *count) {
  if (!count)
    return ret(cudaErrorInvalidValue);
  *count = rt().device() ? 1 : 0;
  return *count ? cudaSuccess : ret(cudaErrorNoDevice);
}

API cudaError_t cudaGetDevice(int *device) {
  if (!device)
    return ret(cudaErrorInvalidValue);
  if (!rt().device())
    return ret(cudaErrorNoDevice);
  *device = 0;
  return cudaSuccess;
}

API cudaError_t cudaSetDevice(int device) {
  if (!rt().device())
    return ret(cudaErrorNoDevice);
  return device == 0 ? cudaSuccess : ret(cudaErrorInvalidDevice);
}

API cudaError_t cudaInitDevice(int device, unsigned int, unsigned int) {
  return cudaSetDevice(device);
}

API cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *) {
  return cudaGetDevice(device);
}

API cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  static_cast<void>(flags);
  return rt().device() ? cudaSuccess : ret(cudaErrorNoDevice);
}

API cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
  if (!flags)
    return ret(cudaErrorInvalidValue);
  *flags = cudaDeviceMapHost;
  return cudaSuccess;
}

API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop,
                                        int device) {
  if (!prop)
    return ret(cudaErrorInvalidValue);
  Runtime &R = rt();
  if (!R.device())
    return ret(cudaErrorNoDevice);
  if (device != 0)
    return ret(cudaErrorInvalidDevice);
  R.fillProperties(*prop);
  return cudaSuccess;
}

API cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
                                       int device) {
  if (!value)
    return ret(cudaErrorInvalidValue);
  Runtime &R = rt();
  if (!R.device())
    return ret(cudaErrorNoDevice);
  if (device != 0)
    return ret(cudaErrorInvalidDevice);
  return ret(R.attribute(int(attr), *value));
}

API cudaError_t cudaDeviceSynchronize(void) {
  // Work is done when its call returns; only a kernel's failure remains.
  return ret(ready());
}

API cudaError_t cudaDeviceReset(void) {
  rt().reset();
  return cudaSuccess;
}

API cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit) {
  if (!pValue || limit < cudaLimitStackSize ||
      limit > cudaLimitPersistingL2CacheSize)
    return ret(cudaErrorUnsupportedLimit);
  *pValue = rt().limit(limit);
  return cudaSuccess;
}

API cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize)
    return ret(cudaErrorUnsupportedLimit);
  rt().setLimit(limit, value);
  return cudaSuccess;
}

API cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig) {
  if (!pCacheConfig)
    return ret(cudaErrorInvalidValue);
  *pCacheConfig = cudaFuncCachePreferNone;
  return cudaSuccess;
}

API cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache) {
  // A preference the emulator has no cache to apply to.
  return cudaSuccess;
}

// Deprecated bank-size preferences, which recent GPUs ignore.
API cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config) {
  static_cast<void>(config);
  return cudaSuccess;
}

API cudaError_t
cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig) {
  if (!pConfig)
    return ret(cudaErrorInvalidValue);
  *pConfig = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}

API cudaError_t cudaFuncSetSharedMemConfig(const void *func,
                                           enum cudaSharedMemConfig config) {
  static_cast<void>(config);
  Function *F = nullptr;
  return ret(rt().hostFunction(func, F));
}

API cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
                                                 int *greatestPriority) {
  // What CUDA reports on every device of compute capability 7.0 and newer.
  if (leastPriority)
    *leastPriority = 0;
  if (greatestPriority)
    *greatestPriority = -5;
  return cudaSuccess;
}

API cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device,
                                        int peerDevice) {
  if (!canAccessPeer)
    return ret(cudaErrorInvalidValue);
  if (device != 0 || peerDevice != 0)
    return ret(cudaErrorInvalidDevice);
  *canAccessPeer = 0;
  return cudaSuccess;
}

API cudaError_t cudaMemGetInfo(size_t *free, size_t *total) {
  Runtime &R = rt();
  if (!R.device())
    return ret(cudaErrorNoDevice);
  size_t F = 0, T = 0;
  R.memInfo(F, T);
  if (free)
    *free = F;
  if (total)
    *total = T;
  return cudaSuccess;
}

// --- memory
// --------------------------------------------------------------------

API cudaError_t cudaMalloc(void **devPtr, size_t size) {
  if (cudaError_t S = rt().sticky())
    return ret(S);
  return ret(rt().allocate(devPtr, size, MemoryKind::Device));
}

API cudaError_t cudaMallocManaged(void **devPtr, size_t size,
                                  unsigned int flags) {
  static_cast<void>(flags);
  if (cudaError_t S = rt().sticky())
    return ret(S);
  return ret(rt().allocate(devPtr, size, MemoryKind::Managed));
}

API cudaError_t cudaMallocHost(void **ptr, size_t size) {
  return ret(rt().allocate(ptr, size, MemoryKind::Host));
}

API cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
  static_cast<void>(flags);
  return ret(rt().allocate(pHost, size, MemoryKind::Host));
}

API cudaError_t cudaFree(void *devPtr) {
  return ret(rt().release(devPtr, /*Host=*/false));
}

API cudaError_t cudaFreeHost(void *ptr) {
  return ret(rt().release(ptr, /*Host=*/true));
}

API cudaError_t cudaMallocAsync(void **devPtr, size_t size,
                                cudaStream_t hStream) {
  if (cudaError_t E = ready(hStream))
    return ret(E);
  return ret(rt().allocate(devPtr, size, MemoryKind::Device));
}

API cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream) {
  if (!rt().validStream(hStream))
    return ret(cudaErrorInvalidResourceHandle);
  return ret(rt().release(devPtr, /*Host=*/false));
}

API cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
                                size_t height) {
  if (!pitch)
    return ret(cudaErrorInvalidValue);
  const devices::DeviceProfile *D = rt().device();
  if (!D)
    return ret(cudaErrorNoDevice);
  // Rows start at the texture alignment, as on the GPU.
  size_t Align = D->TextureAlignment > 0 ? size_t(D->TextureAlignment) : 512;
  *pitch = (width + Align - 1) / Align * Align;
  return ret(rt().allocate(devPtr, *pitch * height, MemoryKind::Device));
}

API cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags) {
  static_cast<void>(flags);
  // Host memory is device memory already; registering makes it a range
  // kernels may address (the emulator checks every global access).
  return ret(rt().registerHost(ptr, size));
}

API cudaError_t cudaHostUnregister(void *ptr) {
  return ret(rt().unregisterHost(ptr));
}

API cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost,
                                         unsigned int flags) {
  if (!pDevice || !pHost || flags != 0)
    return ret(cudaErrorInvalidValue);
  *pDevice = pHost;
  return cudaSuccess;
}

API cudaError_t cudaPointerGetAttributes(
    struct cudaPointerAttributes *attributes, const void *ptr) {
  if (!attributes)
    return ret(cudaErrorInvalidValue);
  std::memset(attributes, 0, sizeof *attributes);
  const void *Base = nullptr;
  Allocation A;
  if (!rt().findAllocation(ptr, Base, A)) {
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = -2;
    attributes->hostPointer = const_cast<void *>(ptr);
    return cudaSuccess;
  }
  attributes->device = 0;
  switch (A.Kind) {
  case MemoryKind::Device:
    attributes->type = cudaMemoryTypeDevice;
    attributes->devicePointer = const_cast<void *>(ptr);
    break;
  case MemoryKind::Managed:
    attributes->type = cudaMemoryTypeManaged;
    attributes->devicePointer = const_cast<void *>(ptr);
    attributes->hostPointer = const_cast<void *>(ptr);
    break;
  case MemoryKind::Host:
    attributes->type = cudaMemoryTypeHost;
    attributes->devicePointer = const_cast<void *>(ptr);
    attributes->hostPointer = const_cast<void *>(ptr);
    break;
  }
  return cudaSuccess;
}

API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                           enum cudaMemcpyKind kind) {
  return ret(copy(dst, src, count, kind, nullptr));
}

API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                enum cudaMemcpyKind kind, cudaStream_t stream) {
  return ret(copy(dst, src, count, kind, stream));
}

API cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src,
                               int srcDevice, size_t count) {
  if (dstDevice != 0 || srcDevice != 0)
    return ret(cudaErrorInvalidDevice);
  return ret(copy(dst, src, count, cudaMemcpyDeviceToDevice, nullptr));
}

API cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src,
                                    int srcDevice, size_t count,
                                    cudaStream_t stream) {
  if (dstDevice != 0 || srcDevice != 0)
    return ret(cudaErrorInvalidDevice);
  return ret(copy(dst, src, count, cudaMemcpyDeviceToDevice, stream));
}

API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                             size_t spitch, size_t width, size_t height,
                             enum cudaMemcpyKind kind) {
  return ret(copy2D(dst, dpitch, src, spitch, width, height, kind, nullptr));
}

API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                  size_t spitch, size_t width, size_t height,
                                  enum cudaMemcpyKind kind,
                                  cudaStream_t stream) {
  return ret(copy2D(dst, dpitch, src, spitch, width, height, kind, stream));
}

API cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
  return ret(set2D(devPtr, count, value, count, 1, nullptr));
}

API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                cudaStream_t stream) {
  return ret(set2D(devPtr, count, value, count, 1, stream));
}

API cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value,
                             size_t width, size_t height) {
  return ret(set2D(devPtr, pitch, value, width, height, nullptr));
}

API cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
                                  size_t width, size_t height,
                                  cudaStream_t stream) {
  return ret(set2D(devPtr, pitch, value, width, height, stream));
}

API cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
                                   size_t count, size_t offset,
                                   enum cudaMemcpyKind kind) {
  return ret(symbolCopy(symbol, const_cast<void *>(src), count, offset, kind,
                        /*ToSymbol=*/true, nullptr));
}

API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol,
                                     size_t count, size_t offset,
                                     enum cudaMemcpyKind kind) {
  return ret(symbolCopy(symbol, dst, count, offset, kind, /*ToSymbol=*/false,
                        nullptr));
}

API cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
                                        size_t count, size_t offset,
                                        enum cudaMemcpyKind kind,
                                        cudaStream_t stream) {
  return ret(symbolCopy(symbol, const_cast<void *>(src), count, offset, kind,
                        /*ToSymbol=*/true, stream));
}

API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
                                          size_t count, size_t offset,
                                          enum cudaMemcpyKind kind,
                                          cudaStream_t stream) {
  return ret(
      symbolCopy(symbol, dst, count, offset, kind, /*ToSymbol=*/false, stream));
}

API cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol) {
  if (!devPtr)
    return ret(cudaErrorInvalidValue);
  size_t Size = 0;
  return ret(rt().hostVariable(symbol, *devPtr, Size));
}

API cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  if (!size)
    return ret(cudaErrorInvalidValue);
  void *Address = nullptr;
  return ret(rt().hostVariable(symbol, Address, *size));
}

API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                     struct cudaMemLocation location,
                                     unsigned int flags, cudaStream_t stream) {
  static_cast<void>(devPtr);
  static_cast<void>(count);
  static_cast<void>(location);
  static_cast<void>(flags);
  // Managed memory is host memory: there is nothing to move.
  return ret(ready(stream));
}

API cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                              enum cudaMemoryAdvise advice,
                              struct cudaMemLocation location) {
  static_cast<void>(devPtr);
  static_cast<void>(count);
  static_cast<void>(advice);
  static_cast<void>(location);
  return cudaSuccess;
}

// --- streams
// ------------------------------------------------------------------

API cudaError_t cudaStreamCreate(cudaStream_t *pStream) {
  if (!pStream)
    return ret(cudaErrorInvalidValue);
  *pStream = reinterpret_cast<cudaStream_t>(rt().createStream(0, 0));
  return cudaSuccess;
}

API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                          unsigned int flags) {
  if (!pStream || flags > cudaStreamNonBlocking)
    return ret(cudaErrorInvalidValue);
  *pStream = reinterpret_cast<cudaStream_t>(rt().createStream(flags, 0));
  return cudaSuccess;
}

API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
                                             unsigned int flags, int priority) {
  if (!pStream || flags > cudaStreamNonBlocking)
    return ret(cudaErrorInvalidValue);
  // Priorities are clamped to the range, as CUDA does.
  priority = std::max(-5, std::min(0, priority));
  *pStream = reinterpret_cast<cudaStream_t>(rt().createStream(flags, priority));
  return cudaSuccess;
}

API cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (!stream || !rt().destroyStream(stream))
    return ret(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

API cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return ret(ready(stream));
}

API cudaError_t cudaStreamQuery(cudaStream_t stream) {
  // Everything enqueued has already run.
  return ret(ready(stream));
}

// Stream capture (CUDA graphs) is not emulated: no stream is ever being
// captured, and a thread's capture mode only has to be remembered.
API cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                      cudaStreamCaptureStatus *pCaptureStatus) {
  if (!pCaptureStatus)
    return ret(cudaErrorInvalidValue);
  if (!rt().validStream(stream))
    return ret(cudaErrorInvalidResourceHandle);
  *pCaptureStatus = cudaStreamCaptureStatusNone;
  return cudaSuccess;
}

API cudaError_t cudaThreadExchangeStreamCaptureMode(
    enum cudaStreamCaptureMode *mode) {
  static thread_local cudaStreamCaptureMode ThreadMode =
      cudaStreamCaptureModeGlobal;
  if (!mode || (*mode != cudaStreamCaptureModeGlobal &&
                *mode != cudaStreamCaptureModeThreadLocal &&
                *mode != cudaStreamCaptureModeRelaxed))
    return ret(cudaErrorInvalidValue);
  std::swap(*mode, ThreadMode);
  return cudaSuccess;
}

API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                    unsigned int flags) {
  static_cast<void>(flags);
  if (!rt().validStream(stream) || !rt().event(event))
    return ret(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

API cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags) {
  if (!flags)
    return ret(cudaErrorInvalidValue);
  if (!rt().validStream(hStream))
    return ret(cudaErrorInvalidResourceHandle);
  bool Builtin =
      !hStream || hStream == cudaStreamLegacy || hStream == cudaStreamPerThread;
  *flags = Builtin ? 0 : reinterpret_cast<Stream *>(hStream)->Flags;
  return cudaSuccess;
}

API cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority) {
  if (!priority)
    return ret(cudaErrorInvalidValue);
  if (!rt().validStream(hStream))
    return ret(cudaErrorInvalidResourceHandle);
  bool Builtin =
      !hStream || hStream == cudaStreamLegacy || hStream == cudaStreamPerThread;
  *priority = Builtin ? 0 : reinterpret_cast<Stream *>(hStream)->Priority;
  return cudaSuccess;
}

API cudaError_t cudaStreamAddCallback(cudaStream_t stream,
                                      cudaStreamCallback_t callback,
                                      void *userData, unsigned int flags) {
  if (!callback || flags != 0)
    return ret(cudaErrorInvalidValue);
  if (!rt().validStream(stream))
    return ret(cudaErrorInvalidResourceHandle);
  // The work before it is done: run it now, with the stream's status.
  callback(stream, rt().sticky(), userData);
  return cudaSuccess;
}

API cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
                                   void *userData) {
  if (!fn)
    return ret(cudaErrorInvalidValue);
  if (cudaError_t E = ready(stream))
    return ret(E);
  fn(userData);
  return cudaSuccess;
}

// --- events
// -------------------------------------------------------------------

API cudaError_t cudaEventCreate(cudaEvent_t *event) {
  if (!event)
    return ret(cudaErrorInvalidValue);
  *event = reinterpret_cast<cudaEvent_t>(rt().createEvent(0));
  return cudaSuccess;
}

API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
                                         unsigned int flags) {
  const unsigned Known =
      cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if (!event || (flags & ~Known) ||
      ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)))
    return ret(cudaErrorInvalidValue);
  *event = reinterpret_cast<cudaEvent_t>(rt().createEvent(flags));
  return cudaSuccess;
}

API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  Event *E = rt().event(event);
  if (!E || !rt().validStream(stream))
    return ret(cudaErrorInvalidResourceHandle);
  // Work before it on the stream has finished: its time is now.
  E->Time = std::chrono::steady_clock::now();
  E->Recorded = true;
  return cudaSuccess;
}

API cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                         unsigned int flags) {
  static_cast<void>(flags);
  return cudaEventRecord(event, stream);
}

API cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (!rt().event(event))
    return ret(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

API cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (!rt().event(event))
    return ret(cudaErrorInvalidResourceHandle);
  return ret(rt().sticky());
}

API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
                                     cudaEvent_t end) {
  if (!ms)
    return ret(cudaErrorInvalidValue);
  Event *A = rt().event(start), *B = rt().event(end);
  if (!A || !B || !A->Recorded || !B->Recorded ||
      ((A->Flags | B->Flags) & cudaEventDisableTiming))
    return ret(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(B->Time - A->Time).count();
  return cudaSuccess;
}

API cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (!rt().destroyEvent(event))
    return ret(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

// --- kernels
// --------------------------------------------------------------------

API unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                         size_t sharedMem, void *stream) {
  Runtime::callStack().push_back({gridDim, blockDim, sharedMem, stream});
  return 0;
}

API cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                           size_t *sharedMem, void *stream) {
  auto &Stack = Runtime::callStack();
  if (Stack.empty())
    return ret(cudaErrorMissingConfiguration);
  Runtime::CallConfig C = Stack.back();
  Stack.pop_back();
  *gridDim = C.Grid;
  *blockDim = C.Block;
  *sharedMem = C.Shared;
  *static_cast<void **>(stream) = C.Stream;
  return cudaSuccess;
}

API cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                 void **args, size_t sharedMem,
                                 cudaStream_t stream) {
  return ret(launchHost(func, gridDim, blockDim, args, sharedMem, stream));
}

API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                    const void *func, void **args) {
  if (!config)
    return ret(cudaErrorInvalidValue);
  for (unsigned I = 0; I < config->numAttrs; ++I) {
    const cudaLaunchAttribute &A = config->attrs[I];
    bool Unsupported =
        (A.id == cudaLaunchAttributeCooperative && A.val.cooperative) ||
        (A.id == cudaLaunchAttributeClusterDimension &&
         A.val.clusterDim.x * A.val.clusterDim.y * A.val.clusterDim.z > 1);
    if (Unsupported)
      return cudaError_t(Runtime::get().unsupported(
          A.id == cudaLaunchAttributeCooperative
              ? "cudaLaunchKernelExC with cudaLaunchAttributeCooperative"
              : "cudaLaunchKernelExC with a thread block cluster"));
  }
  return ret(launchHost(func, config->gridDim, config->blockDim, args,
                        config->dynamicSmemBytes, config->stream));
}

API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                      const void *func) {
  if (!attr)
    return ret(cudaErrorInvalidValue);
  Runtime &R = rt();
  Function *F = nullptr;
  if (cudaError_t E = R.hostFunction(func, F))
    return ret(E);
  fillFuncAttributes(*attr, *F, *R.device());
  return cudaSuccess;
}

API cudaError_t cudaFuncSetAttribute(const void *func,
                                     enum cudaFuncAttribute attr, int value) {
  Function *F = nullptr;
  if (cudaError_t E = rt().hostFunction(func, F))
    return ret(E);
  return ret(setFuncAttribute(*F, attr, value));
}

API cudaError_t cudaFuncSetCacheConfig(const void *func,
                                       enum cudaFuncCache cacheConfig) {
  static_cast<void>(cacheConfig);
  Function *F = nullptr;
  return ret(rt().hostFunction(func, F));
}

API cudaError_t cudaFuncGetName(const char **name, const void *func) {
  if (!name)
    return ret(cudaErrorInvalidValue);
  Function *F = nullptr;
  if (cudaError_t E = rt().hostFunction(func, F))
    return ret(E);
  *name = F->Name.c_str();
  return cudaSuccess;
}

API cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr,
                                    const void *symbolPtr) {
  if (!functionPtr)
    return ret(cudaErrorInvalidValue);
  Function *F = nullptr;
  if (cudaError_t E = rt().hostFunction(symbolPtr, F))
    return ret(E);
  *functionPtr = reinterpret_cast<cudaFunction_t>(F);
  return cudaSuccess;
}

API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
  if (!numBlocks || flags > cudaOccupancyDisableCachingOverride)
    return ret(cudaErrorInvalidValue);
  Runtime &R = rt();
  Function *F = nullptr;
  if (cudaError_t E = R.hostFunction(func, F))
    return ret(E);
  devices::Occupancy O = devices::computeOccupancy(
      *R.device(), F->resources(), blockSize, int64_t(dynamicSMemSize));
  *numBlocks = int(O.ActiveBlocks);
  return cudaSuccess;
}

API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, func, blockSize, dynamicSMemSize, cudaOccupancyDefault);
}

API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(
    size_t *dynamicSmemSize, const void *func, int numBlocks, int blockSize) {
  if (!dynamicSmemSize || numBlocks <= 0)
    return ret(cudaErrorInvalidValue);
  Runtime &R = rt();
  Function *F = nullptr;
  if (cudaError_t E = R.hostFunction(func, F))
    return ret(E);
  const devices::DeviceProfile &D = *R.device();
  // The largest dynamic size that still lets numBlocks blocks reside.
  int64_t Lo = 0, Hi = devices::maxDynamicSharedBytes(D, F->resources());
  if (devices::computeOccupancy(D, F->resources(), blockSize, 0).ActiveBlocks <
      numBlocks) {
    *dynamicSmemSize = 0;
    return cudaSuccess;
  }
  while (Lo < Hi) {
    int64_t Mid = Lo + (Hi - Lo + 1) / 2;
    if (devices::computeOccupancy(D, F->resources(), blockSize, Mid)
            .ActiveBlocks >= numBlocks)
      Lo = Mid;
    else
      Hi = Mid - 1;
  }
  *dynamicSmemSize = size_t(Lo);
  return cudaSuccess;
}

// --- registration from the host code the compiler generates
// -------------------

API void **__cudaRegisterFatBinary(void *fatCubin) {
  return Runtime::get().registerFatbin(fatCubin);
}

API void __cudaRegisterFatBinaryEnd(void **fatCubinHandle) {
  static_cast<void>(fatCubinHandle);
}

API void __cudaUnregisterFatBinary(void **fatCubinHandle) {
  // Modules stay loaded until the process ends: destructors of other
  // objects may still launch kernels or copy symbols.
  static_cast<void>(fatCubinHandle);
}

API void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
                                char *deviceFun, const char *deviceName,
                                int threadLimit, uint3 *tid, uint3 *bid,
                                dim3 *bDim, dim3 *gDim, int *wSize) {
  static_cast<void>(deviceFun);
  static_cast<void>(threadLimit);
  static_cast<void>(tid);
  static_cast<void>(bid);
  static_cast<void>(bDim);
  static_cast<void>(gDim);
  static_cast<void>(wSize);
  Runtime::get().registerFunction(fatCubinHandle, hostFun, deviceName);
}

API void __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
                           char *deviceAddress, const char *deviceName, int ext,
                           size_t size, int constant, int global) {
  static_cast<void>(deviceAddress);
  static_cast<void>(ext);
  static_cast<void>(global);
  Runtime::get().registerVar(fatCubinHandle, hostVar, deviceName, size,
                             constant != 0);
}

API void __cudaRegisterManagedVar(void **fatCubinHandle,
                                  void **hostVarPtrAddress, char *deviceAddress,
                                  const char *deviceName, int ext, size_t size,
                                  int constant, int global) {
  static_cast<void>(fatCubinHandle);
  static_cast<void>(hostVarPtrAddress);
  static_cast<void>(deviceAddress);
  static_cast<void>(deviceName);
  static_cast<void>(ext);
  static_cast<void>(size);
  static_cast<void>(constant);
  static_cast<void>(global);
  Runtime::get().unsupported("__managed__ variables");
}

// --- profiler control
// -------------------------------------------------------------

API cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
API cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

// --- klaraptor's additions (EmuCudart.h)
// -------------------------------------------

API int klaraptor_emu_set_launch_observer(klaraptor_emu_launch_observer fn,
                                          void *ctx) {
  return Runtime::get().setObserver(fn, ctx);
}

API int klaraptor_emu_sweep(const void *function, void *const *args,
                            uint64_t shared_bytes, const uint32_t *shapes,
                            uint32_t count, int flags,
                            klaraptor_emu_sweep_fn fn, void *ctx, char *error,
                            uint64_t error_size) {
  std::string Why;
  int Rc = -1;
  if (!fn || (count && !shapes))
    Why = "no callback or no shapes";
  else {
    Runtime &RT = Runtime::get();
    LaunchRequest R;
    R.F = RT.asFunction(function);
    R.Args = args;
    R.DynamicShared = size_t(shared_bytes);
    Rc = RT.sweep(R, shapes, count, flags, fn, ctx, Why);
  }
  if (Rc != 0 && error && error_size)
    std::snprintf(error, size_t(error_size), "%s", Why.c_str());
  return Rc;
}

API void klaraptor_emu_estimate_next_launch(void) {
  Runtime::estimateNextLaunch();
}

API int klaraptor_emu_last_launch_estimate(double *ns) {
  return ns && Runtime::lastLaunchEstimate(*ns) ? 0 : -1;
}

API const char *klaraptor_emu_device_profile(void) {
  const devices::DeviceProfile *D = Runtime::get().device();
  return D ? D->Id.c_str() : nullptr;
}

// --- per-thread default stream variants
// ------------------------------------------ Programs built with
// --default-stream per-thread call these names. Work is eager, so the
// per-thread default stream behaves as the legacy one.
#define PER_THREAD(Variant, Base)                                              \
  extern "C" __attribute__((alias(#Base),                                      \
                            visibility("default"))) decltype(Base) Variant;
PER_THREAD(cudaMemcpy_ptds, cudaMemcpy)
PER_THREAD(cudaMemcpyAsync_ptsz, cudaMemcpyAsync)
PER_THREAD(cudaMemcpy2D_ptds, cudaMemcpy2D)
PER_THREAD(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync)
PER_THREAD(cudaMemset_ptds, cudaMemset)
PER_THREAD(cudaMemsetAsync_ptsz, cudaMemsetAsync)
PER_THREAD(cudaMemset2D_ptds, cudaMemset2D)
PER_THREAD(cudaMemset2DAsync_ptsz, cudaMemset2DAsync)
PER_THREAD(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol)
PER_THREAD(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol)
PER_THREAD(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync)
PER_THREAD(cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync)
PER_THREAD(cudaStreamQuery_ptsz, cudaStreamQuery)
PER_THREAD(cudaStreamIsCapturing_ptsz, cudaStreamIsCapturing)
PER_THREAD(cudaStreamSynchronize_ptsz, cudaStreamSynchronize)
PER_THREAD(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent)
PER_THREAD(cudaStreamAddCallback_ptsz, cudaStreamAddCallback)
PER_THREAD(cudaStreamGetFlags_ptsz, cudaStreamGetFlags)
PER_THREAD(cudaStreamGetPriority_ptsz, cudaStreamGetPriority)
PER_THREAD(cudaEventRecord_ptsz, cudaEventRecord)
PER_THREAD(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags)
PER_THREAD(cudaLaunchKernel_ptsz, cudaLaunchKernel)
PER_THREAD(cudaLaunchKernelExC_ptsz, cudaLaunchKernelExC)
PER_THREAD(cudaLaunchHostFunc_ptsz, cudaLaunchHostFunc)
PER_THREAD(cudaMallocAsync_ptsz, cudaMallocAsync)
PER_THREAD(cudaFreeAsync_ptsz, cudaFreeAsync)
PER_THREAD(cudaMemPrefetchAsync_ptsz, cudaMemPrefetchAsync)
