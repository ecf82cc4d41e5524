//===- RuntimeAPI.cpp - the C entry points of libklaraptor_rt -------------===//
///
/// \file
/// Each function forwards to Runtime::global() and catches everything: no
/// exception (std::bad_alloc included) crosses the C ABI, and a failure
/// keeps the launch the program asked for. These are the only symbols the
/// shared library exports (the rest is built with hidden visibility and
/// runtime/klaraptor_rt.map lists the exports).
//===----------------------------------------------------------------------===//

// Give the C API default visibility although the library is built with
// -fvisibility=hidden.
#pragma GCC visibility push(default)
#include "RuntimeInternal.h"
#include "klaraptor/klaraptor_rt.h"
#pragma GCC visibility pop

#include "Runtime.h"

#include <cstring>
#include <vector>

using klaraptor::Runtime;

#ifndef KLARAPTOR_RT_VERSION
#define KLARAPTOR_RT_VERSION "0.0.0"
#endif
#define KLARAPTOR_STR2(X) #X
#define KLARAPTOR_STR(X) KLARAPTOR_STR2(X)

namespace {
/// The admissible candidates of \p kernel for \p args: the first
/// \p capacity go to \p Put(index, candidate), the total to *count.
template <typename PutFn>
klaraptor_status writeCandidates(const char *kernel, void *const *args,
                                 bool HaveOut, uint32_t capacity,
                                 uint32_t *count, PutFn Put) {
  try {
    if (!count || (capacity && !HaveOut))
      return KLARAPTOR_ERR_BAD_ARGUMENT;
    std::vector<klaraptor::Candidate> Cands;
    klaraptor_status S = Runtime::global().candidates(kernel, args, Cands);
    *count = 0;
    if (S != KLARAPTOR_OK)
      return S;
    for (size_t I = 0; I < Cands.size() && I < capacity; ++I)
      Put(I, Cands[I]);
    *count = uint32_t(Cands.size());
    return KLARAPTOR_OK;
  } catch (...) {
    return KLARAPTOR_ERR_BAD_ARGUMENT;
  }
}
} // namespace

extern "C" {

klaraptor_status __klaraptor_rt_register_kernel(const klaraptor_kernel_desc *k) {
  try {
    return Runtime::global().registerKernel(k);
  } catch (...) {
    return KLARAPTOR_ERR_BAD_ARGUMENT;
  }
}

klaraptor_status __klaraptor_rt_launch(const klaraptor_kernel_desc *k,
                                       klaraptor_launch_info *info) {
  try {
    return Runtime::global().launch(k, info);
  } catch (...) {
    return KLARAPTOR_UNCHANGED;
  }
}

klaraptor_status __klaraptor_rt_launch_handle(const void *handle,
                                              klaraptor_launch_info *info) {
  try {
    return Runtime::global().launchHandle(handle, info);
  } catch (...) {
    return KLARAPTOR_UNCHANGED;
  }
}

klaraptor_status __klaraptor_rt_launch_cufunction(void *function,
                                                  klaraptor_launch_info *info) {
  try {
    return Runtime::global().launchCuFunction(function, info);
  } catch (...) {
    return KLARAPTOR_UNCHANGED;
  }
}

void __klaraptor_rt_launched(klaraptor_launch_info *info, int status) {
  try {
    Runtime::global().launched(info, status);
  } catch (...) {
  }
}

klaraptor_status klaraptor_register_model(const char *kernel,
                                          const klaraptor_model *model) {
  try {
    return Runtime::global().registerModel(kernel, model);
  } catch (...) {
    return KLARAPTOR_ERR_BAD_ARGUMENT;
  }
}

void klaraptor_clear_history(void) {
  try {
    Runtime::global().clearHistory();
  } catch (...) {
  }
}


klaraptor_status klaraptor_candidates(const char *kernel, void *const *args,
                                      klaraptor_candidate *out,
                                      uint32_t capacity, uint32_t *count) {
  return writeCandidates(
      kernel, args, out != nullptr, capacity, count,
      [&](size_t I, const klaraptor::Candidate &C) {
        std::memset(&out[I], 0, sizeof(out[I]));
        out[I].size = sizeof(out[I]);
        for (int D = 0; D < 3; ++D) {
          out[I].block[D] = C.Block[D];
          out[I].grid[D] = C.Grid[D];
        }
      });
}

klaraptor_status klaraptor_candidates_shared_mem(const char *kernel,
                                                 void *const *args,
                                                 uint64_t *out,
                                                 uint32_t capacity,
                                                 uint32_t *count) {
  return writeCandidates(kernel, args, out != nullptr, capacity, count,
                         [&](size_t I, const klaraptor::Candidate &C) {
                           out[I] = C.Shared;
                         });
}

const char *klaraptor_version(void) {
  return "klaraptor-rt " KLARAPTOR_RT_VERSION " (abi " KLARAPTOR_STR(
      KLARAPTOR_RT_ABI_VERSION) ")";
}

klaraptor_status
klaraptor_rt_internal_set_device_limits(const klaraptor_device_info *info) {
  try {
    return Runtime::global().setDeviceOverride(info);
  } catch (...) {
    return KLARAPTOR_ERR_BAD_ARGUMENT;
  }
}

uint64_t klaraptor_rt_internal_decision_count(void) {
  try {
    return Runtime::global().decisionCount();
  } catch (...) {
    return 0;
  }
}

} // extern "C"
