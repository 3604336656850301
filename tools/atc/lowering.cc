#include "lowering.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

#include "base/dtype.h"
#include <onnx/defs/schema.h>

#include "const_fold.h"
#include "backend.h"
#include "core/operators.h"
#include "mappers.h"
#include "onnx_model.h"

namespace npurt::atc {
namespace {

constexpr int32_t kFormatND = 2, kFormatNCHW = 0, kFormatNCDHW = 30, kFormatNHWC = 1, kFormatNDHWC = 27;

struct Value {
  int32_t tensor = -1;
  std::shared_ptr<const HostTensor> constant;
  bool poisoned = false;  // its producer could not be converted
  // A zero Pad of the spatial dims not applied yet: `tensor` is the unpadded input and the consumer
  // (Conv, AveragePool) takes these ONNX-order pads into its own.
  std::vector<int64_t> pending_pads;
};

struct Failure {
  std::string node, type, reason;
};

// Why an ONNX operator without a mapper cannot be converted. Operators whose output shapes depend on the
// data are named as such: npurt runs NonZero (its shape kept on the device) and not these.
std::string NoOperatorReason(const std::string& type) {
  static const std::set<std::string> kDataDependent = {"Unique", "NonMaxSuppression", "Compress", "Loop", "If",
                                                       "Scan"};
  if (kDataDependent.count(type) != 0) {
    return fmt::format("ONNX {} has output shapes that depend on the input data (or on control flow); of such "
                       "operators npurt runs NonZero only (docs/models.md, \"Shapes that depend on the data\"); "
                       "compute it outside the model, or export the model without it", type);
  }
  return fmt::format("npurt's operator backend has no operator for ONNX {}", type);
}

// The ONNX operators that may read a tensor whose dims depend on the data: their mappers emit backend operators
// that derive everything from their inputs' dims, so a node tiled at each run's dims computes what ONNX says.
// The others (Conv, MatMul, Softmax, Slice, ...) bake dims into what they emit and are refused for such inputs.
bool ReadsDataDependentShapes(const std::string& type) {
  static const std::set<std::string> kTiled = {
      "NonZero", "Relu", "Sigmoid", "Tanh", "Erf", "Exp", "Log", "Sqrt", "Abs", "Neg", "Reciprocal", "Clip",
      "LeakyRelu", "HardSigmoid", "HardSwish", "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Cast",
      "Identity", "Dropout", "Transpose", "Gather", "ReduceMean", "ReduceSum", "ReduceMax", "Reshape", "Flatten",
      "Squeeze", "Unsqueeze", "Concat"};
  return kTiled.count(type) != 0;
}

class Lowerer;

class Context final : public NodeContext {
 public:
  Context(Lowerer& l, const onnx::NodeProto& n, std::string base_name) : l_(l), n_(n), base_(std::move(base_name)) {}
  const onnx::NodeProto& node() const override { return n_; }
  int64_t opset() const override;
  size_t num_inputs() const override { return static_cast<size_t>(n_.input_size()); }
  bool has_input(size_t i) const override { return i < num_inputs() && !n_.input(static_cast<int>(i)).empty(); }
  bool is_const(size_t i) const override;
  const HostTensor& constant(size_t i) const override;
  TensorSpec spec(size_t i) const override;
  bool data_dependent(size_t i) const override;
  int32_t tensor(size_t i) override;
  int32_t AddConstant(HostTensor value, const std::string& what) override;
  Status Emit(const std::string& op_type, AttrMap attrs, const std::vector<int32_t>& inputs,
              std::vector<int32_t>* out, const std::vector<int32_t>& out_dtypes, bool view_candidate) override;
  const TensorSpec& tensor_spec(int32_t t) const override;
  std::vector<int64_t> pending_pads(size_t i) const override;
  void BindPadded(size_t k, int32_t tensor, std::vector<int64_t> pads) override;
  size_t num_outputs() const override { return static_cast<size_t>(n_.output_size()); }
  bool output_used(size_t k) const override;
  void Bind(size_t k, int32_t tensor) override;
  void BindConst(size_t k, HostTensor value) override;

  Status bind_error() const { return bind_error_; }

 private:
  Lowerer& l_;
  const onnx::NodeProto& n_;
  std::string base_;
  int emitted_ = 0;
  Status bind_error_;
};

class Lowerer {
 public:
  Lowerer(const onnx::ModelProto& m, int64_t opset, const Options& o, std::string dir, const InitializerStore* inits)
      : model_(m), opset_(opset), opts_(o), dir_(std::move(dir)), store_(inits) {}

