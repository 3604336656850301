#!/usr/bin/env python3
"""npurt_kernel_gen: the source step of npurt's Ascend C toolchain for the simulated NPU.

The CMake module (cmake/ascendc.cmake) runs it once per `ascendc_library` / `ascendc_fatbin_library`
with the library's kernel sources. It finds the kernels

    extern "C" __global__ __aicore__ void name(<parameters>) { ... }

(qualifiers in any order, also __vector__, __cube__, __mix__(c, v); extern "C" optional), in the sources and
in the headers they include with quotes. A template kernel becomes one kernel per instantiation that the
library asks for (launches `k<args><<<...>>>`, explicit instantiations), named `k<args>`.

and writes, into --out-dir:

  device/NN_<stem>.cpp   the "device pass" of each source, compiled into the kernel binary (a host ELF
                         shared object): the source unchanged except that `k<<<...>>>(...)` launches
                         (which only host code makes) become no-ops and `asm("trap")` becomes trap();
                         appended, for each kernel the file defines, its generated entry (unpacks the
                         argument block, natural C layout of the parameters in order) and descriptor
                         (name, parameter offsets/sizes);
  device/npurt_kernel_table.cpp   the binary's exported `npurt_kernel_table` (include/npurt/kernel_abi.h);

and for --mode library also

  host/NN_<stem>.cpp     the "host pass": kernels become unused static functions, each
                         `k<<<blocks, l2ctrl, stream>>>(args...)` a call of a generated launcher that packs
                         the arguments and launches the kernel through the ACL runtime
                         (aclrtLaunchKernelWithHostArgs), plus `aclrtlaunch_<k>(blockDim, stream, ...)`;
  host/npurt_embed.cpp   the kernel binary embedded in the host library (.incbin) and the code that
                         loads it on first launch (aclrtBinaryLoadFromData, aclrtBinaryGetFunction);
  include/aclrtlaunch_<k>.h   declarations of aclrtlaunch_<k> and ACLRT_LAUNCH_KERNEL(k).

aclrtlaunch_<k> takes its parameters as CANN's generated launcher does: pointers as void*, and a parameter
whose type is a struct defined in the kernel's source (a tiling structure, usually from a header next to
it) as a pointer to that struct, whose contents are copied into the argument block. Such structs are found
in the source and in the headers it includes with quotes, looked up next to the including file and in the
library's source directories; a struct defined elsewhere (an angle-bracket include) is taken by value.
`k<<<...>>>(args)` keeps the kernel's own parameter types.

A kernel that can reach SyncAll, a cross-core flag or another wait for other blocks (IBWait, WaitPreBlock,
GroupBarrier, a polling ReadGmByPassDCache ...; CROSS_BLOCK_CALL) (in its body, in its source outside the
other kernels' bodies, or in a header included with quotes) is marked co-operative in the table
(NPURT_KERNEL_FLAG_COOPERATIVE): the runtime runs all its blocks at once. A mixed kernel's vector
sub-blocks per block (KERNEL_TYPE_MIX_AIC_1_2, __mix__(1, 2)) and whether it has a cube part (code that
tells the core types apart) are flags too (NPURT_KERNEL_FLAG_AIV_*, NPURT_KERNEL_FLAG_AIC_PART).

Every output keeps the line numbers of its source (`#line`), so compiler messages point at the user's
file. Outputs are rewritten only when their content changes. Python 3 standard library only.

Usage: npurt_kernel_gen.py --name LIB --mode {fatbin,library} --out-dir DIR [--image PATH] [--list] SRC...
  --list   print the kernel names (one a line) and write nothing
"""

import argparse
import os
import re
import sys

# A kernel: `__global__` with any of the other qualifiers, in any order, before `void name(`; optionally a
# template (`template <typename T> __global__ __aicore__ void k(...)`) and extern "C". `name<args>(` after
# the qualifiers is an explicit instantiation (after `template`) or specialization of a template kernel.
QUALIFIER = r'(?:__global__|__aicore__|__vector__|__cube__|__mix__\s*\([^()]*\)|inline|static|__inline__)'
TEMPLATE_ARGS = r'<(?:[^<>;{}()]|<[^<>;{}()]*>)*>'
KERNEL_HEAD = re.compile(
    r'(?:\btemplate\s*<(?P<tparams>[^{};]*?)>\s*)?'
    r'(?:\bextern\s+"_"\s*)?'                                   # extern "C" (string contents masked)
    r'(?<![\w])(?P<quals>(?:' + QUALIFIER + r'\s*)+)'
    r'\bvoid\s+(?P<name>[A-Za-z_]\w*)\s*(?P<targs>' + TEMPLATE_ARGS + r')?\s*\(')
LAUNCH = re.compile(r'\b([A-Za-z_]\w*)\s*(' + TEMPLATE_ARGS + r')?\s*<<<')
# aclrtKernelType of a kernel, from its qualifier or KERNEL_TASK_TYPE_DEFAULT in its body (fault codes:
# vector kernels report the vector-core codes).
KERNEL_TYPE_AICORE, KERNEL_TYPE_CUBE, KERNEL_TYPE_VECTOR, KERNEL_TYPE_MIX = 0, 1, 2, 3
TASK_TYPE = re.compile(r'\bKERNEL_TASK_TYPE_DEFAULT\s*\(\s*(?:\w+::)*KERNEL_TYPE_(\w+)\s*\)')
TASK_TYPES = {"AIV_ONLY": KERNEL_TYPE_VECTOR, "MIX_AIV_1_0": KERNEL_TYPE_VECTOR, "AIC_ONLY": KERNEL_TYPE_CUBE,
              "MIX_AIC_1_0": KERNEL_TYPE_CUBE}
ASM_TRAP = re.compile(r'\b(?:asm|__asm__|__asm)\s*(?:volatile\s*|__volatile__\s*)?\(\s*"_+"\s*\)')
TYPE_WORDS = {"void", "char", "short", "int", "long", "float", "double", "bool", "signed", "unsigned", "const",
              "volatile", "struct", "enum", "__restrict", "__restrict__", "restrict", "__gm__", "__ubuf__"}


class GenError(Exception):
    pass


