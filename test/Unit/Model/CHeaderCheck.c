/*===- CHeaderCheck.c - mwp_cwp.h compiles as C and links --------------===*/
/**
 * \file
 * Compiled as C (as the generated rational programs are): evaluates MWP-CWP
 * on the default device profile through the C ABI only.
 */
/*===----------------------------------------------------------------------===*/
#include "klaraptor/mwp_cwp.h"

double klaraptorModelTestFromC(int *Status) {
  klaraptor_mwp_cwp_hw hw;
  klaraptor_mwp_cwp_inputs in = {0};
  *Status = klaraptor_mwp_cwp_hw_from_profile("h100-sxm", &hw);
  if (*Status != 0)
    return -1;
  in.comp_insts = 100;
  in.coal_mem_insts = 4;
  in.coal_per_mw = 1;
  in.uncoal_per_mw = 1;
  in.blocks = 264;
  in.threads_per_block = 256;
  in.regs_per_thread = 32;
  /* One line a load request: the lines model's time is MWP-CWP's. */
  in.load_lines_per_request = 1;
  if (klaraptor_mwp_cwp_lines_ns(&in, &hw) != klaraptor_mwp_cwp_ns(&in, &hw))
    *Status = 1;
  return klaraptor_mwp_cwp_ns(&in, &hw);
}
