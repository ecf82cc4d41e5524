#!/usr/bin/env python3
"""Try a candidate performance model on judged launches without refitting.

`klaraptor dataset judge --json FILE` records, for every judged launch, every
measured shape with its measured time, both models' predictions and the
fitted counts the models' inputs come from (docs/dataset.md). This script
picks a shape per launch with each model below, by the runtime's rule (the
least prediction, an exact tie to the requested shape, then to the block
nearest it; the requested shape unless a shape is predicted faster by more
than the margin), and prints best/chosen as the judge does:

  LABEL: MODEL best/chosen geomean G worst W (KERNEL N SHAPE) over K launches

after a line on the size of MWP-CWP's predictions (recorded over measured,
every judged shape: geometric mean and the 10th, 50th and 90th percentiles).

Models:
  the judge's two  the predictions recorded in the JSON, by the names the
                   judge gives them (mwp-cwp-lines and mwp-cwp by default;
                   mwp-cwp and waves for a judge run with --model mwp-cwp);
                   every model named mwp-cwp... below reads MWP-CWP's column
  mwp-cwp-lines    the lines model (the default, docs/models.md): MWP-CWP's
                   prediction times the fitted L1 lines of a load request
                   (at least 1); listed only when the judge did not record it
  roofline         the busiest SM's time as the largest of four bounds, from
                   the fitted counts and the device profile: issue (warp
                   instructions x mwp.issue_cycles), DRAM bandwidth (sectors
                   x timing.dram.gap), latency (each warp's requests one
                   after another at timing.dram.latency, the resident warps
                   overlapping) and block dispatch (blocks x
                   timing.block_launch_cycles), at least the same-address
                   atomics' bound every rational program has (the busiest
                   address's operations x timing.atomic_same_address_cycles)
  roofline-active  the same, with only the warps that have a thread inside
                   the data overlapping their requests (`active_warps` of the
                   JSON: idle warps exit at once and hide no latency); the
                   roofline of docs/models.md
  mwp-cwp+dispatch, waves+dispatch
                   the recorded predictions with the block-dispatch bound
                   (klaraptor_dispatch_bound_ns) applied on top (waves only
                   when the judge recorded it)
  roofline-whole-waves
                   roofline-active with the latency bound counted in whole
                   waves of resident blocks (a partial last wave takes a whole
                   wave's latency) instead of a fraction
  mwp-cwp*roofline the geometric mean of the mwp-cwp and roofline-active
                   predictions (MWP-CWP's ties broken by the roofline)
  mwp-cwp+dispatch-sum
                   the recorded mwp-cwp prediction plus the busiest SM's
                   blocks x timing.block_launch_cycles (the dispatch cost
                   added instead of taken as a bound)
  mwp-cwp-recomputed
                   MWP-CWP computed here from the fitted counts and the
                   profile, as model/MwpCwp.cpp does, with the bounds every
                   rational program applies (block dispatch, same-address
                   atomics); with the defaults its predictions are the
                   recorded mwp-cwp ones.
                   --coalesced-sectors S classifies an access kind as
                   coalesced up to S sectors per request (the model's 4)
  mwp-cwp-rescaled+dispatch
                   a diagnostic, not a model the runtime could evaluate: each
                   launch's mwp-cwp predictions scaled by one factor, the
                   geometric mean over its shapes of the emulator's estimate
                   over MWP-CWP's prediction (the order of its shapes is
                   MWP-CWP's), then the block-dispatch bound: what the bound
                   does once MWP-CWP's times are of the right size
  mwp-cwp*estimate the geometric mean of the mwp-cwp prediction and the
                   emulator's estimate at the judged size (an upper bound on
                   what fitting the estimate could add: the estimate itself
                   is not fitted here)
  lines            the busiest SM's fitted load lines (global_load_lines)
                   through its L1, one 128-byte line per
                   4 / timing.l1_sectors_per_cycle cycles
  mwp-cwp+lines    the mwp-cwp prediction plus the lines' time
  roofline+lines, mwp-cwp-rescaled+lines
                   roofline-active and mwp-cwp-rescaled+dispatch with the
                   line bound as one more bound
  lines+throughput the line bound with the roofline's issue, DRAM and
                   dispatch bounds (no latency bound)
  lines+dispatch   the line bound floored by the block-dispatch bound
  requested        every shape predicted alike: the requested shape is kept
                   (the judge's `requested` line)
  (the line models need a JSON whose fits have global_load_lines, written
  since it is fitted; they judge no launch otherwise)

--warp-ratios replaces, before any model reads them, each shape's fitted
sectors and lines per request (loads, stores, atomics) by those of its warp's
shape (warp_shape below: the shape whose warps hold their lanes in the same
rows, 32x1 for a block a whole number of 32-thread rows wide), fitted at the
same data size; its requests stay its own. A request's sectors and lines are
those of its warp's 32 addresses, so the two must agree; the fits of blocks
wider than any profiled one (the training sizes bound the block by the data,
`where(bx <= N)`) are extrapolated in the block width and often do not. The
recorded mwp-cwp and waves predictions come from the rational programs and
do not change; mwp-cwp-recomputed does. Every run prints how far the fits
are from that agreement:

  LABEL: fitted per-request counts: S of T shapes more than 25 % from their
         warp shape's, P more than 5 % outside what a request can have (1 to
         32 sectors and lines, no more lines than sectors)

Usage: scripts/model-playground.py --device PROFILE [--block-launch-cycles C]
           [--set KEY=VALUE]... [--margin X] [--label TEXT] [--list MODEL]
           [--top-k K [--spread]] [--coalesced-sectors S] [--warp-ratios]
           [--every-request] JUDGE.json...

--list MODEL also prints that model's pick of every launch, worst first.
--every-request judges each launch once per measured shape, with that shape
as the requested one (the margin keeps it, exact ties go towards it): how a
model does whatever shape the programmer hard-coded, not only the programs'
own; "over K launches" then counts launch-and-request pairs.
--set KEY=VALUE replaces one of the profile's values the models read (e.g.
timing.dram.latency=480), to see how a model's picks move with it.
--top-k K also prints, per model, what online refinement over K shapes would
reach: the best measured among the first K of the model's order (the pick
first), as the judge's top-3 line does for the judged model:

  LABEL: MODEL top-K best/chosen geomean G worst W (KERNEL N SHAPE) over L launches

--spread fills the slots after the model's two first shapes with the shapes
predicted within the margin of the least prediction (the ones the model cannot
tell apart) that differ most from those already taken (sum of |log2| of the
block dimensions' ratios), instead of the model's next ones.

PROFILE is a .device file (profiler/devices/, or a probed one); its
timing.block_launch_cycles is used unless --block-launch-cycles is given.
These are exploration figures: a model is chosen on the real-timings judge
of every GPU, never on one kernel (docs/models.md).
"""
import argparse
import json
import math
import operator
import os
import sys


