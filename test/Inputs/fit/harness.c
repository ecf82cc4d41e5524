/* harness.c - calls a rational program of `klaraptor fit` without the
 * runtime, for test/Fit.
 *
 *   harness N,BX ...
 *
 * Links one generated DIR/<kernel>.c; its constructor registers the model
 * with the klaraptor_register_model below, which keeps it. For each point
 * prints "N=<N>,bx=<BX>: <program's prediction> <direct prediction>", the
 * direct one being klaraptor_mwp_cwp_ns on the MWP-CWP inputs of the known
 * formulas of test/Inputs/fit/make-db.py (saxpy), bounded below by the
 * block-dispatch bound, h100-sxm parameters. */
#include "klaraptor/klaraptor_rt.h"
#include "klaraptor/mwp_cwp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static klaraptor_model Registered;
static char RegisteredKernel[256];
static int Registrations;

klaraptor_status klaraptor_register_model(const char *kernel,
                                          const klaraptor_model *model) {
  ++Registrations;
  snprintf(RegisteredKernel, sizeof RegisteredKernel, "%s", kernel);
  Registered = *model;
  return KLARAPTOR_OK;
}

static double direct(double n, double bx, const klaraptor_mwp_cwp_hw *hw) {
  klaraptor_mwp_cwp_inputs in;
  double blocks = ceil(n / bx), warps = blocks * ceil(bx / 32);
  double inst = 3 * n / 8 + 16 * n / bx;
  double creq = n / 16, ureq = n / 32;
  memset(&in, 0, sizeof in);
  in.blocks = blocks;
  in.threads_per_block = bx;
  in.regs_per_thread = 16;
  in.shared_per_block = 4 * bx;
  in.comp_insts = (inst - creq - ureq) / warps;
  in.coal_mem_insts = creq / warps;
  in.uncoal_mem_insts = ureq / warps;
  in.synch_insts = (n / bx) / warps;
  in.coal_per_mw = 1;  /* 4 sectors per load request: one transaction */
  in.uncoal_per_mw = 32; /* 32 sectors per store request */
  /* At least the busiest SM's blocks times the profile's block-dispatch
   * rate (docs/models.md, "The block-dispatch bound"). */
  return fmax(klaraptor_mwp_cwp_ns(&in, hw), klaraptor_dispatch_bound_ns(&in, hw));
}

int main(int argc, char **argv) {
  klaraptor_mwp_cwp_hw hw;
  int i;
  if (Registrations != 1 || !Registered.predict) {
    fprintf(stderr, "harness: %d models registered\n", Registrations);
    return 1;
  }
  if (klaraptor_mwp_cwp_hw_from_profile("h100-sxm", &hw) != 0)
    return 1;
  printf("registered %s as %s (size %u, abi %u)\n", RegisteredKernel,
         Registered.name, Registered.size, Registered.abi_version);
  for (i = 1; i < argc; ++i) {
    long long n, bx;
    int64_t data[1];
    klaraptor_candidate c;
    if (sscanf(argv[i], "%lld,%lld", &n, &bx) != 2)
      return 1;
    data[0] = n;
    memset(&c, 0, sizeof c);
    c.size = sizeof c;
    c.block[0] = (uint32_t)bx;
    c.block[1] = c.block[2] = 1;
    c.grid[0] = (uint32_t)((n + bx - 1) / bx);
    c.grid[1] = c.grid[2] = 1;
    printf("N=%lld,bx=%lld: %.17g %.17g\n", n, bx,
           Registered.predict(Registered.ctx, data, 1, &c, NULL),
           direct((double)n, (double)bx, &hw));
  }
  /* A call the program must refuse: wrong number of data values. */
  {
    int64_t data[2] = {1024, 1};
    klaraptor_candidate c;
    memset(&c, 0, sizeof c);
    c.size = sizeof c;
    c.block[0] = 64;
    c.block[1] = c.block[2] = 1;
    printf("two data values: %s\n",
           isnan(Registered.predict(Registered.ctx, data, 2, &c, NULL))
               ? "nan"
               : "a number");
    c.block[1] = 2; /* by is not free */
    printf("by=2: %s\n",
           isnan(Registered.predict(Registered.ctx, data, 1, &c, NULL))
               ? "nan"
               : "a number");
  }
  return 0;
}
