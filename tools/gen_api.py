#!/usr/bin/env python3
"""The single source of truth for which ACL functions npurt exports.

Reads the public headers (include/acl/{acl_base_rt,acl_rt,...,acl_tdt,acl_tdt_queue}.h: HEADERS) and
treats every declaration marked ACL_FUNC_VISIBILITY as an exported function. The headers group their
functions with marker comments, alone on their line, of the form

    /* ==== [group] Title ==== */

and every exported function must sit below one, so the coverage report can be organized by topic.

Subcommands:
  list                                  print "header name" for every exported function
  stubs --api-dir DIR --out FILE        C++ definitions (returning ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
                                        for every function not defined in DIR/*.cc
  filter --out FILE                     C file defining a dummy symbol per function; it builds the
                                        ELF filter libraries (libacl_rt.so, libacl_rt_impl.so)
  coverage --api-dir DIR --out FILE     Markdown table of implemented functions
  check-coverage --api-dir DIR --doc F  exit 1 (with a diff) if F differs from what coverage writes

Standard library only; outputs are deterministic so generated files can be committed and diffed.
"""

import argparse
import difflib
import os
import re
import sys

HEADERS = ("acl_base_rt.h", "acl_rt.h", "acl_rt_allocator.h", "acl_rt_memory_soma.h",
           # Operator layer (issue 6): tensor descriptors, single ops, op compiler, CBLAS, aclnn. Names
           # starting with "aclnn" are relative to include/ (the aclnn headers live beside include/acl/).
           "acl_base_mdl.h", "acl_op.h", "acl_op_compiler.h", "ops/acl_cblas.h", "aclnn/acl_meta.h",
           # Offline models (issue 15).
           "acl_mdl.h",
           # Profiling and dump (issue 5).
           "acl_prof.h", "acl_dump.h",
           # TDT channels and queues (issue 7): libacl_tdt_channel.so, libacl_tdt_queue.so.
           "acl_tdt.h", "acl_tdt_queue.h",
           # DVPP, the media engine (libacl_dvpp.so).
           "ops/acl_dvpp.h",
           # Runtime compilation of kernels (libacl_rtc.so).
           "acl_rt_compile.h",
           # The part of libprofapi's header that client programs call (relative to include/).
           "profiling/aprof_pub.h")
# Every aclnn operator header (include/aclnnop/aclnn_<op>.h) is exported too.
ACLNN_OP_DIR = "aclnnop"


def header_names(root):
    extra = sorted(os.path.join(ACLNN_OP_DIR, f) for f in os.listdir(os.path.join(root, "include", ACLNN_OP_DIR))
                   if f.endswith(".h")) if os.path.isdir(os.path.join(root, "include", ACLNN_OP_DIR)) else []
    return list(HEADERS) + [h.replace(os.sep, "/") for h in extra]


def outside_acl(header):
    """True for headers relative to include/ rather than include/acl/."""
    return header.startswith("aclnn") or header.startswith("profiling/")


UNSUPPORTED_FILE = os.path.join("tools", "api_unsupported.txt")


def load_unsupported(root, functions, defined):
    """{name: reason} from tools/api_unsupported.txt, checked against the API and the definitions."""
    path = os.path.join(root, UNSUPPORTED_FILE)
    reasons = {}
    if not os.path.isfile(path):
        return reasons
    names = set(f.name for f in functions)
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) != 2:
            raise ApiError("%s:%d: expected a function name and a reason" % (UNSUPPORTED_FILE, n))
        name, reason = parts
        if name not in names:
            raise ApiError("%s:%d: %s is not an exported function" % (UNSUPPORTED_FILE, n, name))
        if name in defined:
            raise ApiError("%s:%d: %s is implemented now: remove its entry" % (UNSUPPORTED_FILE, n, name))
        if '"' in reason or "\\" in reason:
            raise ApiError("%s:%d: a reason may not contain quotes or backslashes" % (UNSUPPORTED_FILE, n))
        reasons[name] = reason
    return reasons


