"""The report of mssanitizer: npurt's sanitizer records (src/core/sanitizer_records.h) in msSanitizer's layout.

Every line starts with "====== ", an error with "====== ERROR:", and the report ends with
"====== ERROR SUMMARY: N errors", as CANN's msSanitizer writes them. Standard library only.
"""

import json
import re

PREFIX = "====== "
# ACL_ERROR_RT_{AICORE,VECTOR_CORE}_TRAP_{READ,WRITE}_OVERFLOW: a memcheck trap (docs/kernels.md).
OVERFLOW_CODES = (507042, 507043, 507044, 507045)
# "kernel 'add' block 7 on AI core 3: DataCopy(GM->UB): read of 16384 bytes at 0x7f..: <why>" (src/drivers/sim/sim_aicore.cc)
CHECKED_ACCESS = re.compile(r"kernel '(?P<kernel>.*?)' block (?P<block>\d+) on AI core (?P<core>\d+): "
                            r"(?P<what>.+?): (?P<rw>read|write) of (?P<size>\d+) bytes at (?P<addr>\S+): "
                            r"(?P<why>.*)", re.S)
RACECHECK_NOTE = ("note: CANN's racecheck looks for races between the pipes of one AI core; a simulated core runs "
                  "its pipes in program order, so there are none to find. npurt's racecheck finds races on device "
                  "memory between streams and the host instead (docs/racecheck.md).")


def read_records(path):
    """The records of the log, in order; an unreadable line becomes a record of kind 'unreadable'."""
    records = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                records.append(json.loads(line))
            except ValueError:
                records.append({"kind": "unreadable", "text": line})
    return records


def block(lines):
    return "".join(PREFIX + line + "\n" for line in lines)


def task_failure(r):
    """A failed kernel task: an illegal access when memcheck trapped it, a kernel exception otherwise."""
    where = f"task {r['task']}, stream {r['stream']}, device {r['device']}"
    m = CHECKED_ACCESS.match(r["message"])
    if r["code"] in OVERFLOW_CODES and m:
        return block([f"ERROR: illegal {m['rw']} of size {m['size']}",
                      f"   at {m['addr']} on GM in {m['kernel']} by {m['what']}",
                      f"   in block {m['block']} (AI core {m['core']}), {where}",
                      f"   {m['why']}"])
    kernel = r.get("kernel") or "a task"
    return block([f"ERROR: {kernel} failed with error {r['code']} ({where})", f"   {r['message']}"])


def leaks(records):
    found = [r for r in records if r["kind"] == "leak"]
    if not found:
        return "", 0
    lines = ["ERROR: LeakCheck: detected memory leaks"]
    for r in found:
        site = r["site"] or "an unknown site"
        serial = f" (serialNo:{r['serial']})" if r["serial"] else ""  # 0: the allocator did not number it
        lines += [f"   Direct leak of {r['size']} byte(s)",
                  f"     at {r['base']:#x} on GM of device {r['device']} allocated at {site}{serial}"]
    total = sum(r["size"] for r in found)
    lines.append(f"SUMMARY: {total} byte(s) leaked in {len(found)} allocation(s)")
    return block(lines), len(found)


def races(records):
    text = ""
    found = [r for r in records if r["kind"] == "race"]
    for r in found:
        lines = r["text"].splitlines()
        # The detector's first line starts "npurt racecheck: race #N on device memory: ..."
        head = lines[0].split(": ", 1)[-1] if lines else "race"
        text += block([f"WARNING: {head}"] + [f"   {line.strip()}" for line in lines[1:]])
    summaries = [r for r in records if r["kind"] == "race_summary"]
    checked = sum(r["accesses"] for r in summaries)
    text += block([f"RACECHECK: {len(found)} race(s) found in {checked} device-memory accesses checked"])
    return text, len(found)


def render(tool, leak_check, records):
    """Returns (report text, number of errors)."""
    text = ""
    errors = 0
    if not any(r["kind"] == "attach" for r in records):
        text += block(["WARNING: the program did not load npurt's runtime (libascendcl.so): nothing was checked"])
    if tool == "racecheck":
        text += block([RACECHECK_NOTE])
    for r in records:
        if r["kind"] == "task_failure":
            text += task_failure(r)
            errors += 1
        elif r["kind"] == "unreadable":
            text += block([f"WARNING: an unreadable record of the runtime: {r['text']}"])
    if tool == "racecheck":
        more, n = races(records)
        text += more
        errors += n
    if leak_check:
        more, n = leaks(records)
        text += more
        errors += n
    text += block([f"ERROR SUMMARY: {errors} errors"])
    return text, errors
