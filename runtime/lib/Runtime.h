//===- Runtime.h - launch decisions for annotated kernels -----------------===//
///
/// \file
/// The Runtime owns the registered kernels and models, the device limits,
/// the memoised decisions and the logs. The C entry points of
/// klaraptor_rt.h forward to Runtime::global(); tests build their own
/// instances with a chosen Config and injected device limits.
///
/// A launch: find the kernel, compute its data values, look the key
/// (device, data values) up in the kernel's history; on a
/// miss enumerate the admissible candidates, ask the kernel's model for each
/// and keep the fastest (docs/runtime-abi.md gives the rules).
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_RUNTIME_H
#define KLARAPTOR_RUNTIME_RUNTIME_H

#include "Candidates.h"
#include "Config.h"
#include "DecisionCache.h"
#include "DecisionLog.h"
#include "DeviceQuery.h"
#include "Diagnostics.h"
#include "KernelRegistry.h"
#include "ModelRegistry.h"
#include "ProfilerPlugin.h"
#include "klaraptor/klaraptor_rt.h"

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <set>
#include <vector>

namespace klaraptor {

class Runtime {
public:
  explicit Runtime(const Config &C, const CudaApi &Api = CudaApi::process());
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  /// The process's runtime, configured from the environment on first use
  /// and never destroyed.
  static Runtime &global();
  /// Whether the process runs a GPU build (the real CUDA runtime, not the
  /// emulator's) with the runtime on, and \p DeviceNodes says the machine
  /// has no NVIDIA device node: its CUDA calls will fail.
  bool gpuBuildWithoutGpu(bool DeviceNodes) const;
  /// At exit of such a process: when no annotated launch reached the
  /// runtime, warns once and names --klaraptor-emulate.
  void noteNoLaunchWithoutGpu();
  /// Whether any of \p Paths exists.
  static bool anyPathExists(std::initializer_list<const char *> Paths);

  klaraptor_status registerKernel(const klaraptor_kernel_desc *K);
  klaraptor_status launch(const klaraptor_kernel_desc *K,
                          klaraptor_launch_info *Info);
  klaraptor_status launchHandle(const void *Handle,
                                klaraptor_launch_info *Info);
  klaraptor_status launchCuFunction(void *Function,
                                    klaraptor_launch_info *Info);
  klaraptor_status registerModel(const char *Kernel,
                                 const klaraptor_model *M);
  void clearHistory();

  Mode mode() const { return Cfg.TheMode; }
  Diagnostics &diagnostics() { return Diags; }
  DeviceQuery &devices() { return Devices; }
  KernelRegistry &kernels() { return Kernels; }
  /// Decisions made so far (memoised launches not counted).
  uint64_t decisionCount() const { return Decisions.load(); }

  /// The admissible candidates of the annotated kernel named \p Kernel
  /// (device or source name) for a launch with argument array \p Args on
  /// the current device, in enumeration order (klaraptor_candidates).
  klaraptor_status candidates(const char *Kernel, void *const *Args,
                              std::vector<Candidate> &Out);

  /// Replaces the device (tests, benchmarks) and forgets every decision.
  klaraptor_status setDeviceOverride(const klaraptor_device_info *Info);

private:
  Config Cfg;
  Diagnostics Diags;
  DecisionLog Log;
  DecisionCache Cache;
  DeviceQuery Devices;
  KernelRegistry Kernels;
  ModelRegistry Models;
  ProfilerPlugin Plugin;
  std::atomic<uint64_t> Decisions{0};
  /// Whether any launch reached launchEntry (noteNoLaunchWithoutGpu).
  std::atomic<bool> AnyLaunch{false};
  /// Profile mode: (kernel id, device, data) already swept by this process.
  std::mutex ProfiledMutex;
  std::set<std::vector<int64_t>> Profiled;

