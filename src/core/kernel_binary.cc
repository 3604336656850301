#include "core/kernel_binary.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "acl/error_codes/rt_error_codes.h"
#include "base/env.h"
#include "core/kernel_table_check.h"
#include "core/runtime.h"
#include "dfx/log.h"

namespace npurt::core {
namespace {

// SoCs whose AI cores are split into cube (AIC) and vector (AIV) cores: Ascend910B*, Ascend910_93*.
bool SocHasSeparateVectorCores(const std::string& soc) {
  return soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0;
}

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#else
constexpr uint16_t kHostMachine = EM_NONE;
#endif

std::mutex g_loaded_mu;
std::vector<KernelBinary*> g_loaded;

const char* ElfTypeName(uint16_t type) {
  switch (type) {
    case ET_REL: return "relocatable object";
    case ET_EXEC: return "executable";
    case ET_DYN: return "shared object";
    case ET_CORE: return "core file";
    default: return "file";
  }
}

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

Status ValidateLoadOptions(const aclrtBinaryLoadOptions* options) {
  if (options == nullptr) return Status::Ok();
  if (options->numOpt != 0 && options->options == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "options->options is a null pointer but numOpt is {}", options->numOpt);
  }
  for (size_t i = 0; i < options->numOpt; ++i) {
    const aclrtBinaryLoadOption& o = options->options[i];
    switch (o.type) {
      case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
        break;  // loading is cheap on the sim: lazy or not, the binary is ready when the call returns
      case ACL_RT_BINARY_LOAD_OPT_MAGIC:
        if (o.value.magic != ACL_RT_BINARY_MAGIC_ELF_AICORE && o.value.magic != ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE &&
            o.value.magic != ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE) {
          return Err(ACL_ERROR_INVALID_PARAM, "binary magic {:#x} is not an AI core, vector core or cube core magic",
                     o.value.magic);
        }
        break;
      case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
        return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "AI CPU kernel binaries are not supported by the simulated NPU");
      default:
        return Err(ACL_ERROR_INVALID_PARAM, "binary load option type {} is unknown", static_cast<int>(o.type));
    }
  }
  return Status::Ok();
}

}  // namespace

std::string KernelFunction::Signature() const {
  std::string s = std::string(name()) + "(";
  for (uint32_t i = 0; i < param_count(); ++i) {
    const npurt_kernel_param& p = param(i);
    if (i != 0) s += ", ";
    s += p.type;
    if (p.name[0] != '\0') s += std::string(" ") + p.name;
  }
  return s + ")";
}

StatusOr<KernelBinary*> KernelBinary::LoadFile(const char* path, const aclrtBinaryLoadOptions* options) {
  NPURT_RETURN_IF_ERROR(ValidateLoadOptions(options));
  const std::string origin = fmt::format("'{}'", path);
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Err(ACL_ERROR_INVALID_FILE, "cannot open kernel binary {}: {}", origin, std::strerror(errno));
  uint8_t header[sizeof(ElfW(Ehdr))];
  const ssize_t n = read(fd, header, sizeof header);
  struct stat st;
  const bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  Status layout = !regular ? Err(ACL_ERROR_INVALID_FILE, "kernel binary {} is not a regular file", origin)
                           : CheckElfHeader(header, n < 0 ? 0 : static_cast<size_t>(n), origin);
  if (layout.ok()) layout = CheckElfFileSegments(fd, static_cast<size_t>(st.st_size), origin);
  close(fd);
  NPURT_RETURN_IF_ERROR(layout);
  // dlopen needs a path with a slash to open the file itself instead of searching the library path.
  std::string dl_path = path;
  if (dl_path.find('/') == std::string::npos) dl_path = "./" + dl_path;
  auto bin = Open(dl_path, origin);
  if (bin.ok()) bin.value()->image_size_ = static_cast<size_t>(st.st_size);
  return bin;
}

