#!/usr/bin/env python3
"""npu-smi info and msnpureport -s while test programs hold devices: the table lists both devices'
processes with their memory, and nothing once they exit."""
import argparse
import json
import re
import os
import subprocess
import sys
import time

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npu-smi", required=True)
    ap.add_argument("--msnpureport", required=True)
    ap.add_argument("--app", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ, NPURT_STATUS_DIR=os.path.join(args.work, "status"),
               ASCEND_PROCESS_LOG_PATH=os.path.join(args.work, "log"))
    holders = []
    for dev, mb in ((0, 96), (1, 48)):
        p = subprocess.Popen([args.app, str(dev), str(mb), "60"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             env=env, text=True)
        holders.append(p)
    pids = []
    for p in holders:
        line = p.stdout.readline()  # "ready <pid>" once the status is published
        check(line.startswith("ready"), "holder became ready (%r)" % line)
        pids.append(p.pid)
    table = subprocess.run([sys.executable, args.npu_smi, "info"], env=env, stdout=subprocess.PIPE, text=True).stdout
    print(table)
    data = json.loads(subprocess.run([sys.executable, args.npu_smi, "info", "--json"], env=env,
                                     stdout=subprocess.PIPE, text=True).stdout)
    devs = {d["id"]: d for d in data["devices"]}
    for (dev, mb), pid in zip(((0, 96), (1, 48)), pids):
        d = devs.get(dev)
        check(d is not None, "device %d listed" % dev)
        if d:
            procs = {p["pid"]: p for p in d["processes"]}
            check(pid in procs, "process %d listed on device %d" % (pid, dev))
            if pid in procs:
                check(procs[pid]["memory_used"] >= mb << 20, "process memory >= %d MB" % mb)
            check(d["memory_used"] >= mb << 20, "device %d memory used >= %d MB" % (dev, mb))
        check(str(pid) in table, "table shows pid %d" % pid)
    # Memory-Usage is what aclrtGetMemInfo reports as used: whole 2 MiB pages (96 MiB + the 32 B padding
    # of aclrtMalloc take 49 pages, 98 MB).
    row0 = [l for l in table.splitlines() if l.startswith("| 0 ") and " / " in l]
    used0 = int(re.search(r"(\d+) / \d+", row0[0]).group(1)) if row0 else -1
    check(96 <= used0 <= 98, "table shows device 0's 96 MB in use, to the page (%d)" % used0)
    health = subprocess.run([sys.executable, args.msnpureport, "-s"], env=env, stdout=subprocess.PIPE,
                            text=True).stdout
    print(health)
    check("Health" in health and "OK" in health, "msnpureport -s reports health")
    for p in holders:
        p.stdin.close()
        p.wait(timeout=60)
    time.sleep(0.2)
    table = subprocess.run([sys.executable, args.npu_smi, "info"], env=env, stdout=subprocess.PIPE, text=True).stdout
    check("No running processes" in table, "no processes once the holders exited")
    print("%d passed, %d failed" % (0 if failures else 1, 1 if failures else 0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
