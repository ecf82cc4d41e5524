// Data parameters after a structure passed by value: the IR stub takes the
// structure as one byval pointer, but the data function reads kernel
// parameter k through args[k] whatever the IR signature looks like.
// Host IR of it: test/Passes/io-builder-struct-param.ll.
#define KLARAPTOR(spec) __attribute__((annotate(spec)))

struct Big {
  int a;
  double b;
  char c[20];
};

__global__ void KLARAPTOR("klaraptor v1\nkernel after_struct\n"
                          "loc struct-param.cu:14:9\nparam 1 m i64\n"
                          "param 2 n i32\ndata M $1\ndata N $2\nblock bx\n"
                          "grid ceildiv((M * N), bx)\ncandidates pow2\n")
after_struct(Big s, long m, int n) {}

void run(Big s) { after_struct<<<1, 32>>>(s, 7, 3); }
