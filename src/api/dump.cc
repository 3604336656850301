// Entry points: data dump (acl/acl_dump.h), and the exception dump written when a device task fails.
//
// Where dumps go: NPU_COLLECT_PATH > ASCEND_WORK_PATH > the JSON "dump": {"dump_path"} > the
// current directory; exception data lands in <root>/extra-info/data-dump/<device id>/ (CANN's layout).
// A failed task is dumped automatically when NPU_COLLECT_PATH is set or a JSON (aclInit or aclmdlSetDump)
// "dump_scene" asks for an exception dump (aic_err_brief_dump, aic_err_norm_dump, aic_err_detail_dump,
// lite_exception): a JSON description of the task plus, for a task with an argument block (kernels fill
// rtExceptionInfo's dev_args), the argument bytes and every device allocation an argument points to.
// The operator data dump (aclmdl*Dump, the aclInit "dump" section) and the argument dump
// (aclopStartDumpArgs) are configured here and done by core/dump/dump_config, ops/op_dump and core/dump/dump_args
// (docs/dump.md).
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "api/api_common.h"
#include "base/env.h"
#include "core/context.h"
#include "core/device.h"
#include "core/exception.h"
#include "core/dump/dump_config.h"
#include "core/dump/dump_writer.h"
#include "core/memory/memory_ops.h"
#include "core/runtime.h"
#include "dfx/log.h"
#include "dfx/plog_file.h"

using npurt::Err;
using npurt::RawEnum;

namespace {

constexpr size_t kMaxDumpBytesPerBuffer = 256u << 20;

using npurt::core::dump::Emit;
using npurt::core::dump::TimeStamp;

std::string DumpRoot() {
  if (const char* p = npurt::env::Raw(npurt::env::Var::kCollectPath); p != nullptr && *p != '\0') return p;
  if (const char* p = npurt::env::Raw(npurt::env::Var::kWorkPath); p != nullptr && *p != '\0') return p;
  std::string json = npurt::core::dump::ExceptionDumpPath();
  if (!json.empty()) return json;
  char cwd[4096];
  return getcwd(cwd, sizeof cwd) != nullptr ? cwd : ".";
}

// An absolute, normalised path as CANN gives it (the realpath of <root>/extra-info/data-dump/<device>): a
// relative acl.json dump_path such as "./" gives "<cwd>/extra-info/data-dump/0", never ".//extra-info/...".
std::string ExceptionDir(int32_t device) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(DumpRoot(), ec);
  if (ec) dir = DumpRoot();
  dir /= "extra-info";
  dir /= "data-dump";
  dir /= std::to_string(device);
  return dir.lexically_normal().string();
}

bool AutoExceptionDump() {
  if (const char* p = npurt::env::Raw(npurt::env::Var::kCollectPath); p != nullptr && *p != '\0') return true;
  return npurt::core::dump::ExceptionScene();
}

