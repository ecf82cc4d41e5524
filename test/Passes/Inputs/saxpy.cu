// One annotated 1-D kernel, one kernel without annotation, and a caller.
// Host IR of it: test/Passes/io-builder-1d.ll.
#define KLARAPTOR(spec) __attribute__((annotate(spec)))

__global__ void KLARAPTOR("klaraptor v1\nkernel saxpy\nloc saxpy.cu:6:9\n"
                          "param 3 n i32\ndata N $3\nblock bx\n"
                          "where (bx <= N)\ngrid ceildiv(N, bx)\ngrid 1\n"
                          "grid 1\ncandidates pow2\n")
saxpy(float *y, const float *x, float a, int n) {}

__global__ void plain(int *p) {}

void run(float *y, const float *x, int n, int *p) {
  saxpy<<<(n + 255) / 256, 256>>>(y, x, 2.0f, n);
  plain<<<1, 1>>>(p);
}
