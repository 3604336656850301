// Element storage types and their compute types for npurt's own kernels: fp16/bf16 compute in
// float, integers in their own width (64-bit intermediates where overflow matters).
#pragma once

#include <cstdint>

#include "base/dtype.h"

namespace npurt::drivers::host {

struct HalfTag {};
struct Bf16Tag {};

template <typename T>
struct Io {
  using S = T;
  using C = T;
  static C Ld(S v) { return v; }
  static S St(C v) { return v; }
};
template <>
struct Io<HalfTag> {
  using S = uint16_t;
  using C = float;
  static C Ld(S v) { return HalfToFloat(v); }
  static S St(C v) { return FloatToHalf(v); }
};
template <>
struct Io<Bf16Tag> {
  using S = uint16_t;
  using C = float;
  static C Ld(S v) { return Bf16ToFloat(v); }
  static S St(C v) { return FloatToBf16(v); }
};

// Calls f.template operator()<Tag>() for the storage tag of `dtype`; returns false if unsupported.
template <typename F>
bool DispatchNumeric(int32_t dtype, F&& f) {
  switch (dtype) {
    case ACL_FLOAT: f.template operator()<float>(); return true;
    case ACL_FLOAT16: f.template operator()<HalfTag>(); return true;
    case ACL_BF16: f.template operator()<Bf16Tag>(); return true;
    case ACL_INT32: f.template operator()<int32_t>(); return true;
    case ACL_INT64: f.template operator()<int64_t>(); return true;
    default: return false;
  }
}

template <typename F>
bool DispatchFloat(int32_t dtype, F&& f) {
  switch (dtype) {
    case ACL_FLOAT: f.template operator()<float>(); return true;
    case ACL_FLOAT16: f.template operator()<HalfTag>(); return true;
    case ACL_BF16: f.template operator()<Bf16Tag>(); return true;
    default: return false;
  }
}

// Element-size based dispatch for kernels that only move data.
template <typename F>
bool DispatchBySize(size_t size, F&& f) {
  switch (size) {
    case 1: f.template operator()<uint8_t>(); return true;
    case 2: f.template operator()<uint16_t>(); return true;
    case 4: f.template operator()<uint32_t>(); return true;
    case 8: f.template operator()<uint64_t>(); return true;
    default: return false;
  }
}

// Parallel-for threshold: below this many elements a run stays on one thread (a team wake-up costs
// more than the work).
constexpr int64_t kParallelGrain = 32768;

}  // namespace npurt::drivers::host
