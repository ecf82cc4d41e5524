/* harness2d.c - calls the rational program of the `ceil` kernel of
 * test/Inputs/fit/make-db.py (data R, C; block bx, by) without the runtime,
 * for test/Fit.
 *
 *   harness2d [--warp] R=<R>,C=<C>,bx=<BX>,by=<BY> ...
 *
 * With --warp, of the `warp` kernel (the loads and stores of a matrix
 * product, their sectors those of the warp's shape).
 *
 * For each point prints "<point>: <program's prediction> <direct>", the
 * direct one being the lines model (klaraptor_mwp_cwp_lines_ns, the
 * default) on the MWP-CWP inputs of the known formulas and, with --warp, the
 * known lines of a load request; the active warps counted by enumerating
 * every thread of the grid (not by the program's counting loop), bounded
 * below by the block-dispatch bound; h100-sxm parameters. The `ceil` kernel
 * counts no lines: its time is MWP-CWP's. */
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

/* klaraptor_mwp_cwp_lines_ns on the known counts: each access kind (load,
 * store) coalesced at most 4 sectors per request, the rule of
 * docs/models.md. The `ceil` kernel: 2 loads and 1 store per active warp, 4
 * sectors each, no lines; the `warp` kernel (warp != 0): 2 * C loads per
 * active warp, the sectors and lines of a request by the warp's shape. */
static double direct(long long r, long long c, long long bx, long long by,
                     int warp, const klaraptor_mwp_cwp_hw *hw) {
  klaraptor_mwp_cwp_inputs in;
  double blocks = (double)(((c + bx - 1) / bx) * ((r + by - 1) / by));
  double warps = blocks * ceil((double)(bx * by) / 32);
  double active = activeWarps(r, c, bx, by);
  double inst = (2.0 * (double)c + 30) * active + 9 * (warps - active);
  long long wx = bx < 32 ? bx : 32, wy = (32 + wx - 1) / wx;
  double req[2], per[2], creq = 0, ctr = 0, ureq = 0, utr = 0;
  int k;
  if (by < wy)
    wy = by;
  req[0] = warp ? 2.0 * (double)c * active : 2 * active;
  per[0] = warp ? ((double)wy + (double)((wx + 7) / 8)) / 2 : 4;
  req[1] = active;
  per[1] = warp ? (double)(wy * ((wx + 7) / 8)) : 4;
  for (k = 0; k < 2; ++k) {
    if (per[k] <= 4) {
      creq += req[k];
      ctr += req[k] * fmax(1.0, ceil(per[k] / 4));
    } else {
      ureq += req[k];
      utr += req[k] * per[k];
    }
  }
  memset(&in, 0, sizeof in);
  in.blocks = blocks;
  in.threads_per_block = (double)(bx * by);
  in.regs_per_thread = 20;
  in.comp_insts = (inst - creq - ureq) / warps;
  in.coal_mem_insts = creq / warps;
  in.uncoal_mem_insts = ureq / warps;
  in.coal_per_mw = creq > 0 ? ctr / creq : 1;
  in.uncoal_per_mw = ureq > 0 ? utr / ureq : 1;
  in.load_lines_per_request = warp ? ((double)wy + 1) / 2 : 0;
  /* At least the busiest SM's blocks times the profile's block-dispatch
   * rate (docs/models.md, "The block-dispatch bound"). */
  return fmax(klaraptor_mwp_cwp_lines_ns(&in, hw),
              klaraptor_dispatch_bound_ns(&in, hw));
}

int main(int argc, char **argv) {
  klaraptor_mwp_cwp_hw hw;
  int i, warp = argc > 1 && strcmp(argv[1], "--warp") == 0;
  if (Registrations != 1 || !Registered.predict) {
    fprintf(stderr, "harness2d: %d models registered\n", Registrations);
    return 1;
  }
  if (klaraptor_mwp_cwp_hw_from_profile("h100-sxm", &hw) != 0)
    return 1;
  for (i = 1 + warp; i < argc; ++i) {
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
           direct(r, c, bx, by, warp, &hw));
  }
  return 0;
}
