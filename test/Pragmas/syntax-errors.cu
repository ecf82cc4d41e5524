// Syntax errors are reported at the offending token, once per pragma; a
// broken pragma still claims the kernel after it, so nothing cascades.
// RUN: %host_cuda -fplugin=%plugin -fsyntax-only -ferror-limit=0 -Xclang -verify %s

// Missing required clauses are reported at the pragma.
// expected-error@+3 {{'#pragma klaraptor' expects 'data(...)' clause}}
// expected-error@+2 {{'#pragma klaraptor' expects 'block(...)' clause}}
// expected-error@+1 {{'#pragma klaraptor' expects 'grid(...)' clause}}
#pragma klaraptor
__global__ void k1(int n) {}

// expected-error@+1 {{'#pragma klaraptor' expects 'data(...)' clause}}
#pragma klaraptor block(bx) grid(32)
__global__ void k2(int n) {}

// expected-error@+1 {{'#pragma klaraptor' expects 'block(...)' clause}}
#pragma klaraptor data(N = n) grid(N)
__global__ void k3(int n) {}

// expected-error@+1 {{'#pragma klaraptor' expects 'grid(...)' clause}}
#pragma klaraptor data(N = n) block(bx) where(bx <= N)
__global__ void k4(int n) {}

// Each clause at most once.
// expected-error@+2 {{'#pragma klaraptor' has more than one 'block(...)' clause}}
// expected-note@+1 {{previous 'block(...)' clause is here}}
#pragma klaraptor data(N = n) block(bx) grid(N) block(by)
__global__ void k5(int n) {}

// expected-error@+2 {{'#pragma klaraptor' has more than one 'where(...)' clause}}
// expected-note@+1 {{previous 'where(...)' clause is here}}
#pragma klaraptor data(N = n) where(bx <= N) block(bx) grid(N) where(bx >= 32)
__global__ void k6(int n) {}

// expected-error@+2 {{'#pragma klaraptor' has more than one 'candidates(...)' clause}}
// expected-note@+1 {{previous 'candidates(...)' clause is here}}
#pragma klaraptor candidates(pow2) data(N = n) block(bx) grid(N) candidates(warp)
__global__ void k7(int n) {}

// Unknown clauses and stray tokens.
// expected-error@+1 {{unknown clause 'threads' in '#pragma klaraptor'}}
#pragma klaraptor data(N = n) block(bx) threads(256) grid(N)
__global__ void k8(int n) {}

// expected-error@+1 {{unknown clause 'junk' in '#pragma klaraptor'}}
#pragma klaraptor data(N = n) block(bx) grid(N) junk
__global__ void k9(int n) {}

// expected-error@+1 {{'#pragma klaraptor' expects a clause: 'data', 'block', 'where', 'grid', 'candidates' or 'shared'}}
#pragma klaraptor data(N = n) block(bx) grid(N))
__global__ void k10(int n) {}

// expected-error@+1 {{'#pragma klaraptor' expects a clause}}
#pragma klaraptor data(N = n), block(bx), grid(N)
__global__ void k11(int n) {}

// expected-error@+1 {{expected '(' after 'data'}}
#pragma klaraptor data N = n block(bx) grid(N)
__global__ void k12(int n) {}

// Unbalanced parentheses.
// expected-error@+2 {{expected ',' or ')' in 'data(...)'}}
// expected-note@+1 {{to match this '('}}
#pragma klaraptor data(N = n block(bx) grid(N)
__global__ void k13(int n) {}

// expected-error@+2 {{expected ')'}}
// expected-note@+1 {{to match this '('}}
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx)
__global__ void k14(int n) {}

// expected-error@+2 {{expected ',' or ')' in 'grid(...)'}}
// expected-note@+1 {{to match this '('}}
#pragma klaraptor data(N = n) block(bx) grid((N + 1) / (bx) where(bx < 64)
__global__ void k15(int n) {}

// expected-error@+1 {{expected an expression}}
#pragma klaraptor data(N = n) block(bx) grid(N + ))
__global__ void k16(int n) {}

// The data clause.
// expected-error@+1 {{expected a data parameter name in 'data(...)'}}
#pragma klaraptor data() block(bx) grid(1)
__global__ void k17(int n) {}

