#include "hccl/reduce.h"

#include <algorithm>
#include <cstring>

#include "base/dtype.h"

namespace npurt::hccl {
namespace {

// Element access: integers and fp32/fp64 natively; fp16 and bf16 are widened to float, reduced, and rounded
// back once per element (as HCCL's reductions do for the half types).
template <typename Store, typename Math>
struct Element {
  static Math Load(const void* p, size_t i) { return static_cast<Math>(static_cast<const Store*>(p)[i]); }
  static void Put(void* p, size_t i, Math v) { static_cast<Store*>(p)[i] = static_cast<Store>(v); }
};
struct HalfElement {
  static float Load(const void* p, size_t i) { return HalfToFloat(static_cast<const uint16_t*>(p)[i]); }
  static void Put(void* p, size_t i, float v) { static_cast<uint16_t*>(p)[i] = FloatToHalf(v); }
};
struct Bf16Element {
  static float Load(const void* p, size_t i) { return Bf16ToFloat(static_cast<const uint16_t*>(p)[i]); }
  static void Put(void* p, size_t i, float v) { static_cast<uint16_t*>(p)[i] = FloatToBf16(v); }
};

struct Sum {
  template <typename T> static T Apply(T a, T b) { return static_cast<T>(a + b); }
};
struct Prod {
  template <typename T> static T Apply(T a, T b) { return static_cast<T>(a * b); }
};
struct Max {
  template <typename T> static T Apply(T a, T b) { return std::max(a, b); }
};
struct Min {
  template <typename T> static T Apply(T a, T b) { return std::min(a, b); }
};

// Blocks of elements keep the inputs' reads streaming (one pass over each input per block) instead of
// hopping between n buffers per element, and keep `out` correct when it aliases an input: a block of every
// input is read into the accumulator before any element of that block of `out` is written.
constexpr size_t kBlock = 1024;

template <typename E, typename Math, typename Op>
void ReduceMany(void* out, const void* const* in, size_t n, size_t count) {
  Math acc[kBlock];
  for (size_t base = 0; base < count; base += kBlock) {
    const size_t len = std::min(kBlock, count - base);
    for (size_t i = 0; i < len; ++i) acc[i] = E::Load(in[0], base + i);
    for (size_t k = 1; k < n; ++k) {
      for (size_t i = 0; i < len; ++i) acc[i] = Op::Apply(acc[i], E::Load(in[k], base + i));
    }
    for (size_t i = 0; i < len; ++i) E::Put(out, base + i, acc[i]);
  }
}

template <typename E, typename Math, typename Op>
void ReduceInPlace(void* dst, const void* src, size_t count) {
  for (size_t i = 0; i < count; ++i) E::Put(dst, i, Op::Apply(E::Load(dst, i), E::Load(src, i)));
}

template <typename E, typename Math>
ReduceKernels ForOp(ReduceOp op) {
  switch (op) {
    case 0: return {&ReduceMany<E, Math, Sum>, &ReduceInPlace<E, Math, Sum>};
    case 1: return {&ReduceMany<E, Math, Prod>, &ReduceInPlace<E, Math, Prod>};
    case 2: return {&ReduceMany<E, Math, Max>, &ReduceInPlace<E, Math, Max>};
    case 3: return {&ReduceMany<E, Math, Min>, &ReduceInPlace<E, Math, Min>};
    default: return {};
  }
}

template <typename T>
ReduceKernels Native(ReduceOp op) {
  return ForOp<Element<T, T>, T>(op);
}

}  // namespace

const char* ReduceRefusal(DataType dtype, ReduceOp op) {
  if (op < 0 || op > 3) return "is not a reduce op (HCCL_REDUCE_SUM, PROD, MAX or MIN)";
  switch (dtype) {
    case 0: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 9: case 10:
      break;
    case 1:
    case 11:
      if (op == 1) return "cannot be multiplied (HCCL_REDUCE_PROD takes int8, int32, int64, uint64, fp16, fp32, fp64)";
      break;
    default:
      return "has no arithmetic a reduction can use";
  }
  return nullptr;
}

ReduceKernels FindReduce(DataType dtype, ReduceOp op) {
  if (ReduceRefusal(dtype, op) != nullptr) return {};
  switch (dtype) {
    case 0: return Native<int8_t>(op);
    case 1: return Native<int16_t>(op);
    case 2: return Native<int32_t>(op);
    case 3: return ForOp<HalfElement, float>(op);
    case 4: return Native<float>(op);
    case 5: return Native<int64_t>(op);
    case 6: return Native<uint64_t>(op);
    case 7: return Native<uint8_t>(op);
    case 8: return Native<uint16_t>(op);
    case 9: return Native<uint32_t>(op);
    case 10: return Native<double>(op);
    case 11: return ForOp<Bf16Element, float>(op);
    default: return {};
  }
}

}  // namespace npurt::hccl
