// Reading the source model: what kind of file --model is, the ONNX ModelProto with --input_shape
// applied and ONNX shape inference run, and the conversions from ONNX values (tensors, data types,
// attributes) to atc's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <onnx/onnx_pb.h>

#include "atc_options.h"
#include "base/status.h"
#include "graph.h"

namespace npurt::atc {

// Loads and checks `path`: a file that is not ONNX (a CANN .om, an npurt .om, a zip, garbage) fails with
// what it is. Applies `shapes` to the graph inputs (dims given for dynamic or fixed dims alike; a name
// that is no input fails), then runs ONNX shape inference. `opset` receives the default-domain opset.
Status LoadOnnxModel(const std::string& path, const std::vector<InputShape>& shapes, onnx::ModelProto* model,
                     int64_t* opset);

// LoadOnnxModel's two steps. ParseOnnxModel checks `bytes` (`path` names them in messages) and reads the
// opset; ApplyInputShapes sets the inputs' dims and, when `isolated_inference` (atc), runs ONNX shape
// inference in a child process to cross-check the backend's shapes; the runtime's shape compiler, which may
// not fork, skips it.
Status ParseOnnxModel(std::string_view bytes, const std::string& path, onnx::ModelProto* model, int64_t* opset);
Status ApplyInputShapes(const std::vector<InputShape>& shapes, const std::string& path, bool isolated_inference,
                        int64_t opset, onnx::ModelProto* model);

// The model at `path` as one self-contained ModelProto (external data inlined): what a dynamic-shape .om
// keeps as its source graph.
StatusOr<std::string> OnnxSourceBytes(const std::string& path);

// aclDataType of an ONNX TensorProto data type (-1 if npurt has none).
int32_t AclTypeOfOnnx(int32_t onnx_type);
const char* OnnxTypeName(int32_t onnx_type);

// An initializer or Constant value as a HostTensor (raw_data, typed fields or external data next to
// `model_dir`).
StatusOr<HostTensor> ToHostTensor(const onnx::TensorProto& t, const std::string& model_dir);

// Attribute access on a NodeProto.
const onnx::AttributeProto* FindAttr(const onnx::NodeProto& n, const std::string& name);
int64_t AttrInt(const onnx::NodeProto& n, const std::string& name, int64_t def);
float AttrFloat(const onnx::NodeProto& n, const std::string& name, float def);
std::string AttrString(const onnx::NodeProto& n, const std::string& name, const std::string& def);
std::vector<int64_t> AttrInts(const onnx::NodeProto& n, const std::string& name, std::vector<int64_t> def = {});

}  // namespace npurt::atc
