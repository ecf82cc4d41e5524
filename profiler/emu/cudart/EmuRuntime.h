//===- EmuRuntime.h - the state behind the emulated CUDA runtime ----------===//
///
/// \file
/// libklaraptor_emu_cudart implements the CUDA runtime API
/// (RuntimeApi.cpp) and the driver-API subset programs use (DriverApi.cpp)
/// on top of this one process-wide state: the emulated device (a
/// DeviceProfile), the modules loaded from the program's fatbins or from
/// PTX, device memory (host memory: a device pointer is a host pointer),
/// streams, events, errors, and the launch path into the PTX emulator.
///
/// Work is executed eagerly, in call order, on the calling thread: a kernel
/// launch or an "async" copy has finished when the call returns. That keeps
/// every stream in order and orders streams among themselves more strictly
/// than CUDA requires, which no correct program can tell apart.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_CUDART_EMURUNTIME_H
#define KLARAPTOR_PROFILER_EMU_CUDART_EMURUNTIME_H

#include "FatBinary.h"

#include "DeviceProfile.h"
#include "Occupancy.h"
#include "emu/Emulator.h"
#include "Backend.h"
#include "Estimator.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace klaraptor::emurt {

struct LoadedModule;

/// One kernel of a loaded module: what cudaFunction_t / CUfunction point at.
struct Function {
  static constexpr uint32_t MagicValue = 0x6b666e31; // "1nfk"
  uint32_t Magic = MagicValue;
  LoadedModule *Module = nullptr;
  std::string Name; ///< the .entry name
  const emu::KernelInfo *Info = nullptr;
  uint32_t Registers = 0; ///< from the cubin; 0 when unknown
  uint32_t FrameSize = 0; ///< from the cubin
  bool InCubin = false;   ///< the cubin describes this kernel
  std::atomic<int64_t> MaxDynamicShared{-1}; ///< cudaFuncSetAttribute
  std::atomic<int64_t> Carveout{-1};

  devices::KernelResources resources() const;
};

/// cudaFuncSetAttribute of \p F (also behind cuFuncSetAttribute).
cudaError_t setFuncAttribute(Function &F, int Attr, int Value);

/// cudaFuncGetAttributes of \p F on \p D (also behind cuFuncGetAttribute).
void fillFuncAttributes(cudaFuncAttributes &A, const Function &F,
                        const devices::DeviceProfile &D);

/// One PTX module: from a registered fatbin or from cuModuleLoadData.
struct LoadedModule {
  static constexpr uint32_t MagicValue = 0x6b6d6f31; // "1omk"
  uint32_t Magic = MagicValue;
  std::string Origin; ///< where the PTX came from, for messages
  KernelImage Image;  ///< the PTX text stays alive as long as the module
  std::unique_ptr<emu::Module> M;
  std::mutex FunctionsMutex;
  std::map<std::string, std::unique_ptr<Function>, std::less<>> Functions;

  /// The kernel \p Name, or null when the PTX has no such .entry.
  Function *function(std::string_view Name);
};

/// A fatbin the program registered with __cudaRegisterFatBinary. Its module
/// is loaded on first use, as CUDA's lazy loading does.
struct FatbinRecord {
  const void *Wrapper = nullptr;
  std::once_flag Once;
  LoadedModule *Module = nullptr;
  cudaError_t Error = cudaSuccess;
  std::string Message;
};

struct Stream {
  static constexpr uint32_t MagicValue = 0x6b737431;
  uint32_t Magic = MagicValue;
  unsigned Flags = 0;
  int Priority = 0;
};

struct Event {
  static constexpr uint32_t MagicValue = 0x6b657631;
  uint32_t Magic = MagicValue;
  unsigned Flags = 0;
  bool Recorded = false;
  std::chrono::steady_clock::time_point Time;
};

struct Context {
  static constexpr uint32_t MagicValue = 0x6b637431;
  uint32_t Magic = MagicValue;
  bool Primary = false;
};

/// Registered: host memory the program owns, made visible to kernels by
/// cudaHostRegister (never freed here).
enum class MemoryKind { Device, Managed, Host, Registered };

/// What kernels may address, for the emulator's check of every global
/// access (emu::LaunchOptions::GlobalRanges): the allocations and the
/// modules' variables when the launch starts, as sorted [begin, end) ranges.
struct MemoryMap {
  std::vector<std::pair<uint64_t, uint64_t>> Ranges;
};

struct Allocation {
  size_t Size = 0;
  MemoryKind Kind = MemoryKind::Device;
};

/// A launch, from either API.
struct LaunchRequest {
  Function *F = nullptr;
  emu::Dim3 Grid, Block;
  size_t DynamicShared = 0;
  void *const *Args = nullptr;
  const void *Stream = nullptr; ///< cudaStream_t / CUstream
};