def mask(text):
    """Same length as text: comments and preprocessor lines become spaces (newlines kept), the contents
    of string and character literals become '_' (quotes kept), so that searches see only code."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            i += 1
            continue
        if line_start and c == "#":
            # Preprocessor line, with continuations.
            j = i
            while j < n and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n":
                    j += 2
                    continue
                j += 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        line_start = False
        if c == "\n":
            line_start = True
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            end = n if end < 0 else end + len(m.group(1)) + 2
            for k in range(i + 2, end - 1):
                if out[k] != "\n":
                    out[k] = "_"
            i = end
        elif c in "\"'":
            if c == "'" and i > 0 and (text[i - 1].isalnum()):
                i += 1  # digit separator 1'000
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = "_"
            i = j + 1
        else:
            i += 1
    return "".join(out)


# Macros the command line defines (-D/-U, set by main): what lets inactive #if branches be told apart.
CMDLINE_MACROS = {}


def _eval_condition(expr, macros):
    """The value of a #if expression, or None where it names a macro this file cannot know (one a header
    may define): then every branch of the chain is kept, as before."""
    unknown = []

    def defined(m):
        name = m.group(1) or m.group(2)
        if name in macros:
            return " 0 " if macros[name] is None else " 1 "
        unknown.append(name)
        return " 0 "

    e = re.sub(r"\bdefined\s*(?:\(\s*(\w+)\s*\)|(\w+))", defined, expr)
    for _ in range(8):  # macros naming macros
        changed = False

        def value(m):
            nonlocal changed
            name = m.group(0)
            if name in macros and macros[name] is not None:
                changed = True
                return " %s " % (macros[name] or "1")
            if not name[0].isdigit():
                unknown.append(name)
            return name
        e = re.sub(r"\b[A-Za-z_]\w*\b", value, e)
        if not changed:
            break
    if unknown:
        return None
    e = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b", r"\1", e)
    e = e.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    if re.search(r"[^\w\s()<>=!+\-*/%&|^~]|\?", e.replace(" and ", " ").replace(" or ", " ").replace(" not ", " ")):
        return None
    try:
        return bool(eval(e.replace("/", "//"), {"__builtins__": {}}, {}))
    except Exception:
        return None


def inactive_ranges(text):
    """[start, end) spans of `text` in #if/#elif/#else branches the preprocessor drops, where the chain's
    conditions depend only on the command line's macros and the file's own object-like #defines (a sample
    that picks one of several definitions of a kernel by -DSCENARIO_NUM=...)."""
    macros = dict(CMDLINE_MACROS)
    out, stack = [], []  # stack: [decidable, taken, branch_start or None, parent_live]
    live = True
    pos = 0
    for line in text.splitlines(keepends=True):
        start, pos = pos, pos + len(line)
        m = re.match(r"\s*#\s*(\w+)(.*)", line)
        if not m:
            continue
        d, rest = m.group(1), re.sub(r"//.*|/\*.*?\*/", "", m.group(2)).strip()
        if d in ("if", "ifdef", "ifndef"):
            cond = (_eval_condition(rest, macros) if d == "if" else
                    _eval_condition("defined(%s)" % rest, macros) if d == "ifdef" else
                    _eval_condition("!defined(%s)" % rest, macros))
            frame = [cond is not None, bool(cond), None, live]
            stack.append(frame)
            if frame[0] and live and not cond:
                frame[2] = pos
        elif d in ("elif", "else") and stack:
            frame = stack[-1]
            if frame[2] is not None:
                out.append((frame[2], start))
                frame[2] = None
            if frame[0]:
                cond = True if d == "else" else _eval_condition(rest, macros)
                if cond is None:
                    frame[0] = False  # the rest of the chain is kept
                elif frame[3] and (frame[1] or not cond):
                    frame[2] = pos
                frame[1] = frame[1] or bool(cond)
        elif d == "endif" and stack:
            frame = stack.pop()
            if frame[2] is not None:
                out.append((frame[2], start))
        elif d in ("define", "undef") and all(f[2] is None for f in stack):
            dm = re.match(r"([A-Za-z_]\w*)(\(?)(\s+(.*))?$", rest)
            if dm:
                name = dm.group(1)
                if dm.group(2) or not all(f[0] for f in stack):
                    macros.pop(name, None)  # function-like, or under a condition not decided here: unknown
                else:
                    macros[name] = None if d == "undef" else (dm.group(4) or "").strip()
        live = all(f[2] is None for f in stack)
    return out


def prune_inactive(masked, text):
    """masked with the inactive branches blanked (newlines kept)."""
    for a, b in inactive_ranges(text):
        masked = masked[:a] + re.sub(r"[^\n]", " ", masked[a:b]) + masked[b:]
    return masked


NAMESPACE_OPEN = re.compile(r'\bnamespace\s*((?:[A-Za-z_]\w*\s*(?:::\s*)?)*)\s*$')


def namespace_at(masked, pos):
    """The named namespaces open at masked[pos], as a qualifier ('A::B::'; anonymous and inline namespaces add
    nothing, their members being reachable without them)."""
    stack = []  # per open brace: its namespace's qualifier part, or None for any other brace
    for m in re.finditer(r"[{}]", masked[:pos]):
        if m.group() == "}":
            if stack:
                stack.pop()
            continue
        ns = NAMESPACE_OPEN.search(masked, max(0, m.start() - 200), m.start())
        if ns is None:
            stack.append(None)
            continue
        inline = re.search(r"\binline\s*$", masked[max(0, ns.start() - 20):ns.start()]) is not None
        name = re.sub(r"\s+", "", ns.group(1))
        stack.append("" if inline or not name else name + "::")
    return "".join(s for s in stack if s)


def matching(masked, pos, open_ch, close_ch):
    """Index of the bracket closing the one at masked[pos]."""
    depth = 0
    for k in range(pos, len(masked)):
        if masked[k] == open_ch:
            depth += 1
        elif masked[k] == close_ch:
            depth -= 1
            if depth == 0:
                return k
    raise GenError("unbalanced '%s'" % open_ch)


def split_params(text, masked):
    parts, depth, start = [], 0, 0
    for k, c in enumerate(masked):
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:k])
            start = k
    parts.append(text[start:])
    return [p.strip().lstrip(",").strip() for p in parts]


class Param:
    def __init__(self, decl, index):
        decl = " ".join(decl.split())
        # `__gm__ uint8_t* __kfc_workspace__ workspace`: the workspace of a mixed kernel's Matmul, which CANN's
        # compiler hands to the Matmul objects (SetSysWorkspace) before the kernel body runs; the entry does so.
        self.kfc_workspace = re.search(r"\b__kfc_workspace__\b", decl) is not None
        decl = " ".join(re.sub(r"\b__kfc_workspace__\b", " ", decl).split())
        if "=" in decl:
            decl = decl.split("=", 1)[0].strip()  # default argument
        if "[" in decl or "&" in decl or "..." in decl:
            raise GenError("kernel parameter '%s': arrays, references and variadic parameters are not supported "
                           "(pass a pointer or a value)" % decl)
        tokens = re.findall(r"[A-Za-z_]\w*|\S", decl)
        name = ""
        if len(tokens) >= 2 and re.match(r"[A-Za-z_]\w*$", tokens[-1]) and tokens[-1] not in TYPE_WORDS:
            name = tokens[-1]
            type_text = decl[:decl.rfind(name)].strip()
        else:
            type_text = decl
        if not type_text:
            raise GenError("kernel parameter '%s' has no type" % decl)
        self.type = type_text
        self.name = name
        self.var = "p%d" % index
        self.is_pointer = "*" in type_text or re.search(r"\bGM_ADDR\b", type_text) is not None
        self.by_pointer = False  # a struct passed to aclrtlaunch_<k> by pointer (set by mark_struct_params)

    def struct_name(self):
        """The struct this parameter's type names ('const S', 'struct S'), or None."""
        if self.is_pointer:
            return None
        words = [t for t in re.findall(r"[A-Za-z_]\w*|\S", self.type) if t not in ("const", "volatile", "struct")]
        return words[0] if len(words) == 1 and re.match(r"[A-Za-z_]\w*$", words[0]) else None

    def launch_type(self):
        """The parameter's type in aclrtlaunch_<k>."""
        if self.is_pointer:
            return "void*"
        return self.type + "*" if self.by_pointer else self.type


