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

#ifdef __cplusplus
}
#endif

#endif /* KLARAPTOR_EMU_CUDART_H */