// Copies `size` bytes at `addr` (device or host memory) into `out`. Device memory is read as aclrtMemcpy
// reads it: after the kernels in flight that write it, through the device.
npurt::Status ReadBytes(const void* addr, size_t size, std::vector<uint8_t>* out) {
  out->resize(size);
  if (size == 0) return npurt::Status::Ok();
  if (npurt::core::Runtime::Get().DeviceOwning(addr) != nullptr) {
    if (aclrtMemcpy(out->data(), size, addr, size, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
      return Err(ACL_ERROR_INVALID_PARAM, "cannot read {} bytes of device memory at {}", size, addr);
    }
  } else {
    std::memcpy(out->data(), addr, size);
  }
  return npurt::Status::Ok();
}

// Dumps a failed task: called on the executing thread by the exception machinery.
void DumpFailedTask(rtExceptionInfo* info) {
  if (info == nullptr || !AutoExceptionDump()) return;
  const std::string dir = ExceptionDir(static_cast<int32_t>(info->device_id));
  if (!npurt::dfx::MakeDirs(dir)) {
    NPURT_LOG_ERROR("DUMP", "cannot create the exception dump directory {}", dir);
    return;
  }
  const std::string base = fmt::format("{}/exception_task{}_stream{}.{}.{}", dir, info->task_id, info->stream_id,
                                       getpid(), TimeStamp());
  nlohmann::json doc;
  doc["task_id"] = info->task_id;
  doc["stream_id"] = info->stream_id;
  doc["device_id"] = info->device_id;
  doc["thread_id"] = info->thread_id;
  doc["error_code"] = info->error_code;
  doc["pid"] = getpid();
  nlohmann::json buffers = nlohmann::json::array();
  if (info->dev_args != nullptr && info->dev_args_len > 0) {
    std::vector<uint8_t> args(static_cast<const uint8_t*>(info->dev_args),
                              static_cast<const uint8_t*>(info->dev_args) + info->dev_args_len);
    (void)Emit(base + ".args.bin", args.data(), args.size());
    doc["args_file"] = base + ".args.bin";
    doc["args_bytes"] = args.size();
    // Every 8-byte argument that points into a live device allocation: dump the whole allocation, so
    // the kernel can be re-run on the same inputs.
    npurt::core::Device* dev = npurt::core::Runtime::Get().OpenedDevice(static_cast<int32_t>(info->device_id));
    for (size_t off = 0; dev != nullptr && off + sizeof(uint64_t) <= args.size(); off += sizeof(uint64_t)) {
      uint64_t word;
      std::memcpy(&word, args.data() + off, sizeof word);
      npurt::core::AllocationInfo alloc;
      if (!dev->allocator().Lookup(reinterpret_cast<const void*>(word), &alloc)) continue;
      const size_t n = std::min(alloc.size, kMaxDumpBytesPerBuffer);
      const std::string file = fmt::format("{}.arg{}.bin", base, off / sizeof(uint64_t));
      // The failed task's stream is stopped, so the bytes are stable; they are read through the device.
      std::vector<uint8_t> bytes(n);
      if (!npurt::core::ReadMemory(reinterpret_cast<const void*>(alloc.base), n, bytes.data(), "argument").ok()) {
        continue;
      }
      (void)Emit(file, bytes.data(), bytes.size());
      buffers.push_back({{"arg_offset", off}, {"pointer", fmt::format("{:#x}", word)},
                         {"allocation", fmt::format("{:#x}", alloc.base)}, {"bytes", n}, {"file", file}});
    }
  }
  doc["buffers"] = buffers;
  const std::string text = doc.dump(2) + "\n";
  if (Emit(base + ".json", text.data(), text.size())) {
    NPURT_LOG_ERROR("DUMP", "exception dump of task {} written to {}.json", info->task_id, base);
  }
}

struct DumpSetup {
  DumpSetup() {
    (void)npurt::core::AddExceptionCallback(&DumpFailedTask);
  }
} g_dump_setup;

}  // namespace

aclError acldumpRegCallback(acldumpMessageCallback messageCallback, int32_t flag) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(messageCallback);
  if (flag != 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flag {} is not supported (0: the callback "
                                            "receives the data instead of files)", flag));
  }
  npurt::core::dump::SetCallback(messageCallback);
  return ACL_SUCCESS;
}

void acldumpUnregCallback(void) {
  NPURT_HANDLE_SCOPE();
  npurt::core::dump::SetCallback(nullptr);
}

aclError aclopStartDumpArgs(uint32_t dumpType, const char* path) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(path);
  if (dumpType != ACL_OP_DUMP_OP_AICORE_ARGS) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dumpType {:#x} is invalid (only "
                                            "ACL_OP_DUMP_OP_AICORE_ARGS)", dumpType));
  }
  NPURT_API_CHECK(npurt::core::dump::StartArgs(path));
  return ACL_SUCCESS;
}

aclError aclopStopDumpArgs(uint32_t dumpType) {
  NPURT_HANDLE_SCOPE();
  if (dumpType != ACL_OP_DUMP_OP_AICORE_ARGS) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dumpType {:#x} is invalid (only "
                                            "ACL_OP_DUMP_OP_AICORE_ARGS)", dumpType));
  }
  npurt::core::dump::StopArgs();
  return ACL_SUCCESS;
}

aclError aclmdlInitDump(void) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::dump::ModelInit());
  return ACL_SUCCESS;
}

aclError aclmdlSetDump(const char* dumpCfgPath) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(dumpCfgPath);
  NPURT_API_CHECK(npurt::core::dump::ModelSet(dumpCfgPath));
  return ACL_SUCCESS;
}

aclError aclmdlFinalizeDump(void) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::dump::ModelFinalize());
  return ACL_SUCCESS;
}

