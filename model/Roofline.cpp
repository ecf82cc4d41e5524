//===- Roofline.cpp - the roofline model: four bounds on the busiest SM ---===//
///
/// \file
/// klaraptor_roofline_evaluate (docs/models.md, "The roofline model"). The
/// block scheduler gives the busiest SM ceil(Blocks / SMs) blocks; that SM
/// takes at least as long as the slowest of four of its resources:
///   issue     its warp instructions, hw.issue_cycles apart;
///   DRAM      its sectors, each hw.dram_gap (its share of the bandwidth);
///   latency   each warp's requests one after another, hw.mem_ld each, the
///             resident warps that hold data overlapping theirs (idle warps
///             exit at once and hide nothing);
///   dispatch  its blocks, hw.block_launch_cycles apart.
/// Unlike MWP-CWP it reads sectors per warp, not a coalesced/uncoalesced
/// class, so two shapes differ by their sectors, not by a threshold.
//===----------------------------------------------------------------------===//
#include "klaraptor/mwp_cwp.h"
#include "klaraptor/model/PerformanceModel.h"

#include <algorithm>
#include <cmath>

namespace {

klaraptor_roofline_terms roofline(const klaraptor_mwp_cwp_inputs *In,
                                  const klaraptor_mwp_cwp_hw *HW) {
  klaraptor_roofline_terms T{};
  // MWP-CWP's guards (empty grid, no SMs, a block that cannot be resident)
  // and its occupancy calculation.
  klaraptor::model::BusiestSm B = klaraptor::model::busiestSm(In, HW);
  if (!B.Ok) {
    T.cycles = B.Cycles;
    return T;
  }
  double ABPS = B.ActiveBlocksPerSm;
  double Warps =
      std::ceil(In->threads_per_block / static_cast<double>(HW->warp_size));
  T.active_blocks_per_sm = ABPS;
  T.active_sms = B.ActiveSms;
  T.busiest_sm_blocks = B.Blocks;
  double Requests = std::max(0.0, In->coal_mem_insts) +
                    std::max(0.0, In->uncoal_mem_insts);
  double Insts = std::max(0.0, In->comp_insts) + Requests;
  double SMWarps = T.busiest_sm_blocks * Warps;
  T.issue_cycles = SMWarps * Insts * std::max(0.0, HW->issue_cycles);
  T.dram_cycles = SMWarps * std::max(0.0, In->sectors_per_warp) *
                  std::max(0.0, HW->dram_gap);
  double Active = In->active_warps_per_block > 0
                      ? std::min(Warps, In->active_warps_per_block)
                      : Warps;
  T.latency_cycles = T.busiest_sm_blocks / ABPS * (Requests * Warps / Active) *
                     std::max(0.0, HW->mem_ld);
  T.dispatch_cycles =
      T.busiest_sm_blocks * std::max(0.0, HW->block_launch_cycles);
  const double Bounds[4] = {T.issue_cycles, T.dram_cycles, T.latency_cycles,
                            T.dispatch_cycles};
  T.cycles = 0;
  for (int B = 0; B < 4; ++B)
    if (Bounds[B] > T.cycles) {
      T.cycles = Bounds[B];
      T.bound = B + 1;
    }
  return T;
}

} // namespace

extern "C" double
klaraptor_roofline_evaluate(const klaraptor_mwp_cwp_inputs *In,
                            const klaraptor_mwp_cwp_hw *HW,
                            klaraptor_roofline_terms *Terms) {
  klaraptor_roofline_terms T = roofline(In, HW);
  if (Terms)
    *Terms = T;
  return T.cycles;
}

extern "C" double klaraptor_roofline_ns(const klaraptor_mwp_cwp_inputs *In,
                                        const klaraptor_mwp_cwp_hw *HW) {
  return klaraptor::model::cyclesToNs(roofline(In, HW).cycles, HW);
}
