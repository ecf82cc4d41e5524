//===- CuptiSweep.h - the cupti backend: one launch, many shapes on a GPU -===//
///
/// \file
/// The `cupti` profiler backend: what `klaraptor profile` and `klaraptor
/// bench` ask of a program that runs on a real GPU. cuptiSweep() has the
/// contract of klaraptor_emu_sweep (profiler/emu/cudart/EmuCudart.h): run
/// one launch's kernel once per (grid, block) shape and hand back a
/// LaunchRecord per shape, leaving the program's device memory as it found
/// it.
///
/// Per shape it measures
///  * time: CUDA events around the launch, one warm-up launch excluded, the
///    median of K repeats (KLARAPTOR_CUPTI_REPEATS, default 5) with the
///    minimum and maximum (keys gpu_time_ns, gpu_time_ns_min,
///    gpu_time_ns_max, gpu_time_repeats);
///  * metrics: the CUPTI Range Profiler (CUDA 12.6+, cupti_range_profiler.h
///    and cupti_profiler_host.h), user range and user replay, one range
///    around the launch, every metric of cuptiMetricKeys() in one
///    configuration, replayed for as many passes as CUPTI asks for;
///  * resources: registers, static shared and local memory per thread from
///    cuFuncGetAttribute, resident blocks per SM from the occupancy API.
///
/// Memory: before the sweep every kernel argument that holds a device
/// address (any 8-byte aligned word of a parameter, sizes from
/// cuFuncGetParamInfo, tested with cuPointerGetAttribute and
/// cuMemGetAddressRange) has its whole allocation saved once; the
/// allocations are restored before every launch of the sweep and at its
/// end. Memory the kernel reaches only through pointers stored inside other
/// buffers or in __device__ globals is NOT restored.
///
/// Every CUDA and CUPTI entry point is found at run time (dlopen/dlsym):
/// the driver from libcuda.so.1 (the one the process has loaded), the
/// runtime's cudaGetFuncBySymbol from the process, libcupti from
/// KLARAPTOR_CUPTI_LIB, the library path or the toolkit this build was
/// configured with. So libklaraptor_profile.so loads in emulated programs
/// and on machines without CUDA, and the sweep fails with a message there.
///
/// The pure parts (the metric table, the argument scan, the time summary)
/// need no GPU and are unit-tested (test/Unit/Cupti).
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_BACKEND_CUPTISWEEP_H
#define KLARAPTOR_PROFILER_BACKEND_CUPTISWEEP_H

#include "Backend.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace klaraptor::profiler::cupti {

//===--- Metrics ----------------------------------------------------------===//

/// One record key measured by the Range Profiler: the sum of up to two
/// CUPTI metrics (docs/metrics.md, "CUPTI backend").
struct MetricKey {
  const char *Key;        ///< record key, e.g. "global_load_sectors"
  const char *Cupti[2];   ///< CUPTI metric names, the second may be null
  bool CuptiOnly = false; ///< no emu counterpart (caches, DRAM, cycles)
};

/// Every key the Range Profiler fills, in record order.
const std::vector<MetricKey> &cuptiMetricKeys();

/// The distinct CUPTI metric names the keys need, in first-use order: the
/// list handed to cuptiProfilerHostConfigAddMetrics.
std::vector<std::string> cuptiMetricNames();

/// Sets in \p R every key of cuptiMetricKeys() whose metrics all appear in
/// \p Names (values in \p Values, same order). Returns the number of keys
/// set.
unsigned setMetricKeys(const std::vector<std::string> &Names,
                       const std::vector<double> &Values, LaunchRecord &R);

//===--- Argument scan ----------------------------------------------------===//

/// One device allocation a kernel argument points into.
struct DeviceBuffer {
  uint64_t Base = 0;
  uint64_t Size = 0;
};

/// Answers whether \p Address lies in a device allocation the sweep can
/// save and restore, and if so that allocation's base and size.
using AddressQuery =
    std::function<bool(uint64_t Address, uint64_t &Base, uint64_t &Size)>;

/// The allocations the arguments point into: every 8-byte aligned word of
/// each parameter (\p ParamSizes[I] bytes at \p Args[I]) that \p Query
/// accepts, each allocation once (by base, the largest size kept), in order
/// of first appearance. Parameters smaller than 8 bytes are skipped.
std::vector<DeviceBuffer>
findArgumentBuffers(const std::vector<uint64_t> &ParamSizes,
                    void *const *Args, const AddressQuery &Query);

//===--- Time summary -----------------------------------------------------===//

/// The summary of repeated timings.
struct TimeSpread {
  double Median = 0, Min = 0, Max = 0;
  unsigned Count = 0;
};

/// Median (mean of the middle two for an even count), minimum and maximum
/// of \p Samples; Count 0 when there are none.
TimeSpread summarizeTimes(std::vector<double> Samples);

/// Parses KLARAPTOR_CUPTI_REPEATS's value \p Text (null or empty: the
/// default 5) into \p Repeats, 1 to 1000. False with \p Error otherwise.
bool parseRepeats(const char *Text, unsigned &Repeats, std::string &Error);

//===--- The sweep --------------------------------------------------------===//

/// cuptiSweep flag: time every shape, collect no metrics (KLARAPTOR_BENCH).
constexpr int SweepTimeOnly = 1;
/// cuptiSweep flag: \p Shapes holds septuples, each sextuple followed by
/// the shape's dynamic shared memory in bytes (the pragma's shared(...));
/// \p SharedBytes is then not used.
constexpr int SweepSharedPerShape = 2;

/// Called once per shape: \p Record is null when the shape failed, then
/// \p Message says why; with a record, \p Message may say why a part
/// (metrics) is missing.
using ShapeFn = void (*)(void *Ctx, uint32_t Index, const void *Record,
                         const char *Message);

/// Makes sure the backend can run in this process: the CUDA driver, a
/// device and a current context, and unless \p TimeOnly (or
/// KLARAPTOR_CUPTI_METRICS=0) libcupti with Range Profiler support and
/// permission to profile. Remembers the answer. \p Device receives the
/// GPU's name.
bool cuptiReady(bool TimeOnly, std::string &Device, std::string &Error);

/// Runs \p Function (a CUfunction when \p IsCuFunction, else a host stub
/// the CUDA runtime registered) once per shape of \p Shapes (\p Count
/// sextuples grid x,y,z, block x,y,z; septuples with SweepSharedPerShape)
/// with \p Args, \p SharedBytes and
/// \p Stream as the program launched it. Returns 0 (failures of single
/// shapes go to \p Fn), or -1 with \p Error when nothing could run.
int cuptiSweep(const void *Function, bool IsCuFunction, void *const *Args,
               uint64_t SharedBytes, void *Stream, const uint32_t *Shapes,
               uint32_t Count, int Flags, ShapeFn Fn, void *Ctx,
               std::string &Error);

} // namespace klaraptor::profiler::cupti

#endif // KLARAPTOR_PROFILER_BACKEND_CUPTISWEEP_H