def header_path(root, header):
    if outside_acl(header):
        return os.path.join(root, "include", header)
    return os.path.join(root, "include", "acl", header)

# Coverage groups in report order: marker key -> title.
GROUPS = (
    ("init", "Initialization, versions and errors"),
    ("device", "Devices"),
    ("context", "Contexts and options"),
    ("stream", "Streams"),
    ("event", "Events and notifies"),
    ("memory", "Memory"),
    ("callback", "Callbacks and exceptions"),
    ("kernel", "Kernels"),
    ("model", "Model running instances and capture"),
    ("allocator", "User allocators"),
    ("mempool", "Memory pools"),
    ("misc", "Miscellaneous"),
    ("tensor", "Tensor descriptors"),
    ("op", "Single operators"),
    ("opcompiler", "Operator compiler"),
    ("cblas", "CBLAS"),
    ("aclnn", "aclnn tensors and executors"),
    ("aclnnop", "aclnn operators"),
    ("mdl_desc", "Offline models: descriptions"),
    ("mdl_dataset", "Offline models: datasets"),
    ("mdl_load", "Offline models: loading, unloading and size queries"),
    ("mdl_config", "Offline models: load configuration"),
    ("mdl_exec", "Offline models: execution"),
    ("mdl_dynamic", "Offline models: dynamic batch, image size and dims"),
    ("mdl_aipp", "Offline models: AIPP image pre-processing"),
    ("mdl_bundle", "Offline models: bundles"),
    ("mdl_other", "Offline models: fault diagnosis and recovery"),
    ("prof", "Profiling"),
    ("dump", "Data dump"),
    ("tdt", "TDT channels and queues"),
    ("dvpp_channel", "DVPP: memory and channels"),
    ("dvpp_desc", "DVPP: pictures and configurations"),
    ("dvpp_image", "DVPP: image decoding, encoding and VPC"),
    ("dvpp_video", "DVPP: video decoding and encoding"),
    ("rtc", "Runtime compilation (aclrtc)"),
)
GROUP_TITLES = dict(GROUPS)

# A marker is a comment of its own line; mentions inside other comments do not count.
GROUP_MARKER = re.compile(r"^[ \t]*/\*\s*=+\s*\[(\w+)\][^*\n]*?=+\s*\*/[ \t]*$", re.M)
GROUP_SENTINEL = "__npurt_group__"

COVERAGE_COMMAND = "python3 tools/gen_api.py coverage --api-dir src/api --out docs/api-coverage.md"


class ApiError(Exception):
    pass


class Function:
    def __init__(self, header, group, ret, name, params, variadic):
        self.header = header
        self.group = group
        self.ret = ret            # return type as written, whitespace-normalized
        self.name = name
        self.params = params      # list of (declaration text, parameter name)
        self.variadic = variadic


