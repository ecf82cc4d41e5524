#!/usr/bin/env python3
"""Checks a device profile written by `klaraptor device probe`.

USAGE: check-profile.py FILE.device [--emulated | --gpu]

Every key of the format is present and names its source after '#'; the
measured keys (source "microbenchmark (klaraptor device probe, DATE)") hold
positive finite values; the header names the driver and runtime versions.
--emulated: the header says the numbers come from the emulator.
--gpu: it does not, and the measured values are in sane hardware ranges.
Prints "keys ok: T timing, M mwp, N measured" (and "ranges ok" with --gpu),
or the problems, one a line, with exit status 1.
"""
import math
import re
import sys

REQUIRED = """id name major minor multiProcessorCount totalGlobalMem totalConstMem
sharedMemPerBlock sharedMemPerBlockOptin sharedMemPerMultiprocessor
reservedSharedMemPerBlock regsPerBlock regsPerMultiprocessor warpSize
maxThreadsPerBlock maxThreadsDim maxGridSize maxThreadsPerMultiProcessor
maxBlocksPerMultiProcessor l2CacheSize memoryBusWidth clockRate
memoryClockRate regAllocUnitSize regAllocGranularity maxRegsPerThread
smSubPartitions sharedMemAllocUnitSize sharedMemCarveoutKiB""".split()
TIMING = [r + s for r in ("int", "fp32", "fp64", "sfu", "lsu", "shared", "l2",
                          "dram", "branch") for s in (".latency", ".gap")] + [
    "schedulers", "issue_gap", "barrier_latency", "l2_hit_rate", "clock_ghz",
    "launch_overhead_ns", "block_launch_cycles", "atomic_same_address_cycles",
    "l2_request_cycles", "l2_store_gap"]
MWP = ["departure_del_coal", "departure_del_uncoal", "issue_cycles",
       "mem_bandwidth_gbs", "load_bytes_per_warp"]
# What the probe measures (directly or derived from a measurement).
MEASURED = ["timing." + k for k in (
    "clock_ghz", "dram.latency", "l2.latency", "shared.latency",
    "launch_overhead_ns", "block_launch_cycles", "atomic_same_address_cycles",
    "l2_request_cycles", "l2_store_gap", "fp32.latency",
    "int.latency", "fp64.latency",
    "sfu.latency", "fp32.gap", "int.gap", "fp64.gap", "sfu.gap", "dram.gap",
    "l2.gap")] + ["mwp." + k for k in ("issue_cycles", "mem_bandwidth_gbs")]
# Measured but not used: the base's value stays, the comment names ours.
MEASURED_UNUSED = ["mwp.departure_del_coal", "mwp.departure_del_uncoal"]
# Sane ranges on any GPU of sm_75 or newer.
RANGES = {
    "timing.dram.latency": (200, 2000),
    "timing.l2.latency": (50, 1000),
    "timing.shared.latency": (5, 200),
    "timing.clock_ghz": (0.3, 4),
    "timing.fp32.latency": (1, 32),
    "timing.fp64.latency": (1, 128),
    "timing.fp32.gap": (0.25, 16),
    "timing.launch_overhead_ns": (50, 100000),
    "timing.block_launch_cycles": (1, 100000),
    "timing.atomic_same_address_cycles": (0.5, 1000),
    "timing.l2_request_cycles": (0.05, 100),
    "timing.l2_store_gap": (0.05, 100),
    "mwp.mem_bandwidth_gbs": (100, 20000),
    "mwp.issue_cycles": (0.05, 4),
}


def main():
    path, mode = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
    problems, values, sources = [], {}, {}
    header = []
    with open(path) as f:
        lines = f.read().split("\n")
    for no, line in enumerate(lines, 1):
        if line.startswith("#"):
            header.append(line)
            continue
        if not line.strip():
            continue
        body, _, src = line.partition("#")
        key, eq, value = body.partition("=")
        key, value, src = key.strip(), value.strip(), src.strip()
        if not eq:
            problems.append("%s:%d: not 'key = value'" % (path, no))
            continue
        if key in values:
            problems.append("%s:%d: '%s' twice" % (path, no, key))
        values[key] = value
        sources[key] = src
        if key != "format" and not src:
            problems.append("%s:%d: '%s' has no source" % (path, no, key))
    if values.get("format") != "1":
        problems.append("format is not 1")
    expected = REQUIRED + ["timing." + k for k in TIMING] + \
        ["mwp." + k for k in MWP]
    for k in expected:
        if k not in values:
            problems.append("missing key '%s'" % k)
    stamp = re.compile(r"^microbenchmark \(klaraptor device probe, "
                       r"\d{4}-\d\d-\d\d\): \S")
    measured = 0
    for k in MEASURED:
        if k not in values:
            continue
        if not stamp.match(sources[k]):
            problems.append("'%s' is not marked as measured: %s" %
                            (k, sources[k]))
            continue
        v = float(values[k])
        if not (math.isfinite(v) and v > 0):
            problems.append("'%s' = %s is not positive" % (k, values[k]))
            continue
        measured += 1
    unused = re.compile(r"^\[base\] copied .*; measured [0-9.e+-]+ \(one warp's "
                        r"back-to-back loads\) but not used")
    for k in MEASURED_UNUSED:
        if k in sources and not unused.match(sources[k]):
            problems.append("'%s' does not say it keeps the base's value over "
                            "the measured one: %s" % (k, sources[k]))
    for k in expected:
        if k.startswith(("timing.", "mwp.")) and k not in MEASURED and \
                k not in MEASURED_UNUSED and \
                k in sources and not sources[k].startswith("[base] copied"):
            problems.append("'%s' is neither measured nor copied: %s" %
                            (k, sources[k]))
    text = "\n".join(header)
    if not re.search(r"CUDA driver \d+\.\d+ \(\d+\), runtime \d+\.\d+ "
                     r"\(\d+\)", text):
        problems.append("no driver/runtime versions in the header")
    emulated = "not hardware numbers" in text
    if mode == "--emulated" and not emulated:
        problems.append("the header does not say the emulator measured it")
    if mode == "--gpu" and emulated:
        problems.append("the header says the emulator measured it")
    if problems:
        print("\n".join(problems))
        return 1
    print("keys ok: %d timing, %d mwp, %d measured" %
          (sum(k.startswith("timing.") for k in values),
           sum(k.startswith("mwp.") for k in values), measured))
    if mode == "--gpu":
        bad = ["%s = %s outside [%g, %g]" % (k, values[k], lo, hi)
               for k, (lo, hi) in RANGES.items()
               if not lo <= float(values[k]) <= hi]
        if float(values["timing.l2.latency"]) >= \
                float(values["timing.dram.latency"]):
            bad.append("L2 latency not below DRAM latency")
        if bad:
            print("\n".join(bad))
            return 1
        print("ranges ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
