#!/usr/bin/env python3
"""Golden checks of msprof on the known two-stream program (tools/msprof/test/two_streams.cc).

The program runs ROUNDS rounds of: stream A uploads, fills, runs an Add operator and records an event;
stream B runs a Mul operator, waits for the event, copies device-to-device and downloads. ROUNDS and the
operators' shapes are random (seeded, printed), so the profile must hold exactly those tasks (EXPECTED),
a record->wait flow per round, a launch flow per task, the allocations and frees on the memory track,
ROUNDS msproftx marks and one range. Checks CANN's layout (PROF_*/mindstudio_profiler_output/ with
msprof_{ts}.json, op_summary_, op_statistic_, api_statistic_, task_time_ and README.txt), each CSV's
CANN columns in order, one op_summary row per operator task with its op type, shapes, data types and
formats, op_statistic counts and totals that match op_summary, api_statistic's Level and Variance,
task_time's rows, the Chrome trace's structure, --export regenerating the same files, CANN's default
switches (runtime API, task memory and msproftx off), the data-type switches, and the aclprof* API path
(a program that profiles itself, then msprof --export=on --output=PROF_*).
"""
import argparse
import csv
import decimal
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), ".."))
import msprof_summary  # noqa: E402  (the column lists are CANN's; checked against literals below too)

SEED = int(os.environ.get("MSPROF_TEST_SEED", random.randrange(1 << 30)))
rng = random.Random(SEED)
ROUNDS = rng.randint(2, 5)
ROWS, COLS = rng.randint(3, 40), rng.randint(2, 33)
BYTES = 4096 * rng.randint(16, 96)
EXPECTED_TASKS = {"MEMCPY": 3 * ROUNDS, "MEMSET": ROUNDS, "EVENT_RECORD": ROUNDS, "EVENT_WAIT": ROUNDS,
                  "COMPUTE": 2 * ROUNDS}
BUFFERS = 8  # 3 copy buffers + x, y, w, sum, prod
# CANN's headers, as literals (Ascend/msprof analysis/csrc/application/summary/*_assembler.cpp).
OP_SUMMARY = ["Device_id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type", "OP State", "Task Type",
              "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)", "Block Num", "Mix Block Num",
              "HF32 Eligible", "Input Shapes", "Input Data Types", "Input Formats", "Output Shapes",
              "Output Data Types", "Output Formats", "Context ID"]
OP_STATISTIC = ["Device_id", "OP Type", "Core Type", "Count", "Total Time(us)", "Min Time(us)", "Avg Time(us)",
                "Max Time(us)", "Ratio(%)"]
API_STATISTIC = ["Device_id", "Level", "API Name", "Time(us)", "Count", "Avg(us)", "Min(us)", "Max(us)", "Variance"]
TASK_TIME = ["Device_id", "kernel_name", "kernel_type", "stream_id", "task_id", "task_time(us)", "task_start(us)",
             "task_stop(us)"]
CANN_FILES = ("msprof_{}.json", "op_summary_{}.csv", "op_statistic_{}.csv", "api_statistic_{}.csv",
              "task_time_{}.csv")

failures = []


def us(text):
    """A CSV time in us, exactly: absolute wall-clock microseconds (~1.8e15) lose ns in a float."""
    return decimal.Decimal(text.strip())


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run_msprof(args, out, *switches):
    if os.path.isdir(out):
        shutil.rmtree(out)
    cmd = [sys.executable, args.msprof, "--output=" + out, "--quiet"] + list(switches) + \
          ["--application=%s %d %d %d %d" % (args.app, ROUNDS, BYTES, ROWS, COLS)]
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


