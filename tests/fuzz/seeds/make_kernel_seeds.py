"""Writes fuzz_kernel_binary's seed inputs for a template kernel binary (see make_kernel_seeds.sh).

The table mode addresses the template's bytes by their index in the same list the target builds:
sections in header order, the addend bytes of every .rela.dyn entry, every byte of .rodata and of
.data.rel.ro."""
import struct
import sys

template, out = sys.argv[1], sys.argv[2]
img = open(template, "rb").read()

ehdr = struct.unpack_from("<16sHHIQQQIHHHHHH", img, 0)
e_phoff, e_shoff, e_phentsize, e_phnum, e_shnum, e_shstrndx = ehdr[5], ehdr[6], ehdr[9], ehdr[10], ehdr[12], ehdr[13]
headers_end = e_phoff + e_phnum * e_phentsize
sections = []
for i in range(e_shnum):
    name, typ, flags, addr, off, size = struct.unpack_from("<IIQQQQ", img, e_shoff + i * 64)
    sections.append((name, addr, off, size))
strtab_off = sections[e_shstrndx][2]


def sname(n):
    return img[strtab_off + n: img.index(b"\0", strtab_off + n)].decode()


mutable = []
by_name = {}
for name, addr, off, size in sections:
    n = sname(name)
    by_name[n] = (addr, off, size)
    if n in (".data.rel.ro", ".rodata"):
        mutable += range(off, off + size)
    elif n == ".rela.dyn":
        for r in range(0, size - 23, 24):
            mutable += range(off + r + 16, off + r + 24)
index_of = {pos: i for i, pos in enumerate(mutable)}


def vaddr_to_off(v):
    for n, (addr, off, size) in by_name.items():
        if addr and addr <= v < addr + size:
            return off + (v - addr)
    raise KeyError(hex(v))


# The exported table: .dynsym entry named npurt_kernel_table.
dynsym = by_name[".dynsym"]
dynstr = by_name[".dynstr"]
table_off = None
for s in range(dynsym[1], dynsym[1] + dynsym[2], 24):
    st_name, _, _, _, st_value, _ = struct.unpack_from("<IBBHQQ", img, s)
    if img[dynstr[1] + st_name: img.index(b"\0", dynstr[1] + st_name)] == b"npurt_kernel_table":
        table_off = vaddr_to_off(st_value)
assert table_off is not None


def patch(pos, data):
    """One patch record of the table mode at file offset `pos`."""
    i = index_of[pos]
    return struct.pack("<HB", i, len(data) - 1) + data


def rela_addend_for(file_off):
    """File offset of the addend of the relocation that fills the pointer at `file_off`."""
    v = None
    for n, (addr, off, size) in by_name.items():
        if off <= file_off < off + size and addr:
            v = addr + (file_off - off)
    rela = by_name[".rela.dyn"]
    for r in range(rela[1], rela[1] + rela[2], 24):
        r_offset, _, _ = struct.unpack_from("<QQq", img, r)
        if r_offset == v:
            return r + 16
    raise KeyError(hex(file_off))


def w(name, data):
    open(f"{out}/{name}", "wb").write(data)


# The template as it is, through each load call (mode bits: see fuzz_kernel_binary.cc).
w("valid_from_data", bytes([2]))
w("valid_with_options", bytes([2 | 16]))
w("valid_create_binary", bytes([2 | 4]))
w("valid_from_file", bytes([2 | 8]))
# Header mode.
hdr = bytearray(img[:headers_end])
w("header_unchanged", bytes([0]) + bytes(hdr))
w("header_not_elf", bytes([0]) + b"\x7fELG" + bytes(hdr[4:]))
w("header_machine_aarch64", bytes([0]) + bytes(hdr[:18]) + struct.pack("<H", 183) + bytes(hdr[20:]))
w("header_type_exec", bytes([0]) + bytes(hdr[:16]) + struct.pack("<H", 2) + bytes(hdr[18:]))
w("header_class32", bytes([0]) + bytes(hdr[:4]) + b"\x01" + bytes(hdr[5:]))
w("header_phoff_past_end", bytes([0]) + bytes(hdr[:32]) + struct.pack("<Q", len(img) + 4096) + bytes(hdr[40:]))
w("header_phentsize_0", bytes([0]) + bytes(hdr[:54]) + struct.pack("<H", 0) + bytes(hdr[56:]))
# Truncate mode.
for n in (0, 40, 64, len(img) // 2, len(img) - 1):
    w(f"truncated_{n}", bytes([1]) + struct.pack("<H", n))
# Table mode. npurt_kernel_table_t: magic, abi_version, kernel_count, reserved, kernels, library.
w("table_bad_magic", bytes([2]) + patch(table_off, struct.pack("<I", 0x12345678)))
w("table_abi_2", bytes([2]) + patch(table_off + 4, struct.pack("<I", 2)))
w("table_count_1000", bytes([2]) + patch(table_off + 8, struct.pack("<I", 1000)))
w("table_count_0", bytes([2]) + patch(table_off + 8, struct.pack("<I", 0)))
w("table_kernels_wild", bytes([2]) + patch(rela_addend_for(table_off + 16), struct.pack("<q", 0x7f0000000000)))
w("table_library_wild", bytes([2]) + patch(rela_addend_for(table_off + 24), struct.pack("<q", -4096)))
# The first kernel's name, unterminated: overwrite its NUL in .rodata.
name_at = img.index(b"seed_add\0")
w("table_name_unterminated", bytes([2]) + patch(name_at + 8, b"X"))
# The add kernel's descriptor: the first relocation target the kernels[] array points at.
kernels_v = struct.unpack_from("<q", img, rela_addend_for(table_off + 16))[0]
first_desc_ptr = vaddr_to_off(kernels_v)
desc_v = struct.unpack_from("<q", img, rela_addend_for(first_desc_ptr))[0]
desc_off = vaddr_to_off(desc_v)
# npurt_kernel_desc: name, entry, function, args_size, param_count, params, kernel_type, reserved, source.
w("table_param_count_huge", bytes([2]) + patch(desc_off + 28, struct.pack("<I", 0x10000000)))
w("table_args_size_small", bytes([2]) + patch(desc_off + 24, struct.pack("<I", 4)))
w("table_entry_into_data", bytes([2]) + patch(rela_addend_for(desc_off + 8), struct.pack("<q", kernels_v)))
params_v = struct.unpack_from("<q", img, rela_addend_for(desc_off + 32))[0]
w("table_param_offset_past_block", bytes([2]) + patch(vaddr_to_off(params_v), struct.pack("<I", 1000)))
