#include "core/kernel/kernel_args.h"

#include <cstring>
#include <deque>
#include <mutex>
#include <unordered_map>

#include "acl/error_codes/rt_error_codes.h"
#include "core/handle_tags.h"

namespace npurt::core {
namespace {

// Room for placeholder data in a runtime-owned list (CANN recommends placeholders under 2 KiB each).
constexpr size_t kPlaceholderBytes = 64 * 1024;
constexpr size_t kAlign = 8;
// User-memory lists remembered at most (the oldest is forgotten first).
constexpr size_t kMaxUserLists = 4096;

size_t AlignUp(size_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

// The lists aclrtKernelArgsInit handed out on this thread, oldest first out.
struct RecycleRing {
  KernelArgs* ring[KernelArgs::kRecycleDepth] = {};
  uint32_t next = 0;
  ~RecycleRing() {
    for (KernelArgs* a : ring) {
      if (a != nullptr) {
        a->Invalidate();
        a->Release();
      }
    }
  }
};

struct UserLists {
  std::mutex mu;
  std::unordered_map<const void*, KernelArgs*> by_handle;
  std::deque<const void*> order;
};

UserLists& Users() {
  static UserLists* u = new UserLists();
  return *u;
}

}  // namespace

size_t KernelArgs::MemSize(const KernelFunction* function, size_t user_args_size) {
  // The parameters at their natural offsets, plus 8-byte padding per parameter for whatever the caller
  // counted differently, plus the placeholder data the caller sized.
  const size_t params = function->args_size();
  return AlignUp(std::max(params, user_args_size)) + kAlign * (function->param_count() + 1) + user_args_size;
}

void KernelArgs::Reset(KernelFunction* function, uint8_t* buffer, size_t capacity) {
  function_ = function;
  binary_ = Ref<KernelBinary>(function->binary());
  buffer_ = buffer;
  capacity_ = capacity;
  items_.clear();
  next_param_ = 0;
  data_end_ = function->args_size();
  data_started_ = false;
  finalized_ = false;
  placeholders_.clear();
  if (buffer_ != nullptr && function->args_size() != 0) std::memset(buffer_, 0, function->args_size());
}

StatusOr<KernelArgs*> KernelArgs::Init(KernelFunction* function) {
  thread_local RecycleRing recycle;
  KernelArgs*& slot = recycle.ring[recycle.next];
  recycle.next = (recycle.next + 1) % kRecycleDepth;
  if (slot != nullptr) {
    // The oldest list of this thread goes; its handle is rejected from now on.
    slot->Invalidate();
    slot->Release();
    slot = nullptr;
  }
  KernelArgs* args = NewHandle<KernelArgs>();
  if (args == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for kernel argument lists");
  args->own_.assign(function->args_size() + 1, 0);  // never empty: data() is a valid buffer
  args->owned_ = true;
  args->Reset(function, args->own_.data(), args->own_.size());
  slot = args;
  return args;
}

StatusOr<KernelArgs*> KernelArgs::InitByUserMem(KernelFunction* function, void* user_handle, void* user_memory,
                                                size_t user_bytes) {
  if (user_bytes < function->args_size()) {
    return Err(ACL_ERROR_INVALID_PARAM,
               "userHostMem holds {} bytes, but the arguments of {} need {} (size it with aclrtKernelArgsGetMemSize)",
               user_bytes, function->Signature(), function->args_size());
  }
  UserLists& u = Users();
  std::lock_guard<std::mutex> lock(u.mu);
  KernelArgs*& args = u.by_handle[user_handle];
  if (args == nullptr) {
    args = NewHandle<KernelArgs>();
    if (args == nullptr) {
      u.by_handle.erase(user_handle);
      return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for kernel argument lists");
    }
    u.order.push_back(user_handle);
    if (u.order.size() > kMaxUserLists) {
      const void* oldest = u.order.front();
      u.order.pop_front();
      auto it = u.by_handle.find(oldest);
      it->second->Invalidate();
      it->second->Release();
      u.by_handle.erase(it);
    }
  }
  args->own_.clear();
  args->owned_ = false;
  args->Reset(function, static_cast<uint8_t*>(user_memory), user_bytes);
  return args;
}

KernelArgs* KernelArgs::Resolve(const void* handle) {
  if (handle == nullptr) return nullptr;
  if (HandleArena::IsSlot(handle)) return LookupHandle<KernelArgs>(handle, handle_tags::kKernelArgs);
  UserLists& u = Users();
  std::lock_guard<std::mutex> lock(u.mu);
  auto it = u.by_handle.find(handle);
  return it == u.by_handle.end() || !it->second->alive() ? nullptr : it->second;
}

void* KernelArgs::ParamHandle(uint32_t index) const {
  // Never dereferenced: the list's own slot address plus 1 + the item's index (slots are 1 KiB aligned).
  return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(this) + 1 + index);
}

StatusOr<uint32_t> KernelArgs::ParamIndex(const void* param_handle) const {
  const auto p = reinterpret_cast<uintptr_t>(param_handle);
  const auto self = reinterpret_cast<uintptr_t>(this);
  if (p <= self || p > self + items_.size()) {
    return Err(ACL_ERROR_INVALID_PARAM, "paramHandle {} is not a parameter of this argument list", param_handle);
  }
  return static_cast<uint32_t>(p - self - 1);
}

Status KernelArgs::Append(const void* param, size_t size, void** param_handle) {
  const KernelFunction& f = *function_;
  if (finalized_) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtKernelArgsAppend after aclrtKernelArgsFinalize ({})",
               f.Signature());
  }
  if (data_started_) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               "aclrtKernelArgsAppend after aclrtKernelArgsGetPlaceHolderBuffer: append every parameter first ({})",
               f.Signature());
  }
  if (next_param_ >= f.param_count()) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} takes {} parameters; all of them are already appended", f.Signature(),
               f.param_count());
  }
  const npurt_kernel_param& first = f.param(next_param_);
  // The append covers parameters [next_param_, last]: its size must end exactly on a parameter.
  uint32_t last = next_param_;
  while (last < f.param_count() && f.param(last).offset + f.param(last).size < first.offset + size) ++last;
  if (last == f.param_count() || f.param(last).offset + f.param(last).size != first.offset + size) {
    return Err(ACL_ERROR_INVALID_PARAM,
               "parameter {} of {} is '{} {}' ({} bytes), but the appended value is {} bytes", next_param_ + 1,
               f.Signature(), first.type, first.name, first.size, size);
  }
  if (first.offset + size > capacity_) {
    return Err(ACL_ERROR_INVALID_PARAM, "the argument memory ({} bytes) is too small for parameter {} of {}",
               capacity_, next_param_ + 1, f.Signature());
  }
  std::memcpy(buffer_ + first.offset, param, size);
  items_.push_back({next_param_, last - next_param_ + 1, static_cast<uint32_t>(size), false, false});
  next_param_ = last + 1;
  *param_handle = ParamHandle(static_cast<uint32_t>(items_.size() - 1));
  return Status::Ok();
}

