//===- CudaApi.h - the CUDA functions the runtime calls, found at run time -===//
///
/// \file
/// The runtime does not link libcudart or libcuda: it looks the functions it
/// needs up with dlsym(RTLD_DEFAULT, ...) the first time it needs them, so
/// the same library works with the real CUDA runtime, with a stand-in that
/// defines the same symbols, and in a process without CUDA (every pointer
/// stays null and launches keep their configuration). docs/runtime-abi.md
/// lists the symbol names.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_CUDAAPI_H
#define KLARAPTOR_RUNTIME_CUDAAPI_H

#include <string>

namespace klaraptor {

/// Entry points of the CUDA runtime (cuda*) and driver (cu*) APIs. Error
/// codes are returned as int (cudaError_t / CUresult, 0 is success);
/// structures are passed as untyped buffers the caller sizes generously.
struct CudaApi {
  // CUDA runtime API.
  int (*GetDevice)(int *Device) = nullptr;
  int (*GetDeviceProperties)(void *Prop, int Device) = nullptr;
  int (*DeviceGetAttribute)(int *Value, int Attr, int Device) = nullptr;
  int (*FuncGetAttributes)(void *Attr, const void *Func) = nullptr;
  int (*RuntimeGetVersion)(int *Version) = nullptr;
  const char *(*GetErrorString)(int Error) = nullptr;
  int (*GetLastError)() = nullptr;
  int (*PeekAtLastError)() = nullptr;
  /// Events, to time the launches of the online refinement.
  int (*EventCreateWithFlags)(void **Event, unsigned Flags) = nullptr;
  int (*EventRecord)(void *Event, void *Stream) = nullptr;
  int (*EventSynchronize)(void *Event) = nullptr;
  int (*EventElapsedTime)(float *Ms, void *Start, void *End) = nullptr;
  int (*EventDestroy)(void *Event) = nullptr;
  /// Stream capture (CUDA graphs): whether a stream is being captured
  /// (cudaStreamCaptureStatus in *Status, 0: not), and the calling thread's
  /// capture interaction mode (cudaStreamCaptureMode: 0 global, 1 thread
  /// local, 2 relaxed), swapped with *Mode.
  int (*StreamIsCapturing)(void *Stream, int *Status) = nullptr;
  int (*ThreadExchangeStreamCaptureMode)(int *Mode) = nullptr;
  /// The emulator's (profiler/emu/cudart, EmuCudart.h): present, the
  /// refinement times a launch by its estimate instead of events.
  void (*EmuEstimateNextLaunch)() = nullptr;
  int (*EmuLastLaunchEstimate)(double *Ns) = nullptr;
  // CUDA driver API.
  int (*CtxGetDevice)(int *Device) = nullptr;
  int (*DrvDeviceGetAttribute)(int *Value, int Attr, int Device) = nullptr;
  int (*DrvDeviceGetName)(char *Name, int Len, int Device) = nullptr;
  int (*FuncGetName)(const char **Name, void *Func) = nullptr;
  int (*FuncGetAttribute)(int *Value, int Attr, void *Func) = nullptr;
  int (*DrvGetErrorString)(int Error, const char **Str) = nullptr;
  /// cuCtxGetCurrent: with CtxGetDevice, the current device as two
  /// thread-local reads (DeviceQuery::currentDevice).
  int (*CtxGetCurrent)(void **Ctx) = nullptr;
  /// True for the process's table: the driver functions may be found later
  /// in libcuda.so.1, which the CUDA runtime loads into a scope of its own
  /// (DeviceQuery asks for them once it is loaded). Tests' tables are final.
  bool DriverLoadsLater = false;

  /// The symbol GetDeviceProperties was found under, or empty.
  std::string DevicePropertiesSymbol;

  /// Looks every function up in the process's global scope.
  static CudaApi resolve();
  /// The process-wide table, resolved once on first call.
  static const CudaApi &process();
  /// A table with nothing in it (tests: a process without CUDA).
  static const CudaApi &none();

  bool hasRuntime() const { return GetDevice != nullptr; }
  /// The emulator's launch estimates (it times refinement trials).
  bool hasEmulatorEstimates() const {
    return EmuEstimateNextLaunch && EmuLastLaunchEstimate;
  }
  /// CUDA events, to time refinement trials on a GPU.
  bool hasEvents() const {
    return EventCreateWithFlags && EventRecord && EventSynchronize &&
           EventElapsedTime && EventDestroy;
  }
  bool hasDriver() const { return CtxGetDevice != nullptr; }

  /// "cudaErrorX (message)" / "CUDA_ERROR_X" style text for an error code.
  std::string runtimeError(int Error) const;
  std::string driverError(int Error) const;
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_CUDAAPI_H
