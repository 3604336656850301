// Streams for independent branches (issue 15; docs/atc.md, "Streams"): operators that do not depend on each
// other, such as the parallel convolutions of an Inception block, go to different model streams, so the loaded
// model replays them concurrently; a node that reads what another stream computed waits for it (the .om's
// `waits`). atc --enable_single_stream=true keeps every operator on one stream.
//
// The assignment walks the execution order once. A node continues the stream of a producer whose stream ends
// with that producer (a chain stays on one stream); a node that cannot (the second consumer of a fork, or a
// node whose producers' streams went on elsewhere) takes a stream that is free, preferring one no stream has
// used yet and then one whose last node it already depends on (so no ordering is added that the graph does not
// have), up to `max_streams`; when none is free it shares the stream its first producer is on.
//
// The memory plan must then keep apart buffers that two streams may use at once: StreamOrderedLifetimes turns
// each buffer's last step into the last step of any node that is not ordered after every use of it (by the
// graph's data, each stream's order and the waits), so the planner's interval rule stays safe.
#pragma once

#include <cstdint>
#include <vector>

#include "graph.h"

namespace npurt::atc {

// The most streams atc gives a model's branches: beyond a few, a 2-to-16-core device gains nothing more from
// running branches side by side.
inline constexpr uint32_t kMaxModelStreams = 4;

struct StreamPlan {
  uint32_t stream_count = 1;
  std::vector<uint32_t> stream;              // per node of the graph
  std::vector<std::vector<uint32_t>> waits;  // per node: nodes of other streams it waits for (the latest per stream)
};

StreamPlan AssignStreams(const Graph& g, uint32_t max_streams);

// Per node: the nodes it is ordered after, as a bitset over node indices (its data producers, the previous node
// of its stream and what it waits for, transitively).
std::vector<std::vector<bool>> OrderedAfter(const Graph& g, const StreamPlan& plan);

}  // namespace npurt::atc