/// The name of \p E ("cudaErrorInvalidValue").
const char *errorName(cudaError_t E);

/// Runtime::get().unsupported(), for Unsupported.cpp.
int reportUnsupported(const char *Call, bool Driver);

class Runtime {
public:
  /// klaraptor_emu_estimate_next_launch / klaraptor_emu_last_launch_estimate
  /// (EmuCudart.h).
  static void estimateNextLaunch();
  static bool lastLaunchEstimate(double &Ns);
  /// The process's runtime; never destroyed (exit handlers may still call).
  static Runtime &get();

  // --- errors -----------------------------------------------------------
  /// Records \p E as the calling thread's last error (unless cudaSuccess)
  /// and returns it.
  cudaError_t ret(cudaError_t E);
  cudaError_t lastError(bool Reset);
  /// The error a failed kernel left (cudaSuccess when none): every later
  /// call that touches the device returns it, as on a GPU.
  cudaError_t sticky() const { return cudaError_t(Sticky.load()); }
  void clearSticky() { Sticky.store(0); }
  /// Prints "klaraptor emulator: <Message>" on stderr, once per message.
  void note(const std::string &Message);
  /// A call outside the emulated subset: says so once and returns
  /// cudaErrorNotSupported (== CUDA_ERROR_NOT_SUPPORTED); a runtime call
  /// also records it as the last error.
  int unsupported(const char *Call, bool Driver = false);

  // --- device -----------------------------------------------------------
  /// The emulated device, or null (reported once) when its profile could
  /// not be loaded.
  const devices::DeviceProfile *device();
  void fillProperties(cudaDeviceProp &P);
  /// cudaDeviceGetAttribute; the CUdevice_attribute values are the same.
  cudaError_t attribute(int Attr, int &Value);
  size_t limit(int Which) const;
  void setLimit(int Which, size_t Value);

  // --- modules and kernels ----------------------------------------------
  void **registerFatbin(const void *Wrapper);
  void registerFunction(void **Handle, const void *HostFun,
                        const char *DeviceName);
  void registerVar(void **Handle, const void *HostVar, const char *DeviceName,
                   size_t Size, bool Constant);
  /// The kernel behind a host stub (loading its module), or an error.
  cudaError_t hostFunction(const void *HostFun, Function *&F);
  /// The device storage of a __device__ / __constant__ variable.
  cudaError_t hostVariable(const void *HostVar, void *&Address, size_t &Size);
  /// Loads PTX, a fatbin or a fatbin wrapper (cuModuleLoadData).
  CUresult loadModule(const void *Image, const std::string &Origin,
                      LoadedModule *&M);
  void unloadModule(LoadedModule *M);
  /// Makes \p F a valid CUfunction handle.
  void adoptFunction(Function *F);
  bool isFunction(const void *P);
  bool isModule(const void *P);
  /// Accepts our Function objects and, as an extension, host stubs.
  Function *asFunction(const void *P);

  // --- memory -------------------------------------------------------------
  cudaError_t allocate(void **Ptr, size_t Size, MemoryKind Kind);
  cudaError_t release(void *Ptr, bool Host);
  /// cudaHostRegister / cudaHostUnregister: \p Ptr's \p Size bytes become
  /// addressable by kernels, or stop being.
  cudaError_t registerHost(void *Ptr, size_t Size);
  cudaError_t unregisterHost(void *Ptr);
  /// The memory kernels may address now.
  MemoryMap memoryMap();
  /// The allocation holding \p Ptr (base and record), if any.
  bool findAllocation(const void *Ptr, const void *&Base, Allocation &A);
  void memInfo(size_t &Free, size_t &Total);

  // --- streams, events, contexts ------------------------------------------
  bool validStream(const void *S);
  Stream *createStream(unsigned Flags, int Priority);
  bool destroyStream(const void *S);
  Event *createEvent(unsigned Flags);
  Event *event(const void *E);
  bool destroyEvent(const void *E);
  Context *primaryContext() { return &Primary; }
  Context *createContext();
  bool isContext(const void *C);
  bool destroyContext(const void *C);
  static Context *&currentContext();

  // --- launches -----------------------------------------------------------
  /// Validates \p R against the device and the kernel, then runs it. Errors
  /// of the configuration are returned; errors while running become sticky.
  cudaError_t launch(const LaunchRequest &R);
  /// The configuration checks of launch(): cudaSuccess or the error a
  /// launch of \p R would return.
  cudaError_t checkLaunch(const LaunchRequest &R);
  /// klaraptor_emu_sweep (EmuCudart.h): \p R's kernel once per shape, on
  /// saved and restored memory. Returns 0, or -1 with \p Error.
  int sweep(const LaunchRequest &R, const uint32_t *Shapes, uint32_t Count,
            int Flags, void (*Fn)(void *, uint32_t, const void *, const char *),
            void *Ctx, std::string &Error);
  int setObserver(void (*Fn)(void *, const void *), void *Ctx);

