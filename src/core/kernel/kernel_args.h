// KernelArgs (aclrtArgsHandle): an argument list built parameter by parameter for one kernel.
//
// Layout: each appended parameter is written at the offset the kernel's table gives it (the natural C
// layout of the kernel's parameters), so the block is exactly what the kernel's entry unpacks. An append
// may also cover several consecutive parameters at once (one struct for the whole list) when its size
// ends on a parameter boundary. Placeholders are pointer parameters whose data the runtime carries: the
// data areas follow the parameters (8-byte aligned), and at launch each placeholder parameter is set to
// the address of its data in the launch's own copy of the block.
//
// Rules (checked, with a message naming the kernel and parameter): parameters are appended in order and
// their sizes match the kernel's; no appends after the first placeholder buffer was requested or after
// Finalize; a launch needs a finalized list with every parameter and every placeholder buffer present;
// ParaUpdate re-opens the list until the next Finalize.
//
// Handles: aclrtKernelArgsInit hands out objects that stay valid for the next kRecycleDepth - 1 calls of
// aclrtKernelArgsInit on the same thread (CANN reuses one per thread; ACL has no destroy call), so a
// program that builds a list per launch uses bounded memory. aclrtKernelArgsInitByUserMem keys the list
// by the user's handle memory, which it never dereferences: re-initialising the same memory reuses it.
#pragma once

#include <cstdint>
#include <vector>

#include "base/handle.h"
#include "base/status.h"
#include "core/handle_tags.h"
#include "core/kernel/kernel_binary.h"

namespace npurt::core {

class KernelArgs final : public HandleObject {
 public:
  static constexpr uint32_t kRecycleDepth = 64;
  static constexpr uint32_t kMaxParams = 128;

  // aclrtKernelArgsInit: a list for `function` in runtime-owned memory.
  static StatusOr<KernelArgs*> Init(KernelFunction* function);
  // aclrtKernelArgsInitByUserMem: the list for `function` behind the user's handle memory `user_handle`,
  // its data in `user_memory` (`user_bytes`, from aclrtKernelArgsGetMemSize).
  static StatusOr<KernelArgs*> InitByUserMem(KernelFunction* function, void* user_handle, void* user_memory,
                                             size_t user_bytes);
  // The list behind an aclrtArgsHandle (either kind), or nullptr.
  static KernelArgs* Resolve(const void* handle);

  // aclrtKernelArgsGetMemSize / aclrtKernelArgsGetHandleMemSize.
  static size_t MemSize(const KernelFunction* function, size_t user_args_size);
  static size_t HandleMemSize() { return 64; }

  Status Append(const void* param, size_t size, void** param_handle);
  Status AppendPlaceHolder(void** param_handle);
  Status GetPlaceHolderBuffer(const void* param_handle, size_t size, void** buffer);
  Status ParaUpdate(const void* param_handle, const void* param, size_t size);
  Status Finalize();

  KernelFunction* function() const { return function_; }
  // For a launch: the finalized block (parameters + placeholder data), and the placeholders to patch.
  struct Placeholder {
    uint32_t param_offset;
    uint32_t data_offset;
  };
  Status CheckLaunchable() const;
  const uint8_t* data() const { return buffer_; }
  size_t size() const { return data_end_; }
  const std::vector<Placeholder>& placeholders() const { return placeholders_; }

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  KernelArgs() : HandleObject(handle_tags::kKernelArgs) {}
  ~KernelArgs() override = default;

  void Reset(KernelFunction* function, uint8_t* buffer, size_t capacity);
  StatusOr<uint32_t> ParamIndex(const void* param_handle) const;
  void* ParamHandle(uint32_t index) const;

  // Each appended item: the parameters [first, first + count) it covers.
  struct Item {
    uint32_t first;
    uint32_t count;
    uint32_t size;
    bool placeholder;
    bool has_buffer;
  };

  KernelFunction* function_ = nullptr;
  Ref<KernelBinary> binary_;  // the list keeps its function's binary loaded
  std::vector<uint8_t> own_;  // runtime-owned storage (Init)
  bool owned_ = false;
  uint8_t* buffer_ = nullptr;
  size_t capacity_ = 0;
  std::vector<Item> items_;
  uint32_t next_param_ = 0;
  size_t data_end_ = 0;  // end of the parameters, then of the placeholder data
  bool data_started_ = false;
  bool finalized_ = false;
  std::vector<Placeholder> placeholders_;
};

}  // namespace npurt::core
