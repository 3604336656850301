"""CANN's summary files of msprof's mindstudio_profiler_output/: op_summary, op_statistic, api_statistic,
task_time and README.txt, with CANN's file names and column names in CANN's order (the headers of
Ascend/msprof's analysis/csrc/application/summary/*_assembler.cpp), so that scripts and viewers written
for CANN (MindStudio Insight, msprof-analyze) read npurt's profiles. Input: the Process objects that
tools/msprof/msprof loads from raw/. Standard library only; installed beside msprof.

Times, as in CANN: microseconds with three decimals; start and stop times are absolute (the wall clock,
microseconds since the epoch) and carry CANN's trailing tab, which keeps spreadsheets from rounding them.
"""

import csv
import os

OP_SUMMARY_COLUMNS = ["Device_id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type", "OP State", "Task Type",
                      "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)", "Block Num", "Mix Block Num",
                      "HF32 Eligible", "Input Shapes", "Input Data Types", "Input Formats", "Output Shapes",
                      "Output Data Types", "Output Formats", "Context ID"]
OP_STATISTIC_COLUMNS = ["Device_id", "OP Type", "Core Type", "Count", "Total Time(us)", "Min Time(us)", "Avg Time(us)",
                        "Max Time(us)", "Ratio(%)"]
API_STATISTIC_COLUMNS = ["Device_id", "Level", "API Name", "Time(us)", "Count", "Avg(us)", "Min(us)", "Max(us)",
                         "Variance"]
TASK_TIME_COLUMNS = ["Device_id", "kernel_name", "kernel_type", "stream_id", "task_id", "task_time(us)",
                     "task_start(us)", "task_stop(us)"]

NA = "N/A"
SINGLE_OP_MODEL_ID = 4294967295  # CANN's Model ID of tasks outside a model (single operators, kernels)

# CANN's names of ACL data types and formats in op_summary (msprof writes the older types bare, the newer
# ones with GE's DT_ prefix).
DTYPE_NAMES = {0: "FLOAT", 1: "FLOAT16", 2: "INT8", 3: "INT32", 4: "UINT8", 6: "INT16", 7: "UINT16", 8: "UINT32",
               9: "INT64", 10: "UINT64", 11: "DOUBLE", 12: "BOOL", 13: "STRING", 16: "COMPLEX64", 17: "COMPLEX128",
               27: "DT_BF16", 29: "DT_INT4", 30: "DT_UINT1", 33: "DT_COMPLEX32", 34: "DT_HIFLOAT8",
               35: "DT_FLOAT8_E5M2", 36: "DT_FLOAT8_E4M3FN", 37: "DT_FLOAT8_E8M0", 38: "DT_FLOAT6_E3M2",
               39: "DT_FLOAT6_E2M3", 40: "DT_FLOAT4_E2M1", 41: "DT_FLOAT4_E1M2", -1: "UNDEFINED"}
FORMAT_NAMES = {0: "NCHW", 1: "NHWC", 2: "ND", 3: "NC1HWC0", 4: "FRACTAL_Z", 12: "NC1HWC0_C04", 16: "HWCN",
                27: "NDHWC", 29: "FRACTAL_NZ", 30: "NCDHW", 32: "NDC1HWC0", 33: "FRACTAL_Z_3D", 35: "NC",
                47: "NCL", 50: "FRACTAL_NZ_C0_16", 51: "FRACTAL_NZ_C0_32", 52: "FRACTAL_NZ_C0_2",
                53: "FRACTAL_NZ_C0_4", 54: "FRACTAL_NZ_C0_8", -1: "UNDEFINED"}

# npurt task kinds (raw/info.<pid>.json) as CANN's task types; kinds not listed keep their npurt name.
CANN_TASK_TYPES = {"MEMCPY": "MEMCPY_ASYNC", "MEMCPY2D": "MEMCPY_ASYNC", "KERNEL": "AI_CORE"}
AI_CORE = "AI_CORE"
COMMUNICATION = "COMMUNICATION"  # collectives (HcclAllReduce, ...): the communication engine's tasks
COMMUNICATION_COLUMNS = ["Device_id", "OP Type", "Count", "Total Time(us)", "Avg Time(us)", "Total Size(MB)",
                         "Avg Bandwidth(GB/s)"]
