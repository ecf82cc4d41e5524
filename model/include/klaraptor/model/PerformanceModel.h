//===- PerformanceModel.h - pluggable kernel performance models -----------===//
///
/// \file
/// A performance model predicts a launch's time from named per-launch
/// quantities (Inputs) and a device's HardwareParams. Models are found by
/// name in a registry, so one model can replace another (the default is
/// "mwp-cwp-lines", MWP-CWP stretched by the L1 lines of a load; "mwp-cwp"
/// is the baseline) without touching the pipeline: the fitter fits the inputs a
/// model lists, the rational programs evaluate the model by name.
/// Metrics records (docs/metrics.md keys) map to MWP-CWP inputs with
/// inputsFromMetrics (docs/models.md, "From metrics to inputs"). No LLVM.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_MODEL_PERFORMANCEMODEL_H
#define KLARAPTOR_MODEL_PERFORMANCEMODEL_H

#include "DeviceProfile.h"
#include "klaraptor/mwp_cwp.h"

#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace klaraptor::model {

/// Per-launch quantities by name ("comp_insts", "blocks", ...).
struct Inputs {
  std::map<std::string, double> Values;
  /// The value of \p Name, or \p Default when absent.
  double get(const std::string &Name, double Default = 0) const;
  void set(const std::string &Name, double V) { Values[Name] = V; }
};

/// What a model knows about the device: its profile (occupancy limits,
/// timing and mwp keys) and the MWP-CWP parameters derived from it.
struct HardwareParams {
  devices::DeviceProfile Profile;
  klaraptor_mwp_cwp_hw Mwp{};
};

/// HardwareParams of \p P (docs/models.md, "Parameters"); false with a
/// message when a parameter is missing.
bool hardwareParamsFromProfile(const devices::DeviceProfile &P,
                               HardwareParams &H, std::string &Error);
/// HardwareParams of the profile \p NameOrPath (loadDeviceProfile's rules).
bool loadHardwareParams(const std::string &NameOrPath, HardwareParams &H,
                        std::string &Error);

class PerformanceModel {
public:
  virtual ~PerformanceModel();
  virtual std::string name() const = 0;
  /// Names of the per-launch quantities predictCycles reads.
  virtual std::vector<std::string> inputs() const = 0;
  /// Predicted SM cycles; 0 for an empty launch, +infinity for a launch that
  /// cannot run.
  virtual double predictCycles(const Inputs &In,
                               const HardwareParams &H) const = 0;
  /// Predicted nanoseconds: predictCycles / the profile's clock.
  virtual double predictNs(const Inputs &In, const HardwareParams &H) const;
};

/// Nanoseconds of \p Cycles at \p HW's clock: 0 for 0 cycles, +infinity
/// without a clock (klaraptor_mwp_cwp_ns and klaraptor_waves_ns).
double cyclesToNs(double Cycles, const klaraptor_mwp_cwp_hw *HW);

/// The SMs a grid of \p Blocks occupies on \p SMs: min(SMs, ceil(Blocks))
/// (MWP-CWP's Active_SMs).
double activeSms(double Blocks, double SMs);
/// The blocks the block scheduler gives the busiest of those SMs:
/// ceil(Blocks / activeSms) (the wave and roofline models, the dispatch
/// bound).
double busiestSmBlocks(double Blocks, double SMs);

/// What the models that cost the busiest SM (waves, roofline) start from:
/// MWP-CWP's evaluation of the launch, for its guards and its occupancy.
struct BusiestSm {
  /// False when a guard decided (no inputs, an empty grid, no SMs, a block
  /// that cannot be resident): the model returns Cycles as it is.
  bool Ok = false;
  double Cycles = HUGE_VAL; ///< MWP-CWP's cycles (the guard's result)
  double ActiveBlocksPerSm = 0, ActiveSms = 0, Blocks = 0;
};
BusiestSm busiestSm(const klaraptor_mwp_cwp_inputs *In,
                    const klaraptor_mwp_cwp_hw *HW);

/// The MWP-CWP model ("mwp-cwp").
class MwpCwpModel : public PerformanceModel {
public:
  std::string name() const override { return "mwp-cwp"; }
  std::vector<std::string> inputs() const override;
  double predictCycles(const Inputs &In,
                       const HardwareParams &H) const override;
  /// The C structure for \p In (missing names are 0).
  static klaraptor_mwp_cwp_inputs toC(const Inputs &In);
  /// All terms of the evaluation.
  static klaraptor_mwp_cwp_terms evaluate(const Inputs &In,
                                          const HardwareParams &H);
};

/// The wave model ("waves"): MWP-CWP's equations per wave on
/// the busiest SM, the tail wave with the warps it really has
/// (klaraptor_waves_evaluate, docs/models.md). The inputs of MWP-CWP.
class WavesModel : public MwpCwpModel {
public:
  std::string name() const override { return "waves"; }
  double predictCycles(const Inputs &In,
                       const HardwareParams &H) const override;
};

/// The lines model ("mwp-cwp-lines", the default): MWP-CWP's time times the
/// L1 lines a global load request touches (klaraptor_mwp_cwp_lines_cycles,
/// docs/models.md, "The lines model"). MWP-CWP's inputs and
/// `load_lines_per_request`.
class MwpCwpLinesModel : public MwpCwpModel {
public:
  std::string name() const override { return "mwp-cwp-lines"; }
  std::vector<std::string> inputs() const override;
  double predictCycles(const Inputs &In,
                       const HardwareParams &H) const override;
};

/// The lines model's factor: max(1, \p LinesPerRequest); NaN for NaN.
double linesFactor(double LinesPerRequest);

/// The roofline model ("roofline"): the busiest SM's issue, DRAM
/// bandwidth, latency and block-dispatch bounds, the largest of them
/// (klaraptor_roofline_evaluate, docs/models.md). MWP-CWP's inputs and
/// `sectors_per_warp`, `active_warps_per_block`.
class RooflineModel : public MwpCwpModel {
public:
  std::string name() const override { return "roofline"; }
  std::vector<std::string> inputs() const override;
  double predictCycles(const Inputs &In,
                       const HardwareParams &H) const override;
};

using ModelFactory = std::function<std::unique_ptr<PerformanceModel>()>;
/// Registers (or replaces) the model \p Name. Thread-safe.
void registerModel(const std::string &Name, ModelFactory F);
/// A new instance of the model \p Name, or null when none is registered.
std::unique_ptr<PerformanceModel> createModel(const std::string &Name);
/// Registered names, sorted; "mwp-cwp" is always there.
std::vector<std::string> registeredModels();
/// "mwp-cwp-lines".
const char *defaultModel();

/// Options of the metrics -> inputs mapping.
struct MetricsMapping {
  /// A kind of global access (load, store, atomic) whose average sectors per
  /// request is at most this is coalesced: 32 lanes x 4 bytes = 4 sectors.
  double CoalescedSectorsPerRequest = 4;
  /// Bytes of one coalesced transaction (4 sectors of 32 bytes).
  double CoalescedTransactionBytes = 128;
};

/// MWP-CWP inputs from a metrics record (docs/metrics.md keys; docs/models.md
/// gives the rule). Launch shape from `blocks_launched` or grid_x*grid_y*
/// grid_z, and `threads_per_block` or block_x*block_y*block_z.
Inputs inputsFromMetrics(const std::map<std::string, double> &Record,
                         const MetricsMapping &M = MetricsMapping());

} // namespace klaraptor::model

#endif // KLARAPTOR_MODEL_PERFORMANCEMODEL_H