  StatusOr<LoweringResult> Run();

  // For Context.
  Graph& graph() { return result_.graph; }
  int64_t opset() const { return opset_; }
  Value& value(const std::string& name) { return values_[name]; }
  bool used(const std::string& name) const { return used_.count(name) != 0; }
  std::set<int32_t>& unnamed() { return unnamed_; }
  std::map<std::string, std::string>& names() { return node_names_; }
  const onnx::ValueInfoProto* info(const std::string& name) const {
    auto it = infos_.find(name);
    return it == infos_.end() ? nullptr : it->second;
  }
  int32_t ConstantTensor(const std::string& name, Value& v) {
    if (v.tensor < 0) {
      Tensor t;
      t.name = name;
      t.spec = v.constant->spec();
      t.kind = TensorKind::kConstant;
      t.data = ConstBytes::Of(v.constant);  // shared, not copied
      v.tensor = graph().AddTensor(std::move(t));
    }
    return v.tensor;
  }
  std::string UniqueName(const std::string& want) {
    std::string name = want;
    for (int k = 1; !taken_.insert(name).second; ++k) name = want + "_" + std::to_string(k);
    return name;
  }

 private:
  Status AddInputs();
  void LowerNode(const onnx::NodeProto& n, size_t index);
  Status SetOutputs();
  Status MakeInput(const onnx::ValueInfoProto& vi, int32_t index);

