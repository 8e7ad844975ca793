#!/usr/bin/env python3
"""Turns the raw files of bench/eval.sh (the evaluation suite, examples/eval, measured on the GPU
machine) into the committed results: a CSV with one row per program and every number below, a
Markdown report and a gnuplot plot.

  1. detection (like the LD paper's Table VI): expected verdict from the manifest, ldcc's JSON
     report (kinds, spaces, variables, units, regions, addresses), compute-sanitizer racecheck
  2. slowdown over the native build: check, deterministic and racecheck; geometric means
  3. memory: peak extra device memory and the per-launch times of the LDCC_TIMING runs
  4. profile (like the LD paper's Figure 8): share of each LDCC_PROFILE phase
  5. deterministic outputs: distinct stdouts over the repeats

usage: eval_report.py RAW_DIR MANIFEST DEVICE_TXT OUT_PREFIX [--commit SHA] [--racecheck-timeout S] [--readme README]
  (writes OUT_PREFIX.csv, OUT_PREFIX.md, OUT_PREFIX.png; DEVICE_TXT: 'name, memory, driver' from
  nvidia-smi, then the UTC date). Missing files give '-' (or an empty CSV cell), never an error.
"""
import argparse
import csv
import json
import math
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
from collections import defaultdict

TIMED_MODES = ("native", "check", "deterministic")
RUN_FILE = re.compile(r"^(?P<prog>[^.]+)\.(?P<mode>native|check|deterministic|racecheck|check-timing|deterministic-timing|"
                      r"check-profile|deterministic-profile)\.(?P<i>\d+)\.(?P<ext>out|err|wall|json)$")
SIDE_FILE = re.compile(r"^(?P<prog>[^.]+)\.(?P<mode>check|deterministic)\.(?P<ext>timing|profile)$")
KIND_SHORT = {"write-write": "ww", "read-write": "rw", "ww": "ww", "rw": "rw"}
GPU_MS = re.compile(r"^gpu_ms\s+([-+0-9.eE]+)\s*$", re.M)
RC_SUMMARY = re.compile(r"RACECHECK SUMMARY:\s*(\d+)\s+hazards?\s+displayed\s*\(\s*(\d+)\s+errors?\s*,\s*(\d+)\s+warnings?\s*\)", re.I)
RC_PAIR = re.compile(r"(?:error|warning)\s*:\s*race reported between\s+(\w+)\s+access.*?\band\s+(\w+)\s+access", re.I | re.S)
RC_HAZARD = re.compile(r"potential\s+(WAW|RAW|WAR)\s+hazard", re.I)
MIB = float(1 << 20)


# ---------------------------------------------------------------------------------------------
# Reading the raw files
# ---------------------------------------------------------------------------------------------

def read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def read_text(path):
    data = read_bytes(path)
    return None if data is None else data.decode("utf-8", errors="replace")


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def ratio(a, b):
    return a / b if a is not None and b is not None and b > 0 else None


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def last_gpu_ms(*texts):
    """The program's own 'gpu_ms X' line (the last one), from the first text that has it."""
    for text in texts:
        if text:
            found = GPU_MS.findall(text)
            if found:
                try:
                    return float(found[-1])
                except ValueError:
                    pass
    return None


def self_check(stdout):
    """PASS or FAIL from the last non-empty stdout line, else None (crashed, no verdict)."""
    if stdout is None:
        return None
    lines = [l.strip() for l in stdout.splitlines() if l.strip()]
    return lines[-1] if lines and lines[-1] in ("PASS", "FAIL") else None


def read_wall(path):
    """(exit status, wall ms) from a .wall file, or (None, None)."""
    text = read_text(path)
    if not text:
        return None, None
    parts = text.split()
    try:
        return int(parts[0]), float(parts[1])
    except (IndexError, ValueError):
        return None, None


def read_timing(path):
    """LDCC_TIMING: kernel,mode,us,peak per launch (kernel names may hold commas: split from the right)."""
    text = read_text(path)
    if text is None:
        return None
    launches, us_sum, peak = 0, 0.0, 0
    for line in text.splitlines():
        parts = line.strip().rsplit(",", 3)
        if len(parts) != 4:
            continue
        try:
            us, bytes_ = float(parts[2]), int(float(parts[3]))
        except ValueError:
            continue  # a header or a torn line
        launches += 1
        us_sum += us
        peak = max(peak, bytes_)
    return {"launches": launches, "us_sum": us_sum, "peak_bytes": peak}


def read_profile(path):
    """LDCC_PROFILE: phase,us,count (phase names may hold commas: split from the right)."""
    text = read_text(path)
    if text is None:
        return None
    phases = {}
    for line in text.splitlines():
        parts = line.strip().rsplit(",", 2)
        if len(parts) != 3 or parts[0] == "phase":
            continue
        try:
            us = float(parts[1])
        except ValueError:
            continue
        phases[parts[0]] = phases.get(parts[0], 0.0) + us
    return phases


