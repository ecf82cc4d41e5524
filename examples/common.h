// common.h - error checking and argument helpers shared by the examples.
#ifndef KLARAPTOR_EXAMPLES_COMMON_H
#define KLARAPTOR_EXAMPLES_COMMON_H

#include <cuda_runtime.h>

#include <cmath>
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

/// Elements of \p Got that differ from \p Want by more than \p RelTol
/// relative to max(1, |want|).
template <typename Vec>
size_t countMismatches(const Vec &Got, const Vec &Want, double RelTol) {
  size_t Bad = 0;
  for (size_t I = 0; I < Want.size(); ++I)
    if (std::fabs(double(Got[I]) - double(Want[I])) >
        RelTol * std::fmax(1.0, std::fabs(double(Want[I]))))
      ++Bad;
  return Bad;
}

/// Prints "<Label>: ok" or "<Label>: FAILED" (and how many elements differ
/// on stderr); returns whether the check passed.
inline bool reportCheck(const std::string &Label, size_t Bad, size_t Total) {
  std::printf("%s: %s\n", Label.c_str(), Bad ? "FAILED" : "ok");
  if (Bad)
    std::fprintf(stderr, "%s: %zu of %zu elements differ from the CPU reference\n",
                 Label.c_str(), Bad, Total);
  return Bad == 0;
}

#endif // KLARAPTOR_EXAMPLES_COMMON_H
