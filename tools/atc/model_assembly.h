// From the final backend Graph to the container's ModelDef and weight region: tensor regions (model
// inputs and outputs are user buffers, constants go to the weight region, the rest to the arena), views
// (a Reshape whose input and output are both arena tensors shares its input's memory), the arena plan
// (memory_planner.h) and the packed, de-duplicated weight region (weight_packing.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "graph.h"
#include "stream_assign.h"
#include "memory_planner.h"
#include "models/om/om_model.h"

namespace npurt::atc {

class WeightPacker;

struct AssemblyOptions {
  bool disable_reuse = false;
  // Gears share one weight region: each gear's constants go into this packer (equal bytes stored once across
  // the gears), and the caller takes the region when every gear is in (`weights` and `weight_size` stay
  // empty). Null: the model's own region.
  WeightPacker* packer = nullptr;
  // The nodes' streams (stream_assign.h); null or one stream: everything on stream 0. With several, buffers that
  // two streams may use at once never share memory.
  const StreamPlan* streams = nullptr;
};

struct AssembledModel {
  om::ModelDef def;  // everything but the identity fields (name, soc, producer, ...), which the caller sets
  std::vector<uint8_t> weights;
  MemoryPlan plan;
  int views = 0;                      // Reshapes whose output shares its input's memory
  uint64_t weights_deduplicated = 0;  // bytes saved by sharing identical constants
};

StatusOr<AssembledModel> AssembleModel(const Graph& g, const AssemblyOptions& opts);

}  // namespace npurt::atc
