// common.h - error checking and argument helpers shared by the examples.
#ifndef KLARAPTOR_EXAMPLES_COMMON_H
#define KLARAPTOR_EXAMPLES_COMMON_H

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

/// Exits with a message naming the failed CUDA call and where it was made.
#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
                   #call, cudaGetErrorString(err_));                           \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

/// Command-line options every example understands.
struct ExampleOptions {
  /// Launch only, without comparing with the CPU reference. For tests that
  /// run the program against klaraptor's recording stand-in for libcudart,
  /// where launches are recorded but kernels do not run.
  bool NoCheck = false;
  /// Positional integer arguments (sizes).
  long Sizes[4] = {0, 0, 0, 0};
  int NumSizes = 0;
};

inline ExampleOptions parseExampleOptions(int argc, char **argv,
                                          const char *usage) {
  ExampleOptions O;
  for (int I = 1; I < argc; ++I) {
    if (std::strcmp(argv[I], "--no-check") == 0) {
      O.NoCheck = true;
      continue;
    }
    char *End = nullptr;
    long V = std::strtol(argv[I], &End, 10);
    if (*argv[I] == '\0' || *End != '\0' || V <= 0 || O.NumSizes == 4) {
      std::fprintf(stderr, "usage: %s %s [--no-check]\n", argv[0], usage);
      std::exit(1);
    }
    O.Sizes[O.NumSizes++] = V;
  }
  return O;
}

#endif // KLARAPTOR_EXAMPLES_COMMON_H
