// acl.op: single operators (acl_op.h). Executing, handles, casts, shape inference and operator models here;
// attributes in op_attr.cc, the compiler and custom compile functions in op_compile.cc.
//
// Lists of descriptors and buffers are Python lists of ints; an execute call returns its bare ret (outputs
// land in the output buffers, and execute_v2 updates the output descriptors in place). The calls that queue
// work release the GIL: queuing can wait for room on the stream, and what the stream runs first may be a host
// callback that needs the GIL.
#include <string>

#include "acl/acl_dump.h"
#include "op_common.h"

namespace pyacl {
namespace {

aclError ExecuteV2(const std::string& op_type, const AddrList& input_descs, const AddrList& inputs,
                   const AddrList& output_descs, const AddrList& outputs, Addr attr, Addr stream) {
  Operands o = OperandsOf("execute_v2", input_descs, inputs, output_descs, outputs);
  return aclopExecuteV2(op_type.c_str(), o.num_inputs, o.in_descs.data(), o.in_bufs.data(), o.num_outputs,
                        o.out_descs.data(), o.out_bufs.data(), As<aclopAttr>(attr), As<void>(stream));
}

// CANN keeps the deprecated aclopExecute in pyACL; programs written against it still run.
aclError Execute(const std::string& op_type, const AddrList& input_descs, const AddrList& inputs,
                 const AddrList& output_descs, const AddrList& outputs, Addr attr, Addr stream) {
  Operands o = OperandsOf("execute", input_descs, inputs, output_descs, outputs);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  return aclopExecute(op_type.c_str(), o.num_inputs, o.in_descs.data(), o.in_bufs.data(), o.num_outputs,
                      o.out_descs.data(), o.out_bufs.data(), As<const aclopAttr>(attr), As<void>(stream));
#pragma GCC diagnostic pop
}

py::tuple CreateHandle(const std::string& op_type, const AddrList& input_descs, const AddrList& output_descs,
                       Addr attr) {
  auto in_descs = PtrArray<const aclTensorDesc>(input_descs);
  auto out_descs = PtrArray<const aclTensorDesc>(output_descs);
  aclopHandle* handle = nullptr;
  const aclError ret = aclopCreateHandle(op_type.c_str(), Count(input_descs.size(), "input_desc"), in_descs.data(),
                                         Count(output_descs.size(), "output_desc"), out_descs.data(),
                                         As<const aclopAttr>(attr), &handle);
  return WithRet(ret, ToInt(handle));
}

aclError ExecWithHandle(Addr handle, const AddrList& inputs, const AddrList& outputs, Addr stream) {
  auto in_bufs = PtrArray<const aclDataBuffer>(inputs);
  auto out_bufs = PtrArray<aclDataBuffer>(outputs);
  return aclopExecWithHandle(As<aclopHandle>(handle), Count(inputs.size(), "inputs"), in_bufs.data(),
                             Count(outputs.size(), "outputs"), out_bufs.data(), As<void>(stream));
}

aclError InferShape(const std::string& op_type, const AddrList& input_descs, const AddrList& inputs, int num_outputs,
                    const AddrList& output_descs, Addr attr) {
  const int num_inputs = PairCount("infer_shape", input_descs, "input_desc", inputs, "inputs");
  if (num_outputs < 0 || static_cast<size_t>(num_outputs) > output_descs.size()) {
    throw py::value_error("infer_shape: num_outputs " + std::to_string(num_outputs) + " does not fit output_desc (" +
                          std::to_string(output_descs.size()) + " entries)");
  }
  auto in_descs = PtrArray<aclTensorDesc>(input_descs);
  auto in_bufs = PtrArray<aclDataBuffer>(inputs);
  auto out_descs = PtrArray<aclTensorDesc>(output_descs);
  return aclopInferShape(op_type.c_str(), num_inputs, in_descs.data(), in_bufs.data(), num_outputs, out_descs.data(),
                         As<aclopAttr>(attr));
}

}  // namespace

void DefineOp(py::module_& op) {
  op.def(
      "set_model_dir", [](const std::string& model_dir) { return aclopSetModelDir(model_dir.c_str()); },
      py::arg("model_dir"));
  op.def(
      "load", [](Addr model, size_t model_size) { return aclopLoad(As<const void>(model), model_size); },
      py::arg("model"), py::arg("model_size"));
  op.def("execute", &Execute, ReleaseGil(), py::arg("op_type"), py::arg("input_desc"), py::arg("inputs"),
         py::arg("output_desc"), py::arg("outputs"), py::arg("attr"), py::arg("stream"));
  op.def("execute_v2", &ExecuteV2, ReleaseGil(), py::arg("op_type"), py::arg("input_desc"), py::arg("inputs"),
         py::arg("output_desc"), py::arg("outputs"), py::arg("attr"), py::arg("stream"));
  op.def("create_handle", &CreateHandle, py::arg("op_type"), py::arg("input_desc"), py::arg("output_desc"),
         py::arg("attr"));
  op.def(
      "destroy_handle", [](Addr handle) { aclopDestroyHandle(As<aclopHandle>(handle)); }, py::arg("handle"));
  op.def("execute_with_handle", &ExecWithHandle, ReleaseGil(), py::arg("handle"), py::arg("inputs"), py::arg("outputs"),
         py::arg("stream"));
  op.def(
      "cast",
      [](Addr src_desc, Addr src_buffer, Addr dst_desc, Addr dst_buffer, uint8_t truncate, Addr stream) {
        return aclopCast(As<const aclTensorDesc>(src_desc), As<const aclDataBuffer>(src_buffer),
                         As<const aclTensorDesc>(dst_desc), As<aclDataBuffer>(dst_buffer), truncate, As<void>(stream));
      },
      ReleaseGil(), py::arg("src_desc"), py::arg("src_buffer"), py::arg("dst_desc"), py::arg("dst_buffer"),
      py::arg("truncate"), py::arg("stream"));
  op.def(
      "create_handle_for_cast",
      [](Addr src_desc, Addr dst_desc, uint8_t truncate) {
        aclopHandle* handle = nullptr;
        const aclError ret =
            aclopCreateHandleForCast(As<aclTensorDesc>(src_desc), As<aclTensorDesc>(dst_desc), truncate, &handle);
        return WithRet(ret, ToInt(handle));
      },
      py::arg("src_desc"), py::arg("dst_desc"), py::arg("truncate"));
  op.def("infer_shape", &InferShape, py::arg("op_type"), py::arg("input_desc"), py::arg("inputs"),
         py::arg("num_outputs"), py::arg("output_desc"), py::arg("attr"));
  op.def(
      "set_max_op_queue_num", [](uint64_t max_op_num) { return aclopSetMaxOpQueueNum(max_op_num); },
      py::arg("max_op_num"));
  // Declared in acl_dump.h in C; pyACL puts them in acl.op.
  op.def(
      "start_dump_args",
      [](uint32_t dump_type, const std::string& path) { return aclopStartDumpArgs(dump_type, path.c_str()); },
      py::arg("dump_type"), py::arg("path"));
  op.def(
      "stop_dump_args", [](uint32_t dump_type) { return aclopStopDumpArgs(dump_type); }, py::arg("dump_type"));
  DefineOpAttr(op);
  DefineOpCompile(op);
}

}  // namespace pyacl
