#!/usr/bin/env python3
"""bench/eval_report.py on a hand-written raw directory (eval_report_fixture/: scan_clean, race-free,
racecheck timed out; kmeans_race, two races in the JSON report, racecheck finished). Host only.

Fixture numbers (3 repeats): scan_clean native gpu_ms 9/10/11 (median 10), check 24/26/25 (25),
deterministic 15.5/14.5/15 (15); wall ms native 300/290/330 (300), check 400/420/410 (410).
kmeans_race native 4/4/4, check 12/10/14 (12), deterministic 6.2/5.8/6 (6), racecheck gpu_ms 400.
"""
import csv
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "bench", "eval_report.py")
FIXTURE = os.path.join(HERE, "eval_report_fixture")

spec = importlib.util.spec_from_file_location("eval_report", SCRIPT)
eval_report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(eval_report)


def run_report(raw, out_prefix, *extra, env=None):
    result = subprocess.run([sys.executable, SCRIPT, raw, os.path.join(FIXTURE, "manifest.csv"),
                             os.path.join(FIXTURE, "device.txt"), out_prefix, *extra],
                            capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise AssertionError(f"eval_report.py failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    with open(out_prefix + ".csv", newline="") as f:
        rows = {r["program"]: r for r in csv.DictReader(f)}
    with open(out_prefix + ".md", encoding="utf-8") as f:
        md = f.read()
    return rows, md, result


class FixtureReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="eval_report_test.")
        cls.prefix = os.path.join(cls.tmp, "eval")
        cls.rows, cls.md, _ = run_report(os.path.join(FIXTURE, "raw"), cls.prefix, "--commit", "abc1234")
        with open(cls.prefix + ".csv") as f:
            cls.header = next(csv.reader(f))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_rows_in_manifest_order(self):
        self.assertEqual(list(self.rows), ["scan_clean", "kmeans_race"])

    def test_csv_columns(self):
        fixed = ["program", "origin", "expected_verdict", "expected_kind", "expected_space", "expected_variable",
                 "expected_kernel", "paper_race", "ldcc_race", "ldcc_races", "ldcc_kinds", "ldcc_spaces",
                 "ldcc_variables", "ldcc_kernels", "ldcc_units", "ldcc_unit_kinds", "regions_checked",
                 "regions_with_races", "addresses", "checked_launches", "unchecked_launches", "dropped_records",
                 "check_reports", "check_reports_with_races", "verdict_match", "verdict_mismatch",
                 "racecheck_status", "racecheck_hazards", "racecheck_errors", "racecheck_warnings", "racecheck_kinds",
                 "racecheck_exit", "racecheck_timeout_s", "native_runs", "native_pass_runs", "native_fail_runs",
                 "check_runs", "check_pass_runs", "check_fail_runs", "det_runs", "det_pass_runs", "det_fail_runs",
                 "check_out_eq_native", "det_out_eq_native", "native_gpu_ms", "check_gpu_ms", "check_over_native",
                 "det_gpu_ms", "det_over_native", "racecheck_gpu_ms", "racecheck_over_native", "racecheck_over_check",
                 "racecheck_ratios_lower_bound", "native_wall_ms", "check_wall_ms", "det_wall_ms", "racecheck_wall_ms",
                 "check_peak_extra_bytes", "check_peak_extra_mib", "check_launches", "check_launch_us_sum",
                 "check_launch_sum_over_native_gpu", "det_peak_extra_bytes", "det_peak_extra_mib", "det_launches",
                 "det_launch_us_sum", "det_launch_sum_over_native_gpu", "det_distinct_outputs",
                 "native_distinct_outputs", "check_profile_total_ms"]
        self.assertEqual(self.header[:len(fixed)], fixed)
        self.assertIn("check_profile_pct.level_w_kernel_two_passes_per_region_checks_at_barriers", self.header)
        self.assertIn("det_profile_us.ordered_merge", self.header)

    def test_detection_clean(self):
        r = self.rows["scan_clean"]
        self.assertEqual((r["ldcc_race"], r["ldcc_races"], r["verdict_match"], r["verdict_mismatch"]), ("0", "0", "1", ""))
        self.assertEqual((r["regions_checked"], r["regions_with_races"], r["addresses"], r["ldcc_units"]), ("1408", "0", "0", "0"))
        self.assertEqual((r["check_reports"], r["check_reports_with_races"]), ("3", "0"))
        self.assertEqual((r["check_out_eq_native"], r["det_out_eq_native"]), ("1", "1"))
        self.assertEqual((r["native_pass_runs"], r["check_pass_runs"], r["det_pass_runs"]), ("3", "3", "3"))

    def test_detection_racy(self):
        r = self.rows["kmeans_race"]
        self.assertEqual((r["ldcc_race"], r["ldcc_races"], r["ldcc_kinds"], r["ldcc_spaces"], r["ldcc_variables"]),
                         ("1", "2", "rw,ww", "shared", "s_red"))
        # units {1,2} and {0} in the first race, {3} and {2} in the second: warps 0..3.
        self.assertEqual((r["ldcc_units"], r["ldcc_unit_kinds"]), ("4", "warp:4"))
        # bytes [0,8) and [4,16) of 4-byte s_red: elements 0..3.
        self.assertEqual((r["addresses"], r["regions_checked"], r["regions_with_races"]), ("4", "180", "2"))
        self.assertEqual((r["verdict_match"], r["check_reports"], r["check_reports_with_races"]), ("1", "2", "2"))
        self.assertEqual((r["check_out_eq_native"], r["det_out_eq_native"]), ("", ""))  # racy: not compared
        self.assertEqual((r["native_pass_runs"], r["native_fail_runs"]), ("2", "1"))

    def test_racecheck(self):
        k, s = self.rows["kmeans_race"], self.rows["scan_clean"]
        self.assertEqual((k["racecheck_status"], k["racecheck_hazards"], k["racecheck_errors"], k["racecheck_warnings"],
                          k["racecheck_kinds"], k["racecheck_gpu_ms"]), ("ok", "2", "1", "1", "rw", "400.0"))
        self.assertEqual((s["racecheck_status"], s["racecheck_hazards"], s["racecheck_exit"], s["racecheck_gpu_ms"]),
                         ("timeout", "", "124", ""))

    def test_slowdown(self):
        s, k = self.rows["scan_clean"], self.rows["kmeans_race"]
        self.assertEqual((s["native_gpu_ms"], s["check_gpu_ms"], s["det_gpu_ms"]), ("10.0", "25.0", "15.0"))
        self.assertEqual((s["check_over_native"], s["det_over_native"]), ("2.5", "1.5"))
        self.assertEqual((s["native_wall_ms"], s["check_wall_ms"]), ("300.0", "410.0"))
        # racecheck timed out after 60 s: 60000 / 410 and 60000 / 300, lower bounds.
        self.assertEqual((s["racecheck_over_check"], s["racecheck_over_native"], s["racecheck_ratios_lower_bound"]),
                         ("146.3415", "200.0", "1"))
        self.assertEqual((k["check_over_native"], k["det_over_native"]), ("3.0", "1.5"))
        self.assertEqual((k["racecheck_over_native"], k["racecheck_over_check"], k["racecheck_ratios_lower_bound"]),
                         ("100.0", "33.3333", "0"))

    def test_memory_and_outputs(self):
        s, k = self.rows["scan_clean"], self.rows["kmeans_race"]
        self.assertEqual((s["check_peak_extra_bytes"], s["check_peak_extra_mib"], s["check_launches"], s["check_launch_us_sum"]),
                         ("2097152", "2.0", "3", "25000.5"))
        self.assertEqual((s["det_peak_extra_mib"], s["det_launch_us_sum"], s["det_launch_sum_over_native_gpu"]), ("0.5", "15000.0", "1.5"))
        self.assertEqual((k["check_launches"], k["check_launch_sum_over_native_gpu"]), ("2", "3.0"))
        self.assertEqual((s["det_distinct_outputs"], s["native_distinct_outputs"]), ("1", "1"))
        self.assertEqual((k["det_distinct_outputs"], k["native_distinct_outputs"]), ("1", "2"))

    def test_profile(self):
        s, k = self.rows["scan_clean"], self.rows["kmeans_race"]
        lw = "level_w_kernel_two_passes_per_region_checks_at_barriers"  # a phase name with a comma in it
        self.assertEqual((s["check_profile_total_ms"], s[f"check_profile_pct.{lw}"], s["check_profile_pct.reports"]), ("1.0", "80.0", "5.0"))
        self.assertEqual((k[f"check_profile_pct.{lw}"], k["check_profile_pct.reports"], k["det_profile_total_ms"]), ("75.0", "", ""))
        self.assertIn("| program | level W kernel (two passes per region, checks at barriers) | copies and log allocation "
                      "| free buffers | reports | total ms |", self.md)
        self.assertIn("| scan_clean | 80.0% | 10.0% | 5.0% | 5.0% | 1.000 |", self.md)
        self.assertIn("| kmeans_race | - | - | - |", self.md)  # no deterministic profile

    def test_markdown(self):
        md = self.md
        self.assertIn("Device: **NVIDIA H200** (143771 MiB, driver 580.159.04); run 2026-11-23T10:00Z; commit abc1234; "
                      "3 repeats", md)
        self.assertIn("only checks **shared memory**", md)
        self.assertIn("| scan_clean | clean | no (0/3 runs) | - | - | - | 0 | 1408 | 0 | 0 | ✓ | timed out after 60 s | - "
                      "| PASS / PASS | yes | yes |", md)
        self.assertIn("| kmeans_race | race: rw shared s_red | yes (2/2 runs) | rw,ww | shared | s_red | 4 warps | 180 | 2 | 4 "
                      "| ✓ | 2 (1 error, 1 warning) | rw | 2/3 PASS / PASS | n/a | n/a |", md)
        self.assertIn("| scan_clean | 10.000 | 25.000 | 2.50× | 15.000 | 1.50× | timed out | ≥ 200.00× | ≥ 146.34× | 300 | 410 |", md)
        self.assertIn("| kmeans_race | 4.000 | 12.000 | 3.00× | 6.000 | 1.50× | 400.000 | 100.00× | 33.33× | 250 | 600 |", md)
        # geomean of 2.5 and 3.0: sqrt(7.5) = 2.7386
        self.assertIn("| all | 2.74× (n=2) | 1.50× (n=2) | 100.00× (n=1) | 33.33× (n=1) |", md)
        self.assertIn("| clean | 2.50× (n=1) | 1.50× (n=1) | - | - |", md)
        self.assertIn("| racy | 3.00× (n=1) | 1.50× (n=1) | 100.00× (n=1) | 33.33× (n=1) |", md)
        self.assertIn("check geomean ≤ 4×: 2.74×, met; deterministic geomean ≤ 2×: 1.50×, met; racecheck / check ≥ 10× "
                      "on every program where racecheck finishes: minimum 33.33× (kmeans_race; over 1 program), met.", md)
        self.assertIn("| scan_clean | 2.00 | 0.50 | 3 | 25.000 | 2.50× | 3 | 15.000 | 1.50× | 10.000 |", md)
        self.assertIn("| kmeans_race | 3 | 1 | 3 | 2 | PASS |", md)

    def test_partly_checked(self):
        # The first check run's JSON report lists a kernel checked but for part of its memory.
        self.assertIn("\nscan_clean: kernel uniform_add not checked for global memory between the warps of a block "
                      "(the blocks' write footprints in g_data interleave).\n", self.md)
        self.assertNotIn("kmeans_race: kernel", self.md)

    def test_plot(self):
        if shutil.which("gnuplot") is None:
            self.skipTest("no gnuplot")
        with open(self.prefix + ".png", "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


class Readme(unittest.TestCase):
    """--readme: the block between the markers gets the run line and the slowdown tables; the rest stays."""

    def test_block_replaced(self):
        with tempfile.TemporaryDirectory(prefix="eval_report_test.") as tmp:
            readme = os.path.join(tmp, "README.md")
            with open(readme, "w") as f:
                f.write("# Title\nbefore\n<!-- eval-tables:begin -->\nold table\n<!-- eval-tables:end -->\nafter\n")
            run_report(os.path.join(FIXTURE, "raw"), os.path.join(tmp, "results", "eval"), "--commit", "abc1234",
                       "--readme", readme)
            with open(readme) as f:
                text = f.read()
            self.assertTrue(text.startswith("# Title\nbefore\n<!-- eval-tables:begin -->\n\nDevice: **"))
            self.assertTrue(text.endswith("<!-- eval-tables:end -->\nafter\n"))
            self.assertNotIn("old table", text)
            self.assertIn("commit abc1234; 3 repeats of native, check and deterministic runs (medians); one racecheck run "
                          "(timeout 60 s). All tables: `results/eval.md`.", text)
            self.assertIn("| program | native ms | check ms | check / native |", text)
            self.assertIn("| scan_clean | 10.000 | 25.000 | 2.50× |", text)
            self.assertIn("Goals (issue 6): check geomean ≤ 4×: 2.74×, met;", text)
            self.assertNotIn("## 1. Detection", text)

    def test_readme_without_block(self):
        with tempfile.TemporaryDirectory(prefix="eval_report_test.") as tmp:
            readme = os.path.join(tmp, "README.md")
            with open(readme, "w") as f:
                f.write("no markers\n")
            result = subprocess.run([sys.executable, SCRIPT, os.path.join(FIXTURE, "raw"), os.path.join(FIXTURE, "manifest.csv"),
                                     os.path.join(FIXTURE, "device.txt"), os.path.join(tmp, "eval"), "--readme", readme],
                                    capture_output=True, text=True)
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("has no <!-- eval-tables:begin --> ... <!-- eval-tables:end --> block", result.stderr)
            with open(readme) as f:
                self.assertEqual(f.read(), "no markers\n")


class MissingFiles(unittest.TestCase):
    """Files removed: '-' in the tables, never a crash; no gnuplot: a warning, no plot."""

    def test_missing(self):
        with tempfile.TemporaryDirectory(prefix="eval_report_test.") as tmp:
            raw = os.path.join(tmp, "raw")
            shutil.copytree(os.path.join(FIXTURE, "raw"), raw)
            for name in os.listdir(raw):
                if name.startswith("kmeans_race.") and (".racecheck." in name or name.endswith((".json", ".profile", ".timing"))):
                    os.remove(os.path.join(raw, name))
                if name.startswith("scan_clean.check.") and name.endswith(".err"):
                    os.remove(os.path.join(raw, name))  # no gpu_ms for check
            os.remove(os.path.join(raw, "scan_clean.racecheck.1.out"))  # timed out: only .err and .wall left
            empty_path = os.path.join(tmp, "bin")
            os.mkdir(empty_path)
            env = dict(os.environ, PATH=empty_path)
            rows, md, result = run_report(raw, os.path.join(tmp, "eval"), "--racecheck-timeout", "30", env=env)
            self.assertIn("gnuplot not found", result.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "eval.png")))
            s, k = rows["scan_clean"], rows["kmeans_race"]
            self.assertEqual((s["check_gpu_ms"], s["check_over_native"], s["racecheck_status"]), ("", "", "timeout"))
            self.assertEqual((s["racecheck_over_check"], s["racecheck_over_native"]), ("73.1707", "100.0"))  # 30000/410, 30000/300
            self.assertEqual((k["ldcc_race"], k["verdict_match"], k["racecheck_status"], k["check_launches"]), ("", "", "", ""))
            self.assertIn("| kmeans_race | race: rw shared s_red | - | - | - | - | - | - | - | - | - | - | - |", md)
            self.assertIn("| kmeans_race | - | - | - | - | - | - | - | - | 4.000 |", md)  # no timing run: a row of '-'
            self.assertIn("timed out after 30 s", md)
            self.assertIn("| all | 3.00× (n=1) |", md)
            self.assertIn("no racecheck run finished", md)

    def test_no_racecheck_runs(self):
        with tempfile.TemporaryDirectory(prefix="eval_report_test.") as tmp:
            raw = os.path.join(tmp, "raw")
            shutil.copytree(os.path.join(FIXTURE, "raw"), raw)
            for name in os.listdir(raw):
                if ".racecheck." in name:
                    os.remove(os.path.join(raw, name))
            _, md, _ = run_report(raw, os.path.join(tmp, "eval"))
            self.assertIn("repeats of native, check and deterministic runs (medians); no racecheck runs.", md)
            self.assertNotIn("one racecheck run", md)

    def test_no_timing_or_profile_runs(self):
        with tempfile.TemporaryDirectory(prefix="eval_report_test.") as tmp:
            raw = os.path.join(tmp, "raw")
            shutil.copytree(os.path.join(FIXTURE, "raw"), raw)
            for name in os.listdir(raw):
                if name.endswith((".timing", ".profile", ".profile.kernels")):
                    os.remove(os.path.join(raw, name))
            _, md, _ = run_report(raw, os.path.join(tmp, "eval"))
            self.assertIn("No timing runs (`EVAL_STEPS` without `profile`).", md)
            self.assertNotIn("| check peak MiB |", md)
            self.assertIn("### Check mode\n\nNo profile.", md)

    def test_empty_raw_dir(self):
        with tempfile.TemporaryDirectory(prefix="eval_report_test.") as tmp:
            os.mkdir(os.path.join(tmp, "raw"))
            rows, md, _ = run_report(os.path.join(tmp, "raw"), os.path.join(tmp, "eval"))
            self.assertEqual(rows, {})
            self.assertIn("Not run (in the manifest, no raw files): scan_clean, kmeans_race.", md)