def strip_comments_and_strings(text, keep_strings=True):
    """Removes comments (keeping line breaks). String and character literals are kept verbatim, or
    emptied when keep_strings is False, so that their contents never look like code."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " + "\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            # Raw string literals are not expected in our sources; plain escapes are handled.
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == "\\":
                    j += 1
                elif text[j] == "\n":
                    break
                j += 1
            out.append(text[i:j + 1] if keep_strings else c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def top_level_statements(text):
    """Splits C source (comments already removed) into statements ending in ';' at brace depth 0.
    Preprocessor lines and extern "C" braces are dropped."""
    text = re.sub(r"\\\n", " ", text)
    lines = [line for line in text.split("\n") if not line.lstrip().startswith("#")]
    text = re.sub(r'extern\s+"C"\s*\{', " ", "\n".join(lines))
    statements, current, depth = [], [], 0
    for c in text:
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                continue  # closing brace of extern "C"
            depth -= 1
        current.append(c)
        if c == ";" and depth == 0:
            statements.append(" ".join("".join(current).split()))
            current = []
    return statements


def split_top_level(text, sep=","):
    parts, depth, cur = [], 0, []
    for c in text:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def parse_header(path, header):
    raw = open(path, encoding="utf-8").read()
    raw = GROUP_MARKER.sub(lambda m: "\n%s %s;\n" % (GROUP_SENTINEL, m.group(1)), raw)
    functions, pointer_typedefs = [], set()
    group = None
    for st in top_level_statements(strip_comments_and_strings(raw)):
        if st.startswith(GROUP_SENTINEL):
            group = st.split()[1].rstrip(";")
            if group not in GROUP_TITLES:
                raise ApiError("%s: unknown group [%s]; known: %s" % (header, group, ", ".join(GROUP_TITLES)))
            continue
        m = re.match(r"typedef\s+(?:const\s+)?\w+\s*\*\s*(\w+)\s*;$", st)
        if m:
            pointer_typedefs.add(m.group(1))
            continue
        if "ACL_FUNC_VISIBILITY" not in st and "MSVP_PROF_API" not in st:
            continue
        decl = re.sub(r'ACL_DEPRECATED_MESSAGE\s*\(\s*"(?:[^"\\]|\\.)*"\s*\)', " ", st)
        decl = re.sub(r"\bACL_DEPRECATED\b|\bACL_FUNC_VISIBILITY\b|\bMSVP_PROF_API\b", " ", decl)
        decl = " ".join(decl.split()).rstrip(";").strip()
        m = re.match(r"^(.*?)\b([A-Za-z_]\w*)\s*\((.*)\)$", decl)
        if not m:
            raise ApiError("%s: cannot parse declaration: %s" % (header, st))
        ret, name, plist = " ".join(m.group(1).split()), m.group(2), m.group(3).strip()
        if group is None:
            raise ApiError("%s: %s is not below a /* ==== [group] ... ==== */ marker" % (header, name))
        params, variadic = [], False
        for p in ([] if plist in ("", "void") else split_top_level(plist)):
            if p == "...":
                variadic = True
                continue
            pm = re.match(r"^(.*[\s\*&])([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*$", p)  # arrays: name[][N]
            if not pm or not pm.group(1).strip() or pm.group(1).strip() in ("const", "struct", "enum"):
                raise ApiError("%s: parameter '%s' of %s needs a name" % (header, p, name))
            params.append((p, pm.group(2)))
        functions.append(Function(header, group, ret, name, params, variadic))
    return functions, pointer_typedefs


def load_api(root):
    functions, pointer_typedefs, seen = [], set(), {}
    for header in header_names(root):
        path = header_path(root, header)
        if not os.path.isfile(path):
            raise ApiError("missing header %s" % path)
        fns, ptrs = parse_header(path, header)
        pointer_typedefs |= ptrs
        for f in fns:
            if f.name in seen:
                raise ApiError("%s declared in both %s and %s" % (f.name, seen[f.name], f.header))
            seen[f.name] = f.header
            functions.append(f)
    if not functions:
        raise ApiError("no ACL_FUNC_VISIBILITY declarations found under %s" % root)
    return functions, pointer_typedefs


def find_definitions(api_dir, names):
    """Maps function name -> sorted list of api_dir/*.cc files that define it. A definition is the
    name, a balanced parameter list, then '{' (comments and string contents ignored)."""
    wanted = set(names)
    found = {}
    if not os.path.isdir(api_dir):
        return found
    ident = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
    for fname in sorted(os.listdir(api_dir)):
        if not fname.endswith(".cc"):
            continue
        text = strip_comments_and_strings(open(os.path.join(api_dir, fname), encoding="utf-8").read(),
                                          keep_strings=False)
        for m in ident.finditer(text):
            if m.group(1) not in wanted:
                continue
            depth, i = 0, m.end() - 1
            while i < len(text):
                if text[i] == "(":
                    depth += 1
                elif text[i] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
            j = i + 1
            while j < len(text) and text[j].isspace():
                j += 1
            if j < len(text) and text[j] == "{":
                files = found.setdefault(m.group(1), [])
                if fname not in files:
                    files.append(fname)
    return found


def write_if_changed(path, content):
    """Leaves an identical file untouched so that build tools see no change."""
    if os.path.isfile(path) and open(path, encoding="utf-8").read() == content:
        return
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(content)
    os.replace(tmp, path)


# What a stub returns for an enum result (an int does not convert to an enum in C++): the value real
# getters return on bad input.
ENUM_FAILURE_VALUES = {"aclFormat": "ACL_FORMAT_UNDEFINED", "aclDataType": "ACL_DT_UNDEFINED",
                       "acldvppPixelFormat": "PIXEL_FORMAT_UNKNOWN", "acldvppStreamFormat": "H265_MAIN_LEVEL",
                       "acldvppBorderType": "BORDER_CONSTANT"}


def gen_stubs(functions, pointer_typedefs, defined, reasons):
    out = [
        "// Generated by tools/gen_api.py stubs; do not edit.",
        "// Every exported ACL function that no src/api/*.cc file defines yet: it records the call as",
        "// unsupported and fails with ACL_ERROR_RT_FEATURE_NOT_SUPPORT (or returns NULL/0).",
        '#include "acl/acl.h"',
    ]
    for h in sorted(set(f.header for f in functions)):
        out.append('#include "%s"' % (h if outside_acl(h) else "acl/" + h))
    out += ['#include "api/api_common.h"', ""]
    count = 0
    for f in functions:
        if f.name in defined:
            continue
        count += 1
        params = [p for p, _ in f.params] + (["..."] if f.variadic else [])
        out.append("%s %s(%s)" % (f.ret, f.name, ", ".join(params)))
        out.append("{")
        for _, pname in f.params:
            out.append("    (void)%s;" % pname)
        if f.name in reasons:
            call = 'npurt::api::NotSupported("%s", "%s")' % (f.name, reasons[f.name])
        else:
            call = 'npurt::api::NotSupported("%s")' % f.name
        ret = f.ret.replace("const ", "").strip()
        if ret == "aclError":
            out.append("    return %s;" % call)
        elif ret == "void":
            out.append("    (void)%s;" % call)
        elif ret == "aclnnStatus":
            out.append("    return %s;" % call)
        elif ret.endswith("*") or ret in pointer_typedefs:
            out.append("    (void)%s;" % call)
            out.append("    return nullptr;")
        elif ret in ENUM_FAILURE_VALUES:
            out.append("    (void)%s;" % call)
            out.append("    return %s;" % ENUM_FAILURE_VALUES[ret])
        else:
            out.append("    (void)%s;" % call)
            out.append("    return 0;")
        out.append("}")
        out.append("")
    out.append("// %d stub(s)." % count)
    return "\n".join(out) + "\n"


def gen_filter(functions):
    out = [
        "/* Generated by tools/gen_api.py filter; do not edit.",
        " * Symbol table of the ELF filter libraries libacl_rt.so and libacl_rt_impl.so: they are linked",
        " * with -Wl,--filter=libascendcl.so, so the dynamic linker resolves each of these names in",
        " * libascendcl.so and these bodies never run. Signatures do not matter, only the names. */",
        "",
    ]
    for f in functions:
        out.append("void %s(void);" % f.name)
        out.append("void %s(void) {}" % f.name)
    return "\n".join(out) + "\n"


