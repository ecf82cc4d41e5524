//===- EmuTestSupport.h - helpers of the emulator's GoogleTest suites -----===//
///
/// \file
/// Loading PTX, aligned host buffers standing for device memory, launching
/// with metrics, and runOp(): a kernel built around one instruction, run
/// with one test case per lane.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TEST_UNIT_EMU_EMUTESTSUPPORT_H
#define KLARAPTOR_TEST_UNIT_EMU_EMUTESTSUPPORT_H

#include "Emulator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace emutest {

using namespace klaraptor::emu;

/// The directory of the nvcc-generated PTX (programs.ptx); --ptx-dir=DIR
/// on the command line overrides the build's directory.
std::string &ptxDir();
std::string readFile(const std::string &Path);

/// Loads PTX text; fails the test (and returns null) on errors.
std::unique_ptr<Module> load(const std::string &Ptx);
/// The module of test/Emu/Inputs/programs.cu (loaded once).
Module &programs();

/// Host memory aligned to 256 bytes, zero-initialised.
template <class T> class Buffer {
public:
  explicit Buffer(size_t N = 0) { resize(N); }
  Buffer(std::initializer_list<T> Init) {
    resize(Init.size());
    std::copy(Init.begin(), Init.end(), P);
  }
  Buffer(const Buffer &) = delete;
  ~Buffer() { std::free(P); }
  void resize(size_t M) {
    std::free(P);
    N = M;
    P = nullptr;
    if (posix_memalign(reinterpret_cast<void **>(&P), 256,
                       std::max<size_t>(N * sizeof(T), 256)) != 0)
      P = nullptr;
    std::memset(static_cast<void *>(P), 0, std::max<size_t>(N * sizeof(T), 256));
  }
  T *data() { return P; }
  T &operator[](size_t I) { return P[I]; }
  size_t size() const { return N; }
  std::vector<T> vec() const { return std::vector<T>(P, P + N); }

private:
  T *P = nullptr;
  size_t N = 0;
};

/// Launches \p Kernel; returns the result, fills \p Metrics when given.
LaunchResult run(Module &M, const std::string &Kernel, Dim3 Grid, Dim3 Block,
                 std::vector<void *> Args, LaunchMetrics *Metrics = nullptr,
                 size_t DynShared = 0, unsigned HostThreads = 1,
                 uint64_t SampleBlocks = 0);

/// Inputs of one lane for runOp: raw bits of %a, %b, %c.
struct OpCase {
  uint64_t A = 0, B = 0, C = 0;
};

/// Runs \p Body (PTX using registers %d, %e (destinations) and %a, %b, %c
/// (sources)) for every case, one case per lane. \p DType / \p EType /
/// \p STypes give the PTX register types ("f32", "b64", "pred", ...; an
/// empty EType means no %e). Returns per case {d, e} as raw bits.
struct OpResult {
  uint64_t D = 0, E = 0;
};
std::vector<OpResult> runOp(const std::string &Body, const std::string &DType,
                            const std::vector<std::string> &STypes,
                            const std::vector<OpCase> &Cases,
                            const std::string &EType = "");
/// Convenience: the %d results only.
std::vector<uint64_t> runOpD(const std::string &Body, const std::string &DType,
                             const std::vector<std::string> &STypes,
                             const std::vector<OpCase> &Cases);

inline uint64_t f2u(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}
inline float u2f(uint64_t U) {
  uint32_t V = uint32_t(U);
  float F;
  std::memcpy(&F, &V, 4);
  return F;
}
inline uint64_t d2u(double D) {
  uint64_t U;
  std::memcpy(&U, &D, 8);
  return U;
}
inline double u2d(uint64_t U) {
  double D;
  std::memcpy(&D, &U, 8);
  return D;
}
inline uint64_t sx(int64_t V) { return uint64_t(V); }

/// A PTX module header for hand-written test kernels.
inline std::string ptxHeader() {
  return ".version 8.0\n.target sm_90\n.address_size 64\n";
}

} // namespace emutest

#endif // KLARAPTOR_TEST_UNIT_EMU_EMUTESTSUPPORT_H
