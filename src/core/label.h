// Labels (aclrtCreateLabel / aclrtSetLabel / aclrtCreateLabelList / aclrtSwitchLabelByIndex): jump
// targets in a stream. SetLabel submits a label task; SwitchLabelByIndex submits a switch task that
// reads a uint32 index from device memory when it executes and makes the stream skip its following
// tasks up to the label at that index of the list (hal kLabelSwitch / kLabelSet, executed by the
// driver's queue, so the index may be produced by earlier tasks of the stream).
//
// A plain stream runs each task once, so only forward jumps have meaning: a label must be set after
// the switch that targets it, on the same stream. A switch to a label that is already set (a backward
// jump, i.e. a loop) needs a model that replays its tasks and is refused with
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT. A label is set once.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "base/handle.h"
#include "base/status.h"

namespace npurt::core {

class Context;
class Stream;

class Label final : public HandleObject {
 public:
  static StatusOr<Label*> Create(Context* context);
  uint64_t id() const { return id_; }
  Context* context() const { return context_; }
  // The stream the label was set on (nullptr if not set yet); the stream's object stays alive while
  // the label holds it.
  Stream* stream() const { return stream_.load(std::memory_order_acquire); }
  Status Set(Stream* stream);
  void Destroy();

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  explicit Label(Context* context);
  ~Label() override;

  Context* context_;
  uint64_t id_;
  std::atomic<Stream*> stream_{nullptr};
};

class LabelList final : public HandleObject {
 public:
  static StatusOr<LabelList*> Create(Label* const* labels, size_t count);
  size_t size() const { return ids_.size(); }
  Status Switch(const void* index_ptr, uint32_t max_value, Stream* stream);
  void Destroy();

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  explicit LabelList(std::vector<Label*> labels);
  ~LabelList() override;

  std::vector<Label*> labels_;  // retained
  std::vector<uint64_t> ids_;   // what the switch task reads
};

}  // namespace npurt::core
