#!/usr/bin/env python3
"""bench/probes/ab_table.py on a hand-written ab.csv: medians with their runs, the change of each variant
against the first, rows by program then mode, native rows left out, memory limits named, an unknown baseline refused. Host only."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "bench", "probes", "ab_table.py")

CSV = """variant,program,mode,limit,run,gpu_ms
A,scan,native,,1,1.5
A,scan,check,,1,100
A,scan,check,,2,120
A,scan,check,,3,110
A,em,deterministic,,1,20
B,scan,check,,1,90
B,scan,check,,2,99
B,scan,check,,3,80
B,em,deterministic,,1,22
A,em,check,64M,1,40
B,em,check,64M,1,30
"""


def run(*args):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ab.csv")
        with open(path, "w") as f:
            f.write(CSV)
        return subprocess.run([sys.executable, SCRIPT, path, *args], capture_output=True, text=True)


class AbTableTest(unittest.TestCase):
    def test_rows(self):
        result = run()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.splitlines(), [
            "| program | mode | A | B | B / A |",
            "|---|---|---|---|---|",
            "| em (limit 64M) | check | 40.0 (40.0) | 30.0 (30.0) | -25.0% |",
            "| em | deterministic | 20.0 (20.0) | 22.0 (22.0) | +10.0% |",
            "| scan | check | 110.0 (100.0 120.0 110.0) | 90.0 (90.0 99.0 80.0) | -18.2% |",
        ])

    def test_baseline(self):
        result = run("--baseline", "B")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("| scan | check | 90.0 (90.0 99.0 80.0) | 110.0 (100.0 120.0 110.0) | +22.2% |",
                      result.stdout.splitlines())

    def test_unknown_baseline(self):
        result = run("--baseline", "Z")
        self.assertEqual(result.returncode, 1)
        self.assertIn("no variant Z", result.stderr)


if __name__ == "__main__":
    unittest.main()