  klaraptor_status checkInfo(const klaraptor_launch_info *Info);
  klaraptor_status launchEntry(KernelEntry &E, klaraptor_launch_info *Info,
                               void *CuFunction);
  bool dataValues(KernelEntry &E, const klaraptor_launch_info *Info,
                  int64_t *Out);
  /// The admissible candidates of a launch of \p E on \p Device; null
  /// device info (with \p Why) when the device's limits are unknown.
  /// The caller holds E.DecideMutex.
  const klaraptor_device_info *admissible(KernelEntry &E, int Device,
                                          const int64_t *Data,
                                          void *CuFunction,
                                          std::vector<Candidate> &Cands,
                                          RejectCounts *Rejects,
                                          std::string &Why);
  /// The launch limits of \p E on \p Device (\p Info) with the kernel's
  /// own thread limit, queried once per (device, CUfunction). The caller
  /// holds E.DecideMutex.
  LaunchLimits launchLimits(KernelEntry &E, int Device, void *CuFunction,
                            const klaraptor_device_info &Info);
  /// Whether the pragma's grid formula, at the program's own block, covers
  /// the grid the program launches (always, with KLARAPTOR_GRID_CHECK=off).
  /// When it does not, warns once per kernel, naming both grids, the data,
  /// the pragma's location and \p Consequence. The caller holds
  /// E.DecideMutex.
  bool gridCovers(KernelEntry &E, int Device, const int64_t *Data,
                  const Dim3 &ReqGrid, const Dim3 &ReqBlock, void *CuFunction,
                  const klaraptor_device_info &Dev, const char *Consequence);
  /// KLARAPTOR_MODE=profile: hands the launch and its candidates to the
  /// profiler plug-in once per (kernel, device, data); the launch keeps its
  /// configuration.
  klaraptor_status profileLaunch(KernelEntry &E, klaraptor_launch_info *Info,
                                 void *CuFunction, const int64_t *Key,
                                 size_t KeyLen);
  /// KLARAPTOR_BENCH: hands a new decision to the profiler plug-in.
  void benchDecision(KernelEntry &E, klaraptor_launch_info *Info,
                     void *CuFunction, int Device, const int64_t *Data,
                     const Decision &D, double DecisionNs);
  /// Fills the plug-in's view of a launch (pointers into the arguments).
  void describeLaunch(KernelEntry &E, const klaraptor_launch_info *Info,
                      void *CuFunction, const int64_t *Data,
                      const std::vector<Candidate> &Cands,
                      const klaraptor_device_info *Dev,
                      std::vector<const char *> &Names,
                      std::vector<klaraptor_candidate> &Out,
                      std::vector<uint64_t> &Shared,
                      klaraptor_profile_launch &L);
  /// The decision for a new key; with \p Ranking, a fresh model decision
  /// also gives the model's best shapes (its choice first, then by
  /// prediction; at most Cfg.RefineShapes) for the online refinement.
  Decision decide(KernelEntry &E, int Device, const int64_t *Data,
                  const Dim3 &ReqGrid, const Dim3 &ReqBlock, void *CuFunction,
                  std::vector<Refinement::Trial> *Ranking = nullptr,
                  std::string *CacheKeyOut = nullptr);
  /// Whether launches can be timed here (events, or the emulator's
  /// estimate) and KLARAPTOR_REFINE asks for two shapes or more.
  bool canRefine() const;
  /// A repeat of a key under refinement: the next trial's shape, timed
  /// until the after-launch hook; once every trial was launched, the
  /// fastest (finishRefinement).
  klaraptor_status refineLaunch(KernelEntry &E, Refinement &R,
                                const int64_t *Data,
                                klaraptor_launch_info *Info);
  /// Whether the launch's dynamic shared memory is what the pragma's
  /// shared(...) gives the program's own block (0 without the clause); if
  /// not, warns once per kernel: no other shape can be given the memory it
  /// needs.
  bool sharedMatches(KernelEntry &E, const int64_t *Data,
                     const klaraptor_launch_info *Info);
  /// Reads the trials' times, keeps the fastest, replaces the decision in
  /// the history, persists and logs it. R.M is held.
  void finishRefinement(KernelEntry &E, Refinement &R);
  /// A trial left pending by this thread's previous launch (its site has no
  /// after-launch hook) is given up.
  void dropPendingTrial();

public:
  /// __klaraptor_rt_launched: ends the timing of this thread's pending
  /// trial, if any.
  void launched(klaraptor_launch_info *Info, int Status);

private:
  void logDecision(KernelEntry &E, int Device, const int64_t *Data,
                   const Request &Req, bool Tuned, const Dim3 &Block,
                   const Dim3 &Grid, const DecisionRecord &R, bool Reused);
  static std::string dataText(const KernelEntry &E, const int64_t *Data);
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_RUNTIME_H
