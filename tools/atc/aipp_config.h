// --insert_op_conf: the AIPP configuration file (text protobuf of domi.InsertNewOps, shared reference
// models.md §3.5): `aipp_op { aipp_mode: static  input_format: YUV420SP_U8  src_image_size_w: 224 ... }`.
// The parser checks the syntax, the field names and the field values' kinds; the converter then refuses
// AIPP as not yet supported (npurt has no AIPP pre-processing operator yet), naming what was asked for.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"

namespace npurt::atc {

struct AippOp {
  std::map<std::string, std::string> fields;  // name -> value as written (enum names unquoted)
};

struct AippConfig {
  std::vector<AippOp> ops;
};

StatusOr<AippConfig> ParseAippConfig(const std::string& text, const std::string& source);
StatusOr<AippConfig> ParseAippConfigFile(const std::string& path);

// OK for a file without aipp_op; otherwise the "not yet supported" error naming the mode and input.
Status CheckAippSupported(const AippConfig& config);

}  // namespace npurt::atc
