/*===- klaraptor_host_defines.h - what clang's CUDA host compile lacks ----===*
 *
 * klaraptor-clang++ -include's this header in the host compile of a .cu
 * file, after clang's CUDA wrapper header (which includes CUDA's
 * host_defines.h).
 *
 * __managed__: CUDA's host_defines.h spells it __attribute__((managed)),
 * which clang accepts for HIP only and ignores for CUDA with a warning: the
 * host would then read and write a variable of its own while the kernels use
 * the device's, and the program would compute wrong results without an
 * error. Here the attribute becomes an annotation that the klaraptor plugin
 * reports as an error at the variable (docs/cli.md, "Limitations").
 *===----------------------------------------------------------------------===*/
#ifndef KLARAPTOR_HOST_DEFINES_H
#define KLARAPTOR_HOST_DEFINES_H

#undef __managed__
#define __managed__ __attribute__((annotate("klaraptor.managed")))

#endif /* KLARAPTOR_HOST_DEFINES_H */
