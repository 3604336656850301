// Attribute handling shared by the windowed NN operators (Conv2D, MaxPool, AvgPool).
#pragma once

#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host {

// True for NHWC, false for NCHW: from the data_format attribute, else the input's format.
StatusOr<bool> ActivationLayout(const OpBuild& b, const TensorSpec& x);

struct Window {
  int64_t sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;
  int64_t oh = 0, ow = 0;
};

// Reads strides/dilations (4 values in data_format order or 2 for H, W) and pads ([top, bottom, left,
// right]) or a "padding" string ("SAME" / "VALID", TensorFlow rules); computes the output size.
StatusOr<Window> ReadWindow(const OpBuild& b, bool nhwc, const char* strides_attr, const char* dilations_attr,
                            const char* pads_attr, int64_t h, int64_t w, int64_t kh, int64_t kw);

void RegisterConvOps(OpTable& t);
void RegisterPoolOps(OpTable& t);
void RegisterNormOps(OpTable& t);

}  // namespace npurt::drivers::host
