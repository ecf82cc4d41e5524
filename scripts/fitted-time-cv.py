#!/usr/bin/env python3
"""A launch time fitted directly from the models' inputs, judged on GPUs and
kernels it was not fitted on (issue 13's "a time fitted directly with the
metrics as features").

Each judged shape of each launch (`klaraptor dataset judge --json`: measured
time, recorded MWP-CWP prediction, fitted counts; docs/dataset.md) gives a
feature vector computed from the fitted counts and the judge's device profile:

  mwp-cwp          log of the recorded MWP-CWP prediction
  issue, dram, latency
                   logs of the roofline's three bounds on the busiest SM
                   (scripts/model-playground.py's roofline, docs/models.md)
  busiest-blocks   log of the busiest SM's blocks
  warps-per-block  log of the block's warps
  occupancy        log of the resident warps over the SM's warp slots
  sectors-per-request
                   log of the global sectors per request
  warp-width       log of min(block x, 32): the threads of a warp in one row
  imbalance        log of the busiest SM's blocks over the average
  tail             the last wave's share of resident blocks left empty

and the target is the log of the measured time. Features and target are
centred per launch (only the order of a launch's shapes matters), and a ridge
regression (weights w minimising |Xw - y|^2 + ridge |w|^2) is fitted on the
training judges; a held-out launch's shapes are ranked by exp(features . w)
and picked by the runtime's rule (the least prediction; the requested shape
unless one is predicted faster by more than the margin).

  scripts/fitted-time-cv.py [--ridge L] [--margin X] [--features a,b,...]
      [--train LABELS --test LABELS] LABEL=JUDGE.json:PROFILE.device ...

Without --train/--test every judge is held out in turn and fitted on all the
others (leave one judge out). Prints, per held-out judge:

  LABEL: fitted-time (trained on A, B) best/chosen geomean G worst W over N launches
  LABEL: mwp-cwp best/chosen geomean G worst W over N launches

and the fitted weights. Times are whatever the judges measured; the figures
say how well a fitted time carries over to a GPU or kernels it has not seen.
Pure Python (no numpy): the system is one row per shape and a dozen columns.
"""
import argparse
import importlib.util
import math
import os
import sys
import json

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'playground', os.path.join(here, 'model-playground.py'))
playground = importlib.util.module_from_spec(spec)
spec.loader.exec_module(playground)

FEATURES = ['mwp-cwp', 'issue', 'dram', 'latency', 'busiest-blocks',
            'warps-per-block', 'occupancy', 'sectors-per-request', 'warp-width',
            'imbalance', 'tail']


def fail(message):
    sys.exit(f'fitted-time-cv: error: {message}')


def features(dev, shape, mwp_key):
    """The feature vector of one judged shape (FEATURES' order), or None
    where the shape has no usable prediction or counts; MWP-CWP's prediction
    is the shape's MWP_KEY."""
    fitted, model = shape.get('fitted') or {}, shape.get(mwp_key)
    blocks = fitted.get('blocks_launched', 0)
    threads = fitted.get('threads_per_block', 0)
    if not (blocks > 0 and threads > 0) or model is None or not (
            0 < model < math.inf):
        return None
    resident = playground.resident_blocks(
        dev, threads, fitted.get('registers_per_thread', 0),
        playground.fitted_shared(fitted))
    if resident <= 0:
        return None
    warps = math.ceil(threads / 32)
    sms = min(dev['sms'], blocks)
    busy = playground.busiest_blocks(dev, blocks)
    requests = sum(fitted.get(f'global_{k}_requests', 0)
                   for k in ('load', 'store', 'atomic'))
    sectors = sum(fitted.get(f'global_{k}_sectors', 0)
                  for k in ('load', 'store', 'atomic'))
    bounds = playground.roofline_bounds(dev, fitted)
    tiny = 1e-3  # ns: a bound of 0 (no memory, no instructions) stays finite
    width = int(shape['shape'].split('x')[0])
    return [math.log(model), math.log(bounds['issue'] + tiny),
            math.log(bounds['dram'] + tiny), math.log(bounds['latency'] + tiny),
            math.log(busy), math.log(warps),
            math.log(resident * warps / (dev['threads'] / 32)),
            math.log(sectors / requests if requests > 0 else 1.0),
            math.log(min(width, 32)), math.log(busy / (blocks / sms)),
            (busy % resident) / resident]


