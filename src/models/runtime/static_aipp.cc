#include "models/runtime/static_aipp.h"

namespace npurt::models {

std::vector<StaticAipp> FindStaticAipp(const om::ModelDef& def) {
  std::vector<StaticAipp> out;
  for (const om::NodeDef& n : def.nodes) {
    if (n.op_type != "Aipp" || n.inputs.empty() || n.outputs.empty() || n.inputs[0] < 0) continue;
    const om::TensorDef& in = def.tensors[static_cast<size_t>(n.inputs[0])];
    if (in.region != om::Region::kInput) continue;
    StaticAipp a;
    a.input = in.io_index;
    a.attrs = n.attrs;
    a.model_input = def.tensors[static_cast<size_t>(n.outputs[0])].spec;
    const auto w = GetInt(n.attrs, "src_image_size_w", 0), h = GetInt(n.attrs, "src_image_size_h", 0);
    const auto format = GetString(n.attrs, "input_format", "");
    const int64_t c = format.ok() && format.value() == "XRGB8888_U8" ? 4 : format.ok() && format.value() == "YUV400_U8" ? 1 : 3;
    const int64_t batch = in.spec.dims.empty() ? 1 : in.spec.dims[0];
    a.image_dims = {batch, c, h.ok() ? h.value() : 0, w.ok() ? w.value() : 0};
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace npurt::models
