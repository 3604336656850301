// acl.mdl: loading, describing, datasets and execution of offline models (the calls every inference sample
// makes), and the load and execution configurations.
#include <algorithm>
#include <optional>

#include "mdl_internal.h"

namespace pyacl {

py::dict IODimsDict(const aclmdlIODims& dims) {
  py::dict dict;
  dict["name"] = std::string(dims.name, strnlen(dims.name, sizeof dims.name));
  const size_t count = std::min<size_t>(dims.dimCount, ACL_MAX_DIM_CNT);
  dict["dimCount"] = dims.dimCount;
  dict["dims"] = std::vector<int64_t>(dims.dims, dims.dims + count);
  return dict;
}

namespace {

using DimsGetter = aclError (*)(const aclmdlDesc*, size_t, aclmdlIODims*);

// CANN answers an empty dict with the error code when the call fails.
py::tuple DimsOf(DimsGetter getter, Addr desc, Index index) {
  aclmdlIODims dims{};
  aclError ret = getter(As<const aclmdlDesc>(desc), AsIndex(index), &dims);
  return WithRet(ret, ret == ACL_SUCCESS ? IODimsDict(dims) : py::dict());
}

void DefineLoad(py::module_& m) {
  m.def("load_from_file", [](const std::string& path) {
    uint32_t id = 0;
    aclError ret = aclmdlLoadFromFile(path.c_str(), &id);
    return WithRet(ret, id);
  });
  m.def("load_from_mem", [](Addr model, size_t size) {
    uint32_t id = 0;
    aclError ret = aclmdlLoadFromMem(As<const void>(model), size, &id);
    return WithRet(ret, id);
  });
  m.def("load_from_file_with_mem",
        [](const std::string& path, Addr work, size_t work_size, Addr weight, size_t weight_size) {
          uint32_t id = 0;
          aclError ret =
              aclmdlLoadFromFileWithMem(path.c_str(), &id, As<void>(work), work_size, As<void>(weight), weight_size);
          return WithRet(ret, id);
        });
  m.def("load_from_mem_with_mem",
        [](Addr model, size_t size, Addr work, size_t work_size, Addr weight, size_t weight_size) {
          uint32_t id = 0;
          aclError ret = aclmdlLoadFromMemWithMem(As<const void>(model), size, &id, As<void>(work), work_size,
                                                  As<void>(weight), weight_size);
          return WithRet(ret, id);
        });
  // The queue ids are arrays of uint32 the caller owns, passed by address as in CANN's binding.
  m.def("load_from_file_with_q",
        [](const std::string& path, Addr input_q, size_t input_q_num, Addr output_q, size_t output_q_num) {
          uint32_t id = 0;
          aclError ret = aclmdlLoadFromFileWithQ(path.c_str(), &id, As<const uint32_t>(input_q), input_q_num,
                                                 As<const uint32_t>(output_q), output_q_num);
          return WithRet(ret, id);
        });
  m.def("load_from_mem_with_q",
        [](Addr model, size_t size, Addr input_q, size_t input_q_num, Addr output_q, size_t output_q_num) {
          uint32_t id = 0;
          aclError ret = aclmdlLoadFromMemWithQ(As<const void>(model), size, &id, As<const uint32_t>(input_q),
                                                input_q_num, As<const uint32_t>(output_q), output_q_num);
          return WithRet(ret, id);
        });
  m.def("unload", [](uint32_t id) { return static_cast<int>(aclmdlUnload(id)); });
  m.def("query_size", [](const std::string& path) {
    size_t work = 0, weight = 0;
    aclError ret = aclmdlQuerySize(path.c_str(), &work, &weight);
    return WithRet(ret, work, weight);
  });
  m.def("query_size_from_mem", [](Addr model, size_t size) {
    size_t work = 0, weight = 0;
    aclError ret = aclmdlQuerySizeFromMem(As<const void>(model), size, &work, &weight);
    return WithRet(ret, work, weight);
  });
}

void DefineDesc(py::module_& m) {
  m.def("create_desc", [] { return ToInt(aclmdlCreateDesc()); });
  m.def("destroy_desc", [](Addr desc) { return static_cast<int>(aclmdlDestroyDesc(As<aclmdlDesc>(desc))); });
  m.def("get_desc", [](Addr desc, uint32_t id) { return static_cast<int>(aclmdlGetDesc(As<aclmdlDesc>(desc), id)); });
  m.def("get_desc_from_file", [](Addr desc, const std::string& path) {
    return static_cast<int>(aclmdlGetDescFromFile(As<aclmdlDesc>(desc), path.c_str()));
  });
  m.def("get_desc_from_mem", [](Addr desc, Addr model, size_t size) {
    return static_cast<int>(aclmdlGetDescFromMem(As<aclmdlDesc>(desc), As<const void>(model), size));
  });
  m.def("get_num_inputs", [](Addr desc) { return aclmdlGetNumInputs(As<aclmdlDesc>(desc)); });
  m.def("get_num_outputs", [](Addr desc) { return aclmdlGetNumOutputs(As<aclmdlDesc>(desc)); });
  m.def("get_input_size_by_index",
        [](Addr desc, Index i) { return aclmdlGetInputSizeByIndex(As<aclmdlDesc>(desc), AsIndex(i)); });
  m.def("get_output_size_by_index",
        [](Addr desc, Index i) { return aclmdlGetOutputSizeByIndex(As<aclmdlDesc>(desc), AsIndex(i)); });
  m.def("get_input_dims", [](Addr desc, Index i) { return DimsOf(aclmdlGetInputDims, desc, i); });
  m.def("get_input_dims_v2", [](Addr desc, Index i) { return DimsOf(aclmdlGetInputDimsV2, desc, i); });
  m.def("get_output_dims", [](Addr desc, Index i) { return DimsOf(aclmdlGetOutputDims, desc, i); });
  m.def("get_cur_output_dims", [](Addr desc, Index i) { return DimsOf(aclmdlGetCurOutputDims, desc, i); });
  m.def("get_input_dims_range", [](Addr desc, Index i) {
    aclmdlIODimsRange range{};
    aclError ret = aclmdlGetInputDimsRange(As<const aclmdlDesc>(desc), AsIndex(i), &range);
    py::list ranges;
    for (size_t d = 0; d < std::min<size_t>(range.rangeCount, ACL_MAX_DIM_CNT); ++d) {
      ranges.append(py::cast(std::vector<int64_t>{range.range[d][0], range.range[d][1]}));
    }
    py::dict dict;
    dict["rangeCount"] = range.rangeCount;
    dict["range"] = ranges;
    return WithRet(ret, dict);
  });
  m.def("get_input_name_by_index",
        [](Addr desc, Index i) { return Str(aclmdlGetInputNameByIndex(As<const aclmdlDesc>(desc), AsIndex(i))); });
  m.def("get_output_name_by_index",
        [](Addr desc, Index i) { return Str(aclmdlGetOutputNameByIndex(As<const aclmdlDesc>(desc), AsIndex(i))); });
  m.def("get_input_index_by_name", [](Addr desc, const std::string& name) {
    size_t index = 0;
    aclError ret = aclmdlGetInputIndexByName(As<const aclmdlDesc>(desc), name.c_str(), &index);
    return WithRet(ret, index);
  });
  m.def("get_output_index_by_name", [](Addr desc, const std::string& name) {
    size_t index = 0;
    aclError ret = aclmdlGetOutputIndexByName(As<const aclmdlDesc>(desc), name.c_str(), &index);
    return WithRet(ret, index);
  });
  m.def("get_input_format", [](Addr desc, Index i) {
    return static_cast<int>(aclmdlGetInputFormat(As<const aclmdlDesc>(desc), AsIndex(i)));
  });
  m.def("get_output_format", [](Addr desc, Index i) {
    return static_cast<int>(aclmdlGetOutputFormat(As<const aclmdlDesc>(desc), AsIndex(i)));
  });
  m.def("get_input_data_type", [](Addr desc, Index i) {
    return static_cast<int>(aclmdlGetInputDataType(As<const aclmdlDesc>(desc), AsIndex(i)));
  });
  m.def("get_output_data_type", [](Addr desc, Index i) {
    return static_cast<int>(aclmdlGetOutputDataType(As<const aclmdlDesc>(desc), AsIndex(i)));
  });
  m.def("get_tensor_real_name", [](Addr desc, const std::string& name) {
    return Str(aclmdlGetTensorRealName(As<const aclmdlDesc>(desc), name.c_str()));
  });
  m.def("get_op_attr", [](Addr desc, const std::string& op, const std::string& attr) {
    return Str(aclmdlGetOpAttr(As<aclmdlDesc>(desc), op.c_str(), attr.c_str()));
  });
}

void DefineDatasets(py::module_& m) {
  m.def("create_dataset", [] { return ToInt(aclmdlCreateDataset()); });
  m.def("destroy_dataset", [](Addr ds) { return static_cast<int>(aclmdlDestroyDataset(As<const aclmdlDataset>(ds))); });
  // CANN hands the dataset back with the code: `dataset, ret = add_dataset_buffer(dataset, buffer)`.
  m.def("add_dataset_buffer", [](Addr ds, Addr buffer) {
    aclError ret = aclmdlAddDatasetBuffer(As<aclmdlDataset>(ds), As<aclDataBuffer>(buffer));
    return WithRet(ret, ds);
  });
  m.def("get_dataset_buffer",
        [](Addr ds, Index i) { return ToInt(aclmdlGetDatasetBuffer(As<const aclmdlDataset>(ds), AsIndex(i))); });
  m.def("get_dataset_num_buffers", [](Addr ds) { return aclmdlGetDatasetNumBuffers(As<const aclmdlDataset>(ds)); });
  m.def("set_dataset_tensor_desc", [](Addr ds, Addr desc, Index i) {
    aclError ret = aclmdlSetDatasetTensorDesc(As<aclmdlDataset>(ds), As<aclTensorDesc>(desc), AsIndex(i));
    return WithRet(ret, ds);
  });
  m.def("get_dataset_tensor_desc",
        [](Addr ds, Index i) { return ToInt(aclmdlGetDatasetTensorDesc(As<const aclmdlDataset>(ds), AsIndex(i))); });
}

// Execution releases the GIL (CANN's pyACL holds it): a run can wait behind a Python host callback queued on
// the same stream (acl.rt.launch_callback), which needs the GIL to run. The caller's frame keeps the objects
// whose buffers the datasets point at alive for the call.
void DefineExecute(py::module_& m) {
  m.def(
      "execute",
      [](uint32_t id, Addr in, Addr out) {
        return static_cast<int>(aclmdlExecute(id, As<const aclmdlDataset>(in), As<aclmdlDataset>(out)));
      },
      ReleaseGil());
  m.def(
      "execute_async",
      [](uint32_t id, Addr in, Addr out, Addr stream) {
        return static_cast<int>(
            aclmdlExecuteAsync(id, As<const aclmdlDataset>(in), As<aclmdlDataset>(out), As<void>(stream)));
      },
      ReleaseGil());
  m.def(
      "execute_v2",
      [](uint32_t id, Addr in, Addr out, Addr stream, Addr config) {
        return static_cast<int>(aclmdlExecuteV2(id, As<const aclmdlDataset>(in), As<aclmdlDataset>(out),
                                                As<void>(stream), As<const aclmdlExecConfigHandle>(config)));
      },
      ReleaseGil());
  m.def(
      "execute_async_v2",
      [](uint32_t id, Addr in, Addr out, Addr stream, Addr config) {
        return static_cast<int>(aclmdlExecuteAsyncV2(id, As<const aclmdlDataset>(in), As<aclmdlDataset>(out),
                                                     As<void>(stream), As<const aclmdlExecConfigHandle>(config)));
      },
      ReleaseGil());
  m.def("create_exec_config_handle", [] { return ToInt(aclmdlCreateExecConfigHandle()); });
  m.def("destroy_exec_config_handle",
        [](Addr h) { return static_cast<int>(aclmdlDestroyExecConfigHandle(As<const aclmdlExecConfigHandle>(h))); });
  // The timeouts and the priority are int32 (CANN's binding passes every value as 32 bits, and -1, "wait
  // forever", arrives as 0xFFFFFFFF, the same bits); the other attributes are sizes or addresses.
  m.def("set_exec_config_opt", [](Addr h, int attr, long long value) {
    auto* handle = As<aclmdlExecConfigHandle>(h);
    const auto a = static_cast<aclmdlExecConfigAttr>(attr);
    if (attr == ACL_MDL_STREAM_SYNC_TIMEOUT || attr == ACL_MDL_EVENT_SYNC_TIMEOUT ||
        attr == ACL_MDL_EXEC_PRIORITY_INT32) {
      if (value < INT32_MIN || value > static_cast<long long>(UINT32_MAX)) {
        throw py::value_error("acl.mdl.set_exec_config_opt: the value does not fit 32 bits");
      }
      auto v = static_cast<int32_t>(static_cast<uint32_t>(value));
      return static_cast<int>(aclmdlSetExecConfigOpt(handle, a, &v, sizeof v));
    }
    auto v = static_cast<uint64_t>(value);
    return static_cast<int>(aclmdlSetExecConfigOpt(handle, a, &v, sizeof v));
  });
}

// The type each load-configuration attribute takes (acl_mdl.h names it by suffix).
enum class ConfigKind { kInt32, kSize, kPath, kAddress };
ConfigKind KindOfConfig(int attr) {
  switch (attr) {
    case ACL_MDL_PRIORITY_INT32:
    case ACL_MDL_WORKSPACE_MEM_OPTIMIZE:
    case ACL_MDL_WITHOUT_GRAPH_INT32:
    case ACL_NPU_PERF_MODE:
      return ConfigKind::kInt32;
    case ACL_MDL_PATH_PTR:
    case ACL_MDL_WEIGHT_PATH_PTR:
      return ConfigKind::kPath;
    case ACL_MDL_MEM_ADDR_PTR:
    case ACL_MDL_WEIGHT_ADDR_PTR:
    case ACL_MDL_WORKSPACE_ADDR_PTR:
    case ACL_MDL_INPUTQ_ADDR_PTR:
    case ACL_MDL_OUTPUTQ_ADDR_PTR:
    case ACL_MDL_MODEL_DESC_PTR:
    case ACL_MDL_KERNEL_PTR:
    case ACL_MDL_KERNEL_ARGS_PTR:
    case ACL_MDL_STATIC_TASK_PTR:
    case ACL_MDL_DYNAMIC_TASK_PTR:
    case ACL_MDL_FIFO_PTR:
      return ConfigKind::kAddress;
    default:
      return ConfigKind::kSize;
  }
}

void DefineConfig(py::module_& m) {
  m.def("create_config_handle", [] { return ToInt(aclmdlCreateConfigHandle()); });
  m.def("destroy_config_handle",
        [](Addr h) { return static_cast<int>(aclmdlDestroyConfigHandle(As<aclmdlConfigHandle>(h))); });
  // value: an int, or for the path attributes a str (copied by the runtime during the call) or an address.
  m.def("set_config_opt", [](Addr h, int attr, py::object value) {
    auto* handle = As<aclmdlConfigHandle>(h);
    const auto a = static_cast<aclmdlConfigAttr>(attr);
    switch (KindOfConfig(attr)) {
      case ConfigKind::kInt32: {
        auto v = py::cast<int32_t>(value);
        return static_cast<int>(aclmdlSetConfigOpt(handle, a, &v, sizeof v));
      }
      case ConfigKind::kPath:
        if (py::isinstance<py::str>(value)) {
          std::string path = py::cast<std::string>(value);
          const char* p = path.c_str();
          return static_cast<int>(aclmdlSetConfigOpt(handle, a, &p, sizeof p));
        }
        [[fallthrough]];
      case ConfigKind::kAddress: {
        const void* p = As<const void>(py::cast<Addr>(value));
        return static_cast<int>(aclmdlSetConfigOpt(handle, a, &p, sizeof p));
      }
      case ConfigKind::kSize:
        break;
    }
    auto v = py::cast<size_t>(value);
    return static_cast<int>(aclmdlSetConfigOpt(handle, a, &v, sizeof v));
  });
  m.def("load_with_config", [](Addr h) {
    uint32_t id = 0;
    aclError ret = aclmdlLoadWithConfig(As<const aclmdlConfigHandle>(h), &id);
    return WithRet(ret, id);
  });
}

}  // namespace

void DefineMdlModels(py::module_& mdl) {
  DefineLoad(mdl);
  DefineDesc(mdl);
  DefineDatasets(mdl);
  DefineExecute(mdl);
  DefineConfig(mdl);
}

void DefineMdl(py::module_& mdl) {
  DefineMdlModels(mdl);
  DefineMdlDynamic(mdl);
}

}  // namespace pyacl
