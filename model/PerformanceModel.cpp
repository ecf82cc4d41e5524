//===- PerformanceModel.cpp - model registry, parameters, metrics mapping -===//
///
/// \file
/// The registry of performance models, MWP-CWP as a PerformanceModel, its
/// hardware parameters from a device profile, and the mapping from a metrics
/// record to its inputs (docs/models.md).
//===----------------------------------------------------------------------===//
#include "klaraptor/model/PerformanceModel.h"

#include <algorithm>
#include <cmath>
#include <mutex>

namespace klaraptor::model {

double Inputs::get(const std::string &Name, double Default) const {
  auto It = Values.find(Name);
  return It == Values.end() ? Default : It->second;
}

//===-- Hardware parameters ------------------------------------------------===//

bool hardwareParamsFromProfile(const devices::DeviceProfile &P,
                               HardwareParams &H, std::string &Error) {
  H.Profile = P;
  klaraptor_mwp_cwp_hw &W = H.Mwp;
  W = klaraptor_mwp_cwp_hw{};
  // The profile as the user named it: a file's path, not only the name it
  // declares or inherits.
  std::string Which = "device profile '" + P.Id + "'";
  if (!P.Origin.empty() && P.Origin != "built-in")
    Which += " (" + P.Origin + ")";
  for (const std::string &K : devices::mwpKeys())
    if (!P.Mwp.count(K)) {
      Error = Which + " has no 'mwp." + K + "'";
      return false;
    }
  auto DramLatency = P.Timing.find("dram.latency");
  if (DramLatency == P.Timing.end()) {
    Error = Which + " has no 'timing.dram.latency'";
    return false;
  }
  if (P.ClockRate <= 0 || P.MultiProcessorCount <= 0) {
    Error = Which + " needs a clockRate and a multiProcessorCount above 0";
    return false;
  }
  W.mem_ld = DramLatency->second;
  W.departure_del_coal = P.Mwp.at("departure_del_coal");
  W.departure_del_uncoal = P.Mwp.at("departure_del_uncoal");
  W.issue_cycles = P.Mwp.at("issue_cycles");
  W.mem_bandwidth_gbs = P.Mwp.at("mem_bandwidth_gbs");
  W.load_bytes_per_warp = P.Mwp.at("load_bytes_per_warp");
  W.freq_ghz = static_cast<double>(P.ClockRate) / 1e6; // kHz -> GHz
  W.active_sms = static_cast<double>(P.MultiProcessorCount);
  W.warp_size = P.WarpSize;
  W.max_threads_per_sm = P.MaxThreadsPerMultiProcessor;
  W.max_blocks_per_sm = P.MaxBlocksPerMultiProcessor;
  W.max_threads_per_block = P.MaxThreadsPerBlock;
  W.regs_per_sm = P.RegsPerMultiprocessor;
  W.regs_per_block = P.RegsPerBlock;
  W.max_regs_per_thread = P.MaxRegsPerThread;
  W.reg_alloc_unit = P.RegAllocUnitSize;
  W.reg_alloc_per_warp = P.RegAllocPerWarp ? 1 : 0;
  W.sm_sub_partitions = P.SmSubPartitions;
  W.shared_per_sm = P.SharedMemPerMultiprocessor;
  W.shared_per_block = P.SharedMemPerBlock;
  W.shared_per_block_optin = P.SharedMemPerBlockOptin;
  W.reserved_shared_per_block = P.ReservedSharedMemPerBlock;
  W.shared_alloc_unit = P.SharedMemAllocUnitSize;
  // A timing key that is absent or 0 is not measured: no dispatch bound, no
  // DRAM bound. A negative or non-finite value is the profile loader's error
  // to report; here it is 0 too.
  auto Positive = [&](const char *Key) {
    auto It = P.Timing.find(Key);
    return It != P.Timing.end() && std::isfinite(It->second) && It->second > 0
               ? It->second
               : 0.0;
  };
  W.block_launch_cycles = Positive("block_launch_cycles");
  W.dram_gap = Positive("dram.gap");
  return true;
}

bool loadHardwareParams(const std::string &NameOrPath, HardwareParams &H,
                        std::string &Error) {
  devices::DeviceProfile P;
  if (!devices::loadDeviceProfile(NameOrPath, P, Error))
    return false;
  return hardwareParamsFromProfile(P, H, Error);
}

//===-- Models -------------------------------------------------------------===//

PerformanceModel::~PerformanceModel() = default;

double PerformanceModel::predictNs(const Inputs &In,
                                   const HardwareParams &H) const {
  return cyclesToNs(predictCycles(In, H), &H.Mwp);
}

std::vector<std::string> MwpCwpModel::inputs() const {
  return {"comp_insts",  "coal_mem_insts",    "uncoal_mem_insts",
          "synch_insts", "coal_per_mw",       "uncoal_per_mw",
          "blocks",      "threads_per_block", "regs_per_thread",
          "shared_per_block"};
}

klaraptor_mwp_cwp_inputs MwpCwpModel::toC(const Inputs &In) {
  klaraptor_mwp_cwp_inputs C{};
  C.comp_insts = In.get("comp_insts");
  C.coal_mem_insts = In.get("coal_mem_insts");
  C.uncoal_mem_insts = In.get("uncoal_mem_insts");
  C.synch_insts = In.get("synch_insts");
  C.coal_per_mw = In.get("coal_per_mw");
  C.uncoal_per_mw = In.get("uncoal_per_mw");
  C.blocks = In.get("blocks");
  C.threads_per_block = In.get("threads_per_block");
  C.regs_per_thread = In.get("regs_per_thread");
  C.shared_per_block = In.get("shared_per_block");
  C.active_blocks_per_sm = In.get("active_blocks_per_sm");
  C.sectors_per_warp = In.get("sectors_per_warp");
  C.active_warps_per_block = In.get("active_warps_per_block");
  C.load_lines_per_request = In.get("load_lines_per_request");
  return C;
}

klaraptor_mwp_cwp_terms MwpCwpModel::evaluate(const Inputs &In,
                                              const HardwareParams &H) {
  klaraptor_mwp_cwp_inputs C = toC(In);
  klaraptor_mwp_cwp_terms T{};
  klaraptor_mwp_cwp_evaluate(&C, &H.Mwp, &T);
  return T;
}

double MwpCwpModel::predictCycles(const Inputs &In,
                                  const HardwareParams &H) const {
  klaraptor_mwp_cwp_inputs C = toC(In);
  return klaraptor_mwp_cwp_cycles(&C, &H.Mwp);
}

double WavesModel::predictCycles(const Inputs &In,
                                 const HardwareParams &H) const {
  klaraptor_mwp_cwp_inputs C = MwpCwpModel::toC(In);
  return klaraptor_waves_evaluate(&C, &H.Mwp, nullptr);
}

std::vector<std::string> MwpCwpLinesModel::inputs() const {
  std::vector<std::string> Names = MwpCwpModel::inputs();
  Names.push_back("load_lines_per_request");
  return Names;
}

double MwpCwpLinesModel::predictCycles(const Inputs &In,
                                       const HardwareParams &H) const {
  klaraptor_mwp_cwp_inputs C = MwpCwpModel::toC(In);
  return klaraptor_mwp_cwp_lines_cycles(&C, &H.Mwp);
}

std::vector<std::string> RooflineModel::inputs() const {
  std::vector<std::string> Names = MwpCwpModel::inputs();
  Names.push_back("sectors_per_warp");
  Names.push_back("active_warps_per_block");
  return Names;
}

double RooflineModel::predictCycles(const Inputs &In,
                                    const HardwareParams &H) const {
  klaraptor_mwp_cwp_inputs C = MwpCwpModel::toC(In);
  return klaraptor_roofline_evaluate(&C, &H.Mwp, nullptr);
}

//===-- Registry -----------------------------------------------------------===//

namespace {
struct Registry {
  std::mutex Lock;
  std::map<std::string, ModelFactory> Factories;
  Registry() {
    Factories["mwp-cwp"] = [] { return std::make_unique<MwpCwpModel>(); };
    Factories["mwp-cwp-lines"] = [] {
      return std::make_unique<MwpCwpLinesModel>();
    };
    Factories["waves"] = [] { return std::make_unique<WavesModel>(); };
    Factories["roofline"] = [] { return std::make_unique<RooflineModel>(); };
  }
};
Registry &registry() {
  static Registry R;
  return R;
}
} // namespace

void registerModel(const std::string &Name, ModelFactory F) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  R.Factories[Name] = std::move(F);
}

