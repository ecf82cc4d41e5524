// polybench.h - host-side helpers shared by the PolyBench/GPU programs.
//
// The programs of examples/polybench/ differ only in their kernels, their
// launches and their CPU references; what they share lives here: the
// deterministic inputs, device copies of host arrays, the command line
// ([N] [--no-check] with N <= 46000) and the last printed line ("ok",
// "FAILED" or "launched (result not checked)").
#ifndef KLARAPTOR_EXAMPLES_POLYBENCH_POLYBENCH_H
#define KLARAPTOR_EXAMPLES_POLYBENCH_POLYBENCH_H

#include "../common.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

/// \p Size deterministic inputs in [-0.5, 0.5) with no short period, so that
/// sums stay small and a transposed or shifted index changes the result;
/// another \p Seed gives another array.
inline std::vector<float> filledArray(size_t Size, uint32_t Seed) {
  std::vector<float> V(Size);
  for (size_t I = 0; I < Size; ++I) {
    uint32_t H = uint32_t(I) * 2654435761u + Seed * 40503u;
    V[I] = (float(H >> 26) - 31.5f) / 64.0f;
  }
  return V;
}

/// A device copy of a host array, freed when it goes out of scope. It
/// converts to the device pointer, so it is passed to a kernel as it is.
class DeviceArray {
public:
  explicit DeviceArray(const std::vector<float> &Host) : Size(Host.size()) {
    CHECK_CUDA(cudaMalloc(&Ptr, bytes()));
    CHECK_CUDA(cudaMemcpy(Ptr, Host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  ~DeviceArray() { CHECK_CUDA(cudaFree(Ptr)); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;

  operator float *() const { return Ptr; }

  /// The array as it is now on the device.
  std::vector<float> toHost() const {
    std::vector<float> Host(Size);
    CHECK_CUDA(cudaMemcpy(Host.data(), Ptr, bytes(), cudaMemcpyDeviceToHost));
    return Host;
  }

private:
  size_t bytes() const { return Size * sizeof(float); }

  float *Ptr = nullptr;
  size_t Size;
};

/// The command line of a PolyBench program.
struct PolybenchOptions {
  int N;      ///< the matrix size
  int Second; ///< the second size, where the usage names one (TMAX)
  bool Check; ///< false with --no-check
};

/// Parses "[N] [--no-check]", or with \p SecondDefault >= 0 a second size
/// ("[N [TMAX]]", as \p Usage says); N is 100 when not given. Exits with the
/// usage line on anything else, or on N > 46000: the kernels index with int,
/// as in PolyBench/GPU, so N*(N+1) must fit in an int.
inline PolybenchOptions parsePolybenchOptions(int argc, char **argv,
                                              const char *Usage = "[N]",
                                              int SecondDefault = -1) {
  ExampleOptions O = parseExampleOptions(argc, argv, Usage);
  const int MaxSizes = SecondDefault >= 0 ? 2 : 1;
  if (O.NumSizes > MaxSizes || (O.NumSizes >= 1 && O.Sizes[0] > 46000)) {
    std::fprintf(stderr, "usage: %s %s [--no-check]  (N <= 46000)\n", argv[0],
                 Usage);
    std::exit(1);
  }
  return {O.NumSizes >= 1 ? int(O.Sizes[0]) : 100,
          O.NumSizes >= 2 ? int(O.Sizes[1]) : SecondDefault, !O.NoCheck};
}

/// With --no-check: prints "<Label>: launched (result not checked)"; the
/// program computes no CPU reference. Returns true.
inline bool reportUnchecked(const std::string &Label) {
  std::printf("%s: launched (result not checked)\n", Label.c_str());
  return true;
}

/// An output of the kernels and the CPU reference for it.
struct CheckedOutput {
  const std::vector<float> &Got;
  const std::vector<double> &Want;
};

/// Compares every output with its reference (relative tolerance \p RelTol)
/// and prints "<Label>: ok" or "<Label>: FAILED" (reportCheck); returns
/// whether all matched.
inline bool reportOutputs(const std::string &Label, double RelTol,
                          std::initializer_list<CheckedOutput> Outputs) {
  size_t Bad = 0, Total = 0;
  for (const CheckedOutput &O : Outputs) {
    Bad += countMismatches(std::vector<double>(O.Got.begin(), O.Got.end()),
                           O.Want, RelTol);
    Total += O.Want.size();
  }
  return reportCheck(Label, Bad, Total);
}

#endif // KLARAPTOR_EXAMPLES_POLYBENCH_POLYBENCH_H
