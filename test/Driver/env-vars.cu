// Every klaraptor option is also a KLARAPTOR_* environment variable; the flag
// wins.
//
// RUN: env KLARAPTOR_ARCH=sm_75 %klaraptor-clangxx --klaraptor-dryrun -c %s | FileCheck %s --check-prefix=ARCH
// ARCH: nvcc -fatbin --no-compress -gencode arch=compute_75,code=sm_75 -gencode arch=compute_75,code=compute_75 -I
// ARCH: --cuda-gpu-arch=sm_75 -D__CUDA_ARCH_LIST__=750 -Wno
// RUN: env KLARAPTOR_ARCH=sm_75,sm_86 %klaraptor-clangxx --klaraptor-dryrun -c %s | FileCheck %s --check-prefix=ARCH2
// ARCH2: -gencode arch=compute_75,code=sm_75 -gencode arch=compute_75,code=compute_75 -gencode arch=compute_86,code=sm_86 -gencode arch=compute_86,code=compute_86 -I
// RUN: env KLARAPTOR_ARCH=sm_75 %klaraptor-clangxx --klaraptor-dryrun -c %s -arch=sm_89 | FileCheck %s --check-prefix=ARCH-FLAG
// ARCH-FLAG: -gencode arch=compute_89,code=sm_89 -gencode arch=compute_89,code=compute_89 -I
// ARCH-FLAG-NOT: sm_75

// KLARAPTOR_DRYRUN=1 prints instead of running (the tools do not exist).
// RUN: env KLARAPTOR_DRYRUN=1 KLARAPTOR_NVCC=/opt/nv/nvcc KLARAPTOR_CLANG=/opt/llvm/bin/clang++-19 \
// RUN:   %klaraptor-clangxx -c %s %S/Inputs/plain.c | FileCheck %s --check-prefix=TOOLS
// TOOLS: {{^}}/opt/nv/nvcc -fatbin
// TOOLS-NEXT: {{^}}/opt/llvm/bin/clang++-19 -x cuda
// The C compiler sits next to the C++ one unless KLARAPTOR_CLANG_C says.
// TOOLS-NEXT: {{^}}/opt/llvm/bin/clang-19 -x c
// RUN: env KLARAPTOR_DRYRUN=1 KLARAPTOR_CLANG=/opt/llvm/bin/clang++-19 KLARAPTOR_CLANG_C=/opt/c/cc \
// RUN:   %klaraptor-clangxx -c %S/Inputs/plain.c | FileCheck %s --check-prefix=CLANG-C
// CLANG-C: {{^}}/opt/c/cc -x c
// RUN: env KLARAPTOR_DRYRUN=1 KLARAPTOR_NVCC=/opt/nv/nvcc \
// RUN:   %klaraptor-clangxx --klaraptor-nvcc=/flag/nvcc --klaraptor-clang /flag/clang++ -c %s | FileCheck %s --check-prefix=TOOL-FLAGS
// TOOL-FLAGS: {{^}}/flag/nvcc -fatbin
// TOOL-FLAGS-NEXT: {{^}}/flag/clang++ -x cuda

// KLARAPTOR_CUDA_PATH: the toolkit's own nvcc, headers and libraries.
// RUN: env KLARAPTOR_CUDA_PATH=/opt/cuda-x/ %klaraptor-clangxx --klaraptor-dryrun %s -lcuda \
// RUN:   | FileCheck %s --check-prefix=CUDA
// RUN: %klaraptor-clangxx --klaraptor-dryrun --cuda-path=/opt/cuda-x %s -lcuda | FileCheck %s --check-prefix=CUDA
// CUDA: {{^}}/opt/cuda-x/bin/nvcc -fatbin
// CUDA-NEXT: --cuda-path=/opt/cuda-x --cuda-gpu-arch
// CUDA-NEXT: -L/opt/cuda-x/lib64 -lcudart -Wl,-rpath,/opt/cuda-x/lib64 -ldl -lpthread -L/opt/cuda-x/lib64/stubs{{$}}

// Switches take 1/ON/TRUE/YES; 0/OFF/FALSE/NO/empty leave them off.
// RUN: env KLARAPTOR_DRYRUN=0 KLARAPTOR_NVCC=/nonexistent not %klaraptor-clangxx -c %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OFF
// OFF: klaraptor-clang++: error: cannot find nvcc '/nonexistent'
// RUN: env KLARAPTOR_DRYRUN=on KLARAPTOR_NVCC=/nonexistent %klaraptor-clangxx -c %s | FileCheck %s --check-prefix=ON
// ON: {{^}}/nonexistent -fatbin

__global__ void empty() {}