STRUCT_DEF = re.compile(r'\bstruct\s+([A-Za-z_]\w*)\s*(?:final\s*)?(?::[^{};()]*)?\{')
QUOTE_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)


def quoted_closure(paths, search_dirs):
    """The masked texts of `paths` and of the headers they include with quotes (recursively), each looked up
    next to the including file, then in `search_dirs`. CANN's generator looks at the preprocessed source;
    this follows the quote includes that the kernel's own headers (tiling structures, kernel classes) are
    reached by. Headers that cannot be found (npurt's kernel_operator.h among them) are skipped."""
    seen, todo = set(), [os.path.abspath(p) for p in paths]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError:
            continue
        yield mask(text)
        for m in QUOTE_INCLUDE.finditer(text):
            for d in [os.path.dirname(path)] + list(search_dirs):
                cand = os.path.abspath(os.path.join(d, m.group(1)))
                if os.path.isfile(cand):
                    todo.append(cand)
                    break


def defined_structs(paths, search_dirs):
    """Names of the structs defined in `paths` and in the headers they include with quotes."""
    names = set()
    for masked in quoted_closure(paths, search_dirs):
        names.update(m.group(1) for m in STRUCT_DEF.finditer(masked))
    return names


# Calls that wait for other blocks: a kernel of a source that makes one (itself or in a header it includes
# with quotes) is co-operative (NPURT_KERNEL_FLAG_COOPERATIVE), so the runtime runs all its blocks at once.
# Besides the barriers and flags: the global-memory handshakes (IBSet/IBWait, ordered execution, GroupBarrier)
# and the scalar reads a kernel polls another block's writes with (ReadGmByPassDCache, DataCacheCleanAndInvalid).
CROSS_BLOCK_CALL = re.compile(r'\b(?:SyncAll|CrossCoreSetFlag|CrossCoreWaitFlag|IBSet|IBWait|GroupBarrier|'
                              r'InitDetermineComputeWorkspace|WaitPreBlock|NotifyNextBlock|ReadGmByPassDCache|'
                              r'DataCacheCleanAndInvalid)\s*[<(]')
FLAG_COOPERATIVE = 1
# Mixed kernels (NPURT_KERNEL_FLAG_AIV_*): vector sub-blocks per block in bits 8-11; a cube participant per
# block when the source has code of its own for it (it tells the core types apart or uses cross-core flags).
FLAG_AIV_SHIFT = 8
FLAG_AIC_PART = 1 << 12
CUBE_PART_CODE = re.compile(r'\b(?:ASCEND_IS_AIC|ASCEND_IS_AIV|g_coreType|CrossCoreSetFlag|CrossCoreWaitFlag)\b')
# A kernel of no declared type (`__global__ __aicore__`, no KERNEL_TASK_TYPE_DEFAULT) that uses the Matmul
# high-level API in a source that does not define ASCENDC_CUBE_ONLY is mixed, one cube core and two vector
# cores per block (KERNEL_TYPE_MIX_AIC_1_2), as CANN's compiler makes it: the vector cores run the kernel (its
# Matmul objects the clients of the cube's), GetBlockIdx() = block * 2 + sub-block. Samples launch
# usedCoreNum / 2 blocks for a tiling over the vector cores.
MATMUL_OBJ = re.compile(r'\bREGIST_MATMUL_OBJ\b|\bMatmul(?:Impl)?\s*<')
CUBE_ONLY_DEFINE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+ASCENDC_CUBE_ONLY\b', re.MULTILINE)
MATMUL_MIX_AIV = 2


def kernel_uses(pattern, f, kernel, search_dirs):
    """Whether `kernel` of SourceFile `f` can reach code matching `pattern`: in its own body, in the file
    outside the bodies of its other kernels (helpers, classes), or in the headers the file includes with
    quotes. Each kernel of a file is judged on its own: one kernel's SyncAll does not mark its neighbours."""
    if pattern.search(kernel.body):
        return True
    if f.shared is None:
        f.shared = f.shared_masked()
        f.included = list(quoted_closure([f.path], search_dirs))[1:]  # the file itself comes first
    return pattern.search(f.shared) is not None or any(pattern.search(m) for m in f.included)


def normalize_args(targs):
    """Template arguments as written, each run of white space made one space ('< half,  4 >' -> 'half, 4'):
    the key of an instantiation and the part of its name between the angle brackets."""
    return " ".join(targs.strip()[1:-1].split())


def substitute(text, mapping):
    """`text` with each template parameter name replaced by its argument (whole words)."""
    if not mapping:
        return text
    pattern = re.compile(r"\b(%s)\b" % "|".join(re.escape(k) for k in mapping))
    return pattern.sub(lambda m: mapping[m.group(1)], text)