Status KernelArgs::AppendPlaceHolder(void** param_handle) {
  const KernelFunction& f = *function_;
  if (finalized_ || data_started_) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               "aclrtKernelArgsAppendPlaceHolder after {}: append every parameter first ({})",
               finalized_ ? "aclrtKernelArgsFinalize" : "aclrtKernelArgsGetPlaceHolderBuffer", f.Signature());
  }
  if (next_param_ >= f.param_count()) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} takes {} parameters; all of them are already appended", f.Signature(),
               f.param_count());
  }
  const npurt_kernel_param& p = f.param(next_param_);
  if (p.kind != NPURT_KERNEL_PARAM_POINTER) {
    return Err(ACL_ERROR_INVALID_PARAM, "parameter {} of {} is '{} {}', not a pointer: it cannot be a placeholder",
               next_param_ + 1, f.Signature(), p.type, p.name);
  }
  items_.push_back({next_param_, 1, p.size, true, false});
  ++next_param_;
  *param_handle = ParamHandle(static_cast<uint32_t>(items_.size() - 1));
  return Status::Ok();
}

Status KernelArgs::GetPlaceHolderBuffer(const void* param_handle, size_t size, void** buffer) {
  auto index = ParamIndex(param_handle);
  if (!index.ok()) return index.status();
  Item& item = items_[index.value()];
  if (!item.placeholder) {
    return Err(ACL_ERROR_INVALID_PARAM, "parameter {} of {} was appended as a value, not as a placeholder",
               item.first + 1, function_->Signature());
  }
  if (finalized_) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtKernelArgsGetPlaceHolderBuffer after aclrtKernelArgsFinalize");
  }
  if (item.has_buffer) {
    return Err(ACL_ERROR_INVALID_PARAM, "parameter {} of {} already has its placeholder buffer", item.first + 1,
               function_->Signature());
  }
  if (owned_ && own_.size() < function_->args_size() + kPlaceholderBytes) {
    // Runtime-owned lists get their placeholder area once, so buffers handed out never move.
    own_.resize(function_->args_size() + kPlaceholderBytes, 0);
    buffer_ = own_.data();
    capacity_ = own_.size();
  }
  const size_t offset = AlignUp(data_end_);
  if (offset + size > capacity_) {
    return Err(ACL_ERROR_INVALID_PARAM,
               "placeholder data of {} bytes does not fit: {} of {} bytes of argument memory are used", size, offset,
               capacity_);
  }
  data_started_ = true;
  data_end_ = offset + size;
  item.has_buffer = true;
  placeholders_.push_back({function_->param(item.first).offset, static_cast<uint32_t>(offset)});
  *buffer = buffer_ + offset;
  return Status::Ok();
}

Status KernelArgs::ParaUpdate(const void* param_handle, const void* param, size_t size) {
  auto index = ParamIndex(param_handle);
  if (!index.ok()) return index.status();
  const Item& item = items_[index.value()];
  if (item.placeholder) {
    return Err(ACL_ERROR_INVALID_PARAM,
               "parameter {} of {} is a placeholder: update its data through the placeholder buffer", item.first + 1,
               function_->Signature());
  }
  if (size != item.size) {
    return Err(ACL_ERROR_INVALID_PARAM, "parameter {} of {} was appended with {} bytes, the update has {}",
               item.first + 1, function_->Signature(), item.size, size);
  }
  std::memcpy(buffer_ + function_->param(item.first).offset, param, size);
  finalized_ = false;  // CANN: finalize again after updating
  return Status::Ok();
}

Status KernelArgs::Finalize() {
  const KernelFunction& f = *function_;
  if (next_param_ != f.param_count()) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} takes {} parameters, {} appended", f.Signature(), f.param_count(),
               next_param_);
  }
  for (const Item& item : items_) {
    if (item.placeholder && !item.has_buffer) {
      return Err(ACL_ERROR_INVALID_PARAM,
                 "placeholder parameter {} of {} has no buffer: call aclrtKernelArgsGetPlaceHolderBuffer", item.first + 1,
                 f.Signature());
    }
  }
  finalized_ = true;
  return Status::Ok();
}

Status KernelArgs::CheckLaunchable() const {
  if (!finalized_) {
    return Err(ACL_ERROR_INVALID_PARAM,
               "the argument list of {} is not finalized: call aclrtKernelArgsFinalize after the last append or update",
               function_->Signature());
  }
  return Status::Ok();
}

}  // namespace npurt::core
