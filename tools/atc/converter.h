// Mode 0: the whole conversion, ONNX file -> <output>.om. Nothing is written unless every step passed.
#pragma once

#include <string>

#include <nlohmann/json.hpp>
#include <onnx/onnx_pb.h>

#include "atc_options.h"
#include "base/status.h"
#include "lowering.h"
#include "model_assembly.h"

namespace npurt::atc {

struct ConversionReport {
  std::string om_path;
  std::string summary;  // the lines atc prints on success (memory plan, weights, nodes)
};

StatusOr<ConversionReport> ConvertModel(const Options& opts);

// A dynamic-shape model (DynamicKind::kShape) keeps the options its graph converts with: what of Options
// the graph's conversion reads, as JSON (om::ModelDef::shape_options), and back.
nlohmann::json ShapeOptionsJson(const Options& opts);
StatusOr<Options> ShapeOptionsFromJson(const std::string& text);

// The graph of `parsed` (ParseOnnxModel's, at `opset`) converted at `shapes` in the calling process: what the
// runtime's shape compiler runs for each new set of shapes. Its constants go to `packer`; `initializers`
// (null: the graph's own) hold the values of a hollowed graph's initializers (lowering.h).
StatusOr<AssembledModel> BuildGraphForShapes(const Options& opts, const onnx::ModelProto& parsed, int64_t opset,
                                             const std::vector<InputShape>& shapes, WeightPacker* packer,
                                             const InitializerStore* initializers = nullptr);

}  // namespace npurt::atc
