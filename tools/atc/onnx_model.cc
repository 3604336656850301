#include "onnx_model.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/tensor_spec.h"
#include "models/om/om_format.h"

namespace npurt::atc {
namespace {


Status ReadAll(const std::string& path, std::string* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Err(kFail, "E10001: Value [{}] for parameter [--model] is invalid. Reason: the file cannot be opened", path);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Err(kFail, "cannot read model file {}", path);
  *bytes = std::move(ss).str();
  return Status::Ok();
}

// What a file that does not parse as ONNX is, for the message.
std::string WhatItIs(std::string_view b) {
  if (b.empty()) return "the file is empty";
  if (b.size() >= 4 && std::memcmp(b.data(), om::kCannOm1Magic, 4) == 0) {
    return "it is a CANN offline model (.om, magic IMOD) built by Huawei's ATC; npurt's atc converts ONNX models: "
           "give the ONNX model it was made from";
  }
  if (b.size() >= 8 && std::memcmp(b.data(), om::kMagic, 8) == 0) {
    return "it is an npurt offline model (.om) already; inspect it with --mode=6 --om=<file> or --mode=1";
  }
  if (b.size() >= 4 && std::memcmp(b.data(), om::kZipMagic, 4) == 0) {
    return "it is a zip archive (a CANN OM2 model or a PyTorch checkpoint?), not an ONNX model";
  }
  if (b.substr(0, 4) == "\x89HDF") return "it is an HDF5 file (a Keras model?), not an ONNX model";
  return "it is not an ONNX model (protobuf ModelProto)";
}

void SetDims(onnx::ValueInfoProto* vi, const std::vector<int64_t>& dims) {
  auto* shape = vi->mutable_type()->mutable_tensor_type()->mutable_shape();
  shape->clear_dim();
  for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
}

// ONNX shape inference in a child process: onnx 1.12 dereferences missing dims on some malformed graphs
// (a Conv weight of the wrong rank), and a model file must never crash atc. The child sends back the
// inferred value_info and outputs; a child that dies or takes more than a minute leaves the model as it
// was.
bool InferShapesIsolated(onnx::ModelProto* model, std::string* why) {
  int fds[2];
  if (pipe(fds) != 0) {
    *why = "pipe failed";
    return false;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    *why = "fork failed";
    return false;
  }
  if (pid == 0) {
    close(fds[0]);
    std::string out;
    int code = 0;
    try {
      onnx::shape_inference::InferShapes(*model);
      onnx::GraphProto g;
      *g.mutable_value_info() = model->graph().value_info();
      *g.mutable_output() = model->graph().output();
      out = g.SerializeAsString();
    } catch (const std::exception& e) {
      out = e.what();
      code = 1;
    }
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t w = write(fds[1], out.data() + done, out.size() - done);
      if (w <= 0) break;
      done += static_cast<size_t>(w);
    }
    close(fds[1]);
    _exit(code);
  }
  close(fds[1]);
  std::string in;
  char buf[65536];
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool timed_out = false;
  while (true) {
    pollfd p{fds[0], POLLIN, 0};
    const int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                          deadline - std::chrono::steady_clock::now()).count());
    if (left <= 0 || poll(&p, 1, left) <= 0) {
      timed_out = true;
      break;
    }
    const ssize_t r = read(fds[0], buf, sizeof(buf));
    if (r <= 0) break;
    in.append(buf, static_cast<size_t>(r));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (timed_out) {
    *why = "it took more than 60 s";
    return false;
  }
  if (!WIFEXITED(status)) {
    *why = "it crashed on this model (ONNX's shape inference does not check malformed nodes)";
    return false;
  }
  if (WEXITSTATUS(status) != 0) {
    *why = in;
    return false;
  }
  onnx::GraphProto g;
  if (!g.ParseFromString(in)) {
    *why = "its result could not be read";
    return false;
  }
  *model->mutable_graph()->mutable_value_info() = g.value_info();
  *model->mutable_graph()->mutable_output() = g.output();
  return true;
}

}  // namespace

int32_t AclTypeOfOnnx(int32_t t) {
  switch (t) {
    case onnx::TensorProto::FLOAT: return 0;
    case onnx::TensorProto::FLOAT16: return 1;
    case onnx::TensorProto::INT8: return 2;
    case onnx::TensorProto::INT32: return 3;
    case onnx::TensorProto::UINT8: return 4;
    case onnx::TensorProto::INT16: return 6;
    case onnx::TensorProto::UINT16: return 7;
    case onnx::TensorProto::UINT32: return 8;
    case onnx::TensorProto::INT64: return 9;
    case onnx::TensorProto::UINT64: return 10;
    case onnx::TensorProto::DOUBLE: return 11;
    case onnx::TensorProto::BOOL: return 12;
    case onnx::TensorProto::BFLOAT16: return 27;
    default: return -1;
  }
}

