// --insert_op_conf: the AIPP configuration file (text protobuf of domi.InsertNewOps, shared reference
// models.md §3.5): `aipp_op { aipp_mode: static  input_format: YUV420SP_U8  src_image_size_w: 224 ... }`.
// The parser checks the syntax, the field names and the field values' kinds; aipp_insert.h checks what
// npurt runs (static AIPP) and inserts it.
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

}  // namespace npurt::atc