def device_keys(path, seen=()):
    """key = value lines of a .device file; `inherit = NAME` reads NAME.device
    beside it first (the built-in profiles of profiler/devices/)."""
    if path in seen:
        sys.exit(f'model-playground: error: {path}: inherit loops')
    keys = {}
    try:
        with open(path) as f:
            lines = f.readlines()
    except OSError as e:
        sys.exit(f'model-playground: error: {e}')
    for line in lines:
        line = line.split('#', 1)[0].strip()
        if '=' not in line:
            continue
        k, v = (x.strip() for x in line.split('=', 1))
        keys[k] = v
    if 'inherit' in keys:
        parent = os.path.join(os.path.dirname(path), keys.pop('inherit') + '.device')
        keys = {**device_keys(parent, seen + (path,)), **keys}
    return keys


# The profile keys the models read.
NEED = ['multiProcessorCount', 'clockRate', 'maxThreadsPerMultiProcessor',
        'maxBlocksPerMultiProcessor', 'regsPerMultiprocessor',
        'timing.dram.gap', 'timing.dram.latency', 'mwp.issue_cycles']
OPTIONAL = ['regAllocUnitSize', 'timing.block_launch_cycles',
            'timing.atomic_same_address_cycles',
            'sharedMemPerMultiprocessor', 'reservedSharedMemPerBlock',
            'sharedMemAllocUnitSize', 'timing.l1_sectors_per_cycle']
# MWP-CWP's own parameters (docs/models.md, "Parameters").
MWP = ['mwp.departure_del_coal', 'mwp.departure_del_uncoal',
       'mwp.mem_bandwidth_gbs', 'mwp.load_bytes_per_warp']


