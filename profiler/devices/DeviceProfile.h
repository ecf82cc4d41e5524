//===- DeviceProfile.h - a GPU described by a versioned data file ---------===//
///
/// \file
/// A device profile is what klaraptor knows about a GPU without asking it:
/// the values of cudaDeviceProp and the occupancy calculator's allocation
/// granularities. Profiles are text files in profiler/devices/ (one per GPU,
/// every value with its source); they are compiled into the library so that
/// a name ("h100-sxm") always resolves, and copied to
/// <prefix>/share/klaraptor/devices as examples for new ones. The emulated
/// CUDA runtime reports the profile selected by KLARAPTOR_EMU_DEVICE.
///
/// Format (docs/emulator.md, "Device profiles"): `key = value` lines, `#`
/// comments; the first setting is `format = 1`; `inherit = <name>` (right
/// after it) starts from a built-in profile. Values are integers, integer
/// lists separated by blanks, "quoted strings" or words. No LLVM, no CUDA.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_DEVICES_DEVICEPROFILE_H
#define KLARAPTOR_PROFILER_DEVICES_DEVICEPROFILE_H

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace klaraptor::devices {

struct DeviceProfile {
  std::string Id;     ///< short name, e.g. "h100-sxm"
  std::string Origin; ///< "built-in" or the file it was read from
  std::string Name;   ///< cudaDeviceProp::name

  // cudaDeviceProp fields, same names and units.
  int64_t Major = 0, Minor = 0;
  int64_t MultiProcessorCount = 0;
  int64_t TotalGlobalMem = 0, TotalConstMem = 0;
  int64_t SharedMemPerBlock = 0, SharedMemPerBlockOptin = 0;
  int64_t SharedMemPerMultiprocessor = 0, ReservedSharedMemPerBlock = 0;
  int64_t RegsPerBlock = 0, RegsPerMultiprocessor = 0;
  int64_t WarpSize = 0, MaxThreadsPerBlock = 0;
  int64_t MaxThreadsDim[3] = {0, 0, 0}, MaxGridSize[3] = {0, 0, 0};
  int64_t MaxThreadsPerMultiProcessor = 0, MaxBlocksPerMultiProcessor = 0;
  int64_t L2CacheSize = 0, PersistingL2CacheMaxSize = 0;
  int64_t MemoryBusWidth = 0, ClockRate = 0, MemoryClockRate = 0;
  int64_t MemPitch = 0, TextureAlignment = 0, TexturePitchAlignment = 0;
  int64_t AsyncEngineCount = 0, ConcurrentKernels = 0, ECCEnabled = 0;
  int64_t UnifiedAddressing = 0, ManagedMemory = 0, ConcurrentManagedAccess = 0;
  int64_t CooperativeLaunch = 0, ClusterLaunch = 0;
  int64_t ComputePreemptionSupported = 0, GlobalL1CacheSupported = 0;
  int64_t LocalL1CacheSupported = 0, StreamPrioritiesSupported = 0;
  int64_t CanMapHostMemory = 0, Integrated = 0, MemoryPoolsSupported = 0;
  int64_t AccessPolicyMaxWindowSize = 0;

  // Occupancy calculator granularities.
  int64_t RegAllocUnitSize = 0; ///< registers allocated in units of this
  bool RegAllocPerWarp = true;  ///< per warp ("warp") or per block
  int64_t MaxRegsPerThread = 0;
  int64_t SmSubPartitions = 0; ///< register file split this many ways
  int64_t SharedMemAllocUnitSize = 0;
  /// Shared memory capacities an SM can be configured to, in KiB, ascending.
  std::vector<int64_t> SharedMemCarveoutKiB;

  /// Timing parameters of the estimator (`timing.<key> = <number>` lines;
  /// docs/timing.md), keyed without the `timing.` prefix: "dram.gap",
  /// "schedulers", ... Keys are those of timingKeys(); a profile may leave
  /// some out (the estimator then uses its defaults).
  std::map<std::string, double> Timing;

  /// Hardware parameters of the MWP-CWP model (`mwp.<key> = <number>`
  /// lines; docs/models.md), keyed without the `mwp.` prefix. Keys are those
  /// of mwpKeys(); the shipped profiles carry all of them.
  std::map<std::string, double> Mwp;

  int64_t arch() const { return Major * 10 + Minor; } ///< 90 for CC 9.0
  int64_t maxWarpsPerMultiProcessor() const {
    return WarpSize ? MaxThreadsPerMultiProcessor / WarpSize : 0;
  }

  /// Parses \p Text (the contents of \p Origin) over the current values.
  /// Errors name the line: "<origin>:12: unknown key 'foo'".
  bool parse(std::string_view Text, const std::string &Origin,
             std::string &Error);
};

/// The profile named by \p NameOrPath: a built-in name ("h100-sxm"), or a
/// file when it contains '/' or ends in ".device". Empty means the default.
bool loadDeviceProfile(std::string_view NameOrPath, DeviceProfile &P,
                       std::string &Error);

/// Makes the profile \p Text (the contents of \p Origin, e.g. "the profile
/// database x.db") loadable by its id in this process, in place of a
/// built-in profile of the same id: a database profiled with a profile file
/// stores the file's text, so that `fit` and `report` read it without the
/// file. \p Id receives the profile's id. False with \p Error when the text
/// does not parse or has no id. Thread-safe.
bool registerDeviceProfile(const std::string &Text, const std::string &Origin,
                           std::string &Id, std::string &Error);

/// Every timing key a profile may carry, without the `timing.` prefix
/// (`<resource>.latency`, `<resource>.gap` for int fp32 fp64 sfu lsu shared
/// l2 dram branch; schedulers, issue_gap, barrier_latency, l2_hit_rate,
/// clock_ghz, launch_overhead_ns). The shipped profiles carry all of them.
const std::vector<std::string> &timingKeys();

/// Every MWP-CWP key a profile may carry, without the `mwp.` prefix:
/// departure_del_coal, departure_del_uncoal, issue_cycles,
/// mem_bandwidth_gbs, load_bytes_per_warp (docs/models.md).
const std::vector<std::string> &mwpKeys();

/// The default profile's name ("h100-sxm").
const char *defaultDeviceProfile();
/// Names of the built-in profiles, sorted.
std::vector<std::string> builtinDeviceProfiles();

} // namespace klaraptor::devices

#endif // KLARAPTOR_PROFILER_DEVICES_DEVICEPROFILE_H
