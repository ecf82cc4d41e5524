//===- Unsupported.cpp - CUDA calls outside the emulated subset -----------===//
///
/// \file
/// Every other function of CUDA 13's libcudart (UnsupportedRuntime.def) and
/// libcuda (UnsupportedDriver.def) exists in libklaraptor_emu_cudart, so
/// that a program using one links and runs until it calls it; the call then
/// says once on stderr "klaraptor emulator: 'cudaGraphLaunch' is not
/// supported" and fails with cudaErrorNotSupported / CUDA_ERROR_NOT_SUPPORTED
/// (both 801).
///
/// This file includes no CUDA header, so each function is defined without
/// its parameters: on x86-64 (System V) a callee that ignores its arguments
/// and returns an int is compatible with any caller of a function that
/// returns cudaError_t or CUresult (both int-sized enums).
//===----------------------------------------------------------------------===//

namespace klaraptor::emurt {
/// In EmuRuntime.cpp: reports \p Call once and returns 801.
int reportUnsupported(const char *Call, bool Driver);
} // namespace klaraptor::emurt

#define UNSUPPORTED_RUNTIME(Name)                                              \
  extern "C" int Name(void) {                                                  \
    return klaraptor::emurt::reportUnsupported(#Name, /*Driver=*/false);       \
  }
#include "UnsupportedRuntime.def"

#define UNSUPPORTED_DRIVER(Name)                                               \
  extern "C" int Name(void) {                                                  \
    return klaraptor::emurt::reportUnsupported(#Name, /*Driver=*/true);        \
  }
#include "UnsupportedDriver.def"
