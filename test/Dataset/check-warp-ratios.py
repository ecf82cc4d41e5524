#!/usr/bin/env python3
"""Checks scripts/model-playground.py's --warp-ratios substitution:

  check-warp-ratios.py JUDGE.json

warp_shape maps block shapes to the shapes whose warps hold their lanes in
the same rows (a fixed table of cases, each worked out by hand); after
with_warp_ratios every shape whose warp shape was judged has that shape's
sectors and lines per request, its own requests and every other count as
fitted, and the JSON's launches are untouched. Prints
`check-warp-ratios: N shapes take their warp shape's counts, M keep their
own (K launches)`, or each failure and exit status 1."""
import copy
import importlib.util
import json
import math
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'playground', os.path.join(here, '..', '..', 'scripts', 'model-playground.py'))
playground = importlib.util.module_from_spec(spec)
spec.loader.exec_module(playground)

failures = []
# A warp is 32 consecutive threads of the block, x fastest.
cases = {
    '32x1x1': '32x1x1', '1024x1x1': '32x1x1', '64x16x1': '32x1x1',  # one row
    '96x1x1': '32x1x1',                       # a whole number of rows wide
    '16x16x1': '16x2x1', '16x2x1': '16x2x1',  # two rows of 16
    '8x4x1': '8x4x1', '8x128x1': '8x4x1',
    '1x1024x1': '1x32x1',                     # 32 rows of one thread
    '8x2x4': '8x2x2',                         # 4 rows: 2 planes of 2 rows
    '4x4x4': '4x4x2', '2x2x1': '2x2x1',       # the warp is the whole block
    '48x2x1': None, '24x4x1': None,           # rows differ from warp to warp
    '8x3x4': None,                            # a warp ends inside a plane
}
for shape, want in cases.items():
    got = playground.warp_shape(shape)
    if got != want:
        failures.append(f'warp_shape({shape}) = {got}, expected {want}')

with open(sys.argv[1]) as f:
    launches = json.load(f)['launches']
before = copy.deepcopy(launches)
after = playground.with_warp_ratios(launches)
if launches != before:
    failures.append('with_warp_ratios changed its input')
taken = kept = 0
for old, new in zip(launches, after):
    fits = {s['shape']: s.get('fitted') for s in old.get('predictions', [])}
    for s_old, s_new in zip(old['predictions'], new['predictions']):
        shape, f_old, f_new = s_old['shape'], s_old.get('fitted'), s_new.get('fitted')
        if not f_old:
            continue
        warp = playground.warp_partner(fits, shape)
        where = f"{old['kernel']} {old['data']} {shape}"
        for key, value in f_old.items():
            is_ratio = key.endswith('_sectors') or key.endswith('_lines')
            if warp is None or not is_ratio:
                if f_new.get(key) != value:
                    failures.append(f'{where}: {key} changed')
        if warp is None:
            kept += 1
            continue
        taken += 1
        for kind in playground.KINDS:
            for unit in ('sectors', 'lines'):
                mine = playground.per_request(f_new, kind, unit)
                theirs = playground.per_request(warp, kind, unit)
                if mine is not None and theirs is not None and \
                        not math.isclose(mine, theirs, rel_tol=1e-12):
                    failures.append(f'{where}: {unit} per {kind} request {mine}, '
                                    f'its warp shape has {theirs}')
for line in failures:
    print(f'check-warp-ratios: {line}')
if failures:
    sys.exit(1)
print(f"check-warp-ratios: {taken} shapes take their warp shape's counts, "
      f'{kept} keep their own ({len(launches)} launches)')
