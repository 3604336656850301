// Conditional tasks of a graph (aclmdlRICondHandle, aclmdlRIAddCondTask): a condition value in device
// memory, written by the graph's own tasks or by the host, selects which child graph runs — once (IF,
// SWITCH) or while it is non-zero (WHILE). The choice is made when the task executes, on the executing
// queue (a kBatch with a select function), so it sees every write ordered before it.
#pragma once

#include <cstdint>

#include "base/handle.h"
#include "base/status.h"

namespace npurt::core {

class Context;
class ModelRI;

class CondHandle final : public HandleObject {
 public:
  static StatusOr<CondHandle*> Create(ModelRI* owner, uint32_t default_value, bool assign_default);

  ModelRI* owner() const { return owner_; }
  uint64_t* value() const { return value_; }

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  CondHandle(ModelRI* owner, Context* context, uint64_t* value);
  ~CondHandle() override;

  ModelRI* owner_;  // not retained: the owner retains the handle
  Context* context_;
  uint64_t* value_;  // device memory
};

}  // namespace npurt::core
