#!/usr/bin/env python3
"""Golden checks of msprof on the known two-stream program (tools/msprof/test/two_streams.cc).

The program runs ROUNDS rounds of: stream A uploads, fills, records an event; stream B waits for it,
copies device-to-device and downloads. So the profile must hold exactly 6*ROUNDS tasks (4 copies/fills
+ 1 record on A... see EXPECTED), a record->wait flow per round, a launch flow per task, 3 allocations
and 3 frees on the memory track, ROUNDS msproftx marks and one range. Checks the Chrome trace's
structure, the CSV columns and totals, --export regenerating the same outputs, and the data-type
switches (--task-time=off, --msproftx=off, --task-memory=off).
"""
import argparse
import csv
import glob
import json
import os
import shutil
import subprocess
import sys

ROUNDS = 3
BYTES = 262144
EXPECTED_TASKS = {"MEMCPY": 3 * ROUNDS, "MEMSET": ROUNDS, "EVENT_RECORD": ROUNDS, "EVENT_WAIT": ROUNDS}
TASK_COLUMNS = ["Device_id", "Stream_id", "Task_id", "Task_type", "Task_name", "Engine", "Bytes", "Submit_time(us)",
                "Start_time(us)", "End_time(us)", "Duration(us)", "Waiting_time(us)", "Status"]
OP_COLUMNS = ["Op_name", "Task_type", "Count", "Total_time(us)", "Avg_time(us)", "Min_time(us)", "Max_time(us)",
              "Ratio(%)"]
API_COLUMNS = ["API_name", "Calls", "Total_time(us)", "Avg_time(us)", "Min_time(us)", "Max_time(us)"]

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run_msprof(args, out, *switches):
    if os.path.isdir(out):
        shutil.rmtree(out)
    cmd = [sys.executable, args.msprof, "--output=" + out, "--quiet"] + list(switches) + \
          ["--application=%s %d %d" % (args.app, ROUNDS, BYTES)]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    check(r.returncode == 0, "msprof %s exited %d: %s" % (" ".join(switches), r.returncode, r.stdout[-2000:]))
    dirs = glob.glob(os.path.join(out, "PROF_*"))
    check(len(dirs) == 1, "one PROF_ directory under %s (found %s)" % (out, dirs))
    return dirs[0] if dirs else None


