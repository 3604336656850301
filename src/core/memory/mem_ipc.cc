#include "core/memory/mem_ipc.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "base/env.h"
#include "core/device.h"
#include "core/memory/mem_vmm.h"
#include "dfx/log.h"
#include "hal/hal.h"

namespace npurt::core {
namespace {

constexpr uint32_t kRecordMagic = 0x4e504952;  // "NPIR"
constexpr uint32_t kRecordVersion = 1;
constexpr size_t kMaxRuns = 64;
constexpr size_t kMaxPids = 1024;
constexpr const char* kKeyPrefix = "npurt-ipc-";
constexpr const char* kHandlePrefix = "npurt-shh-";

struct Run {
  uint64_t offset;
  uint64_t size;
};

// The file shared between exporter and importers (fixed layout, written with one write()).
struct Record {
  uint32_t magic = kRecordMagic;
  uint32_t version = kRecordVersion;
  hal::MemoryShareToken token{};
  int32_t exporter_pid = 0;
  uint32_t pid_validation = 1;
  uint64_t size = 0;         // bytes the importer sees
  uint64_t inner = 0;        // offset of the exported address in its first page
  uint32_t run_count = 0;
  uint32_t pid_count = 0;
  int32_t link = 0;          // aclrtIpcMemSetAttr(ACCESS_LINK)
  int32_t mem_attr = 0;      // shareable handles: aclrtPhysicalMemProp.memAttr
  Run runs[kMaxRuns];
  int32_t pids[kMaxPids];
};

std::string Dir() {
  if (const char* d = npurt::env::Raw(npurt::env::Var::kIpcDir); d != nullptr && d[0] != '\0') return d;
  struct stat st {};
  return stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
}

std::string PathOf(const std::string& name) { return Dir() + "/" + name; }

Status WriteRecord(const std::string& name, const Record& r) {
  const std::string path = PathOf(name);
  const std::string tmp = path + ".tmp";
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Err(ACL_ERROR_RT_INTERNAL_ERROR, "cannot write {}: {}", tmp, std::strerror(errno));
  const ssize_t n = write(fd, &r, sizeof r);
  close(fd);
  if (n != static_cast<ssize_t>(sizeof r) || rename(tmp.c_str(), path.c_str()) != 0) {
    unlink(tmp.c_str());
    return Err(ACL_ERROR_RT_INTERNAL_ERROR, "cannot write {}: {}", path, std::strerror(errno));
  }
  return Status::Ok();
}

StatusOr<Record> ReadRecord(const std::string& name) {
  const std::string path = PathOf(name);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "'{}' is not an exported memory (no {}: never exported, closed, or the "
               "exporting process exited)", name, path);
  }
  Record r;
  const ssize_t n = read(fd, &r, sizeof r);
  close(fd);
  if (n != static_cast<ssize_t>(sizeof r) || r.magic != kRecordMagic || r.version != kRecordVersion ||
      r.run_count == 0 || r.run_count > kMaxRuns || r.pid_count > kMaxPids) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} is not a valid export record", path);
  }
  return r;
}

Status CheckPid(const Record& r, const std::string& name) {
  if (r.pid_validation == 0 || r.exporter_pid == getpid()) return Status::Ok();
  const int32_t self = getpid();
  if (std::find(r.pids, r.pids + r.pid_count, self) != r.pids + r.pid_count) return Status::Ok();
  return Err(ACL_ERROR_RT_NO_PERMISSION,
             "process {} may not import '{}': the exporter (process {}) has not allowed it ({} process(es) allowed; "
             "see aclrtIpcMemSetImportPid / aclrtMemSetPidToShareableHandle)",
             self, name, r.exporter_pid, r.pid_count);
}

// Parses "<prefix><pid>-<serial>".
bool ParseName(const std::string& name, const char* prefix, int32_t* pid, uint32_t* serial) {
  const size_t plen = std::strlen(prefix);
  if (name.compare(0, plen, prefix) != 0) return false;
  unsigned long p = 0, s = 0;
  char tail = 0;
  if (std::sscanf(name.c_str() + plen, "%lu-%lu%c", &p, &s, &tail) != 2) return false;
  if (p == 0 || p > INT32_MAX || s > UINT32_MAX) return false;
  *pid = static_cast<int32_t>(p);
  *serial = static_cast<uint32_t>(s);
  return true;
}

