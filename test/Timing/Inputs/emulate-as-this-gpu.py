#!/usr/bin/env python3
"""Runs an emulated program (built with --klaraptor-emulate) with
KLARAPTOR_EMU_DEVICE set to the built-in profile of the GPU nvidia-smi lists
first, and KLARAPTOR_EMU_REPORT set to REPORT.

Usage: emulate-as-this-gpu.py REPORT PROGRAM [ARGS...]
       emulate-as-this-gpu.py --name "NVIDIA H200" (prints the profile only)
       emulate-as-this-gpu.py --this-gpu  (prints the profile of this GPU)
"""
import os
import subprocess
import sys

PROFILES = [("H200", "h200"), ("H100", "h100-sxm"), ("A100", "a100-sxm4-80gb"),
            ("T4", "t4"), ("4090", "rtx-4090"), ("2070 SUPER", "rtx-2070-super")]


def profile_for(name):
    for key, profile in PROFILES:
        if key in name:
            return profile
    return None


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--name":
        print(profile_for(sys.argv[2]) or "none")
        return 0
    if len(sys.argv) == 2 and sys.argv[1] == "--this-gpu":
        print(this_gpu_profile())
        return 0
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    profile = this_gpu_profile()
    env = dict(os.environ, KLARAPTOR_EMU_DEVICE=profile,
               KLARAPTOR_EMU_REPORT=sys.argv[1])
    return subprocess.run(sys.argv[2:], env=env,
                          stdout=subprocess.DEVNULL).returncode


def this_gpu_profile():
    out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                         capture_output=True, text=True)
    name = out.stdout.splitlines()[0].strip() if out.stdout else ""
    profile = profile_for(name)
    if profile is None:
        print("warning: no profile for GPU '%s'; using h100-sxm" % name,
              file=sys.stderr)
        profile = "h100-sxm"
    print("gpu '%s' -> profile %s" % (name, profile), file=sys.stderr)
    return profile


if __name__ == "__main__":
    sys.exit(main())
