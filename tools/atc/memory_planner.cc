#include "memory_planner.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace npurt::atc {
namespace {

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

bool Overlap(const PlanBuffer& a, const PlanBuffer& b) { return a.first <= b.last && b.first <= a.last; }

// Places buffers one at a time, in the order the strategy chooses, against those already placed.
class Placer {
 public:
  Placer(const std::vector<PlanBuffer>& buffers, const std::vector<uint64_t>& sizes, bool best_fit)
      : buffers_(buffers), sizes_(sizes), best_fit_(best_fit), offsets_(buffers.size(), kUnplaced) {}

  bool placed(size_t i) const { return offsets_[i] != kUnplaced; }

  void Place(size_t i) {
    // The placed buffers alive at the same time as i, by offset.
    std::vector<size_t> live;
    for (size_t j : order_) {
      if (Overlap(buffers_[i], buffers_[j])) live.push_back(j);
    }
    const uint64_t size = sizes_[i];
    uint64_t prev_end = 0, best = kUnplaced, best_gap = std::numeric_limits<uint64_t>::max();
    for (size_t j : live) {
      const uint64_t off = offsets_[j];
      if (off > prev_end && off - prev_end >= size) {
        const uint64_t gap = off - prev_end;
        if (!best_fit_) {
          best = prev_end;
          break;
        }
        if (gap < best_gap) {
          best_gap = gap;
          best = prev_end;
        }
      }
      prev_end = std::max(prev_end, off + sizes_[j]);
    }
    if (best == kUnplaced) best = prev_end;
    offsets_[i] = best;
    end_ = std::max(end_, best + size);
    // Keep order_ sorted by offset.
    auto pos = std::lower_bound(order_.begin(), order_.end(), i,
                                [&](size_t a, size_t b) { return offsets_[a] < offsets_[b]; });
    order_.insert(pos, i);
  }

  std::vector<uint64_t> offsets() const { return offsets_; }
  uint64_t end() const { return end_; }

 private:
  static constexpr uint64_t kUnplaced = std::numeric_limits<uint64_t>::max();
  const std::vector<PlanBuffer>& buffers_;
  const std::vector<uint64_t>& sizes_;
  bool best_fit_;
  std::vector<uint64_t> offsets_;
  std::vector<size_t> order_;  // placed buffers by offset
  uint64_t end_ = 0;
};

struct Candidate {
  std::vector<uint64_t> offsets;
  uint64_t arena = 0;
};

// The orders greedy-by-size variants place buffers in: largest first, ties by longer lifetime (0) or by
// earlier start (1); or by the area size x lifetime (2).
Candidate GreedyBySize(const std::vector<PlanBuffer>& b, const std::vector<uint64_t>& sizes, bool best_fit, int key) {
  std::vector<size_t> order(b.size());
  std::iota(order.begin(), order.end(), size_t{0});
  auto span = [&](size_t i) { return static_cast<uint64_t>(b[i].last - b[i].first + 1); };
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    if (key == 2 && sizes[x] * span(x) != sizes[y] * span(y)) return sizes[x] * span(x) > sizes[y] * span(y);
    if (sizes[x] != sizes[y]) return sizes[x] > sizes[y];
    if (key == 1) return b[x].first < b[y].first;
    return span(x) > span(y);
  });
  Placer p(b, sizes, best_fit);
  for (size_t i : order) p.Place(i);
  return {p.offsets(), p.end()};
}

