#include "drivers/host/host_kernel_table_check.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "acl/acl_base_rt.h"

namespace npurt::drivers::host {
namespace {

struct Segment {
  uintptr_t begin;
  uintptr_t end;
  bool exec;
};

struct FindSegments {
  const link_map* lm;
  std::vector<Segment>* out;
};

int CollectSegments(dl_phdr_info* info, size_t, void* data) {
  auto* find = static_cast<FindSegments*>(data);
  if (info->dlpi_addr != find->lm->l_addr || info->dlpi_name == nullptr || find->lm->l_name == nullptr ||
      std::strcmp(info->dlpi_name, find->lm->l_name) != 0) {
    return 0;
  }
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_R) == 0 || ph.p_memsz == 0) continue;
    const uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    find->out->push_back({begin, begin + ph.p_memsz, (ph.p_flags & PF_X) != 0});
  }
  return 1;
}

// The readable segments of the binary, as mapped.
class Image {
 public:
  explicit Image(std::vector<Segment> segments) : segments_(std::move(segments)) {}

  // `count` objects of type T at `p`, aligned, in one readable segment.
  template <typename T>
  bool Holds(const T* p, size_t count = 1) const {
    if (reinterpret_cast<uintptr_t>(p) % alignof(T) != 0) return false;
    return HoldsBytes(p, sizeof(T) * count);
  }
  // [p, p + size) lies in one readable segment.
  bool HoldsBytes(const void* p, size_t size) const {
    const auto a = reinterpret_cast<uintptr_t>(p);
    for (const Segment& s : segments_) {
      if (a >= s.begin && a <= s.end && size <= s.end - a) return true;
    }
    return false;
  }
  // A code address: inside an executable segment.
  bool HoldsCode(const void* p) const {
    const auto a = reinterpret_cast<uintptr_t>(p);
    for (const Segment& s : segments_) {
      if (s.exec && a >= s.begin && a < s.end) return true;
    }
    return false;
  }
  // A NUL-terminated string of at most kMaxKernelNameLength characters inside one segment.
  bool HoldsString(const char* p) const {
    const auto a = reinterpret_cast<uintptr_t>(p);
    for (const Segment& s : segments_) {
      if (a < s.begin || a >= s.end) continue;
      const size_t room = std::min<size_t>(s.end - a, kMaxKernelNameLength + 1);
      return std::memchr(p, '\0', room) != nullptr;
    }
    return false;
  }

 private:
  std::vector<Segment> segments_;
};

Status Bad(const std::string& origin, const std::string& what) {
  return Err(ACL_ERROR_PARSE_FILE, "kernel binary {} has a corrupt kernel table: {}", origin, what);
}

Status CheckDesc(const Image& image, const npurt_kernel_desc* d, uint32_t k, const std::string& origin) {
  if (d == nullptr || !image.Holds(d)) {
    return Bad(origin, fmt::format("kernels[{}] ({}) does not point into the binary", k, static_cast<const void*>(d)));
  }
  if (d->name == nullptr || !image.HoldsString(d->name) || d->name[0] == '\0') {
    return Bad(origin, fmt::format("kernel {} has no name inside the binary", k));
  }
  if (!image.HoldsCode(reinterpret_cast<const void*>(d->entry))) {
    return Bad(origin, fmt::format("the entry of kernel '{}' is not code of the binary", d->name));
  }
  if (d->function != nullptr && !image.HoldsCode(d->function)) {
    return Bad(origin, fmt::format("the function of kernel '{}' is not code of the binary", d->name));
  }
  if (d->source != nullptr && !image.HoldsString(d->source)) {
    return Bad(origin, fmt::format("the source file name of kernel '{}' is not a string inside the binary", d->name));
  }
  if (d->args_size > kMaxKernelArgsSize) {
    return Bad(origin, fmt::format("kernel '{}' declares a {}-byte argument block (at most {})", d->name, d->args_size,
                                   kMaxKernelArgsSize));
  }
  if (d->param_count > kMaxKernelParams) {
    return Bad(origin, fmt::format("kernel '{}' declares {} parameters (at most {})", d->name, d->param_count,
                                   kMaxKernelParams));
  }
  if (d->param_count != 0 && (d->params == nullptr || !image.Holds(d->params, d->param_count))) {
    return Bad(origin, fmt::format("the {} parameters of kernel '{}' do not lie inside the binary", d->param_count,
                                   d->name));
  }
  for (uint32_t i = 0; i < d->param_count; ++i) {
    const npurt_kernel_param& p = d->params[i];
    if (p.type == nullptr || !image.HoldsString(p.type) || p.name == nullptr || !image.HoldsString(p.name)) {
      return Bad(origin, fmt::format("parameter {} of kernel '{}' has a type or name outside the binary", i, d->name));
    }
    if (uint64_t{p.offset} + p.size > d->args_size) {
      return Bad(origin, fmt::format("parameter {} of kernel '{}' ({} bytes at offset {}) overruns its {}-byte "
                                     "argument block", i, d->name, p.size, p.offset, d->args_size));
    }
    if (p.kind != NPURT_KERNEL_PARAM_SCALAR && p.kind != NPURT_KERNEL_PARAM_POINTER) {
      return Bad(origin, fmt::format("parameter {} of kernel '{}' has the unknown kind {}", i, d->name, p.kind));
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckKernelTable(void* dl, const npurt_kernel_table_t* table, const std::string& origin) {
  link_map* lm = nullptr;
  if (dlinfo(dl, RTLD_DI_LINKMAP, &lm) != 0 || lm == nullptr) {
    return Err(ACL_ERROR_PARSE_FILE, "cannot inspect the mapping of kernel binary {}", origin);
  }
  std::vector<Segment> segments;
  FindSegments find{lm, &segments};
  dl_iterate_phdr(&CollectSegments, &find);
  const Image image(std::move(segments));
  if (!image.Holds(table)) return Bad(origin, "the table does not lie inside the binary");
  if (table->magic != NPURT_KERNEL_TABLE_MAGIC || table->abi_version != NPURT_KERNEL_ABI_VERSION) {
    return Err(ACL_ERROR_PARSE_FILE,
               "kernel binary {} was built for kernel ABI {} (magic {:#x}); this runtime supports ABI {}: rebuild it "
               "with this package's ascendc.cmake",
               origin, table->abi_version, table->magic, NPURT_KERNEL_ABI_VERSION);
  }
  if (table->kernel_count > kMaxKernelsPerBinary) {
    return Bad(origin, fmt::format("it declares {} kernels (at most {})", table->kernel_count, kMaxKernelsPerBinary));
  }
  if (table->library != nullptr && !image.HoldsString(table->library)) {
    return Bad(origin, "the library name is not a string inside the binary");
  }
  if (table->kernel_count == 0) return Status::Ok();
  if (table->kernels == nullptr || !image.Holds(table->kernels, table->kernel_count)) {
    return Bad(origin, fmt::format("the list of its {} kernels does not lie inside the binary", table->kernel_count));
  }
  for (uint32_t k = 0; k < table->kernel_count; ++k) {
    NPURT_RETURN_IF_ERROR(CheckDesc(image, table->kernels[k], k, origin));
  }
  return Status::Ok();
}

}  // namespace npurt::drivers::host
