// The plugin runs with a plain -fplugin and takes no arguments.
// RUN: not %host_cuda -fplugin=%plugin -Xclang -plugin-arg-klaraptor -Xclang verbose \
// RUN:   -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK: error: the klaraptor plugin takes no arguments, got 'verbose'

#pragma klaraptor data(N = n) block(bx) grid(N)
__global__ void k(int n) {}
