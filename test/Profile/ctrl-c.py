"""Ctrl-C while `klaraptor profile` runs a program: SIGINT to the whole
process group, as a terminal sends it. Runs klaraptor (argv[2:]) in a new
session with SIGINT at its default action, waits until the program has
started (it creates the file argv[1]), signals the group and prints
klaraptor's exit status.

Usage: ctrl-c.py STARTED KLARAPTOR ARGS... -- PROGRAM...
"""
import os
import signal
import subprocess
import sys
import time

started = sys.argv[1]
p = subprocess.Popen(sys.argv[2:], start_new_session=True,
                     preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                      signal.SIG_DFL))
deadline = time.time() + 60
while not os.path.exists(started) and p.poll() is None and time.time() < deadline:
    time.sleep(0.05)
os.killpg(p.pid, signal.SIGINT)
print("klaraptor exited with status %d" % p.wait())