def load_csv(path, columns):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    check(rows and rows[0] == columns, "%s columns are %s (got %s)" % (os.path.basename(path), columns,
                                                                     rows[0] if rows else None))
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def check_full(prof):
    with open(os.path.join(prof, "timeline.json")) as f:
        trace = json.load(f)  # must parse as JSON
    ev = trace.get("traceEvents")
    check(isinstance(ev, list) and ev, "timeline.json has a traceEvents list")
    for e in ev:
        if not ("ph" in e and "pid" in e and "name" in e):
            check(False, "every event has ph, pid, name: %s" % e)
            break
        if e["ph"] != "M" and not isinstance(e.get("ts"), (int, float)):
            check(False, "non-metadata events have a numeric ts: %s" % e)
            break
        if e["ph"] == "X" and not (e.get("dur", -1) >= 0):
            check(False, "complete events have dur >= 0: %s" % e)
            break
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    procs = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
    check(any(n == "NPU 0" for n in procs.values()), "a process track 'NPU 0' (got %s)" % procs)
    check(any(n.startswith("Host: ") for n in procs.values()), "a host process track")
    stream_tracks = [k for k, n in names.items() if n.startswith("Stream ")]
    check(len(stream_tracks) == 2, "two stream tracks (got %s)" % [names[k] for k in stream_tracks])
    for engine in ("DMA", "SCHEDULER"):
        tr = [k for k, n in names.items() if n == "Engine " + engine]
        busy = [e for e in ev if e["ph"] == "X" and (e["pid"], e["tid"]) in tr]
        check(tr and busy, "engine track %s exists and has tasks" % engine)
    tasks = [e for e in ev if e["ph"] == "X" and e.get("cat") == "task"]
    by_type = {}
    for e in tasks:
        by_type[e["args"]["type"]] = by_type.get(e["args"]["type"], 0) + 1
    check(by_type == EXPECTED_TASKS, "task counts %s (got %s)" % (EXPECTED_TASKS, by_type))
    per_stream = {}
    for e in tasks:
        per_stream.setdefault(e["tid"], set()).add(e["args"]["type"])
    check(sorted(map(sorted, per_stream.values())) ==
          sorted([sorted({"MEMCPY", "MEMSET", "EVENT_RECORD"}), sorted({"EVENT_WAIT", "MEMCPY"})]),
          "stream A runs copies, fills and records; stream B waits and copies (got %s)" % per_stream)
    flows = {}
    for e in ev:
        if e["ph"] in ("s", "f"):
            flows.setdefault((e["cat"], e["id"]), {})[e["ph"]] = e
    launch = [v for (c, _), v in flows.items() if c == "launch"]
    event = [v for (c, _), v in flows.items() if c == "event"]
    total_tasks = sum(EXPECTED_TASKS.values())
    check(len(launch) == total_tasks and all("s" in v and "f" in v for v in launch),
          "a launch->execution flow per task (%d, got %d)" % (total_tasks, len(launch)))
    check(len(event) == ROUNDS and all("s" in v and "f" in v for v in event),
          "a record->wait flow per round (got %d)" % len(event))
    for v in launch + event:
        if "s" in v and "f" in v and v["f"]["ts"] < v["s"]["ts"]:
            check(False, "flows go forward in time: %s" % v)
            break
    for v in event:
        if "s" in v and "f" in v:
            check(v["s"]["tid"] != v["f"]["tid"], "event flows cross streams")
    mem = [e for e in ev if e["ph"] == "C"]
    check(len(mem) == 6, "memory counter: 3 allocations + 3 frees (got %d)" % len(mem))
    if mem:
        peak = max(e["args"]["MiB"] for e in mem)
        # The track counts allocator blocks: each buffer plus the allocator's padding and 512-byte rounding.
        check(3 * BYTES / 1048576.0 <= peak <= 3 * (BYTES + 1024) / 1048576.0,
              "memory peak = 3 buffers (got %s MiB)" % peak)
        check(sorted(mem, key=lambda e: e["ts"])[-1]["args"]["MiB"] == 0, "memory ends at 0")
    marks = sorted(e["name"] for e in ev if e["ph"] == "i" and e.get("cat") == "msproftx")
    check(marks == ["round %d" % i for i in range(ROUNDS)], "msproftx marks (got %s)" % marks)
    ranges = [e for e in ev if e["ph"] == "b" and e.get("cat") == "msproftx"]
    check(len(ranges) == 1 and ranges[0]["name"] == "two_streams", "one msproftx range")

    rows = load_csv(os.path.join(prof, "task_summary.csv"), TASK_COLUMNS)
    check(len(rows) == total_tasks, "task_summary rows = %d (got %d)" % (total_tasks, len(rows)))
    total_dev = 0.0
    for r in rows:
        dur = float(r["Duration(us)"])
        if abs(float(r["End_time(us)"]) - float(r["Start_time(us)"]) - dur) > 0.002:
            check(False, "Duration = End - Start in %s" % r)
            break
        if float(r["Waiting_time(us)"]) < 0 or float(r["Start_time(us)"]) < float(r["Submit_time(us)"]):
            check(False, "tasks start after their submission: %s" % r)
            break
        check(r["Status"] == "ok", "task succeeded: %s" % r)
        if r["Task_type"] in ("MEMCPY", "MEMSET"):
            check(int(r["Bytes"]) == BYTES, "copy/fill bytes = %d: %s" % (BYTES, r))
        if r["Task_type"] != "EVENT_WAIT":
            total_dev += dur
    ops = load_csv(os.path.join(prof, "op_summary.csv"), OP_COLUMNS)
    counts = {o["Task_type"]: int(o["Count"]) for o in ops}
    expect_ops = {k: v for k, v in EXPECTED_TASKS.items() if k != "EVENT_WAIT"}
    check(counts == expect_ops, "op_summary counts %s (got %s)" % (expect_ops, counts))
    op_total = sum(float(o["Total_time(us)"]) for o in ops)
    check(abs(op_total - total_dev) < 0.01 * max(total_dev, 1), "op totals = task durations (%f vs %f)" %
          (op_total, total_dev))
    check(abs(sum(float(o["Ratio(%)"]) for o in ops) - 100.0) < 0.1, "op ratios add up to 100%")
    apis = load_csv(os.path.join(prof, "api_statistic.csv"), API_COLUMNS)
    calls = {a["API_name"]: int(a["Calls"]) for a in apis}
    if os.environ.get("NPURT_APITRACE_LIB"):
        check(calls.get("aclrtMemcpyAsync") == 3 * ROUNDS and calls.get("aclrtRecordEvent") == ROUNDS and
              calls.get("aclrtMallocHost", 0) == 0 and calls.get("aclInit") == 1,
              "api_statistic counts the program's calls (got %s)" % calls)
        api_x = [e for e in ev if e["ph"] == "X" and e.get("cat") == "api"]
        check(len(api_x) == sum(calls.values()), "one host API slice per call")
    with open(os.path.join(prof, "report.txt")) as f:
        rep = f.read()
    check("copy bandwidth achieved" in rep and "busiest streams" in rep and "lost records: 0" in rep,
          "report has bandwidth, busiest streams, no lost records")
    return trace


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--msprof", required=True)
    ap.add_argument("--app", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)

    prof = run_msprof(args, os.path.join(args.work, "full"))
    if prof:
        trace = check_full(prof)
        # --export regenerates the same outputs from the raw data.
        before = {n: open(os.path.join(prof, n)).read() for n in ("timeline.json", "task_summary.csv",
                                                                  "op_summary.csv", "api_statistic.csv")}
        for n in before:
            os.remove(os.path.join(prof, n))
        r = subprocess.run([sys.executable, args.msprof, "--quiet", "--export=" + os.path.dirname(prof)])
        check(r.returncode == 0, "msprof --export succeeds")
        for n, text in before.items():
            check(os.path.isfile(os.path.join(prof, n)) and open(os.path.join(prof, n)).read() == text,
                  "--export regenerates %s identically" % n)
        del trace

    prof = run_msprof(args, os.path.join(args.work, "no_task_time"), "--task-time=off")
    if prof:
        ev = json.load(open(os.path.join(prof, "timeline.json")))["traceEvents"]
        check(not [e for e in ev if e.get("cat") in ("task", "engine", "launch")], "--task-time=off: no tasks")
        check([e for e in ev if e["ph"] == "C"], "--task-time=off keeps the memory track")
    prof = run_msprof(args, os.path.join(args.work, "no_tx"), "--msproftx=off", "--task-memory=off")
    if prof:
        ev = json.load(open(os.path.join(prof, "timeline.json")))["traceEvents"]
        check(not [e for e in ev if e.get("cat") == "msproftx"], "--msproftx=off: no markers")
        check(not [e for e in ev if e["ph"] == "C"], "--task-memory=off: no memory track")
        check([e for e in ev if e.get("cat") == "task"], "tasks still recorded")

    print("%d passed, %d failed" % (0 if failures else 1, 1 if failures else 0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