Candidate GreedyByBreadth(const std::vector<PlanBuffer>& b, const std::vector<uint64_t>& sizes, bool best_fit,
                          int32_t steps) {
  std::vector<std::vector<size_t>> at(static_cast<size_t>(steps));
  std::vector<uint64_t> breadth(static_cast<size_t>(steps), 0);
  for (size_t i = 0; i < b.size(); ++i) {
    for (int32_t s = b[i].first; s <= b[i].last; ++s) {
      at[static_cast<size_t>(s)].push_back(i);
      breadth[static_cast<size_t>(s)] += sizes[i];
    }
  }
  std::vector<size_t> step_order(static_cast<size_t>(steps));
  std::iota(step_order.begin(), step_order.end(), size_t{0});
  std::stable_sort(step_order.begin(), step_order.end(), [&](size_t x, size_t y) { return breadth[x] > breadth[y]; });
  Placer p(b, sizes, best_fit);
  for (size_t s : step_order) {
    std::vector<size_t>& list = at[s];
    std::stable_sort(list.begin(), list.end(), [&](size_t x, size_t y) { return sizes[x] > sizes[y]; });
    for (size_t i : list) {
      if (!p.placed(i)) p.Place(i);
    }
  }
  return {p.offsets(), p.end()};
}

}  // namespace

MemoryPlan PlanMemory(const std::vector<PlanBuffer>& buffers, uint64_t align, bool disable_reuse) {
  MemoryPlan plan;
  std::vector<uint64_t> sizes(buffers.size());
  int32_t steps = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    sizes[i] = AlignUp(buffers[i].size, align);
    plan.no_reuse += sizes[i];
    steps = std::max(steps, buffers[i].last + 1);
  }
  // Live bytes per step, by a difference array.
  std::vector<int64_t> delta(static_cast<size_t>(steps) + 1, 0);
  for (size_t i = 0; i < buffers.size(); ++i) {
    delta[static_cast<size_t>(buffers[i].first)] += static_cast<int64_t>(sizes[i]);
    delta[static_cast<size_t>(buffers[i].last) + 1] -= static_cast<int64_t>(sizes[i]);
  }
  int64_t live = 0;
  for (int32_t s = 0; s < steps; ++s) {
    live += delta[static_cast<size_t>(s)];
    plan.lower_bound = std::max(plan.lower_bound, static_cast<uint64_t>(live));
  }
  if (disable_reuse) {
    plan.offsets.resize(buffers.size());
    uint64_t off = 0;
    for (size_t i = 0; i < buffers.size(); ++i) {
      plan.offsets[i] = off;
      off += sizes[i];
    }
    plan.arena = off;
    plan.strategy = "no reuse";
    return plan;
  }
  struct Named {
    const char* name;
    Candidate c;
  };
  Named best{"", {}};
  bool have = false;
  auto consider = [&](const char* name, Candidate c) {
    if (!have || c.arena < best.c.arena) {
      best = Named{name, std::move(c)};
      have = true;
    }
  };
  for (bool best_fit : {false, true}) {
    consider(best_fit ? "greedy by size, best fit" : "greedy by size, first fit", GreedyBySize(buffers, sizes, best_fit, 0));
    if (best.c.arena == plan.lower_bound) break;  // cannot do better
    consider(best_fit ? "greedy by size (ties by start), best fit" : "greedy by size (ties by start), first fit",
             GreedyBySize(buffers, sizes, best_fit, 1));
    consider(best_fit ? "greedy by area, best fit" : "greedy by area, first fit", GreedyBySize(buffers, sizes, best_fit, 2));
    consider(best_fit ? "greedy by breadth, best fit" : "greedy by breadth, first fit",
             GreedyByBreadth(buffers, sizes, best_fit, steps));
  }
  plan.offsets = std::move(best.c.offsets);
  plan.arena = best.c.arena;
  plan.strategy = best.name;
  return plan;
}

bool PlanIsValid(const std::vector<PlanBuffer>& buffers, const MemoryPlan& plan, uint64_t align) {
  if (plan.offsets.size() != buffers.size()) return false;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const uint64_t si = AlignUp(buffers[i].size, align);
    if (plan.offsets[i] % align != 0 || plan.offsets[i] + si > plan.arena) return false;
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      if (!Overlap(buffers[i], buffers[j])) continue;
      const uint64_t sj = AlignUp(buffers[j].size, align);
      if (si == 0 || sj == 0) continue;
      if (plan.offsets[i] < plan.offsets[j] + sj && plan.offsets[j] < plan.offsets[i] + si) return false;
    }
  }
  return true;
}

}  // namespace npurt::atc