# Bytes per element of the ACL data types a collective can carry.
DTYPE_BYTES = {0: 4, 1: 2, 2: 1, 3: 4, 4: 1, 6: 2, 7: 2, 8: 4, 9: 8, 10: 8, 11: 8, 27: 2}

README = """npurt msprof output (the layout of CANN's msprof; https://www.hiascend.com profiling guide)

msprof_{ts}.json        the timeline (Chrome trace): open it in https://ui.perfetto.dev, chrome://tracing
                        or MindStudio Insight. Host process: one track per thread with its AscendCL API
                        calls and msproftx markers; NPU process: one track per stream and per engine,
                        flows from each launch to its task and from event records to their waits, and
                        the device memory counter. Times: microseconds from the start of the profile
                        (otherData.time_origin_us is that start on the wall clock).
op_summary_{ts}.csv     one row per operator or kernel task (AI_CORE): op name and type, stream, task
                        id, start (wall clock, us), duration, wait since the previous task ended, block
                        num, input/output shapes, data types and formats. No PMU columns: the simulated
                        NPU has no hardware counters (--aic-metrics is accepted).
communication_statistic_{ts}.csv  (only when the job ran collectives) per collective type (HcclAllReduce, ...): count, total and average time,
                        bytes received per rank (MB), and their average bandwidth (bytes / time, GB/s).
op_compile_cache_{ts}.csv  (only when the job compiled single operators: aclop*, aclnn*, CBLAS, or ran a
                        dynamic-shape model) per OP Type: compile-cache hits, misses, evictions, hit rate (%)
                        and time spent compiling the misses (us), and the misses served by re-tiling the
                        kernel of an earlier shape (Retiled); a dynamic-shape model's compiled shapes are
                        the row "model <name> shapes" and its re-tiled operators "model <name> retiled"; a
                        last row "total".
op_statistic_{ts}.csv   per OP Type and core type: count, total, min, avg, max time and share of the
                        device's operator time (the sum of op_summary's rows).
api_statistic_{ts}.csv  per host API (Level AscendCL): total time, count, avg, min, max, variance (us^2).
task_time_{ts}.csv      every device task in start order: name (N/A for copies, events and other
                        non-operator tasks), task type, stream, task id, duration, start and stop.
README.txt              this file.

Beside this folder, in PROF_*/: raw/ (npurt's raw records; `msprof --export=on --output=PROF_*`
regenerates everything), timeline.html (a static picture of the timeline) and report.txt (the
printed report).
"""


def us3(ns):
    """Nanoseconds as CANN prints microseconds: three decimals, exact (integer arithmetic)."""
    ns = int(round(ns))
    sign = "-" if ns < 0 else ""
    q, r = divmod(abs(ns), 1000)
    return "%s%d.%03d" % (sign, q, r)


def wall_ns(p, mono_ns):
    """A raw CLOCK_MONOTONIC time of process p on the wall clock (ns since the epoch)."""
    return mono_ns - p.info.get("start_mono_ns", 0) + p.info.get("start_real_ns", 0)


def parse_tensors(text):
    """'<dtype>:<format>:<dims>;...' (src/ops/op_prof.cc) -> [(dtype, format, [dims])]."""
    out = []
    if not text:
        return out
    for t in text.split(";"):
        parts = t.split(":")
        if len(parts) != 3:
            continue
        try:
            dims = [int(d) for d in parts[2].split(",") if d != ""]
            out.append((int(parts[0]), int(parts[1]), dims))
        except ValueError:
            continue
    return out


def parse_op_detail(text):
    """The kOpInfo detail string '<type>|<block num>|<inputs>|<outputs>' -> dict, or None if malformed."""
    parts = text.split("|")
    if len(parts) != 4 or not parts[0]:
        return None
    try:
        block = int(parts[1])
    except ValueError:
        return None
    return {"type": parts[0], "block": block, "inputs": parse_tensors(parts[2]), "outputs": parse_tensors(parts[3])}


