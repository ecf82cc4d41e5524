// KlaraptorPlugin.so is one file for clang (-fplugin, -fpass-plugin) and opt
// (-load-pass-plugin). It needs no LLVM or Clang library of its own, and its
// Clang symbols are weak: opt, which cannot load libclang-cpp (both define
// the option -pgo-cold-func-opt), loads it and gets the pass only; clang gets
// the pragma handler as well.
//
// RUN: llvm-readelf --needed-libs %plugin | FileCheck %s --check-prefix=NEEDED
// NEEDED-NOT: libclang-cpp
// NEEDED-NOT: libLLVM
// RUN: llvm-nm -D --undefined-only %plugin | FileCheck %s --check-prefix=UNDEF
// UNDEF: w _ZN4llvm8RegistryIN5clang13PragmaHandlerEE8add_node
// UNDEF-NOT: {{^ *U .*5clang}}
//
// opt loads it and knows the pass.
// RUN: %opt -load-pass-plugin=%plugin -passes=klaraptor-io-builder \
// RUN:   -disable-output %S/io-builder-unchanged.ll
//
// In clang, a '#pragma klaraptor' becomes an annotation (the frontend half)
// that the pass turns into a registered, instrumented kernel.
// RUN: %host_cuda -O2 -fplugin=%plugin -fpass-plugin=%plugin -Rpass=klaraptor \
// RUN:   -S -emit-llvm %s -o - 2>&1 | FileCheck %s
// CHECK: remark: registered kernel 'saxpy' (device symbol '_Z5saxpyPfPKffi', 1 data parameter)
// CHECK: remark: instrumented launch of 'saxpy'
// CHECK: @__klaraptor.spec.saxpy = private unnamed_addr constant {{.*}}c"klaraptor v1\0Akernel saxpy\0A

#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
__global__ void saxpy(float *y, const float *x, float a, int n) {}

void run(float *y, const float *x, int n) {
  saxpy<<<(n + 255) / 256, 256>>>(y, x, 2.0f, n);
}
