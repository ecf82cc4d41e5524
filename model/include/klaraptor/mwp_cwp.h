/*===- mwp_cwp.h - the MWP-CWP model as a plain C function --------------===*/
/**
 * \file
 * The MWP-CWP performance model (Hong & Kim, ISCA 2009) as a C ABI, so that
 * the generated rational programs (C code) can call it. The equations are
 * those of docs/models.md (verbatim from the design); every division is
 * guarded and the guarded cases are documented there and below.
 *
 * All per-warp quantities are averages over the launch's warps. Cycles are
 * SM clock cycles; nanoseconds are cycles / freq_ghz.
 */
/*===----------------------------------------------------------------------===*/
#ifndef KLARAPTOR_MWP_CWP_H
#define KLARAPTOR_MWP_CWP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Per-launch model inputs. */
typedef struct klaraptor_mwp_cwp_inputs {
  double comp_insts;       /**< non-memory warp instructions per warp */
  double coal_mem_insts;   /**< coalesced global memory instructions per warp */
  double uncoal_mem_insts; /**< uncoalesced global memory instructions per warp */
  double synch_insts;      /**< barrier instructions per warp */
  double coal_per_mw;      /**< transactions per coalesced memory instruction */
  double uncoal_per_mw;    /**< transactions per uncoalesced memory instruction */
  double blocks;           /**< thread blocks in the grid */
  double threads_per_block;
  double regs_per_thread;  /**< 0: unknown (no register limit) */
  double shared_per_block; /**< bytes, static + dynamic */
  /** Resident blocks per SM when > 0 (e.g. a measured value); otherwise the
   *  occupancy calculation on the hardware's limits decides. */
  double active_blocks_per_sm;
  /* Read by the roofline model only (MWP-CWP and the wave model ignore
   * them): */
  /** global load, store and atomic sectors per warp */
  double sectors_per_warp;
  /** warps with a thread inside the data per block (average); 0: unknown,
   *  every warp */
  double active_warps_per_block;
  /* Read by the lines model ("mwp-cwp-lines") only: */
  /** 128-byte L1 lines a global load request touches (average over the
   *  launch's load requests); 1 or less, or unknown (0): one line. */
  double load_lines_per_request;
} klaraptor_mwp_cwp_inputs;

/** Hardware parameters: the model's own and the occupancy limits. */
typedef struct klaraptor_mwp_cwp_hw {
  double mem_ld;               /**< DRAM latency, cycles */
  double departure_del_coal;   /**< cycles */
  double departure_del_uncoal; /**< cycles */
  double issue_cycles;         /**< cycles per warp instruction per SM */
  double freq_ghz;             /**< SM clock */
  double mem_bandwidth_gbs;    /**< DRAM bandwidth, GB/s; 0: unlimited */
  double load_bytes_per_warp;  /**< bytes */
  double active_sms;           /**< SMs of the device */
  /* Occupancy limits (cudaDeviceProp names, profiler/devices). */
  int64_t warp_size, max_threads_per_sm, max_blocks_per_sm;
  int64_t max_threads_per_block, regs_per_sm, regs_per_block;
  int64_t max_regs_per_thread, reg_alloc_unit, reg_alloc_per_warp;
  int64_t sm_sub_partitions, shared_per_sm, shared_per_block;
  int64_t shared_per_block_optin, reserved_shared_per_block;
  int64_t shared_alloc_unit;
  /** SM cycles between two blocks an SM starts (the block scheduler's
   *  rate; the profile's timing.block_launch_cycles). MWP-CWP and the wave
   *  model do not read it; the rational programs of every model bound a
   *  launch's time from below by the busiest SM's blocks times this
   *  (klaraptor_dispatch_bound_ns; docs/models.md, "The block-dispatch
   *  bound"), and the roofline model has it as one of its bounds. 0: not
   *  measured, no bound. */
  double block_launch_cycles;
  /** SM cycles per 32-byte DRAM sector at the SM's share of the bandwidth
   *  (the profile's timing.dram.gap); read by the roofline model only. */
  double dram_gap;
} klaraptor_mwp_cwp_hw;

/** Every intermediate term of one evaluation. */
typedef struct klaraptor_mwp_cwp_terms {
  double active_blocks_per_sm, n, mem_l_uncoal, mem_l_coal, w_uncoal, w_coal;
  double mem_l, departure_delay, mwp_no_bw, bw_per_warp, mwp, mem_cycles;
  double comp_cycles, cwp, rep, exec, synch_cost, cycles;
  /** 1: MWP==N and CWP==N; 2: CWP>=MWP or Comp>Mem; 3: otherwise;
   *  0: a guarded case (no blocks, no memory instructions, block does not
   *  fit); see docs/models.md. */
  int exec_case;
} klaraptor_mwp_cwp_terms;

/** Predicted cycles of one SM for the launch; fills *terms when not null.
 *  Zero blocks (or nothing to execute): 0. A block that cannot be resident
 *  (occupancy 0) or threads_per_block <= 0 with blocks > 0: +infinity. */
double klaraptor_mwp_cwp_evaluate(const klaraptor_mwp_cwp_inputs *in,
                                  const klaraptor_mwp_cwp_hw *hw,
                                  klaraptor_mwp_cwp_terms *terms);

/** klaraptor_mwp_cwp_evaluate without the terms. */
double klaraptor_mwp_cwp_cycles(const klaraptor_mwp_cwp_inputs *in,
                                const klaraptor_mwp_cwp_hw *hw);