StatusOr<KernelBinary*> KernelBinary::LoadData(const void* data, size_t size, const aclrtBinaryLoadOptions* options) {
  NPURT_RETURN_IF_ERROR(ValidateLoadOptions(options));
  const std::string origin = fmt::format("the {}-byte kernel image at {}", size, data);
  NPURT_RETURN_IF_ERROR(CheckElfHeader(static_cast<const uint8_t*>(data), size, origin));
  NPURT_RETURN_IF_ERROR(CheckElfSegments(static_cast<const uint8_t*>(data), size, origin));
  // The dynamic loader maps files: give the image one (an anonymous memory file, gone after dlopen).
  const int fd = memfd_create("npurt-kernel-binary", MFD_CLOEXEC);
  if (fd < 0) return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "memfd_create for a kernel image failed: {}", std::strerror(errno));
  const auto* p = static_cast<const uint8_t*>(data);
  size_t done = 0;
  while (done < size) {
    const ssize_t w = write(fd, p + done, size - done);
    if (w <= 0) {
      const int err = errno;
      close(fd);
      return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "writing a kernel image to memory failed: {}", std::strerror(err));
    }
    done += static_cast<size_t>(w);
  }
  // The dynamic loader recognises objects by path first: "/proc/self/fd/N" names a new object only while
  // no loaded object has that name, so the descriptor stays open as long as the binary is loaded (an
  // open descriptor's number is not reused). A loader that kept an earlier object of that name mapped
  // anyway is detected (the same table comes back) and the image goes through a uniquely named file.
  const std::string fd_path = fmt::format("/proc/self/fd/{}", fd);
  std::vector<const npurt_kernel_table_t*> tables;
  {
    std::lock_guard<std::mutex> lock(g_loaded_mu);
    for (KernelBinary* b : g_loaded) tables.push_back(b->table_);
  }
  auto bin = Open(fd_path, origin);
  if (bin.ok() && std::find(tables.begin(), tables.end(), bin.value()->table_) != tables.end()) {
    bin.value()->Unload().ok();
    bin = OpenFromTempFile(fd, origin);
  }
  if (!bin.ok()) {
    close(fd);
    return bin;
  }
  bin.value()->image_size_ = size;
  bin.value()->image_fd_ = fd;
  return bin;
}

StatusOr<KernelBinary*> KernelBinary::OpenFromTempFile(int image_fd, const std::string& origin) {
  static std::atomic<uint64_t> sequence{0};
  const char* dir = npurt::env::Raw(npurt::env::Var::kTmpDir);
  const std::string path = fmt::format("{}/npurt-kernel-{}-{}.so", dir != nullptr && dir[0] != '\0' ? dir : "/tmp",
                                       getpid(), sequence.fetch_add(1));
  const int out = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (out < 0) return Err(ACL_ERROR_RT_FILE_WRITE, "cannot write kernel image to {}: {}", path, std::strerror(errno));
  off_t offset = 0;
  struct stat st;
  fstat(image_fd, &st);
  bool ok = true;
  while (ok && offset < st.st_size) {
    char buf[65536];
    const ssize_t n = pread(image_fd, buf, sizeof buf, offset);
    ok = n > 0 && write(out, buf, static_cast<size_t>(n)) == n;
    offset += n > 0 ? n : 0;
  }
  close(out);
  auto bin = ok ? Open(path, origin) : Err(ACL_ERROR_RT_FILE_WRITE, "cannot write kernel image to {}", path);
  unlink(path.c_str());  // the mapping stays; the name is never reused within this process
  return bin;
}