class Judge:
    def __init__(self, label, path, device):
        self.label = label
        self.dev = playground.read_device(device)
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            fail(f'{path}: {e}')
        self.launches = data.get('launches', [])
        columns = playground.recorded_columns(data)
        if 'mwp-cwp' not in columns:
            fail(f'{path} records no MWP-CWP predictions')
        # The per-shape key of MWP-CWP's recorded predictions (the judge's
        # other model since the lines model is the default).
        self.mwp_key = columns['mwp-cwp']
        if not any('predictions' in l for l in self.launches):
            fail(f'{path} has no per-shape predictions (written by an older '
                 'klaraptor dataset judge?)')
        # Per launch: the usable shapes with their features.
        self.rows = []
        for launch in self.launches:
            shapes = [(s, features(self.dev, s, self.mwp_key)) for s in launch.get('predictions', [])]
            shapes = [(s, f) for s, f in shapes if f is not None]
            if len(shapes) >= 2:
                self.rows.append((launch, shapes))
        # The judged launches, and each usable shape's features by identity.
        self.judged = [launch for launch, _ in self.rows]
        self.features = {id(s): f for _, shapes in self.rows for s, f in shapes}

    def judge(self, predict, margin):
        """The playground's judge (the runtime's rule) over the usable shapes:
        predict(shape, features)."""
        return playground.judge(
            self.judged,
            lambda s: (predict(s, self.features[id(s)]) if id(s) in self.features
                       else None),
            margin)


def centred(judges, cols):
    """Rows of centred features and targets over the judges' launches."""
    X, y = [], []
    for j in judges:
        for _, shapes in j.rows:
            F = [[f[c] for c in cols] for _, f in shapes]
            t = [math.log(s['measured_ns']) for s, _ in shapes]
            mean_f = [sum(col) / len(F) for col in zip(*F)]
            mean_t = sum(t) / len(t)
            X += [[v - m for v, m in zip(row, mean_f)] for row in F]
            y += [v - mean_t for v in t]
    return X, y


def solve(A, b):
    """Gaussian elimination with partial pivoting (A is small and, with a
    positive ridge, positive definite)."""
    n = len(A)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        if M[c][c] == 0:
            fail('the features are linearly dependent; add --ridge')
        for r in range(c + 1, n):
            k = M[r][c] / M[c][c]
            for cc in range(c, n + 1):
                M[r][cc] -= k * M[c][cc]
    w = [0.0] * n
    for r in range(n - 1, -1, -1):
        w[r] = (M[r][n] - sum(M[r][cc] * w[cc] for cc in range(r + 1, n))) / M[r][r]
    return w


def fit(judges, cols, ridge):
    X, y = centred(judges, cols)
    n = len(cols)
    A = [[sum(row[i] * row[j] for row in X) + (ridge if i == j else 0.0)
          for j in range(n)] for i in range(n)]
    b = [sum(row[i] * t for row, t in zip(X, y)) for i in range(n)]
    return solve(A, b)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--ridge', type=float, default=1.0)
    ap.add_argument('--margin', type=float, default=0.02)
    ap.add_argument('--features', default=','.join(FEATURES))
    ap.add_argument('--train', help='comma-separated judge labels to fit on')
    ap.add_argument('--test', help='comma-separated judge labels to judge')
    ap.add_argument('judges', nargs='+', metavar='LABEL=JUDGE.json:PROFILE.device')
    args = ap.parse_args()
    if not args.ridge >= 0:
        fail('--ridge must be >= 0')
    names = [n.strip() for n in args.features.split(',') if n.strip()]
    unknown = [n for n in names if n not in FEATURES]
    if unknown or not names:
        fail(f"--features: unknown '{','.join(unknown)}' (one or more of "
             f"{', '.join(FEATURES)})")
    cols = [FEATURES.index(n) for n in names]
    judges = {}
    for item in args.judges:
        label, sep, rest = item.partition('=')
        path, sep2, device = rest.rpartition(':')
        if not (sep and sep2 and label and path and device):
            fail(f"'{item}': expected LABEL=JUDGE.json:PROFILE.device")
        if label in judges:
            fail(f"judge label '{label}' given twice")
        judges[label] = Judge(label, path, device)
    if (args.train is None) != (args.test is None):
        fail('--train and --test go together')
    if args.train is not None:
        split = lambda s: [x.strip() for x in s.split(',') if x.strip()]
        train, test = split(args.train), split(args.test)
        missing = [x for x in train + test if x not in judges]
        if missing:
            fail(f"no judge labelled '{missing[0]}'")
        folds = [(train, test)]
    else:
        if len(judges) < 2:
            fail('leaving one judge out needs two judges or more')
        folds = [([l for l in judges if l != t], [t]) for t in judges]
    for train, test in folds:
        w = fit([judges[l] for l in train], cols, args.ridge)
        fitted_ns = lambda s, f: math.exp(sum(f[c] * wi for c, wi in zip(cols, w)))
        for label in test:
            j = judges[label]
            for name, predict in (
                    (f"fitted-time (trained on {', '.join(train)})", fitted_ns),
                    ('mwp-cwp', lambda s, f: s[j.mwp_key])):
                g, (worst, where), n = j.judge(predict, args.margin)
                print(f'{label}: {name} best/chosen geomean {g:.3f} worst '
                      f'{worst:.3f} ({where}) over {n} launches')
        print(f"weights (trained on {', '.join(train)}): "
              + ', '.join(f'{n} {wi:+.3f}' for n, wi in zip(names, w)))


if __name__ == '__main__':
    main()
