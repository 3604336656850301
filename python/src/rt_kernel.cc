// acl.rt: kernel binaries (load, unload, functions), kernel argument handles, and kernel launches.
#include <cstdint>

#include "rt_defs.h"

namespace pyacl::rt {
namespace {

// An option or attribute value, written at the start of its C union as CANN's pyACL writes it: on this
// little-endian ABI a member of any width reads the low bytes; a value above 32 bits also fills the second
// word (aclrtTimeoutUs), and a negative one (cpuKernelMode) is its 32-bit two's complement.
void StoreUnionValue(const py::handle& item, uint32_t* words, const std::string& what) {
  uint64_t bits = 0;
  try {
    bits = py::cast<uint64_t>(item);
  } catch (const py::cast_error&) {
    bits = static_cast<uint32_t>(CastItem<int32_t>(item, what));
  }
  words[0] = static_cast<uint32_t>(bits);
  words[1] = static_cast<uint32_t>(bits >> 32);
}

// aclrtBinaryLoadOptions from CANN's list [{"type": option type, "value": int}, ...]; an empty list means
// no options (a null pointer, as CANN passes).
class LoadOptions {
 public:
  explicit LoadOptions(const py::object& object) {
    py::sequence list = AsList(object, "the binary load options");
    options_.resize(py::len(list));
    for (size_t i = 0; i < options_.size(); ++i) {
      const std::string what = "the binary load options[" + std::to_string(i) + "]";
      py::object item = list[i];
      py::dict dict = AsDict(item, what);
      options_[i].type = static_cast<aclrtBinaryLoadOptionType>(RequiredInt<int>(dict, "type", what));
      StoreUnionValue(Required(dict, "value", what), options_[i].value.rsv, what + "['value']");
    }
    options_struct_.options = options_.data();
    options_struct_.numOpt = options_.size();
  }
  aclrtBinaryLoadOptions* get() { return options_.empty() ? nullptr : &options_struct_; }

 private:
  std::vector<aclrtBinaryLoadOption> options_;
  aclrtBinaryLoadOptions options_struct_{};
};

// aclrtLaunchKernelCfg from CANN's list [{"id": attribute id, "value": int}, ...]; empty means defaults.
class LaunchConfig {
 public:
  explicit LaunchConfig(const py::object& object) {
    py::sequence list = AsList(object, "the launch config");
    attrs_.resize(py::len(list));
    for (size_t i = 0; i < attrs_.size(); ++i) {
      const std::string what = "the launch config[" + std::to_string(i) + "]";
      py::object item = list[i];
      py::dict dict = AsDict(item, what);
      attrs_[i].id = static_cast<aclrtLaunchKernelAttrId>(RequiredInt<int>(dict, "id", what));
      StoreUnionValue(Required(dict, "value", what), attrs_[i].value.rsv, what + "['value']");
    }
    cfg_.attrs = attrs_.data();
    cfg_.numAttrs = attrs_.size();
  }
  aclrtLaunchKernelCfg* get() { return attrs_.empty() ? nullptr : &cfg_; }

