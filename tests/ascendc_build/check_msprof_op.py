#!/usr/bin/env python3
"""`msprof op` on the single-source example (examples/kernel_asc_single_source, built by the test
ascendc_build.kernel_asc_single_source): the kernel launches it makes, with their block counts, in CANN's
OPPROF_* layout and OpBasicInfo.csv columns, and the selection options (--kernel-name, --launch-count,
--launch-skip-before-match).

  check_msprof_op.py --msprof <tools/msprof/msprof> --app <main> --work <dir>   (NPURT_SIM_AICORE_COUNT=4)
"""
import argparse
import csv
import glob
import os
import shutil
import subprocess
import sys

COLUMNS = ["Op Name", "Op Type", "Task Duration(us)", "Block Dim", "Mix Block Dim", "Device Id", "Pid",
           "Current Freq", "Rated Freq"]
# main.asc: add_kernel<float> and <int32_t> on 1, 255, 1000 and 12345 elements (a block per 1024, at most the 4
# cores), then scale_kernel on 3 blocks.
ADDS = [(n + 1023) // 1024 for n in (1, 255, 1000, 12345)]
EXPECTED = [(name, min(b, 4)) for b in ADDS for name in ("add_kernel<float>", "add_kernel<int>")]
EXPECTED.append(("scale_kernel", 3))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run(args, work, *options):
    out = os.path.join(work, "out")
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, args.msprof, "op", "--output=" + out] + list(options) + [args.app]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    check(proc.returncode == 0, "%s exited %d: %s" % (" ".join(cmd), proc.returncode, proc.stderr))
    tops = glob.glob(os.path.join(out, "OPPROF_*_*"))
    check(len(tops) == 1, "one OPPROF_* directory (%s)" % tops)
    return (tops[0] if tops else out), proc.stdout


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    check(rows and rows[0] == COLUMNS, "%s: CANN's columns (%s)" % (path, rows[:1]))
    check(len(rows) == 2, "%s: one launch" % path)
    row = dict(zip(COLUMNS, rows[1])) if len(rows) == 2 else {}
    if row:
        check(float(row["Task Duration(us)"]) > 0, "%s: a duration" % path)
        check(row["Device Id"] == "0" and int(row["Pid"]) > 0, "%s: device 0 and a pid" % path)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--msprof", required=True)
    ap.add_argument("--app", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)

    # Every launch: <kernel>/<n>/OpBasicInfo.csv, n counting each kernel's launches.
    top, stdout = run(args, args.work, "--launch-count=100")
    counts = {}
    for name, blocks in EXPECTED:
        n = counts.get(name, 0)
        counts[name] = n + 1
        safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in name)
        path = os.path.join(top, safe, str(n), "OpBasicInfo.csv")
        check(os.path.isfile(path), "%s written" % path)
        if os.path.isfile(path):
            row = read(path)
            check(row.get("Op Name") == name and row.get("Block Dim") == str(blocks),
                  "%s: %s on %d blocks (%s)" % (path, name, blocks, row))
    check(stdout.count("add_kernel<float>") == 4 and stdout.count("scale_kernel") == 1, "the printed lines")

    # The default: the first launch only, at the top.
    top, _ = run(args, args.work)
    row = read(os.path.join(top, "OpBasicInfo.csv"))
    check(row.get("Op Name") == "add_kernel<float>" and row.get("Block Dim") == "1", "first launch (%s)" % row)

    # A prefix, a wildcard, and skipping.
    top, _ = run(args, args.work, "--kernel-name=scale")
    row = read(os.path.join(top, "OpBasicInfo.csv"))
    check(row.get("Op Name") == "scale_kernel" and row.get("Block Dim") == "3", "--kernel-name prefix (%s)" % row)
    top, _ = run(args, args.work, "--kernel-name=add_kernel<int*", "--launch-skip-before-match=3",
                 "--launch-count=5")
    row = read(os.path.join(top, "OpBasicInfo.csv"))
    check(row.get("Op Name") == "add_kernel<int>" and row.get("Block Dim") == "4", "skip 3 of 4 (%s)" % row)

    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("msprof op: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