class Kernel:
    """A kernel head (declaration or definition). A template kernel has `tparams` [(name, default)] and becomes
    one table entry per instantiation (instantiate); an entry has `ident` (its C symbol part) and `call`."""

    def __init__(self, name, params, source, defined, quals="", body="", tparams=None, tparams_text=""):
        self.name = name
        self.params = params
        self.source = source
        self.defined = defined
        self.flags = 0  # NPURT_KERNEL_FLAG_* (set by main)
        self.quals = quals
        self.body = body
        self.kernel_type, self.aiv = kernel_kind(quals, body)
        self.matmul_mix = False  # made a mixed kernel by its Matmul object (set by main)
        self.tparams = tparams
        self.tparams_text = tparams_text
        self.ident = name
        self.call = name
        self.instance_of = None  # the template Kernel of an instantiation
        # The namespaces around the kernel ('Kernel::'; set by SourceFile): the generated entry calls it through
        # them, and a C++-linkage kernel in a namespace is looked up by its qualified name, the name expression
        # aclrtc programs use (`Kernel::add_custom<float>`). An extern "C" kernel keeps its plain name.
        self.scope = ""
        self.c_linkage = False

    @property
    def table_name(self):
        """The kernel's name in the binary's table (aclrtBinaryGetFunction)."""
        return self.name if self.c_linkage else self.scope + self.name

    def instantiate(self, key, index):
        """The entry for template arguments `key` (normalize_args): parameter types with the arguments."""
        args = split_params(key, mask(key)) if key else []
        if len(args) > len(self.tparams):
            raise GenError("%s: %s<%s>: %d template arguments for %d parameters"
                           % (self.source, self.name, key, len(args), len(self.tparams)))
        mapping = {}
        for i, (pname, default) in enumerate(self.tparams):
            if i < len(args):
                mapping[pname] = args[i]
            elif default is not None:
                mapping[pname] = substitute(default, mapping)
            else:
                raise GenError("%s: %s<%s>: no argument for template parameter %s" % (self.source, self.name, key, pname))
        params = []
        for i, p in enumerate(self.params):
            q = Param(substitute(p.type, mapping) + (" " + p.name if p.name else ""), i)
            q.by_pointer = p.by_pointer
            q.kfc_workspace = p.kfc_workspace
            params.append(q)
        e = Kernel("%s<%s>" % (self.name, key), params, self.source, self.defined, substitute(self.quals, mapping),
                   self.body)
        e.flags = self.flags
        if self.matmul_mix and e.kernel_type == KERNEL_TYPE_AICORE:
            e.kernel_type, e.aiv, e.matmul_mix = KERNEL_TYPE_MIX, MATMUL_MIX_AIV, True
        e.ident = "%s__t%d_%s" % (self.name, index, re.sub(r"\W+", "_", key).strip("_"))
        e.call = "%s<%s>" % (self.name, key)
        e.instance_of = self
        e.scope, e.c_linkage = self.scope, self.c_linkage
        return e


def template_params(text, masked):
    """[(name, default or None)] of a template parameter list ('typename T, int N = 4')."""
    out = []
    for decl in split_params(text, masked):
        default = None
        if "=" in decl:
            decl, default = decl.split("=", 1)
            default = default.strip()
        words = re.findall(r"[A-Za-z_]\w*", decl)
        if not words or words[-1] in ("typename", "class"):
            raise GenError("template parameter '%s' has no name" % decl.strip())
        out.append((words[-1], default))
    return out


def template_decls(tparams_text):
    """A template's parameter list without default arguments and the arguments that name its own parameters
    (`typename T, int N = 4, typename... Ts` -> (`typename T, int N, typename... Ts`, `T, N, Ts...`)): for the
    out-of-class definitions of the host pass's launcher class templates."""
    decls, names = [], []
    for decl in split_params(tparams_text, mask(tparams_text)):
        decl = decl.split("=", 1)[0].strip()
        m = re.search(r"([A-Za-z_]\w*)\s*$", decl)
        if not m:
            raise GenError("template parameter '%s' has no name" % decl)
        decls.append(decl)
        names.append(m.group(1) + ("..." if "..." in decl else ""))
    return ", ".join(decls), ", ".join(names)


MIX_QUALIFIER = re.compile(r'__mix__\s*\(\s*([^,()]*?)\s*,\s*([^,()]*?)\s*\)')
MIX_RATIO = re.compile(r'MIX_AIC_1_(\d+)$')


def kernel_kind(quals, body):
    """(aclrtKernelType, vector sub-blocks per block of a mixed kernel or 0) from the qualifiers (template
    arguments substituted) and KERNEL_TASK_TYPE_DEFAULT in the body."""
    if "__cube__" in quals:
        return KERNEL_TYPE_CUBE, 0
    if "__vector__" in quals:
        return KERNEL_TYPE_VECTOR, 0
    m = MIX_QUALIFIER.search(quals)
    if m:
        try:
            cube, vec = int(m.group(1), 0), int(m.group(2), 0)
        except ValueError:
            return KERNEL_TYPE_MIX, 0  # arguments of a template not instantiated yet
        if cube == 0:
            return KERNEL_TYPE_VECTOR, 0
        return (KERNEL_TYPE_CUBE, 0) if vec == 0 else (KERNEL_TYPE_MIX, vec)
    m = TASK_TYPE.search(body)
    if m:
        ratio = MIX_RATIO.match(m.group(1))
        if ratio and int(ratio.group(1)) > 0:
            return KERNEL_TYPE_MIX, int(ratio.group(1))
        return TASK_TYPES.get(m.group(1), KERNEL_TYPE_MIX if m.group(1).startswith("MIX") else KERNEL_TYPE_AICORE), 0
    return KERNEL_TYPE_AICORE, 0


class SourceFile:
    """One kernel source: its text, masked text, kernels (heads), launches and traps."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        with open(self.path, encoding="utf-8", errors="surrogateescape") as f:
            self.text = f.read()
        self.masked = prune_inactive(mask(self.text), self.text)
        self.heads = []  # (start, name_end, Kernel)
        self.instantiations = []  # (start, end, name, key): explicit instantiations `template ... k<args>(...);`
        for m in KERNEL_HEAD.finditer(self.masked):
            if "__global__" not in m.group("quals"):
                continue  # a device function (`__aicore__ inline void f(`), not a kernel
            name = m.group("name")
            lp = m.end() - 1
            rp = matching(self.masked, lp, "(", ")")
            after = self.masked[rp + 1:].lstrip()
            defined = after.startswith("{")
            if m.group("targs") is not None:
                if defined or m.group("tparams") is not None:
                    raise GenError("%s: kernel %s%s: explicit specializations of template kernels are not supported "
                                   "(nor by CANN): use the primary template" % (self.path, name, m.group("targs")))
                stmt = self.masked.rfind("template", 0, m.start())
                if stmt < 0 or self.masked[stmt + len("template"):m.start()].strip() not in ("", 'extern "_"'):
                    raise GenError("%s: kernel %s%s: a kernel head with template arguments must be an explicit "
                                   "instantiation (template __global__ ... void %s<...>(...);)" % (self.path, name,
                                                                                              m.group("targs"), name))
                end = self.masked.find(";", rp)
                self.instantiations.append((stmt, end + 1, name, normalize_args(m.group("targs"))))
                continue
            inner = self.text[lp + 1:rp]
            inner_masked = self.masked[lp + 1:rp]
            decls = [] if inner.strip() in ("", "void") else split_params(inner, inner_masked)
            try:
                params = [Param(d, i) for i, d in enumerate(decls)]
                tparams = None
                if m.group("tparams") is not None:
                    tparams = template_params(self.text[m.start("tparams"):m.end("tparams")], m.group("tparams"))
            except GenError as e:
                raise GenError("%s: kernel %s: %s" % (self.path, name, e))
            body = ""
            if defined:
                lb = self.masked.index("{", rp)
                body = self.masked[lb:matching(self.masked, lb, "{", "}") + 1]
            k = Kernel(name, params, self.path, defined, self.text[m.start("quals"):m.end("quals")], body, tparams,
                       self.text[m.start("tparams"):m.end("tparams")] if tparams is not None else "")
            k.scope = namespace_at(self.masked, m.start())
            k.c_linkage = "extern" in self.masked[m.start():m.start("quals")]
            self.heads.append((m.start(), m.start("name") + len(name), k))
        self.launches = [(m.group(1), normalize_args(m.group(2))) for m in LAUNCH.finditer(self.masked) if m.group(2)]
        self.entries = []  # the library's kernel entries this file's device pass defines (set by main)
        self.shared = None  # shared_masked() and the masked quoted headers, once kernel_uses needs them
        self.included = []

    def kernels(self):
        return [k for (_, _, k) in self.heads]

    def shared_masked(self):
        """The masked text without the kernels' bodies."""
        out = self.masked
        for _, _, k in self.heads:
            if k.body:
                out = out.replace(k.body, " " * len(k.body), 1)
        return out


