// The floor of a host-to-executor round trip on this machine: a bare two-thread hand-off. The calling
// thread raises a request counter; a worker thread waiting on it (spin, then futex sleep) answers by
// raising a reply counter, which the caller waits for the same way. Spin budgets are the runtime's (30 us
// for the executor side, 20 us for the host side), so the floor is what a runtime with one hop each way
// could reach, not an artificially slow one. Registered as handoff_us (bench_roundtrip) and, so that the
// kernel round trip has its floor measured interleaved with it, as kernel_handoff_us (bench_kernel).
#pragma once

#include <benchmark/benchmark.h>

namespace npurt_bench {

void BareHandoff(benchmark::State& state);

}  // namespace npurt_bench
