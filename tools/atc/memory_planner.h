// The arena planner: offsets for buffers with known lifetimes over a fixed execution order, such that
// two buffers whose lifetimes overlap never overlap in memory.
//
// A buffer is live from the step that writes it to the last step that reads it, both inclusive (a node's
// inputs and outputs are live at the same step: no operator runs in place). Two strategies from
// Pisarchyk & Lee (arXiv 2001.03288) run, each with first-fit and best-fit gap choice, and the smallest
// arena wins:
//   greedy by size     buffers largest first (ties by longer lifetime or by earlier start; or by
//                      size x lifetime), each at the lowest (or tightest) gap that is free against the
//                      already placed buffers whose lifetimes overlap its own;
//   greedy by breadth  steps in decreasing order of live bytes, each step's unplaced buffers largest first.
// The lower bound is the most bytes live at any one step (no plan for this order can be smaller).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npurt::atc {

struct PlanBuffer {
  uint64_t size = 0;  // bytes (rounded up to the alignment by the planner)
  int32_t first = 0;  // step that writes it
  int32_t last = 0;   // last step that reads it (>= first)
};

struct MemoryPlan {
  std::vector<uint64_t> offsets;  // per buffer, multiples of the alignment
  uint64_t arena = 0;             // bytes the offsets need
  uint64_t lower_bound = 0;       // max over steps of the live (aligned) bytes
  uint64_t no_reuse = 0;          // sum of the aligned sizes
  std::string strategy;           // which strategy produced `offsets`
};

// `align` must be a power of two. disable_reuse: every buffer gets its own range (atc
// --disable_reuse_memory=1).
MemoryPlan PlanMemory(const std::vector<PlanBuffer>& buffers, uint64_t align, bool disable_reuse = false);

// True if no two buffers with overlapping lifetimes overlap in memory and all lie inside plan.arena
// (the tests' check, O(n^2)).
bool PlanIsValid(const std::vector<PlanBuffer>& buffers, const MemoryPlan& plan, uint64_t align);

}  // namespace npurt::atc
