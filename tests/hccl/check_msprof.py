#!/usr/bin/env python3
"""hccl.msprof: collectives in msprof's output. Runs all_reduce_test (tools/hccl_test) on 2 simulated
devices under msprof and checks that op_summary lists its HcclAllReduce tasks as COMMUNICATION with their
element counts, and that communication_statistic counts them with their bytes."""

import argparse
import csv
import glob
import os
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--msprof", required=True)
    ap.add_argument("--app", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    iters, warmup, count = 3, 1, 256
    app = "%s --op_name all_reduce -b %d -e %d -p 2 -n %d -w %d" % (args.app, count * 4, count * 4, iters, warmup)
    r = subprocess.run([sys.executable, args.msprof, "--output=" + args.work, "--quiet", "--application=" + app],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    failures = []
    if r.returncode != 0:
        failures.append("msprof exited %d: %s" % (r.returncode, r.stdout[-2000:]))
    out = glob.glob(os.path.join(args.work, "PROF_*", "mindstudio_profiler_output"))
    if len(out) != 1:
        failures.append("one mindstudio_profiler_output (found %s)" % out)
    else:
        summary = list(csv.DictReader(open(glob.glob(os.path.join(out[0], "op_summary_*.csv"))[0])))
        comm = [row for row in summary if row["OP Type"] == "HcclAllReduce"]
        # Every rank runs warmup + iters allreduces.
        if len(comm) != 2 * (iters + warmup):
            failures.append("op_summary has %d HcclAllReduce rows, expected %d" % (len(comm), 2 * (iters + warmup)))
        if any(row["Task Type"] != "COMMUNICATION" or row["Output Shapes"] != str(count) for row in comm):
            failures.append("HcclAllReduce rows are COMMUNICATION tasks of %d elements: %s" % (count, comm[:2]))
        stats = glob.glob(os.path.join(out[0], "communication_statistic_*.csv"))
        if len(stats) != 1:
            failures.append("one communication_statistic CSV (found %s)" % stats)
        else:
            rows = list(csv.DictReader(open(stats[0])))
            if sorted(r["Device_id"] for r in rows) != ["0", "1"] or any(r["OP Type"] != "HcclAllReduce" for r in rows):
                failures.append("communication_statistic has one HcclAllReduce row per device: %s" % rows)
            for row in rows:
                if int(row["Count"]) != iters + warmup:
                    failures.append("device %s counts %s allreduces" % (row["Device_id"], row["Count"]))
                expected_mb = (iters + warmup) * count * 4 / 1e6
                if abs(float(row["Total Size(MB)"]) - expected_mb) > 1e-6:
                    failures.append("device %s: %s MB, expected %f" % (row["Device_id"], row["Total Size(MB)"], expected_mb))
    for f in failures:
        print("FAIL: " + f)
    print("%d passed, %d failed" % (0 if failures else 1, 1 if failures else 0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
