"""Writes the sources of limits.test into the folder given."""
import os
import sys

out = sys.argv[1]
KERNEL = "\n__global__ void k(int n) {}\n"


def write(name, grid):
    with open(os.path.join(out, name), "w") as f:
        f.write("#pragma klaraptor data(N = n) block(bx) grid(" + grid + ")" + KERNEL)


write("ok.cu", "(" * 64 + "N" + ")" * 64 + " + 1" * 90)
write("ok64.cu", "- " * 64 + "N")
write("parens.cu", "(" * 100000 + "N" + ")" * 100000)
write("bang.cu", "!" * 20000 + "N")
write("min.cu", "min(" * 20000 + "N" + ")" * 20000)
write("deep65.cu", "- " * 65 + "N")
write("long.cu", "N" + " + 1" * 100000)
with open(os.path.join(out, "data.cu"), "w") as f:
    f.write("#pragma klaraptor data(" + ", ".join("D%d = n" % i for i in range(100000)) +
            ") block(bx) grid(D0)\n__global__ void k(int n) {}\n")
with open(os.path.join(out, "data64.cu"), "w") as f:
    f.write("#pragma klaraptor data(" + ", ".join("D%d = n" % i for i in range(64)) +
            ") block(bx) grid(D0)\n__global__ void k(int n) {}\n")
with open(os.path.join(out, "cands.cu"), "w") as f:
    f.write("#pragma klaraptor data(N = n) block(bx) grid(N) candidates(" +
            ", ".join("32" for _ in range(100000)) + ")\n__global__ void k(int n) {}\n")
