// The pass through clang with -fpass-plugin, at -O0 and -O2 (and ThinLTO's
// pre-link pipeline): it runs once per module, before the inliner moves the
// stubs' launches into their callers, and the hooks survive optimisation.
//
// RUN: %host_cuda -O0 -fpass-plugin=%plugin -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %host_cuda -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s
// RUN: %host_cuda -O2 -flto=thin -fpass-plugin=%plugin -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s
// RUN: %host_cuda -O2 -fpass-plugin=%plugin -Xclang -fdebug-pass-manager -S \
// RUN:   -emit-llvm %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PM
// RUN: %host_cuda -O0 -fpass-plugin=%plugin -Xclang -fdebug-pass-manager -S \
// RUN:   -emit-llvm %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PM
// RUN: %host_cuda -O2 -fpass-plugin=%plugin -Rpass=klaraptor -S -emit-llvm \
// RUN:   %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

#define KLARAPTOR(spec) __attribute__((annotate(spec)))

__global__ void KLARAPTOR("klaraptor v1\nkernel saxpy\nloc io-builder-clang.cu:23:9\n"
                          "param 3 n i32\ndata N $3\nblock bx\n"
                          "grid ceildiv(N, bx)\ncandidates pow2\n")
saxpy(float *y, const float *x, float a, int n) {}

__global__ void KLARAPTOR("klaraptor v1\nkernel scale\nloc io-builder-clang.cu:28:9\n"
                          "param 1 rows i32\nparam 2 cols i32\n"
                          "data R $1\ndata C $2\nblock bx by\n"
                          "grid ceildiv(C, bx)\ngrid ceildiv(R, by)\n"
                          "candidates pow2\n")
scale(float *m, int rows, int cols) {}

__global__ void plain(int *p) {}

void run(float *y, const float *x, int n, int *p) {
  for (int i = 0; i < 3; ++i)
    saxpy<<<(n + 255) / 256, 256>>>(y, x, 2.0f, n);
  scale<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(y, n, n);
  plain<<<1, 1>>>(p);
}

// One descriptor and one registration per annotated kernel.
// CHECK-DAG: @__klaraptor.desc.saxpy = internal constant
// CHECK-DAG: @__klaraptor.desc.scale = internal constant
// CHECK-NOT: @__klaraptor.desc.plain
// CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @klaraptor.register, ptr null }]

// Each annotated stub calls its hook before cudaLaunchKernel (at -O2 the
// stubs may also be inlined into run(), the hooks with them); the plain
// kernel's launch is left alone.
// CHECK-LABEL: define {{.*}} @_Z20__device_stub__saxpyPfPKffi(
// CHECK: call i32 @__klaraptor_rt_launch(ptr {{(nonnull )?}}@__klaraptor.desc.saxpy,
// CHECK: call noundef i32 @cudaLaunchKernel(ptr noundef {{(nonnull )?}}@_Z20__device_stub__saxpyPfPKffi, {{.*}}, !klaraptor.instrumented
// CHECK-LABEL: define {{.*}} @_Z20__device_stub__scalePfii(
// CHECK: call i32 @__klaraptor_rt_launch(ptr {{(nonnull )?}}@__klaraptor.desc.scale,
// CHECK: call noundef i32 @cudaLaunchKernel(ptr noundef {{(nonnull )?}}@_Z20__device_stub__scalePfii, {{.*}}, !klaraptor.instrumented
// CHECK-LABEL: define {{.*}} @_Z20__device_stub__plainPi(
// CHECK-NOT: klaraptor
// CHECK: call noundef i32 @cudaLaunchKernel(ptr noundef {{(nonnull )?}}@_Z20__device_stub__plainPi, {{.*}}){{$}}
// At -O0 run() only calls the stubs.
// O0-LABEL: define {{.*}} @_Z3runPfPKfiPi(
// O0-NOT: klaraptor
// O0: call void @_Z20__device_stub__saxpyPfPKffi(
// O0-NOT: klaraptor
// O0: call void @_Z20__device_stub__scalePfii(
// O0-NOT: klaraptor
// O0: call void @_Z20__device_stub__plainPi(
// The data functions stay: the descriptors point to them.
// CHECK: define internal {{.*}}i32 @__klaraptor_data.saxpy(
// CHECK: define internal {{.*}}i32 @__klaraptor_data.scale(

// CHECK-LABEL: define internal void @klaraptor.register()
// CHECK-DAG: call i32 @__klaraptor_rt_register_kernel(ptr {{(nonnull )?}}@__klaraptor.desc.saxpy)
// CHECK-DAG: call i32 @__klaraptor_rt_register_kernel(ptr {{(nonnull )?}}@__klaraptor.desc.scale)
// CHECK: ret void
// CHECK-NOT: call i32 @__klaraptor_rt_register_kernel(

// PM: Running pass: klaraptor::IOBuilderPass on [module]
// PM-NOT: klaraptor::IOBuilderPass

// REMARK-DAG: io-builder-clang.cu:{{[0-9]+}}:{{[0-9]+}}: remark: registered kernel 'saxpy' (device symbol '_Z5saxpyPfPKffi', 1 data parameter) [-Rpass=klaraptor-io-builder]
// REMARK-DAG: io-builder-clang.cu:{{[0-9]+}}:{{[0-9]+}}: remark: registered kernel 'scale' (device symbol '_Z5scalePfii', 2 data parameters) [-Rpass=klaraptor-io-builder]
// REMARK-DAG: io-builder-clang.cu:{{[0-9]+}}:{{[0-9]+}}: remark: instrumented launch of 'saxpy' [-Rpass=klaraptor-io-builder]
// REMARK-DAG: io-builder-clang.cu:{{[0-9]+}}:{{[0-9]+}}: remark: instrumented launch of 'scale' [-Rpass=klaraptor-io-builder]
