//===- CudaApi.cpp - the CUDA functions the runtime calls, found at run time ===//
///
/// \file
/// CUDA 13's libcudart exports cudaGetDeviceProperties with the CUDA 13
/// cudaDeviceProp layout; CUDA 12 exported the same layout as
/// cudaGetDeviceProperties_v2 and kept an older layout under the plain name.
/// DeviceQuery decides which layout it may trust from cudaRuntimeGetVersion.
//===----------------------------------------------------------------------===//
#include "CudaApi.h"

#include <dlfcn.h>

namespace klaraptor {

template <typename Fn> static void lookUp(Fn &Slot, const char *Name) {
  Slot = reinterpret_cast<Fn>(::dlsym(RTLD_DEFAULT, Name));
}

CudaApi CudaApi::resolve() {
  CudaApi A;
  lookUp(A.GetDevice, "cudaGetDevice");
  lookUp(A.GetDeviceProperties, "cudaGetDeviceProperties");
  A.DevicePropertiesSymbol = "cudaGetDeviceProperties";
  if (!A.GetDeviceProperties) {
    lookUp(A.GetDeviceProperties, "cudaGetDeviceProperties_v2");
    A.DevicePropertiesSymbol = "cudaGetDeviceProperties_v2";
  }
  if (!A.GetDeviceProperties)
    A.DevicePropertiesSymbol.clear();
  lookUp(A.DeviceGetAttribute, "cudaDeviceGetAttribute");
  lookUp(A.FuncGetAttributes, "cudaFuncGetAttributes");
  lookUp(A.RuntimeGetVersion, "cudaRuntimeGetVersion");
  lookUp(A.GetErrorString, "cudaGetErrorString");
  lookUp(A.GetLastError, "cudaGetLastError");
  lookUp(A.PeekAtLastError, "cudaPeekAtLastError");
  lookUp(A.EventCreateWithFlags, "cudaEventCreateWithFlags");
  lookUp(A.EventRecord, "cudaEventRecord");
  lookUp(A.EventSynchronize, "cudaEventSynchronize");
  lookUp(A.EventElapsedTime, "cudaEventElapsedTime");
  lookUp(A.EventDestroy, "cudaEventDestroy");
  lookUp(A.StreamIsCapturing, "cudaStreamIsCapturing");
  lookUp(A.ThreadExchangeStreamCaptureMode,
         "cudaThreadExchangeStreamCaptureMode");
  lookUp(A.EmuEstimateNextLaunch, "klaraptor_emu_estimate_next_launch");
  lookUp(A.EmuLastLaunchEstimate, "klaraptor_emu_last_launch_estimate");
  lookUp(A.CtxGetDevice, "cuCtxGetDevice");
  lookUp(A.DrvDeviceGetAttribute, "cuDeviceGetAttribute");
  lookUp(A.DrvDeviceGetName, "cuDeviceGetName");
  lookUp(A.FuncGetName, "cuFuncGetName");
  lookUp(A.FuncGetAttribute, "cuFuncGetAttribute");
  lookUp(A.DrvGetErrorString, "cuGetErrorString");
  lookUp(A.CtxGetCurrent, "cuCtxGetCurrent");
  A.DriverLoadsLater = true;
  return A;
}

const CudaApi &CudaApi::process() {
  // Never destroyed: hooks may run from other threads during exit.
  static const CudaApi *Api = new CudaApi(resolve());
  return *Api;
}

const CudaApi &CudaApi::none() {
  static const CudaApi *Api = new CudaApi();
  return *Api;
}

std::string CudaApi::runtimeError(int Error) const {
  std::string S = "error " + std::to_string(Error);
  if (GetErrorString)
    if (const char *M = GetErrorString(Error))
      S += std::string(" (") + M + ")";
  return S;
}

std::string CudaApi::driverError(int Error) const {
  std::string S = "error " + std::to_string(Error);
  const char *M = nullptr;
  if (DrvGetErrorString && DrvGetErrorString(Error, &M) == 0 && M)
    S += std::string(" (") + M + ")";
  return S;
}

} // namespace klaraptor
