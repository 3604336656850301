// The runtime's shape compiler: what turns a dynamic-shape model's source graph (om::DynamicKind::kShape)
// into a static graph for one set of input shapes. It is atc's converter, built as a library of its own
// (libnpurt_shape_compiler.so, tools/atc/shape_compiler.cc) that the runtime opens from the folder of
// libascendcl.so the first time a dynamic-shape model loads, so that programs that never load one never
// load ONNX and protobuf. The runtime lends it its operator backend (one runtime per process).
//
// One session per loaded model: it parses the source graph once, and its compiled graphs share one growing
// weight region (a constant equal to one compiled before is stored once: weights do not depend on shapes,
// so a second shape adds only the few constants that do, such as folded shape arithmetic).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <span>
#include <vector>

#include "base/status.h"
#include "core/operators.h"
#include "models/om/om_model.h"

namespace npurt::models {

// One set of shapes compiled: a static graph whose weight tensors sit at offsets of the session's weight
// region; `new_weights` are the region's bytes from `weights_offset` on that no earlier compile returned.
struct CompiledShapes {
  om::ModelDef def;
  uint64_t weights_offset = 0;
  std::span<const uint8_t> new_weights;  // in the session's region: valid until its next Compile
};

class ShapeCompilerSession {
 public:
  virtual ~ShapeCompilerSession() = default;
  // `dims`: one list per model input, in input order. Not thread-safe (the loaded model serialises).
  virtual StatusOr<CompiledShapes> Compile(const std::vector<std::vector<int64_t>>& dims) = 0;
};

// What the runtime lends the library.
struct ShapeCompilerHost {
  StatusOr<core::OperatorBuild> (*build_operator)(const core::OperatorCall& call) = nullptr;
  void (*log)(int level, const std::string& message) = nullptr;  // 0 debug .. 3 error
};

// The library's entry point, extern "C" under kShapeCompilerEntry: a session over `source` (the model's
// weight part: the ONNX graph) with `options` (om::ModelDef::shape_options). Returns false and fills `error`
// if the graph or the options do not read.
using OpenShapeCompilerFn = bool (*)(const ShapeCompilerHost* host, const uint8_t* source, size_t size,
                                     const std::string* options, std::unique_ptr<ShapeCompilerSession>* session,
                                     std::string* error);
inline constexpr const char* kShapeCompilerLibrary = "libnpurt_shape_compiler.so";
inline constexpr const char* kShapeCompilerEntry = "npurt_open_shape_compiler_v1";

// Opens a session, loading the library on first use (next to libascendcl.so; NPURT_SHAPE_COMPILER names
// another path). A missing library is ACL_ERROR_RT_FEATURE_NOT_SUPPORT with the loader's reason.
StatusOr<std::unique_ptr<ShapeCompilerSession>> OpenShapeCompiler(const uint8_t* source, size_t size,
                                                                  const std::string& options);

}  // namespace npurt::models