 private:
  std::vector<aclrtLaunchKernelAttr> attrs_;
  aclrtLaunchKernelCfg cfg_{};
};

constexpr uint32_t kMaxNameLen = 1024;  // the longest function name a caller may ask for (CANN's limit too)

void DefineBinaries(py::module_& rt) {
  rt.def("binary_load_from_file", [](const std::string& path, const py::object& options) {
    LoadOptions c_options(options);
    aclrtBinHandle handle = nullptr;
    aclError ret = aclrtBinaryLoadFromFile(path.c_str(), c_options.get(), &handle);
    return WithRet(ret, ToInt(handle));
  }, py::arg("bin_path"), py::arg("options"));
  rt.def("binary_load_from_data", [](Addr data, size_t length, const py::object& options) {
    LoadOptions c_options(options);
    aclrtBinHandle handle = nullptr;
    aclError ret = aclrtBinaryLoadFromData(As<const void>(data), length, c_options.get(), &handle);
    return WithRet(ret, ToInt(handle));
  }, py::arg("data"), py::arg("length"), py::arg("options"));
  rt.def("create_binary", [](Addr data, size_t length) {
    return ToInt(aclrtCreateBinary(As<const void>(data), length));
  }, py::arg("data"), py::arg("data_len"));
  rt.def("destroy_binary", [](Addr binary) { return Ret(aclrtDestroyBinary(As<void>(binary))); },
         py::arg("binary"));
  rt.def("binary_load", [](Addr binary) {
    aclrtBinHandle handle = nullptr;
    aclError ret = aclrtBinaryLoad(As<void>(binary), &handle);
    return WithRet(ret, ToInt(handle));
  }, py::arg("binary"));
  rt.def("binary_unload", [](Addr handle) { return Ret(aclrtBinaryUnLoad(As<void>(handle))); },
         py::arg("bin_handle"));
  rt.def("binary_get_function", [](Addr handle, const std::string& kernel_name) {
    aclrtFuncHandle func = nullptr;
    aclError ret = aclrtBinaryGetFunction(As<void>(handle), kernel_name.c_str(), &func);
    return WithRet(ret, ToInt(func));
  }, py::arg("bin_handle"), py::arg("kernel_name"));
  rt.def("register_cpu_func", [](Addr handle, const std::string& func_name, const std::string& kernel_name) {
    if (func_name.empty() || kernel_name.empty()) {
      throw py::value_error("register_cpu_func: func_name and kernel_name must not be empty");
    }
    aclrtFuncHandle func = nullptr;
    aclError ret = aclrtRegisterCpuFunc(As<void>(handle), func_name.c_str(), kernel_name.c_str(), &func);
    return WithRet(ret, ToInt(func));
  }, py::arg("bin_handle"), py::arg("func_name"), py::arg("kernel_name"));
  rt.def("get_function_addr", [](Addr func) {
    void* aic = nullptr;
    void* aiv = nullptr;
    aclError ret = aclrtGetFunctionAddr(As<void>(func), &aic, &aiv);
    return WithRet(ret, ToInt(aic), ToInt(aiv));
  }, py::arg("func_handle"));
  rt.def("get_function_name", [](Addr func, uint32_t max_len) {
    if (max_len >= kMaxNameLen) throw py::value_error("max_len should be less than 1024");
    std::vector<char> name(max_len + 1, '\0');
    aclError ret = aclrtGetFunctionName(As<void>(func), max_len, name.data());
    return WithRet(ret, Str(name.data()));
  }, py::arg("func_handle"), py::arg("max_len"));
}

void DefineKernelArgs(py::module_& rt) {
  rt.def("kernel_args_init", [](Addr func) {
    aclrtArgsHandle args = nullptr;
    aclError ret = aclrtKernelArgsInit(As<void>(func), &args);
    return WithRet(ret, ToInt(args));
  }, py::arg("func_handle"));
  rt.def("kernel_args_init_by_user_mem", [](Addr func, Addr args, Addr user_mem, size_t size) {
    return Ret(aclrtKernelArgsInitByUserMem(As<void>(func), As<void>(args), As<void>(user_mem), size));
  }, py::arg("func_handle"), py::arg("args_handle"), py::arg("user_host_mem"), py::arg("actual_args_size"));
  rt.def("kernel_args_get_mem_size", [](Addr func, size_t user_size) {
    size_t actual = 0;
    aclError ret = aclrtKernelArgsGetMemSize(As<void>(func), user_size, &actual);
    return WithRet(ret, actual);
  }, py::arg("func_handle"), py::arg("user_args_size"));
  rt.def("kernel_args_get_handle_mem_size", [](Addr func) {
    size_t size = 0;
    aclError ret = aclrtKernelArgsGetHandleMemSize(As<void>(func), &size);
    return WithRet(ret, size);
  }, py::arg("func_handle"));
  rt.def("kernel_args_append", [](Addr args, Addr param, size_t size) {
    aclrtParamHandle handle = nullptr;
    aclError ret = aclrtKernelArgsAppend(As<void>(args), As<void>(param), size, &handle);
    return WithRet(ret, ToInt(handle));
  }, py::arg("args_handle"), py::arg("param"), py::arg("param_size"));
  rt.def("kernel_args_append_place_holder", [](Addr args) {
    aclrtParamHandle handle = nullptr;
    aclError ret = aclrtKernelArgsAppendPlaceHolder(As<void>(args), &handle);
    return WithRet(ret, ToInt(handle));
  }, py::arg("args_handle"));
  rt.def("kernel_args_get_place_holder_buffer", [](Addr args, Addr param, size_t size) {
    void* buffer = nullptr;
    aclError ret = aclrtKernelArgsGetPlaceHolderBuffer(As<void>(args), As<void>(param), size, &buffer);
    return WithRet(ret, ToInt(buffer));
  }, py::arg("args_handle"), py::arg("param_handle"), py::arg("data_size"));
  rt.def("kernel_args_para_update", [](Addr args, Addr param_handle, Addr param, size_t size) {
    return Ret(aclrtKernelArgsParaUpdate(As<void>(args), As<void>(param_handle), As<void>(param), size));
  }, py::arg("args_handle"), py::arg("param_handle"), py::arg("param"), py::arg("param_size"));
  rt.def("kernel_args_finalize", [](Addr args) { return Ret(aclrtKernelArgsFinalize(As<void>(args))); },
         py::arg("args_handle"));
}

void DefineLaunches(py::module_& rt) {
  rt.def("launch_kernel", [](Addr func, uint32_t block_dim, Addr args, size_t args_size, Addr stream) {
    return Ret(aclrtLaunchKernel(As<void>(func), block_dim, As<const void>(args), args_size, As<void>(stream)));
  }, py::arg("func_handle"), py::arg("block_dim"), py::arg("args_data"), py::arg("args_size"), py::arg("stream"));
  rt.def("launch_kernel_with_config", [](Addr func, uint32_t block_dim, Addr stream, const py::object& cfg,
                                         Addr args, Addr reserve) {
    LaunchConfig config(cfg);
    return Ret(aclrtLaunchKernelWithConfig(As<void>(func), block_dim, As<void>(stream), config.get(), As<void>(args),
                                           As<void>(reserve)));
  }, py::arg("func_handle"), py::arg("block_dim"), py::arg("stream"), py::arg("cfg"), py::arg("args_handle"),
     py::arg("reserve") = 0);
}

}  // namespace

void DefineKernel(py::module_& rt) {
  DefineBinaries(rt);
  DefineKernelArgs(rt);
  DefineLaunches(rt);
}

}  // namespace pyacl::rt