class Parsers(unittest.TestCase):
    def test_racecheck_forms(self):
        text = ("========= WARNING: Race reported between Read access at 0xf10 in a.cu:12:k(int*)\n"
                "=========     and Write access at 0x8a0 in a.cu:13:k(int*) [3968 hazards]\n"
                "========= Error: Race reported between Write access at k(int*)+0x10 in a.cu:14\n"
                "=========     and Write access at k(int*)+0x20 in a.cu:14 [2 hazards]\n"
                "========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)\n")
        rc = eval_report.analyse_racecheck(text, None, 0)
        self.assertEqual((rc["status"], rc["hazards"], rc["errors"], rc["warnings"], rc["kinds"]), ("ok", 2, 1, 1, ["rw", "ww"]))
        rc = eval_report.analyse_racecheck("========= ERROR: Potential WAW hazard detected at __shared__ 0x0 in block (0, 0, 0)\n"
                                           "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)", "", 0)
        self.assertEqual((rc["status"], rc["kinds"]), ("ok", ["ww"]))
        self.assertEqual(eval_report.analyse_racecheck("========= COMPUTE-SANITIZER\n", "", 1)["status"], "failed")
        self.assertEqual(eval_report.analyse_racecheck(None, None, 124)["status"], "timeout")
        self.assertEqual(eval_report.analyse_racecheck(None, None, None)["status"], "missing")

    def test_verdict(self):
        def verdict(expected, races):
            rep = {"bad": False, "races": len(races), "kinds": sorted({r[0] for r in races}),
                   "spaces": sorted({r[1] for r in races}), "variables": sorted({r[2] for r in races})}
            return eval_report.verdict_of({"expected": expected, "report": rep})
        bfs = {"verdict": "race", "kind": "rw+ww", "space": "global", "variable": "g_cost"}
        self.assertEqual(verdict(bfs, [("ww", "global", "g_cost"), ("rw", "global", "g_cost"), ("ww", "global", "g_over")]), (True, []))
        self.assertEqual(verdict(bfs, [("ww", "global", "g_cost")]), (False, ["kind"]))
        self.assertEqual(verdict(bfs, [("rw", "shared", "s"), ("ww", "shared", "s")]), (False, ["space", "variable"]))
        self.assertEqual(verdict(bfs, []), (False, ["missed"]))
        self.assertEqual(verdict({"verdict": "clean"}, [("ww", "global", "x")]), (False, ["false alarm"]))

    def test_merged_length(self):
        self.assertEqual(eval_report.merged_length([(0, 1), (1, 3), (10, 10), (2, 2)]), 5)
        self.assertEqual(eval_report.merged_length([]), 0)


if __name__ == "__main__":
    unittest.main()
