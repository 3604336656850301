#include "models/runtime/gear_table.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string_view>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/ge_error_codes.h"

namespace npurt::models {

GearTable MakeGearTable(const om::ModelDef& def) {
  GearTable t;
  t.kind = def.dynamic_kind;
  if (t.shapes()) {
    t.templates = def.input_templates;
    for (size_t i = 0; i < def.inputs.size(); ++i) t.template_inputs.push_back(i);
    return t;
  }
  if (!t.dynamic()) return t;
  t.templates = def.input_templates;
  t.default_gear = def.default_gear;
  t.selector_index = def.inputs.size() - 1;
  for (const om::InputTemplate& tpl : t.templates) {
    for (size_t i = 0; i < def.inputs.size(); ++i) {
      if (def.tensors[def.inputs[i]].name == tpl.name) t.template_inputs.push_back(i);
    }
  }
  for (size_t g = 0; g < def.gears.size(); ++g) {
    t.values.push_back(def.gears[g].values);
    const om::GearDef& gear = def.gears[g];
    const bool own = g == def.default_gear;
    const auto& tensors = own ? def.tensors : gear.tensors;
    std::vector<std::vector<int64_t>> ins, outs;
    for (int32_t id : own ? def.inputs : gear.inputs) ins.push_back(tensors[id].spec.dims);
    for (int32_t id : own ? def.outputs : gear.outputs) outs.push_back(tensors[id].spec.dims);
    t.input_dims.push_back(std::move(ins));
    t.output_dims.push_back(std::move(outs));
  }
  return t;
}

std::string GearTable::Describe() const {
  std::string out;
  for (const auto& v : values) {
    if (!out.empty()) out += ", ";
    switch (kind) {
      case om::DynamicKind::kBatch: out += fmt::format("{}", v[0]); break;
      case om::DynamicKind::kImageSize: out += fmt::format("{}x{}", v[0], v[1]); break;
      default: out += fmt::format("[{}]", fmt::join(v, ",")); break;
    }
  }
  return out;
}

namespace {

Status WrongKind(const GearTable& t, const char* asked) {
  const char* option = std::string_view(asked) == "batch"        ? "--dynamic_batch_size"
                       : std::string_view(asked) == "image-size"                               ? "--dynamic_image_size"
                                                                                                : "--dynamic_dims";
  if (t.shapes()) {
    return Err(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID, "the model has no {} gears: it is a dynamic-shape model (-1 "
               "or ranges without {}); give each execution's input shapes with aclmdlSetDatasetTensorDesc", asked,
               option);
  }
  if (!t.dynamic()) {
    return Err(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID, "the model has no {} gears (it is static: it was converted "
               "without {}), so it has no {} input to set", asked, option, om::kDynamicTensorName);
  }
  return Err(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, "the model has {} gears, not {} gears ({})",
             om::DynamicKindName(t.kind), asked, t.Describe());
}

StatusOr<size_t> Find(const GearTable& t, const std::vector<int64_t>& values, const std::string& what) {
  for (size_t g = 0; g < t.values.size(); ++g) {
    if (t.values[g] == values) return g;
  }
  return Err(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, "{} is not a gear of the model; its gears are {}", what,
             t.Describe());
}

}  // namespace

StatusOr<size_t> GearTable::FindBatch(uint64_t batch) const {
  if (kind != om::DynamicKind::kBatch) return WrongKind(*this, "batch");
  return Find(*this, {static_cast<int64_t>(batch)}, fmt::format("batch size {}", batch));
}

StatusOr<size_t> GearTable::FindImageSize(uint64_t height, uint64_t width) const {
  if (kind != om::DynamicKind::kImageSize) return WrongKind(*this, "image-size");
  return Find(*this, {static_cast<int64_t>(height), static_cast<int64_t>(width)},
              fmt::format("image size {}x{}", height, width));
}

StatusOr<size_t> GearTable::FindDims(const std::vector<int64_t>& all) const {
  if (kind != om::DynamicKind::kDims) return WrongKind(*this, "dims");
  size_t total = 0;
  for (const om::InputTemplate& tpl : templates) total += tpl.dims.size();
  if (all.size() != total) {
    return Err(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
               "the request has {} dims; the model's dynamic inputs have {} in all (every dim of every input, in "
               "--input_shape order)", all.size(), total);
  }
  std::vector<int64_t> values;
  size_t at = 0;
  for (const om::InputTemplate& tpl : templates) {
    for (size_t d = 0; d < tpl.dims.size(); ++d, ++at) {
      if (tpl.dims[d] == -1) {
        values.push_back(all[at]);
      } else if (all[at] != tpl.dims[d]) {
        return Err(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                   "dim {} of input {} is static ({}), the request gives {}: static dims should be the same", d,
                   tpl.name, tpl.dims[d], all[at]);
      }
    }
  }
  return Find(*this, values, fmt::format("dims [{}]", fmt::join(values, ",")));
}

}  // namespace npurt::models
