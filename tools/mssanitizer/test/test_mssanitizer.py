#!/usr/bin/env python3
"""mssanitizer's test: the command line (--args-only), then the reports on the program of bugs.asc.

  test_mssanitizer.py --mssanitizer PATH --args-only
  test_mssanitizer.py --mssanitizer PATH --app build/main     the program built from tools/mssanitizer/test
"""

import argparse
import re
import subprocess
import sys

FAILURES = []


def check(cond, what, out=""):
    if not cond:
        FAILURES.append(f"{what}\n--- output ---\n{out}")


def run(tool, args):
    p = subprocess.run([sys.executable, tool] + args, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def summary(out):
    m = re.search(r"^====== ERROR SUMMARY: (\d+) errors$", out, re.M)
    return int(m.group(1)) if m else None


def test_args(tool):
    rc, out, err = run(tool, ["--help"])
    check(rc == 0 and "--leak-check" in out, "--help", out + err)
    rc, out, err = run(tool, ["--version"])
    check(rc == 0 and out.startswith("mssanitizer (npurt "), "--version", out + err)
    for args, says in ((["--tool=initcheck", "true"], "--tool=initcheck is not supported on the simulated NPU"),
                       (["--tool=synccheck", "true"], "--tool=synccheck is not supported on the simulated NPU"),
                       (["true", "--check-unused-memory=yes"], "--check-unused-memory=yes is not supported"),
                       (["--tool=nope", "true"], "unknown tool 'nope'"),
                       (["--leak-check=maybe", "true"], "--leak-check takes yes or no"),
                       (["--frobnicate", "true"], "unknown option '--frobnicate'"),
                       ([], "no program to run")):
        rc, out, err = run(tool, args)
        check(rc == 2 and says in err, f"{args}: exit 2 and '{says}'", out + err)
    # A program that does not load npurt: it runs, and the report says nothing was checked.
    rc, out, err = run(tool, ["--", "sh", "-c", "echo hello; exit 3"])
    check(rc == 3 and out.startswith("hello\n") and "nothing was checked" in out and summary(out) == 0,
          "a program without npurt: its output and status pass through", out + err)


def test_app(tool, app):
    rc, out, err = run(tool, [app])
    check(rc == 0 and "clean: test pass!" in out and summary(out) == 0 and "nothing was checked" not in out,
          "clean program: 0 errors, exit 0", out + err)
    rc, out, err = run(tool, [app, "oob"])
    check(rc != 0 and summary(out) == 1, "oob: 1 error, nonzero exit", out + err)
    check(re.search(r"^====== ERROR: illegal read of size 2048$", out, re.M) is not None, "oob: illegal read", out)
    check(re.search(r"^======    at 0x[0-9a-f]+ on GM in add_tiles by DataCopy\(GM->UB\)$", out, re.M) is not None,
          "oob: where", out)
    check(re.search(r"^======    in block 3 \(AI core \d+\), task \d+, stream \d+, device 0$", out, re.M) is not None,
          "oob: which block", out)
    check("the access ends 1024 bytes past the end of the 4096-byte allocation" in out, "oob: by how much", out)
    # Without --leak-check a leak is not reported; with it, exactly the one buffer.
    rc, out, err = run(tool, [app, "leak"])
    check(rc == 0 and summary(out) == 0 and "leak" not in out.split("test pass!")[-1], "leak unchecked", out + err)
    rc, out, err = run(tool, ["--leak-check=yes", app, "leak"])
    check(rc == 1 and summary(out) == 1, "leak: 1 error, exit 1", out + err)
    check("====== ERROR: LeakCheck: detected memory leaks" in out and "Direct leak of 4096 byte(s)" in out
          and "SUMMARY: 4096 byte(s) leaked in 1 allocation(s)" in out, "leak: the report", out)
    rc, out, err = run(tool, [app, "clean", "--leak-check=yes"])  # the option after the program, as CANN's sample
    check(rc == 0 and summary(out) == 0 and "LeakCheck" not in out, "no leak in the clean program", out + err)
    rc, out, err = run(tool, ["--tool=racecheck", app, "race"])
    check(rc == 1 and summary(out) == 1, "race: 1 error, exit 1", out + err)
    check("pipes of one AI core" in out and "RACECHECK: 1 race(s) found" in out, "race: note and count", out)
    check(re.search(r"^====== WARNING: race #1 on device memory: 4096 bytes", out, re.M) is not None
          and "aclrtLaunchKernel 'add_tiles'" in out and "aclrtMemcpyAsync" in out, "race: the sides", out)
    check("npurt racecheck" not in err, "race: reported once, by the tool", err)
    rc, out, err = run(tool, ["--tool=racecheck", app])
    check(rc == 0 and summary(out) == 0 and "RACECHECK: 0 race(s) found" in out, "no race in the clean program",
          out + err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mssanitizer", required=True)
    ap.add_argument("--app")
    ap.add_argument("--args-only", action="store_true")
    a = ap.parse_args()
    if a.args_only:
        test_args(a.mssanitizer)
    else:
        test_app(a.mssanitizer, a.app)
    for f in FAILURES:
        print("FAILED:", f)
    print(f"{len(FAILURES)} failure(s)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
