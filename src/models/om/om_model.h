// The offline model as C++ values: what atc builds and writes (om_writer.h) and what the loader reads back
// from a verified file (om_reader.h). The container layout is om_format.h; the FlatBuffers schema
// npurt_om.fbs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/op_attrs.h"
#include "base/tensor_spec.h"

namespace npurt::om {

enum class Region : uint8_t { kArena = 0, kWeight = 1, kInput = 2, kOutput = 3 };
const char* RegionName(Region r);

struct TensorDef {
  std::string name;
  TensorSpec spec;
  uint64_t bytes = 0;  // spec.bytes()
  Region region = Region::kArena;
  uint64_t offset = 0;    // kArena / kWeight
  uint32_t io_index = 0;  // kInput / kOutput
};

struct NodeDef {
  std::string name;
  std::string source_type;
  std::string op_type;
  std::vector<int32_t> inputs;  // -1: an optional input left out
  std::vector<int32_t> outputs;
  AttrMap attrs;
  uint32_t stream = 0;
  std::vector<uint32_t> waits;
  std::vector<std::string> origin_names;  // the source nodes fused into it (empty: just `name`)
};

struct ModelDef {
  std::string name;
  std::string producer;
  std::string soc_version;
  int32_t framework = 5;
  int64_t source_opset = 0;
  std::string precision_mode;
  std::vector<TensorDef> tensors;
  std::vector<NodeDef> nodes;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  uint64_t arena_size = 0;
  uint64_t weight_size = 0;
  uint64_t plan_lower_bound = 0;
  uint64_t plan_no_reuse = 0;
  uint32_t stream_count = 1;
  std::string command_line;
};

// Alignment of every tensor in the arena and the weight region (and of the weight region in the file).
inline constexpr uint64_t kTensorAlign = 64;

}  // namespace npurt::om
