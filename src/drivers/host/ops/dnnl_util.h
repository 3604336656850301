// oneDNN plumbing shared by the kernels built on it: the CPU engine, a per-thread stream, data type
// mapping and the translation of oneDNN exceptions into ACL errors.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <string>
#include <unordered_map>

#include "base/status.h"

namespace npurt::drivers::host::dnnl_util {

dnnl::engine& Engine();
// The calling thread's stream (executors each have their own; oneDNN streams are not thread-safe).
dnnl::stream& ThreadStream();

// Whether oneDNN has native kernels on this CPU for bf16 matmul/convolution (AVX512) and exact int8 GEMM
// (VNNI); without them the host backend computes those types in fp32 (host_op_backend.cc).
bool NativeBf16();
bool NativeInt8();

// oneDNN data type of an ACL dtype (undef if oneDNN has none).
dnnl::memory::data_type ToDnnl(int32_t dtype);

// Runs `f` (which may throw dnnl::error) and converts a failure into `code` with context.
template <typename F>
Status Guard(int32_t code, const char* what, F&& f) {
  try {
    f();
    return Status::Ok();
  } catch (const dnnl::error& e) {
    return Err(code, "{}: oneDNN: {} (status {})", what, e.what(), static_cast<int>(e.status));
  }
}

// Executes `prim` on the thread's stream with a scratchpad from the thread's scratch memory.
Status Execute(const dnnl::primitive& prim, const dnnl::memory::desc& scratchpad,
               std::unordered_map<int, dnnl::memory>& args, const char* what);

}  // namespace npurt::drivers::host::dnnl_util
