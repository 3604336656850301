#include "core/thread_state.h"

namespace npurt::core {

ThreadState& Tls() {
  thread_local ThreadState state;
  return state;
}

}  // namespace npurt::core
