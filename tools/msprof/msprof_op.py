"""msprof op: operator (kernel) profiling mode of msprof on npurt, as CANN's `msprof op` (msOpProf).

  msprof op [--output=DIR] [--kernel-name=NAME] [--launch-count=N] [--launch-skip-before-match=N] ./app args
  msprof op [options] --application="./app args"
  msprof op simulator [--soc-version=SOC] [--core-id=N] [options] ./app args

`msprof op simulator` (CANN's simulator-based collection, also `msopprof simulator`) collects the same as
`msprof op`: every launch already runs on the simulated cores; --soc-version and --core-id are accepted.

Runs the program with task timing on, then writes, for each kernel launch collected (the first
--launch-count, default 1, of the launches whose kernel name matches --kernel-name, after skipping
--launch-skip-before-match of them), CANN's OpBasicInfo.csv: Op Name, Op Type, Task Duration(us), Block Dim,
Mix Block Dim, Device Id, Pid, Current Freq, Rated Freq. Layout, under DIR (default: the current directory):

  OPPROF_{YYYYmmddHHMMSS}_{XXXXXX}/OpBasicInfo.csv                    one launch collected
  OPPROF_{YYYYmmddHHMMSS}_{XXXXXX}/<kernel>/<n>/OpBasicInfo.csv       several: the n-th collected launch of
                                                                      each kernel (0, 1, ...)
  OPPROF_{...}/dump/                                                  the raw profile (npurt's)

and prints one line per launch. --kernel-name matches whole names with * and ? (fnmatch), or as a prefix
without them. The simulated NPU has no AI Core PMU: --aic-metrics is accepted and the metric files
(PipeUtilization.csv, Memory.csv, ...) are not written; Current Freq and Rated Freq are N/A; Task Duration is
the launch's time on the simulated device, first block started to last block finished. --warm-up is
accepted (no effect); --config (an operator binary run by msprof itself) is refused.
"""

import argparse
import csv
import fnmatch
import os
import random
import shlex
import string
import subprocess
import sys
import time

OP_BASIC_INFO = ["Op Name", "Op Type", "Task Duration(us)", "Block Dim", "Mix Block Dim", "Device Id", "Pid",
                 "Current Freq", "Rated Freq"]
TASK_TIME_MASK = 0x0002  # ACL_PROF_TASK_TIME: kernel tasks with their names and block counts


def parse(argv):
    ap = argparse.ArgumentParser(prog="msprof op", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--output", help="directory for the OPPROF_* results (default: the current directory)")
    ap.add_argument("--application", help="the program and its arguments, as one string")
    ap.add_argument("--kernel-name", help="collect the launches of the kernels this matches")
    ap.add_argument("--launch-count", type=int, default=1, help="launches to collect, 1 to 100 (default 1)")
    ap.add_argument("--launch-skip-before-match", type=int, default=0,
                    help="matching launches to skip before collecting (default 0)")
    ap.add_argument("--aic-metrics", help="accepted; the sim has no AI Core PMU")
    ap.add_argument("--warm-up", type=int, help="accepted; no effect")
    ap.add_argument("--config", help="an operator binary's json: not supported on npurt")
    ap.add_argument("--soc-version", help="simulator mode: accepted (the sim's SoC is the device's)")
    ap.add_argument("--core-id", type=int, help="simulator mode: accepted (every core of the launch is collected)")
    ap.add_argument("program", nargs=argparse.REMAINDER, help="the program and its arguments")
    return ap, ap.parse_args(argv)


def matches(name, pattern):
    if not pattern:
        return True
    if any(c in pattern for c in "*?["):
        return fnmatch.fnmatchcase(name, pattern)
    return name.startswith(pattern)


def launches(procs, kind_info):
    """Every kernel launch of the profile, in start order: (process, task)."""
    out = []
    for p in procs:
        for t in p.tasks:
            if t["task_id"] in p.task_names and kind_info(p, t["kind"])[0] == "KERNEL":
                out.append((p, t))
    out.sort(key=lambda pt: pt[1]["start"])
    return out


def row(p, t, op_type):
    return {"Op Name": p.task_names[t["task_id"]], "Op Type": op_type,
            "Task Duration(us)": "%.3f" % ((t["end"] - t["start"]) / 1000.0),
            "Block Dim": p.task_blocks.get(t["task_id"], 0), "Mix Block Dim": "N/A", "Device Id": t["device"],
            "Pid": p.pid, "Current Freq": "N/A", "Rated Freq": "N/A"}


def write_csv(path, r):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=OP_BASIC_INFO)
        w.writeheader()
        w.writerow(r)


def safe(name):
    """A kernel name as a directory name (template kernels: add_kernel<float>)."""
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in name)


def main(argv, load_raw, kind_info, op_type):
    ap, args = parse(argv)
    if args.config:
        print("msprof op: --config (operator binaries run by msprof) is not supported on npurt; give the "
              "program that launches the kernel", file=sys.stderr)
        return 2
    if not 1 <= args.launch_count <= 100 or args.launch_skip_before_match < 0:
        print("msprof op: --launch-count is 1 to 100, --launch-skip-before-match at least 0", file=sys.stderr)
        return 2
    cmd = shlex.split(args.application) if args.application else list(args.program)
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if not cmd:
        ap.print_usage(sys.stderr)
        return 2
    suffix = "".join(random.choice(string.ascii_uppercase + string.digits) for _ in range(6))
    top = os.path.join(os.path.abspath(args.output or "."), "OPPROF_%s_%s" % (time.strftime("%Y%m%d%H%M%S"), suffix))
    raw = os.path.join(top, "dump")
    os.makedirs(raw, exist_ok=True)
    env = dict(os.environ, NPURT_PROF_RAW_DIR=raw, NPURT_PROF_MASK=hex(TASK_TIME_MASK))
    try:
        rc = subprocess.call(cmd, env=env)
    except OSError as e:
        print("msprof op: cannot run %s: %s" % (cmd[0], e), file=sys.stderr)
        return 127
    if rc != 0:
        print("msprof op: the application exited with status %d" % rc, file=sys.stderr)
    found = [pt for pt in launches(load_raw(raw), kind_info) if matches(pt[0].task_names[pt[1]["task_id"]],
                                                                        args.kernel_name)]
    chosen = found[args.launch_skip_before_match:args.launch_skip_before_match + args.launch_count]
    if not chosen:
        print("msprof op: no kernel launch%s was collected" %
              (" matching '%s'" % args.kernel_name if args.kernel_name else ""), file=sys.stderr)
        return rc or 1
    seen = {}
    print("msprof op: %d kernel launch%s -> %s" % (len(chosen), "" if len(chosen) == 1 else "es", top))
    for p, t in chosen:
        r = row(p, t, op_type)
        if len(chosen) == 1:
            path = os.path.join(top, "OpBasicInfo.csv")
        else:
            n = seen.get(r["Op Name"], 0)
            seen[r["Op Name"]] = n + 1
            path = os.path.join(top, safe(r["Op Name"]), str(n), "OpBasicInfo.csv")
        write_csv(path, r)
        print("  %-40s device %d  block dim %-5d %10s us" % (r["Op Name"], r["Device Id"], r["Block Dim"],
                                                             r["Task Duration(us)"]))
    return rc
