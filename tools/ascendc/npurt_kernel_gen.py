#!/usr/bin/env python3
"""npurt_kernel_gen: the source step of npurt's Ascend C toolchain for the simulated NPU.

The CMake module (cmake/ascendc.cmake) runs it once per `ascendc_library` / `ascendc_fatbin_library`
with the library's kernel sources. It finds the kernels

    extern "C" __global__ __aicore__ void name(<parameters>) { ... }

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

Every output keeps the line numbers of its source (`#line`), so compiler messages point at the user's
file. Outputs are rewritten only when their content changes. Python 3 standard library only.

Usage: npurt_kernel_gen.py --name LIB --mode {fatbin,library} --out-dir DIR [--image PATH] [--list] SRC...
  --list   print the kernel names (one a line) and write nothing
"""

import argparse
import os
import re
import sys

KERNEL_HEAD = re.compile(
    r'(?:\bextern\s+"_"\s*)?'                                   # extern "C" (string contents masked)
    r'\b(?:__global__\s+__aicore__|__aicore__\s+__global__)\s+'
    r'(?:(?:inline|static|__inline__|__vector__|__cube__)\s+)*void\s+([A-Za-z_]\w*)\s*\(')
IDENT_END = re.compile(r'[A-Za-z_]\w*$')
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


def balanced(masked, positions, opener, closer):
    """The first of `positions` (scanned in order, starting on an `opener`) where the brackets balance."""
    depth = 0
    for k in positions:
        if masked[k] == opener:
            depth += 1
        elif masked[k] == closer:
            depth -= 1
            if depth == 0:
                return k
    raise GenError("unbalanced '%s'" % opener)


def matching(masked, pos, open_ch, close_ch):
    """Index of the bracket closing the one at masked[pos]."""
    return balanced(masked, range(pos, len(masked)), open_ch, close_ch)


def matching_back(masked, pos, open_ch, close_ch):
    """Index of the bracket opening the one that closes at masked[pos]."""
    return balanced(masked, range(pos, -1, -1), close_ch, open_ch)


def template_header(masked, start):
    """(template keyword position, parameter list's span) of the `template <...>` right before `start`,
    or None."""
    j = len(masked[:start].rstrip()) - 1
    if j < 0 or masked[j] != ">":
        return None
    k = matching_back(masked, j, "<", ">")
    head = masked[:k].rstrip()
    if not head.endswith("template") or (len(head) > 8 and (head[-9].isalnum() or head[-9] == "_")):
        return None
    return len(head) - 8, (k + 1, j)


def template_names(tparams_text):
    """The arguments that name a template's own parameters (`typename T, int N, typename... Ts` ->
    `T, N, Ts...`), and its parameter list without default arguments (for redeclarations)."""
    names, decls = [], []
    for decl in split_params(tparams_text, mask(tparams_text)):
        decl = decl.split("=", 1)[0].strip()
        m = re.search(r"([A-Za-z_]\w*)\s*$", decl)
        if not m:
            raise GenError("template parameter '%s' has no name" % decl)
        names.append(m.group(1) + ("..." if "..." in decl else ""))
        decls.append(decl)
    return ", ".join(names), ", ".join(decls)


def find_launches(text, masked):
    """The launches `k<<<cfg>>>` and `k<targs><<<cfg>>>`: (start, name, template arguments or None,
    configuration start, position of '>>>')."""
    out = []
    pos = masked.find("<<<")
    while pos >= 0:
        cfg_open = pos + 3
        j = len(masked[:pos].rstrip()) - 1
        targs = None
        if j >= 0 and masked[j] == ">":
            k = matching_back(masked, j, "<", ">")
            targs = " ".join(text[k + 1:j].split())
            j = len(masked[:k].rstrip()) - 1
        m = IDENT_END.search(masked[:j + 1])
        close = masked.find(">>>", cfg_open)
        if m and close >= 0:
            out.append((m.start(), m.group(0), targs, cfg_open, close))
        elif m:
            raise GenError("'<<<' without a closing '>>>'")
        pos = masked.find("<<<", (close + 3) if close >= 0 else cfg_open)
    return out


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


