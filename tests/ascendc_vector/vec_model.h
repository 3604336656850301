// The host model of the vector unit's level-0 addressing (shared by the tests): which elements of which
// repeats a case's mask selects and where an operand's element k of repeat r lies.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <type_traits>

#include "vec_case.h"
#include "vec_test_util.h"

namespace vectest {

template <typename T>
constexpr uint32_t DtypeOf() {
  if constexpr (std::is_same<T, half>::value) return kVecF16;
  if constexpr (std::is_same<T, float>::value) return kVecF32;
  if constexpr (std::is_same<T, int16_t>::value) return kVecI16;
  return kVecI32;
}

// The host model's view of a case: which elements of which repeats, where each operand's elements are.
struct L0Plan {
  bool counter = false;
  uint64_t bits[2] = {0, 0};
  uint64_t count = 0;
  uint32_t repeats = 0;
  uint32_t per = 0;
  bool per_repeat_count = false;  // counter mode counting each repeat's elements (Copy's counter mode)
  bool Active(uint32_t r, uint32_t k) const {
    if (per_repeat_count) return k < count;
    if (counter) return uint64_t{r} * per + k < count;
    return k < 64 ? (bits[0] >> k) & 1 : (bits[1] >> (k - 64)) & 1;
  }
};

template <typename T>
inline L0Plan PlanOf(const VecCase& c) {
  L0Plan p;
  p.per = 256 / sizeof(T);
  if (c.mask_form == kMaskCounterRegister || c.mask_form == kMaskCounterArg || c.mask_form == kMaskCountForm ||
      c.mask_form == kMaskCountFormRegister) {
    p.counter = true;
    p.count = c.count;
    p.repeats = static_cast<uint32_t>((c.count + p.per - 1) / p.per);
    return p;
  }
  p.repeats = c.repeat;
  if (c.mask_form == kMaskContinuous) {
    for (uint32_t k = 0; k < c.count; ++k) p.bits[k / 64] |= 1ull << (k % 64);
  } else {
    p.bits[0] = c.mask[0];
    p.bits[1] = sizeof(T) == 4 ? 0 : c.mask[1];
  }
  return p;
}

// Offset in elements of element k of repeat r with the strides (in 32-byte blocks).
template <typename T>
inline size_t L0Offset(uint32_t blk, uint32_t rep, uint32_t r, uint32_t k) {
  const size_t per_block = 32 / sizeof(T);
  return size_t{r} * rep * per_block + (k / per_block) * blk * per_block + k % per_block;
}

// Elements an operand needs: past its largest active offset, rounded up to whole blocks, plus one block
// that nothing may touch.
template <typename T>
inline uint32_t L0Extent(const L0Plan& p, uint32_t blk, uint32_t rep) {
  size_t max_off = 0;
  for (uint32_t r = 0; r < p.repeats; ++r) {
    for (uint32_t k = 0; k < p.per; ++k) {
      if (p.Active(r, k)) max_off = std::max(max_off, L0Offset<T>(blk, rep, r, k));
    }
  }
  const size_t per_block = 32 / sizeof(T);
  return static_cast<uint32_t>((max_off / per_block + 2) * per_block);
}

// A case of `op` with the mask form `form`: 1..4 repeats, random mask bits (element 0 always in), a
// continuous or counter count of at least `min_count`, block strides 1..3 and repeat strides with gaps
// (and under 8 blocks, overlapping, when `overlap`).
template <typename T>
VecCase RandomCase(uint32_t op, uint32_t form, std::mt19937_64& rng, uint32_t min_count, bool overlap) {
  const uint32_t per = 256 / sizeof(T);
  VecCase c{};
  c.op = op;
  c.mask_form = form;
  c.repeat = 1 + static_cast<uint32_t>(rng() % 4);
  c.mask[0] = rng() | 1;
  c.mask[1] = sizeof(T) == 4 ? 0 : rng();
  c.count = form == kMaskContinuous ? min_count + rng() % (per + 1 - min_count) : min_count + rng() % (4 * per);
  const uint32_t blks[] = {1, 2, 1, 3}, reps[] = {8, 16, 9, overlap ? 4u : 24u};
  c.dst_blk = blks[rng() % 4];
  c.dst_rep = reps[rng() % 4];
  c.src0_blk = blks[rng() % 4];
  c.src0_rep = reps[rng() % 4];
  c.src1_blk = blks[rng() % 4];
  c.src1_rep = reps[rng() % 4];
  return c;
}

}  // namespace vectest
