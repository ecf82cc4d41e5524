// Errors in a kernel template's pragma: the names and the types known before
// instantiation are checked at the template; a type that depends on a
// template parameter is checked for each specialization, with a note at the
// point of instantiation.
// RUN: %host_cuda -fplugin=%plugin -fsyntax-only -ferror-limit=0 -Xclang -verify %s

// expected-error@+1 {{unknown kernel parameter 'count' in 'data(...)'}}
#pragma klaraptor data(N = count) block(bx) grid(ceildiv(N, bx))
template <typename T> __global__ void unknown(T *p, int n) {}

// expected-error@+1 {{kernel parameter 'n' of type 'float' is not an integer}}
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <typename T> __global__ void fixed_float(T *p, float n) {}

// Only the specialization whose type is not an integer is an error.
// expected-error@+1 {{kernel parameter 'n' of type 'double' is not an integer}}
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <typename I> __global__ void dependent(float *p, I n) {}

// A parameter pack: its own name is not one integer, and the parameters
// after it have no fixed position.
// expected-error@+2 {{kernel parameter 'rest' of type 'Args...' is not an integer}}
// expected-error@+1 {{kernel parameter 'm' comes after the parameter pack 'rest'; 'data(...)' can name only the parameters before a pack}}
#pragma klaraptor data(N = rest, M = m) block(bx) grid(ceildiv(N, bx))
template <typename... Args> __global__ void packed(int n, Args... rest, int m) {}

// One pragma per kernel template, counting its declarations.
// expected-note@+1 {{previous '#pragma klaraptor' is here}}
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <typename T> __global__ void twice(T *p, int n);
// expected-error@+1 {{kernel 'twice' has more than one '#pragma klaraptor'}}
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <typename T> __global__ void twice(T *p, int n) {}

// An explicit specialization with a pragma of its own, after a specialization
// that already took the template's pragma.
// expected-note@+1 {{previous '#pragma klaraptor' is here}}
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <typename T> __global__ void late(T *p, int n) {}
template <> __global__ void late<int>(int *p, int n);
// expected-error@+1 {{kernel 'late<int>' has more than one '#pragma klaraptor'}}
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx))
template <> __global__ void late<int>(int *p, int n) {}

void launch(float *f) {
  dependent<<<1, 32>>>(f, 10);
  dependent<<<1, 32>>>(f, 10u);
  // expected-note@+1 {{in the kernel 'dependent<double>' instantiated here}}
  dependent<<<1, 32>>>(f, 10.0);
}
