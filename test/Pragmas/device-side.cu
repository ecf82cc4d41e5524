// Only the host side of a CUDA compile checks pragmas, so that a compile of
// both sides reports every error once and the device side reports nothing.
// RUN: %clangxx -x cuda --cuda-device-only --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -nocudalib -Wno-unknown-cuda-version -Wunknown-pragmas \
// RUN:   -isystem %obj_root/lib/klaraptor/cuda-shim -fplugin=%plugin -fsyntax-only %s 2>&1 \
// RUN:   | count 0
// RUN: not %clangxx -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -nocudalib \
// RUN:   -Wno-unknown-cuda-version -isystem %obj_root/lib/klaraptor/cuda-shim \
// RUN:   -fplugin=%plugin -fsyntax-only -fno-caret-diagnostics %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// The host side alone reports the same errors, so the silence of the device
// side is its own doing, not a file without errors.
// RUN: not %host_cuda -fplugin=%plugin -fsyntax-only %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:

// CHECK-DAG: device-side.cu:[[#@LINE+1]]:49: error: unknown clause 'junk' in '#pragma klaraptor'
#pragma klaraptor data(N = n) block(bx) grid(N) junk
__global__ void k1(int n) {}

// CHECK-DAG: device-side.cu:[[#@LINE+1]]:28: error: unknown kernel parameter 'm' in 'data(...)'
#pragma klaraptor data(N = m) block(bx) grid(N)
__global__ void k2(int n) {}

// CHECK-DAG: device-side.cu:[[#@LINE+1]]:9: error: '#pragma klaraptor' must be followed by a '__global__' function
#pragma klaraptor data(N = n) block(bx) grid(N)
__device__ int helper(int n) { return n; }
