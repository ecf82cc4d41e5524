// Through clang, an encoding the pass cannot parse is a located error at the
// kernel, one per broken kernel; the others are still processed.
//
// RUN: not %host_cuda -O0 -fpass-plugin=%plugin -S -emit-llvm %s -o /dev/null \
// RUN:   2>&1 | FileCheck %s
// RUN: not %host_cuda -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o /dev/null \
// RUN:   2>&1 | FileCheck %s

#define KLARAPTOR(spec) __attribute__((annotate(spec)))

// CHECK: io-builder-bad-spec.cu:[[@LINE+3]]:{{[0-9]+}}: error: invalid '#pragma klaraptor' encoding of kernel 'broken': spec line 4: unexpected character ')' at column 13
__global__ void KLARAPTOR("klaraptor v1\nkernel broken\nparam 0 n i32\n"
                          "data N ($0 +)\nblock bx\ngrid ceildiv(N, bx)\n")
broken(int n) {}

// CHECK: io-builder-bad-spec.cu:[[@LINE+1]]:{{[0-9]+}}: error: invalid '#pragma klaraptor' encoding of kernel 'future': spec line 1: expected 'klaraptor v1', found 'klaraptor v9'
__global__ void KLARAPTOR("klaraptor v9\nkernel future\nblock\n") future() {}

__global__ void KLARAPTOR("klaraptor v1\nkernel fine\nparam 0 n i32\n"
                          "data N $0\nblock bx\ngrid ceildiv(N, bx)\n")
fine(int n) {}

void run(int n) {
  broken<<<1, 1>>>(n);
  future<<<1, 1>>>();
  fine<<<1, 1>>>(n);
}
// CHECK-NOT: error:
// CHECK: 2 errors generated
