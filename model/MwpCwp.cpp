//===- MwpCwp.cpp - the MWP-CWP equations with guarded divisions ----------===//
///
/// \file
/// klaraptor_mwp_cwp_evaluate: Hong & Kim's equations as docs/models.md
/// writes them. Resident blocks per SM come from the occupancy calculator of
/// profiler/devices (computeOccupancy), fed with the limits in the hw
/// structure.
//===----------------------------------------------------------------------===//
#include "klaraptor/mwp_cwp.h"
#include "klaraptor/model/PerformanceModel.h"

#include "DeviceProfile.h"
#include "Occupancy.h"

#include <algorithm>
#include <cmath>
#include <string>

using namespace klaraptor;

namespace {

/// Resident blocks per SM by computeOccupancy on the limits of \p HW.
double activeBlocks(const klaraptor_mwp_cwp_inputs &In,
                    const klaraptor_mwp_cwp_hw &HW) {
  devices::DeviceProfile P;
  P.WarpSize = HW.warp_size;
  P.MaxThreadsPerMultiProcessor = HW.max_threads_per_sm;
  P.MaxBlocksPerMultiProcessor = HW.max_blocks_per_sm;
  P.MaxThreadsPerBlock = HW.max_threads_per_block;
  P.RegsPerMultiprocessor = HW.regs_per_sm;
  P.RegsPerBlock = HW.regs_per_block;
  P.MaxRegsPerThread = HW.max_regs_per_thread;
  P.RegAllocUnitSize = HW.reg_alloc_unit;
  P.RegAllocPerWarp = HW.reg_alloc_per_warp != 0;
  P.SmSubPartitions = HW.sm_sub_partitions;
  P.SharedMemPerMultiprocessor = HW.shared_per_sm;
  P.SharedMemPerBlock = HW.shared_per_block;
  P.SharedMemPerBlockOptin = HW.shared_per_block_optin;
  P.ReservedSharedMemPerBlock = HW.reserved_shared_per_block;
  P.SharedMemAllocUnitSize = HW.shared_alloc_unit;
  devices::KernelResources K;
  K.Registers = static_cast<int64_t>(std::ceil(In.regs_per_thread));
  K.StaticSharedBytes = static_cast<int64_t>(std::ceil(In.shared_per_block));
  // The whole block's shared memory is counted as static: the opt-in limit
  // (not the default 48 KB) then bounds it, as for a kernel that raised it.
  devices::Occupancy O = devices::computeOccupancy(
      P, K, static_cast<int64_t>(std::llround(In.threads_per_block)), 0);
  return static_cast<double>(std::max<int64_t>(0, O.ActiveBlocks));
}

} // namespace

