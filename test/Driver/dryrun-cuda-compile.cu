// A .cu file compiled to an object: nvcc builds an uncompressed fatbin with
// SASS and PTX for the default sm_90 (allowing what clang's CUDA allows:
// __device__ lambdas, constexpr host functions in device code), then
// clang++ 19 compiles the host side (after clang's CUDA wrapper, klaraptor's
// host defines: __managed__ marked for the plugin to report)
// with the plugin (both roles) and embeds the fatbin. Nothing is linked.
//
// RUN: %klaraptor-clangxx --klaraptor-dryrun -c %s -o %t.o \
// RUN:   | FileCheck %s -DNVCC=%nvcc -DCLANGXX=%clangxx -DLIB=%klaraptor_lib \
// RUN:       -DCUDA=%cuda_path -DRTINC=%rt_include -DSRC=%s -DOBJ=%t.o
//
// CHECK: {{^}}[[NVCC]] -fatbin --no-compress -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 -I[[RTINC]] --extended-lambda --expt-relaxed-constexpr [[SRC]] -o [[TMP:[^ ]+]]/dryrun-cuda-compile.fatbin{{$}}
// CHECK-NEXT: {{^}}[[CLANGXX]] -x cuda --cuda-host-only --cuda-path=[[CUDA]] --cuda-gpu-arch=sm_90 -D__CUDA_ARCH_LIST__=900 -Wno-unknown-cuda-version -isystem [[LIB]]/klaraptor/cuda-shim -isystem [[CUDA]]/include/cccl -include [[LIB]]/klaraptor/cuda-shim/klaraptor_host_defines.h -fplugin=[[LIB]]/KlaraptorPlugin.so -fpass-plugin=[[LIB]]/KlaraptorPlugin.so -Xclang -fcuda-include-gpubinary -Xclang [[TMP]]/dryrun-cuda-compile.fatbin -I[[RTINC]] -c [[SRC]] -o [[OBJ]]{{$}}
// CHECK-NOT: {{.}}

// Without -o the object is named after the source, in the current directory;
// -### is the same as --klaraptor-dryrun.
// RUN: %klaraptor-clangxx -### -c %s | FileCheck %s --check-prefix=NO-O
// NO-O: -fatbin
// NO-O: -c {{[^ ]+}}/dryrun-cuda-compile.cu -o dryrun-cuda-compile.o{{$}}

// The temporary directory is removed at exit, also after a dry run.
// RUN: rm -rf %t.tmp && mkdir -p %t.tmp
// RUN: env TMPDIR=%t.tmp %klaraptor-clangxx --klaraptor-dryrun -c %s -o %t.o \
// RUN:   | FileCheck %s --check-prefix=TMPDIR -DDIR=%t.tmp
// RUN: ls -A %t.tmp | count 0
// TMPDIR: -o [[DIR]]/klaraptor-{{[^/ ]+}}/dryrun-cuda-compile.fatbin{{$}}

#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
__global__ void scale(float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= a;
}