  const onnx::ModelProto& model_;
  int64_t opset_;
  const Options& opts_;
  std::string dir_;
  const InitializerStore* store_;
  LoweringResult result_;
  std::unordered_map<std::string, Value> values_;
  std::unordered_map<std::string, const onnx::ValueInfoProto*> infos_;
  std::set<std::string> used_;     // value names some node or graph output reads
  std::set<int32_t> unnamed_;      // tensors still carrying a generated name
  std::set<std::string> taken_;    // tensor and node names
  std::map<std::string, std::string> node_names_;
  std::vector<Failure> failures_;
};

int64_t Context::opset() const { return l_.opset(); }

bool Context::is_const(size_t i) const {
  return has_input(i) && l_.value(n_.input(static_cast<int>(i))).constant != nullptr;
}

const HostTensor& Context::constant(size_t i) const { return *l_.value(n_.input(static_cast<int>(i))).constant; }

TensorSpec Context::spec(size_t i) const {
  if (!has_input(i)) return TensorSpec{};
  Value& v = l_.value(n_.input(static_cast<int>(i)));
  if (v.constant != nullptr) return v.constant->spec();
  return l_.graph().tensors[static_cast<size_t>(v.tensor)].spec;
}

bool Context::data_dependent(size_t i) const {
  if (!has_input(i)) return false;
  const Value& v = l_.value(n_.input(static_cast<int>(i)));
  return v.constant == nullptr && v.tensor >= 0 && l_.graph().tensors[static_cast<size_t>(v.tensor)].data_dependent;
}

int32_t Context::tensor(size_t i) {
  if (!has_input(i)) return -1;
  const std::string& name = n_.input(static_cast<int>(i));
  Value& v = l_.value(name);
  if (v.tensor >= 0) return v.tensor;
  return l_.ConstantTensor(l_.UniqueName(name), v);
}

int32_t Context::AddConstant(HostTensor value, const std::string& what) {
  Tensor t;
  t.name = l_.UniqueName(base_ + "/" + what);
  t.spec = value.spec();
  t.kind = TensorKind::kConstant;
  t.data = std::move(value.bytes);
  return l_.graph().AddTensor(std::move(t));
}

const TensorSpec& Context::tensor_spec(int32_t t) const { return l_.graph().tensors[static_cast<size_t>(t)].spec; }

std::vector<int64_t> Context::pending_pads(size_t i) const {
  if (!has_input(i)) return {};
  return l_.value(n_.input(static_cast<int>(i))).pending_pads;
}

void Context::BindPadded(size_t k, int32_t tensor, std::vector<int64_t> pads) {
  const std::string& name = n_.output(static_cast<int>(k));
  if (name.empty()) return;
  l_.value(name) = Value{tensor, nullptr, false, std::move(pads)};
}

Status Context::Emit(const std::string& op_type, AttrMap attrs, const std::vector<int32_t>& inputs,
                     std::vector<int32_t>* out, const std::vector<int32_t>& out_dtypes, bool view_candidate) {
  Graph& g = l_.graph();
  std::vector<TensorSpec> in_specs, requested;
  for (int32_t t : inputs) in_specs.push_back(g.tensors[static_cast<size_t>(t)].spec);
  for (int32_t dt : out_dtypes) requested.push_back(TensorSpec{dt, -1 /* ACL_FORMAT_UNDEFINED */, {}});
  core::OperatorCall call;
  call.type = op_type;
  call.inputs = &in_specs;
  call.requested = &requested;
  call.attrs = &attrs;
  call.compile = false;
  auto built = BuildWithBackend(call);
  if (!built.ok()) {
    std::string ins;
    for (const TensorSpec& s : in_specs) ins += (ins.empty() ? "" : ", ") + Describe(s);
    return Err(kFail, "the backend refuses {}({}): {}", op_type, ins, built.status().message());
  }
  Node node;
  node.name = l_.UniqueName(emitted_++ == 0 ? base_ : base_ + "/" + op_type);
  node.source_type = n_.op_type();
  node.op_type = op_type;
  node.attrs = std::move(attrs);
  node.inputs = inputs;
  // Outputs of NonZero, and of anything computed from a data-dependent tensor, are data-dependent too: never
  // views (the planner cannot alias bytes whose shape it does not know), each with a shape slot.
  bool dd = ProducesDataDependentShape(op_type);
  for (int32_t t : inputs) dd = dd || (t >= 0 && g.tensors[static_cast<size_t>(t)].data_dependent);
  node.view_candidate = view_candidate && !dd;
  out->clear();
  for (size_t k = 0; k < built->outputs.size(); ++k) {
    Tensor t;
    t.name = l_.UniqueName(node.name + ":" + std::to_string(k));
    t.spec = built->outputs[k];
    t.kind = TensorKind::kIntermediate;
    t.data_dependent = dd;
    const int32_t id = g.AddTensor(std::move(t));
    l_.unnamed().insert(id);
    node.outputs.push_back(id);
    out->push_back(id);
  }
  g.nodes.push_back(std::move(node));
  return Status::Ok();
}

bool Context::output_used(size_t k) const {
  return k < num_outputs() && !n_.output(static_cast<int>(k)).empty() && l_.used(n_.output(static_cast<int>(k)));
}

void Context::Bind(size_t k, int32_t tensor) {
  const std::string& name = n_.output(static_cast<int>(k));
  if (name.empty()) return;
  Tensor& t = l_.graph().tensors[static_cast<size_t>(tensor)];
  // Check the backend's shape against ONNX shape inference where that knows a static one.
  if (const onnx::ValueInfoProto* vi = l_.info(name); vi != nullptr && vi->type().tensor_type().has_shape()) {
    const auto& shape = vi->type().tensor_type().shape();
    bool known = true;
    std::vector<int64_t> dims;
    for (const auto& d : shape.dim()) {
      known = known && d.has_dim_value();
      dims.push_back(d.dim_value());
    }
    // Pooling with ceil_mode: onnx 1.12's inference lacks the rule that the last window starts inside the
    // input (PyTorch, ONNX Runtime and atc apply it), so the two may differ by one there.
    const bool ceil_pool = (n_.op_type() == "MaxPool" || n_.op_type() == "AveragePool") &&
                           AttrInt(n_, "ceil_mode", 0) != 0;
    if (known && dims != t.spec.dims && bind_error_.ok() && !ceil_pool) {
      bind_error_ = Err(kFail, "internal error: atc computed shape {} for output {}, ONNX shape inference {}",
                        DimsString(t.spec.dims), name, DimsString(dims));
    }
    const int32_t dt = AclTypeOfOnnx(vi->type().tensor_type().elem_type());
    if (vi->type().tensor_type().elem_type() != 0 && dt != t.spec.dtype && bind_error_.ok()) {
      bind_error_ = Err(kFail, "internal error: atc computed data type {} for output {}, ONNX {}",
                        DTypeName(t.spec.dtype), name, DTypeName(dt));
    }
  }
  if (l_.unnamed().erase(tensor) != 0) t.name = l_.UniqueName(name);
  l_.value(name) = Value{tensor, nullptr, false, {}};
}

void Context::BindConst(size_t k, HostTensor value) {
  const std::string& name = n_.output(static_cast<int>(k));
  if (name.empty()) return;
  l_.value(name) = Value{-1, std::make_shared<HostTensor>(std::move(value)), false, {}};
}

Status Lowerer::MakeInput(const onnx::ValueInfoProto& vi, int32_t index) {
  const auto& tt = vi.type().tensor_type();
  if (!vi.type().has_tensor_type()) return Err(kFail, "input {} is not a tensor", vi.name());
  Tensor t;
  t.name = vi.name();
  t.kind = TensorKind::kInput;
  t.input_index = index;
  t.spec.dtype = AclTypeOfOnnx(tt.elem_type());
  if (t.spec.dtype < 0) {
    return Err(kFail, "input {} has data type {}, which npurt does not support", vi.name(), OnnxTypeName(tt.elem_type()));
  }
  for (const auto& d : tt.shape().dim()) {
    if (!d.has_dim_value()) {
      return Err(kFail, "E10001: Value [] for parameter [--input_shape] is invalid. Reason: input {} has the dynamic "
                 "dim '{}'; give its shape with --input_shape=\"{}:...\" (dynamic shapes and gears arrive with the "
                 "dynamic-shapes work)", vi.name(), d.dim_param().empty() ? "?" : d.dim_param(), vi.name());
    }
    t.spec.dims.push_back(d.dim_value());
  }
  if (!tt.has_shape()) return Err(kFail, "input {} has no shape; give it with --input_shape", vi.name());
  const std::string& f = opts_.input_format;
  t.spec.format = f == "ND" ? kFormatND : f == "NCDHW" ? kFormatNCDHW : f == "NCHW" ? kFormatNCHW
                  : f == "NHWC" ? kFormatNHWC : f == "NDHWC" ? kFormatNDHWC
                  : t.spec.rank() == 4 ? kFormatNCHW : t.spec.rank() == 5 ? kFormatNCDHW : kFormatND;
  taken_.insert(t.name);
  const int32_t id = graph().AddTensor(std::move(t));
  graph().inputs.push_back(id);
  values_[vi.name()] = Value{id, nullptr, false, {}};
  return Status::Ok();
}

Status Lowerer::AddInputs() {
  const onnx::GraphProto& g = model_.graph();
  std::set<std::string> inits;
  for (const auto& init : g.initializer()) {
    if (store_ != nullptr) {
      auto it = store_->find(init.name());
      if (it == store_->end()) return Err(kFail, "initializer {} has no converted value", init.name());
      values_[init.name()] = Value{-1, it->second, false, {}};
    } else {
      auto h = ToHostTensor(init, dir_);
      if (!h.ok()) return std::move(h).status();
      values_[init.name()] = Value{-1, std::make_shared<HostTensor>(std::move(h.value())), false, {}};
    }
    inits.insert(init.name());
  }
  int32_t index = 0;
  for (const auto& in : g.input()) {
    if (inits.count(in.name()) != 0) continue;  // IR < 4: initializers listed as inputs
    NPURT_RETURN_IF_ERROR(MakeInput(in, index++));
  }
  for (const auto& vi : g.value_info()) infos_[vi.name()] = &vi;
  for (const auto& vi : g.output()) infos_[vi.name()] = &vi;
  for (const auto& n : g.node()) {
    for (const auto& in : n.input()) used_.insert(in);
  }
  for (const auto& o : g.output()) used_.insert(o.name());
  for (const OutputNode& on : opts_.out_nodes) {
    for (const auto& n : g.node()) {
      if (n.name() == on.node && on.index < n.output_size()) used_.insert(n.output(on.index));
    }
  }
  return Status::Ok();
}

StatusOr<HostTensor> ConstantNodeValue(const onnx::NodeProto& n, const std::string& dir) {
  for (const auto& a : n.attribute()) {
    if (a.name() == "value") return ToHostTensor(a.t(), dir);
    if (a.name() == "value_float") return MakeDoubles({a.f()}, {}, 0);
    if (a.name() == "value_floats") return MakeDoubles(std::vector<double>(a.floats().begin(), a.floats().end()), {a.floats_size()}, 0);
    if (a.name() == "value_int") return MakeInts({a.i()}, {});
    if (a.name() == "value_ints") return MakeInts(std::vector<int64_t>(a.ints().begin(), a.ints().end()), {a.ints_size()});
  }
  return Err(kFail, "Constant without a supported value attribute (sparse tensors and strings are not supported)");
}

void Lowerer::LowerNode(const onnx::NodeProto& n, size_t index) {
  const std::string type = n.op_type();
  std::string name = n.name().empty() ? type + "_" + std::to_string(index) : n.name();
  auto fail = [&](const std::string& reason) {
    failures_.push_back({name, fmt::format("ai.onnx::{}::{}", opset_, type), reason});
    for (const auto& o : n.output()) values_[o].poisoned = true;
  };
  if (!n.domain().empty() && n.domain() != "ai.onnx") {
    int64_t version = 0;
    for (const auto& op : model_.opset_import()) {
      if (op.domain() == n.domain()) version = op.version();
    }
    failures_.push_back({name, fmt::format("{}::{}::{}", n.domain(), version, type),
                         "operators of custom domains are not supported"});
    for (const auto& o : n.output()) values_[o].poisoned = true;
    return;
  }
  // Every node writes something (ONNX requires it; a graph that breaks the rule would index output 0 below).
  if (n.output_size() == 0 || n.output(0).empty()) return fail("it has no output");
  // The node must be a valid use of its ONNX schema (input and output counts, required inputs present,
  // attribute types) before constant folding or a mapper reads its inputs by position.
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(type, static_cast<int>(opset_), "");
  const bool has_schema = schema != nullptr;
  if (has_schema) {
    try {
      schema->Verify(n);
    } catch (const std::exception& e) {
      return fail(std::string("it is not a valid ONNX node: ") + e.what());
    }
  }
  bool all_const = true;
  std::vector<const HostTensor*> consts;
  for (const auto& in : n.input()) {
    if (in.empty()) {
      consts.push_back(nullptr);
      continue;
    }
    auto it = values_.find(in);
    if (it == values_.end()) {
      fail(fmt::format("its input {} is not produced by any node before it", in));
      return;
    }
    if (it->second.poisoned) {
      // Its producer is reported; report this node too if its type alone cannot be converted.
      if (FindMapper(type) == nullptr && !CanFold(type) && type != "Constant") {
        failures_.push_back({name, fmt::format("ai.onnx::{}::{}", opset_, type), NoOperatorReason(type)});
      }
      for (const auto& o : n.output()) values_[o].poisoned = true;
      return;
    }
    consts.push_back(it->second.constant.get());
    all_const = all_const && it->second.constant != nullptr;
  }
  if (type == "Constant") {
    auto v = ConstantNodeValue(n, dir_);
    if (!v.ok()) return fail(v.status().message());
    values_[n.output(0)] = Value{-1, std::make_shared<HostTensor>(std::move(v.value())), false, {}};
    ++result_.nodes_folded;
    return;
  }
  Status fold_error;
  if (all_const && CanFold(type)) {
    auto r = FoldNode(n, consts, opset_);
    if (r.ok()) {
      for (size_t k = 0; k < r->size() && k < static_cast<size_t>(n.output_size()); ++k) {
        values_[n.output(static_cast<int>(k))] = Value{-1, std::make_shared<HostTensor>(std::move((*r)[k])), false, {}};
      }
      ++result_.nodes_folded;
      return;
    }
    fold_error = std::move(r).status();
  }
  for (const auto& in : n.input()) {
    if (in.empty()) continue;
    const Value& v = values_[in];
    if (v.constant != nullptr || v.tensor < 0 || !graph().tensors[static_cast<size_t>(v.tensor)].data_dependent) continue;
    if (type == "Shape" || type == "Size") {
      return fail(fmt::format("it reads the shape of {}, which depends on the data (downstream of NonZero): npurt "
                              "keeps such shapes on the device, where operators tile at them, and cannot make them "
                              "values of the model", in));
    }
    if (!ReadsDataDependentShapes(type)) {
      return fail(fmt::format("it reads {}, whose shape depends on the data (downstream of NonZero); npurt tiles "
                              "these ONNX operators at shapes known on the device only: Abs, Add, Cast, Clip, Concat, "
                              "Div, Dropout, Erf, Exp, Flatten, Gather, HardSigmoid, HardSwish, Identity, LeakyRelu, "
                              "Log, Max, Min, Mul, Neg, NonZero, Pow, Reciprocal, ReduceMax, ReduceMean, ReduceSum, "
                              "Relu, Reshape, Sigmoid, Sqrt, Squeeze, Sub, Sum, Tanh, Transpose, Unsqueeze", in));
    }
  }
  if ((type == "Shape" || type == "Size") && n.input_size() == 1) {
    // Static shapes make Shape and Size constants.
    const TensorSpec& s = graph().tensors[static_cast<size_t>(values_[n.input(0)].tensor)].spec;
    HostTensor probe;
    probe.dtype = s.dtype;
    probe.dims = s.dims;
    std::vector<const HostTensor*> in = {&probe};
    auto r = type == "Shape" ? FoldNode(n, in, opset_) : StatusOr<std::vector<HostTensor>>(
        std::vector<HostTensor>{MakeInts({s.numel()}, {})});
    if (r.ok()) {
      values_[n.output(0)] = Value{-1, std::make_shared<HostTensor>(std::move((*r)[0])), false, {}};
      ++result_.nodes_folded;
      return;
    }
  }
  for (int i = 0; i < n.input_size(); ++i) {
    if (n.input(i).empty() || values_[n.input(i)].pending_pads.empty()) continue;
    if (i != 0 || (type != "Conv" && type != "AveragePool")) {
      return fail(fmt::format("it reads the output of a Pad; npurt's backend has no Pad operator, so atc folds a "
                              "zero Pad into a following Conv or AveragePool only"));
    }
  }
  MapFn map = FindMapper(type);
  if (!has_schema && map != nullptr) return fail(fmt::format("ONNX opset {} has no operator {}", opset_, type));
  if (map == nullptr) {
    if (!fold_error.ok()) return fail("its inputs are constant but atc cannot evaluate it: " + fold_error.message());
    if (CanFold(type)) {
      return fail(fmt::format("npurt's backend has no {} operator; atc evaluates {} only when all its inputs are "
                              "constant", type, type));
    }
    return fail(NoOperatorReason(type));
  }
  Context ctx(*this, n, name);
  Status st = map(ctx);
  if (st.ok()) st = ctx.bind_error();
  if (!st.ok()) return fail(st.message());
  for (int k = 0; k < n.output_size(); ++k) {
    const std::string& o = n.output(k);
    if (o.empty() || !used_.count(o)) continue;
    const Value& v = values_[o];
    if (v.tensor < 0 && v.constant == nullptr) return fail(fmt::format("output {} is not supported", k));
  }
  ++result_.nodes_lowered;
}

Status Lowerer::SetOutputs() {
  Graph& g = graph();
  std::vector<std::string> names;
  if (opts_.out_nodes.empty()) {
    for (const auto& o : model_.graph().output()) names.push_back(o.name());
  } else {
    for (const OutputNode& on : opts_.out_nodes) {
      const onnx::NodeProto* found = nullptr;
      for (const auto& n : model_.graph().node()) {
        if (n.name() == on.node) found = &n;
      }
      if (found == nullptr) {
        return Err(kFail, "E10001: Value [{}] for parameter [--out_nodes] is invalid. Reason: the model has no node {}",
                   on.node, on.node);
      }
      if (on.index >= found->output_size()) {
        return Err(kFail, "E10001: Value [{}:{}] for parameter [--out_nodes] is invalid. Reason: node {} has {} "
                   "output(s)", on.node, on.index, on.node, found->output_size());
      }
      names.push_back(found->output(on.index));
    }
  }
  for (const std::string& name : names) {
    auto it = values_.find(name);
    if (it == values_.end()) return Err(kFail, "model output {} is not produced by any node", name);
    Value& v = it->second;
    if (!v.pending_pads.empty()) {
      return Err(kFail, "E19010: model output {} is the output of a Pad, which npurt's backend has no operator for",
                 name);
    }
    if (v.constant != nullptr) {
      // A constant output: a copy node writes it (model outputs are written by nodes).
      v.tensor = ConstantTensor(UniqueName(name + "/constant"), v);
    }
    g.outputs.push_back(v.tensor);
  }
  return Status::Ok();
}

StatusOr<LoweringResult> Lowerer::Run() {
  NPURT_RETURN_IF_ERROR(AddInputs());
  const auto& nodes = model_.graph().node();
  for (int i = 0; i < nodes.size(); ++i) {
    LowerNode(nodes[i], static_cast<size_t>(i));
  }
  if (!failures_.empty()) {
    std::string msg = fmt::format("E19010: {} operator(s) of the model cannot be converted by npurt's atc:", failures_.size());
    for (const Failure& f : failures_) {
      msg += fmt::format("\n  node [{}] optype [{}]: {}", f.node, f.type, f.reason);
    }
    return Err(kFail, "{}", msg);
  }
  NPURT_RETURN_IF_ERROR(SetOutputs());
  return std::move(result_);
}

}  // namespace

StatusOr<LoweringResult> LowerOnnxGraph(const onnx::ModelProto& model, int64_t opset, const Options& opts,
                                        const std::string& model_dir, const InitializerStore* initializers) {
  Lowerer l(model, opset, opts, model_dir, initializers);
  return l.Run();
}

}  // namespace npurt::atc