def read_device(path, overrides=()):
    keys = device_keys(path)
    for item in overrides:
        k, sep, v = item.partition('=')
        k, v = k.strip(), v.strip()
        if not sep or k not in NEED + OPTIONAL + MWP:
            sys.exit(f"model-playground: error: --set '{item}': expected KEY=VALUE "
                     f"with KEY one of {', '.join(NEED + OPTIONAL + MWP)}")
        try:
            ok = float(v) >= 0
        except ValueError:
            ok = False
        if not ok:
            sys.exit(f"model-playground: error: --set '{item}': the value must be "
                     "a number >= 0")
        keys[k] = v
    missing = [k for k in NEED + MWP if k not in keys]
    if missing:
        sys.exit(f"model-playground: error: {path} lacks {', '.join(missing)}")
    num = lambda k: float(keys[k].split()[0])
    return {
        'sms': num('multiProcessorCount'),
        'ghz': num('clockRate') / 1e6,
        'threads': num('maxThreadsPerMultiProcessor'),
        'blocks': num('maxBlocksPerMultiProcessor'),
        'regs': num('regsPerMultiprocessor'),
        'reg_unit': num('regAllocUnitSize') if 'regAllocUnitSize' in keys else 256,
        'dram_gap': num('timing.dram.gap'),
        'dram_latency': num('timing.dram.latency'),
        'issue': num('mwp.issue_cycles'),
        'block_launch': num('timing.block_launch_cycles')
        if 'timing.block_launch_cycles' in keys else 0.0,
        'atomic': num('timing.atomic_same_address_cycles')
        if 'timing.atomic_same_address_cycles' in keys else 0.0,
        'shared': num('sharedMemPerMultiprocessor')
        if 'sharedMemPerMultiprocessor' in keys else 0.0,
        'shared_reserved': num('reservedSharedMemPerBlock')
        if 'reservedSharedMemPerBlock' in keys else 0.0,
        'shared_unit': num('sharedMemAllocUnitSize')
        if 'sharedMemAllocUnitSize' in keys else 1.0,
        # One 128-byte line (4 sectors) through the L1's data path.
        'line_cycles': 4 / num('timing.l1_sectors_per_cycle')
        if 'timing.l1_sectors_per_cycle' in keys
        and num('timing.l1_sectors_per_cycle') > 0 else 1.0,
        'departure_coal': num('mwp.departure_del_coal'),
        'departure_uncoal': num('mwp.departure_del_uncoal'),
        'bandwidth_gbs': num('mwp.mem_bandwidth_gbs'),
        'load_bytes_per_warp': num('mwp.load_bytes_per_warp'),
    }


def recorded_columns(data):
    """The judge JSON's two recorded models: {name: the per-shape key of
    its predictions} (`model_ns` for the judged model, `other_model_ns` for
    the other; mwp-cwp and waves in a JSON that names neither)."""
    return {data.get('model', 'mwp-cwp'): 'model_ns',
            data.get('other_model', 'waves'): 'other_model_ns'}


def lines_factor(fitted):
    """The lines model's factor (klaraptor_mwp_cwp_lines_cycles): the
    fitted L1 lines of a load request, at least 1."""
    req = fitted.get('global_load_requests', 0)
    return max(1.0, fitted.get('global_load_lines', 0) / req if req > 0 else 0.0)


