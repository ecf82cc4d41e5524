/*===- klaraptor_profile.h - the runtime's profiler plug-in ABI ----------===*
 *
 * \file
 * libklaraptor_rt does not measure anything itself. With KLARAPTOR_MODE=
 * profile (and in tune mode with KLARAPTOR_BENCH set) it loads the profiler
 * plug-in, libklaraptor_profile.so (found next to libklaraptor_rt.so, or
 * named by KLARAPTOR_PROFILE_LIB), and hands it each annotated launch with
 * its admissible candidates. The plug-in runs the sweep under a profiler
 * backend and records it (docs/profile-db.md); libklaraptor_rt links no
 * SQLite and no profiler. docs/runtime-abi.md, "Profiler plug-in".
 *===----------------------------------------------------------------------===*/
#ifndef KLARAPTOR_PROFILE_H
#define KLARAPTOR_PROFILE_H

#include "klaraptor/klaraptor_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One annotated launch, as the runtime hands it to the plug-in. */
typedef struct klaraptor_profile_launch {
  uint32_t size;                  /**< sizeof(klaraptor_profile_launch) */
  uint32_t abi_version;           /**< KLARAPTOR_RT_ABI_VERSION */
  const char *kernel;             /**< device (mangled) name */
  const char *source_name;        /**< name in the source, may be "" */
  const char *spec;               /**< encoded pragma, docs/spec-format.md */
  const void *host_handle;        /**< host stub, or NULL */
  void *cu_function;              /**< CUfunction of a driver-API launch, or NULL */
  uint32_t num_data;
  const char *const *data_names;  /**< the data parameters' names */
  const int64_t *data;            /**< their values for this launch */
  uint32_t grid[3];               /**< requested */
  uint32_t block[3];              /**< requested */
  uint64_t shared_mem;            /**< dynamic shared memory, bytes */
  void *stream;
  void *const *args;              /**< the kernel's argument array */
  uint32_t num_candidates;
  const klaraptor_candidate *candidates; /**< admissible, enumeration order */
  const klaraptor_device_info *device;
  /** Per candidate, its dynamic shared memory in bytes (the pragma's
   *  shared(...); every entry is shared_mem without the clause). Added after
   *  the first release: read it only when size covers it. */
  const uint64_t *candidate_shared_mem;
} klaraptor_profile_launch;

/** A model decision, for KLARAPTOR_BENCH. */
typedef struct klaraptor_profile_decision {
  uint32_t size;                  /**< sizeof(klaraptor_profile_decision) */
  int32_t tuned;                  /**< 1: `chosen` replaced the request */
  klaraptor_candidate chosen;     /**< the launch made */
  double predicted;               /**< the model's prediction for it */
  double decision_ns;             /**< time the runtime took to decide (the
                                       one-time device and kernel queries of
                                       a process's first launch excluded) */
  const char *source;             /**< "model", "cache", "fallback" */
  const char *model;              /**< the model's name, or "" */
} klaraptor_profile_decision;

/** KLARAPTOR_MODE=profile: sweep the candidates of `launch` and record them.
 *  Called before the program's own launch, which then runs as requested;
 *  the plug-in leaves the program's device memory as it found it. Returns 0,
 *  or -1 after printing why. */
typedef int (*klaraptor_profile_launch_fn)(const klaraptor_profile_launch *launch);
/** Name of that entry point in the plug-in. */
#define KLARAPTOR_PROFILE_LAUNCH_SYMBOL "klaraptor_profile_on_launch"

/** KLARAPTOR_BENCH: a new decision was made for `launch`; the plug-in
 *  estimates every candidate and appends one record to the bench file.
 *  Returns 0, or -1 after printing why. */
typedef int (*klaraptor_profile_decision_fn)(
    const klaraptor_profile_launch *launch,
    const klaraptor_profile_decision *decision);
#define KLARAPTOR_PROFILE_DECISION_SYMBOL "klaraptor_profile_on_decision"

#ifdef __cplusplus
}
#endif

#endif /* KLARAPTOR_PROFILE_H */
