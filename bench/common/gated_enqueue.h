// The producer's own cost of enqueuing: batches of `batch` enqueues into a stream that a host function
// (aclrtLaunchHostFunc) holds until the batch is in, so that nothing executes while the host enqueues and
// no executor consumes the queue at the same time (no cache traffic between them). The mean per call of a
// batch is one sample; the hold is set up and released outside the timed region. Used by
// launch_enqueue_gated_ns (bench_launch) and kernel_launch_enqueue_gated_ns (bench_kernel).
#pragma once

#include <acl/acl.h>
#include <benchmark/benchmark.h>

namespace npurt_bench {

// `enqueue(arg, stream)` enqueues one task; `batch` must stay below the queue's depth (256).
void RunGatedEnqueue(benchmark::State& state, aclrtStream stream, int batch, void (*enqueue)(void* arg, aclrtStream),
                     void* arg);

}  // namespace npurt_bench
