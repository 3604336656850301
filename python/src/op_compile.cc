// acl.op: compiling operators (acl_op_compiler.h) and custom operators (compile functions, kernels,
// update_params).
//
// compile, compile_and_execute and compile_and_execute_v2 are not in CANN's pyACL method table; npurt adds them
// with the same conventions (lists of ints, bare ret; op_path None for no path) because its operators are
// compiled from the API rather than loaded from .om files.
//
// A compile function is a Python callable fn(num_inputs, [input descs], num_outputs, [output descs], attr,
// kernel_desc), registered per operator type. The C callback it stands behind receives no operator type, so,
// as in CANN's pyACL, the callable is looked up by the type of the update_params call in progress.
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "acl/acl_op_compiler.h"
#include "op_common.h"

namespace pyacl {
namespace {

const char* PathOrNull(const std::optional<std::string>& path) { return path ? path->c_str() : nullptr; }

aclError Compile(const std::string& op_type, const AddrList& input_descs, const AddrList& output_descs, Addr attr,
                 int engine_type, int compile_flag, const std::optional<std::string>& op_path) {
  auto in_descs = PtrArray<const aclTensorDesc>(input_descs);
  auto out_descs = PtrArray<const aclTensorDesc>(output_descs);
  return aclopCompile(op_type.c_str(), Count(input_descs.size(), "input_desc"), in_descs.data(),
                      Count(output_descs.size(), "output_desc"), out_descs.data(), As<const aclopAttr>(attr),
                      static_cast<aclopEngineType>(engine_type), static_cast<aclopCompileType>(compile_flag),
                      PathOrNull(op_path));
}

aclError CompileAndExecute(const std::string& op_type, const AddrList& input_descs, const AddrList& inputs,
                           const AddrList& output_descs, const AddrList& outputs, Addr attr, int engine_type,
                           int compile_flag, const std::optional<std::string>& op_path, Addr stream) {
  Operands o = OperandsOf("compile_and_execute", input_descs, inputs, output_descs, outputs);
  return aclopCompileAndExecute(op_type.c_str(), o.num_inputs, o.in_descs.data(), o.in_bufs.data(), o.num_outputs,
                                o.out_descs.data(), o.out_bufs.data(), As<const aclopAttr>(attr),
                                static_cast<aclopEngineType>(engine_type), static_cast<aclopCompileType>(compile_flag),
                                PathOrNull(op_path), As<void>(stream));
}

aclError CompileAndExecuteV2(const std::string& op_type, const AddrList& input_descs, const AddrList& inputs,
                             const AddrList& output_descs, const AddrList& outputs, Addr attr, int engine_type,
                             int compile_flag, const std::optional<std::string>& op_path, Addr stream) {
  Operands o = OperandsOf("compile_and_execute_v2", input_descs, inputs, output_descs, outputs);
  return aclopCompileAndExecuteV2(op_type.c_str(), o.num_inputs, o.in_descs.data(), o.in_bufs.data(), o.num_outputs,
                                  o.out_descs.data(), o.out_bufs.data(), As<aclopAttr>(attr),
                                  static_cast<aclopEngineType>(engine_type),
                                  static_cast<aclopCompileType>(compile_flag), PathOrNull(op_path), As<void>(stream));
}

// The registered callables by operator type. Allocated once and never freed: it holds Python objects, which must
// not be released at static destruction, after the interpreter is gone. Read and written with the GIL held.
std::map<std::string, py::object>& CompileFuncs() {
  static auto* funcs = new std::map<std::string, py::object>();
  return *funcs;
}

// The operator type of the update_params call in progress (one at a time: g_update_mu), for the callback.
std::mutex g_update_mu;
std::atomic<const std::string*> g_updating{nullptr};

aclError CompileFuncCallback(int num_inputs, const aclTensorDesc* const input_desc[], int num_outputs,
                             const aclTensorDesc* const output_desc[], const aclopAttr* attr,
                             aclopKernelDesc* kernel_desc) noexcept {
  const std::string* op_type = g_updating.load();
  if (op_type == nullptr) return ACL_SUCCESS;  // not from update_params: nothing registered from Python to run
  try {
    py::gil_scoped_acquire gil;
    auto it = CompileFuncs().find(*op_type);
    if (it == CompileFuncs().end()) return ACL_SUCCESS;
    py::object fn = it->second;  // a reference of our own, in case fn unregisters itself
    py::list inputs, outputs;
    for (int i = 0; i < num_inputs; ++i) inputs.append(ToInt(input_desc[i]));
    for (int i = 0; i < num_outputs; ++i) outputs.append(ToInt(output_desc[i]));
    CallFromRuntime(fn, num_inputs, inputs, num_outputs, outputs, ToInt(attr), ToInt(kernel_desc));
    return ACL_SUCCESS;
  } catch (...) {  // nothing may unwind into the C caller
    return ACL_ERROR_FAILURE;
  }
}

aclError RegisterCompileFunc(const std::string& op_type, py::object fn) {
  if (!PyCallable_Check(fn.ptr())) throw py::type_error("acl.op.register_compile_func: func must be callable");
  const aclError ret = aclopRegisterCompileFunc(op_type.c_str(), &CompileFuncCallback);
  // Kept only when the runtime took it: a refused registration is never called.
  if (ret == ACL_SUCCESS) CompileFuncs()[op_type] = std::move(fn);
  return ret;
}

aclError UnregisterCompileFunc(const std::string& op_type) {
  const aclError ret = aclopUnregisterCompileFunc(op_type.c_str());
  CompileFuncs().erase(op_type);
  return ret;
}

// Releases the GIL around the C call, so that a compile function called from another thread can take it.
aclError UpdateParams(const std::string& op_type, const AddrList& input_descs, const AddrList& output_descs,
                      Addr attr) {
  auto in_descs = PtrArray<const aclTensorDesc>(input_descs);
  auto out_descs = PtrArray<const aclTensorDesc>(output_descs);
  const int num_inputs = Count(input_descs.size(), "input_desc");
  const int num_outputs = Count(output_descs.size(), "output_desc");
  py::gil_scoped_release nogil;
  std::lock_guard<std::mutex> lock(g_update_mu);
  g_updating.store(&op_type);
  const aclError ret = aclopUpdateParams(op_type.c_str(), num_inputs, in_descs.data(), num_outputs, out_descs.data(),
                                         As<const aclopAttr>(attr));
  g_updating.store(nullptr);
  return ret;
}

// The deallocator create_kernel passes when asked to: the kernel binary came from acl.rt.malloc (device run
// mode) or acl.rt.malloc_host (host run mode).
void FreeKernelBinary(void* data, size_t /*length*/) {
  if (data == nullptr) return;
  aclrtRunMode mode = ACL_DEVICE;
  if (aclrtGetRunMode(&mode) != ACL_SUCCESS) return;
  if (mode == ACL_DEVICE) {
    (void)aclrtFree(data);
  } else {
    (void)aclrtFreeHost(data);
  }
}

aclError CreateKernel(const std::string& op_type, const std::string& kernel_id, const std::string& kernel_name,
                      Addr bin_data, int bin_size, int engine_type, int deallocator) {
  return aclopCreateKernel(op_type.c_str(), kernel_id.c_str(), kernel_name.c_str(), As<void>(bin_data), bin_size,
                           static_cast<aclopEngineType>(engine_type), deallocator != 0 ? &FreeKernelBinary : nullptr);
}

}  // namespace

void DefineOpCompile(py::module_& op) {
  op.def("compile", &Compile, py::arg("op_type"), py::arg("input_desc"), py::arg("output_desc"), py::arg("attr"),
         py::arg("engine_type"), py::arg("compile_flag"), py::arg("op_path"));
  op.def("compile_and_execute", &CompileAndExecute, ReleaseGil(), py::arg("op_type"), py::arg("input_desc"),
         py::arg("inputs"), py::arg("output_desc"), py::arg("outputs"), py::arg("attr"), py::arg("engine_type"),
         py::arg("compile_flag"), py::arg("op_path"), py::arg("stream"));
  op.def("compile_and_execute_v2", &CompileAndExecuteV2, ReleaseGil(), py::arg("op_type"), py::arg("input_desc"),
         py::arg("inputs"), py::arg("output_desc"), py::arg("outputs"), py::arg("attr"), py::arg("engine_type"),
         py::arg("compile_flag"), py::arg("op_path"), py::arg("stream"));
  op.def("register_compile_func", &RegisterCompileFunc, py::arg("op_type"), py::arg("func"));
  op.def("unregister_compile_func", &UnregisterCompileFunc, py::arg("op_type"));
  op.def("update_params", &UpdateParams, py::arg("op_type"), py::arg("input_desc"), py::arg("output_desc"),
         py::arg("attr"));
  op.def("create_kernel", &CreateKernel, py::arg("op_type"), py::arg("kernel_id"), py::arg("kernel_name"),
         py::arg("bin_data"), py::arg("bin_size"), py::arg("engine_type"), py::arg("deallocator"));
  op.def(
      "set_kernel_args",
      [](Addr kernel_desc, const std::string& kernel_id, uint32_t block_dim, Addr args, uint32_t arg_size) {
        return aclopSetKernelArgs(As<aclopKernelDesc>(kernel_desc), kernel_id.c_str(), block_dim, As<const void>(args),
                                  arg_size);
      },
      py::arg("kernel_desc"), py::arg("kernel_id"), py::arg("block_dim"), py::arg("args"), py::arg("arg_size"));
  // CANN takes the sizes as the address of a size_t array; a list of sizes is accepted as well.
  op.def(
      "set_kernel_workspace_sizes",
      [](Addr kernel_desc, int num_workspaces, Addr workspace_sizes) {
        return aclopSetKernelWorkspaceSizes(As<aclopKernelDesc>(kernel_desc), num_workspaces,
                                            As<size_t>(workspace_sizes));
      },
      py::arg("kernel_desc"), py::arg("num_workspaces"), py::arg("workspace_sizes"));
  op.def(
      "set_kernel_workspace_sizes",
      [](Addr kernel_desc, int num_workspaces, std::vector<size_t> workspace_sizes) {
        if (num_workspaces < 0 || static_cast<size_t>(num_workspaces) > workspace_sizes.size()) {
          throw py::value_error("acl.op.set_kernel_workspace_sizes: num_workspaces " + std::to_string(num_workspaces) +
                                " does not fit the list of " + std::to_string(workspace_sizes.size()) + " sizes");
        }
        return aclopSetKernelWorkspaceSizes(As<aclopKernelDesc>(kernel_desc), num_workspaces, workspace_sizes.data());
      },
      py::arg("kernel_desc"), py::arg("num_workspaces"), py::arg("workspace_sizes"));
}

}  // namespace pyacl