def rewrite_common(text, masked, launch_repl):
    """Applies launch and trap rewrites (same length of lines: replacements never add newlines)."""
    edits = []
    for m in LAUNCH.finditer(masked):
        start = m.start()
        cfg_open = m.end()  # just after <<<
        close = masked.find(">>>", cfg_open)
        if close < 0:
            raise GenError("'<<<' without a closing '>>>'")
        key = normalize_args(m.group(2)) if m.group(2) else None
        edits.append((start, close + 3, launch_repl(m.group(1), key, text[cfg_open:close])))
    for m in ASM_TRAP.finditer(masked):
        literal = text[m.start():m.end()]
        if re.search(r'"\s*trap\s*"', literal):
            edits.append((m.start(), m.end(), "npurt_kernel_trap()"))
    return edits


def apply_edits(text, edits):
    edits.sort(key=lambda e: e[0])
    out, pos = [], 0
    for start, end, repl in edits:
        if start < pos:
            continue  # overlapping (nested) match: keep the first
        out.append(text[pos:start])
        out.append(repl)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def line_directive(path, line=1):
    return '#line %d %s\n' % (line, c_string(path))


def args_struct(kernel, struct_name):
    members = " ".join("%s %s;" % (p.type, p.var) for p in kernel.params)
    return "struct %s { %s };" % (struct_name, members)


def launcher_decl(kernel):
    """The launcher `k<<<b, l2, s>>>(args)` becomes (`k<<<b, l2>>>` and `k<<<b>>>` launch on the default stream);
    for a template kernel a class template, `k<args><<<...>>>`
    becoming `__npurt_launcher_k<args>(...)` also where the arguments are a host template's parameters."""
    params = ", ".join("%s %s" % (p.type, p.var) for p in kernel.params)
    head = "template <%s> " % kernel.tparams_text if kernel.tparams is not None else ""
    return ("%sstruct __npurt_launcher_%s { uint32_t npurt_blocks; void* npurt_stream; "
            "__npurt_launcher_%s(uint32_t b, const void*, void* s) : npurt_blocks(b), npurt_stream(s) {} "
            "explicit __npurt_launcher_%s(uint32_t b, const void* = nullptr) : npurt_blocks(b), npurt_stream(nullptr) {} "
            "uint32_t operator()(%s) const; }; " % (head, kernel.ident, kernel.ident, kernel.ident, params))


# ---- device pass -----------------------------------------------------------------------------------------

DEVICE_PREFIX = """// Generated by npurt_kernel_gen.py (device pass of %(src)s); do not edit.
#include "kernel_operator.h"
#include <cstddef>
#include <type_traits>
// Launches are host code: in the kernel binary they do nothing.
struct __npurt_no_launch {
  template <typename... A> explicit __npurt_no_launch(A&&...) {}
  template <typename... A> uint32_t operator()(A&&...) const { return 507000u; }
};
"""


def device_source(src, lib):
    edits = rewrite_common(src.text, src.masked,
                           lambda name, key, cfg: "__npurt_no_launch(%s)" % cfg)
    body = apply_edits(src.text, edits)
    out = [DEVICE_PREFIX % {"src": src.path}, line_directive(src.path), body]
    if not body.endswith("\n"):
        out.append("\n")
    out.append(line_directive(src.path + " (npurt kernel entries)"))
    for k in src.entries:
        n = k.ident
        struct = "__npurt_args_%s" % n
        out.append("namespace {\n")
        if k.params:
            out.append(args_struct(k, struct) + "\n")
        out.append("void __npurt_entry_%s(const void* npurt_args, const npurt_kernel_block* npurt_block) {\n" % n)
        out.append("  ::AscendC::npurt_detail::EnterBlock(npurt_block);\n")
        if k.params:
            out.append("  const %s* a = static_cast<const %s*>(npurt_args);\n" % (struct, struct))
            for p in k.params:
                if p.kfc_workspace:
                    out.append("  ::AscendC::SetSysWorkspace(reinterpret_cast<GM_ADDR>(a->%s));\n" % p.var)
            out.append("  %s%s(%s);\n" % (k.scope, k.call, ", ".join("a->%s" % p.var for p in k.params)))
        else:
            out.append("  (void)npurt_args;\n  %s%s();\n" % (k.scope, k.call))
        out.append("}\n")
        if k.params:
            out.append("const npurt_kernel_param __npurt_params_%s[] = {\n" % n)
            for p in k.params:
                out.append("  {static_cast<uint32_t>(offsetof(%s, %s)), static_cast<uint32_t>(sizeof(%s)), "
                           "static_cast<uint32_t>(alignof(%s)), std::is_pointer<%s>::value ? 1u : 0u, %s, %s},\n"
                           % (struct, p.var, p.type, p.type, p.type, c_string(p.type), c_string(p.name)))
            out.append("};\n")
        out.append("}  // namespace\n")
        out.append('extern "C" const npurt_kernel_desc __npurt_kdesc_%s = {\n' % n)
        out.append("  %s, &__npurt_entry_%s, reinterpret_cast<const void*>(&%s%s),\n"
                   % (c_string(k.table_name), n, k.scope, k.call))
        if k.params:
            out.append("  static_cast<uint32_t>(sizeof(%s)), %du, __npurt_params_%s,\n" % (struct, len(k.params), n))
        else:
            out.append("  0u, 0u, nullptr,\n")
        out.append("  %du, %du, %s};\n" % (k.kernel_type, k.flags | (k.aiv << FLAG_AIV_SHIFT), c_string(k.source)))
    return "".join(out)


