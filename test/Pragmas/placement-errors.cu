// A pragma belongs to the first declaration after it, which must be a
// __global__ function or function template; each kernel takes one pragma.
// RUN: %host_cuda -fplugin=%plugin -fsyntax-only -ferror-limit=0 -Xclang -verify %s

// expected-error@+1 {{'#pragma klaraptor' must be followed by a '__global__' function}}
#pragma klaraptor data(N = n) block(bx) grid(N)
void host_function(int n) {}

// expected-error@+1 {{'#pragma klaraptor' must be followed by a '__global__' function}}
#pragma klaraptor data(N = n) block(bx) grid(N)
__device__ void device_function(int n) {}

// expected-error@+1 {{'#pragma klaraptor' must be followed by a '__global__' function}}
#pragma klaraptor data(N = n) block(bx) grid(N)
int variable;
__global__ void after_variable(int n) {}

// expected-error@+1 {{'#pragma klaraptor' must be followed by a '__global__' function}}
#pragma klaraptor data(N = n) block(bx) grid(N)
struct S {
  int n;
};

// A namespace is a declaration in its own right.
// expected-error@+1 {{'#pragma klaraptor' must be followed by a '__global__' function}}
#pragma klaraptor data(N = n) block(bx) grid(N)
namespace ns {
__global__ void in_namespace(int n) {}
// A pragma at the end of a namespace has nothing to go to either.
// expected-error@+1 {{'#pragma klaraptor' must be followed by a '__global__' function}}
#pragma klaraptor data(N = n) block(bx) grid(N)
} // namespace ns
__global__ void after_namespace(int n) {}

// So is a braced linkage specification (an unbraced one is looked through).
// expected-error@+1 {{'#pragma klaraptor' must be followed by a '__global__' function}}
#pragma klaraptor data(N = n) block(bx) grid(N)
extern "C" {
__global__ void in_linkage_spec(int n) {}
}

// Inside a function or a class there is no kernel to follow.
void host_body() {
// expected-error@+1 {{'#pragma klaraptor' must be followed by a '__global__' function}}
#pragma klaraptor data(N = n) block(bx) grid(N)
  int n = 0;
  (void)n;
}
struct T {
// expected-error@+1 {{'#pragma klaraptor' must be followed by a '__global__' function}}
#pragma klaraptor data(N = n) block(bx) grid(N)
  void member(int n);
};

// A template of a function that is not a kernel (kernel templates:
// template-errors.cu, template-ir.cu).
// expected-error@+1 {{'#pragma klaraptor' must be followed by a '__global__' function}}
#pragma klaraptor data(N = n) block(bx) grid(N)
template <typename T> __device__ void device_template(T *p, int n) {}

// One pragma per kernel, counting its declarations.
// expected-note@+1 {{previous '#pragma klaraptor' is here}}
#pragma klaraptor data(N = n) block(bx) grid(N)
// expected-error@+1 {{kernel 'twice' has more than one '#pragma klaraptor'}}
#pragma klaraptor data(N = n) block(bx) grid(N)
__global__ void twice(int n) {}

namespace other {
// expected-note@+1 {{previous '#pragma klaraptor' is here}}
#pragma klaraptor data(N = n) block(bx) grid(N)
__global__ void declared_then_defined(int n);
// expected-error@+1 {{kernel 'other::declared_then_defined' has more than one '#pragma klaraptor'}}
#pragma klaraptor data(M = n) block(bx) grid(M)
__global__ void declared_then_defined(int n) {}
} // namespace other

// The last pragma has nothing after it.
// expected-error@+1 {{'#pragma klaraptor' must be followed by a '__global__' function}}
#pragma klaraptor data(N = n) block(bx) grid(N)
