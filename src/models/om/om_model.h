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
  // A tensor whose dims depend on the data: the arena offset of its actual dims (rank int64s, written on the
  // device by its producer); its spec is then an upper bound. -1: static. (format version 5)
  int64_t shape_slot = -1;
  uint64_t varying_dims = 0;  // of a data-dependent tensor: bit k set when dim k follows the data
  bool data_dependent() const { return shape_slot >= 0; }
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

// How a model's inputs may change between executions (atc --dynamic_batch_size / --dynamic_image_size /
// --dynamic_dims): each "gear" is a static graph of its own over the model's one weight region and one
// arena, chosen per execution through the hidden last input ascend_mbatch_shape_data.
//
// kShape is the other answer, true dynamic shapes (atc --input_shape with -1 or ranges and no gear option):
// the .om holds the source graph (the ONNX model, in the container's weight part) and the conversion's
// options instead of a compiled graph; the runtime compiles it for each set of input shapes it meets
// (models/runtime/shape_compiler.h) and keeps the compiled graphs in a cache.
enum class DynamicKind : uint8_t { kNone = 0, kBatch = 1, kImageSize = 2, kDims = 3, kShape = 4 };
const char* DynamicKindName(DynamicKind k);

// A data input as --input_shape declared it: -1 where the gears set the dim. The dims of a dims gear fill
// the -1s of these inputs in this order (the order of --input_shape).
struct InputTemplate {
  std::string name;
  std::vector<int64_t> dims;
  // kShape: each dim's [min, max] (a static dim: its value twice; max -1: unbounded). Empty for gears.
  std::vector<int64_t> range_min;
  std::vector<int64_t> range_max;
};

// One gear: its values (batch: {b}; image size: {h, w}; dims: one per -1 of the templates) and its graph.
// The graph of the model's default gear is the ModelDef's own (tensors, nodes, inputs, outputs): its
// GearDef keeps only the values.
struct GearDef {
  std::vector<int64_t> values;
  std::vector<TensorDef> tensors;
  std::vector<NodeDef> nodes;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  uint64_t arena_size = 0;  // what this gear plans (the default gear's too), at most the model's arena_size
};

// The hidden gear-selector input (acl_mdl.h ACL_DYNAMIC_TENSOR_NAME): int32, ND, {k}, the model's last input.
inline constexpr const char* kDynamicTensorName = "ascend_mbatch_shape_data";

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
  // Gears (kNone: a static model, `gears` empty).
  DynamicKind dynamic_kind = DynamicKind::kNone;
  std::vector<InputTemplate> input_templates;
  std::vector<GearDef> gears;  // in the order of the atc option
  uint32_t default_gear = 0;   // the largest: what runs when no gear is chosen; its graph is the model's own
  // A single-operator model (atc --singleop, single_op.h): one node over the model's inputs and outputs,
  // no weights, no arena. aclopSetModelDir / aclopLoad read it; aclmdlLoad* refuses it.
  bool single_op = false;
  // kShape (format version 4): the conversion options the runtime compiles the source graph with (JSON,
  // written and read by atc's shape compiler), and the weight bytes a compiled graph uploads (what
  // aclmdlQuerySize reports). The source graph is the container's weight part; `tensors` holds only the
  // model inputs and outputs, with -1 where their dims vary and the bytes of their largest shape (0 when
  // unbounded).
  std::string shape_options;
  uint64_t shape_weight_size = 0;
};

// The ModelDef whose graph is gear `g`'s (a static model: g must be 0, the model itself).
ModelDef GearModel(const ModelDef& def, size_t g);

// How many values a gear of `kind` has over these templates (batch 1, image size 2, dims: the -1s).
size_t GearValueCount(DynamicKind kind, const std::vector<InputTemplate>& templates);

// The templates' dims with a gear's values in place of their -1s: batch b everywhere, image size h then w
// in each input, dims one value per -1 in order. False if `values` has the wrong count.
bool ApplyGear(DynamicKind kind, const std::vector<InputTemplate>& templates, const std::vector<int64_t>& values,
               std::vector<std::vector<int64_t>>* dims);

// Alignment of every tensor in the arena and the weight region (and of the weight region in the file).
inline constexpr uint64_t kTensorAlign = 64;

}  // namespace npurt::om
