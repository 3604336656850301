#include "core/kernel/kernel_launch.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>

#include "acl/error_codes/rt_error_codes.h"
#include "base/futex.h"
#include "base/shared_write.h"
#include "core/device.h"
#include "core/dump/dump_args.h"
#include "core/dump/dump_config.h"
#include "core/kernel/kernel_memcheck.h"
#include "core/kernel/launch_records.h"
#include "core/kernel/overflow.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace npurt::core {
namespace {

// The cores a launch may use (aclrtSetStreamResLimit, else aclrtSetDeviceResLimit): the tighter of the
// cube- and vector-core limits, 0 when none is set.
uint32_t CoreLimit(const Stream* stream) {
  auto tighter = [](const std::atomic<uint32_t>* limits) {
    const uint32_t a = limits[0].load(std::memory_order_relaxed);
    const uint32_t b = limits[1].load(std::memory_order_relaxed);
    return a == 0 ? b : (b == 0 ? a : std::min(a, b));
  };
  const uint32_t own = tighter(stream->res_limit);
  return own != 0 ? own : tighter(stream->device()->res_limit);
}

void FinishLaunch(void* arg) { FinishLaunchRecord(static_cast<LaunchRecord*>(arg)); }

}  // namespace

StatusOr<LaunchSettings> ParseLaunchConfig(const aclrtLaunchKernelCfg* cfg, const Stream* stream) {
  LaunchSettings s;
  if (cfg == nullptr || cfg->numAttrs == 0) return s;
  if (cfg->attrs == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "cfg->attrs is a null pointer but cfg->numAttrs is {}", cfg->numAttrs);
  }
  for (size_t i = 0; i < cfg->numAttrs; ++i) {
    const aclrtLaunchKernelAttr& a = cfg->attrs[i];
    switch (RawEnum(a.id)) {
      case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
      case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
      case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
        if (const uint64_t ub = stream->device()->info().caps.unified_buffer_bytes; a.value.dynUBufSize > ub) {
          return Err(ACL_ERROR_INVALID_PARAM, "dynamic UB size {} exceeds the {}-byte unified buffer of a core",
                     a.value.dynUBufSize, ub);
        }
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
        if (a.value.engineType != ACL_RT_ENGINE_TYPE_AIC && a.value.engineType != ACL_RT_ENGINE_TYPE_AIV) {
          return Err(ACL_ERROR_INVALID_PARAM, "engine type {} is neither AIC (0) nor AIV (1)",
                     static_cast<int>(a.value.engineType));
        }
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
        s.block_offset = a.value.blockDimOffset;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
        if (a.value.isDataDump != 0) {
          return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "kernel data dump is not supported by the simulated NPU");
        }
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
        s.timeout_set = true;
        s.timeout_ns = static_cast<uint64_t>(a.value.timeout) * 1000000000ull;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
        s.timeout_set = true;
        s.timeout_ns = ((static_cast<uint64_t>(a.value.timeoutUs.timeoutHigh) << 32) | a.value.timeoutUs.timeoutLow) *
                       1000ull;
        break;
      default:
        return Err(ACL_ERROR_INVALID_PARAM, "launch attribute id {} is unknown", RawEnum(a.id));
    }
  }
  return s;
}

Status LaunchKernel(KernelFunction* function, uint32_t num_blocks, Stream* stream, const LaunchSettings& settings,
                    const LaunchArgs& args) {
  if (const uint32_t most = stream->device()->info().caps.max_blocks_per_launch; num_blocks == 0 || num_blocks > most) {
    return Err(ACL_ERROR_INVALID_PARAM, "numBlocks {} of kernel '{}' is out of range (1..{})", num_blocks,
               function->name(), most);
  }
  const RecordLease lease = AcquireLaunchRecord(stream);
  LaunchRecord* r = lease.record;
  // A ring record was last read by the executor that ran its previous launch, usually of the same kernel:
  // each field is stored only if it changed (base/shared_write.h), so that the record's lines stay shared
  // by both cores instead of travelling to this one and back.
  if (args.device_resident || args.size == 0) {
    StoreIfChanged(r->hal.args, args.data);
  } else {
    uint8_t* copy = r->Buffer(args.size);
    CopyChangedWords(copy, args.data, args.size);
    for (size_t i = 0; i < args.placeholder_count; ++i) {
      void* data = copy + args.placeholders[i].data_offset;
      CopyChangedWords(copy + args.placeholders[i].param_offset, &data, sizeof data);
    }
    StoreIfChanged(r->hal.args, static_cast<const void*>(copy));
  }
  StoreIfChanged(r->hal.code, function->code());
  StoreIfChanged(r->hal.args_size, args.size);
  StoreIfChanged(r->hal.num_blocks, num_blocks);
  StoreIfChanged(r->hal.block_offset, settings.block_offset);
  StoreIfChanged(r->hal.max_cores, CoreLimit(stream));
  StoreIfChanged(r->hal.timeout_ns, settings.timeout_set
                                        ? settings.timeout_ns
                                        : Runtime::Get().op_execute_timeout_us.load(std::memory_order_relaxed) * 1000);
  StoreIfChanged(r->hal.name, function->name());
  StoreIfChanged(r->hal.on_vector_cores, static_cast<uint8_t>(function->on_vector_cores()));
  StoreIfChanged(r->hal.cooperative, static_cast<uint8_t>(function->cooperative()));
  StoreIfChanged(r->hal.mix, function->mix());
  StoreIfChanged(r->hal.owner, static_cast<void*>(r));
  StoreIfChanged(r->hal.check_memory, MemcheckEnabled() ? &MemcheckDescribe : nullptr);
  // Set by blocks that overflowed (atomically); read once every block has finished.
  if (__atomic_load_n(&r->hal.overflowed, __ATOMIC_RELAXED) != 0) r->hal.overflowed = 0;
  StoreIfChanged(r->check_overflow, OverflowChecked(stream) ? stream->device() : nullptr);
  StoreIfChanged(r->function, function);
  StoreIfChanged(r->binary, function->binary());
  r->binary->BeginLaunch();

  hal::Task t;
  t.kind = hal::TaskKind::kKernel;
  t.kernel = &r->hal;
  t.cleanup = &FinishLaunch;
  t.cleanup_arg = r;
  if (dump::Switches() & dump::kArgs) [[unlikely]] SubmitKernelArgsDump(stream, &r->hal, &t);
  CommitLaunchRecord(lease, stream->Submit(t));
  return Status::Ok();
}

KernelFunction* LaunchFunction(const hal::KernelLaunch* launch) {
  return static_cast<const LaunchRecord*>(launch->owner)->function;
}

void PackArgsArray(const KernelFunction& function, void* const* args, std::vector<uint8_t>* block) {
  block->assign(function.args_size(), 0);
  for (uint32_t i = 0; i < function.param_count(); ++i) {
    const npurt_kernel_param& p = function.param(i);
    std::memcpy(block->data() + p.offset, args[i], p.size);
  }
}

void FillKernelExceptionInfo(const hal::KernelLaunch* launch, rtExceptionInfo* info) {
  const auto* r = static_cast<const LaunchRecord*>(launch->owner);
  info->func = r->function;
  info->dev_args = const_cast<void*>(launch->args);
  info->dev_args_len = static_cast<uint32_t>(launch->args_size);
}

void RunKernelExceptionCallback(const hal::KernelLaunch* launch, rtExceptionInfo* info) {
  const auto* r = static_cast<const LaunchRecord*>(launch->owner);
  if (r->binary != nullptr) r->binary->RunExceptionCallback(info);
}

}  // namespace npurt::core
