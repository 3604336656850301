// Single-operator models (atc --singleop): one operator call, its input and output descriptors and its
// attributes, kept in the .om container as a one-node ModelDef with `single_op` set, so that the same
// verifier (om_reader.h) guards them. atc writes one file per operator of the JSON op list, named as
// CANN names them; aclopSetModelDir / aclopLoad read them back and compile the operator ahead of its
// first execution.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/op_attrs.h"
#include "base/status.h"
#include "base/tensor_spec.h"
#include "models/om/om_model.h"

namespace npurt::om {

struct SingleOpDef {
  std::string op_type;  // as aclopExecuteV2 names it ("Add", "GEMM", ...)
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  AttrMap attrs;
};

// The ModelDef that holds `op` (static dims only).
ModelDef SingleOpModel(const SingleOpDef& op, const std::string& soc_version, const std::string& producer,
                       const std::string& command_line);

// The operator of a verified single-operator model (om_reader.h has checked its structure).
StatusOr<SingleOpDef> SingleOpOf(const ModelDef& def);

// CANN's file name for the `index`-th operator of a list when the JSON gives none:
// <index>_<op>_<dtype>_<format>_<dims...>_ per input then per output, ".om" (e.g. 0_Add_3_2_8_16_3_2_8_16_3_2_8_16.om).
std::string SingleOpFileName(size_t index, const SingleOpDef& op);

}  // namespace npurt::om
