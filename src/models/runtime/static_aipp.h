// Static AIPP in a loaded or described model (atc --insert_op_conf; the backend's Aipp operator): which
// model inputs are images pre-processed by an Aipp node, with its parameters, for aclmdlGetAippType,
// aclmdlGetFirstAippInfo and the two views of such an input (aclmdlGetInputDims: the image as
// [N, C, H, W]; aclmdlGetInputDimsV2: the buffer, e.g. [N, H, W, 3] for RGB888_U8).
#pragma once

#include <cstddef>
#include <vector>

#include "base/op_attrs.h"
#include "base/tensor_spec.h"
#include "models/om/om_model.h"

namespace npurt::models {

struct StaticAipp {
  size_t input = 0;         // the model input (the image buffer)
  AttrMap attrs;            // the Aipp node's parameters
  TensorSpec model_input;   // what the Aipp node writes: the model's own input tensor
  std::vector<int64_t> image_dims;  // [N, C, H, W] of the source image (C: 3, 4 for XRGB, 1 for YUV400)
};

// Every model input that an Aipp node reads (a node reading a model input directly).
std::vector<StaticAipp> FindStaticAipp(const om::ModelDef& def);

}  // namespace npurt::models