def defined_structs(paths, search_dirs):
    """Names of the structs defined in `paths` and in the headers they include with quotes (recursively),
    each looked up next to the including file, then in `search_dirs`. CANN's launcher generator looks at the
    preprocessed source; this follows the quote includes that the kernel's own headers (tiling structures)
    are reached by. Headers that cannot be found (npurt's kernel_operator.h among them) are skipped."""
    names, seen, todo = set(), set(), [os.path.abspath(p) for p in paths]
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
        names.update(m.group(1) for m in STRUCT_DEF.finditer(mask(text)))
        for m in QUOTE_INCLUDE.finditer(text):
            for d in [os.path.dirname(path)] + list(search_dirs):
                cand = os.path.abspath(os.path.join(d, m.group(1)))
                if os.path.isfile(cand):
                    todo.append(cand)
                    break
    return names


class Kernel:
    def __init__(self, name, params, source, defined, tparams):
        self.name = name
        self.params = params
        self.source = source
        self.defined = defined
        self.tparams = tparams  # a template kernel's parameter list (`typename T`), else None
        if tparams is not None:
            self.tnames, self.tdecls = template_names(tparams)


class Instance:
    """One entry of the kernel table: a kernel, or one instantiation of a template kernel (the template
    arguments of its launches in the library's sources)."""

    def __init__(self, kernel, targs, index):
        self.kernel = kernel
        self.targs = targs
        if targs is None:
            self.sym = kernel.name
            self.name = kernel.name
            self.ref = kernel.name
        else:
            self.sym = "%s_t%d" % (kernel.name, index)
            self.name = "%s<%s>" % (kernel.name, targs)
            self.ref = self.name


class SourceFile:
    """One kernel source: its text, masked text, kernels (heads), launches and traps."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        with open(self.path, encoding="utf-8", errors="surrogateescape") as f:
            self.text = f.read()
        self.masked = mask(self.text)
        self.heads = []  # (start, name_end, Kernel)
        for m in KERNEL_HEAD.finditer(self.masked):
            name = m.group(1)
            lp = m.end() - 1
            rp = matching(self.masked, lp, "(", ")")
            inner = self.text[lp + 1:rp]
            inner_masked = self.masked[lp + 1:rp]
            decls = [] if inner.strip() in ("", "void") else split_params(inner, inner_masked)
            try:
                params = [Param(d, i) for i, d in enumerate(decls)]
            except GenError as e:
                raise GenError("%s: kernel %s: %s" % (self.path, name, e))
            after = self.masked[rp + 1:].lstrip()
            defined = after.startswith("{")
            th = template_header(self.masked, m.start())
            tparams = self.text[th[1][0]:th[1][1]] if th else None
            kernel = Kernel(name, params, self.path, defined, tparams)
            self.heads.append((m.start(), m.start(1) + len(name), kernel))
        self.launches = find_launches(self.text, self.masked)

    def kernels(self):
        return [k for (_, _, k) in self.heads]


def rewrite_common(text, masked, launch_repl):
    """Applies launch and trap rewrites (same length of lines: replacements never add newlines)."""
    edits = []
    for start, name, targs, cfg_open, close in find_launches(text, masked):
        edits.append((start, close + 3, launch_repl(name, targs, text[cfg_open:close])))
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
    """The launcher `k<<<b, l2, s>>>(args)` becomes (a class template for a template kernel: the kernel's own
    `template <...>` precedes the head this replaces)."""
    params = ", ".join("%s %s" % (p.type, p.var) for p in kernel.params)
    return ("struct __npurt_launcher_%s { uint32_t npurt_blocks; void* npurt_stream; "
            "__npurt_launcher_%s(uint32_t b, const void*, void* s) : npurt_blocks(b), npurt_stream(s) {} "
            "uint32_t operator()(%s) const; }; " % (kernel.name, kernel.name, params))


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


def device_source(src, instances):
    """`instances`: the kernel table's entries that this source defines."""
    edits = rewrite_common(src.text, src.masked,
                           lambda name, targs, cfg: "__npurt_no_launch(%s)" % cfg)
    body = apply_edits(src.text, edits)
    out = [DEVICE_PREFIX % {"src": src.path}, line_directive(src.path), body]
    if not body.endswith("\n"):
        out.append("\n")
    out.append(line_directive(src.path + " (npurt kernel entries)"))
    templates = set()
    for inst in instances:
        k, n = inst.kernel, inst.sym
        struct = "__npurt_args_%s" % n
        out.append("namespace {\n")
        if k.params and k.tparams is None:
            out.append(args_struct(k, struct) + "\n")
        elif k.params:
            # One argument block per instantiation: the parameters' types with its template arguments.
            if k.name not in templates:
                templates.add(k.name)
                out.append("template <%s> %s\n" % (k.tdecls, args_struct(k, "__npurt_targs_" + k.name)))
            out.append("using %s = __npurt_targs_%s<%s>;\n" % (struct, k.name, inst.targs))
        out.append("void __npurt_entry_%s(const void* npurt_args, const npurt_kernel_block* npurt_block) {\n" % n)
        out.append("  ::AscendC::npurt_detail::EnterBlock(npurt_block);\n")
        if k.params:
            out.append("  const %s* a = static_cast<const %s*>(npurt_args);\n" % (struct, struct))
            out.append("  %s(%s);\n" % (inst.ref, ", ".join("a->%s" % p.var for p in k.params)))
        else:
            out.append("  (void)npurt_args;\n  %s();\n" % inst.ref)
        out.append("}\n")
        if k.params:
            out.append("const npurt_kernel_param __npurt_params_%s[] = {\n" % n)
            for p in k.params:
                t = "decltype(%s::%s)" % (struct, p.var)
                out.append("  {static_cast<uint32_t>(offsetof(%s, %s)), static_cast<uint32_t>(sizeof(%s)), "
                           "static_cast<uint32_t>(alignof(%s)), std::is_pointer<%s>::value ? 1u : 0u, %s, %s},\n"
                           % (struct, p.var, t, t, t, c_string(p.type), c_string(p.name)))
            out.append("};\n")
        out.append("}  // namespace\n")
        out.append('extern "C" const npurt_kernel_desc __npurt_kdesc_%s = {\n' % n)
        out.append("  %s, &__npurt_entry_%s, reinterpret_cast<const void*>(&%s),\n" % (c_string(inst.name), n, inst.ref))
        if k.params:
            out.append("  static_cast<uint32_t>(sizeof(%s)), %du, __npurt_params_%s,\n" % (struct, len(k.params), n))
        else:
            out.append("  0u, 0u, nullptr,\n")
        out.append("  0u, 0u, %s};\n" % c_string(src.path))
    return "".join(out)