  /// __cudaPushCallConfiguration / __cudaPopCallConfiguration.
  struct CallConfig {
    dim3 Grid, Block;
    size_t Shared = 0;
    void *Stream = nullptr;
  };
  static std::vector<CallConfig> &callStack();

  bool driverInitialized() const { return DriverInit.load(); }
  void initDriver() { DriverInit.store(true); }

  /// cudaDeviceReset: frees device memory, forgets the sticky error.
  void reset();

private:
  /// This thread's klaraptor_emu_estimate_next_launch request and the
  /// estimate that answered it (-1: none).
  static thread_local bool EstimateRequested;
  static thread_local double LastEstimateNs;
  Runtime();
  bool ensureLoaded(FatbinRecord &R);
  /// What one executed launch left: metrics, its one-SM trace, host time.
  struct Measured {
    emu::LaunchMetrics Metrics;
    std::unique_ptr<timing::TraceCollector> Trace;
    const timing::TimingParams *TP = nullptr;
    const emu::KernelProgram *Prog = nullptr;
    double Seconds = 0;
    /// The launch's GlobalCheck data (memoryMap()).
    MemoryMap Memory;
  };
  /// Executes \p R (checked by checkLaunch; the caller holds LaunchMutex),
  /// with metrics and/or the trace of one SM's wave for an estimate.
  emu::LaunchResult runMeasured(const LaunchRequest &R, bool WantMetrics,
                                bool WantTrace, Measured &M);
  /// The time estimate from \p M's trace.
  bool estimateMeasured(const LaunchRequest &R, const Measured &M,
                        timing::LaunchEstimate &E, std::string &Why);
  /// The launch record (docs/metrics.md) of a finished launch.
  profiler::LaunchRecord makeRecord(const LaunchRequest &R,
                                    const emu::LaunchMetrics &M,
                                    double Seconds,
                                    const timing::LaunchEstimate *E);
  void report(const LaunchRequest &R, const emu::LaunchMetrics &M,
              double Seconds, const timing::LaunchEstimate *E);
  /// The timing parameters (loaded on first use), or null when estimates
  /// are off or the parameters could not be read.
  const timing::TimingParams *timingParams();

  std::atomic<int> Sticky{0};
  std::atomic<bool> DriverInit{false};

  std::mutex NoteMutex;
  std::set<std::string> Noted;

  std::once_flag DeviceOnce;
  std::unique_ptr<devices::DeviceProfile> Device;
  mutable std::mutex LimitsMutex;
  std::map<int, size_t> Limits;

  std::mutex RegistryMutex;
  std::vector<std::unique_ptr<FatbinRecord>> Fatbins;
  struct HostFun {
    FatbinRecord *Fatbin;
    std::string DeviceName;
  };
  std::unordered_map<const void *, HostFun> HostFunctions;
  struct HostVar {
    FatbinRecord *Fatbin;
    std::string DeviceName;
    size_t Size;
  };
  std::unordered_map<const void *, HostVar> HostVars;
  std::set<const void *> Modules, Functions;

  std::mutex MemoryMutex;
  std::map<uintptr_t, Allocation> Allocations;
  size_t DeviceBytes = 0;

  std::mutex HandleMutex;
  std::set<const void *> Streams, Events, Contexts;
  Context Primary;

  // The emulator runs one launch at a time: Module is not required to be
  // reentrant, and launches from several host threads are serialized as a
  // GPU would (per device) serialize them without concurrent kernels.
  std::mutex LaunchMutex;
  unsigned HostThreads = 1;
  uint64_t SampleBlocks = 0;
  std::string ReportPath;
  bool Estimate = true; ///< KLARAPTOR_EMU_ESTIMATE
  /// KLARAPTOR_EMU_CHECK_MEMORY: every global access is checked against
  /// the allocations and module variables (memoryMap()).
  bool CheckMemory = true;
  bool Execute = true;  ///< KLARAPTOR_EMU_EXECUTE
  std::once_flag TimingOnce;
  std::unique_ptr<timing::TimingParams> Timing;
  int ReportFd = -1;
  bool ReportFailed = false;
  // KLARAPTOR_EMU_EXPLAIN (Explain.cpp).
  std::string ExplainPath;
  uint64_t ExplainOnly = 0; ///< KLARAPTOR_EMU_EXPLAIN_LAUNCH, 0: every one
  std::atomic<uint64_t> ExplainCounter{0};
  void initExplain();
  /// Counts a launch; whether it is to be explained.
  bool explainThis();
  /// Every allocation and \p F's module variables, copied before the
  /// launches of a sweep; restoreMemory copies them back. With
  /// \p FollowWrites, while it lives the launches note the pages they write
  /// (emu::LaunchOptions::WrittenPages) and restoreMemory copies back only
  /// those: what estimates want (they run a few blocks of a grid whose data
  /// may be gigabytes); a run of the whole grid writes most of its output
  /// anyway, and noting its stores costs more than the copy saves.
  class SavedMemory {
  public:
    SavedMemory(Runtime &R, const Function &F, bool FollowWrites);
    ~SavedMemory();
    SavedMemory(const SavedMemory &) = delete;
    SavedMemory &operator=(const SavedMemory &) = delete;