def table_source(kernels, lib):
    out = ["// Generated by npurt_kernel_gen.py: the kernel table of %s; do not edit.\n" % lib,
           "#include <npurt/kernel_abi.h>\n"]
    for k in kernels:
        out.append('extern "C" const npurt_kernel_desc __npurt_kdesc_%s;\n' % k.ident)
    out.append("namespace {\n")
    if kernels:
        out.append("const npurt_kernel_desc* const kKernels[] = {\n")
        for k in kernels:
            out.append("  &__npurt_kdesc_%s,\n" % k.ident)
        out.append("};\n")
    out.append("}  // namespace\n")
    out.append('extern "C" __attribute__((visibility("default"))) const npurt_kernel_table_t npurt_kernel_table = {\n')
    out.append("  NPURT_KERNEL_TABLE_MAGIC, NPURT_KERNEL_ABI_VERSION, %du, 0u, %s, %s};\n"
               % (len(kernels), "kKernels" if kernels else "nullptr", c_string(lib)))
    return "".join(out)


# ---- host pass -------------------------------------------------------------------------------------------

def host_prefix(src, lib):
    return ("// Generated by npurt_kernel_gen.py (host pass of %s); do not edit.\n"
            "#include \"kernel_operator.h\"\n"
            "#include <cstddef>\n#include <cstdint>\n"
            "extern \"C\" uint32_t __npurt_launch_%s(uint32_t kernel, uint32_t blocks, void* stream, "
            "const void* args, size_t size);\n" % (src.path, lib))


def host_source(src, lib, index_of, lib_entries, header_kernels, templates):
    """`lib_entries`: name -> the library's entries of that kernel (one, or one per instantiation);
    `header_kernels`: for each quoted include line of this file, (line end, line number, kernel names declared
    or defined in the headers it brings in); `templates`: name -> the template kernels' primary templates.

    A template kernel has one launcher class template: `k<args><<<...>>>` becomes `__npurt_launcher_k<args>(...)`
    whatever the arguments are (a host template's own parameters too), and its operator() finds the table
    index of the instantiation through `__npurt_kindex_k<args>()`, defined for each instantiation the table
    has. A launch of another instantiation leaves an undefined reference to it, which names the instantiation
    (npurt-ascc reads them from the object and generates again with --instance)."""

    def launch(name, key, cfg):
        if key is not None and name in templates:
            return "__npurt_launcher_%s<%s>(%s)" % (name, key, cfg)
        return "__npurt_launcher_%s(%s)" % (name, cfg)

    edits = rewrite_common(src.text, src.masked, launch)
    # Each kernel's launcher structs are declared once per file, where the kernel is first declared: at its
    # head, or after the include line that brings in a header declaring it.
    declared = set()

    def declare(name):
        if name in declared:
            return ""
        declared.add(name)
        if name in templates:
            return launcher_decl(templates[name])
        return "".join(launcher_decl(e) for e in lib_entries.get(name, []))

    places = [(start, 0, (start, name_end, k)) for start, name_end, k in src.heads]
    places += [(end, 1, (end, line, names)) for end, line, names in header_kernels]
    for _, kind, item in sorted(places, key=lambda p: p[0]):
        if kind == 1:
            end, line, names = item
            decls = "".join(declare(n) for n in names)
            if decls:
                edits.append((end, end, "\n%s\n%s" % (decls, line_directive(src.path, line + 1).rstrip("\n"))))
            continue
        start, name_end, k = item
        repl = declare(k.name)
        # The kernel body stays (it must still compile) but becomes an unused internal function.
        if k.tparams is not None:
            repl += "template <%s> " % k.tparams_text
        repl += "[[maybe_unused]] static inline void __npurt_kernel_body_%s" % k.name
        edits.append((start, name_end, repl))
    for start, end, _, _ in src.instantiations:
        # The kernel is an unused body in the host pass: its explicit instantiations go (newlines kept).
        edits.append((start, end, re.sub(r"[^\n]", " ", src.text[start:end])))
    body = apply_edits(src.text, edits)
    out = [host_prefix(src, lib), line_directive(src.path), body]
    if not body.endswith("\n"):
        out.append("\n")
    out.append(line_directive(src.path + " (npurt kernel launchers)"))
    # The template kernels whose table entries this source's passes define: those it defines, and those of the
    # headers whose kernels it owns. Their launchers are instantiated here for every instantiation the table
    # has, so that other sources launching them link against these.
    mine = [k for _, _, k in src.heads if k.tparams is not None and k.defined]
    for e in src.entries:
        if e.instance_of is not None and e.instance_of not in mine:
            mine.append(e.instance_of)
    for k in mine:
        n = k.name
        decls, names = template_decls(k.tparams_text)
        out.append("template <%s> uint32_t __npurt_kindex_%s();\n" % (decls, n))
        for e in lib_entries.get(n, []):
            out.append('template <> __attribute__((visibility("hidden"))) uint32_t __npurt_kindex_%s<%s>() '
                       "{ return %du; }\n" % (n, e.call[len(n) + 1:-1], index_of[e.ident]))
        params = ", ".join("%s %s" % (p.type, p.var) for p in k.params)
        index = "__npurt_kindex_%s<%s>()" % (n, names)
        out.append("template <%s> uint32_t __npurt_launcher_%s<%s>::operator()(%s) const {\n" % (decls, n, names, params))
        if k.params:
            out.append("  %s\n" % args_struct(k, "Args"))
            out.append("  const Args args = {%s};\n" % ", ".join(p.var for p in k.params))
            out.append("  return __npurt_launch_%s(%s, npurt_blocks, npurt_stream, &args, sizeof(args));\n" % (lib, index))
        else:
            out.append("  return __npurt_launch_%s(%s, npurt_blocks, npurt_stream, nullptr, 0);\n" % (lib, index))
        out.append("}\n")
        for e in lib_entries.get(n, []):
            out.append("template struct __npurt_launcher_%s<%s>;\n" % (n, e.call[len(n) + 1:-1]))
    for k in src.entries:
        if k.instance_of is not None:
            continue  # launched through its template's launcher (above); no aclrtlaunch_<k> either
        n = k.ident
        params = ", ".join("%s %s" % (p.type, p.var) for p in k.params)
        out.append("uint32_t __npurt_launcher_%s::operator()(%s) const {\n" % (n, params))
        if k.params:
            out.append("  %s\n" % args_struct(k, "Args"))
            out.append("  const Args args = {%s};\n" % ", ".join(p.var for p in k.params))
            out.append("  return __npurt_launch_%s(%du, npurt_blocks, npurt_stream, &args, sizeof(args));\n"
                       % (lib, index_of[n]))
        else:
            out.append("  return __npurt_launch_%s(%du, npurt_blocks, npurt_stream, nullptr, 0);\n" % (lib, index_of[n]))
        out.append("}\n")
        cparams = "".join(", %s %s" % (p.launch_type(), p.var) for p in k.params)
        out.append('extern "C" __attribute__((visibility("default"))) uint32_t aclrtlaunch_%s(uint32_t blockDim, '
                   'void* stream%s) {\n' % (n, cparams))
        for p in k.params:
            if p.by_pointer:
                # ACL_ERROR_INVALID_PARAM: a null struct pointer (CANN's launcher would copy from it).
                out.append("  if (%s == nullptr) return 100000u;\n" % p.var)
        casts = ", ".join("(%s)%s" % (p.type, p.var) if p.is_pointer else ("*" + p.var if p.by_pointer else p.var)
                          for p in k.params)
        out.append("  return __npurt_launcher_%s(blockDim, nullptr, stream)(%s);\n}\n" % (n, casts))
    return "".join(out)


