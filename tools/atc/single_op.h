// atc --singleop=ops.json --output=<dir>: single-operator models. The JSON is CANN's op list (an array of
// {"op", "name"?, "input_desc", "output_desc", "attr"?}); each static operator is validated and compiled
// by the runtime's operator backend exactly as aclopExecuteV2 would compile it, then written to <dir> as a
// single-operator .om (src/models/om/single_op.h) that aclopSetModelDir / aclopLoad read. Operators with
// dynamic dims (-1, -2) are checked and skipped: npurt compiles each new shape when aclopExecuteV2 first
// sees it, so they need no file.
#pragma once

#include <string>
#include <vector>

#include "atc_options.h"
#include "base/status.h"
#include "converter.h"
#include "models/om/single_op.h"

namespace npurt::atc {

struct SingleOpEntry {
  std::string file_name;  // "name" of the JSON, or CANN's default (single_op.h SingleOpFileName)
  om::SingleOpDef op;
  bool dynamic = false;  // some dim is -1 or -2: no file is written
};

// Parses and checks the op list (the text of the --singleop file). Errors name the operator's index and
// type, the field and what is wrong.
StatusOr<std::vector<SingleOpEntry>> ParseSingleOpList(const std::string& json_text);

// Mode 0 with --singleop: parse, compile each operator, write <output>/<file_name> for each static one.
StatusOr<ConversionReport> BuildSingleOpModels(const Options& opts);

}  // namespace npurt::atc