def gen_coverage(functions, defined, api_rel, reasons):
    total = len(functions)
    done = sum(1 for f in functions if f.name in defined)

    def pct(a, b):
        return "%.1f%%" % (100.0 * a / b) if b else "n/a"

    out = [
        "<!-- Generated by tools/gen_api.py; do not edit. Regenerate with:",
        "     %s" % COVERAGE_COMMAND,
        "     (or build the api-coverage target). The api_coverage_doc_fresh test fails while it is stale. -->",
        "",
        "# ACL runtime API coverage",
        "",
        "Exported functions of `include/acl/{%s}`, `include/aclnn*/` and the `%s/*.cc` file that implements "
        "each one." % (",".join(h for h in HEADERS if not outside_acl(h)), api_rel),
        "Functions without an implementation are generated stubs that return `ACL_ERROR_RT_FEATURE_NOT_SUPPORT`; "
        "the reason (from `tools/api_unsupported.txt`) is in their row and in the stub's `aclGetRecentErrMsg` message.",
        "",
        "**%d of %d functions implemented (%s)**" % (done, total, pct(done, total)),
        "",
        "| Group | Implemented | Total | Share |",
        "| --- | ---: | ---: | ---: |",
    ]
    by_group = {}
    for f in functions:
        by_group.setdefault(f.group, []).append(f)
    for key, title in GROUPS:
        fns = by_group.get(key, [])
        n = sum(1 for f in fns if f.name in defined)
        out.append("| [%s](#%s) | %d | %d | %s |" % (title, anchor(title), n, len(fns), pct(n, len(fns))))
    for key, title in GROUPS:
        fns = sorted(by_group.get(key, []), key=lambda f: f.name)
        n = sum(1 for f in fns if f.name in defined)
        out += ["", "## %s" % title, "", "%d of %d implemented." % (n, len(fns)), ""]
        if not fns:
            continue
        out += ["| Function | Header | Implemented | Defined in (or why not) |", "| --- | --- | --- | --- |"]
        for f in fns:
            files = defined.get(f.name)
            where = ", ".join("`%s/%s`" % (api_rel, x) for x in files) if files else reasons.get(f.name, "")
            out.append("| `%s` | %s | %s | %s |" % (f.name, f.header, "yes" if files else "no", where))
    return "\n".join(out) + "\n"


