#!/usr/bin/env python3
"""The table of an A/B probe run (bench/probes/eval_ab.sh's ab.csv: variant,program,mode,limit,run,gpu_ms):
one row per program, mode and memory limit, each variant's median GPU ms with its runs in brackets, and
every other variant's change against the first (A), as markdown. Native rows are left out.

Usage: ab_table.py ab.csv [--baseline A]
"""
import argparse
import csv
import statistics
import sys
from collections import defaultdict


def load(path):
    runs = defaultdict(dict)  # (program, mode, limit) -> variant -> [gpu_ms]
    variants = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["variant"] not in variants:
                variants.append(r["variant"])
            if r["mode"] == "native" or not r["gpu_ms"]:
                continue
            runs[(r["program"], r["mode"], r["limit"])].setdefault(r["variant"], []).append(float(r["gpu_ms"]))
    return runs, variants


def cell(values):
    if not values:
        return "-"
    return "%.1f (%s)" % (statistics.median(values), " ".join("%.1f" % v for v in values))


def change(base, other):
    if not base or not other:
        return "-"
    return "%+.1f%%" % (100.0 * (statistics.median(other) / statistics.median(base) - 1.0))


def table(runs, variants, baseline):
    others = [v for v in variants if v != baseline]
    head = ["program", "mode", baseline] + others + ["%s / %s" % (v, baseline) for v in others]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (program, mode, limit) in sorted(runs):
        by = runs[(program, mode, limit)]
        name = program + (" (limit %s)" % limit if limit else "")
        row = [name, mode] + [cell(by.get(v)) for v in [baseline] + others]
        row += [change(by.get(baseline), by.get(v)) for v in others]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--baseline", default=None, help="the variant the others are compared with (default: the first)")
    args = parser.parse_args(argv)
    runs, variants = load(args.csv)
    if not variants:
        print("ab_table: no rows in %s" % args.csv, file=sys.stderr)
        return 1
    baseline = args.baseline or variants[0]
    if baseline not in variants:
        print("ab_table: no variant %s in %s (has %s)" % (baseline, args.csv, ", ".join(variants)), file=sys.stderr)
        return 1
    print(table(runs, variants, baseline))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
