// With -E the pragma is kept, as _Pragma("klaraptor ...") on its own line,
// so that compiling the preprocessed file (as -save-temps does) still
// annotates the kernel.
// RUN: %host_cuda -fplugin=%plugin -E %s | FileCheck %s --check-prefix=PP
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %host_cuda -fplugin=%plugin -save-temps -S -emit-llvm -o - %s | FileCheck %s --check-prefix=IR

#define THREADS 256
#pragma klaraptor data(N = n) block(bx) \
    where(bx <= THREADS) grid(ceildiv(N, bx))
__global__ void saxpy(float *y, const float *x, float a, int n) {}

// The pragma's two lines stay two lines, so the kernel keeps its line.
// PP: {{^}}_Pragma("klaraptor data ( N = n ) block ( bx ) where ( bx <= 256 ) grid ( ceildiv ( N , bx ) )"){{$}}
// PP-EMPTY:
// PP-NEXT: {{^}}__attribute__((global)) void saxpy(

// IR: c"klaraptor v1\0Akernel saxpy\0Aloc {{.*}}preprocessed-output.cu:[[#@LINE-9]]:1\0Aparam 3 n i32\0Adata N $3\0Ablock bx\0Awhere (bx <= 256)\0Agrid ceildiv(N, bx)\0Agrid 1\0Agrid 1\0Acandidates pow2\0A\00"
