#include "models/om/single_op.h"

#include <fmt/format.h>

#include <cstdint>

#include "acl/error_codes/ge_error_codes.h"

namespace npurt::om {

ModelDef SingleOpModel(const SingleOpDef& op, const std::string& soc_version, const std::string& producer,
                       const std::string& command_line) {
  ModelDef def;
  def.name = op.op_type;
  def.producer = producer;
  def.soc_version = soc_version;
  def.command_line = command_line;
  def.single_op = true;
  NodeDef node;
  node.name = op.op_type;
  node.source_type = op.op_type;
  node.op_type = op.op_type;
  node.attrs = op.attrs;
  auto add = [&](const TensorSpec& spec, Region region, size_t index, const char* what) {
    TensorDef t;
    t.name = fmt::format("{}{}", what, index);
    t.spec = spec;
    t.bytes = spec.bytes();
    t.region = region;
    t.io_index = static_cast<uint32_t>(index);
    def.tensors.push_back(std::move(t));
    return static_cast<int32_t>(def.tensors.size() - 1);
  };
  for (size_t i = 0; i < op.inputs.size(); ++i) def.inputs.push_back(add(op.inputs[i], Region::kInput, i, "x"));
  for (size_t i = 0; i < op.outputs.size(); ++i) def.outputs.push_back(add(op.outputs[i], Region::kOutput, i, "y"));
  node.inputs = def.inputs;
  node.outputs = def.outputs;
  def.nodes.push_back(std::move(node));
  return def;
}

StatusOr<SingleOpDef> SingleOpOf(const ModelDef& def) {
  if (!def.single_op || def.nodes.size() != 1) {
    return Err(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
               "the file is a model ({}), not a single-operator model: load it with aclmdlLoadFromFile",
               def.name.empty() ? "unnamed" : def.name);
  }
  SingleOpDef op;
  op.op_type = def.nodes[0].op_type;
  op.attrs = def.nodes[0].attrs;
  for (int32_t t : def.inputs) op.inputs.push_back(def.tensors[t].spec);
  for (int32_t t : def.outputs) op.outputs.push_back(def.tensors[t].spec);
  return op;
}

std::string SingleOpFileName(size_t index, const SingleOpDef& op) {
  std::string name = fmt::format("{}_{}", index, op.op_type);
  auto describe = [&](const TensorSpec& s) {
    name += fmt::format("_{}_{}", s.dtype, s.format);
    for (int64_t d : s.dims) name += fmt::format("_{}", d);
  };
  for (const TensorSpec& s : op.inputs) describe(s);
  for (const TensorSpec& s : op.outputs) describe(s);
  // A file name has at most 255 bytes: long descriptor lists become their hash (FNV-1a), still unique per call.
  constexpr size_t kMaxName = 240;
  if (name.size() > kMaxName) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
    name = fmt::format("{}_{}_{:016x}", index, op.op_type.substr(0, 128), h);
  }
  return name + ".om";
}

}  // namespace npurt::om
