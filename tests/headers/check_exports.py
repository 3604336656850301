#!/usr/bin/env python3
"""exported_symbols test: each ACL library must export exactly the functions that tools/gen_api.py
lists - none missing, and no other acl*/rt*/Msprof* symbol (a stray export would become ABI we never meant to
offer). Filter libraries must also carry a DT_FILTER entry naming libascendcl.so, which is what makes
them share libascendcl's single runtime state."""

import argparse
import re
import subprocess
import sys


def exported(nm, lib):
    out = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("%s failed on %s:\n%s" % (nm, lib, out.stderr))
    names = set()
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name = parts[-1].split("@")[0]  # drop symbol versions
        if re.match(r"(acl|rt|Msprof)", name):
            names.add(name)
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--gen-api", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--readelf", default="")
    ap.add_argument("--library", action="append", default=[], help="library that implements the API")
    ap.add_argument("--filter", action="append", default=[], help="ELF filter library of libascendcl.so")
    args = ap.parse_args()

    listing = subprocess.run([args.python, args.gen_api, "--root", args.root, "list"], capture_output=True,
                             text=True, check=True).stdout
    expected = {line.split()[1] for line in listing.splitlines() if line.strip()}
    failed = False
    for lib in args.library + args.filter:
        got = exported(args.nm, lib)
        missing, extra = sorted(expected - got), sorted(got - expected)
        status = "ok" if not (missing or extra) else "FAIL"
        print("%s: %d acl*/rt* symbols exported, %d expected: %s" % (lib, len(got), len(expected), status))
        for name in missing:
            print("  missing: %s" % name)
        for name in extra:
            print("  unexpected: %s" % name)
        failed |= bool(missing or extra)
    if args.readelf:
        for lib in args.filter:
            dyn = subprocess.run([args.readelf, "-d", lib], capture_output=True, text=True, check=True).stdout
            if not re.search(r"\(FILTER\).*\[libascendcl\.so\]", dyn):
                print("%s: no DT_FILTER entry for libascendcl.so" % lib)
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
