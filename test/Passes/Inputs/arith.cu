// Data expressions with '*', '/', '%', ceildiv and a short-circuit '&&'.
// Host IR of it: test/Passes/io-builder-datafn-arith.ll.
#define KLARAPTOR(spec) __attribute__((annotate(spec)))

__global__ void KLARAPTOR("klaraptor v1\nkernel tiles\nloc arith.cu:6:9\n"
                          "param 1 n i64\nparam 2 tile i32\n"
                          "data T ($1 * $2)\ndata Q ($1 / $2)\n"
                          "data C ceildiv($1, $2)\n"
                          "data E (($2 != 0) && (($1 % $2) == 0))\n"
                          "data H ceildiv($1, 256)\n"
                          "block bx\ngrid ceildiv(C, bx)\ncandidates warp\n")
tiles(float *p, long n, int tile) {}

void run(float *p, long n, int tile) { tiles<<<1, 32>>>(p, n, tile); }
