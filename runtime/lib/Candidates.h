//===- Candidates.h - the launch configurations a kernel may use ----------===//
///
/// \file
/// Enumerates the block shapes of a kernel's candidate set (pow2, warp or
/// list, docs/spec-format.md) within the device's limits, then keeps those
/// that satisfy the where-constraints and have a valid grid for the launch's
/// data and whose dynamic shared memory (the pragma's shared(...)) the
/// kernel may be launched with. The order of the result is the enumeration order used to break
/// ties between equally fast candidates (docs/runtime-abi.md).
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_CANDIDATES_H
#define KLARAPTOR_RUNTIME_CANDIDATES_H

#include "KernelSpec.h"
#include "klaraptor/klaraptor_rt.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace klaraptor {

using Dim3 = std::array<uint32_t, 3>;

/// The limits that bound block and grid shapes.
struct LaunchLimits {
  uint32_t MaxThreads = 1024; ///< per block: device and kernel limit
  Dim3 MaxBlock = {1024, 1024, 64};
  Dim3 MaxGrid = {2147483647u, 65535, 65535};
  uint32_t WarpSize = 32;
  /// Dynamic shared memory per block, bytes: what the kernel may be launched
  /// with (cudaFuncAttributes::maxDynamicSharedSizeBytes), else the
  /// device's shared memory per block; never below what the program's own
  /// launch asks for.
  uint64_t MaxDynamicShared = UINT64_MAX;

  /// From a device, lowered to \p KernelMaxThreads when that is positive;
  /// the dynamic shared memory limit is \p KernelMaxDynamicShared when that
  /// is positive, else the device's shared memory per block.
  static LaunchLimits from(const klaraptor_device_info &Device,
                           int KernelMaxThreads,
                           int64_t KernelMaxDynamicShared = 0);
};

/// One admissible launch.
struct Candidate {
  Dim3 Block = {1, 1, 1};
  Dim3 Grid = {1, 1, 1};
  /// Dynamic shared memory in bytes (the pragma's shared(...); 0 without).
  /// A function of the block and the data, so not part of the comparison.
  uint64_t Shared = 0;
  bool operator==(const Candidate &O) const {
    return Block == O.Block && Grid == O.Grid;
  }
};

/// How far block \p A is from block \p B: the sum over the dimensions of
/// |log2(a / b)| (32x8 to 16x16: 2; to 32x16: 1). Ties between equally fast
/// candidates go to the one nearest the requested block (docs/runtime-abi.md).
double blockDistance(const Dim3 &A, const Dim3 &B);

/// Why block shapes were dropped (debug output, tests).
struct RejectCounts {
  unsigned WhereFalse = 0;
  unsigned WhereError = 0;
  unsigned GridError = 0;
  unsigned GridOutOfRange = 0;
  unsigned SharedError = 0;
  unsigned SharedOutOfRange = 0;
};

/// The dynamic shared memory in bytes that the pragma of \p Spec gives a
/// launch of \p Block for \p Data: its shared(...) expression, 0 when it has
/// none. Not checked against any limit.
EvalStatus dynamicSharedBytes(const KernelSpec &Spec, const int64_t *Data,
                              size_t NumData, const Dim3 &Block,
                              int64_t &Bytes);

class CandidateEnumerator {
public:
  CandidateEnumerator(const KernelSpec &Spec, const LaunchLimits &Limits)
      : Spec(Spec), Limits(Limits) {}

  /// The block shapes of the candidate set that fit the limits, in
  /// enumeration order: bz, then by, then bx ascending for pow2 and warp;
  /// the listed order (duplicates dropped) for list. Dimensions that are
  /// not free are 1 (the pragma declares them so).
  std::vector<Dim3> blockShapes() const;

  /// Checks one block shape: every where-constraint evaluates without error
  /// to non-zero, every grid expression evaluates without error to a value
  /// in [1, MaxGrid], and the shared(...) expression (if any) to a value in
  /// [0, MaxDynamicShared]. On success fills \p Grid and \p Shared.
  bool admit(const int64_t *Data, size_t NumData, const Dim3 &Block,
             Dim3 &Grid, RejectCounts *Rejects = nullptr,
             uint64_t *Shared = nullptr) const;

  /// The admissible candidates among blockShapes(), in order.
  std::vector<Candidate> admissible(const int64_t *Data, size_t NumData,
                                    RejectCounts *Rejects = nullptr) const;

private:
  const KernelSpec &Spec;
  LaunchLimits Limits;

  bool fits(const Dim3 &B, bool NeedWarp) const;
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_CANDIDATES_H