std::string NameOf(const char* prefix, int32_t pid, uint32_t serial) {
  return fmt::format("{}{}-{}", prefix, pid, serial);
}

std::string HandleName(uint64_t handle) {
  return NameOf(kHandlePrefix, static_cast<int32_t>(handle >> 32), static_cast<uint32_t>(handle));
}

// What this process exported and imported.
struct Import {
  Device* device;
  uintptr_t va;
  size_t span;
  std::vector<uintptr_t> mappings;
};

struct IpcRegistry {
  std::mutex mu;
  uint32_t next_serial = 1;
  std::map<std::string, Record> exports;  // name -> record as written
  std::map<std::string, Import> imports;  // key -> mapping
  ~IpcRegistry() {
    // Process exit: importers must not find records of memory that is gone.
    for (const auto& [name, r] : exports) unlink(PathOf(name).c_str());
  }
};

IpcRegistry& Ipc() {
  static IpcRegistry r;
  return r;
}

Status RecordRanges(Record* r, const std::vector<std::pair<uint64_t, uint64_t>>& runs) {
  if (runs.size() > kMaxRuns) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the range spans {} separate physical runs (at most {} can be shared)",
               runs.size(), kMaxRuns);
  }
  r->run_count = static_cast<uint32_t>(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) r->runs[i] = {runs[i].first, runs[i].second};
  return Status::Ok();
}

Status AddPids(const std::string& name, const int32_t* pids, size_t count) {
  if (pids == nullptr || count == 0) return Err(ACL_ERROR_INVALID_PARAM, "the pid list is empty");
  for (size_t i = 0; i < count; ++i) {
    if (pids[i] <= 0) return Err(ACL_ERROR_INVALID_PARAM, "pid[{}] = {} is not a process id", i, pids[i]);
  }
  IpcRegistry& reg = Ipc();
  std::lock_guard<std::mutex> lock(reg.mu);
  auto it = reg.exports.find(name);
  if (it == reg.exports.end()) {
    return Err(ACL_ERROR_INVALID_PARAM, "'{}' was not exported by this process (or was closed)", name);
  }
  Record& r = it->second;
  for (size_t i = 0; i < count; ++i) {
    if (std::find(r.pids, r.pids + r.pid_count, pids[i]) != r.pids + r.pid_count) continue;
    if (r.pid_count == kMaxPids) return Err(ACL_ERROR_INVALID_PARAM, "more than {} processes allowed", kMaxPids);
    r.pids[r.pid_count++] = pids[i];
  }
  return WriteRecord(name, r);
}

StatusOr<Record> NewRecord(Device* device, bool pid_validation) {
  Record r;
  auto token = device->hal()->ExportMemory();
  if (!token.ok()) return token.status();
  r.token = token.value();
  r.exporter_pid = getpid();
  r.pid_validation = pid_validation ? 1 : 0;
  return r;
}

}  // namespace

StatusOr<std::string> IpcExportRange(Device* device, void* ptr, size_t size, bool pid_validation) {
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  uint64_t inner = 0;
  NPURT_RETURN_IF_ERROR(device->allocator().PhysicalExtents(ptr, size, &runs, &inner));
  auto r = NewRecord(device, pid_validation);
  if (!r.ok()) return r.status();
  NPURT_RETURN_IF_ERROR(RecordRanges(&r.value(), runs));
  r->size = size;
  r->inner = inner;
  IpcRegistry& reg = Ipc();
  std::lock_guard<std::mutex> lock(reg.mu);
  const std::string name = NameOf(kKeyPrefix, getpid(), reg.next_serial++);
  NPURT_RETURN_IF_ERROR(WriteRecord(name, r.value()));
  reg.exports.emplace(name, r.value());
  return name;
}