def output_files(prof):
    """CANN's layout: {name: path} of mindstudio_profiler_output/, checked: exactly CANN's files, one {ts}."""
    out = os.path.join(prof, "mindstudio_profiler_output")
    check(os.path.isdir(out), "%s exists" % out)
    names = sorted(os.listdir(out)) if os.path.isdir(out) else []
    stamps = {m.group(1) for n in names for m in [re.match(r"msprof_(\d{14})\.json$", n)] if m}
    check(len(stamps) == 1, "one msprof_{YYYYmmddHHMMSS}.json (got %s)" % names)
    stamp = stamps.pop() if stamps else "?"
    # op_compile_cache_{ts}.csv: npurt's, present when task times were on and single operators compiled.
    cache = "op_compile_cache_%s.csv" % stamp
    want = sorted([f.format(stamp) for f in CANN_FILES] + ["README.txt"] + ([cache] if cache in names else []))
    check(names == want, "mindstudio_profiler_output holds %s (got %s)" % (want, names))
    for old in ("timeline.json", "task_summary.csv", "op_summary.csv", "api_statistic.csv"):
        check(not os.path.exists(os.path.join(prof, old)), "no pre-CANN %s" % old)
    files = {f.split("_{}")[0]: os.path.join(out, f.format(stamp)) for f in CANN_FILES}
    if cache in names:
        files["op_compile_cache"] = os.path.join(out, cache)
    return files


def check_trace(path, with_tx_and_memory):
    with open(path) as f:
        trace = json.load(f)  # must parse as JSON
    ev = trace.get("traceEvents")
    check(isinstance(ev, list) and ev, "the timeline has a traceEvents list")
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
    for engine in ("DMA", "SCHEDULER", "AI_CORE"):
        tr = [k for k, n in names.items() if n == "Engine " + engine]
        busy = [e for e in ev if e["ph"] == "X" and (e["pid"], e["tid"]) in tr]
        check(tr and busy, "engine track %s exists and has tasks" % engine)
    tasks = [e for e in ev if e["ph"] == "X" and e.get("cat") == "task"]
    by_type = {}
    for e in tasks:
        by_type[e["args"]["type"]] = by_type.get(e["args"]["type"], 0) + 1
    check(by_type == EXPECTED_TASKS, "task counts %s (got %s)" % (EXPECTED_TASKS, by_type))
    ops = sorted(e["name"] for e in tasks if e["args"]["type"] == "COMPUTE")
    check(ops == ["Add"] * ROUNDS + ["Mul"] * ROUNDS, "operator slices are named by op type (got %s)" % ops[:6])
    for e in tasks:
        if e["args"]["type"] == "COMPUTE" and not (e["args"].get("OP Type") == e["name"] and
                                                   e["args"].get("Input Shapes", "").startswith("%d,%d;" % (ROWS, COLS))):
            check(False, "operator slices carry OP Type and shapes: %s" % e)
            break
    per_stream = {}
    for e in tasks:
        per_stream.setdefault(e["tid"], set()).add(e["args"]["type"])
    check(sorted(map(sorted, per_stream.values())) ==
          sorted([sorted({"MEMCPY", "MEMSET", "EVENT_RECORD", "COMPUTE"}), sorted({"EVENT_WAIT", "MEMCPY", "COMPUTE"})]),
          "stream A copies, fills, adds and records; stream B multiplies, waits and copies (got %s)" % per_stream)
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
    marks = sorted(e["name"] for e in ev if e["ph"] == "i" and e.get("cat") == "msproftx")
    ranges = [e for e in ev if e["ph"] == "b" and e.get("cat") == "msproftx"]
    if with_tx_and_memory:
        check(len(mem) == 2 * BUFFERS, "memory counter: %d allocations + frees (got %d)" % (2 * BUFFERS, len(mem)))
        if mem:
            check(sorted(mem, key=lambda e: e["ts"])[-1]["args"]["MiB"] == 0, "memory ends at 0")
        check(marks == ["round %d" % i for i in range(ROUNDS)], "msproftx marks (got %s)" % marks)
        check(len(ranges) == 1 and ranges[0]["name"] == "two_streams", "one msproftx range")
    else:
        check(not mem, "CANN's default --task-memory=off: no memory track")
        check(not marks and not ranges, "CANN's default --msproftx=off: no markers")
    check(re.match(r"^\d+\.\d{3}$", str(trace.get("otherData", {}).get("time_origin_us", ""))) is not None,
          "otherData.time_origin_us is the wall-clock start")
    return trace, tasks


