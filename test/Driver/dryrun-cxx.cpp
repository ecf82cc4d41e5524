// C++ sources go to clang++ 19 with the pass plugin only (it hooks
// cuLaunchKernel calls), the CUDA headers and the runtime's headers; no nvcc.
//
// RUN: %klaraptor-clangxx --klaraptor-dryrun -c %s -o %t.o -std=c++20 \
// RUN:   | FileCheck %s -DCLANGXX=%clangxx -DLIB=%klaraptor_lib -DCUDA=%cuda_path \
// RUN:       -DRTINC=%rt_include -DSRC=%s -DOBJ=%t.o
// CHECK: {{^}}[[CLANGXX]] -x c++ -fpass-plugin=[[LIB]]/KlaraptorPlugin.so -std=c++20 -isystem [[CUDA]]/include -I[[RTINC]] -c [[SRC]] -o [[OBJ]]{{$}}
// CHECK-NOT: {{.}}

// Every C++ extension clang knows.
// RUN: cp %s %t.cxx && cp %s %t.cc && cp %s %t.C
// RUN: %klaraptor-clangxx --klaraptor-dryrun -c %t.cxx %t.cc %t.C | FileCheck %s --check-prefix=EXT
// EXT-NOT: nvcc
// EXT: clang++ -x c++ -fpass-plugin={{.*}} -c {{.*}}.cxx -o dryrun-cxx.cpp.tmp.o
// EXT: clang++ -x c++ -fpass-plugin={{.*}} -c {{.*}}.cc -o dryrun-cxx.cpp.tmp.o
// EXT: clang++ -x c++ -fpass-plugin={{.*}} -c {{.*}}.C -o dryrun-cxx.cpp.tmp.o
// EXT-NOT: nvcc

int main() { return 0; }
