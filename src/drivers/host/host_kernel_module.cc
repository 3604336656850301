#include "drivers/host/host_kernel_module.h"

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
#include <cstring>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "base/env.h"
#include "drivers/host/host_kernel_elf.h"
#include "drivers/host/host_kernel_table_check.h"

namespace npurt::drivers::host {
namespace {

// Size of the code of the symbol at `addr` (0 if the loader does not know it).
size_t SymbolSize(const void* addr) {
  Dl_info info;
  void* sym = nullptr;
  if (addr != nullptr && dladdr1(addr, &info, &sym, RTLD_DL_SYMENT) != 0 && sym != nullptr) {
    return static_cast<const ElfW(Sym)*>(sym)->st_size;
  }
  return 0;
}

class HostKernelModule;
std::mutex g_live_mu;
std::vector<const HostKernelModule*> g_live;  // every module not yet destroyed (LoadData's alias check)

class HostKernelModule final : public hal::KernelModule {
 public:
  HostKernelModule(void* dl, const npurt_kernel_table_t* table) : dl_(dl), table_(table) {
    Dl_info info;
    if (dladdr(table, &info) != 0) image_ = info.dli_fbase;
    kernels_.reserve(table->kernel_count);
    for (uint32_t i = 0; i < table->kernel_count; ++i) {
      const npurt_kernel_desc* d = table->kernels[i];
      const void* code = reinterpret_cast<const void*>(d->entry);
      // aclrtGetFunctionAddr reports the kernel's own code where the binary has it, else the entry's.
      kernels_.push_back({d, code, SymbolSize(d->function != nullptr ? d->function : code)});
    }
    std::lock_guard<std::mutex> lock(g_live_mu);
    g_live.push_back(this);
  }
  ~HostKernelModule() override {
    {
      std::lock_guard<std::mutex> lock(g_live_mu);
      g_live.erase(std::remove(g_live.begin(), g_live.end(), this), g_live.end());
    }
    dlclose(dl_);
    if (image_fd_ >= 0) close(image_fd_);
  }
  HostKernelModule(const HostKernelModule&) = delete;
  HostKernelModule& operator=(const HostKernelModule&) = delete;

  const std::vector<hal::KernelInfo>& kernels() const override { return kernels_; }
  const char* library() const override { return table_->library != nullptr ? table_->library : ""; }
  const void* image() const override { return image_; }
  size_t image_size() const override { return image_size_; }

  Status Global(const char* name, const std::string& origin, void** address, size_t* size) const override {
    void* sym = dlsym(dl_, name);
    if (sym == nullptr) {
      return Err(ACL_ERROR_RT_PARAM_INVALID,
                 "kernel binary {} exports no global named '{}' (kernel binaries are built with hidden visibility: "
                 "declare it __attribute__((visibility(\"default\"))))",
                 origin, name);
    }
    if (address != nullptr) *address = sym;
    if (size != nullptr) *size = SymbolSize(sym);
    return Status::Ok();
  }

  const npurt_kernel_table_t* table() const { return table_; }
  void set_image_size(size_t size) { image_size_ = size; }
  // LoadData: the memory file behind the mapping, kept open while the module lives so that its
  // /proc/self/fd name stays unique.
  void set_image_fd(int fd) { image_fd_ = fd; }

 private:
  void* dl_;
  const npurt_kernel_table_t* table_;
  const void* image_ = nullptr;
  size_t image_size_ = 0;
  int image_fd_ = -1;
  std::vector<hal::KernelInfo> kernels_;
};

using ModuleOr = StatusOr<std::unique_ptr<HostKernelModule>>;

ModuleOr Open(const std::string& dl_path, const std::string& origin) {
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
    // Magic, ABI version, and every pointer, count and offset of the table.
    bad = CheckKernelTable(dl, table, origin);
  }
  if (!bad.ok()) {
    dlclose(dl);
    return bad;
  }
  return std::make_unique<HostKernelModule>(dl, table);
}

// The image of `image_fd` through a uniquely named file: for a dynamic loader that kept an earlier object
// of the memory file's name mapped.
ModuleOr OpenFromTempFile(int image_fd, const std::string& origin) {
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
  auto module = ok ? Open(path, origin) : Err(ACL_ERROR_RT_FILE_WRITE, "cannot write kernel image to {}", path);
  unlink(path.c_str());  // the mapping stays; the name is never reused within this process
  return module;
}

class HostKernelLoader final : public hal::KernelLoader {
 public:
  StatusOr<std::unique_ptr<hal::KernelModule>> LoadFile(const char* path, const std::string& origin) const override {
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
    auto module = Open(dl_path, origin);
    if (!module.ok()) return module.status();
    module.value()->set_image_size(static_cast<size_t>(st.st_size));
    return std::unique_ptr<hal::KernelModule>(std::move(module.value()));
  }

  StatusOr<std::unique_ptr<hal::KernelModule>> LoadData(const void* data, size_t size,
                                                        const std::string& origin) const override {
    NPURT_RETURN_IF_ERROR(CheckElfHeader(static_cast<const uint8_t*>(data), size, origin));
    NPURT_RETURN_IF_ERROR(CheckElfSegments(static_cast<const uint8_t*>(data), size, origin));
    // The dynamic loader maps files: give the image one (an anonymous memory file, gone after dlopen).
    const int fd = memfd_create("npurt-kernel-binary", MFD_CLOEXEC);
    if (fd < 0) {
      return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "memfd_create for a kernel image failed: {}", std::strerror(errno));
    }
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
    // no loaded object has that name, so the descriptor stays open as long as the module lives (an open
    // descriptor's number is not reused). A loader that kept an earlier object of that name mapped anyway
    // is detected (the table of a live module comes back) and the image goes through a uniquely named file.
    std::vector<const npurt_kernel_table_t*> tables;
    {
      std::lock_guard<std::mutex> lock(g_live_mu);
      for (const HostKernelModule* m : g_live) tables.push_back(m->table());
    }
    auto module = Open(fmt::format("/proc/self/fd/{}", fd), origin);
    if (module.ok() && std::find(tables.begin(), tables.end(), module.value()->table()) != tables.end()) {
      module.value().reset();  // drops the alias's reference to the earlier object
      module = OpenFromTempFile(fd, origin);
    }
    if (!module.ok()) {
      close(fd);
      return module.status();
    }
    module.value()->set_image_size(size);
    module.value()->set_image_fd(fd);
    return std::unique_ptr<hal::KernelModule>(std::move(module.value()));
  }
};

}  // namespace

const hal::KernelLoader* KernelLoader() {
  static const HostKernelLoader* loader = new HostKernelLoader();
  return loader;
}

}  // namespace npurt::drivers::host