def merged_length(intervals):
    """Number of integers covered by a union of inclusive intervals."""
    total, end = 0, None
    for lo, hi in sorted(intervals):
        if end is None or lo > end:
            total += hi - lo + 1
            end = hi
        elif hi > end:
            total += hi - end
            end = hi
    return total


def analyse_report(path):
    """ldcc's JSON report (races_to_json in ldruntime/src/report.cpp), or None."""
    text = read_text(path)
    if text is None:
        return None
    try:
        report = json.loads(text)
    except ValueError:
        return {"bad": True}
    races = report.get("races") or []
    kinds, spaces, variables, kernels, regions = set(), set(), set(), set(), set()
    units = defaultdict(set)
    elements = defaultdict(list)
    for r in races:
        kinds.add(KIND_SHORT.get(r.get("kind", ""), r.get("kind", "?")))
        spaces.add(r.get("space", "?"))
        variables.add(r.get("variable", "?"))
        kernels.add(r.get("kernel", "?"))
        regions.add((r.get("kernel", ""), r.get("region", "")))
        for u in list(r.get("units_a") or []) + list(r.get("units_b") or []):
            units[r.get("unit_kind", "unit")].add(u)
        size = int(r.get("element_size") or 1) or 1
        lo, hi = int(r.get("byte_lo", 0)), int(r.get("byte_hi", 0))
        if hi > lo:
            elements[(r.get("space"), r.get("variable"), size)].append((lo // size, (hi - 1) // size))
    return {
        "bad": False,
        "races": len(races),
        "kinds": sorted(kinds),
        "spaces": sorted(spaces),
        "variables": sorted(variables),
        "kernels": sorted(kernels),
        "units": {k: len(v) for k, v in sorted(units.items())},
        "regions_checked": report.get("regions_checked"),
        "regions_with_races": len(regions),
        "addresses": sum(merged_length(v) for v in elements.values()),
        "checked_launches": report.get("checked_launches"),
        "unchecked_launches": report.get("unchecked_launches"),
        "dropped_records": report.get("dropped_records"),
        # kernels checked but for part of their memory (global memory between warps, ...), and why
        "partly_checked": [(g.get("kernel", "?"), g.get("not_checked", "")) for g in report.get("partly_checked") or []],
    }


def analyse_racecheck(out, err, status):
    """compute-sanitizer racecheck: status ok|timeout|failed|missing, the summary counts, the kinds."""
    if out is None and err is None and status is None:
        return {"status": "missing"}
    text = (out or "") + "\n" + (err or "")
    kinds = set()
    for a, b in RC_PAIR.findall(text):
        pair = {a.lower(), b.lower()}
        if pair == {"write"}:
            kinds.add("ww")
        elif pair == {"write", "read"}:
            kinds.add("rw")
    for h in RC_HAZARD.findall(text):
        kinds.add("ww" if h.upper() == "WAW" else "rw")
    found = RC_SUMMARY.findall(text)
    result = {"kinds": sorted(kinds), "exit": status}
    if found:
        hazards, errors, warnings = (int(x) for x in found[-1])
        result.update(status="ok", hazards=hazards, errors=errors, warnings=warnings)
    elif status == 124:
        result["status"] = "timeout"
    else:
        result["status"] = "failed"
    return result


def load_manifest(path):
    rows = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("program"):
                rows.append({k: (v or "").strip() for k, v in row.items() if k})
    return rows


def load_device(path):
    lines = [l.strip() for l in (read_text(path) or "").splitlines() if l.strip()]
    name, memory, driver = (([p.strip() for p in lines[0].split(",")] + ["", "", ""])[:3]) if lines else ("unknown device", "", "")
    return {"name": name, "memory": memory, "driver": driver, "date": lines[1] if len(lines) > 1 else "unknown date"}


# ---------------------------------------------------------------------------------------------
# One program
# ---------------------------------------------------------------------------------------------

def collect(raw, prog, runs, expected, timeout_s):
    """Everything about one program; numbers are None where files are missing."""
    p = {"program": prog, "expected": expected}
    base = os.path.join(raw, prog)
    f = lambda mode, i, ext: f"{base}.{mode}.{i}.{ext}"
    verdict = expected.get("verdict", "")
    p["racy"] = verdict == "race" if verdict in ("race", "clean") else (prog.endswith("_race") if prog.endswith(("_race", "_clean")) else None)

    for mode in TIMED_MODES:
        idx = sorted(runs.get(mode, ()))
        outs = {i: read_bytes(f(mode, i, "out")) for i in idx}
        errs = {i: read_text(f(mode, i, "err")) for i in idx}
        walls = {i: read_wall(f(mode, i, "wall")) for i in idx}
        checks = [self_check(None if outs[i] is None else outs[i].decode("utf-8", "replace")) for i in idx if outs[i] is not None]
        p[mode] = {
            "runs": sum(1 for i in idx if outs[i] is not None),
            "gpu_ms": median(last_gpu_ms(errs[i]) for i in idx),
            "wall_ms": median(walls[i][1] for i in idx),
            "pass": sum(1 for c in checks if c == "PASS"),
            "fail": sum(1 for c in checks if c == "FAIL"),
            "out1": outs.get(1) if outs.get(1) is not None else next((outs[i] for i in idx if outs[i] is not None), None),
            "distinct": len({outs[i] for i in idx if outs[i] is not None}) or None,
        }
    for key in ("check", "deterministic"):
        p[key + "_eq_native"] = None
        if p["racy"] is False and p[key]["out1"] is not None and p["native"]["out1"] is not None:
            p[key + "_eq_native"] = p[key]["out1"] == p["native"]["out1"]

    # Detection: the first check run's report, and how many check runs reported a race.
    json_runs = sorted(i for i in runs.get("check-json", ()))
    p["report"] = analyse_report(f("check", json_runs[0], "json")) if json_runs else None
    reports = [analyse_report(f("check", i, "json")) for i in json_runs]
    reports = [r for r in reports if r and not r["bad"]]
    p["report_runs"] = len(reports)
    p["report_runs_with_races"] = sum(1 for r in reports if r["races"])

    rc_status, rc_wall = read_wall(f("racecheck", 1, "wall"))
    rc_out, rc_err = read_text(f("racecheck", 1, "out")), read_text(f("racecheck", 1, "err"))
    p["racecheck"] = analyse_racecheck(rc_out, rc_err, rc_status)
    p["racecheck"]["wall_ms"] = rc_wall
    p["racecheck"]["gpu_ms"] = last_gpu_ms(rc_err, rc_out) if p["racecheck"]["status"] == "ok" else None

    # Slowdowns; a timed-out racecheck gives lower bounds from process wall times.
    native, check = p["native"]["gpu_ms"], p["check"]["gpu_ms"]
    p["check_over_native"] = ratio(check, native)
    p["det_over_native"] = ratio(p["deterministic"]["gpu_ms"], native)
    rc = p["racecheck"]
    p["rc_over_native"] = ratio(rc["gpu_ms"], native)
    p["rc_over_check"] = ratio(rc["gpu_ms"], check)
    p["rc_lower_bound"] = rc["status"] == "timeout"
    if p["rc_lower_bound"]:
        p["rc_over_native"] = ratio(timeout_s * 1000.0, p["native"]["wall_ms"])
        p["rc_over_check"] = ratio(timeout_s * 1000.0, p["check"]["wall_ms"])

    for mode in ("check", "deterministic"):
        p[mode + "_timing"] = read_timing(f"{base}.{mode}.timing")
        p[mode + "_profile"] = read_profile(f"{base}.{mode}.profile")
    return p


def verdict_of(p):
    """(match or None, reasons): ldcc's report against the manifest's expectation."""
    exp, rep = p["expected"], p["report"]
    if rep is None or rep["bad"] or exp.get("verdict") not in ("race", "clean"):
        return None, []
    if exp["verdict"] == "clean":
        return (True, []) if rep["races"] == 0 else (False, ["false alarm"])
    if rep["races"] == 0:
        return False, ["missed"]
    reasons = []
    want_kinds = {k for k in exp.get("kind", "").split("+") if k and k != "-"}
    if not want_kinds <= set(rep["kinds"]):
        reasons.append("kind")
    if exp.get("space", "-") not in ("", "-") and exp["space"] not in rep["spaces"]:
        reasons.append("space")
    if exp.get("variable", "-") not in ("", "-") and exp["variable"] not in rep["variables"]:
        reasons.append("variable")
    return not reasons, reasons


# ---------------------------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------------------------

def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def fms(x, digits=3):
    return "-" if x is None else f"{x:.{digits}f}"


def fx(x, lower_bound=False):
    return "-" if x is None else ("≥ " if lower_bound else "") + f"{x:.2f}×"


def plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def units_text(units):
    if not units:
        return "0"
    return ", ".join(plural(n, kind) for kind, n in units.items())


def selfcheck_text(m):
    if m["runs"] == 0:
        return "-"
    if m["pass"] == m["runs"]:
        return "PASS"
    if m["fail"] == m["runs"]:
        return "FAIL"
    return f"{m['pass']}/{m['runs']} PASS"


def yes_no(x):
    return "-" if x is None else ("yes" if x else "no")


def racecheck_text(rc, timeout_s):
    s = rc["status"]
    if s == "ok":
        return f"{rc['hazards']} ({plural(rc['errors'], 'error')}, {plural(rc['warnings'], 'warning')})"
    if s == "timeout":
        return f"timed out after {timeout_s:g} s"
    if s == "failed":
        return "failed" + (f" (exit {rc['exit']})" if rc.get("exit") is not None else "")
    return "-"


def num(x):
    """A CSV cell: empty when missing, integers as they are, floats to 4 decimals."""
    if x is None:
        return ""
    if isinstance(x, bool):
        return "1" if x else "0"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return repr(round(x, 4))
    return str(x)


def slug(name):
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


# ---------------------------------------------------------------------------------------------
# Outputs
# ---------------------------------------------------------------------------------------------

def phase_order(programs, mode):
    totals = defaultdict(float)
    for p in programs:
        for phase, us in (p[mode + "_profile"] or {}).items():
            totals[phase] += us
    return sorted(totals, key=lambda ph: (-totals[ph], ph))


def csv_rows(programs, timeout_s):
    phases = {mode: sorted(phase_order(programs, mode), key=slug) for mode in ("check", "deterministic")}
    rows = []
    for p in programs:
        exp, rep, rc = p["expected"], p["report"] or {}, p["racecheck"]
        if rep.get("bad"):
            rep = {}
        match, reasons = verdict_of(p)
        row = {
            "program": p["program"],
            "origin": exp.get("origin", ""),
            "expected_verdict": exp.get("verdict", ""),
            "expected_kind": exp.get("kind", ""),
            "expected_space": exp.get("space", ""),
            "expected_variable": exp.get("variable", ""),
            "expected_kernel": exp.get("kernel", ""),
            "paper_race": exp.get("paper_race", ""),
            "ldcc_race": None if not rep else rep["races"] > 0,
            "ldcc_races": rep.get("races"),
            "ldcc_kinds": ",".join(rep.get("kinds", [])),
            "ldcc_spaces": ",".join(rep.get("spaces", [])),
            "ldcc_variables": ",".join(rep.get("variables", [])),
            "ldcc_kernels": ",".join(rep.get("kernels", [])),
            "ldcc_units": sum(rep["units"].values()) if rep else None,
            "ldcc_unit_kinds": ",".join(f"{k}:{n}" for k, n in rep["units"].items()) if rep else "",
            "regions_checked": rep.get("regions_checked"),
            "regions_with_races": rep.get("regions_with_races"),
            "addresses": rep.get("addresses"),
            "checked_launches": rep.get("checked_launches"),
            "unchecked_launches": rep.get("unchecked_launches"),
            "dropped_records": rep.get("dropped_records"),
            "check_reports": p["report_runs"],
            "check_reports_with_races": p["report_runs_with_races"],
            "verdict_match": match,
            "verdict_mismatch": ",".join(reasons),
            "racecheck_status": rc["status"] if rc["status"] != "missing" else "",
            "racecheck_hazards": rc.get("hazards"),
            "racecheck_errors": rc.get("errors"),
            "racecheck_warnings": rc.get("warnings"),
            "racecheck_kinds": ",".join(rc.get("kinds", [])),
            "racecheck_exit": rc.get("exit"),
            "racecheck_timeout_s": float(timeout_s),
        }
        for mode, key in (("native", "native"), ("check", "check"), ("deterministic", "det")):
            m = p[mode]
            row[f"{key}_runs"] = m["runs"]
            row[f"{key}_pass_runs"] = m["pass"]
            row[f"{key}_fail_runs"] = m["fail"]
        row["check_out_eq_native"] = p["check_eq_native"]
        row["det_out_eq_native"] = p["deterministic_eq_native"]
        row.update({
            "native_gpu_ms": p["native"]["gpu_ms"],
            "check_gpu_ms": p["check"]["gpu_ms"],
            "check_over_native": p["check_over_native"],
            "det_gpu_ms": p["deterministic"]["gpu_ms"],
            "det_over_native": p["det_over_native"],
            "racecheck_gpu_ms": rc.get("gpu_ms"),
            "racecheck_over_native": p["rc_over_native"],
            "racecheck_over_check": p["rc_over_check"],
            "racecheck_ratios_lower_bound": p["rc_lower_bound"] if rc["status"] != "missing" else None,
            "native_wall_ms": p["native"]["wall_ms"],
            "check_wall_ms": p["check"]["wall_ms"],
            "det_wall_ms": p["deterministic"]["wall_ms"],
            "racecheck_wall_ms": rc.get("wall_ms"),
        })
        for mode, key in (("check", "check"), ("deterministic", "det")):
            t = p[mode + "_timing"]
            row[f"{key}_peak_extra_bytes"] = t["peak_bytes"] if t else None
            row[f"{key}_peak_extra_mib"] = t["peak_bytes"] / MIB if t else None
            row[f"{key}_launches"] = t["launches"] if t else None
            row[f"{key}_launch_us_sum"] = t["us_sum"] if t else None
            row[f"{key}_launch_sum_over_native_gpu"] = ratio(t["us_sum"] / 1000.0, p["native"]["gpu_ms"]) if t else None
        row["det_distinct_outputs"] = p["deterministic"]["distinct"]
        row["native_distinct_outputs"] = p["native"]["distinct"]
        for mode, key in (("check", "check"), ("deterministic", "det")):
            prof = p[mode + "_profile"]
            total = sum(prof.values()) if prof else None
            row[f"{key}_profile_total_ms"] = total / 1000.0 if prof else None
            for ph in phases[mode]:
                us = prof.get(ph) if prof else None
                row[f"{key}_profile_us.{slug(ph)}"] = us
                row[f"{key}_profile_pct.{slug(ph)}"] = 100.0 * us / total if us is not None and total else None
        rows.append(row)
    return rows


def geomean_lines(programs, key):
    """Geometric means over all, clean and racy programs, of exact values (not lower bounds)."""
    out = []
    for label, group in (("all", programs), ("clean", [p for p in programs if p["racy"] is False]),
                         ("racy", [p for p in programs if p["racy"]])):
        vals = [p[key] for p in group if p[key] is not None and not (key.startswith("rc_") and p["rc_lower_bound"])]
        g = geomean(vals)
        out.append((label, g, len(vals)))
    return out


def slowdown_tables(programs, timeout_s):
    """Section 2's tables: per program, geometric means and the goals of issue 6 (the README shows them too)."""
    out = ["| program | native ms | check ms | check / native | det. ms | det. / native | racecheck ms "
            "| racecheck / native | racecheck / check | native wall ms | check wall ms |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for p in programs:
        rc, lb = p["racecheck"], p["rc_lower_bound"]
        out.append("| " + " | ".join([p["program"], fms(p["native"]["gpu_ms"]), fms(p["check"]["gpu_ms"]), fx(p["check_over_native"]),
                                      fms(p["deterministic"]["gpu_ms"]), fx(p["det_over_native"]),
                                      fms(rc.get("gpu_ms")) if rc["status"] == "ok" else ("timed out" if lb else "-"),
                                      fx(p["rc_over_native"], lb), fx(p["rc_over_check"], lb),
                                      fms(p["native"]["wall_ms"], 0), fms(p["check"]["wall_ms"], 0)]) + " |")
    out += ["", "Geometric means (racecheck: over the programs where it finished; n = programs counted):", "",
            "| programs | check / native | det. / native | racecheck / native | racecheck / check |", "|---|---:|---:|---:|---:|"]
    means = {key: geomean_lines(programs, key) for key in ("check_over_native", "det_over_native", "rc_over_native", "rc_over_check")}
    for row in range(3):
        label = means["check_over_native"][row][0]
        out.append(f"| {label} | " + " | ".join(
            f"{fx(means[k][row][1])} (n={means[k][row][2]})" if means[k][row][1] is not None else "-"
            for k in ("check_over_native", "det_over_native", "rc_over_native", "rc_over_check")) + " |")
    check_g, det_g = means["check_over_native"][0][1], means["det_over_native"][0][1]
    finished = [(p["rc_over_check"], p["program"]) for p in programs if p["racecheck"]["status"] == "ok" and p["rc_over_check"] is not None]
    goal = lambda ok: "met" if ok else "**not met**"
    out += ["", "Goals (issue 6): "
            + (f"check geomean ≤ 4×: {fx(check_g)}, {goal(check_g <= 4)}; " if check_g is not None else "check geomean ≤ 4×: no data; ")
            + (f"deterministic geomean ≤ 2×: {fx(det_g)}, {goal(det_g <= 2)}; " if det_g is not None else "deterministic geomean ≤ 2×: no data; ")
            + (f"racecheck / check ≥ 10× on every program where racecheck finishes: minimum {fx(min(finished)[0])} "
               f"({min(finished)[1]}; over {plural(len(finished), 'program')}), {goal(min(finished)[0] >= 10)}." if finished else
               "racecheck / check ≥ 10× where racecheck finishes: no racecheck run finished."), ""]
    timed_out = [p for p in programs if p["rc_lower_bound"]]
    if timed_out:
        out += ["racecheck timed out on " + ", ".join(f"{p['program']} (racecheck / check {fx(p['rc_over_check'], True)})" for p in timed_out) + ".", ""]
    return out


def run_line(programs, device, args, repeats, timeout_s):
    """Which device, date, commit and runs the numbers come from."""
    racecheck = (f"one racecheck run (timeout {timeout_s:g} s)" if any(p["racecheck"]["status"] != "missing" for p in programs)
                 else "no racecheck runs")
    return (f"Device: **{device['name']}** ({device['memory']}, driver {device['driver']}); run {device['date']}; "
            f"commit {args.commit or 'unknown'}; "
            + ("1 run each of native, check and deterministic" if repeats == "1" else
               f"{repeats} repeats of native, check and deterministic runs (medians)")
            + f"; {racecheck}.")


README_BEGIN, README_END = "<!-- eval-tables:begin -->", "<!-- eval-tables:end -->"


def update_readme(path, programs, device, args, repeats, timeout_s):
    """Replaces the README's block between README_BEGIN and README_END with this run's slowdown tables."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    begin, end = text.find(README_BEGIN), text.find(README_END)
    if begin < 0 or end < begin:
        sys.exit(f"eval_report: {path} has no {README_BEGIN} ... {README_END} block")
    block = [README_BEGIN, "", run_line(programs, device, args, repeats, timeout_s)
             + f" All tables: `{os.path.relpath(args.out_prefix, os.path.dirname(os.path.abspath(path)))}.md`.", ""]
    block += slowdown_tables(programs, timeout_s)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:begin] + "\n".join(block) + text[end:])


def markdown(programs, missing, device, args, repeats, timeout_s, argv):
    out = [f"# Evaluation suite: ldcc against compute-sanitizer racecheck", "",
           run_line(programs, device, args, repeats, timeout_s), "",
           f"Raw files from `bench/eval.sh` (`{os.path.basename(os.path.normpath(args.raw_dir))}`); "
           f"report: `{' '.join(shlex.quote(a) for a in argv)}`.", ""]
    if missing:
        out += [f"Not run (in the manifest, no raw files): {', '.join(missing)}.", ""]

    # 1. Detection
    out += ["## 1. Detection (LD paper Table VI)", "",
            "ldcc columns from the JSON report of the first check run (`LDCC_REPORT`): units = distinct unit ids over "
            "both sides of every race, per unit kind; regions = regions analysed (`regions_checked`) and distinct "
            "(kernel, region) pairs with a race; addresses = distinct elements in the union of the racy byte ranges "
            "of each variable. ✓: a race where the manifest expects one, with every expected kind (rw+ww: both), the "
            "expected space and the expected variable among those reported; none where it expects none.",
            "compute-sanitizer racecheck only checks **shared memory**: it cannot see races in global memory"
            + (" (" + ", ".join(p["program"] for p in programs if p["expected"].get("space") == "global") + ")"
               if any(p["expected"].get("space") == "global" for p in programs) else "")
            + ", so '0 hazards' there is expected of it, not a verdict on the program.", "",
            "| program | expected | ldcc race? | kinds | spaces | variables | units | regions analysed | regions with races "
            "| addresses | verdict | racecheck hazards | racecheck kinds | self-check native / check "
            "| check out == native | det. out == native |",
            "|---|---|---|---|---|---|---|---:|---:|---:|---|---|---|---|---|---|"]
    for p in programs:
        exp, rep, rc = p["expected"], p["report"], p["racecheck"]
        if exp.get("verdict") == "race":
            expected = f"race: {exp.get('kind', '')} {exp.get('space', '')} {exp.get('variable', '')}"
        else:
            expected = exp.get("verdict") or "-"
        match, reasons = verdict_of(p)
        verdict = "-" if match is None else ("✓" if match else "✗ (" + ", ".join(reasons) + ")")
        if rep is None or rep["bad"]:
            ld = ["-" if rep is None else "bad JSON"] + ["-"] * 7
        else:
            race = "yes" if rep["races"] else "no"
            if p["report_runs"] > 1:
                race += f" ({p['report_runs_with_races']}/{p['report_runs']} runs)"
            ld = [race, ",".join(rep["kinds"]) or "-", ",".join(rep["spaces"]) or "-", ", ".join(rep["variables"]) or "-",
                  units_text(rep["units"]), fms(rep["regions_checked"], 0) if isinstance(rep["regions_checked"], (int, float)) else "-",
                  str(rep["regions_with_races"]), str(rep["addresses"])]
        clean = p["racy"] is False
        out.append("| " + " | ".join(cell(c) for c in [p["program"], expected] + ld + [
            verdict, racecheck_text(rc, timeout_s), ",".join(rc.get("kinds", [])) or "-",
            f"{selfcheck_text(p['native'])} / {selfcheck_text(p['check'])}",
            yes_no(p["check_eq_native"]) if clean else "n/a", yes_no(p["deterministic_eq_native"]) if clean else "n/a"]) + " |")
    odd = [p for p in programs if p["report"] and not p["report"]["bad"] and
           (p["report"]["unchecked_launches"] or p["report"]["dropped_records"])]
    for p in odd:
        out.append(f"\n{p['program']}: {p['report']['unchecked_launches']} unchecked launches, "
                   f"{p['report']['dropped_records']} dropped race records.")
    for p in programs:
        for kernel, what in (p["report"] or {}).get("partly_checked", []):
            out.append(f"\n{p['program']}: kernel {kernel} not checked for {what}.")
    out.append("")

    # 2. Slowdown
    out += ["## 2. Slowdown over the native build", "",
            "GPU ms: the program's GPU section timed with CUDA events (`gpu_ms` on stderr), median over the repeats; "
            "ratios are over the native median. racecheck / check: how many times faster ldcc's check mode is than "
            "racecheck. ≥: racecheck timed out; the bound is the timeout over the median process wall time of the "
            "native (racecheck / native) or check run (racecheck / check). Process wall ms: the whole process.", ""]
    out += slowdown_tables(programs, timeout_s)

    # 3. Memory
    out += ["## 3. Memory and per-launch time", "",
            "From the `LDCC_TIMING` runs (one run per mode, every launch synchronized): peak extra device memory of the "
            "process (MiB), the number of launches, and the sum of the launches' host wall times against the native GPU ms.", ""]
    # Every program gets a row once any was timed: one without a timing run shows '-'.
    timed = programs if any(p["check_timing"] or p["deterministic_timing"] for p in programs) else []
    if not timed:
        out += ["No timing runs (`EVAL_STEPS` without `profile`)."]
    else:
        out += ["| program | check peak MiB | det. peak MiB | check launches | check Σ launch ms | check Σ / native | "
                "det. launches | det. Σ launch ms | det. Σ / native | native ms |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for p in timed:
        t, d, n = p["check_timing"], p["deterministic_timing"], p["native"]["gpu_ms"]
        out.append("| " + " | ".join([
            p["program"], fms(t["peak_bytes"] / MIB, 2) if t else "-", fms(d["peak_bytes"] / MIB, 2) if d else "-",
            str(t["launches"]) if t else "-", fms(t["us_sum"] / 1000.0) if t else "-", fx(ratio(t["us_sum"] / 1000.0, n)) if t else "-",
            str(d["launches"]) if d else "-", fms(d["us_sum"] / 1000.0) if d else "-", fx(ratio(d["us_sum"] / 1000.0, n)) if d else "-",
            fms(n)]) + " |")
    out.append("")

    # 4. Profile
    out += ["## 4. Where the time goes (LD paper Figure 8)", "",
            "From the `LDCC_PROFILE` runs (one run per mode, each phase synchronized): the share of each phase in the "
            "profile's total; phases ordered by their total over all programs.", ""]
    for mode, title in (("check", "Check mode"), ("deterministic", "Deterministic mode")):
        phases = phase_order(programs, mode)
        out += [f"### {title}", ""]
        if not phases:
            out += ["No profile.", ""]
            continue
        out += ["| program | " + " | ".join(cell(ph) for ph in phases) + " | total ms |",
                "|---|" + "---:|" * (len(phases) + 1)]
        for p in programs:
            prof = p[mode + "_profile"]
            total = sum(prof.values()) if prof else 0.0
            cells = [(f"{100.0 * prof[ph] / total:.1f}%" if total else "0.0%") if prof and ph in prof else "-" for ph in phases]
            out.append(f"| {p['program']} | " + " | ".join(cells) + f" | {fms(total / 1000.0) if prof else '-'} |")
        out.append("")

    # 5. Deterministic outputs
    out += ["## 5. Deterministic outputs", "",
            "Distinct stdouts (stderr ignored) over the repeats: deterministic mode should give one, also for racy programs.", "",
            "| program | det. runs | distinct det. outputs | native runs | distinct native outputs | det. self-check |",
            "|---|---:|---:|---:|---:|---|"]
    for p in programs:
        d, n = p["deterministic"], p["native"]
        out.append(f"| {p['program']} | {d['runs'] or '-'} | {d['distinct'] or '-'} | {n['runs'] or '-'} | {n['distinct'] or '-'} "
                   f"| {selfcheck_text(d)} |")
    out += ["", f"Plot: `{os.path.basename(args.out_prefix)}.png` (slowdown over native, log scale).", ""]
    return "\n".join(out)


def gnuplot_terminal(gnuplot):
    try:
        listing = subprocess.run([gnuplot, "-e", "set terminal"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    text = listing.stdout + listing.stderr
    if re.search(r"^\s*pngcairo\b", text, re.M):
        return "pngcairo noenhanced font ',10'"
    if re.search(r"^\s*png\b", text, re.M):
        return "png noenhanced"
    return None


def plot(programs, prefix, device):
    gnuplot = shutil.which("gnuplot")
    if gnuplot is None:
        print("eval_report: warning: gnuplot not found, no plot", file=sys.stderr)
        return False
    terminal = gnuplot_terminal(gnuplot)
    if terminal is None:
        print("eval_report: warning: gnuplot has neither the pngcairo nor the png terminal, no plot", file=sys.stderr)
        return False
    val = lambda x: "?" if x is None else repr(x)
    data = []
    for p in programs:
        lb = p["rc_lower_bound"]
        data.append(f"{p['program']} {val(p['check_over_native'])} {val(p['det_over_native'])} "
                    f"{val(None if lb else p['rc_over_native'])} {val(p['rc_over_native'] if lb else None)}")
    values = [v for p in programs for v in (p["check_over_native"], p["det_over_native"], p["rc_over_native"]) if v]
    top = max(values + [10.0]) * 3
    width = max(1000, 70 * len(programs) + 200)
    script = [f"set terminal {terminal} size {width},600", f"set output '{prefix}.png'",
              f"set title 'Slowdown over the native build on {device['name']} (median GPU time; hatched: racecheck timed out, lower bound)'",
              "set datafile missing '?'", "set style fill solid 0.85 border -1", "set boxwidth 0.26", "set logscale y",
              f"set yrange [0.5:{top:.6g}]", f"set xrange [-0.6:{len(programs) - 0.4}]",
              "set ylabel 'time / native time'", "set xtics rotate by -35 nomirror", "set grid ytics", "set key left top",
              "set arrow from graph 0, first 4 to graph 1, first 4 nohead dt 2 lw 1.5 lc rgb '#555555' front",
              "set arrow from graph 0, first 2 to graph 1, first 2 nohead dt 3 lw 1.5 lc rgb '#555555' front",
              "set rmargin 16", "set label 'check goal 4x' at graph 1, first 4 left offset 1,0 front",
              "set label 'det. goal 2x' at graph 1, first 2 left offset 1,0 front",
              "$data << EOD", *data, "EOD",
              "plot $data using ($0-0.28):2:xtic(1) with boxes title 'check' lc rgb '#1f77b4', "
              "'' using 0:3 with boxes title 'deterministic' lc rgb '#2ca02c', "
              "'' using ($0+0.28):4 with boxes title 'racecheck' lc rgb '#d62728', "
              "'' using ($0+0.28):5 with boxes title 'racecheck (timed out, >=)' lc rgb '#d62728' fillstyle pattern 4 border lc rgb '#d62728'"]
    try:
        result = subprocess.run([gnuplot], input="\n".join(script) + "\n", text=True, capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as e:
        print(f"eval_report: warning: gnuplot failed ({e}), no plot", file=sys.stderr)
        return False
    if result.returncode != 0:
        print(f"eval_report: warning: gnuplot failed, no plot:\n{result.stderr}", file=sys.stderr)
        return False
    return True


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description="Tables and plot of the evaluation suite (bench/eval.sh's raw files).")
    parser.add_argument("raw_dir")
    parser.add_argument("manifest")
    parser.add_argument("device_txt")
    parser.add_argument("out_prefix")
    parser.add_argument("--commit", default="")
    parser.add_argument("--readme", help="a README whose eval-tables block gets this run's slowdown tables")
    parser.add_argument("--racecheck-timeout", type=float, default=60.0,
                        help="RACECHECK_TIMEOUT of bench/eval.sh, in seconds (default 60, as there)")
    args = parser.parse_args(argv)
    timeout_s = args.racecheck_timeout

    runs = defaultdict(lambda: defaultdict(set))
    try:
        names = sorted(os.listdir(args.raw_dir))
    except OSError as e:
        sys.exit(f"eval_report: cannot read {args.raw_dir}: {e}")
    for name in names:
        m = RUN_FILE.match(name)
        if m:
            mode = m["mode"] if m["ext"] != "json" else "check-json"
            if m["ext"] == "out" or m["ext"] == "json" or mode not in TIMED_MODES:
                runs[m["prog"]][mode].add(int(m["i"]))
            elif m["ext"] in ("err", "wall"):
                runs[m["prog"]][mode]  # a program seen, its run counted by its .out
            continue
        m = SIDE_FILE.match(name)
        if m:
            runs[m["prog"]][m["mode"] + "-side"]

    manifest = load_manifest(args.manifest)
    known = [row["program"] for row in manifest]
    order = [p for p in known if p in runs] + sorted(p for p in runs if p not in known)
    missing = [p for p in known if p not in runs]
    expected = {row["program"]: row for row in manifest}
    device = load_device(args.device_txt)
    programs = [collect(args.raw_dir, p, runs[p], expected.get(p, {}), timeout_s) for p in order]
    counts = [p[m]["runs"] for p in programs for m in TIMED_MODES if p[m]["runs"]]
    repeats = "0" if not counts else (str(max(counts)) if min(counts) == max(counts) else f"{min(counts)}-{max(counts)}")

    os.makedirs(os.path.dirname(os.path.abspath(args.out_prefix)), exist_ok=True)
    rows = csv_rows(programs, timeout_s)
    with open(args.out_prefix + ".csv", "w", newline="") as f:
        fields = list(rows[0].keys()) if rows else ["program"]
        writer = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: num(v) for k, v in row.items()})
    command = ["bench/eval_report.py"] + argv
    with open(args.out_prefix + ".md", "w") as f:
        f.write(markdown(programs, missing, device, args, repeats, timeout_s, command))
    if args.readme:
        update_readme(args.readme, programs, device, args, repeats, timeout_s)
    plotted = plot(programs, args.out_prefix, device)
    print(f"eval_report: wrote {args.out_prefix}.csv, {args.out_prefix}.md" + (f", {args.out_prefix}.png" if plotted else "")
          + f" ({len(programs)} programs)")


if __name__ == "__main__":
    main()