  private:
    friend class Runtime;
    Runtime &R;
    std::vector<std::pair<char *, std::vector<char>>> Regions;
    std::vector<uint64_t> Written; ///< since the last restore
    bool FollowWrites;
  };
  /// Where the launches note the pages they write (runMeasured,
  /// estimateShape), or null; set while a SavedMemory lives.
  std::vector<uint64_t> *WrittenPages = nullptr;
  /// Puts back what the launches since \p Saved was made (or since the last
  /// restore) wrote into its regions.
  void restoreMemory(SavedMemory &Saved);
  /// Runs one SM's wave of \p F at \p Grid x \p Block and estimates it
  /// (traceShape, then TracedShape::estimate).
  bool estimateShape(const Function &F, const LaunchRequest &R,
                     const emu::Dim3 &Grid, const emu::Dim3 &Block,
                     int Regions, timing::LaunchEstimate &E,
                     std::unique_ptr<timing::SmWorkload> *W, std::string &Why);
  /// The traced blocks of one shape, and what their estimate needs: it
  /// reads nothing of the runtime's, so it may run on another thread while
  /// the next shape's blocks run (sweep).
  struct TracedShape {
    const emu::KernelProgram *Prog = nullptr;
    const devices::DeviceProfile *D = nullptr;
    const timing::TimingParams *TP = nullptr;
    devices::KernelResources K;
    emu::Dim3 Grid, Block;
    uint64_t DynamicShared = 0;
    std::unique_ptr<timing::TraceCollector> C;
    /// The traced blocks' metrics, for the bound by same-address atomics
    /// (counted only when TP has it).
    emu::LaunchMetrics Metrics;
    unsigned Threads = 1; ///< for its simulations (KLARAPTOR_EMU_THREADS)
    bool estimate(int Regions, timing::LaunchEstimate &E,
                  std::unique_ptr<timing::SmWorkload> *W,
                  std::string &Why) const;
  };
  /// Runs (traced) the blocks of one SM's wave of \p F at \p Grid x
  /// \p Block into \p T; false with \p Why when it cannot.
  bool traceShape(const Function &F, const LaunchRequest &R,
                  const emu::Dim3 &Grid, const emu::Dim3 &Block,
                  TracedShape &T, std::string &Why);
  std::string explainShape(const char *Title, const Function &F,
                           const timing::LaunchEstimate &E,
                           const timing::SmWorkload *W, const emu::Dim3 &Grid,
                           const emu::Dim3 &Block,
                           uint64_t DynamicShared);
  /// Estimates every admissible candidate of \p R's kernel (memory saved
  /// and restored) and appends the best one's report to \p Out.
  void explainCandidates(const LaunchRequest &R, std::string &Out,
                         double &BestNs);
  /// Writes the report of a finished launch: its own shape from \p Trace
  /// and the launch's \p Metrics (as estimateMeasured), then
  /// \p CandidateText (explainCandidates).
  void explainOwn(const LaunchRequest &R, const timing::TraceCollector *Trace,
                  const emu::KernelProgram *Prog,
                  const emu::LaunchMetrics &Metrics,
                  const std::string &CandidateText, double BestNs);
  /// KLARAPTOR_EMU_EXECUTE=0: the launch does not run, so its own shape is
  /// estimated as a candidate is (its two SMs' blocks traced on saved and
  /// restored memory), then the candidates; the report says so.
  void explainUnexecuted(const LaunchRequest &R);
  /// Writes a launch's report: its heading (with \p Note after the
  /// device), the own shape's analysis (\p Ok) or why there is none,
  /// \p CandidateText and own / best.
  void writeLaunchReport(const LaunchRequest &R, const char *Note, bool Ok,
                         const timing::LaunchEstimate &E,
                         const timing::SmWorkload *W, const std::string &Why,
                         const std::string &CandidateText, double BestNs);
  void writeExplain(const std::string &Text);

  std::mutex ObserverMutex;
  void (*Observer)(void *, const void *) = nullptr;
  void *ObserverCtx = nullptr;
};

} // namespace klaraptor::emurt

#endif // KLARAPTOR_PROFILER_EMU_CUDART_EMURUNTIME_H