Status IpcAllowPids(const std::string& key, const int32_t* pids, size_t count) { return AddPids(key, pids, count); }

Status IpcSetAttribute(const std::string& key, int32_t type, uint64_t value) {
  if (type != 0) return Err(ACL_ERROR_INVALID_PARAM, "IPC attribute {} is unknown", type);
  if (value > 3) return Err(ACL_ERROR_INVALID_PARAM, "access link {} is unknown (0..3)", value);
  IpcRegistry& reg = Ipc();
  std::lock_guard<std::mutex> lock(reg.mu);
  auto it = reg.exports.find(key);
  if (it == reg.exports.end()) {
    return Err(ACL_ERROR_INVALID_PARAM, "'{}' was not exported by this process (or was closed)", key);
  }
  it->second.link = static_cast<int32_t>(value);
  return WriteRecord(key, it->second);
}

StatusOr<void*> IpcImport(Device* device, const std::string& key) {
  int32_t pid = 0;
  uint32_t serial = 0;
  if (!ParseName(key, kKeyPrefix, &pid, &serial)) {
    return Err(ACL_ERROR_INVALID_PARAM, "'{}' is not an IPC key (expected {}<pid>-<n>)", key, kKeyPrefix);
  }
  {
    IpcRegistry& reg = Ipc();
    std::lock_guard<std::mutex> lock(reg.mu);
    if (reg.imports.count(key) != 0) {
      return Err(ACL_ERROR_INVALID_PARAM, "'{}' is already imported by this process (close it first)", key);
    }
  }
  auto r = ReadRecord(key);
  if (!r.ok()) return r.status();
  if (r->exporter_pid != pid) return Err(ACL_ERROR_INVALID_PARAM, "the record of '{}' names another process", key);
  NPURT_RETURN_IF_ERROR(CheckPid(r.value(), key));
  uint64_t span = 0;
  for (uint32_t i = 0; i < r->run_count; ++i) span += r->runs[i].size;
  VmmSpace& vmm = device->allocator().vmm();
  auto va = vmm.Reserve(span, kPhysicalPage, 0);
  if (!va.ok()) return va.status();
  Import imp{device, va.value(), span, {}};
  auto undo = [&]() {
    for (uintptr_t m : imp.mappings) (void)vmm.Unmap(m);
    (void)vmm.Release(imp.va);
  };
  uintptr_t at = va.value();
  for (uint32_t i = 0; i < r->run_count; ++i) {
    // One import per run: each PhysicalMemory releases its own.
    auto source = device->hal()->ImportMemory(r->token);
    if (!source.ok()) {
      undo();
      return source.status();
    }
    PhysicalProps props;
    props.location_id = static_cast<uint32_t>(device->id());
    auto phys = PhysicalMemory::Import(&device->allocator().memory(), device->id(), source.value(), r->runs[i].offset,
                                       r->runs[i].size, props);
    if (!phys.ok()) {
      undo();
      return phys.status();
    }
    Status st = vmm.Map(at, r->runs[i].size, 0, phys.value(), hal::MemoryAccess::kReadWrite);
    phys.value()->ReleaseApi();  // the mapping holds it now
    if (!st.ok()) {
      undo();
      return st;
    }
    imp.mappings.push_back(at);
    at += r->runs[i].size;
  }
  void* out = reinterpret_cast<void*>(imp.va + r->inner);
  IpcRegistry& reg = Ipc();
  std::lock_guard<std::mutex> lock(reg.mu);
  reg.imports.emplace(key, std::move(imp));
  return out;
}

constexpr int64_t kCloseDrainMs = 10000;