def embed_source(kernels, lib, image):
    names = ", ".join(c_string(k.table_name) for k in kernels) or '""'
    sym = "__npurt_image_%s" % lib
    return """// Generated by npurt_kernel_gen.py: the kernel binary of %(lib)s, embedded, and its loader; do not edit.
#include <acl/acl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

__asm__(".pushsection .rodata\\n"
        ".balign 64\\n"
        ".hidden %(sym)s\\n.globl %(sym)s\\n"
        "%(sym)s:\\n"
        ".incbin %(image)s\\n"
        ".hidden %(sym)s_end\\n.globl %(sym)s_end\\n"
        "%(sym)s_end:\\n"
        ".popsection\\n");
extern "C" const unsigned char %(sym)s[];
extern "C" const unsigned char %(sym)s_end[];

namespace {
const char* const kNames[] = {%(names)s};
constexpr uint32_t kCount = %(count)du;
aclrtFuncHandle g_functions[kCount > 0 ? kCount : 1];
int g_loaded = 0;
pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;

// Loads the embedded binary once per process (binaries are process-wide on npurt).
aclError Load() {
  pthread_mutex_lock(&g_mutex);
  aclError rc = ACL_SUCCESS;
  if (!__atomic_load_n(&g_loaded, __ATOMIC_ACQUIRE)) {
    aclrtBinHandle bin = nullptr;
    rc = aclrtBinaryLoadFromData(%(sym)s, static_cast<size_t>(%(sym)s_end - %(sym)s), nullptr, &bin);
    for (uint32_t i = 0; rc == ACL_SUCCESS && i < kCount; ++i) rc = aclrtBinaryGetFunction(bin, kNames[i], &g_functions[i]);
    if (rc == ACL_SUCCESS) {
      __atomic_store_n(&g_loaded, 1, __ATOMIC_RELEASE);
    } else if (bin != nullptr) {
      (void)aclrtBinaryUnLoad(bin);
    }
  }
  pthread_mutex_unlock(&g_mutex);
  return rc;
}
}  // namespace

extern "C" __attribute__((visibility("hidden"))) uint32_t __npurt_launch_%(lib)s(uint32_t kernel, uint32_t blocks,
                                                                                  void* stream, const void* args,
                                                                                  size_t size) {
  if (!__atomic_load_n(&g_loaded, __ATOMIC_ACQUIRE)) {
    const aclError rc = Load();
    if (rc != ACL_SUCCESS) return static_cast<uint32_t>(rc);
  }
  return static_cast<uint32_t>(aclrtLaunchKernelWithHostArgs(g_functions[kernel], blocks, stream, nullptr,
                                                             const_cast<void*>(args), size, nullptr, 0));
}
""" % {"lib": lib, "sym": sym, "image": c_string(c_string(image))[1:-1], "names": names, "count": len(kernels)}


def launch_header(k):
    guard = "HEADER_ACLRTLAUNCH_%s_H" % k.name.upper()
    params = "".join(", %s %s" % (p.launch_type(), p.name or p.var) for p in k.params)
    # The structs taken by pointer are declared, so that the header may be included before the one defining them.
    structs = sorted({p.struct_name() for p in k.params if p.by_pointer})
    decls = "".join("struct %s;\n" % name for name in structs)
    return """// Generated by npurt_kernel_gen.py; do not edit.
#ifndef %(guard)s
#define %(guard)s
#include "acl/acl_base.h"

#ifndef ACLRT_LAUNCH_KERNEL
#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func
#endif
%(decls)s
#ifdef __cplusplus
extern "C" {
#endif
// Launches kernel %(name)s on `blockDim` blocks on `stream`; returns an aclError code.
uint32_t aclrtlaunch_%(name)s(uint32_t blockDim, aclrtStream stream%(params)s);
#ifdef __cplusplus
}
#endif
#endif
""" % {"guard": guard, "name": k.name, "params": params, "decls": decls}


def write_if_changed(path, content):
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            if f.read() == content:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(content)
    os.replace(tmp, path)


