#include "models/om/om_model.h"

namespace npurt::om {

const char* DynamicKindName(DynamicKind k) {
  switch (k) {
    case DynamicKind::kNone: return "static";
    case DynamicKind::kBatch: return "dynamic batch";
    case DynamicKind::kImageSize: return "dynamic image size";
    case DynamicKind::kDims: return "dynamic dims";
    case DynamicKind::kShape: return "dynamic shape";
  }
  return "?";
}

ModelDef GearModel(const ModelDef& def, size_t g) {
  ModelDef m = def;
  m.gears.clear();
  m.input_templates.clear();
  m.dynamic_kind = DynamicKind::kNone;
  m.default_gear = 0;
  if (def.dynamic_kind == DynamicKind::kNone || g >= def.gears.size() || g == def.default_gear) return m;
  const GearDef& gear = def.gears[g];
  m.tensors = gear.tensors;
  m.nodes = gear.nodes;
  m.inputs = gear.inputs;
  m.outputs = gear.outputs;
  m.arena_size = def.arena_size;  // the gears share the model's arena; gear.arena_size is what this one uses
  return m;
}

size_t GearValueCount(DynamicKind kind, const std::vector<InputTemplate>& templates) {
  switch (kind) {
    case DynamicKind::kNone:
    case DynamicKind::kShape: return 0;
    case DynamicKind::kBatch: return 1;
    case DynamicKind::kImageSize: return 2;
    case DynamicKind::kDims: {
      size_t n = 0;
      for (const InputTemplate& t : templates) {
        for (int64_t d : t.dims) n += d == -1 ? 1 : 0;
      }
      return n;
    }
  }
  return 0;
}

bool ApplyGear(DynamicKind kind, const std::vector<InputTemplate>& templates, const std::vector<int64_t>& values,
               std::vector<std::vector<int64_t>>* dims) {
  if (values.size() != GearValueCount(kind, templates)) return false;
  dims->clear();
  size_t next = 0;  // dims: the next value
  for (const InputTemplate& t : templates) {
    std::vector<int64_t> d = t.dims;
    size_t in_input = 0;  // image size: h for the first -1 of an input, w for the second
    for (int64_t& v : d) {
      if (v != -1) continue;
      switch (kind) {
        case DynamicKind::kBatch: v = values[0]; break;
        case DynamicKind::kImageSize:
          if (in_input > 1) return false;
          v = values[in_input++];
          break;
        case DynamicKind::kDims: v = values[next++]; break;
        case DynamicKind::kNone:
        case DynamicKind::kShape: return false;
      }
    }
    dims->push_back(std::move(d));
  }
  return true;
}

}  // namespace npurt::om
