// Per-thread runtime state: the current context (ACL contexts are thread-local), the last error
// (aclrtGetLastError / aclrtPeekAtLastError), the recent error message (aclGetRecentErrMsg) and the
// id of the last task this thread submitted (aclrtGetThreadLastTaskId).
#pragma once

#include <cstdint>
#include <string>

namespace npurt::core {

class Context;

struct ThreadState {
  Context* current_context = nullptr;  // validated on every use: it may have been destroyed
  int32_t last_error = 0;
  std::string recent_error;
  uint32_t last_task_id = 0;
  void* res_stream = nullptr;  // aclrtUseStreamResInCurrentThread (validated on use)
};

ThreadState& Tls();

}  // namespace npurt::core
