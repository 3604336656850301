// Static AIPP (atc --insert_op_conf with aipp_mode: static): each aipp_op becomes an Aipp node of the
// runtime's operator backend in front of the model input it names (related_input_rank). The input becomes
// the 8-bit image buffer the program fills (RGB888_U8 [N,H,W,3], XRGB8888_U8 [N,H,W,4], YUV400_U8
// [N,H,W,1], YUV420SP_U8 [N,H*3/2,W,1]); the Aipp node writes the model's NCHW tensor. The config is
// checked against the model input: crop and padding must produce exactly its H and W.
#pragma once

#include "aipp_config.h"
#include "base/status.h"
#include "graph.h"

namespace npurt::atc {

// Refuses what npurt does not run (dynamic AIPP, resize, rotation, other input formats) with the reason;
// OK for a config without aipp_op. `gears`: the conversion compiles gears (not combined with AIPP yet).
Status CheckAippSupported(const AippConfig& config, bool gears);

// Inserts the config's Aipp nodes into `g` (after lowering, before the passes).
Status InsertStaticAipp(const AippConfig& config, Graph* g);

}  // namespace npurt::atc