def anchor(title):
    # GitHub-style heading anchor.
    return re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")


def api_relpath(root, api_dir):
    rel = os.path.relpath(os.path.abspath(api_dir), os.path.abspath(root))
    return rel.replace(os.sep, "/") if not rel.startswith("..") else api_dir.rstrip("/")


def main(argv):
    default_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=default_root, help="repository root (default: parent of tools/)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="print 'header name' per exported function")
    p = sub.add_parser("stubs", help="generate NOT_SUPPORTED stubs")
    p.add_argument("--api-dir", required=True)
    p.add_argument("--out", required=True)
    p = sub.add_parser("filter", help="generate the ELF filter symbol table")
    p.add_argument("--out", required=True)
    p = sub.add_parser("coverage", help="generate the coverage document")
    p.add_argument("--api-dir", required=True)
    p.add_argument("--out", required=True)
    p = sub.add_parser("check-coverage", help="fail if the coverage document is stale")
    p.add_argument("--api-dir", required=True)
    p.add_argument("--doc", required=True)
    args = ap.parse_args(argv)

    try:
        functions, pointer_typedefs = load_api(args.root)
    except ApiError as e:
        print("gen_api.py: error: %s" % e, file=sys.stderr)
        return 2

    if args.cmd == "list":
        sys.stdout.write("".join("%s %s\n" % (f.header, f.name) for f in functions))
        return 0
    if args.cmd == "filter":
        write_if_changed(args.out, gen_filter(functions))
        return 0

    defined = find_definitions(args.api_dir, [f.name for f in functions])
    try:
        reasons = load_unsupported(args.root, functions, defined)
    except ApiError as e:
        print("gen_api.py: error: %s" % e, file=sys.stderr)
        return 2
    if args.cmd == "stubs":
        write_if_changed(args.out, gen_stubs(functions, pointer_typedefs, defined, reasons))
        return 0
    text = gen_coverage(functions, defined, api_relpath(args.root, args.api_dir), reasons)
    if args.cmd == "coverage":
        write_if_changed(args.out, text)
        return 0
    # check-coverage
    current = open(args.doc, encoding="utf-8").read() if os.path.isfile(args.doc) else ""
    if current == text:
        return 0
    sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), text.splitlines(True),
                                               args.doc + " (committed)", args.doc + " (expected)"))
    print("\n%s is stale; regenerate it with: %s" % (args.doc, COVERAGE_COMMAND))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
