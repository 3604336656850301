// oneDNN plumbing shared by the kernels built on it: the CPU engine, a per-thread stream, data type
// mapping and the translation of oneDNN exceptions into ACL errors.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
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
// Whether the CPU has bf16 arithmetic (AVX512-BF16, or AMX): the reduced-precision compute that the precision
// modes allow_mix_precision_bf16 / allow_fp32_to_bf16 ask for is only faster there (attr compute_dtype, conv.cc).
bool Bf16Instructions();

// C0 of the blocked activation format NC1HWC0 (ACL_FORMAT_NC1HWC0, docs/operators.md) that this CPU's
// oneDNN convolutions read and write natively for fp32: 16 with AVX512, else 8 (oneDNN's nChw16c / nChw8c).
int NativeC0();

// The oneDNN desc of a logical [n, c, h, w] activation stored as NC1HWC0 with block c0 (8 or 16):
// nChw{c0}c, channels padded to a multiple of c0 (the padding holds zeros).
dnnl::memory::desc BlockedDesc(int64_t n, int64_t c, int64_t h, int64_t w, int64_t c0, dnnl::memory::data_type dt);

// A constant (a model's weights) reordered from `from` into `to`, shared by every kernel that packs the same
// bytes into the same layout while any of them lives: the gears of a gear model compile the same weights
// once per gear, and keep one packed copy between them. Keyed by the source address, both layouts and a
// hash of the source bytes (so new data at a reused address is packed anew).
std::shared_ptr<dnnl::memory> PackConstant(const void* src, const dnnl::memory::desc& from,
                                           const dnnl::memory::desc& to);
// Live packed constants and their bytes (tests).
size_t PackedConstantCount();

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