StatusOr<KernelBinary*> KernelBinary::Open(const std::string& dl_path, const std::string& origin) {
  void* dl = dlopen(dl_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (dl == nullptr) {
    const char* why = dlerror();
    return Err(ACL_ERROR_PARSE_FILE, "cannot load kernel binary {}: {}", origin, why != nullptr ? why : "dlopen failed");
  }
  const auto* table = static_cast<const npurt_kernel_table_t*>(dlsym(dl, NPURT_KERNEL_TABLE_SYMBOL));
  Status bad;
  if (table == nullptr) {
    bad = Err(ACL_ERROR_PARSE_FILE,
              "{} is a shared object but not an npurt kernel binary: it has no '{}' (build it with ascendc.cmake)",
              origin, NPURT_KERNEL_TABLE_SYMBOL);
  } else {
    // Magic, ABI version, and every pointer, count and offset of the table (core/kernel_table_check).
    bad = CheckKernelTable(dl, table, origin);
  }
  if (!bad.ok()) {
    dlclose(dl);
    return bad;
  }
  KernelBinary* bin = NewHandle<KernelBinary>();
  if (bin == nullptr) {
    dlclose(dl);
    return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for kernel binaries");
  }
  bin->dl_ = dl;
  bin->table_ = table;
  bin->origin_ = origin;
  Dl_info info;
  if (dladdr(table, &info) != 0) bin->image_ = info.dli_fbase;
  const bool split_cores = SocHasSeparateVectorCores(Runtime::Get().soc_name());
  for (uint32_t i = 0; i < table->kernel_count; ++i) {
    const uint32_t type = table->kernels[i]->kernel_type;
    const bool vector = type == ACL_KERNEL_TYPE_VECTOR || (type == ACL_KERNEL_TYPE_AICORE && split_cores);
    KernelFunction* f = NewHandle<KernelFunction>(bin, table->kernels[i], vector);
    if (f == nullptr) {
      bin->Unload().ok();
      return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for kernel functions");
    }
    bin->functions_.push_back(f);
  }
  {
    std::lock_guard<std::mutex> lock(g_loaded_mu);
    g_loaded.push_back(bin);
  }
  NPURT_LOG_INFO("RUNTIME", "loaded kernel binary {} ({} kernels, library '{}')", origin, table->kernel_count,
                 table->library != nullptr ? table->library : "");
  return bin;
}

KernelBinary::~KernelBinary() {
  for (KernelFunction* f : functions_) {
    f->Invalidate();
    f->Release();
  }
  if (dl_ != nullptr) dlclose(dl_);
  if (image_fd_ >= 0) close(image_fd_);
}

StatusOr<KernelFunction*> KernelBinary::Function(const char* name) const {
  for (KernelFunction* f : functions_) {
    if (std::strcmp(f->name(), name) == 0) return f;
  }
  std::string names;
  for (KernelFunction* f : functions_) names += (names.empty() ? "" : ", ") + f->Signature();
  return Err(ACL_ERROR_RT_PARAM_INVALID, "kernel binary {} has no kernel named '{}' (it has: {})", origin_, name,
             names.empty() ? "no kernels" : names);
}

KernelFunction* KernelBinary::FunctionBySymbol(const void* symbol) const {
  for (KernelFunction* f : functions_) {
    if (f->desc().function == symbol || reinterpret_cast<const void*>(f->desc().entry) == symbol) return f;
  }
  return nullptr;
}

Status KernelBinary::Global(const char* name, void** address, size_t* size) const {
  void* sym = dlsym(dl_, name);
  if (sym == nullptr) {
    return Err(ACL_ERROR_RT_PARAM_INVALID,
               "kernel binary {} exports no global named '{}' (kernel binaries are built with hidden visibility: "
               "declare it __attribute__((visibility(\"default\"))))",
               origin_, name);
  }
  Dl_info info;
  void* entry = nullptr;
  size_t bytes = 0;
  if (dladdr1(sym, &info, &entry, RTLD_DL_SYMENT) != 0 && entry != nullptr) {
    bytes = static_cast<const ElfW(Sym)*>(entry)->st_size;
  }
  if (address != nullptr) *address = sym;
  if (size != nullptr) *size = bytes;
  return Status::Ok();
}

void KernelBinary::SetExceptionCallback(aclrtOpExceptionCallback callback, void* user_data) {
  std::lock_guard<std::mutex> lock(callback_mu_);
  callback_ = callback;
  callback_data_ = user_data;
}

void KernelBinary::RunExceptionCallback(aclrtExceptionInfo* info) const {
  aclrtOpExceptionCallback cb;
  void* data;
  {
    std::lock_guard<std::mutex> lock(callback_mu_);
    cb = callback_;
    data = callback_data_;
  }
  if (cb != nullptr) cb(info, data);
}

Status KernelBinary::Unload() {
  if (!Invalidate()) return Err(ACL_ERROR_RT_INVALID_HANDLE, "kernel binary {} was already unloaded", origin_);
  for (KernelFunction* f : functions_) f->Invalidate();
  {
    std::lock_guard<std::mutex> lock(g_loaded_mu);
    g_loaded.erase(std::remove(g_loaded.begin(), g_loaded.end(), this), g_loaded.end());
  }
  unloading_.store(true, std::memory_order_seq_cst);
  ReleaseIfIdle();
  return Status::Ok();
}

void KernelBinary::EndLaunch() {
  finished_.fetch_add(1, std::memory_order_seq_cst);
  if (unloading_.load(std::memory_order_seq_cst)) ReleaseIfIdle();
}

void KernelBinary::ReleaseIfIdle() {
  // Unload stores unloading_ then reads the counters; EndLaunch bumps finished_ then reads unloading_
  // (all sequentially consistent): at least one of them sees both, and released_ lets only one release.
  if (finished_.load(std::memory_order_seq_cst) != launched_.load(std::memory_order_seq_cst)) return;
  if (!released_.exchange(true, std::memory_order_acq_rel)) Release();
}

std::vector<Ref<KernelBinary>> KernelBinary::Loaded() {
  std::lock_guard<std::mutex> lock(g_loaded_mu);
  std::vector<Ref<KernelBinary>> out;
  for (KernelBinary* b : g_loaded) out.emplace_back(b);
  return out;
}

StatusOr<BinaryImage*> BinaryImage::Create(const void* data, size_t size) {
  if (data == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "data is a null pointer");
  if (size == 0) return Err(ACL_ERROR_INVALID_PARAM, "dataLen is 0");
  BinaryImage* img = NewHandle<BinaryImage>(data, size);
  if (img == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for binary images");
  return img;
}

}  // namespace npurt::core