def tensor_columns(tensors):
    """Shapes, data types and formats as CANN writes them: per tensor, ';'-separated; dims ','-separated."""
    shapes = ";".join(",".join(str(d) for d in dims) for _, _, dims in tensors)
    dtypes = ";".join(DTYPE_NAMES.get(dt, "DT_%d" % dt) for dt, _, _ in tensors)
    formats = ";".join(FORMAT_NAMES.get(fm, "FORMAT_%d" % fm) for _, fm, _ in tensors)
    return shapes, dtypes, formats


def cann_task_type(kind_name, is_op, op_type=""):
    if is_op:
        return COMMUNICATION if op_type.startswith("Hccl") else AI_CORE
    return CANN_TASK_TYPES.get(kind_name, kind_name)


def describe_tasks(procs, kind_info, task_name):
    """Every device task with what the CANN files need: device, stream, id, type, name, op detail, times."""
    out = []
    for p in procs:
        for t in p.tasks:
            kname, _ = kind_info(p, t["kind"])
            op = p.op_info.get(t["task_id"])
            kernel = t["task_id"] in p.task_names and kname == "KERNEL"
            out.append({"device": t["device"], "stream": t["stream"], "task_id": t["task_id"],
                        "type": cann_task_type(kname, op is not None, op["type"] if op else ""), "kind": kname,
                        "name": task_name(p, t) if (op or kernel) else NA, "op": op, "kernel": kernel,
                        "block": op["block"] if op else p.task_blocks.get(t["task_id"], 0),
                        "start": wall_ns(p, t["start"]), "end": wall_ns(p, t["end"])})
    out.sort(key=lambda r: (r["device"], r["start"], r["task_id"]))
    return out