// expected-error@+1 {{expected '=' after data parameter 'N'}}
#pragma klaraptor data(N) block(bx) grid(N)
__global__ void k18(int n) {}

// expected-error@+1 {{expected '=' after data parameter 'N'}}
#pragma klaraptor data(N == n) block(bx) grid(N)
__global__ void k19(int n) {}

// expected-error@+1 {{expected a data parameter name in 'data(...)'}}
#pragma klaraptor data(= n) block(bx) grid(1)
__global__ void k20(int n) {}

// expected-error@+1 {{expected a data parameter name in 'data(...)'}}
#pragma klaraptor data(N = n, ) block(bx) grid(N)
__global__ void k21(int n) {}

// expected-error@+1 {{expected a data parameter name in 'data(...)'}}
#pragma klaraptor data(int = n) block(bx) grid(1)
__global__ void k22(int n) {}

// expected-error@+2 {{expected ',' or ')' in 'data(...)'}}
// expected-note@+1 {{to match this '('}}
#pragma klaraptor data(N = n M = n) block(bx) grid(N)
__global__ void k23(int n) {}

// The block clause.
// expected-error@+1 {{expected 'bx', 'by' or 'bz' in 'block(...)'}}
#pragma klaraptor data(N = n) block() grid(N)
__global__ void k24(int n) {}

// expected-error@+1 {{expected 'bx', 'by' or 'bz' in 'block(...)'}}
#pragma klaraptor data(N = n) block(bx, bw) grid(N)
__global__ void k25(int n) {}

// expected-error@+1 {{block dimension 'bx' is listed more than once}}
#pragma klaraptor data(N = n) block(bx, by, bx) grid(N)
__global__ void k26(int n) {}

// expected-error@+2 {{expected ',' or ')' in 'block(...)'}}
// expected-note@+1 {{to match this '('}}
#pragma klaraptor data(N = n) block(bx by) grid(N)
__global__ void k27(int n) {}

// The grid and where clauses.
// expected-error@+1 {{expected an expression}}
#pragma klaraptor data(N = n) block(bx) grid()
__global__ void k28(int n) {}

// expected-error@+1 {{'grid(...)' takes at most three expressions}}
#pragma klaraptor data(N = n) block(bx) grid(N, 1, 1, 1)
__global__ void k29(int n) {}

// expected-error@+1 {{expected an expression}}
#pragma klaraptor data(N = n) block(bx) where() grid(N)
__global__ void k30(int n) {}

// Operators C has and pragma expressions do not.
// expected-error@+1 {{'&' is not supported in '#pragma klaraptor' expressions}}
#pragma klaraptor data(N = n & 255) block(bx) grid(N)
__global__ void k31(int n) {}

// expected-error@+1 {{'<<' is not supported in '#pragma klaraptor' expressions}}
#pragma klaraptor data(N = n) block(bx) grid(N << 1)
__global__ void k32(int n) {}

// expected-error@+1 {{'?' is not supported in '#pragma klaraptor' expressions}}
#pragma klaraptor data(N = n) block(bx) grid(N > 0 ? N : 1)
__global__ void k33(int n) {}

// expected-error@+1 {{'=' is not supported in '#pragma klaraptor' expressions}}
#pragma klaraptor data(N = n) block(bx) where(bx = 32) grid(N)
__global__ void k34(int n) {}

// expected-error@+1 {{'~' is not supported in '#pragma klaraptor' expressions}}
#pragma klaraptor data(N = ~n) block(bx) grid(N)
__global__ void k35(int n) {}

// Literals: integers only, within 64-bit signed range.
// expected-error@+1 {{invalid integer literal '1.5' in '#pragma klaraptor'}}
#pragma klaraptor data(N = n) block(bx) grid(N * 1.5)
__global__ void k36(int n) {}

// expected-error@+1 {{integer literal '9223372036854775808' is too large for a 64-bit signed integer}}
#pragma klaraptor data(N = n) block(bx) grid(N / 9223372036854775808)
__global__ void k37(int n) {}

// Suffixes as C++ has them (u, l, ll and their combinations; z and uz only
// from C++23 on): anything else is not an integer literal.
// expected-error@+1 {{invalid integer literal '1lll' in '#pragma klaraptor'}}
#pragma klaraptor data(N = n) block(bx) grid(N + 1lll)
__global__ void k37a(int n) {}

