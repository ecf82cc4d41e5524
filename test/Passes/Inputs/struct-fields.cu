// Data parameters read from fields of a structure passed by value: an
// aligned field, an unaligned one (a packed structure: rows at byte 1, cols
// at byte 5) and a plain parameter after it. The data function reads the
// field at its byte offset in the parameter's storage, args[k] + offset.
// Host IR of it: test/Passes/io-builder-struct-fields.ll.
#define KLARAPTOR(spec) __attribute__((annotate(spec)))

struct __attribute__((packed)) Shape {
  char tag;
  int rows;
  long long cols;
  short depth;
};

__global__ void KLARAPTOR("klaraptor v1\nkernel fields\n"
                          "loc struct-fields.cu:15:9\nparam 0.1 s.rows i32\n"
                          "param 0.5 s.cols i64\nparam 0.13 s.depth i16\n"
                          "param 1 n i32\ndata R $0.1\ndata C $0.5\n"
                          "data D $0.13\ndata N $1\nblock bx\n"
                          "grid ceildiv((((R * C) * D) + N), bx)\n"
                          "candidates pow2\n")
fields(Shape s, int n) {}

void run(Shape s) { fields<<<1, 32>>>(s, 3); }
