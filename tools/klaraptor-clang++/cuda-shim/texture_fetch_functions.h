/* klaraptor-clang++'s stand-in for CUDA's texture_fetch_functions.h, which
 * CUDA 13 removed and clang 19's CUDA wrapper still includes. It is on the
 * include path of the host compile only (nvcc compiles the device code).
 *
 * It also declares CUDA's surface functions (surface_indirect_functions.h),
 * which clang's wrapper does not include: the host compile parses kernels
 * but emits no device code, so declarations are all it needs for a kernel
 * that calls surf2Dwrite. Same signatures as CUDA 13's header. */
#ifndef KLARAPTOR_CUDA_SHIM_TEXTURE_FETCH_FUNCTIONS_H
#define KLARAPTOR_CUDA_SHIM_TEXTURE_FETCH_FUNCTIONS_H

#if defined(__cplusplus) && defined(__CUDA__)
#define KLARAPTOR_SURF_MODE cudaSurfaceBoundaryMode = cudaBoundaryModeTrap
#define KLARAPTOR_SURF_READ(Name, ...)                                        \
  template <class T>                                                          \
  __device__ void Name(T *, cudaSurfaceObject_t, __VA_ARGS__,                 \
                       KLARAPTOR_SURF_MODE);                                  \
  template <class T>                                                          \
  __device__ T Name(cudaSurfaceObject_t, __VA_ARGS__, KLARAPTOR_SURF_MODE);
#define KLARAPTOR_SURF_WRITE(Name, ...)                                       \
  template <class T>                                                          \
  __device__ void Name(T, cudaSurfaceObject_t, __VA_ARGS__,                   \
                       KLARAPTOR_SURF_MODE);

KLARAPTOR_SURF_READ(surf1Dread, int)
KLARAPTOR_SURF_READ(surf2Dread, int, int)
KLARAPTOR_SURF_READ(surf3Dread, int, int, int)
KLARAPTOR_SURF_READ(surf1DLayeredread, int, int)
KLARAPTOR_SURF_READ(surf2DLayeredread, int, int, int)
KLARAPTOR_SURF_READ(surfCubemapread, int, int, int)
KLARAPTOR_SURF_READ(surfCubemapLayeredread, int, int, int)
KLARAPTOR_SURF_WRITE(surf1Dwrite, int)
KLARAPTOR_SURF_WRITE(surf2Dwrite, int, int)
KLARAPTOR_SURF_WRITE(surf3Dwrite, int, int, int)
KLARAPTOR_SURF_WRITE(surf1DLayeredwrite, int, int)
KLARAPTOR_SURF_WRITE(surf2DLayeredwrite, int, int, int)
KLARAPTOR_SURF_WRITE(surfCubemapwrite, int, int, int)
KLARAPTOR_SURF_WRITE(surfCubemapLayeredwrite, int, int, int)

#undef KLARAPTOR_SURF_READ
#undef KLARAPTOR_SURF_WRITE
#undef KLARAPTOR_SURF_MODE

/* CUDA headers whose functions clang's wrapper defines itself, or declares
 * above: their include guards, as the wrapper does for the ones it replaces,
 * so that a program including one directly compiles as with nvcc instead of
 * meeting redefinitions (scripts/cuda-headers.py found these). */
#define __SURFACE_INDIRECT_FUNCTIONS_H__
#define __SM_20_ATOMIC_FUNCTIONS_H__
#define __SM_20_INTRINSICS_H__
#define __SM_32_ATOMIC_FUNCTIONS_H__
#define __SM_35_ATOMIC_FUNCTIONS_H__
#define __SM_60_ATOMIC_FUNCTIONS_H__
#define __SM_61_INTRINSICS_H__
#endif

#endif
