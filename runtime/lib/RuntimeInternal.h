/*===- RuntimeInternal.h - test hooks of libklaraptor_rt -------------------===*
 *
 * \file
 * Entry points for tests and benchmarks only: not part of the ABI programs
 * rely on, and free to change. They act on the process's runtime (the one
 * the klaraptor_rt.h functions use).
 *===------------------------------------------------------------------------===*/
#ifndef KLARAPTOR_RUNTIME_RUNTIMEINTERNAL_H
#define KLARAPTOR_RUNTIME_RUNTIMEINTERNAL_H

#include "klaraptor/klaraptor_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Makes every launch see the device `info` instead of asking CUDA, and
 * forgets every decision; NULL returns to asking CUDA. Returns
 * KLARAPTOR_ERR_BAD_ARGUMENT for implausible limits.
 */
klaraptor_status
klaraptor_rt_internal_set_device_limits(const klaraptor_device_info *info);

/** The number of decisions the runtime has made (memoised launches excluded). */
uint64_t klaraptor_rt_internal_decision_count(void);

#ifdef __cplusplus
}
#endif

#endif /* KLARAPTOR_RUNTIME_RUNTIMEINTERNAL_H */