const char* acldumpGetPath(acldumpType dumpType) {
  NPURT_HANDLE_SCOPE();
  if (RawEnum(dumpType) < AIC_ERR_BRIEF_DUMP || RawEnum(dumpType) > OVERFLOW_DUMP) {
    npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dump type {} is invalid", RawEnum(dumpType)));
    return nullptr;
  }
  thread_local std::string path;
  if (dumpType == DATA_DUMP) {
    // The operator dump's directory (aclmdlSetDump or aclInit), else aclopStartDumpArgs's; null if none.
    path = npurt::core::dump::DataDumpPath();
    return path.empty() ? nullptr : path.c_str();
  }
  path = DumpRoot();
  return path.c_str();
}

aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(path);
  int32_t device = 0;
  if (npurt::core::Context* ctx = npurt::core::CurrentContext()) device = ctx->device()->id();
  const std::string dir = ExceptionDir(device);
  if (maxLen < dir.size() + 1) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "maxLen {} is too small for the path ({} bytes)",
                                            maxLen, dir.size() + 1));
  }
  std::memcpy(path, dir.c_str(), dir.size() + 1);
  return ACL_SUCCESS;
}

aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag, const acldumpTensorInfo* tensors,
                                  size_t tensorCount) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(fileName);
  if (tensorCount > 0 && tensors == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "tensors is null but tensorCount is {}",
                                            tensorCount));
  }
  if (fileName[0] == '\0' || std::strchr(fileName, '/') != nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "fileName '{}' must be a plain file name",
                                            fileName));
  }
  int32_t device = 0;
  if (npurt::core::Context* ctx = npurt::core::CurrentContext()) device = ctx->device()->id();
  const std::string dir = ExceptionDir(device);
  const bool to_callback = npurt::core::dump::HasCallback();
  if (!to_callback && !npurt::dfx::MakeDirs(dir)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "cannot create the dump directory {}", dir));
  }
  const std::string base = fmt::format("{}/{}.{}.{}", dir, fileName, getpid(), TimeStamp());
  nlohmann::json doc;
  doc["file_name"] = fileName;
  doc["user_tag"] = userTag != nullptr ? userTag : "";
  doc["device_id"] = device;
  doc["pid"] = getpid();
  nlohmann::json list = nlohmann::json::array();
  std::vector<uint8_t> blob;
  for (size_t i = 0; i < tensorCount; ++i) {
    const acldumpTensorInfo& t = tensors[i];
    if (t.tensorAddr == nullptr) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "tensor {} has a null address", i));
    }
    if (t.shapeNum > ACL_DUMP_MAX_SHAPE_NUM || t.originShapeNum > ACL_DUMP_MAX_SHAPE_NUM) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "tensor {} has {} dims (max {})", i,
                                              t.shapeNum, ACL_DUMP_MAX_SHAPE_NUM));
    }
    if (t.placement >= ACL_DUMP_PLACEMENT_END) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "tensor {} has an invalid placement", i));
    }
    const void* data = t.tensorAddr;
    // ACL_DUMP_ADDR_PTR / PTR_PTR: the address holds the data address (once or twice removed).
    for (int hops = t.addrType == ACL_DUMP_ADDR_PTR ? 1 : t.addrType == ACL_DUMP_ADDR_PTR_PTR ? 2 : 0; hops > 0;
         --hops) {
      std::vector<uint8_t> word;
      NPURT_API_CHECK(ReadBytes(data, sizeof(uint64_t), &word));
      uint64_t next;
      std::memcpy(&next, word.data(), sizeof next);
      data = reinterpret_cast<const void*>(next);
    }
    std::vector<uint8_t> bytes;
    NPURT_API_CHECK(ReadBytes(data, t.tensorSize, &bytes));
    nlohmann::json shape = nlohmann::json::array();
    for (uint32_t d = 0; d < t.shapeNum; ++d) shape.push_back(t.shape[d]);
    list.push_back({{"index", i}, {"type", t.type == ACL_DUMP_TENSOR_INPUT    ? "input"
                                            : t.type == ACL_DUMP_TENSOR_OUTPUT ? "output"
                                                                               : "workspace"},
                    {"bytes", t.tensorSize}, {"offset", blob.size()}, {"format", t.format},
                    {"data_type", t.dataType}, {"shape", shape}, {"args_offset", t.argsOffset}});
    blob.insert(blob.end(), bytes.begin(), bytes.end());
  }
  doc["tensors"] = list;
  doc["data_file"] = base + ".bin";
  if (!Emit(base + ".bin", blob.data(), blob.size())) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "cannot write {}.bin", base));
  }
  const std::string text = doc.dump(2) + "\n";
  if (!Emit(base + ".json", text.data(), text.size())) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "cannot write {}.json", base));
  }
  return ACL_SUCCESS;
}
