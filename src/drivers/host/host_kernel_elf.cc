#include "drivers/host/host_kernel_elf.h"

#include <elf.h>
#include <link.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"

namespace npurt::drivers::host {
namespace {

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#else
constexpr uint16_t kHostMachine = EM_NONE;
#endif

const char* ElfTypeName(uint16_t type) {
  switch (type) {
    case ET_REL: return "relocatable object";
    case ET_EXEC: return "executable";
    case ET_DYN: return "shared object";
    case ET_CORE: return "core file";
    default: return "file";
  }
}

}  // namespace

// Checks that `header` (the first bytes of an image) is a shared object this process can load.
Status CheckElfHeader(const uint8_t* header, size_t size, const std::string& origin) {
  if (size < sizeof(ElfW(Ehdr)) || std::memcmp(header, ELFMAG, SELFMAG) != 0) {
    return Err(ACL_ERROR_PARSE_FILE, "{} is not a kernel binary: not an ELF file ({} bytes{})", origin, size,
               size >= 4 ? fmt::format(", starts with {:02x} {:02x} {:02x} {:02x}", header[0], header[1], header[2],
                                       header[3])
                         : std::string());
  }
  ElfW(Ehdr) eh;
  std::memcpy(&eh, header, sizeof eh);
  if (eh.e_ident[EI_CLASS] != (sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32) || eh.e_machine != kHostMachine) {
    return Err(ACL_ERROR_PARSE_FILE,
               "{} is an ELF {} for machine {} (an NPU device binary?), not a kernel binary for the simulated NPU: "
               "build the kernels with npurt's ascendc.cmake (ASCENDC_CMAKE_DIR from the npurt package)",
               origin, ElfTypeName(eh.e_type), eh.e_machine);
  }
  if (eh.e_type != ET_DYN) {
    return Err(ACL_ERROR_PARSE_FILE,
               "{} is an ELF {}, not a kernel binary (npurt kernel binaries are shared objects built by "
               "ascendc_fatbin_library)",
               origin, ElfTypeName(eh.e_type));
  }
  return Status::Ok();
}

// Checks the program headers of a whole image (after CheckElfHeader). The dynamic loader maps each
// loadable segment from the file and follows the dynamic section to its tables without checking that
// they lie inside the image or inside what it mapped, so a truncated or corrupt image would fault inside
// dlopen (SIGSEGV, or SIGBUS on the pages past the end of the file) instead of failing:
//   - the program headers, each loadable segment and the dynamic segment lie inside the image;
//   - loadable segments are in ascending address order, do not overlap, and their file offsets are
//     congruent to their addresses modulo their (power-of-two) alignment, as mmap needs;
//   - the dynamic segment is part of a loadable one (the same bytes in the file and in memory), ends
//     with DT_NULL, and every address it gives lies in the file-backed part of a loadable segment.
Status CheckElfSegments(const uint8_t* image, size_t size, const std::string& origin) {
  auto bad = [&](const std::string& what) {
    return Err(ACL_ERROR_PARSE_FILE, "{} is not a valid kernel binary (truncated or corrupt?): {}", origin, what);
  };
  ElfW(Ehdr) eh;
  std::memcpy(&eh, image, sizeof eh);
  if (eh.e_phentsize != sizeof(ElfW(Phdr)) || eh.e_phnum == 0 || eh.e_phoff > size ||
      (size - eh.e_phoff) / sizeof(ElfW(Phdr)) < eh.e_phnum) {
    return bad(fmt::format("its {} program headers of {} bytes at offset {} do not lie inside its {} bytes", eh.e_phnum,
                           eh.e_phentsize, eh.e_phoff, size));
  }
  std::vector<ElfW(Phdr)> loads;
  const ElfW(Phdr)* dynamic = nullptr;
  ElfW(Phdr) dyn_header;
  for (ElfW(Half) i = 0; i < eh.e_phnum; ++i) {
    ElfW(Phdr) ph;
    std::memcpy(&ph, image + eh.e_phoff + size_t{i} * sizeof ph, sizeof ph);
    if (ph.p_type != PT_LOAD && ph.p_type != PT_DYNAMIC) continue;
    if (ph.p_offset > size || ph.p_filesz > size - ph.p_offset || ph.p_vaddr + ph.p_memsz < ph.p_vaddr ||
        (ph.p_type == PT_LOAD && ph.p_filesz > ph.p_memsz)) {
      return bad(fmt::format("segment {} ({} bytes at offset {}, {} in memory) does not lie inside its {} bytes", i,
                             ph.p_filesz, ph.p_offset, ph.p_memsz, size));
    }
    if (ph.p_type == PT_DYNAMIC) {
      if (dynamic != nullptr) return bad("it has two dynamic segments");
      dyn_header = ph;
      dynamic = &dyn_header;
      continue;
    }
    if ((ph.p_align & (ph.p_align - 1)) != 0 || (ph.p_align > 1 && ph.p_vaddr % ph.p_align != ph.p_offset % ph.p_align)) {
      return bad(fmt::format("segment {} has the alignment {:#x} for address {:#x} at offset {:#x}", i, ph.p_align,
                             ph.p_vaddr, ph.p_offset));
    }
    if (!loads.empty() && ph.p_vaddr < loads.back().p_vaddr + loads.back().p_memsz) {
      return bad(fmt::format("segment {} at {:#x} is out of order or overlaps the one before", i, ph.p_vaddr));
    }
    loads.push_back(ph);
  }
  if (loads.empty()) return bad("it has no loadable segment");
  if (dynamic == nullptr) return bad("it has no dynamic segment");
  // Where a virtual address range lies in the file: inside the file-backed part of one loadable segment.
  auto file_offset = [&](uint64_t vaddr, uint64_t bytes, uint64_t* offset) {
    for (const ElfW(Phdr)& l : loads) {
      if (vaddr >= l.p_vaddr && vaddr - l.p_vaddr <= l.p_filesz && bytes <= l.p_filesz - (vaddr - l.p_vaddr)) {
        *offset = l.p_offset + (vaddr - l.p_vaddr);
        return true;
      }
    }
    return false;
  };
  uint64_t dyn_at = 0;
  if (!file_offset(dynamic->p_vaddr, dynamic->p_filesz, &dyn_at) || dyn_at != dynamic->p_offset ||
      dynamic->p_filesz < sizeof(ElfW(Dyn))) {
    return bad("its dynamic segment is not part of a loadable segment");
  }
  uint64_t strsz = 0, relasz = 0, pltrelsz = 0, init_arraysz = 0, fini_arraysz = 0, preinit_arraysz = 0;
  std::vector<std::pair<int64_t, uint64_t>> addresses;  // tag, address
  bool ended = false;
  for (uint64_t at = 0; !ended && at + sizeof(ElfW(Dyn)) <= dynamic->p_filesz; at += sizeof(ElfW(Dyn))) {
    ElfW(Dyn) d;
    std::memcpy(&d, image + dynamic->p_offset + at, sizeof d);
    switch (d.d_tag) {
      case DT_NULL: ended = true; break;
      case DT_STRSZ: strsz = d.d_un.d_val; break;
      case DT_RELASZ: relasz = d.d_un.d_val; break;
      case DT_PLTRELSZ: pltrelsz = d.d_un.d_val; break;
      case DT_INIT_ARRAYSZ: init_arraysz = d.d_un.d_val; break;
      case DT_FINI_ARRAYSZ: fini_arraysz = d.d_un.d_val; break;
      case DT_PREINIT_ARRAYSZ: preinit_arraysz = d.d_un.d_val; break;
      case DT_RELAENT:
        if (d.d_un.d_val != sizeof(ElfW(Rela))) return bad("its relocation entries have the wrong size");
        break;
      case DT_SYMENT:
        if (d.d_un.d_val != sizeof(ElfW(Sym))) return bad("its symbol entries have the wrong size");
        break;
      case DT_STRTAB: case DT_SYMTAB: case DT_RELA: case DT_REL: case DT_JMPREL: case DT_HASH: case DT_GNU_HASH:
      case DT_INIT: case DT_FINI: case DT_INIT_ARRAY: case DT_FINI_ARRAY: case DT_PREINIT_ARRAY: case DT_VERSYM:
      case DT_VERNEED: case DT_VERDEF: case DT_PLTGOT:
        addresses.emplace_back(d.d_tag, d.d_un.d_ptr);
        break;
      default: break;
    }
  }
  if (!ended) return bad("its dynamic section has no end (DT_NULL)");
  for (const auto& [tag, address] : addresses) {
    const uint64_t bytes = tag == DT_STRTAB        ? strsz
                           : tag == DT_RELA        ? relasz
                           : tag == DT_JMPREL      ? pltrelsz
                           : tag == DT_INIT_ARRAY  ? init_arraysz
                           : tag == DT_FINI_ARRAY  ? fini_arraysz
                           : tag == DT_PREINIT_ARRAY ? preinit_arraysz
                                                     : 1;
    uint64_t offset = 0;
    if (!file_offset(address, bytes, &offset)) {
      return bad(fmt::format("dynamic entry {:#x} points at {:#x} ({} bytes), outside what it maps from the file",
                             static_cast<uint64_t>(tag), address, bytes));
    }
  }
  return Status::Ok();
}

// The same check on a file: reads it through a private read-only mapping.
Status CheckElfFileSegments(int fd, size_t size, const std::string& origin) {
  void* map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) return Err(ACL_ERROR_INVALID_FILE, "cannot read kernel binary {}: {}", origin, std::strerror(errno));
  Status st = CheckElfSegments(static_cast<const uint8_t*>(map), size, origin);
  munmap(map, size);
  return st;
}

}  // namespace npurt::drivers::host
