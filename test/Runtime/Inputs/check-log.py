"""Reads a KLARAPTOR_LOG file and prints one summary line per decision.

Every line must be one JSON object with the documented fields; the script
exits non-zero otherwise. The summary is what the lit tests FileCheck:
  <kernel> <data> req=<block>/<grid> -> <block>/<grid> <source> [model] [reason] c=<candidates>
"""
import json
import sys

REQUIRED = {"kernel": str, "device_name": str, "device": int, "data": dict,
            "requested": dict, "block": list, "grid": list, "source": str,
            "candidates": int, "pid": int}


def dims(v):
    if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) for x in v)):
        raise ValueError("not three integers: %r" % (v,))
    return "x".join(str(x) for x in v)


def main():
    path = sys.argv[1]
    pids = set()
    with open(path) as f:
        lines = f.read().split("\n")
    if lines[-1] != "":
        print("error: the log does not end with a newline")
        return 1
    for n, line in enumerate(lines[:-1], 1):
        try:
            obj = json.loads(line)
            for key, typ in REQUIRED.items():
                if not isinstance(obj.get(key), typ):
                    raise ValueError("field %r missing or not %s" % (key, typ.__name__))
            if obj["source"] not in ("model", "history", "fallback", "cache"):
                raise ValueError("bad source %r" % obj["source"])
            if (obj["source"] == "fallback") != ("reason" in obj):
                raise ValueError("'reason' must come with fallbacks only")
            if obj["source"] in ("model", "cache") and "model" not in obj:
                raise ValueError("a model decision names its model")
            data = ",".join("%s=%d" % kv for kv in obj["data"].items())
            req = obj["requested"]
            out = "%s %s req=%s/%s -> %s/%s %s" % (
                obj["kernel"], data, dims(req["block"]), dims(req["grid"]),
                dims(obj["block"]), dims(obj["grid"]), obj["source"])
            if "model" in obj:
                out += " model=" + obj["model"]
            if "reason" in obj:
                out += " reason=" + obj["reason"]
            out += " c=%d" % obj["candidates"]
            pids.add(obj["pid"])
            print(out)
        except (ValueError, KeyError, TypeError) as e:
            print("error: line %d: %s: %s" % (n, e, line))
            return 1
    print("lines=%d pids=%d" % (len(lines) - 1, len(pids)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
