//===- Waves.cpp - the wave model: MWP-CWP per wave on the busiest SM -----===//
///
/// \file
/// klaraptor_waves_evaluate (docs/models.md, "The wave model"). MWP-CWP
/// costs a launch as Rep = Blocks / (Active_blocks_per_SM * Active_SMs)
/// full-occupancy waves: a fraction of a wave costs that fraction, and the
/// blocks spread evenly over the SMs. On a GPU neither is true: the block
/// scheduler gives the busiest SM ceil(Blocks / SMs) blocks, the launch
/// lasts as long as that SM, and its last wave runs with only the blocks
/// left, so fewer warps hide each other's latency. The wave model runs the
/// MWP-CWP equations once per wave with the warps that wave really has:
/// full waves with N = warps per block * Active_blocks_per_SM, the tail
/// with N = warps per block * tail blocks.
//===----------------------------------------------------------------------===//
#include "klaraptor/mwp_cwp.h"
#include "klaraptor/model/PerformanceModel.h"

#include <algorithm>
#include <cmath>

namespace {

/// MWP-CWP cycles of one wave of \p Blocks resident blocks per SM on
/// \p ActiveSMs SMs: Rep = 1 and N = warps per block * Blocks.
double waveCycles(klaraptor_mwp_cwp_inputs In, const klaraptor_mwp_cwp_hw &HW,
                  double Blocks, double ActiveSMs) {
  In.active_blocks_per_sm = Blocks;
  In.blocks = Blocks * ActiveSMs; // Rep = blocks / (ABPS * SMs) = 1
  return klaraptor_mwp_cwp_cycles(&In, &HW);
}

/// The wave model's terms of \p In; T.cycles is the result.
klaraptor_waves_terms waves(const klaraptor_mwp_cwp_inputs *In,
                            const klaraptor_mwp_cwp_hw *HW) {
  klaraptor_waves_terms T{};
  // The guards of MWP-CWP (empty grid, no SMs, a block that cannot be
  // resident) and the occupancy: one evaluation of the launch as it is.
  klaraptor::model::BusiestSm B = klaraptor::model::busiestSm(In, HW);
  T.cycles = B.Cycles;
  if (!B.Ok)
    return T;
  double ABPS = B.ActiveBlocksPerSm;
  T.active_blocks_per_sm = ABPS;
  T.active_sms = B.ActiveSms;
  T.busiest_sm_blocks = B.Blocks;
  T.full_waves = std::floor(T.busiest_sm_blocks / ABPS);
  T.tail_blocks = T.busiest_sm_blocks - T.full_waves * ABPS;
  if (T.full_waves > 0)
    T.wave_cycles = waveCycles(*In, *HW, ABPS, T.active_sms);
  if (T.tail_blocks > 0)
    T.tail_cycles = waveCycles(*In, *HW, T.tail_blocks, T.active_sms);
  T.cycles = T.full_waves * T.wave_cycles + T.tail_cycles;
  return T;
}

} // namespace

extern "C" double klaraptor_waves_evaluate(const klaraptor_mwp_cwp_inputs *In,
                                           const klaraptor_mwp_cwp_hw *HW,
                                           klaraptor_waves_terms *Terms) {
  klaraptor_waves_terms T = waves(In, HW);
  if (Terms)
    *Terms = T;
  return T.cycles;
}

extern "C" double klaraptor_waves_ns(const klaraptor_mwp_cwp_inputs *In,
                                     const klaraptor_mwp_cwp_hw *HW) {
  return klaraptor::model::cyclesToNs(waves(In, HW).cycles, HW);
}