def resident_blocks(dev, threads, regs, shared=0.0):
    """Blocks per SM by threads, the block limit, registers and shared memory
    (the block's bytes plus the per-block reservation, in allocation units)."""
    warps = math.ceil(threads / 32)
    if warps * 32 > dev['threads']:
        return 0
    a = min(dev['blocks'], dev['threads'] // (warps * 32))
    if regs > 0:
        per_warp = math.ceil(regs * 32 / dev['reg_unit']) * dev['reg_unit']
        a = min(a, dev['regs'] // (per_warp * warps))
    per_block = shared + dev['shared_reserved']
    if per_block > 0 and dev['shared'] > 0:
        unit = max(1.0, dev['shared_unit'])
        a = min(a, dev['shared'] // (math.ceil(per_block / unit) * unit))
    return a


def fitted_shared(fitted):
    return (fitted.get('static_shared_bytes', 0)
            + fitted.get('dynamic_shared_bytes_per_block', 0))


def mwp_cwp_ns(dev, fitted, coalesced_sectors=4.0):
    """MWP-CWP from fitted counts: the mapping of model/PerformanceModel.cpp
    (inputsFromMetrics) and the equations and guards of model/MwpCwp.cpp."""
    blocks = fitted.get('blocks_launched', 0)
    threads = fitted.get('threads_per_block', 0)
    if not blocks > 0:
        return 0.0
    if not threads > 0:
        return math.inf
    warps = fitted.get('warps_launched', 0) or blocks * math.ceil(threads / 32)
    coal = coal_tx = uncoal = uncoal_tx = 0.0
    for kind in ('load', 'store', 'atomic'):
        requests = fitted.get(f'global_{kind}_requests', 0)
        sectors = fitted.get(f'global_{kind}_sectors', 0)
        if not requests > 0:
            continue
        if sectors / requests <= coalesced_sectors:
            coal += requests
            coal_tx += requests * max(1.0, math.ceil(sectors / requests / 4))
        else:
            uncoal += requests
            uncoal_tx += sectors
    comp = max(0.0, fitted.get('inst_executed', 0) - coal - uncoal) / warps
    coal_per, uncoal_per = (max(1.0, coal_tx / coal) if coal > 0 else 1.0,
                            max(1.0, uncoal_tx / uncoal) if uncoal > 0 else 1.0)
    coal, uncoal = coal / warps, uncoal / warps
    synch = fitted.get('inst_barrier', 0) / warps
    resident = resident_blocks(dev, threads, fitted.get('registers_per_thread', 0),
                               fitted_shared(fitted))
    if resident <= 0:
        return math.inf
    n = math.ceil(threads / 32) * resident
    sms = min(dev['sms'], math.ceil(blocks))
    rep = blocks / (resident * sms)
    mem = coal + uncoal
    comp_cycles = dev['issue'] * (comp + mem)
    if not mem > 0:
        return comp_cycles * n * rep / dev['ghz']
    lat_uncoal = dev['dram_latency'] + (uncoal_per - 1) * dev['departure_uncoal']
    lat_coal = dev['dram_latency'] + (coal_per - 1) * dev['departure_coal']
    w_uncoal, w_coal = uncoal / mem, coal / mem
    lat = lat_uncoal * w_uncoal + lat_coal * w_coal
    departure = (dev['departure_uncoal'] * uncoal_per * w_uncoal
                 + dev['departure_coal'] * w_coal)
    mwp = min(lat / departure, n) if departure > 0 else n
    bw_per_warp = dev['ghz'] * dev['load_bytes_per_warp'] / lat if lat > 0 else 0
    if dev['bandwidth_gbs'] > 0 and bw_per_warp > 0:
        mwp = min(mwp, dev['bandwidth_gbs'] / (bw_per_warp * sms))
    mwp = max(mwp, 1.0)
    mem_cycles = lat_uncoal * uncoal + lat_coal * coal
    cwp = min((mem_cycles + comp_cycles) / comp_cycles, n) if comp_cycles > 0 else n
    comp_per_mem = comp_cycles / mem
    if mwp == n and cwp == n:
        cycles = (mem_cycles + comp_cycles + comp_per_mem * (mwp - 1)) * rep
    elif cwp >= mwp or comp_cycles > mem_cycles:
        cycles = (mem_cycles * n / mwp + comp_per_mem * (mwp - 1)) * rep
    else:
        cycles = (lat + comp_cycles * n) * rep
    cycles += departure * (mwp - 1) * synch * resident * rep
    return cycles / dev['ghz']


def busiest_blocks(dev, blocks):
    return math.ceil(blocks / min(dev['sms'], blocks))


def dispatch_ns(dev, fitted):
    blocks = fitted.get('blocks_launched', 0)
    if not (dev['block_launch'] > 0 and blocks > 0):
        return 0.0
    return busiest_blocks(dev, blocks) * dev['block_launch'] / dev['ghz']


def atomic_ns(dev, fitted):
    """The same-address atomics' bound of every rational program: the
    busiest address's operations one after another (docs/models.md)."""
    ops = fitted.get('global_atomic_max_address_ops', 0)
    if not (dev['atomic'] > 0 and ops > 0):
        return 0.0
    return ops * dev['atomic'] / dev['ghz']


def program_bounds_ns(dev, fitted):
    """The bounds a rational program puts under its model's time."""
    return max(dispatch_ns(dev, fitted), atomic_ns(dev, fitted))


def lines_ns(dev, fitted):
    """The busiest SM's load lines through its L1, one line per
    dev['line_cycles'] (docs/results.md, "What a memory time of the GPU's
    size looks like"); None without the fitted global_load_lines."""
    blocks = fitted.get('blocks_launched', 0)
    if 'global_load_lines' not in fitted or not blocks > 0:
        return None
    per_block = max(0.0, fitted['global_load_lines']) / blocks
    return busiest_blocks(dev, blocks) * per_block * dev['line_cycles'] / dev['ghz']


def roofline_bounds(dev, fitted, active=False, whole_waves=False):
    """The roofline's four bounds on the busiest SM's time, ns: a dict with
    issue, dram, latency and dispatch; None for an empty grid or block, and
    +inf bounds for a block that cannot be resident."""
    blocks = fitted.get('blocks_launched', 0)
    threads = fitted.get('threads_per_block', 0)
    if not (blocks > 0 and threads > 0):
        return None
    resident = resident_blocks(dev, threads, fitted.get('registers_per_thread', 0),
                               fitted_shared(fitted))
    if resident <= 0:
        return dict.fromkeys(('issue', 'dram', 'latency', 'dispatch'), math.inf)
    warps = math.ceil(threads / 32)
    busy = busiest_blocks(dev, blocks)
    per_block = lambda *keys: sum(fitted.get(k, 0) for k in keys) / blocks
    requests = per_block('global_load_requests', 'global_store_requests',
                         'global_atomic_requests')
    sectors = per_block('global_load_sectors', 'global_store_sectors',
                        'global_atomic_sectors')
    # The resident warps overlap their requests; with active=True only those
    # with a thread inside the data do (idle warps exit at once).
    overlap = warps
    if active and fitted.get('active_warps', 0) > 0:
        overlap = min(warps, fitted['active_warps'] / blocks)
    waves = math.ceil(busy / resident) if whole_waves else busy / resident
    cycles = {'issue': busy * per_block('inst_executed') * dev['issue'],
              'dram': busy * sectors * dev['dram_gap'],
              'latency': waves * (requests / overlap) * dev['dram_latency'],
              'dispatch': busy * dev['block_launch']}
    return {k: v / dev['ghz'] for k, v in cycles.items()}


def roofline_ns(dev, fitted, active=False, whole_waves=False):
    bounds = roofline_bounds(dev, fitted, active, whole_waves)
    return (None if bounds is None
            else max(max(bounds.values()), atomic_ns(dev, fitted)))


def warp_shape(shape):
    """The block shape ('32x8x1') whose warps hold their 32 lanes in the same
    rows and planes as SHAPE's: 32x1x1 for a block a whole number of
    32-thread rows wide, BXxRxP for a narrower one (R rows of BX threads, P
    planes, as many as a warp spans); None where a warp's rows differ from
    warp to warp (a width neither a multiple nor a divisor of 32)."""
    bx, by, bz = (int(v) for v in shape.split('x'))
    if bx % 32 == 0:
        return '32x1x1'
    if 32 % bx:
        return None
    rows = 32 // bx
    if by % rows == 0:
        return f'{bx}x{rows}x1'
    if rows % by:
        return None
    planes = rows // by
    if bz % planes == 0:
        return f'{bx}x{by}x{planes}'
    return shape if bz < planes else None


KINDS = ('load', 'store', 'atomic')


def per_request(fitted, kind, unit):
    requests = fitted.get(f'global_{kind}_requests', 0)
    key = f'global_{kind}_{unit}'
    if not requests > 0 or key not in fitted:
        return None
    return fitted[key] / requests


def impossible(fitted, slack=0.05):
    """Whether the fitted counts of one shape are farther than the slack
    (relative) from what a request can have: 1 to 32 sectors and 1 to 32
    lines, and no more lines than sectors (a least-squares fit may miss a
    bound by a little; beyond 5 % the fit has gone astray)."""
    low, high = 1 - slack, 32 * (1 + slack)
    for kind in KINDS:
        sectors = per_request(fitted, kind, 'sectors')
        lines = per_request(fitted, kind, 'lines')
        if sectors is not None and not low <= sectors <= high:
            return True
        if lines is not None and not low <= lines <= high:
            return True
        if sectors is not None and lines is not None and \
                lines > sectors * (1 + slack):
            return True
    return False


def warp_partner(by_shape, shape):
    """The fitted counts of SHAPE's warp shape among BY_SHAPE (shape ->
    fitted), or None: no warp shape, not judged, or SHAPE itself."""
    other = by_shape.get(warp_shape(shape) or '')
    return None if other is by_shape.get(shape) else other


def warp_agreement(launches, tolerance=0.25):
    """(shapes off their warp shape's per-request counts by more than the
    tolerance, shapes physically impossible, shapes with fitted counts)."""
    off = bad = total = 0
    for launch in launches:
        by_shape = {s['shape']: s.get('fitted') for s in launch.get('predictions', [])}
        for shape, fitted in by_shape.items():
            if not fitted:
                continue
            total += 1
            bad += impossible(fitted)
            other = warp_partner(by_shape, shape)
            if not other:
                continue
            pairs = ((per_request(fitted, kind, unit), per_request(other, kind, unit))
                     for kind in KINDS for unit in ('sectors', 'lines'))
            off += any(a is not None and b is not None and b > 0 and
                       abs(a / b - 1) > tolerance for a, b in pairs)
    return off, bad, total


def with_every_request(launches):
    """Each launch once per measured shape, that shape taken as the
    requested one (a shallow copy per shape): how a model picks whatever
    shape the programmer wrote, not only the programs' own."""
    out = []
    for launch in launches:
        for s in launch.get('predictions', []):
            copy = dict(launch)
            copy['picks'] = dict(launch.get('picks', {}))
            copy['picks']['requested'] = {'shape': s['shape'],
                                          'ns': s['measured_ns']}
            out.append(copy)
    return out


def with_warp_ratios(launches):
    """The launches with each shape's fitted sectors and lines per request
    replaced by its warp shape's at the same data size (a copy)."""
    out = []
    for launch in launches:
        launch = dict(launch)
        shapes = [dict(s) for s in launch.get('predictions', [])]
        original = {s['shape']: s.get('fitted') for s in shapes}
        for s in shapes:
            fitted, other = s.get('fitted'), warp_partner(original, s['shape'])
            if not fitted or not other:
                continue
            fitted = dict(fitted)
            for kind in KINDS:
                for unit in ('sectors', 'lines'):
                    ratio = per_request(other, kind, unit)
                    if ratio is not None and f'global_{kind}_{unit}' in fitted:
                        fitted[f'global_{kind}_{unit}'] = (
                            fitted.get(f'global_{kind}_requests', 0) * ratio)
            s['fitted'] = fitted
        launch['predictions'] = shapes
        out.append(launch)
    return out


def shape_distance(a, b):
    """Sum over the block dimensions of |log2| of their ratio ('32x8x1')."""
    return sum(abs(math.log2(int(x)) - math.log2(int(y)))
               for x, y in zip(a.split('x'), b.split('x')))


def refinement_slots(ranked, margin, k, spread):
    """The k shapes online refinement would time: the model's order (the
    pick first); with spread, the slots after the first two go to the shapes
    within the margin of the least prediction that differ most from those
    taken."""
    if not spread:
        return ranked[:k]
    taken = ranked[:min(k, 2)]
    least = min(r[0] for r in ranked)
    tied = [r for r in ranked if r[0] <= least * (1 + margin)]
    while len(taken) < k:
        rest = [r for r in tied if r not in taken]
        if not rest:
            break
        taken.append(max(rest, key=lambda r: (
            min(shape_distance(r[4], t[4]) for t in taken), -r[0])))
    for r in ranked:
        if len(taken) >= k:
            break
        if r not in taken:
            taken.append(r)
    return taken


def judge(launches, predict, margin, picks=None, top_k=0, spread=False):
    logs, worst = [], (math.inf, '')
    for launch in launches:
        shapes = launch.get('predictions', [])
        if not shapes:
            continue
        best = min(s['measured_ns'] for s in shapes)
        requested = launch['picks']['requested']['shape']
        ranked = []
        for s in shapes:
            t = predict(s)
            if t is None or not (t >= 0):
                continue
            # An exact tie goes to the requested shape, then to the block
            # nearest it, then to the first in enumeration order (bz, by,
            # bx): the runtime's rule (docs/runtime-abi.md).
            ranked.append((t, s['shape'] != requested,
                           shape_distance(s['shape'], requested),
                           tuple(int(x) for x in reversed(s['shape'].split('x'))),
                           s['shape'], s['measured_ns']))
        if not ranked:
            continue
        ranked.sort()
        pick = ranked[0]
        own = [r for r in ranked if not r[1]]
        if own and not ranked[0][0] < own[0][0] * (1 - margin):
            pick = own[0]
        if top_k > 0:
            order = [pick] + [r for r in ranked if r is not pick]
            pick = min(refinement_slots(order, margin, top_k, spread), key=lambda r: r[5])
        ratio = best / pick[5]
        if picks is not None:
            best_shape = min(shapes, key=lambda s: s['measured_ns'])['shape']
            picks.append((ratio, launch['kernel'], launch['data'], pick[4], best_shape))
        logs.append(math.log(ratio))
        if ratio < worst[0]:
            worst = (ratio, f"{launch['kernel']} {launch['data']} {pick[4]}")
    if not logs:
        return None
    return math.exp(sum(logs) / len(logs)), worst, len(logs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--device', required=True)
    ap.add_argument('--block-launch-cycles', type=float)
    ap.add_argument('--set', action='append', default=[], metavar='KEY=VALUE')
    ap.add_argument('--margin', type=float, default=0.02)
    ap.add_argument('--label', default='playground')
    ap.add_argument('--list', metavar='MODEL',
                    help="also print that model's pick of every launch, worst first")
    ap.add_argument('--top-k', type=int, default=0, metavar='K',
                    help='also print what refinement over K shapes reaches')
    ap.add_argument('--spread', action='store_true',
                    help="with --top-k: fill the slots after the first two with "
                         "the model's tied shapes that differ most")
    ap.add_argument('--coalesced-sectors', type=float, default=4.0, metavar='S',
                    help='mwp-cwp-recomputed: coalesced up to S sectors per request')
    ap.add_argument('--warp-ratios', action='store_true',
                    help="each shape's fitted sectors and lines per request "
                         "taken from its warp shape's")
    ap.add_argument('--every-request', action='store_true',
                    help='judge each launch once per measured shape, that shape '
                         "taken as the program's own")
    ap.add_argument('json', nargs='+')
    args = ap.parse_args()
    if not args.coalesced_sectors > 0:
        sys.exit('model-playground: error: --coalesced-sectors must be > 0')
    if args.top_k < 0:
        sys.exit('model-playground: error: --top-k must be >= 0')
    if args.spread and args.top_k == 0:
        sys.exit('model-playground: error: --spread needs --top-k K')
    dev = read_device(args.device, args.set)
    if args.block_launch_cycles is not None:
        if not (args.block_launch_cycles >= 0):
            sys.exit('model-playground: error: --block-launch-cycles must be >= 0')
        dev['block_launch'] = args.block_launch_cycles
    launches = []
    # The judge's two models by name: which recorded column is which.
    column = None
    for path in args.json:
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            sys.exit(f'model-playground: error: {path}: {e}')
        if not any('predictions' in l for l in data.get('launches', [])):
            sys.exit(f'model-playground: error: {path} has no per-shape predictions '
                     '(written by an older klaraptor dataset judge?)')
        names = recorded_columns(data)
        if column is not None and names != column:
            a, b = list(names), list(column)
            sys.exit(f'model-playground: error: {path} judges {a[0]} and '
                     f'{a[1]}, the first file {b[0]} and {b[1]}')
        column = names
        launches += data['launches']
    judged = list(column)
    if 'mwp-cwp' not in column:
        sys.exit('model-playground: error: the judge did not record MWP-CWP '
                 f'(its models: {judged[0]}, {judged[1]})')
    mwp_key = column['mwp-cwp']
    off, bad, total = warp_agreement(launches)
    if args.warp_ratios:
        launches = with_warp_ratios(launches)
    # The statistics of the shapes (the size of MWP-CWP's predictions, the
    # estimate's scale) are of the judged launches, not of their copies.
    judged_launches = launches
    if args.every_request:
        launches = with_every_request(launches)

    def recorded(key):
        return lambda s: s.get(key)

    def joined(op, f, g):
        """Models f and g combined by op; None where either has no time."""
        def h(s):
            x, y = f(s), g(s)
            return None if x is None or y is None else op(x, y)
        return h

    mwp = recorded(mwp_key)

    def mwp_lines(s):
        # The lines model (klaraptor_mwp_cwp_lines_ns) from MWP-CWP's time
        # and the fitted counts.
        t = mwp(s)
        return None if t is None else t * lines_factor(s.get('fitted') or {})

    dispatch = lambda s: dispatch_ns(dev, s.get('fitted') or {})
    lines = lambda s: lines_ns(dev, s.get('fitted') or {})
    floored = lambda f: joined(max, f, dispatch)
    summed = lambda f: joined(operator.add, f, dispatch)

    roof = lambda s: roofline_ns(dev, s['fitted']) if s.get('fitted') else None
    roof_active = (lambda s: roofline_ns(dev, s['fitted'], active=True)
                   if s.get('fitted') else None)
    roof_waves = (lambda s: roofline_ns(dev, s['fitted'], active=True, whole_waves=True)
                  if s.get('fitted') else None)

    geomean = lambda a, b: joined(lambda x, y: math.sqrt(x * y), a, b)

    # Per launch, the factor that brings MWP-CWP's predictions to the size of
    # the emulator's estimates (mwp-cwp-rescaled+dispatch), by shape.
    estimate_scale = {}
    for launch in judged_launches:
        pairs = [s for s in launch.get('predictions', [])
                 if (s.get(mwp_key) or 0) > 0 and (s.get('estimate_ns') or 0) > 0
                 and math.isfinite(s[mwp_key])]
        scale = (math.exp(sum(math.log(s['estimate_ns'] / s[mwp_key]) for s in pairs)
                         / len(pairs)) if pairs else None)
        estimate_scale.update((id(s), scale) for s in pairs)

    def rescaled(s):
        if id(s) not in estimate_scale:
            return None
        return max(estimate_scale[id(s)] * s[mwp_key], dispatch(s))

    def throughput(s):
        # The roofline without its latency bound: issue, DRAM, dispatch.
        b = roofline_bounds(dev, s['fitted']) if s.get('fitted') else None
        return None if b is None else max(b['issue'], b['dram'], b['dispatch'])

    # The judge's two models first, as recorded; the lines model computed
    # here when the judge did not record it.
    models = [(judged[0], recorded('model_ns')), (judged[1], recorded('other_model_ns'))]
    if 'mwp-cwp-lines' not in column:
        models.append(('mwp-cwp-lines', mwp_lines))
    models += [('roofline', roof), ('roofline-active', roof_active),
              ('mwp-cwp+dispatch', floored(mwp))]
    if 'waves' in column:
        models.append(('waves+dispatch', floored(recorded(column['waves']))))
    models += [('roofline-whole-waves', roof_waves),
              ('mwp-cwp*roofline', geomean(mwp, roof_active)),
              ('mwp-cwp+dispatch-sum', summed(mwp)),
              ('mwp-cwp-recomputed',
               lambda s: max(mwp_cwp_ns(dev, s['fitted'], args.coalesced_sectors),
                             program_bounds_ns(dev, s['fitted']))
               if s.get('fitted') else None),
              ('mwp-cwp-rescaled+dispatch', rescaled),
              ('mwp-cwp*estimate', geomean(mwp, recorded('estimate_ns'))),
              ('lines', lines),
              ('mwp-cwp+lines', joined(operator.add, mwp, lines)),
              ('roofline+lines', joined(max, roof_active, lines)),
              ('mwp-cwp-rescaled+lines', joined(max, rescaled, lines)),
              ('lines+throughput', joined(max, throughput, lines)),
              ('lines+dispatch', floored(lines)),
              # Every shape alike: the requested shape is kept (the
              # judge's `requested` line; with --every-request the mean of
              # every measured shape).
              ('requested', lambda s: 0.0)]
    print(f"{args.label}: device {args.device}, block_launch_cycles "
          f"{dev['block_launch']:g}, margin {args.margin:g}"
          + (f", coalesced up to {args.coalesced_sectors:g} sectors"
             if args.coalesced_sectors != 4 else '')
          + (f", set {' '.join(args.set)}" if args.set else '')
          + (', per-request counts of the warp shapes' if args.warp_ratios else '')
          + (', every measured shape requested in turn' if args.every_request else ''))
    print(f'{args.label}: fitted per-request counts: {off} of {total} shapes more '
          f"than 25 % from their warp shape's, {bad} more than 5 % outside "
          'what a request can have (1 to 32 sectors and lines, no more lines '
          'than sectors)')
    ratios = sorted(math.log(s[mwp_key] / s['measured_ns'])
                    for l in judged_launches for s in l.get('predictions', [])
                    if (s.get(mwp_key) or 0) > 0 and math.isfinite(s[mwp_key])
                    and s.get('measured_ns', 0) > 0)
    if ratios:
        at = lambda q: math.exp(ratios[min(len(ratios) - 1, int(q * len(ratios)))])
        print(f'{args.label}: mwp-cwp predicted/measured geomean '
              f'{math.exp(sum(ratios) / len(ratios)):.2f} (10th percentile {at(0.1):.2f}, '
              f'median {at(0.5):.2f}, 90th {at(0.9):.2f}) over {len(ratios)} shapes')
    if args.list and args.list not in [m[0] for m in models]:
        sys.exit(f"model-playground: error: --list: no model '{args.list}' "
                 f"({', '.join(m[0] for m in models)})")
    for name, predict in models:
        picks = [] if name == args.list else None
        r = judge(launches, predict, args.margin, picks)
        for ratio, kernel, data, shape, best in sorted(picks or []):
            print(f'{args.label}: {name} {kernel} {data}: {shape} '
                  f'(best {best}) best/chosen {ratio:.3f}')
        if r is None:
            print(f'{args.label}: {name} best/chosen: no launch judged')
            continue
        g, (w, where), n = r
        print(f'{args.label}: {name} best/chosen geomean {g:.3f} worst {w:.3f} '
              f'({where}) over {n} launches')
        if args.top_k > 0:
            g, (w, where), n = judge(launches, predict, args.margin,
                                     top_k=args.top_k, spread=args.spread)
            print(f'{args.label}: {name} top-{args.top_k}{" spread" if args.spread else ""} '
                  f'best/chosen geomean {g:.3f} worst {w:.3f} ({where}) over {n} launches')


if __name__ == '__main__':
    main()
