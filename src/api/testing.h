// Test hooks exported by libascendcl for npurt's own test suites (not part of the ACL API, never in
// include/). Declare them in a test with the same prototypes.
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Enqueues a task on `stream` (NULL = default stream) that fails with `code` when it executes, as a
// faulting kernel would: the stream's sticky error is set, exception callbacks fire, and with
// ACL_STOP_ON_FAILURE the stream's later tasks are discarded. Returns an aclError.
__attribute__((visibility("default"))) int npurtTestInjectTaskFailure(void* stream, int32_t code);

#ifdef __cplusplus
}
#endif