def check_summaries(files, trace_tasks, expect_apis, trace=None):
    """The CSVs against each other and against the timeline's task slices."""
    total_tasks = sum(EXPECTED_TASKS.values())
    tt = load_csv(files["task_time"], TASK_TIME)
    check(len(tt) == total_tasks, "task_time rows = %d tasks (got %d)" % (total_tasks, len(tt)))
    starts = [us(r["task_start(us)"]) for r in tt]
    check(starts == sorted(starts), "task_time is in start order")
    for r in tt:
        if not (r["task_start(us)"].endswith("\t") and r["task_stop(us)"].endswith("\t")):
            check(False, "task_time times carry CANN's trailing tab: %r" % r)
            break
        if us(r["task_stop(us)"]) - us(r["task_start(us)"]) != us(r["task_time(us)"]):
            check(False, "task_time(us) = stop - start: %s" % r)
            break
    types = {}
    for r in tt:
        types[r["kernel_type"]] = types.get(r["kernel_type"], 0) + 1
    want_types = {"MEMCPY_ASYNC": 3 * ROUNDS, "MEMSET": ROUNDS, "EVENT_RECORD": ROUNDS, "EVENT_WAIT": ROUNDS,
                  "AI_CORE": 2 * ROUNDS}
    check(types == want_types, "task_time kernel_type counts %s (got %s)" % (want_types, types))
    names = sorted(r["kernel_name"] for r in tt if r["kernel_type"] == "AI_CORE")
    check(names == ["Add"] * ROUNDS + ["Mul"] * ROUNDS, "task_time names operator tasks (got %s)" % names[:4])
    check(all(r["kernel_name"] == "N/A" for r in tt if r["kernel_type"] != "AI_CORE"), "other tasks are N/A")
    slice_ids = sorted(e["args"]["task_id"] for e in trace_tasks)
    check(sorted(int(r["task_id"]) for r in tt) == slice_ids, "task_time task ids = the timeline's")

    ops = load_csv(files["op_summary"], OP_SUMMARY)
    check(len(ops) == 2 * ROUNDS, "op_summary: one row per operator task (%d, got %d)" % (2 * ROUNDS, len(ops)))
    op_task_ids = {int(r["task_id"]) for r in tt if r["kernel_type"] == "AI_CORE"}
    check({int(o["Task ID"]) for o in ops} == op_task_ids, "op_summary rows are task_time's operator tasks")
    mat, row = "%d,%d" % (ROWS, COLS), "1,%d" % COLS
    want = {"Add": (mat + ";" + mat, "FLOAT;FLOAT", "ND;ND"), "Mul": (mat + ";" + row, "FLOAT;FLOAT", "ND;ND")}
    streams = {}
    prev_end = None
    for o in ops:
        t = o["OP Type"]
        streams.setdefault(t, set()).add(o["Stream ID"])
        check(t in want and o["Op Name"] == t, "op_summary OP Type and Op Name are Add or Mul: %s" % o)
        if t in want:
            check((o["Input Shapes"], o["Input Data Types"], o["Input Formats"]) == want[t] and
                  (o["Output Shapes"], o["Output Data Types"], o["Output Formats"]) == (mat, "FLOAT", "ND"),
                  "%s row has its shapes, data types and formats: %s" % (t, o))
        check(o["Task Type"] == "AI_CORE" and o["Model ID"] == "4294967295" and o["Device_id"] == "0" and
              int(o["Block Num"]) >= 1, "op_summary task type, model id, device, block num: %s" % o)
        start, dur = us(o["Task Start Time(us)"]), us(o["Task Duration(us)"])
        check(o["Task Start Time(us)"].endswith("\t") and dur >= 0, "start time with CANN's tab, duration >= 0")
        wait = us(o["Task Wait Time(us)"])
        want_wait = 0 if prev_end is None else max(0, start - prev_end)
        check(wait == want_wait, "Task Wait Time = gap since the previous row (%s vs %s)" % (wait, want_wait))
        prev_end = start + dur
    check(len(streams.get("Add", ())) == 1 and len(streams.get("Mul", ())) == 1 and
          streams.get("Add") != streams.get("Mul"), "Add runs on one stream, Mul on the other (%s)" % streams)

    st = load_csv(files["op_statistic"], OP_STATISTIC)
    counts = {(s_["OP Type"], s_["Core Type"]): int(s_["Count"]) for s_ in st}
    check(counts == {("Add", "AI_CORE"): ROUNDS, ("Mul", "AI_CORE"): ROUNDS},
          "op_statistic counts Add and Mul %d times each (got %s)" % (ROUNDS, counts))
    for s_ in st:
        durs = [float(o["Task Duration(us)"]) for o in ops if o["OP Type"] == s_["OP Type"]]
        if durs:
            check(abs(float(s_["Total Time(us)"]) - sum(durs)) < 0.002 * len(durs) and
                  abs(float(s_["Min Time(us)"]) - min(durs)) < 0.0015 and
                  abs(float(s_["Max Time(us)"]) - max(durs)) < 0.0015 and
                  abs(float(s_["Avg Time(us)"]) - sum(durs) / len(durs)) < 0.0015,
                  "op_statistic %s total/min/avg/max match op_summary" % s_["OP Type"])
    check(abs(sum(float(s_["Ratio(%)"]) for s_ in st) - 100.0) < 0.01, "op_statistic ratios add up to 100%")
    totals = [float(s_["Total Time(us)"]) for s_ in st]
    check(totals == sorted(totals, reverse=True), "op_statistic is sorted by total time")

    apis = load_csv(files["api_statistic"], API_STATISTIC)
    calls = {a["API Name"]: int(a["Count"]) for a in apis}
    if expect_apis:
        check(calls.get("aclrtMemcpyAsync") == 3 * ROUNDS and calls.get("aclopExecuteV2") == 2 * ROUNDS and
              calls.get("aclrtRecordEvent") == ROUNDS and calls.get("aclInit") == 1 and
              calls.get("aclrtMallocHost", 0) == 0 and calls.get("aclGetDataBufferAddr", 0) == 0,
              "api_statistic counts the program's calls, not the runtime's own calls of its API (got %s)" % calls)
    # Each API's figures again, from the timeline's API slices (their durations are the same 0.001 us
    # roundings that CANN's statistics start from): population variance, not the sample one.
    slices = {}
    for e in (trace or {}).get("traceEvents", []):
        if e["ph"] == "X" and e.get("cat") == "api":
            slices.setdefault(e["name"], []).append(e["dur"])
    for a in apis:
        durs = slices.get(a["API Name"])
        if trace is None or durs is None:
            continue
        avg = round(sum(durs) / len(durs), 3)
        var = round(sum((d - avg) ** 2 for d in durs) / len(durs), 3)
        if not (int(a["Count"]) == len(durs) and abs(float(a["Avg(us)"]) - avg) < 0.0015 and
                abs(float(a["Variance"]) - var) < 0.0015 * max(1.0, var) and
                abs(float(a["Max(us)"]) - max(durs)) < 0.0015 and abs(float(a["Min(us)"]) - min(durs)) < 0.0015):
            check(False, "api_statistic %s = the timeline's %d slices (avg %.3f, variance %.3f): %s" %
                  (a["API Name"], len(durs), avg, var, a))
            break
    for a in apis:
        n, lo, hi, avg, var = (int(a["Count"]), float(a["Min(us)"]), float(a["Max(us)"]), float(a["Avg(us)"]),
                               float(a["Variance"]))
        ok = (a["Device_id"] == "host" and a["Level"] == "AscendCL" and lo <= avg + 0.001 and avg <= hi + 0.001 and
              var >= 0 and var <= (hi - lo) ** 2 / 4 + 0.002 and (n > 1 or var == 0) and
              abs(float(a["Time(us)"]) - avg * n) <= 0.001 * n + 0.001)
        if not ok:
            check(False, "api_statistic row is consistent (Level AscendCL, min <= avg <= max, 0 <= variance <= "
                  "(max-min)^2/4): %s" % a)
            break
    return apis


