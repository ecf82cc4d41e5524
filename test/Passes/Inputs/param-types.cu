// Data parameters read from kernel parameters of every integer type the
// spec knows, which the data function sign- or zero-extends to i64.
// Host IR of it: test/Passes/io-builder-param-types.ll.
#define KLARAPTOR(spec) __attribute__((annotate(spec)))

__global__ void KLARAPTOR("klaraptor v1\nkernel widths\nloc param-types.cu:7:9\n"
                          "param 0 a i64\nparam 1 b u32\nparam 2 c i16\n"
                          "param 3 d i8\nparam 4 e u8\nparam 5 f u16\n"
                          "param 6 g u64\nparam 7 h i32\n"
                          "data A $0\ndata B $1\ndata C $2\ndata D $3\n"
                          "data E $4\ndata F $5\ndata G $6\ndata H $7\n"
                          "block bx\ngrid ceildiv(A, bx)\ncandidates pow2\n")
widths(long a, unsigned b, short c, signed char d, unsigned char e,
       unsigned short f, unsigned long g, int h) {}

void run() { widths<<<1, 32>>>(-1, 4000000000u, -2, -3, 200, 60000, 5, -6); }