// expected-error@+1 {{invalid integer literal '1z' in '#pragma klaraptor'}}
#pragma klaraptor data(N = n) block(bx) grid(N + 1z)
__global__ void k37b(int n) {}

// expected-error@+1 {{invalid integer literal '1uz' in '#pragma klaraptor'}}
#pragma klaraptor data(N = n) block(bx) grid(N + 1uz)
__global__ void k37c(int n) {}

// expected-error@+1 {{invalid integer literal '2lL' in '#pragma klaraptor'}}
#pragma klaraptor data(N = n) block(bx) grid(N + 2lL)
__global__ void k37d(int n) {}

#pragma klaraptor data(N = n) block(bx) grid(N / 2ull + 1LLU + 3uL + 0x10l)
__global__ void k37e(int n) {}

// expected-error@+1 {{expected an expression}}
#pragma klaraptor data(N = n) block(bx) where(bx < "64") grid(N)
__global__ void k38(int n) {}

// Functions: ceildiv, min and max only, with the right number of arguments.
// expected-error@+1 {{unknown function 'floordiv'; expected 'ceildiv', 'min' or 'max'}}
#pragma klaraptor data(N = n) block(bx) grid(floordiv(N, bx))
__global__ void k39(int n) {}

// expected-error@+1 {{'ceildiv' takes 2 arguments, not 3}}
#pragma klaraptor data(N = n) block(bx) grid(ceildiv(N, bx, 2))
__global__ void k40(int n) {}

// expected-error@+1 {{'min' takes at least 2 arguments, not 1}}
#pragma klaraptor data(N = min(n)) block(bx) grid(N)
__global__ void k41(int n) {}

// expected-error@+1 {{expected '(' after 'max'; 'ceildiv', 'min' and 'max' are functions}}
#pragma klaraptor data(N = n) block(bx) where(bx <= max) grid(N)
__global__ void k42(int n) {}

// Data names: unique, and not a block dimension or a function.
// expected-error@+2 {{data parameter 'N' is defined more than once}}
// expected-note@+1 {{previous definition of 'N' is here}}
#pragma klaraptor data(N = n, M = m, N = m) block(bx) grid(N)
__global__ void k43(int n, int m) {}

// expected-error@+1 {{'bx' is reserved and cannot name a data parameter}}
#pragma klaraptor data(bx = n) block(bx) grid(1)
__global__ void k44(int n) {}

// expected-error@+2 {{'ceildiv' is reserved and cannot name a data parameter}}
// expected-error@+1 {{'max' is reserved and cannot name a data parameter}}
#pragma klaraptor data(ceildiv = n, max = n) block(bx) grid(1)
__global__ void k45(int n) {}

// Errors after the first syntax error in a pragma are not reported.
// expected-error@+1 {{expected '=' after data parameter 'N'}}
#pragma klaraptor data(N n) block(bw) grid(
__global__ void k46(int n) {}

// A broken pragma still belongs to the kernel after it.
// expected-error@+1 {{unknown clause 'blocks'}}
#pragma klaraptor data(N = n) blocks(bx) grid(N)
__global__ void k47(int n) {}
#pragma klaraptor data(N = n) block(bx) grid(N)
__global__ void k48(int n) {}

// The shared clause: one expression.
// expected-error@+1 {{expected an expression}}
#pragma klaraptor data(N = n) block(bx) grid(N) shared()
__global__ void k49(int n) {}

// expected-error@+1 {{'shared(...)' takes one expression: the launch's dynamic shared memory in bytes}}
#pragma klaraptor data(N = n) block(bx) grid(N) shared(4 * bx, 16)
__global__ void k50(int n) {}

// expected-error@+2 {{'#pragma klaraptor' has more than one 'shared(...)' clause}}
// expected-note@+1 {{previous 'shared(...)' clause is here}}
#pragma klaraptor data(N = n) block(bx) shared(4 * bx) grid(N) shared(8 * bx)
__global__ void k51(int n) {}

// expected-error@+2 {{expected ')'}}
// expected-note@+1 {{to match this '('}}
#pragma klaraptor data(N = n) block(bx) grid(N) shared(4 * bx
__global__ void k52(int n) {}