OP_CACHE = ["OP Type", "Hits", "Misses", "Evictions", "Hit Rate(%)", "Compile Time(us)", "Retiled"]


def check_op_cache(files):
    """The compile cache's view of the program's ROUNDS Adds and ROUNDS Muls (one shape each): every lookup
    counted, the first a miss that took compile time, the rest hits."""
    check("op_compile_cache" in files, "op_compile_cache_{ts}.csv is written for a job that compiled operators")
    if "op_compile_cache" not in files:
        return
    rows = {r["OP Type"]: r for r in load_csv(files["op_compile_cache"], OP_CACHE)}
    check(sorted(rows) == ["Add", "Mul", "total"], "op_compile_cache rows Add, Mul, total (got %s)" % sorted(rows))
    for op in ("Add", "Mul"):
        r = rows.get(op, {})
        hits, misses = int(r.get("Hits", -1)), int(r.get("Misses", -1))
        check(hits + misses == ROUNDS and misses >= 1 and float(r.get("Compile Time(us)", 0)) > 0,
              "op_compile_cache %s: %d lookups, a miss that compiled (got %s)" % (op, ROUNDS, r))
        check(r.get("Retiled") == "0", "op_compile_cache %s: npurt's own kernels are never re-tiled (got %s)" % (op, r))
    t = rows.get("total", {})
    check(int(t.get("Hits", -1)) == sum(int(rows[o]["Hits"]) for o in ("Add", "Mul") if o in rows),
          "op_compile_cache total sums the rows")


