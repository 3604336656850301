// The layout pass: 4-D fp32 activations that flow between the operators that read and write the blocked
// format NC1HWC0 (the backend's TransData, Conv2D and pools; docs/operators.md) are stored in it, so the
// convolutions run on oneDNN's blocked layout without reordering their activations on every run, and
// TransData nodes convert at the edges. Run after fusion (a residual add or an activation left as a
// node of its own reads NCHW), before CastOutputs and EnsureOutputsWritten.
//
// Rules: every fp32 NCHW Conv2D writes NC1HWC0 (attrs dst_format, c0); a MaxPool / AvgPool /
// GlobalAveragePool whose input is NC1HWC0 writes it too. A Conv2D reads an NC1HWC0 x as it is and
// needs its post-op addend in y's format (a TransData to NC1HWC0 in front of it otherwise). Any other
// reader of an NC1HWC0 tensor, and a model output, gets the NCHW tensor from one TransData right after
// the producer; that tensor keeps the original name, the blocked one is named "<name>/NC1HWC0".
// C0 is the backend's native block for fp32 (the TransData default: 8 with AVX2, 16 with AVX512), written
// into the model as the attr c0, so the .om reads the same on any CPU.
#pragma once

#include "base/status.h"
#include "graph.h"

namespace npurt::atc {

struct LayoutStats {
  int blocked = 0;     // tensors stored as NC1HWC0
  int trans_data = 0;  // TransData nodes inserted
};

StatusOr<LayoutStats> AssignBlockedLayout(Graph& g);

}  // namespace npurt::atc