Status IpcClose(const std::string& key) {
  IpcRegistry& reg = Ipc();
  std::unique_lock<std::mutex> lock(reg.mu);
  if (auto it = reg.imports.find(key); it != reg.imports.end()) {
    Import imp = std::move(it->second);
    reg.imports.erase(it);
    lock.unlock();
    // Work queued before the close may still read the mapping (a kernel launched just before it): let the
    // device's streams get past it before the pages go away (bounded: a stream blocked on a wait that is
    // never satisfied must not hang the close). Their errors are theirs, not the close's.
    Status drained = imp.device->Synchronize(kCloseDrainMs);
    if (drained.code() == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) {
      NPURT_LOG_WARNING("RUNTIME", "aclrtIpcMemClose('{}'): device {} still busy after {} ms; unmapping anyway", key,
                     imp.device->id(), kCloseDrainMs);
    }
    VmmSpace& vmm = imp.device->allocator().vmm();
    for (uintptr_t m : imp.mappings) NPURT_RETURN_IF_ERROR(vmm.Unmap(m));
    return vmm.Release(imp.va);
  }
  if (auto it = reg.exports.find(key); it != reg.exports.end()) {
    unlink(PathOf(key).c_str());
    reg.exports.erase(it);
    return Status::Ok();
  }
  return Err(ACL_ERROR_INVALID_PARAM, "'{}' is neither imported nor exported by this process (or already closed)", key);
}

StatusOr<uint64_t> ShareablePhysicalExport(PhysicalMemory* memory, bool pid_validation) {
  if (memory->imported()) {
    return Err(ACL_ERROR_INVALID_PARAM, "the handle was imported from another process: only its owner can export it");
  }
  DeviceMemory* dm = memory->memory();
  if (dm->hal() == nullptr) return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the device cannot share memory");
  Record r;
  auto token = dm->hal()->ExportMemory();
  if (!token.ok()) return token.status();
  r.token = token.value();
  r.exporter_pid = getpid();
  r.pid_validation = pid_validation ? 1 : 0;
  r.size = memory->size();
  r.run_count = 1;
  r.runs[0] = {memory->offset(), memory->size()};
  r.mem_attr = memory->props().mem_attr;
  IpcRegistry& reg = Ipc();
  std::lock_guard<std::mutex> lock(reg.mu);
  const uint32_t serial = reg.next_serial++;
  const uint64_t handle = (static_cast<uint64_t>(static_cast<uint32_t>(getpid())) << 32) | serial;
  const std::string name = HandleName(handle);
  NPURT_RETURN_IF_ERROR(WriteRecord(name, r));
  reg.exports.emplace(name, r);
  memory->export_records.push_back(PathOf(name));  // removed when the physical memory is freed
  return handle;
}

Status ShareableAllowPids(uint64_t handle, const int32_t* pids, size_t count) {
  return AddPids(HandleName(handle), pids, count);
}

StatusOr<PhysicalMemory*> ShareablePhysicalImport(Device* device, uint64_t handle) {
  const std::string name = HandleName(handle);
  if ((handle >> 32) == 0) return Err(ACL_ERROR_INVALID_PARAM, "{:#x} is not a shareable handle", handle);
  auto r = ReadRecord(name);
  if (!r.ok()) return r.status();
  NPURT_RETURN_IF_ERROR(CheckPid(r.value(), name));
  auto source = device->hal()->ImportMemory(r->token);
  if (!source.ok()) return source.status();
  PhysicalProps props;
  props.mem_attr = r->mem_attr;
  props.location_id = static_cast<uint32_t>(device->id());
  return PhysicalMemory::Import(&device->allocator().memory(), device->id(), source.value(), r->runs[0].offset,
                                r->runs[0].size, props);
}

void ShareableToFabric(uint64_t handle, uint8_t out[128]) {
  std::memset(out, 0, 128);
  const std::string name = HandleName(handle);
  std::memcpy(out, name.data(), std::min<size_t>(name.size(), 127));
}

StatusOr<uint64_t> ShareableFromFabric(const uint8_t in[128]) {
  const std::string name(reinterpret_cast<const char*>(in), strnlen(reinterpret_cast<const char*>(in), 128));
  int32_t pid = 0;
  uint32_t serial = 0;
  if (!ParseName(name, kHandlePrefix, &pid, &serial)) {
    return Err(ACL_ERROR_INVALID_PARAM, "the fabric handle does not name an exported allocation");
  }
  return (static_cast<uint64_t>(static_cast<uint32_t>(pid)) << 32) | serial;
}

}  // namespace npurt::core