def write_csv(path, columns, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(columns)
        w.writerows(rows)


def op_summary_rows(tasks):
    """One row per operator or kernel task, in start order per device; CANN's wait time: the gap since the
    previous row's task ended (0 for the first row and when they overlap)."""
    rows = []
    prev_end = None
    for r in tasks:
        if not (r["op"] or r["kernel"]):
            continue
        dur = r["end"] - r["start"]
        wait = max(0, r["start"] - prev_end) if prev_end is not None else 0
        prev_end = r["end"]
        if r["op"]:
            ins = tensor_columns(r["op"]["inputs"])
            outs = tensor_columns(r["op"]["outputs"])
            op_type = r["op"]["type"]
        else:
            ins = outs = (NA, NA, NA)
            op_type = r["name"]
        rows.append([r["device"], SINGLE_OP_MODEL_ID, r["task_id"], r["stream"], r["name"], op_type, NA, r["type"],
                     us3(r["start"]) + "\t", us3(dur), us3(wait), r["block"], 0, NA, ins[0], ins[1], ins[2], outs[0],
                     outs[1], outs[2], NA])
    return rows


def op_statistic_rows(summary):
    """Per (device, OP Type, Task Type): count, total, min, avg, max, share of the device's total; by total."""
    groups = {}
    totals = {}
    for row in summary:
        dev, op_type, core = row[0], row[5], row[7]
        dur_ns = int(round(float(row[9]) * 1000))
        g = groups.setdefault((dev, op_type, core), [])
        g.append(dur_ns)
        totals[dev] = totals.get(dev, 0) + dur_ns
    rows = []
    for (dev, op_type, core), durs in groups.items():
        tot = sum(durs)
        ratio = 100.0 * tot / totals[dev] if totals[dev] else 0.0
        rows.append((tot, [dev, op_type, core, len(durs), us3(tot), us3(min(durs)), us3(tot / len(durs)),
                           us3(max(durs)), "%.3f" % ratio]))
    rows.sort(key=lambda x: (-x[0], x[1][1]))
    return [r for _, r in rows]


def api_statistic_rows(procs):
    """Per (API name, level): CANN rounds each duration to 0.001 us first, then sums, averages and takes the
    population variance of those (us^2). Every npurt API is an acl* entry point: level AscendCL."""
    groups = {}
    for p in procs:
        for a in p.apis:
            groups.setdefault((a["name"], "AscendCL"), []).append(round((a["end"] - a["start"]) / 1000.0, 3))
    rows = []
    for (name, level) in sorted(groups):
        durs = groups[(name, level)]
        total = sum(durs)
        avg = round(total / len(durs), 3)
        var = round(sum((d - avg) ** 2 for d in durs) / len(durs), 3)
        rows.append(["host", level, name, "%.3f" % total, len(durs), "%.3f" % avg, "%.3f" % min(durs),
                     "%.3f" % max(durs), "%.3f" % var])
    return rows


def communication_rows(tasks):
    """Per (device, collective type): count, time, received bytes (its op info's output) and bandwidth."""
    groups = {}
    for r in tasks:
        op = r["op"]
        if not op or r["type"] != COMMUNICATION:
            continue
        size = 0
        for dims, _, dtype in [(t[2], t[1], t[0]) for t in op["outputs"]]:
            n = 1
            for d in dims:
                n *= d
            size += n * DTYPE_BYTES.get(dtype, 0)
        g = groups.setdefault((r["device"], op["type"]), [0, 0, 0])
        g[0] += 1
        g[1] += r["end"] - r["start"]
        g[2] += size
    rows = []
    for (dev, op_type), (count, ns, size) in sorted(groups.items()):
        rows.append([dev, op_type, count, us3(ns), us3(ns / count), "%.6f" % (size / 1e6),
                     "%.3f" % (size / ns if ns else 0.0)])
    return rows


def task_time_rows(tasks):
    return [[r["device"], r["name"], r["type"], r["stream"], r["task_id"], us3(r["end"] - r["start"]),
             us3(r["start"]) + "\t", us3(r["end"]) + "\t"] for r in tasks]


OP_CACHE_COLUMNS = ["OP Type", "Hits", "Misses", "Evictions", "Hit Rate(%)", "Compile Time(us)", "Retiled"]


def op_cache_rows(procs):
    """Per op type: the operator compile cache's hits, misses, evictions, hit rate, compile time, and the
    misses served by re-tiling a kernel of the same family (event 3, counted among the misses)."""
    per = {}
    for p in procs:
        for e in getattr(p, "op_cache", []):
            row = per.setdefault(e["type"], [0, 0, 0, 0, 0])
            if e["event"] in (0, 1, 2):
                row[e["event"]] += 1
            if e["event"] == 3:
                row[1] += 1
                row[4] += 1
            if e["event"] in (1, 3, 4):  # 4: a re-tiled entry compiled for its shapes at a hit
                row[3] += e["ns"]
    rows = []
    total = [0, 0, 0, 0, 0]
    for op in sorted(per):
        h, m, ev, ns, rt = per[op]
        total = [total[0] + h, total[1] + m, total[2] + ev, total[3] + ns, total[4] + rt]
        rows.append([op, h, m, ev, "%.2f" % (100.0 * h / (h + m) if h + m else 0.0), us3(ns), rt])
    if rows:
        h, m, ev, ns, rt = total
        rows.append(["total", h, m, ev, "%.2f" % (100.0 * h / (h + m) if h + m else 0.0), us3(ns), rt])
    return rows


def write_all(out_dir, stamp, procs, kind_info, task_name):
    """Writes the four CSV files and README.txt into out_dir; returns {file name: rows}."""
    tasks = describe_tasks(procs, kind_info, task_name)
    summary = op_summary_rows(tasks)
    files = {
        "op_summary_%s.csv" % stamp: (OP_SUMMARY_COLUMNS, summary),
        "op_statistic_%s.csv" % stamp: (OP_STATISTIC_COLUMNS, op_statistic_rows(summary)),
        "api_statistic_%s.csv" % stamp: (API_STATISTIC_COLUMNS, api_statistic_rows(procs)),
        "task_time_%s.csv" % stamp: (TASK_TIME_COLUMNS, task_time_rows(tasks)),
    }
    comm = communication_rows(tasks)
    if comm:  # as CANN's msprof: only for a job that communicated
        files["communication_statistic_%s.csv" % stamp] = (COMMUNICATION_COLUMNS, comm)
    cache = op_cache_rows(procs)
    if cache:  # only for a job that compiled single operators
        files["op_compile_cache_%s.csv" % stamp] = (OP_CACHE_COLUMNS, cache)
    for name, (cols, rows) in files.items():
        write_csv(os.path.join(out_dir, name), cols, rows)
    with open(os.path.join(out_dir, "README.txt"), "w") as f:
        f.write(README)
    return {name: rows for name, (_, rows) in files.items()}