const char* OnnxTypeName(int32_t t) {
  return onnx::TensorProto::DataType_IsValid(t) ? onnx::TensorProto::DataType_Name(
                                                      static_cast<onnx::TensorProto::DataType>(t)).c_str()
                                                : "UNKNOWN";
}

Status LoadOnnxModel(const std::string& path, const std::vector<InputShape>& shapes, onnx::ModelProto* model,
                     int64_t* opset) {
  std::string bytes;
  NPURT_RETURN_IF_ERROR(ReadAll(path, &bytes));
  NPURT_RETURN_IF_ERROR(ParseOnnxModel(bytes, path, model, opset));
  return ApplyInputShapes(shapes, path, /*isolated_inference=*/true, *opset, model);
}

Status ParseOnnxModel(std::string_view bytes, const std::string& path, onnx::ModelProto* model, int64_t* opset) {
  google::protobuf::io::ArrayInputStream raw(bytes.data(), static_cast<int>(std::min<size_t>(bytes.size(), INT32_MAX)));
  google::protobuf::io::CodedInputStream coded(&raw);
  coded.SetTotalBytesLimit(INT32_MAX);
  if (bytes.size() >= INT32_MAX) {
    return Err(kFail, "E10001: Value [{}] for parameter [--model] is invalid. Reason: it has {} bytes, more than "
               "protobuf's 2 GiB; export the model with external data (onnx.save(..., save_as_external_data=True))",
               path, bytes.size());
  }
  const bool parsed = model->ParseFromCodedStream(&coded) && coded.ConsumedEntireMessage();
  if (!parsed || model->ir_version() <= 0 || !model->has_graph() || model->graph().node_size() == 0) {
    return Err(kFail, "E10001: Value [{}] for parameter [--model] is invalid. Reason: {}", path, WhatItIs(bytes));
  }
  *opset = 0;
  for (const auto& op : model->opset_import()) {
    if (op.domain().empty() || op.domain() == "ai.onnx") *opset = op.version();
  }
  if (*opset == 0 && model->ir_version() < 3) *opset = 1;
  if (*opset < 11 || *opset > 17) {
    return Err(kFail, "E10001: Value [{}] for parameter [--model] is invalid. Reason: the model uses ONNX opset {}; "
               "npurt's atc converts opsets 11 to 17 (re-export it, e.g. torch.onnx.export(..., opset_version=14))",
               path, *opset);
  }
  return Status::Ok();
}