/** Predicted nanoseconds: cycles / freq_ghz (+infinity when freq_ghz <= 0
 *  and cycles > 0). */
double klaraptor_mwp_cwp_ns(const klaraptor_mwp_cwp_inputs *in,
                            const klaraptor_mwp_cwp_hw *hw);

/** Terms of one evaluation of the wave model ("waves", docs/models.md):
 *  the busiest SM runs its blocks in full waves of active_blocks_per_sm
 *  blocks and a tail wave of the rest, each wave costed by the MWP-CWP
 *  equations with the warps that wave really has resident. */
typedef struct klaraptor_waves_terms {
  double active_sms;           /**< min(SMs, blocks) */
  double active_blocks_per_sm; /**< resident blocks per SM (occupancy) */
  double busiest_sm_blocks;    /**< ceil(blocks / active_sms) */
  double full_waves;           /**< floor(busiest / active_blocks_per_sm) */
  double tail_blocks;          /**< busiest - full_waves * active blocks */
  double wave_cycles;          /**< one full wave (MWP-CWP, Rep = 1) */
  double tail_cycles;          /**< the tail wave; 0 without one */
  double cycles;               /**< full_waves * wave + tail */
} klaraptor_waves_terms;

/** Predicted cycles of the busiest SM under the wave model; fills *terms
 *  when not null. The same guards as klaraptor_mwp_cwp_evaluate: 0 for an
 *  empty grid, +infinity for a block that cannot be resident. */
double klaraptor_waves_evaluate(const klaraptor_mwp_cwp_inputs *in,
                                const klaraptor_mwp_cwp_hw *hw,
                                klaraptor_waves_terms *terms);

/** Predicted nanoseconds of the wave model: cycles / freq_ghz. */
double klaraptor_waves_ns(const klaraptor_mwp_cwp_inputs *in,
                          const klaraptor_mwp_cwp_hw *hw);

/** Terms of one evaluation of the roofline model ("roofline",
 *  docs/models.md): the busiest SM's time is the largest of four bounds. */
typedef struct klaraptor_roofline_terms {
  double active_sms;           /**< min(SMs, blocks) */
  double active_blocks_per_sm; /**< resident blocks per SM (occupancy) */
  double busiest_sm_blocks;    /**< ceil(blocks / active_sms) */
  double issue_cycles;    /**< warp instructions x hw issue_cycles */
  double dram_cycles;     /**< sectors x hw dram_gap */
  double latency_cycles;  /**< requests one after another per active warp at
                               hw mem_ld, the resident active warps at once */
  double dispatch_cycles; /**< blocks x hw block_launch_cycles */
  double cycles;          /**< the largest of the four */
  /** 1 issue, 2 DRAM bandwidth, 3 latency, 4 block dispatch: the bound that
   *  decided; 0 for a guarded case (empty grid, block not resident). */
  int bound;
} klaraptor_roofline_terms;

/** Predicted cycles of the busiest SM under the roofline model; fills
 *  *terms when not null. 0 for an empty grid, +infinity for a block that
 *  cannot be resident (the guards of klaraptor_mwp_cwp_evaluate). */
double klaraptor_roofline_evaluate(const klaraptor_mwp_cwp_inputs *in,
                                   const klaraptor_mwp_cwp_hw *hw,
                                   klaraptor_roofline_terms *terms);

/** Predicted nanoseconds of the roofline model: cycles / freq_ghz. */
double klaraptor_roofline_ns(const klaraptor_mwp_cwp_inputs *in,
                             const klaraptor_mwp_cwp_hw *hw);

/** The lines model ("mwp-cwp-lines", the default; docs/models.md, "The
 *  lines model"): MWP-CWP's cycles times the L1 lines a global load request
 *  touches, max(1, in->load_lines_per_request). The same guards as
 *  klaraptor_mwp_cwp_evaluate; a NaN line count gives NaN. */
double klaraptor_mwp_cwp_lines_cycles(const klaraptor_mwp_cwp_inputs *in,
                                      const klaraptor_mwp_cwp_hw *hw);

/** Predicted nanoseconds of the lines model: cycles / freq_ghz. */
double klaraptor_mwp_cwp_lines_ns(const klaraptor_mwp_cwp_inputs *in,
                                  const klaraptor_mwp_cwp_hw *hw);

/** The block-dispatch bound (docs/models.md): an SM starts a block only
 *  every hw->block_launch_cycles, so the launch lasts at least the busiest
 *  SM's blocks, ceil(blocks / min(active_sms, blocks)), times that, in ns.
 *  0 when block_launch_cycles <= 0 (not measured), the grid is empty or
 *  there is no clock or SM. */
double klaraptor_dispatch_bound_ns(const klaraptor_mwp_cwp_inputs *in,
                                   const klaraptor_mwp_cwp_hw *hw);

/** Fills *hw from the device profile `name_or_path` (a built-in name such as
 *  "h100-sxm", a .device file, or NULL/"" for the default). Returns 0 on
 *  success, -1 when the profile cannot be loaded or lacks an mwp key. */
int klaraptor_mwp_cwp_hw_from_profile(const char *name_or_path,
                                      klaraptor_mwp_cwp_hw *hw);

#ifdef __cplusplus
}
#endif

#endif /* KLARAPTOR_MWP_CWP_H */