extern "C" double klaraptor_mwp_cwp_evaluate(const klaraptor_mwp_cwp_inputs *In,
                                             const klaraptor_mwp_cwp_hw *HW,
                                             klaraptor_mwp_cwp_terms *Terms) {
  klaraptor_mwp_cwp_terms T{};
  auto Done = [&](double Cycles) {
    T.cycles = Cycles;
    if (Terms)
      *Terms = T;
    return Cycles;
  };
  if (!In || !HW)
    return Done(HUGE_VAL);
  const double Inf = HUGE_VAL;
  // Guard: an empty grid does nothing.
  if (!(In->blocks > 0))
    return Done(0);
  if (!(In->threads_per_block > 0) || !(HW->active_sms > 0) ||
      HW->warp_size <= 0)
    return Done(Inf);

  double ABPS = In->active_blocks_per_sm > 0 ? In->active_blocks_per_sm
                                             : activeBlocks(*In, *HW);
  T.active_blocks_per_sm = ABPS;
  // Guard: a block that cannot be resident never runs.
  if (!(ABPS > 0))
    return Done(Inf);
  double WarpsPerBlock =
      std::ceil(In->threads_per_block / static_cast<double>(HW->warp_size));
  double N = WarpsPerBlock * ABPS;
  T.n = N;
  // Active SMs: a grid smaller than the device occupies only Blocks SMs.
  double ActiveSMs = model::activeSms(In->blocks, HW->active_sms);

  double Coal = std::max(0.0, In->coal_mem_insts);
  double Uncoal = std::max(0.0, In->uncoal_mem_insts);
  double MemInsts = Coal + Uncoal;
  double Comp = std::max(0.0, In->comp_insts);
  // A transaction count below 1 has no meaning: at least one per request.
  double CoalPerMw = std::max(1.0, In->coal_per_mw);
  double UncoalPerMw = std::max(1.0, In->uncoal_per_mw);

  T.rep = In->blocks / (ABPS * ActiveSMs);
  T.comp_cycles = HW->issue_cycles * (Comp + MemInsts);

  // Guard: no memory instructions. Nothing waits on memory: MWP = CWP = N
  // and the warps' computation is issued back to back (the limit of the
  // third case with Mem_L = 0): Exec = Comp_cycles * N * Rep.
  if (!(MemInsts > 0)) {
    T.mwp = N;
    T.mwp_no_bw = N;
    T.cwp = N;
    T.exec = T.comp_cycles * N * T.rep;
    T.synch_cost = 0;
    T.exec_case = 0;
    return Done(T.exec);
  }

  T.mem_l_uncoal = HW->mem_ld + (UncoalPerMw - 1) * HW->departure_del_uncoal;
  T.mem_l_coal = HW->mem_ld + (CoalPerMw - 1) * HW->departure_del_coal;
  T.w_uncoal = Uncoal / MemInsts;
  T.w_coal = Coal / MemInsts;
  T.mem_l = T.mem_l_uncoal * T.w_uncoal + T.mem_l_coal * T.w_coal;
  T.departure_delay = HW->departure_del_uncoal * UncoalPerMw * T.w_uncoal +
                      HW->departure_del_coal * T.w_coal;
  // Guard: no departure delay means requests leave at once: MWP_no_BW = N.
  T.mwp_no_bw = T.departure_delay > 0 ? std::min(T.mem_l / T.departure_delay, N)
                                      : N;
  // Guard: Mem_L = 0 (no latency) or unlimited bandwidth drops the
  // bandwidth bound.
  T.bw_per_warp =
      T.mem_l > 0 ? HW->freq_ghz * HW->load_bytes_per_warp / T.mem_l : 0;
  T.mwp = std::min(T.mwp_no_bw, N);
  if (HW->mem_bandwidth_gbs > 0 && T.bw_per_warp > 0)
    T.mwp = std::min(T.mwp, HW->mem_bandwidth_gbs / (T.bw_per_warp * ActiveSMs));
  // Guard: MWP is a count of warps in flight; below one warp the memory is
  // still served one warp at a time (keeps N/MWP finite and MWP-1 >= 0).
  T.mwp = std::max(T.mwp, 1.0);
  T.mem_cycles = T.mem_l_uncoal * Uncoal + T.mem_l_coal * Coal;
  // Guard: no computation (Comp_cycles = 0) makes CWP unbounded: CWP = N.
  T.cwp = T.comp_cycles > 0
              ? std::min((T.mem_cycles + T.comp_cycles) / T.comp_cycles, N)
              : N;
  double CompPerMem = T.comp_cycles / MemInsts; // MemInsts > 0 here
  if (T.mwp == N && T.cwp == N) {
    T.exec_case = 1;
    T.exec = (T.mem_cycles + T.comp_cycles + CompPerMem * (T.mwp - 1)) * T.rep;
  } else if (T.cwp >= T.mwp || T.comp_cycles > T.mem_cycles) {
    T.exec_case = 2;
    T.exec = (T.mem_cycles * N / T.mwp + CompPerMem * (T.mwp - 1)) * T.rep;
  } else {
    T.exec_case = 3;
    T.exec = (T.mem_l + T.comp_cycles * N) * T.rep;
  }
  T.synch_cost = T.departure_delay * (T.mwp - 1) *
                 std::max(0.0, In->synch_insts) * ABPS * T.rep;
  return Done(T.exec + T.synch_cost);
}

extern "C" double klaraptor_mwp_cwp_cycles(const klaraptor_mwp_cwp_inputs *In,
                                           const klaraptor_mwp_cwp_hw *HW) {
  return klaraptor_mwp_cwp_evaluate(In, HW, nullptr);
}

double klaraptor::model::activeSms(double Blocks, double SMs) {
  return std::min(SMs, std::ceil(Blocks));
}

double klaraptor::model::busiestSmBlocks(double Blocks, double SMs) {
  return std::ceil(Blocks / activeSms(Blocks, SMs));
}

klaraptor::model::BusiestSm
klaraptor::model::busiestSm(const klaraptor_mwp_cwp_inputs *In,
                            const klaraptor_mwp_cwp_hw *HW) {
  BusiestSm B;
  if (!In || !HW)
    return B;
  klaraptor_mwp_cwp_terms Whole{};
  B.Cycles = klaraptor_mwp_cwp_evaluate(In, HW, &Whole);
  if (!(In->blocks > 0) || !std::isfinite(B.Cycles))
    return B;
  B.Ok = true;
  B.ActiveBlocksPerSm = Whole.active_blocks_per_sm;
  B.ActiveSms = activeSms(In->blocks, HW->active_sms);
  B.Blocks = busiestSmBlocks(In->blocks, HW->active_sms);
  return B;
}

double klaraptor::model::cyclesToNs(double Cycles,
                                    const klaraptor_mwp_cwp_hw *HW) {
  if (Cycles == 0)
    return 0;
  if (!HW || !(HW->freq_ghz > 0))
    return HUGE_VAL;
  return Cycles / HW->freq_ghz;
}

extern "C" double klaraptor_mwp_cwp_ns(const klaraptor_mwp_cwp_inputs *In,
                                       const klaraptor_mwp_cwp_hw *HW) {
  return klaraptor::model::cyclesToNs(klaraptor_mwp_cwp_cycles(In, HW), HW);
}

extern "C" double klaraptor_dispatch_bound_ns(const klaraptor_mwp_cwp_inputs *In,
                                              const klaraptor_mwp_cwp_hw *HW) {
  if (!In || !HW || !(HW->block_launch_cycles > 0) || !(In->blocks > 0) ||
      !(HW->active_sms > 0) || !(HW->freq_ghz > 0))
    return 0;
  return model::busiestSmBlocks(In->blocks, HW->active_sms) *
         HW->block_launch_cycles / HW->freq_ghz;
}
