// -E, -M, -S and -fsyntax-only run the host compile only, without a fatbin;
// with the plugin, so '#pragma klaraptor' is still checked.
//
// RUN: %klaraptor-clangxx --klaraptor-dryrun -E %s | FileCheck %s --check-prefix=PRE
// PRE-NOT: nvcc
// PRE: clang++ -x cuda --cuda-host-only {{.*}} -fplugin={{[^ ]+}} -fpass-plugin={{[^ ]+}} -I{{[^ ]+}} -E {{[^ ]+}}/dryrun-modes.cu{{$}}
// PRE-NOT: {{.}}
// RUN: %klaraptor-clangxx --klaraptor-dryrun -E %s -o %t.i | FileCheck %s --check-prefix=PRE-O
// PRE-O: -E {{[^ ]+}}/dryrun-modes.cu -o {{[^ ]+}}.i{{$}}

// RUN: %klaraptor-clangxx --klaraptor-dryrun -MM %s | FileCheck %s --check-prefix=DEPS
// DEPS-NOT: nvcc
// DEPS: clang++ -x cuda {{.*}} -MM {{.*}} -E {{[^ ]+}}/dryrun-modes.cu{{$}}

// RUN: %klaraptor-clangxx --klaraptor-dryrun -S %s | FileCheck %s --check-prefix=ASM
// ASM-NOT: nvcc
// ASM-NOT: gpubinary
// ASM: clang++ -x cuda {{.*}} -S {{[^ ]+}}/dryrun-modes.cu -o dryrun-modes.s{{$}}

// RUN: %klaraptor-clangxx --klaraptor-dryrun -fsyntax-only %s %S/Inputs/main.cpp | FileCheck %s --check-prefix=SYNTAX
// SYNTAX-NOT: nvcc
// SYNTAX: clang++ -x cuda {{.*}} -fplugin={{.*}} -fsyntax-only {{[^ ]+}}/dryrun-modes.cu{{$}}
// SYNTAX-NEXT: clang++ -x c++ {{.*}} -fsyntax-only {{[^ ]+}}/main.cpp{{$}}
// SYNTAX-NOT: {{.}}

__global__ void empty() {}