Status ApplyInputShapes(const std::vector<InputShape>& shapes, const std::string& path, bool isolated_inference,
                        int64_t opset_value, onnx::ModelProto* model) {
  const int64_t* opset = &opset_value;
  onnx::GraphProto* g = model->mutable_graph();
  std::vector<std::string> names;
  for (const auto& init : g->initializer()) names.push_back(init.name());
  auto is_initializer = [&](const std::string& n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  for (const InputShape& s : shapes) {
    onnx::ValueInfoProto* found = nullptr;
    std::string inputs;
    for (auto& in : *g->mutable_input()) {
      if (is_initializer(in.name())) continue;
      if (!inputs.empty()) inputs += ", ";
      inputs += in.name();
      if (in.name() == s.name) found = &in;
    }
    if (found == nullptr) {
      return Err(kFail, "E10001: Value [{}] for parameter [--input_shape] is invalid. Reason: the model has no input "
                 "{} (its inputs: {})", s.name, s.name, inputs);
    }
    if (found->type().tensor_type().has_shape() &&
        found->type().tensor_type().shape().dim_size() != static_cast<int>(s.dims.size())) {
      return Err(kFail, "E10001: Value [{}] for parameter [--input_shape] is invalid. Reason: input {} has rank {} in "
                 "the model, the option gives {} dims", s.name, s.name, found->type().tensor_type().shape().dim_size(),
                 s.dims.size());
    }
    SetDims(found, s.dims);
  }
  // Shapes in value_info and on the outputs may disagree with the new input shapes (an export at batch 1
  // converted at batch 8): inference recomputes them all.
  g->clear_value_info();
  if (!shapes.empty()) {
    for (auto& out : *g->mutable_output()) {
      if (out.type().has_tensor_type()) out.mutable_type()->mutable_tensor_type()->clear_shape();
    }
  }
  // ONNX's shape inference trusts its inputs' types: every initializer, input and Constant tensor needs a
  // data type npurt knows.
  for (const auto& init : g->initializer()) {
    if (AclTypeOfOnnx(init.data_type()) < 0) {
      return Err(kFail, "initializer {} has ONNX data type {}, which npurt does not support", init.name(),
                 OnnxTypeName(init.data_type()));
    }
  }
  for (const auto& in : g->input()) {
    if (!in.type().has_tensor_type() || AclTypeOfOnnx(in.type().tensor_type().elem_type()) < 0) {
      if (is_initializer(in.name())) continue;
      return Err(kFail, "input {} is not a tensor of a data type npurt supports", in.name());
    }
  }
  for (const auto& n : g->node()) {
    for (const auto& a : n.attribute()) {
      if (a.has_t() && AclTypeOfOnnx(a.t().data_type()) < 0) {
        return Err(kFail, "node {} ({}): attribute {} holds a tensor of ONNX data type {}, which npurt does not "
                   "support", n.name(), n.op_type(), a.name(), OnnxTypeName(a.t().data_type()));
      }
    }
  }
  // In a program's process (the runtime's shape compiler) there is no fork to contain onnx's inference on
  // a hostile graph, and nothing needs it: the backend infers every shape, and ONNX's inference only
  // cross-checked it, which atc did at the ends of the model's ranges. (Lowering checks every node against
  // its schema itself.)
  if (!isolated_inference) return Status::Ok();
  // ONNX's shape inference trusts its nodes (onnx 1.12's Conv inference reads an input that may be
  // missing): it runs only on a graph whose nodes all match their schemas. Lowering reports the others.
  for (const auto& n : g->node()) {
    const bool default_domain = n.domain().empty() || n.domain() == "ai.onnx";
    const onnx::OpSchema* schema =
        default_domain ? onnx::OpSchemaRegistry::Schema(n.op_type(), static_cast<int>(*opset), "") : nullptr;
    try {
      if (schema != nullptr) schema->Verify(n);
    } catch (const std::exception& e) {
      Log(LogLevel::kWarning, fmt::format("ONNX shape inference skipped: node {} ({}) is invalid: {}", n.name(),
                                          n.op_type(), e.what()));
      return Status::Ok();
    }
  }
  // atc's shapes come from the backend's inference; ONNX's only cross-check them, so its failure is a
  // warning (lowering reports the nodes it cannot convert, with reasons).
  std::string why;
  if (!InferShapesIsolated(model, &why)) {
    Log(LogLevel::kWarning, fmt::format("ONNX shape inference stopped on {}: {}", path, why));
  }
  return Status::Ok();
}

StatusOr<std::string> OnnxSourceBytes(const std::string& path) {
  std::string bytes;
  NPURT_RETURN_IF_ERROR(ReadAll(path, &bytes));
  onnx::ModelProto model;
  int64_t opset = 0;
  NPURT_RETURN_IF_ERROR(ParseOnnxModel(bytes, path, &model, &opset));
  bool external = false;
  for (const auto& init : model.graph().initializer()) external = external || init.data_location() == onnx::TensorProto::EXTERNAL;
  if (!external) return bytes;
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  for (auto& init : *model.mutable_graph()->mutable_initializer()) {
    if (init.data_location() != onnx::TensorProto::EXTERNAL) continue;
    auto t = ToHostTensor(init, dir);
    if (!t.ok()) return std::move(t).status();
    init.clear_external_data();
    init.set_data_location(onnx::TensorProto::DEFAULT);
    init.set_raw_data(t->bytes.data(), t->bytes.size());
  }
  std::string out;
  if (model.ByteSizeLong() >= INT32_MAX || !model.SerializeToString(&out)) {
    return Err(kFail, "the model {} with its external data inlined has more than protobuf's 2 GiB: a dynamic-shape "
               "model keeps its source graph in the .om", path);
  }
  return out;
}

StatusOr<HostTensor> ToHostTensor(const onnx::TensorProto& t, const std::string& model_dir) {
  HostTensor h;
  h.dtype = AclTypeOfOnnx(t.data_type());
  if (h.dtype < 0) {
    return Err(kFail, "tensor {} has ONNX data type {}, which npurt does not support", t.name(),
               OnnxTypeName(t.data_type()));
  }
  h.dims.assign(t.dims().begin(), t.dims().end());
  int64_t count = 1;
  for (int64_t d : h.dims) {
    if (d < 0) return Err(kFail, "tensor {} has a negative dim", t.name());
    if (d > 0 && count > (int64_t{1} << 40) / d) return Err(kFail, "tensor {} has dims {} (too large)", t.name(), DimsString(h.dims));
    count *= d;
  }
  if (t.data_location() != onnx::TensorProto::EXTERNAL && t.has_raw_data() &&
      t.raw_data().size() != static_cast<size_t>(count) * DTypeSize(h.dtype)) {
    return Err(kFail, "tensor {} has {} bytes of data, its dims {} need {}", t.name(), t.raw_data().size(),
               DimsString(h.dims), static_cast<size_t>(count) * DTypeSize(h.dtype));
  }
  const size_t es = DTypeSize(h.dtype);
  const size_t n = static_cast<size_t>(h.numel());
  h.bytes.assign(n * es, 0);
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    std::string location;
    int64_t offset = 0, length = -1;
    for (const auto& kv : t.external_data()) {
      if (kv.key() == "location") location = kv.value();
      if (kv.key() == "offset") offset = std::stoll(kv.value());
      if (kv.key() == "length") length = std::stoll(kv.value());
    }
    if (location.empty() || location.find("..") != std::string::npos) {
      return Err(kFail, "tensor {} has external data without a valid location", t.name());
    }
    std::ifstream in(model_dir + "/" + location, std::ios::binary);
    if (!in) return Err(kFail, "tensor {}: cannot open its external data file {}", t.name(), location);
    if (length >= 0 && static_cast<size_t>(length) != h.bytes.size()) {
      return Err(kFail, "tensor {}: its external data has {} bytes, its dims need {}", t.name(), length, h.bytes.size());
    }
    in.seekg(offset);
    if (!in.read(reinterpret_cast<char*>(h.bytes.data()), static_cast<std::streamsize>(h.bytes.size()))) {
      return Err(kFail, "tensor {}: its external data file {} is too short", t.name(), location);
    }
    return h;
  }
  if (t.has_raw_data()) {
    if (t.raw_data().size() != h.bytes.size()) {
      return Err(kFail, "tensor {} has {} bytes of data, its dims need {}", t.name(), t.raw_data().size(), h.bytes.size());
    }
    std::memcpy(h.bytes.data(), t.raw_data().data(), h.bytes.size());
    return h;
  }
  auto count_error = [&](size_t have) {
    return Err(kFail, "tensor {} has {} values, its dims need {}", t.name(), have, n);
  };
  switch (t.data_type()) {
    case onnx::TensorProto::FLOAT:
      if (static_cast<size_t>(t.float_data_size()) != n) return count_error(t.float_data_size());
      std::memcpy(h.bytes.data(), t.float_data().data(), n * 4);
      break;
    case onnx::TensorProto::DOUBLE:
      if (static_cast<size_t>(t.double_data_size()) != n) return count_error(t.double_data_size());
      std::memcpy(h.bytes.data(), t.double_data().data(), n * 8);
      break;
    case onnx::TensorProto::INT64:
      if (static_cast<size_t>(t.int64_data_size()) != n) return count_error(t.int64_data_size());
      std::memcpy(h.bytes.data(), t.int64_data().data(), n * 8);
      break;
    case onnx::TensorProto::UINT64:
    case onnx::TensorProto::UINT32:
      if (static_cast<size_t>(t.uint64_data_size()) != n) return count_error(t.uint64_data_size());
      for (size_t i = 0; i < n; ++i) StoreFromDouble(h.bytes.data(), h.dtype, i, static_cast<double>(t.uint64_data(static_cast<int>(i))));
      break;
    default:  // int32_data holds int32, int16, int8, uint16, uint8, bool, float16, bfloat16
      if (static_cast<size_t>(t.int32_data_size()) != n) return count_error(t.int32_data_size());
      for (size_t i = 0; i < n; ++i) {
        const int32_t v = t.int32_data(static_cast<int>(i));
        if (es == 2 && (h.dtype == 1 || h.dtype == 27)) {
          const uint16_t bits = static_cast<uint16_t>(v);
          std::memcpy(h.bytes.data() + 2 * i, &bits, 2);
        } else {
          StoreFromDouble(h.bytes.data(), h.dtype, i, static_cast<double>(v));
        }
      }
      break;
  }
  return h;
}

const onnx::AttributeProto* FindAttr(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

int64_t AttrInt(const onnx::NodeProto& n, const std::string& name, int64_t def) {
  const auto* a = FindAttr(n, name);
  return a == nullptr ? def : a->i();
}

float AttrFloat(const onnx::NodeProto& n, const std::string& name, float def) {
  const auto* a = FindAttr(n, name);
  return a == nullptr ? def : a->f();
}

std::string AttrString(const onnx::NodeProto& n, const std::string& name, const std::string& def) {
  const auto* a = FindAttr(n, name);
  return a == nullptr ? def : a->s();
}

std::vector<int64_t> AttrInts(const onnx::NodeProto& n, const std::string& name, std::vector<int64_t> def) {
  const auto* a = FindAttr(n, name);
  if (a == nullptr) return def;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

}  // namespace npurt::atc
