// Attribute handling shared by the windowed NN operators (Conv2D, MaxPool, AvgPool).
#pragma once

#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host {

// True for NHWC, false for NCHW: from the data_format attribute, else the input's format.
StatusOr<bool> ActivationLayout(const OpBuild& b, const TensorSpec& x);

// The blocked activation format NC1HWC0 (docs/operators.md): dims [N, C1, H, W, C0] hold a logical
// [N, C, H, W] with C1 = ceil(C / C0), channel c at block c / C0, lane c % C0; the lanes past C are zero
// and every op that writes the format keeps them zero. C0 is 8 or 16 (oneDNN's nChw8c / nChw16c).
inline bool IsBlocked(const TensorSpec& s) { return s.format == ACL_FORMAT_NC1HWC0; }
// Checks that `s` (input `input` of the op) is a valid NC1HWC0 tensor of `dtype`.
Status CheckBlocked(const OpBuild& b, int input, const TensorSpec& s, int32_t dtype);
inline int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline std::vector<int64_t> BlockedDims(int64_t n, int64_t c, int64_t h, int64_t w, int64_t c0) {
  return {n, CeilDiv(c, c0), h, w, c0};
}
// The "dst_format" attribute ("NCHW" | "NC1HWC0", default `def`) as an aclFormat, and "c0" (default
// `def_c0`, must be 8 or 16) for a blocked one.
StatusOr<int32_t> DstFormat(const OpBuild& b, int32_t def);
StatusOr<int64_t> BlockC0(const OpBuild& b, int64_t def_c0);

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
void RegisterTransDataOps(OpTable& t);
void RegisterAippOps(OpTable& t);

}  // namespace npurt::drivers::host
