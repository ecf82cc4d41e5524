// GPU architectures: -arch=, -arch X, --cuda-gpu-arch=, --offload-arch=,
// comma lists; one pair of -gencode (SASS + PTX) per GPU, duplicates dropped.
//
// RUN: %klaraptor-clangxx --klaraptor-dryrun -c %s -arch=sm_80 | FileCheck %s --check-prefix=SM80
// SM80: nvcc -fatbin --no-compress -gencode arch=compute_80,code=sm_80 -gencode arch=compute_80,code=compute_80 -I
// SM80-NOT: compute_90
// SM80: clang++ -x cuda --cuda-host-only --cuda-path={{[^ ]+}} --cuda-gpu-arch=sm_80 -D__CUDA_ARCH_LIST__=800 -Wno-unknown-cuda-version

// RUN: %klaraptor-clangxx --klaraptor-dryrun -c %s -arch sm_80 --cuda-gpu-arch=sm_90a -arch=sm_80 \
// RUN:   | FileCheck %s --check-prefix=TWO
// TWO: -fatbin --no-compress -gencode arch=compute_80,code=sm_80 -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90a,code=compute_90a -I
// TWO: --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90a -D__CUDA_ARCH_LIST__=800,900 -Wno-unknown-cuda-version

// clang-19 does not know GPUs after sm_90a; host code does not depend on the
// GPU, so the host compile names sm_90 while nvcc builds for the real one.
// RUN: %klaraptor-clangxx --klaraptor-dryrun -c %s --offload-arch=sm_120 --klaraptor-arch=sm_100f,sm_75 \
// RUN:   | FileCheck %s --check-prefix=NEW
// NEW: -gencode arch=compute_120,code=sm_120 -gencode arch=compute_120,code=compute_120 -gencode arch=compute_100f,code=sm_100f -gencode arch=compute_100f,code=compute_100f -gencode arch=compute_75,code=sm_75 -gencode arch=compute_75,code=compute_75 -I
// NEW: --cuda-gpu-arch=sm_90 --cuda-gpu-arch=sm_75 -D__CUDA_ARCH_LIST__=750,1000,1200 -Wno-unknown-cuda-version

__global__ void empty() {}
