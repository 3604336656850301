#include "hal/utils/conditional.h"

namespace npurt::hal::utils {
namespace {

const TaskList* Branch(const Conditional& c, uint64_t index) {
  if (index >= c.branch_count || c.branches[index] == nullptr) return nullptr;
  return c.branches[index]->load(std::memory_order_acquire);
}

int64_t Signed(uint64_t v, uint32_t width) {
  return width == 4 ? static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(v))) : static_cast<int64_t>(v);
}

bool Holds(CondCompare op, int64_t a, int64_t b) {
  switch (op) {
    case CondCompare::kEqual: return a == b;
    case CondCompare::kNotEqual: return a != b;
    case CondCompare::kGreater: return a > b;
    case CondCompare::kGreaterEqual: return a >= b;
    case CondCompare::kLess: return a < b;
    case CondCompare::kLessEqual: return a <= b;
  }
  return false;
}

}  // namespace

const TaskList* SelectBranch(const Conditional& c, uint32_t round, ReadWordFn read) {
  switch (c.kind) {
    case CondKind::kIf:
      if (round != 0) return nullptr;
      return read(c.word, 8) != 0 ? Branch(c, 0) : Branch(c, 1);
    case CondKind::kWhile:
      return read(c.word, 8) != 0 ? Branch(c, 0) : nullptr;
    case CondKind::kSwitch:
      if (round != 0) return nullptr;
      return Branch(c, read(c.word, 8));
    case CondKind::kCompare: {
      if (round != 0) return nullptr;
      const uint32_t width = c.width == 4 ? 4 : 8;
      const bool taken = Holds(c.compare, Signed(read(c.word, width), width), Signed(read(c.right, width), width));
      return Branch(c, taken ? 0 : 1);
    }
  }
  return nullptr;
}

}  // namespace npurt::hal::utils