def table_source(kernels, lib):
    out = ["// Generated by npurt_kernel_gen.py: the kernel table of %s; do not edit.\n" % lib,
           "#include <npurt/kernel_abi.h>\n"]
    for k in kernels:
        out.append('extern "C" const npurt_kernel_desc __npurt_kdesc_%s;\n' % k.sym)
    out.append("namespace {\n")
    if kernels:
        out.append("const npurt_kernel_desc* const kKernels[] = {\n")
        for k in kernels:
            out.append("  &__npurt_kdesc_%s,\n" % k.sym)
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


def host_source(src, lib, instances):
    """`instances`: the kernel table's entries, in table order."""
    def launch(name, targs, cfg):
        return "__npurt_launcher_%s%s(%s)" % (name, "" if targs is None else "<%s>" % targs, cfg)

    edits = rewrite_common(src.text, src.masked, launch)
    declared = set()
    for start, name_end, k in src.heads:
        repl = ""
        if k.name not in declared:
            declared.add(k.name)
            repl = launcher_decl(k)
            if k.tparams is not None:
                repl += "template <%s> " % k.tdecls  # the kernel's own header went to the launcher
        # The kernel body stays (it must still compile) but becomes an unused internal function.
        repl += "[[maybe_unused]] static inline void __npurt_kernel_body_%s" % k.name
        edits.append((start, name_end, repl))
    body = apply_edits(src.text, edits)
    out = [host_prefix(src, lib), line_directive(src.path), body]
    if not body.endswith("\n"):
        out.append("\n")
    out.append(line_directive(src.path + " (npurt kernel launchers)"))
    mine = [k for k in src.kernels() if k.defined]
    for k in mine:
        n = k.name
        params = ", ".join("%s %s" % (p.type, p.var) for p in k.params)
        if k.tparams is None:
            index = "%du" % next(i for i, inst in enumerate(instances) if inst.kernel is k)
            out.append("uint32_t __npurt_launcher_%s::operator()(%s) const {\n" % (n, params))
        else:
            # The table index of each instantiation: a function defined for each one the table has. A launch
            # of another instantiation leaves an undefined reference to it, which names the instantiation
            # (npurt-ascc reads them from the object and generates again with --instance).
            out.append("template <%s> uint32_t __npurt_kindex_%s();\n" % (k.tdecls, n))
            for i, inst in enumerate(instances):
                if inst.kernel is k:
                    out.append("template <> __attribute__((visibility(\"hidden\"))) uint32_t __npurt_kindex_%s<%s>() "
                               "{ return %du; }\n" % (n, inst.targs, i))
            index = "__npurt_kindex_%s<%s>()" % (n, k.tnames)
            out.append("template <%s> uint32_t __npurt_launcher_%s<%s>::operator()(%s) const {\n"
                       % (k.tdecls, n, k.tnames, params))
        if k.params:
            out.append("  %s\n" % args_struct(k, "Args"))
            out.append("  const Args args = {%s};\n" % ", ".join(p.var for p in k.params))
            out.append("  return __npurt_launch_%s(%s, npurt_blocks, npurt_stream, &args, sizeof(args));\n"
                       % (lib, index))
        else:
            out.append("  return __npurt_launch_%s(%s, npurt_blocks, npurt_stream, nullptr, 0);\n" % (lib, index))
        out.append("}\n")
        if k.tparams is not None:
            continue  # aclrtlaunch_<k> is made for plain kernels only
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
    names = ", ".join(c_string(k.name) for k in kernels) or '""'
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
                    help="the instantiations of template kernels to build, instead of those the sources' launches "
                         "name (repeatable; none given with --instance-only: no instantiation)")
    ap.add_argument("--instance-only", action="store_true")
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args(argv)
    if not re.match(r"[A-Za-z_]\w*$", args.name):
        raise GenError("library name '%s' must be a C identifier" % args.name)

    files = [SourceFile(s) for s in args.sources]
    # Struct parameters of aclrtlaunch_<k> are pointers, as in CANN's launchers.
    structs = defined_structs([f.path for f in files], sorted({os.path.dirname(f.path) for f in files}))
    for f in files:
        for k in f.kernels():
            for p in k.params:
                p.by_pointer = p.struct_name() in structs
    defined, seen = [], {}
    for f in files:
        for k in f.kernels():
            if k.defined:
                if k.name in seen:
                    raise GenError("kernel %s is defined twice in %s (%s and %s)" % (k.name, args.name, seen[k.name],
                                                                                  f.path))
                seen[k.name] = f.path
                defined.append(k)
    given = None
    if args.instance_only or args.instance:
        given = {}
        for item in args.instance or []:
            kname, _, targs = item.partition("=")
            given.setdefault(kname, []).append(" ".join(targs.split()))
    instances = table_entries(files, defined, given)
    if args.list:
        for inst in instances:
            print(inst.name)
        return 0
    out = args.out_dir
    for i, f in enumerate(files):
        mine = [inst for inst in instances if inst.kernel.source == f.path]
        write_if_changed(os.path.join(out, "device", stem(i, f.path) + ".cpp"), device_source(f, mine))
    write_if_changed(os.path.join(out, "device", "npurt_kernel_table.cpp"), table_source(instances, args.name))
    manifest = ["# Generated by npurt_kernel_gen.py: what it wrote for %s.\n" % args.name,
                "set(NPURT_GEN_KERNELS %s)\n" % " ".join(c_string(inst.name) for inst in instances),
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
            write_if_changed(os.path.join(out, "host", stem(i, f.path) + ".cpp"), host_source(f, args.name, instances))
        write_if_changed(os.path.join(out, "host", "npurt_embed.cpp"), embed_source(instances, args.name, args.image))
        for k in defined:
            if k.tparams is None:
                write_if_changed(os.path.join(out, "include", "aclrtlaunch_%s.h" % k.name), launch_header(k))
    return 0


def table_entries(files, defined, given=None):
    """The kernel table: every plain kernel, and every instantiation of a template kernel that the sources
    launch (`k<args><<<...>>>`), in the order of the sources; or those `given` ({kernel: [args]})."""
    launched = {}
    for f in files:
        for _, name, targs, _, _ in f.launches:
            launched.setdefault(name, [])
            if targs not in launched[name]:
                launched[name].append(targs)
    if given is not None:
        for k in defined:
            if k.tparams is not None:
                launched[k.name] = [t for t in launched.get(k.name, []) if t is None] + given.get(k.name, [])
    instances = []
    for k in defined:
        if k.tparams is None:
            instances.append(Instance(k, None, 0))
            continue
        if None in launched.get(k.name, []):
            raise GenError("%s: template kernel %s is launched without template arguments; write %s<...><<<...>>>"
                           % (k.source, k.name, k.name))
        for i, targs in enumerate(launched.get(k.name, [])):
            instances.append(Instance(k, targs, i))
    return instances


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (GenError, OSError) as e:
        sys.stderr.write("npurt_kernel_gen: error: %s\n" % e)
        sys.exit(1)
