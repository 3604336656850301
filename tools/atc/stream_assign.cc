#include "stream_assign.h"

#include <algorithm>

namespace npurt::atc {
namespace {

// The nodes whose outputs node `i` reads, latest first, without repeats.
std::vector<int> DataProducers(const Graph& g, const std::vector<int>& producer_of, size_t i) {
  std::vector<int> deps;
  for (int32_t t : g.nodes[i].inputs) {
    if (t < 0) continue;
    const int p = producer_of[static_cast<size_t>(t)];
    if (p >= 0 && std::find(deps.begin(), deps.end(), p) == deps.end()) deps.push_back(p);
  }
  std::sort(deps.rbegin(), deps.rend());
  return deps;
}

void Include(std::vector<bool>& into, const std::vector<bool>& from, int node) {
  for (size_t k = 0; k < from.size(); ++k) {
    if (from[k]) into[k] = true;
  }
  into[static_cast<size_t>(node)] = true;
}

}  // namespace

StreamPlan AssignStreams(const Graph& g, uint32_t max_streams) {
  const size_t n = g.nodes.size();
  StreamPlan p;
  p.stream.assign(n, 0);
  p.waits.assign(n, {});
  if (max_streams <= 1 || n == 0) return p;
  const std::vector<int> producer_of = g.Producers();
  std::vector<int> tail(max_streams, -1);  // each stream's last node so far
  std::vector<std::vector<bool>> after(n, std::vector<bool>(n, false));
  uint32_t used = 1;
  for (size_t i = 0; i < n; ++i) {
    const std::vector<int> deps = DataProducers(g, producer_of, i);
    std::vector<bool>& mine = after[i];
    for (int d : deps) Include(mine, after[static_cast<size_t>(d)], d);
    int chosen = -1;
    // 1. Continue a chain: the stream of a producer that is still its stream's last node.
    for (int d : deps) {
      if (tail[p.stream[static_cast<size_t>(d)]] == d) {
        chosen = static_cast<int>(p.stream[static_cast<size_t>(d)]);
        break;
      }
    }
    if (chosen < 0 && tail[0] < 0) chosen = 0;
    // 2. A stream in use that is idle from this node's view (its last node is one this node follows anyway).
    for (uint32_t s = 0; chosen < 0 && s < used; ++s) {
      if (mine[static_cast<size_t>(tail[s])]) chosen = static_cast<int>(s);
    }
    // 3. A stream not used yet; 4. else the first producer's stream (or the model's), adding an order.
    if (chosen < 0 && used < max_streams) chosen = static_cast<int>(used++);
    if (chosen < 0) chosen = deps.empty() ? 0 : static_cast<int>(p.stream[static_cast<size_t>(deps[0])]);
    const auto s = static_cast<uint32_t>(chosen);
    p.stream[i] = s;
    const int prev = tail[s];
    // Waits: per other stream, its latest producer, unless this stream's previous node already follows it.
    std::vector<bool> waited(used, false);
    for (int d : deps) {  // latest first
      const uint32_t ds = p.stream[static_cast<size_t>(d)];
      if (ds == s || waited[ds]) continue;
      waited[ds] = true;
      if (prev >= 0 && (prev == d || after[static_cast<size_t>(prev)][static_cast<size_t>(d)])) continue;
      p.waits[i].push_back(static_cast<uint32_t>(d));
    }
    std::sort(p.waits[i].begin(), p.waits[i].end());
    if (prev >= 0) Include(mine, after[static_cast<size_t>(prev)], prev);
    tail[s] = static_cast<int>(i);
  }
  p.stream_count = used;
  return p;
}

std::vector<std::vector<bool>> OrderedAfter(const Graph& g, const StreamPlan& plan) {
  const size_t n = g.nodes.size();
  const std::vector<int> producer_of = g.Producers();
  std::vector<std::vector<bool>> after(n, std::vector<bool>(n, false));
  std::vector<int> tail(std::max<uint32_t>(plan.stream_count, 1), -1);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t s = i < plan.stream.size() ? plan.stream[i] : 0;
    for (int d : DataProducers(g, producer_of, i)) Include(after[i], after[static_cast<size_t>(d)], d);
    if (i < plan.waits.size()) {
      for (uint32_t w : plan.waits[i]) Include(after[i], after[w], static_cast<int>(w));
    }
    if (tail[s] >= 0) Include(after[i], after[static_cast<size_t>(tail[s])], tail[s]);
    tail[s] = static_cast<int>(i);
  }
  return after;
}

}  // namespace npurt::atc