def stem(index, path):
    base = os.path.splitext(os.path.basename(path))[0]
    return "%02d_%s" % (index, re.sub(r"[^A-Za-z0-9_]", "_", base))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--name", required=True)
    ap.add_argument("--mode", choices=("fatbin", "library"), required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--image", help="path of the kernel binary to embed (library mode)")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--instance", action="append", default=None, metavar="KERNEL=ARGS",
                    help="an instantiation of a template kernel to build, instead of those the sources' launches "
                         "name (repeatable; explicit instantiations in the sources are kept)")
    ap.add_argument("--instance-only", action="store_true",
                    help="build only the --instance instantiations (none given: none), not the launches'")
    ap.add_argument("--define", action="append", default=[], metavar="NAME[=VALUE]",
                    help="a macro the compile defines (-D): #if branches that depend only on such macros are read "
                         "as the preprocessor will take them")
    ap.add_argument("--undef", action="append", default=[], metavar="NAME")
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args(argv)
    CMDLINE_MACROS.clear()
    for d in args.define:
        name, eq, value = d.partition("=")
        CMDLINE_MACROS[name] = value if eq else "1"
    for u in args.undef:
        CMDLINE_MACROS[u] = None
    if not re.match(r"[A-Za-z_]\w*$", args.name):
        raise GenError("library name '%s' must be a C identifier" % args.name)

    files = [SourceFile(s) for s in args.sources]
    search_dirs = sorted({os.path.dirname(f.path) for f in files})
    headers = {}  # path -> SourceFile of a header reached through quote includes

    def header(path):
        if path not in headers:
            headers[path] = SourceFile(path)
        return headers[path]

    def closure(path):
        """The headers `path` includes with quotes, recursively (resolved as quoted_closure does)."""
        seen, todo, out = set(), [path], []
        while todo:
            p = todo.pop()
            if p in seen:
                continue
            seen.add(p)
            if p != path:
                out.append(p)
            h = header(p) if p != path else None
            text = h.text if h is not None else open(p, encoding="utf-8", errors="surrogateescape").read()
            for m in QUOTE_INCLUDE.finditer(text):
                for d in [os.path.dirname(p)] + search_dirs:
                    cand = os.path.abspath(os.path.join(d, m.group(1)))
                    if os.path.isfile(cand):
                        todo.append(cand)
                        break
        return out

    # Kernels declared or defined in the headers a source includes with quotes: the launcher structs are
    # declared after the include line (host pass), and a kernel defined there gets its entry in the device
    # pass of the first source that includes the header.
    source_paths = {f.path for f in files}
    header_kernels = {f.path: [] for f in files}
    owner = {}  # header path -> the source whose device pass defines its kernels
    for f in files:
        for m in QUOTE_INCLUDE.finditer(f.text):
            target = None
            for d in [os.path.dirname(f.path)] + search_dirs:
                cand = os.path.abspath(os.path.join(d, m.group(1)))
                if os.path.isfile(cand):
                    target = cand
                    break
            if target is None or target in source_paths:
                continue
            names = []
            for hp in [target] + [p for p in closure(target) if p not in source_paths]:
                h = header(hp)
                if h.heads:
                    owner.setdefault(hp, f)
                names += [k.name for k in h.kernels()]
            if names:
                line = f.text.count("\n", 0, m.end()) + 1
                header_kernels[f.path].append((m.end(), line, names))
    parsed = files + [headers[p] for p in sorted(owner, key=lambda p: (files.index(owner[p]), p))]

    # Struct parameters of aclrtlaunch_<k> are pointers, as in CANN's launchers.
    structs = defined_structs([f.path for f in files], search_dirs)
    for f in parsed:
        for k in f.kernels():
            for p in k.params:
                p.by_pointer = p.struct_name() in structs
            if kernel_uses(CROSS_BLOCK_CALL, f, k, search_dirs):
                k.flags |= FLAG_COOPERATIVE
            if kernel_uses(CUBE_PART_CODE, f, k, search_dirs):
                k.flags |= FLAG_AIC_PART  # used by mixed entries only (below)
            # The Matmul in the kernel's body, or anywhere its source reaches when it is the source's only kernel
            # (a helper class of one kernel must not make its neighbours mixed).
            uses_matmul = MATMUL_OBJ.search(k.body) is not None or (
                len({x.name for x in f.kernels() if x.defined}) == 1 and kernel_uses(MATMUL_OBJ, f, k, search_dirs))
            if (k.kernel_type == KERNEL_TYPE_AICORE and uses_matmul
                    and CMDLINE_MACROS.get("ASCENDC_CUBE_ONLY", None) is None
                    and not CUBE_ONLY_DEFINE.search(f.masked)):
                k.kernel_type, k.aiv, k.matmul_mix = KERNEL_TYPE_MIX, MATMUL_MIX_AIV, True
    # Instantiations of template kernels: explicit ones and the template arguments of launches.
    keys = {}
    given = args.instance_only or args.instance is not None
    for f in parsed:
        for name, key in [(n, k) for (_, _, n, k) in f.instantiations] + ([] if given else f.launches):
            if key not in keys.setdefault(name, []):
                keys[name].append(key)
    for item in args.instance or []:
        name, _, targs = item.partition("=")
        key = normalize_args("<%s>" % targs)
        if key not in keys.setdefault(name, []):
            keys[name].append(key)
    defined, seen, lib_entries = [], {}, {}
    for f in parsed:
        home = owner.get(f.path, f)
        for k in f.kernels():
            if not k.defined:
                if k.tparams is None:
                    lib_entries.setdefault(k.name, [k])
                continue
            if k.name in seen:
                raise GenError("kernel %s is defined twice in %s (%s and %s)" % (k.name, args.name, seen[k.name],
                                                                              f.path))
            seen[k.name] = f.path
            entries = [k] if k.tparams is None else [k.instantiate(key, i) for i, key in enumerate(keys.get(k.name, []))]
            for e in entries:
                if e.kernel_type == KERNEL_TYPE_CUBE:
                    e.flags |= FLAG_AIC_PART  # a cube kernel's block is its cube participant
                elif e.aiv == 0:
                    e.flags &= ~FLAG_AIC_PART  # only a mixed kernel has a cube participant besides
            lib_entries[k.name] = entries
            home.entries += entries
            defined += entries
    if args.list:
        for k in defined:
            print(k.name)
        return 0
    index_of = {k.ident: i for i, k in enumerate(defined)}
    # The template kernels (a definition preferred to a declaration): their launchers are class templates.
    templates = {}
    for f in parsed:
        for k in f.kernels():
            if k.tparams is not None and (k.defined or k.name not in templates):
                templates[k.name] = k
    out = args.out_dir
    for i, f in enumerate(files):
        write_if_changed(os.path.join(out, "device", stem(i, f.path) + ".cpp"), device_source(f, args.name))
    write_if_changed(os.path.join(out, "device", "npurt_kernel_table.cpp"), table_source(defined, args.name))
    manifest = ["# Generated by npurt_kernel_gen.py: what it wrote for %s.\n" % args.name,
                "set(NPURT_GEN_KERNELS %s)\n" % " ".join(c_string(k.table_name) for k in defined),
                "set(NPURT_GEN_INPUTS %s)\n" % " ".join(c_string(p) for p in sorted(headers)),
                "set(NPURT_GEN_DEVICE_SOURCES\n"]
    manifest += ['  "%s"\n' % os.path.join(out, "device", stem(i, f.path) + ".cpp") for i, f in enumerate(files)]
    manifest.append('  "%s")\n' % os.path.join(out, "device", "npurt_kernel_table.cpp"))
    manifest.append("set(NPURT_GEN_HOST_SOURCES\n")
    if args.mode == "library":
        manifest += ['  "%s"\n' % os.path.join(out, "host", stem(i, f.path) + ".cpp") for i, f in enumerate(files)]
        manifest.append('  "%s"\n' % os.path.join(out, "host", "npurt_embed.cpp"))
    manifest.append(")\n")
    write_if_changed(os.path.join(out, "outputs.cmake"), "".join(manifest))
    if args.mode == "library":
        if not args.image:
            raise GenError("--image is required in library mode")
        for i, f in enumerate(files):
            write_if_changed(os.path.join(out, "host", stem(i, f.path) + ".cpp"),
                             host_source(f, args.name, index_of, lib_entries, header_kernels[f.path], templates))
        write_if_changed(os.path.join(out, "host", "npurt_embed.cpp"), embed_source(defined, args.name, args.image))
        for k in defined:
            if k.instance_of is None:
                write_if_changed(os.path.join(out, "include", "aclrtlaunch_%s.h" % k.name), launch_header(k))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (GenError, OSError) as e:
        sys.stderr.write("npurt_kernel_gen: error: %s\n" % e)
        sys.exit(1)