def check_prof(prof, with_tx_and_memory=True, expect_apis=True):
    files = output_files(prof)
    if not os.path.isfile(files.get("msprof", "")):
        return None
    trace, tasks = check_trace(files["msprof"], with_tx_and_memory)
    apis = check_summaries(files, tasks, expect_apis, trace)
    if with_tx_and_memory:
        check_op_cache(files)
    with open(os.path.join(prof, "mindstudio_profiler_output", "README.txt")) as f:
        readme = f.read()
    check(all(n in readme for n in ("op_summary_", "op_statistic_", "api_statistic_", "task_time_", "msprof_")),
          "README.txt describes every file")
    with open(os.path.join(prof, "report.txt")) as f:
        rep = f.read()
    check("copy bandwidth achieved" in rep and "busiest streams" in rep and "lost records: 0" in rep and
          "Add" in rep, "report has bandwidth, busiest streams, the operators, no lost records")
    return files, apis


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--msprof", required=True)
    ap.add_argument("--app", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    print("seed %d: %d rounds, %d bytes, operators [%d, %d]" % (SEED, ROUNDS, BYTES, ROWS, COLS))
    check(msprof_summary.OP_SUMMARY_COLUMNS == OP_SUMMARY and msprof_summary.OP_STATISTIC_COLUMNS == OP_STATISTIC and
          msprof_summary.API_STATISTIC_COLUMNS == API_STATISTIC and msprof_summary.TASK_TIME_COLUMNS == TASK_TIME,
          "msprof_summary's column lists are CANN's")
    have_apis = bool(os.environ.get("NPURT_APITRACE_LIB"))
    # The raw op description is parsed defensively: a damaged string is skipped, never a crash.
    d = msprof_summary.parse_op_detail("Conv2D|%d|1:0:%d,3,7,7;27:2:|0:1:2,5" % (COLS, ROWS))
    check(d == {"type": "Conv2D", "block": COLS, "inputs": [(1, 0, [ROWS, 3, 7, 7]), (27, 2, [])],
                "outputs": [(0, 1, [2, 5])]}, "parse_op_detail reads a description (got %s)" % d)
    check(msprof_summary.tensor_columns(d["inputs"]) == ("%d,3,7,7;" % ROWS, "FLOAT16;DT_BF16", "NCHW;ND"),
          "CANN's spelling of shapes (a scalar is empty), data types and formats")
    for bad in ("", "#12", "Add|x|0:2:1|0:2:1", "|1||", "Add|1|0:2|0:2:1,2"):
        r = msprof_summary.parse_op_detail(bad)
        check(r is None or r["inputs"] == [], "a damaged description is refused or loses only its bad tensor: %r -> %s"
              % (bad, r))

    prof = run_msprof(args, os.path.join(args.work, "full"), "--msproftx=on", "--task-memory=on")
    if prof and check_prof(prof, True, have_apis):
        # --export regenerates the same outputs from the raw data (CANN's --export=on --output=PROF_*).
        out = os.path.join(prof, "mindstudio_profiler_output")
        before = {n: open(os.path.join(out, n)).read() for n in os.listdir(out)}
        shutil.rmtree(out)
        r = subprocess.run([sys.executable, args.msprof, "--quiet", "--export=on", "--output=" + prof])
        check(r.returncode == 0, "msprof --export=on --output=PROF_* succeeds")
        for n, text in before.items():
            check(os.path.isfile(os.path.join(out, n)) and open(os.path.join(out, n)).read() == text,
                  "--export regenerates %s identically" % n)

    # CANN's defaults: task time and AscendCL API on; task memory, msproftx and runtime API off.
    prof = run_msprof(args, os.path.join(args.work, "defaults"))
    if prof:
        check_prof(prof, False, have_apis)
        info = json.load(open(glob.glob(os.path.join(prof, "raw", "info.*.json"))[0]))
        check(info["mask"] == 0x0002 | 0x0001 | 0x0004, "default data types: task time, ACL API, AI Core "
              "(got %#x)" % info["mask"])

    prof = run_msprof(args, os.path.join(args.work, "no_task_time"), "--task-time=off", "--task-memory=on")
    if prof:
        files = output_files(prof)
        ev = json.load(open(files["msprof"]))["traceEvents"]
        check(not [e for e in ev if e.get("cat") in ("task", "engine", "launch")], "--task-time=off: no tasks")
        check([e for e in ev if e["ph"] == "C"], "--task-time=off keeps the memory track")
        check(load_csv(files["op_summary"], OP_SUMMARY) == [] and load_csv(files["task_time"], TASK_TIME) == [],
              "--task-time=off: op_summary and task_time have only their headers")

    r = subprocess.run([sys.executable, args.msprof, "--type=db", "--output=" + args.work, args.app],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(r.returncode == 2 and "not supported" in r.stdout, "--type=db is refused with a message")
    r = subprocess.run([sys.executable, args.msprof, "--aic-metrics=Bogus", args.app],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(r.returncode == 2 and "PipeUtilization" in r.stdout, "a bad --aic-metrics lists the choices")

    # The aclprof* API path: the program profiles itself into a PROF_* directory, as a CANN program does;
    # msprof --export=on --output=<that PROF_*> writes the same layout.
    api_out = os.path.join(args.work, "aclprof")
    shutil.rmtree(api_out, ignore_errors=True)
    os.makedirs(api_out)
    env = dict(os.environ, TWO_STREAMS_ACLPROF_DIR=api_out)
    env.pop("NPURT_PROF_RAW_DIR", None)
    r = subprocess.run([args.app, str(ROUNDS), str(BYTES), str(ROWS), str(COLS)], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    check(r.returncode == 0, "the self-profiling program succeeds: %s" % r.stdout[-2000:])
    dirs = glob.glob(os.path.join(api_out, "PROF_*"))
    check(len(dirs) == 1, "aclprofInit's directory holds one PROF_* (got %s)" % dirs)
    if dirs:
        r = subprocess.run([sys.executable, args.msprof, "--quiet", "--export=on", "--output=" + dirs[0]])
        check(r.returncode == 0, "msprof --export=on of the aclprof* session succeeds")
        files = output_files(dirs[0])
        if os.path.isfile(files.get("msprof", "")):
            _trace, tasks = check_trace(files["msprof"], False)
            check_summaries(files, tasks, False)

    print("%d passed, %d failed (seed %d)" % (0 if failures else 1, 1 if failures else 0, SEED))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
