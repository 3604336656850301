// The value tasks' arithmetic (kValueWait's comparisons, kValueUpdate's operations: hal/task.h), apart
// from how a driver reaches the word: aclrtValueWait / aclrtValueWrite and the counting notifies' variants.
// Part of the driver emulation layer (src/hal/utils/README.md).
#pragma once

#include <cstdint>

#include "hal/task.h"

namespace npurt::hal::utils {

// True if the word's value `v` satisfies a kValueWait with `operand` and comparison `compare` (its aux).
inline bool ValueSatisfies(uint64_t v, uint64_t operand, uint32_t compare) {
  switch (static_cast<ValueCompare>(compare)) {
    case ValueCompare::kGreaterEqual:
      return v >= operand;
    case ValueCompare::kEqual:
      return v == operand;
    case ValueCompare::kAnd:
      return (v & operand) != 0;
    case ValueCompare::kNor:
      return ~(v | operand) != 0;
    case ValueCompare::kLess:
      return v < operand;
    case ValueCompare::kGreater:
      return v > operand;
    case ValueCompare::kAllBits:
      return (v & operand) == operand;
  }
  return false;
}

// Applies a kValueUpdate (`op`, its aux) with `operand` to the word at `word` atomically (a driver whose
// device memory the host addresses; another applies the same operation on its device).
inline void ApplyValueUpdate(uint64_t* word, uint64_t operand, uint32_t op) {
  switch (static_cast<ValueUpdate>(op)) {
    case ValueUpdate::kSet: __atomic_store_n(word, operand, __ATOMIC_RELEASE); break;
    case ValueUpdate::kAdd: __atomic_fetch_add(word, operand, __ATOMIC_ACQ_REL); break;
    case ValueUpdate::kOr: __atomic_fetch_or(word, operand, __ATOMIC_ACQ_REL); break;
    case ValueUpdate::kAnd: __atomic_fetch_and(word, operand, __ATOMIC_ACQ_REL); break;
  }
}

}  // namespace npurt::hal::utils
