#!/usr/bin/env python3
"""Which of the CUDA toolkit's public headers compile with klaraptor-clang++,
against nvcc.

For every public header (the toolkit's include/*.h and *.hpp, cooperative
groups, and CCCL's top-level headers: cub/*.cuh, thrust/*.h, cuda/*,
cuda/std/*), a .cu file that includes it and defines one kernel is compiled
with nvcc (-c, for the GPU) and with klaraptor-clang++ (-c, for the GPU, and
with --klaraptor-emulate when --emulate is given). Prints per group how many
compile with each, and every header that nvcc compiles and klaraptor-clang++
does not, with the first error line. docs/results.md records a run.

Usage:
  scripts/cuda-headers.py [--cuda DIR] [--driver PATH] [--jobs N]
                          [--only GROUP,...] [--markdown FILE]
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

GROUPS = [
    ("toolkit", "", lambda n: n.endswith((".h", ".hpp"))),
    ("cooperative_groups", "cooperative_groups", lambda n: n.endswith(".h")),
    ("cub", "cccl/cub", lambda n: n.endswith(".cuh")),
    ("thrust", "cccl/thrust", lambda n: n.endswith(".h")),
    ("cuda", "cccl/cuda", lambda n: "." not in n and not n.startswith("__")),
    ("cuda/std", "cccl/cuda/std", lambda n: "." not in n and not n.startswith("__")),
]


def headers(cuda, only):
    out = []
    for group, sub, keep in GROUPS:
        if only and group not in only:
            continue
        folder = os.path.join(cuda, "include", sub)
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isfile(path) and keep(name):
                rel = os.path.relpath(path, os.path.join(
                    cuda, "include", "cccl" if sub.startswith("cccl") else ""))
                out.append((group, rel))
    return out


def compile_one(cmd, cwd):
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=600)
    text = r.stdout.decode(errors="replace")
    first = next((l for l in text.splitlines() if "error" in l), "")
    return r.returncode == 0, first.strip()


def check(item, cuda, driver, emulate, scratch):
    group, rel = item
    d = tempfile.mkdtemp(dir=scratch)
    src = os.path.join(d, "t.cu")
    with open(src, "w") as f:
        f.write("#include <%s>\n__global__ void klaraptor_header_probe(int *p) "
                "{ if (p) *p = 1; }\n" % rel)
    nv = compile_one([os.path.join(cuda, "bin", "nvcc"), "-arch=sm_90",
                      "-std=c++17", "-c", src, "-o", "nv.o"], d)
    kl = compile_one([driver, "-std=c++17", "-c", src, "-o", "kl.o"], d)
    em = compile_one([driver, "--klaraptor-emulate", "-std=c++17", "-c", src,
                      "-o", "em.o"], d) if emulate else None
    return group, rel, nv, kl, em


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--driver", default=os.path.join(here, "..", "build", "bin",
                                                     "klaraptor-clang++"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only", default="")
    ap.add_argument("--emulate", action="store_true")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    if not os.access(a.driver, os.X_OK):
        sys.exit("cuda-headers: no klaraptor-clang++ at %s (--driver)" % a.driver)
    only = [g for g in a.only.split(",") if g]
    items = headers(a.cuda, only)
    if not items:
        sys.exit("cuda-headers: no headers found under %s/include" % a.cuda)
    print("cuda-headers: %d headers, %d at a time" % (len(items), a.jobs),
          file=sys.stderr)
    results = []
    with tempfile.TemporaryDirectory() as scratch, \
            concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(check, i, a.cuda, a.driver, a.emulate, scratch)
                   for i in items]
        for n, f in enumerate(concurrent.futures.as_completed(futures), 1):
            results.append(f.result())
            if n % 25 == 0:
                print("cuda-headers: %d of %d" % (n, len(items)), file=sys.stderr)
    results.sort()
    cols = "| group | headers | nvcc | klaraptor-clang++ |" + (
        " --klaraptor-emulate |" if a.emulate else "")
    lines = [cols, "|---|---:|---:|---:|" + ("---:|" if a.emulate else "")]
    total = [0, 0, 0, 0]
    for group, _, _ in GROUPS:
        rows = [r for r in results if r[0] == group]
        if not rows:
            continue
        nv = sum(r[2][0] for r in rows)
        kl = sum(r[3][0] for r in rows)
        em = sum(r[4][0] for r in rows) if a.emulate else 0
        total = [total[0] + len(rows), total[1] + nv, total[2] + kl, total[3] + em]
        lines.append("| %s | %d | %d | %d |" % (group, len(rows), nv, kl) +
                     (" %d |" % em if a.emulate else ""))
    lines.append("| all | %d | %d | %d |" % tuple(total[:3]) +
                 (" %d |" % total[3] if a.emulate else ""))
    worse = [r for r in results if r[2][0] and not r[3][0]]
    lines.append("")
    lines.append("nvcc compiles and klaraptor-clang++ does not: %d" % len(worse))
    for group, rel, _, kl, _ in worse:
        lines.append("- `%s`: %s" % (rel, kl[1] or "(no error line)"))
    if a.emulate:
        emworse = [r for r in results if r[3][0] and not r[4][0]]
        lines.append("")
        lines.append("klaraptor-clang++ compiles and --klaraptor-emulate does "
                     "not: %d" % len(emworse))
        for group, rel, _, _, em in emworse:
            lines.append("- `%s`: %s" % (rel, em[1] or "(no error line)"))
    print("\n".join(lines))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
