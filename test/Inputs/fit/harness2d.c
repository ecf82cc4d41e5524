/* harness2d.c - calls the rational program of the `ceil` kernel of
 * test/Inputs/fit/make-db.py (data R, C; block bx, by) without the runtime,
 * for test/Fit.
 *
 *   harness2d R=<R>,C=<C>,bx=<BX>,by=<BY> ...
 *
 * For each point prints "<point>: <program's prediction> <direct>", the
 * direct one being klaraptor_mwp_cwp_ns on the MWP-CWP inputs of the known
 * formulas, the active warps counted by enumerating every thread of the
 * grid (not by the program's counting loop); h100-sxm parameters. */
#include "klaraptor/klaraptor_rt.h"
#include "klaraptor/mwp_cwp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static klaraptor_model Registered;
static int Registrations;

klaraptor_status klaraptor_register_model(const char *kernel,
                                          const klaraptor_model *model) {
  (void)kernel;
  ++Registrations;
  Registered = *model;
  return KLARAPTOR_OK;
}

/* Warps with a thread at row < r and column < c, thread by thread. */
static double activeWarps(long long r, long long c, long long bx,
                          long long by) {
  long long gx = (c + bx - 1) / bx, gy = (r + by - 1) / by, ix, iy, w;
  long long warps = (bx * by + 31) / 32;
  double total = 0;
  char *seen = malloc((size_t)warps);
  for (ix = 0; ix < gx; ++ix)
    for (iy = 0; iy < gy; ++iy) {
      long long x, y;
      memset(seen, 0, (size_t)warps);
      for (y = 0; y < by; ++y)
        for (x = 0; x < bx; ++x)
          if (iy * by + y < r && ix * bx + x < c)
            seen[(x + bx * y) / 32] = 1;
      for (w = 0; w < warps; ++w)
        total += seen[w];
    }
  free(seen);
  return total;
}

static double direct(long long r, long long c, long long bx, long long by,
                     const klaraptor_mwp_cwp_hw *hw) {
  klaraptor_mwp_cwp_inputs in;
  double blocks = (double)(((c + bx - 1) / bx) * ((r + by - 1) / by));
  double warps = blocks * ceil((double)(bx * by) / 32);
  double active = activeWarps(r, c, bx, by);
  double inst = (2.0 * (double)c + 30) * active + 9 * (warps - active);
  double creq = 3 * active; /* 2 loads + 1 store, 4 sectors per request */
  memset(&in, 0, sizeof in);
  in.blocks = blocks;
  in.threads_per_block = (double)(bx * by);
  in.regs_per_thread = 20;
  in.shared_per_block = 0;
  in.comp_insts = (inst - creq) / warps;
  in.coal_mem_insts = creq / warps;
  in.uncoal_mem_insts = 0;
  in.synch_insts = 0;
  in.coal_per_mw = 1;
  in.uncoal_per_mw = 1;
  return klaraptor_mwp_cwp_ns(&in, hw);
}

int main(int argc, char **argv) {
  klaraptor_mwp_cwp_hw hw;
  int i;
  if (Registrations != 1 || !Registered.predict) {
    fprintf(stderr, "harness2d: %d models registered\n", Registrations);
    return 1;
  }
  if (klaraptor_mwp_cwp_hw_from_profile("h100-sxm", &hw) != 0)
    return 1;
  for (i = 1; i < argc; ++i) {
    long long r, c, bx, by;
    int64_t data[2];
    klaraptor_candidate cand;
    if (sscanf(argv[i], "R=%lld,C=%lld,bx=%lld,by=%lld", &r, &c, &bx, &by) !=
        4)
      return 1;
    data[0] = r;
    data[1] = c;
    memset(&cand, 0, sizeof cand);
    cand.size = sizeof cand;
    cand.block[0] = (uint32_t)bx;
    cand.block[1] = (uint32_t)by;
    cand.block[2] = 1;
    printf("%s: %.17g %.17g\n", argv[i],
           Registered.predict(Registered.ctx, data, 2, &cand, NULL),
           direct(r, c, bx, by, &hw));
  }
  return 0;
}
