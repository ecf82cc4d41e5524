/*===- EmuCudart.h - what libklaraptor_emu_cudart adds to the CUDA API ----===*
 *
 * \file
 * libklaraptor_emu_cudart.so replaces libcudart (and the libcuda subset that
 * programs use) with a runtime that executes kernels in klaraptor's CPU PTX
 * emulator. Besides the CUDA API it exports the functions below; the
 * profiler's emu backend finds them with dlsym. Plain C.
 *===----------------------------------------------------------------------===*/
#ifndef KLARAPTOR_EMU_CUDART_H
#define KLARAPTOR_EMU_CUDART_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Called after every kernel launch the emulator executed, on the thread
 * that launched it, with a `const klaraptor::profiler::LaunchRecord *`
 * (profiler/Backend.h; both sides are built from the same sources). */
typedef void (*klaraptor_emu_launch_observer)(void *ctx, const void *record);

/** Installs \p fn (with \p ctx) as the launch observer; fn == NULL removes
 * it. Returns 0, or 1 when another observer is installed. */
int klaraptor_emu_set_launch_observer(klaraptor_emu_launch_observer fn,
                                      void *ctx);

/** The id of the emulated device's profile ("h100-sxm"), or NULL when the
 * profile named by KLARAPTOR_EMU_DEVICE could not be loaded. */
const char *klaraptor_emu_device_profile(void);

/** Asks for the time estimate of this thread's next kernel launch (one
 * SM's wave of blocks, traced, as profiling estimates; docs/timing.md):
 * the runtime's online refinement times its trials with it on the emulator
 * (docs/runtime-abi.md, "Online refinement"). */
void klaraptor_emu_estimate_next_launch(void);

/** The estimate, in ns, of this thread's last launch made after
 * klaraptor_emu_estimate_next_launch: returns 0 and sets *ns, or -1 when
 * there is none (no request, the launch failed or did not run, no timing
 * parameters for the device). Each request answers once. */
int klaraptor_emu_last_launch_estimate(double *ns);

/** klaraptor_emu_sweep flag: only the time estimate (one SM's wave of
 * blocks, traced), no metrics; the records carry no counts. Without it each
 * shape runs the whole grid with metrics and the estimate. */
#define KLARAPTOR_EMU_SWEEP_ESTIMATE_ONLY 1
/** klaraptor_emu_sweep flag: `shapes` holds septuples, each sextuple
 * followed by the shape's dynamic shared memory in bytes (the pragma's
 * shared(...)); `shared_bytes` is then not used. */
#define KLARAPTOR_EMU_SWEEP_SHARED_PER_SHAPE 2

/** Called once per shape of a sweep: `record` is the shape's
 * `const klaraptor::profiler::LaunchRecord *`, or NULL when the shape failed;
 * `message` is NULL, or why the shape failed (record NULL) or why it has no
 * estimate (record given). */
typedef void (*klaraptor_emu_sweep_fn)(void *ctx, uint32_t index,
                                       const void *record,
                                       const char *message);

/** Runs the kernel `function` (a host stub or a CUfunction) once per shape:
 * `shapes` holds `count` sextuples grid x,y,z, block x,y,z (septuples with
 * KLARAPTOR_EMU_SWEEP_SHARED_PER_SHAPE). Each runs on the
 * memory the program has now, which is restored after each shape and is
 * unchanged when the sweep returns. `args` and `shared_bytes` as for
 * cudaLaunchKernel. Returns 0 (failures of single shapes go to `fn`), or -1
 * with a message in `error` (capacity `error_size`) when nothing could run
 * (also for flags it does not know). */
int klaraptor_emu_sweep(const void *function, void *const *args,
                        uint64_t shared_bytes, const uint32_t *shapes,
                        uint32_t count, int flags, klaraptor_emu_sweep_fn fn,
                        void *ctx, char *error, uint64_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* KLARAPTOR_EMU_CUDART_H */
