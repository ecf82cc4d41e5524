#!/usr/bin/env python3
"""Checks that scripts/model-playground.py's MWP-CWP, computed from the fitted
counts and the device profile, is the prediction the judge recorded
(model/MwpCwp.cpp through KernelFit) for every shape of every launch:

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
launches = json.load(open(args.json))['launches']
equal = bad = 0
for launch in launches:
    for s in launch.get('predictions', []):
        if s.get('model_ns') is None or not s.get('fitted'):
            continue
        mine = playground.mwp_cwp_ns(dev, s['fitted'])
        if math.isclose(mine, s['model_ns'], rel_tol=1e-9, abs_tol=1e-9):
            equal += 1
        else:
            bad += 1
            print(f"check-recomputed: {launch['kernel']} {launch['data']} {s['shape']}: "
                  f"recomputed {mine!r}, recorded {s['model_ns']!r}")
if bad or not equal:
    sys.exit(f'check-recomputed: {bad} of {equal + bad} predictions differ')
print(f'check-recomputed: {equal} predictions equal ({len(launches)} launches)')
