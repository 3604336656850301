// libnpurt_shape_compiler.so: atc's converter as the runtime's shape compiler (src/models/runtime/
// shape_compiler.h). The runtime opens it with dlopen and lends it its operator backend, so this library
// holds no runtime of its own: BuildWithBackend (backend.h) forwards to the host's.
#include <onnx/onnx_pb.h>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/ge_error_codes.h"
#include "acl/error_codes/rt_error_codes.h"

#include "backend.h"
#include "converter.h"
#include "models/runtime/shape_compiler.h"
#include "onnx_model.h"
#include "weight_packing.h"

namespace npurt::atc {
namespace {

const models::ShapeCompilerHost* g_host = nullptr;  // set once, by the first session opened

void ToHostLog(LogLevel level, const std::string& message) {
  if (g_host != nullptr && g_host->log != nullptr) g_host->log(static_cast<int>(level), message);
}

class Session final : public models::ShapeCompilerSession {
 public:
  Status Open(const uint8_t* source, size_t size, const std::string& options) {
    auto opts = ShapeOptionsFromJson(options);
    if (!opts.ok()) return std::move(opts).status();
    opts_ = std::move(opts).value();
    opts_.model = "the model's source graph";
    const std::string_view bytes(reinterpret_cast<const char*>(source), size);  // parsed in place
    NPURT_RETURN_IF_ERROR(ParseOnnxModel(bytes, opts_.model, &model_, &opset_));
    return HollowInitializers();
  }

  StatusOr<models::CompiledShapes> Compile(const std::vector<std::vector<int64_t>>& dims) override {
    if (dims.size() != opts_.input_shapes.size()) {
      return Err(ACL_ERROR_INVALID_PARAM, "the model has {} inputs with shapes, {} shapes are given",
                 opts_.input_shapes.size(), dims.size());
    }
    std::vector<InputShape> shapes = opts_.input_shapes;
    for (size_t i = 0; i < shapes.size(); ++i) shapes[i].dims = dims[i];
    const uint64_t before = packer_.region().size();
    auto built = BuildGraphForShapes(opts_, model_, opset_, shapes, &packer_, &initializers_);
    if (!built.ok()) return Err(ACL_ERROR_GE_PARAM_INVALID, "{}", built.status().message());
    models::CompiledShapes out;
    out.def = std::move(built->def);
    out.def.weight_size = packer_.region().size();
    out.weights_offset = before;
    out.new_weights = std::span<const uint8_t>(packer_.region().data() + before, packer_.region().size() - before);
    return out;
  }

 private:
  // Each initializer converted once, into initializers_, and pinned in the packer; the graph keeps its
  // name, type and dims only. So a compile copies a graph without weights, lowers it over the same
  // converted values, and packs weights it packed before without hashing them again.
  Status HollowInitializers() {
    for (onnx::TensorProto& init : *model_.mutable_graph()->mutable_initializer()) {
      // atc inlines external data into the model's source graph: a reference to a file is not atc's work,
      // and must not make the runtime read files named by a model.
      if (init.data_location() == onnx::TensorProto::EXTERNAL || init.external_data_size() > 0) {
        return Err(ACL_ERROR_GE_PARAM_INVALID, "initializer {} of the model's source graph refers to external data; "
                   "atc inlines it, so the model was not written by atc", init.name());
      }
      auto value = ToHostTensor(init, ".");
      if (!value.ok()) return std::move(value).status();
      auto shared = std::make_shared<const HostTensor>(std::move(value).value());
      packer_.Pin(ConstBytes::Of(shared));
      initializers_[init.name()] = std::move(shared);
      init.clear_raw_data();
      init.clear_float_data();
      init.clear_int32_data();
      init.clear_int64_data();
      init.clear_double_data();
      init.clear_uint64_data();
      init.clear_string_data();
      init.clear_external_data();
      init.clear_data_location();
    }
    return Status::Ok();
  }

  Options opts_;
  onnx::ModelProto model_;
  int64_t opset_ = 0;
  InitializerStore initializers_;  // before packer_: it pins storage these own
  WeightPacker packer_;
};

}  // namespace

StatusOr<core::OperatorBuild> BuildWithBackend(const core::OperatorCall& call) {
  if (g_host == nullptr || g_host->build_operator == nullptr) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the shape compiler was given no operator backend");
  }
  return g_host->build_operator(call);
}

}  // namespace npurt::atc

extern "C" __attribute__((visibility("default"))) bool npurt_open_shape_compiler_v1(
    const npurt::models::ShapeCompilerHost* host, const uint8_t* source, size_t size, const std::string* options,
    std::unique_ptr<npurt::models::ShapeCompilerSession>* session, std::string* error) {
  using namespace npurt::atc;
  if (host == nullptr || source == nullptr || options == nullptr || session == nullptr || error == nullptr) return false;
  g_host = host;
  SetLogSink(&ToHostLog);
  auto s = std::make_unique<Session>();
  if (npurt::Status st = s->Open(source, size, *options); !st.ok()) {
    *error = st.message();
    return false;
  }
  *session = std::move(s);
  return true;
}
