// Errors in reading fields of struct parameters: each names the field and
// what a data expression can read (docs/pragmas.md, "Fields of struct
// parameters").
// RUN: %host_cuda -fplugin=%plugin -fsyntax-only -ferror-limit=0 -Xclang -verify %s

struct Dims {
  int rows;
  float scale;
  struct {
    int x;
  } inner;
  unsigned flags : 4;
  union {
    int a;
    unsigned b;
  };
};

// expected-error@+1 {{'Dims' has no field named 'cols' (in 'd')}}
#pragma klaraptor data(N = d.cols) block(bx) grid(ceildiv(N, bx))
__global__ void unknown_field(Dims d) {}

// expected-error@+1 {{'n' of type 'int' has no fields; '.' reads a field of a struct parameter passed by value}}
#pragma klaraptor data(N = n.size) block(bx) grid(ceildiv(N, bx))
__global__ void not_a_struct(int n) {}

// expected-error@+1 {{kernel parameter 'd.scale' of type 'float' is not an integer}}
#pragma klaraptor data(N = d.scale) block(bx) grid(ceildiv(N, bx))
__global__ void float_field(Dims d) {}

// expected-error@+1 {{kernel parameter 'd.inner' of type 'struct (unnamed struct at}}
#pragma klaraptor data(N = d.inner) block(bx) grid(ceildiv(N, bx))
__global__ void struct_field(Dims d) {}

// expected-error@+1 {{'d.flags' is a bit-field; 'data(...)' reads whole integer fields}}
#pragma klaraptor data(N = d.flags) block(bx) grid(ceildiv(N, bx))
__global__ void bit_field(Dims d) {}

// expected-error@+1 {{'d.a' and 'd.b' share their bytes (a union); name one of them}}
#pragma klaraptor data(N = d.a, M = d.b) block(bx) grid(ceildiv(N + M, bx))
__global__ void overlapping(Dims d) {}

// expected-error@+1 {{'Dims *' has no fields; '.' reads a field of a struct parameter passed by value}}
#pragma klaraptor data(N = p.rows) block(bx) grid(ceildiv(N, bx))
__global__ void pointer_dot(Dims *p) {}

// expected-error@+1 {{'->' cannot read 'p': the host does not read device memory; pass the struct by value or the size as an integer parameter}}
#pragma klaraptor data(N = p->rows) block(bx) grid(ceildiv(N, bx))
__global__ void arrow(Dims *p) {}

// expected-error@+1 {{expected a field name after 'd.'}}
#pragma klaraptor data(N = d.) block(bx) grid(ceildiv(N, bx))
__global__ void no_name(Dims d) {}

// expected-error@+1 {{'d.rows' cannot be used in 'grid(...)'; a field of a kernel parameter goes in 'data(...)'}}
#pragma klaraptor data(N = d.rows) block(bx) grid(ceildiv(d.rows, bx))
__global__ void field_in_grid(Dims d) {}
