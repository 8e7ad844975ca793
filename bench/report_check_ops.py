#!/usr/bin/env python3
"""Turns bench_check_ops' CSV (measured on the GPU machine) into the committed results: a Markdown
table of every checking operation as a share of the device's copy bandwidth, the effect of kernel
fusion (paper Figure 9), the 80% target of the fused ww-check, and gnuplot plots.

usage: report_check_ops.py CSV OUT_PREFIX   (writes OUT_PREFIX.md, OUT_PREFIX-*.png)
"""
import csv
import subprocess
import sys
from collections import defaultdict


def human(n):
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= 1 << shift:
            return f"{n >> shift}{unit}"
    return str(n)


def main():
    csv_path, prefix = sys.argv[1], sys.argv[2]
    rows = list(csv.DictReader(open(csv_path)))
    device = rows[0]["device"]
    copy = next(r for r in rows if r["op"] == "device_copy")
    copy_gbs = float(copy["gbps"])
    ms = {(r["op"], int(r["bytes"]), int(r["copies"])): float(r["ms"]) for r in rows if r["op"] != "device_copy"}
    ratio = {(r["op"], int(r["bytes"]), int(r["copies"])): float(r["ratio_to_copy"]) for r in rows if r["op"] != "device_copy"}
    sizes = sorted({k[1] for k in ms})
    copies = sorted({k[2] for k in ms})
    main_ops = ["replicate", "ww_fused", "rw_commit", "merge_ordered", "ww_union", "init_pass2", "rw_check", "commit"]
    big = [n for n in sizes if n >= 32 << 20]

    out = [f"# Checking kernels on {device}", "",
           f"Source: `{csv_path.split('/')[-1]}`, from `bench/bench_check_ops` run by `scripts/gpu_run.sh bench`.",
           f"Device-to-device copy bandwidth (cudaMemcpy, read + write, {human(int(copy['bytes']))}): **{copy_gbs:.0f} GB/s**.",
           "Each operation's bandwidth counts the bytes it must read and write (see the header of",
           "`bench/bench_check_ops.cu`); ratios are to the copy bandwidth measured in the same run. Times are",
           "medians of repeated runs on a race-free state.", ""]

    ww = [ratio[("ww_fused", n, m)] for n in big for m in copies if ("ww_fused", n, m) in ratio]
    verdict = "met" if ww and min(ww) >= 0.8 else "NOT met"
    out += ["## Target: fused ww-check at 32 MB and above >= 80% of copy bandwidth", "",
            f"Minimum over sizes {', '.join(human(n) for n in big)} and {copies[0]}..{copies[-1]} copies: "
            f"**{100 * min(ww):.0f}%** (mean {100 * sum(ww) / len(ww):.0f}%): {verdict}.", ""]

    out += ["## Share of copy bandwidth at 32 MB and above (mean over sizes)", "",
            "| op | " + " | ".join(f"{m} copies" for m in copies) + " |",
            "|---|" + "---|" * len(copies)]
    for op in main_ops:
        cells = []
        for m in copies:
            vals = [ratio[(op, n, m)] for n in big if (op, n, m) in ratio]
            cells.append(f"{100 * sum(vals) / len(vals):.0f}%" if vals else "-")
        out.append(f"| {op} | " + " | ".join(cells) + " |")
    out.append("")

    out += ["## Kernel fusion (paper Figure 9): fused time / unfused time", "",
            "ww: `ww_fused` vs `ww_union` + `init_pass2`; rw: `rw_commit` vs `rw_check` + `commit`.", "",
            "| size | copies | ww fused ms | ww unfused ms | ratio | rw fused ms | rw unfused ms | ratio |",
            "|---|---|---|---|---|---|---|---|"]
    for m in copies:
        for n in sizes:
            if ("ww_fused", n, m) not in ms or n < 1 << 20:
                continue
            wf, wu = ms[("ww_fused", n, m)], ms[("ww_union", n, m)] + ms[("init_pass2", n, m)]
            rf, ru = ms[("rw_commit", n, m)], ms[("rw_check", n, m)] + ms[("commit", n, m)]
            out.append(f"| {human(n)} | {m} | {wf:.3f} | {wu:.3f} | {wf / wu:.2f} | {rf:.3f} | {ru:.3f} | {rf / ru:.2f} |")
    out.append("")

    layouts = sorted({k[0] for k in ms if k[0].startswith("ww_fused[")})
    if layouts:
        out += ["## ww-check register layouts past 16 copies (share of copy bandwidth, largest size)", "",
                "| copies | " + " | ".join(layouts) + " |", "|---|" + "---|" * len(layouts)]
        for m in copies:
            n = max((k[1] for k in ms if k[2] == m), default=None)
            if n is None or not any((l, n, m) in ratio for l in layouts):
                continue
            out.append(f"| {m} | " + " | ".join(f"{100 * ratio[(l, n, m)]:.0f}%" if (l, n, m) in ratio else "-" for l in layouts) + " |")
        out.append("")

    out += ["## Time (ms) of every operation", "",
            "| size | copies | " + " | ".join(main_ops) + " |", "|---|---|" + "---|" * len(main_ops)]
    for m in copies:
        for n in sizes:
            if ("ww_fused", n, m) in ms:
                out.append(f"| {human(n)} | {m} | " + " | ".join(f"{ms[(op, n, m)]:.4f}" for op in main_ops) + " |")
    out += ["", f"Plots: `{prefix.split('/')[-1]}-bandwidth.png` (ww_fused and rw_commit against size), "
            f"`{prefix.split('/')[-1]}-fusion.png` (fused vs unfused time)."]
    open(prefix + ".md", "w").write("\n".join(out) + "\n")

    # Plots with gnuplot: data blocks written inline.
    def series(op, m):
        return "\n".join(f"{n} {float(r['gbps'])}" for r in rows if r["op"] == op and int(r["copies"]) == m
                         for n in [int(r["bytes"])]) + "\ne\n"
    header = ["set terminal pngcairo noenhanced size 1400,600", f"set output '{prefix}-bandwidth.png'",
              "set multiplot layout 1,2", "set logscale x 2", "set xlabel 'bytes per copy'",
              "set ylabel 'GB/s (bytes read + written)'", "set key left top", "set format x '%.0s%cB'",
              "set yrange [0:*]"]
    panels = []
    for op in ("ww_fused", "rw_commit"):
        panels += [f"set title '{op} on {device} (above the copy line: the data fits in L2)'",
                   "plot " + ", ".join([f"'-' with linespoints title '{m} copies'" for m in copies] +
                                       [f"{copy_gbs} with lines dt 2 lw 2 title 'cudaMemcpy D2D'"])]
        panels.append("".join(series(op, m) for m in copies).rstrip("\n"))
    script = header + panels + ["unset multiplot"]
    data = ""
    fusion = ["set terminal pngcairo noenhanced size 1000,600", f"set output '{prefix}-fusion.png'", f"set title 'Kernel fusion on {device}: fused / unfused time'",
              "set ylabel 'fused time / unfused time'", "unset logscale y", "set yrange [0:1.2]", "set key right bottom",
              "plot " + ", ".join(f"'-' with linespoints title 'ww {m} copies'" for m in copies) + ", " +
              ", ".join(f"'-' with linespoints title 'rw+commit {m} copies'" for m in copies)]
    fdata = ""
    for kind in ("ww", "rw"):
        for m in copies:
            for n in sizes:
                if ("ww_fused", n, m) not in ms:
                    continue
                f = ms[("ww_fused", n, m)] / (ms[("ww_union", n, m)] + ms[("init_pass2", n, m)]) if kind == "ww" else \
                    ms[("rw_commit", n, m)] / (ms[("rw_check", n, m)] + ms[("commit", n, m)])
                fdata += f"{n} {f}\n"
            fdata += "e\n"
    subprocess.run(["gnuplot"], input="\n".join(script) + "\n" + data + "\n".join(fusion) + "\n" + fdata,
                   text=True, check=True)
    print(f"wrote {prefix}.md and plots; ww_fused >= 32MB minimum {100 * min(ww):.0f}% of copy bandwidth")


if __name__ == "__main__":
    main()
