// A 2-D kernel whose grid depends on two data parameters.
// Host IR of it: test/Passes/io-builder-2d.ll.
#define KLARAPTOR(spec) __attribute__((annotate(spec)))

__global__ void KLARAPTOR("klaraptor v1\nkernel transpose\n"
                          "loc matrix2d.cu:6:9\nparam 2 rows i32\n"
                          "param 3 cols i32\ndata R $2\ndata C $3\n"
                          "block bx by\nwhere ((bx * by) <= 1024)\n"
                          "grid ceildiv(C, bx)\ngrid ceildiv(R, by)\n"
                          "grid 1\ncandidates pow2\n")
transpose(float *out, const float *in, int rows, int cols) {}

void run(float *out, const float *in, int rows, int cols) {
  transpose<<<dim3((cols + 15) / 16, (rows + 15) / 16), dim3(16, 16)>>>(
      out, in, rows, cols);
}
