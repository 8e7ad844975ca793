#!/usr/bin/env python3
"""Summary of a per-instruction Nsight Compute export (ncu_kernels.sh with NCU_SOURCE=1).

Usage: ncu_sass_summary.py FILE.sass.csv.gz [FUNCTION_ADDRESS_SUFFIX]

Prints the stall samples by reason; by function (the code between call targets), with how often
its first instruction ran; and, for the function whose address ends in the given hex suffix (by
default the one with the most samples), its stretches between barriers and the loop bodies that
execute the most instructions (instructions grouped by their execution count).
"""
import bisect
import collections
import csv
import gzip
import re
import sys


def main():
    rows = list(csv.reader(gzip.open(sys.argv[1], "rt")))
    header = rows[1]
    data = [r for r in rows[2:] if len(r) == len(header)]
    col = {name: header.index(name) for name in header}
    num = lambda r, name: int(r[col[name]] or 0) if r[col[name]].isdigit() else 0
    source = lambda r: r[col["Source"]].strip()
    samples, executed = "Warp Stall Sampling (All Samples)", "Instructions Executed"
    address = [int(r[0], 16) for r in data]

    reasons = collections.Counter()
    for r in data:
        for name in header:
            if name.startswith("stall_") and "Not Issued" not in name:
                reasons[name] += num(r, name)
    total = sum(reasons.values())
    print(f"{total} stall samples")
    for name, n in reasons.most_common(8):
        print(f"  {name:24s} {n:8d} {100 * n / total:5.1f}%")

    starts = {address[0]}
    for r in data:
        m = re.search(r"CALL\.\S+\s+(0x[0-9a-f]+)", source(r))
        if m:
            starts.add(int(m.group(1), 16))
    starts = sorted(starts)
    functions = collections.defaultdict(lambda: {"samples": 0, "executed": 0, "rows": []})
    for r, a in zip(data, address):
        f = functions[starts[bisect.bisect_right(starts, a) - 1]]
        f["samples"] += num(r, samples)
        f["executed"] += num(r, executed)
        f["rows"].append(r)
    print("\nby function (address, samples, instructions executed, runs of its first instruction)")
    for a, f in sorted(functions.items(), key=lambda x: -x[1]["samples"])[:8]:
        print(f"  {a:#x} {f['samples']:8d} {100 * f['samples'] / total:5.1f}% {f['executed']:12d} {num(f['rows'][0], executed):8d}")

    suffix = sys.argv[2].lower() if len(sys.argv) > 2 else None
    pick = next((a for a in functions if suffix and hex(a).endswith(suffix)), None)
    pick = pick or max(functions, key=lambda a: functions[a]["samples"])
    f = functions[pick]
    calls = max(num(f["rows"][0], executed), 1)
    print(f"\nfunction {pick:#x}: {f['executed'] / calls:.0f} instructions per warp and call ({calls} warp calls)")
    print("stretches ending at a barrier or return (instructions per warp and call, samples, barrier samples)")
    stretch = [0, 0, 0, None]
    for r in f["rows"]:
        stretch[3] = stretch[3] or r[0]
        stretch[0] += num(r, executed)
        stretch[1] += num(r, samples)
        stretch[2] += num(r, "stall_barrier")
        if "BAR." in source(r) or "RET" in source(r):
            if stretch[0] > calls or stretch[1] > total / 200:
                print(f"  {stretch[3][-6:]}..{r[0][-6:]} {stretch[0] / calls:7.0f} {stretch[1]:8d} {stretch[2]:8d}  {source(r)[:40]}")
            stretch = [0, 0, 0, None]
    print("instructions grouped by execution count (count, instructions, share of the function's)")
    groups = collections.Counter(num(r, executed) for r in f["rows"])
    for count, n in sorted(groups.items(), key=lambda x: -x[0] * x[1])[:8]:
        print(f"  {count:9d} x {n:4d} {100 * count * n / max(f['executed'], 1):5.1f}%")


if __name__ == "__main__":
    main()
