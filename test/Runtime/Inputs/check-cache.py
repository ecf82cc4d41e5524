"""Checks a KLARAPTOR_CACHE file: the header, then one record per line with
a valid FNV-1a checksum. Prints "records=<n> keys=<distinct> bad=<n>" and
the line numbers of bad lines; exits non-zero unless every line is valid or
--allow-bad is given.
"""
import sys


def fnv1a(data):
    h = 14695981039346656037  # 0xcbf29ce484222325, the FNV-1a 64 offset basis
    for b in data:
        h ^= b
        h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    allow_bad = "--allow-bad" in sys.argv
    path = [a for a in sys.argv[1:] if not a.startswith("--")][0]
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    if lines[0] != b"klaraptor-cache v1":
        print("error: bad header %r" % lines[0])
        return 1
    if lines[-1] != b"":
        print("error: the file does not end with a newline")
        return 1
    records, keys, bad = 0, set(), []
    for n, line in enumerate(lines[1:-1], 2):
        ok = len(line) > 17 and line[16:17] == b" "
        if ok:
            text = line[17:]
            try:
                ok = int(line[:16], 16) == fnv1a(text) and text.count(b"\t") == 3
            except ValueError:
                ok = False
        if ok:
            records += 1
            keys.add(text.split(b"\t")[0])
        else:
            bad.append(n)
    print("records=%d keys=%d bad=%d" % (records, len(keys), len(bad)))
    for n in bad:
        print("bad line %d" % n)
    return 0 if allow_bad or not bad else 1


if __name__ == "__main__":
    sys.exit(main())
