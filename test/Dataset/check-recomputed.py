#!/usr/bin/env python3
"""Checks that scripts/model-playground.py's MWP-CWP, computed from the fitted
counts and the device profile, is the prediction the judge recorded
(model/MwpCwp.cpp through KernelFit) for every shape of every launch, and,
where the judge recorded the lines model too (the default), that the lines
model's is MWP-CWP's times the fitted lines of a load request
(model/MwpCwpLines.cpp):

  check-recomputed.py --device PROFILE JUDGE.json

prints `check-recomputed: N predictions equal (K launches)`, or each
mismatch and exit status 1."""
import argparse
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

ap = argparse.ArgumentParser()
ap.add_argument('--device', required=True)
ap.add_argument('json')
args = ap.parse_args()
dev = playground.read_device(args.device)
data = json.load(open(args.json))
launches = data['launches']
columns = playground.recorded_columns(data)
if 'mwp-cwp' not in columns:
    sys.exit('check-recomputed: the JSON records no MWP-CWP predictions')
equal = bad = 0
for launch in launches:
    for s in launch.get('predictions', []):
        if s.get(columns['mwp-cwp']) is None or not s.get('fitted'):
            continue
        mwp = playground.mwp_cwp_ns(dev, s['fitted'])
        checks = [('mwp-cwp', mwp)]
        if 'mwp-cwp-lines' in columns:
            checks.append(('mwp-cwp-lines', mwp * playground.lines_factor(s['fitted'])))
        for name, mine in checks:
            recorded = s.get(columns[name])
            if recorded is not None and math.isclose(mine, recorded, rel_tol=1e-9,
                                                     abs_tol=1e-9):
                equal += 1
            else:
                bad += 1
                print(f"check-recomputed: {launch['kernel']} {launch['data']} "
                      f"{s['shape']}: {name} recomputed {mine!r}, recorded {recorded!r}")
if bad or not equal:
    sys.exit(f'check-recomputed: {bad} of {equal + bad} predictions differ')
print(f'check-recomputed: {equal} predictions equal ({len(launches)} launches)')
