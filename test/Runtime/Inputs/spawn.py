"""Runs COUNT copies of a command at the same time; fails if any fails.

usage: spawn.py COUNT command args...
"""
import subprocess
import sys

count = int(sys.argv[1])
procs = [subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL) for _ in range(count)]
codes = [p.wait() for p in procs]
print("spawned %d, failed %d" % (count, sum(1 for c in codes if c != 0)))
sys.exit(1 if any(codes) else 0)
