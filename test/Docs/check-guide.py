#!/usr/bin/env python3
"""Checks that what docs/user-guide.md shows is what the tools print.

  check-guide.py GUIDE log --after TEXT LOGFILE
      the first ```json block after the line containing TEXT is one decision;
      LOGFILE's first line must have the same keys and values ("pid" aside).
  check-guide.py GUIDE line --after TEXT OUTPUT [--strip-path]
      the first line of the first ``` block after TEXT must be a line of
      OUTPUT (with --strip-path, OUTPUT's lines lose their directory part).
Prints "check-guide: ok: ..." or the difference, and exits 1 on one.
"""
import json
import os
import sys


def block_after(guide, text):
    lines = open(guide).read().split("\n")
    start = next((i for i, l in enumerate(lines) if text in l), None)
    if start is None:
        sys.exit("check-guide: %s has no line with %r" % (guide, text))
    i = start + 1
    while i < len(lines) and not lines[i].startswith("```"):
        i += 1
    j = i + 1
    while j < len(lines) and not lines[j].startswith("```"):
        j += 1
    if j >= len(lines):
        sys.exit("check-guide: no code block after %r in %s" % (text, guide))
    return lines[i + 1:j]


def main():
    if len(sys.argv) < 6 or sys.argv[3] != "--after":
        sys.exit(__doc__)
    guide, what, text, path = sys.argv[1], sys.argv[2], sys.argv[4], sys.argv[5]
    block = block_after(guide, text)
    if what == "log":
        shown = json.loads("\n".join(block))
        with open(path) as f:
            real = json.loads(f.readline())
        for d in (shown, real):
            d.pop("pid", None)
        if shown != real:
            print("check-guide: the guide shows\n  %s\nthe runtime wrote\n  %s"
                  % (json.dumps(shown), json.dumps(real)))
            sys.exit(1)
        print("check-guide: ok: the decision the guide shows is the runtime's")
    elif what == "line":
        want = block[0]
        got = open(path).read().split("\n")
        if "--strip-path" in sys.argv[6:]:
            got = [l.split("/")[-1] if l.startswith("/") else l for l in got]
        if want not in got:
            print("check-guide: the guide shows\n  %s\nthe tool printed\n  %s"
                  % (want, "\n  ".join(got)))
            sys.exit(1)
        print("check-guide: ok: the guide's line is the tool's")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