std::unique_ptr<PerformanceModel> createModel(const std::string &Name) {
  Registry &R = registry();
  ModelFactory F;
  {
    std::lock_guard<std::mutex> G(R.Lock);
    auto It = R.Factories.find(Name);
    if (It == R.Factories.end())
      return nullptr;
    F = It->second;
  }
  return F ? F() : nullptr;
}

std::vector<std::string> registeredModels() {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  std::vector<std::string> Names;
  for (const auto &KV : R.Factories)
    Names.push_back(KV.first);
  return Names;
}

const char *defaultModel() { return "mwp-cwp-lines"; }

//===-- Metrics -> inputs --------------------------------------------------===//

Inputs inputsFromMetrics(const std::map<std::string, double> &Record,
                         const MetricsMapping &M) {
  auto Get = [&](const char *K) {
    auto It = Record.find(K);
    return It == Record.end() ? 0.0 : It->second;
  };
  auto Has = [&](const char *K) { return Record.count(K) != 0; };
  Inputs In;
  double Blocks = Has("blocks_launched")
                      ? Get("blocks_launched")
                      : (Has("grid_x") ? Get("grid_x") *
                                             (Has("grid_y") ? Get("grid_y") : 1) *
                                             (Has("grid_z") ? Get("grid_z") : 1)
                                       : 0);
  double Threads =
      Has("threads_per_block")
          ? Get("threads_per_block")
          : (Has("block_x") ? Get("block_x") *
                                  (Has("block_y") ? Get("block_y") : 1) *
                                  (Has("block_z") ? Get("block_z") : 1)
                            : 0);
  double Warps = Get("warps_launched");
  if (!(Warps > 0) && Blocks > 0 && Threads > 0)
    Warps = Blocks * std::ceil(Threads / 32);
  In.set("blocks", Blocks);
  In.set("threads_per_block", Threads);
  In.set("regs_per_thread", Get("registers_per_thread"));
  In.set("shared_per_block",
         Get("static_shared_bytes") + Get("dynamic_shared_bytes_per_block"));

  // Each kind of global access is classified on its average sectors per
  // request.
  double CoalReq = 0, CoalTrans = 0, UncoalReq = 0, UncoalTrans = 0;
  double SectorsPerTransaction = std::max(1.0, M.CoalescedTransactionBytes / 32);
  for (const char *Kind : {"load", "store", "atomic"}) {
    double Req = Get(("global_" + std::string(Kind) + "_requests").c_str());
    double Sec = Get(("global_" + std::string(Kind) + "_sectors").c_str());
    if (!(Req > 0))
      continue;
    double PerReq = Sec / Req;
    if (PerReq <= M.CoalescedSectorsPerRequest) {
      CoalReq += Req;
      CoalTrans += Req * std::max(1.0, std::ceil(PerReq / SectorsPerTransaction));
    } else {
      UncoalReq += Req;
      UncoalTrans += Sec; // one transaction per sector
    }
  }
  double MemReq = CoalReq + UncoalReq;
  double Sectors = Get("global_load_sectors") + Get("global_store_sectors") +
                   Get("global_atomic_sectors");
  double Comp = std::max(0.0, Get("inst_executed") - MemReq);
  auto PerWarp = [&](double V) { return Warps > 0 ? V / Warps : 0.0; };
  In.set("comp_insts", PerWarp(Comp));
  In.set("coal_mem_insts", PerWarp(CoalReq));
  In.set("uncoal_mem_insts", PerWarp(UncoalReq));
  In.set("synch_insts", PerWarp(Get("inst_barrier")));
  In.set("coal_per_mw", CoalReq > 0 ? CoalTrans / CoalReq : 1);
  In.set("uncoal_per_mw", UncoalReq > 0 ? UncoalTrans / UncoalReq : 1);
  In.set("sectors_per_warp", PerWarp(Sectors));
  // The L1 lines of a load request (the lines model); 0: not counted.
  double LoadReq = Get("global_load_requests");
  In.set("load_lines_per_request",
         LoadReq > 0 ? Get("global_load_lines") / LoadReq : 0);
  // Warps with a thread inside the data (a fitted record's `active_warps`,
  // where the grid formula gives the data's extents); 0: unknown.
  In.set("active_warps_per_block",
         Has("active_warps") && Blocks > 0 ? Get("active_warps") / Blocks : 0);
  return In;
}

} // namespace klaraptor::model

extern "C" int klaraptor_mwp_cwp_hw_from_profile(const char *NameOrPath,
                                                 klaraptor_mwp_cwp_hw *HW) {
  if (!HW)
    return -1;
  klaraptor::model::HardwareParams H;
  std::string Error;
  if (!klaraptor::model::loadHardwareParams(NameOrPath ? NameOrPath : "", H,
                                            Error))
    return -1;
  *HW = H.Mwp;
  return 0;
}
