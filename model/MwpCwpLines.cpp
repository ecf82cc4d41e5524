//===- MwpCwpLines.cpp - MWP-CWP scaled by the L1 lines of a load ---------===//
///
/// \file
/// klaraptor_mwp_cwp_lines_evaluate (docs/models.md, "The lines model").
/// MWP-CWP costs a coalesced load request as one transaction whatever the
/// lines it touches, so a 16-wide block, whose warps read two half lines a
/// request, ties with a 32-wide one, which reads one whole line. The L1
/// data path serves a request one 128-byte line (wavefront) at a time, and
/// the warp waits for the last: the lines model stretches MWP-CWP's time by
/// the lines a load request touches on average. One line or fewer (or no
/// count): MWP-CWP's time as it is.
//===----------------------------------------------------------------------===//
#include "klaraptor/mwp_cwp.h"
#include "klaraptor/model/PerformanceModel.h"

#include <cmath>

double klaraptor::model::linesFactor(double LinesPerRequest) {
  if (std::isnan(LinesPerRequest))
    return NAN;
  return LinesPerRequest > 1 ? LinesPerRequest : 1.0;
}

extern "C" double
klaraptor_mwp_cwp_lines_cycles(const klaraptor_mwp_cwp_inputs *In,
                               const klaraptor_mwp_cwp_hw *HW) {
  double Cycles = klaraptor_mwp_cwp_cycles(In, HW);
  // An empty launch stays 0 and one that cannot run stays +infinity.
  if (!In || Cycles == 0 || std::isinf(Cycles))
    return Cycles;
  return Cycles * klaraptor::model::linesFactor(In->load_lines_per_request);
}

extern "C" double klaraptor_mwp_cwp_lines_ns(const klaraptor_mwp_cwp_inputs *In,
                                             const klaraptor_mwp_cwp_hw *HW) {
  return klaraptor::model::cyclesToNs(klaraptor_mwp_cwp_lines_cycles(In, HW),
                                      HW);
}
