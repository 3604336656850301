// Small ONNX models built in C++ with the onnx protobuf API, for the converter tests.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace npurt::atc::testing {

class OnnxBuilder {
 public:
  explicit OnnxBuilder(int64_t opset = 14) {
    model_.set_ir_version(7);
    model_.set_producer_name("atc_test");
    auto* op = model_.add_opset_import();
    op->set_domain("");
    op->set_version(opset);
    model_.mutable_graph()->set_name("test");
  }

  void Input(const std::string& name, std::vector<int64_t> dims, int32_t type = onnx::TensorProto::FLOAT) {
    SetInfo(model_.mutable_graph()->add_input(), name, dims, type);
  }
  // A graph input whose first dim is symbolic ("N").
  void DynamicInput(const std::string& name, std::vector<int64_t> dims) {
    auto* vi = model_.mutable_graph()->add_input();
    SetInfo(vi, name, dims, onnx::TensorProto::FLOAT);
    vi->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_param("N");
  }
  void Output(const std::string& name, std::vector<int64_t> dims = {}) {
    auto* vi = model_.mutable_graph()->add_output();
    vi->set_name(name);
    vi->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    if (!dims.empty()) SetInfo(vi, name, dims, onnx::TensorProto::FLOAT);
  }
  // A float initializer with values uniform in [lo, hi).
  void Weight(const std::string& name, std::vector<int64_t> dims, float lo = -0.5f, float hi = 0.5f) {
    std::uniform_real_distribution<float> u(lo, hi);
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    int64_t n = 1;
    for (int64_t d : dims) {
      t->add_dims(d);
      n *= d;
    }
    for (int64_t i = 0; i < n; ++i) t->add_float_data(u(rng_));
  }
  void Ints(const std::string& name, std::vector<int64_t> values, bool scalar = false) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    if (!scalar) t->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values) t->add_int64_data(v);
  }
  void Scalar(const std::string& name, float v) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_float_data(v);
  }

  onnx::NodeProto* Node(const std::string& op, std::vector<std::string> in, std::vector<std::string> out,
                        const std::string& name = "") {
    auto* n = model_.mutable_graph()->add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? out[0] + "_node" : name);
    for (auto& s : in) n->add_input(s);
    for (auto& s : out) n->add_output(s);
    return n;
  }
  static void AttrInt(onnx::NodeProto* n, const std::string& name, int64_t v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void AttrFloat(onnx::NodeProto* n, const std::string& name, float v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
  }
  static void AttrInts(onnx::NodeProto* n, const std::string& name, std::vector<int64_t> v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
  }
  static void AttrString(onnx::NodeProto* n, const std::string& name, const std::string& v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
  }

  bool Save(const std::string& path) const {
    std::ofstream out(path, std::ios::binary);
    return model_.SerializeToOstream(&out);
  }
  onnx::ModelProto& model() { return model_; }

 private:
  static void SetInfo(onnx::ValueInfoProto* vi, const std::string& name, const std::vector<int64_t>& dims, int32_t type) {
    vi->set_name(name);
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(type);
    auto* shape = tt->mutable_shape();
    for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
  }
  onnx::ModelProto model_;
  std::mt19937 rng_{42};
};

}  // namespace npurt::atc::testing
