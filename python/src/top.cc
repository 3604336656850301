// acl.*: the top level of pyACL. init/finalize, versions, fp16 helpers, data buffers, tensor descriptors,
// application logs and the recent error message (CANN's acl module has exactly these 47 names).
#include <array>
#include <limits>
#include <optional>

#include "pyacl.h"

// pyACL exposes deprecated C functions (aclrtGetVersion, aclGetTensorDescDim, aclsysGetCANNVersion, ...)
// under their historical names; the deprecation is the C header's business, not this module's.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace pyacl {
namespace {

// A Python list of ints as int64 dims (CANN accepts only a list here, not any sequence).
std::vector<int64_t> DimsFromList(const py::list& list) {
  std::vector<int64_t> dims;
  dims.reserve(list.size());
  for (const py::handle item : list) {
    dims.push_back(py::cast<int64_t>(item));
  }
  return dims;
}

// [[lo, hi], ...] as int64 pairs: every entry must be a list of exactly two ints.
std::vector<std::array<int64_t, 2>> PairsFromList(const py::list& list, const char* what) {
  std::vector<std::array<int64_t, 2>> pairs;
  pairs.reserve(list.size());
  for (const py::handle item : list) {
    if (!py::isinstance<py::list>(item) || py::len(item) != 2) {
      throw py::value_error(std::string(what) + ": every entry must be a list [min, max] of two ints");
    }
    py::list pair = py::reinterpret_borrow<py::list>(item);
    pairs.push_back({py::cast<int64_t>(pair[0]), py::cast<int64_t>(pair[1])});
  }
  return pairs;
}

py::dict VersionDict(const aclCANNPackageVersion& version) {
  py::dict dict;
  dict["version"] = Str(version.version);
  dict["major_version"] = Str(version.majorVersion);
  dict["minor_version"] = Str(version.minorVersion);
  dict["release_version"] = Str(version.releaseVersion);
  dict["patch_version"] = Str(version.patchVersion);
  dict["reserved"] = Str(version.reserved);
  return dict;
}

void DefineLifecycleAndVersions(py::module_& m) {
  m.def(
      "init",
      [](std::optional<std::string> config) { return static_cast<int>(aclInit(config ? config->c_str() : nullptr)); },
      py::arg("config_path") = py::none());
  m.def("finalize", [] { return static_cast<int>(aclFinalize()); });
  m.def("finalize_reference", [] {
    uint64_t count = 0;
    aclError ret = aclFinalizeReference(&count);
    return WithRet(ret, count);
  });
  m.def("get_version", [] {
    int32_t major = 0, minor = 0, patch = 0;
    aclError ret = aclrtGetVersion(&major, &minor, &patch);
    return WithRet(ret, major, minor, patch);
  });
  m.def("get_soc_name", [] { return Str(aclrtGetSocName()); });
  m.def("get_cann_version", [](uint32_t package) {
    aclCANNPackageVersion version{};
    aclError ret = aclsysGetCANNVersion(static_cast<aclCANNPackageName>(package), &version);
    return WithRet(ret, VersionDict(version));
  });
  m.def("get_version_str", [](std::string package) {
    std::array<char, ACL_PKG_VERSION_MAX_SIZE> text{};
    aclError ret = aclsysGetVersionStr(package.data(), text.data());
    text.back() = '\0';
    return WithRet(ret, std::string(text.data()));
  });
  m.def("get_cann_attribute_list", [] {
    const aclCannAttr* attrs = nullptr;
    size_t count = 0;
    aclError ret = aclGetCannAttributeList(&attrs, &count);
    py::list list;
    for (size_t i = 0; attrs != nullptr && i < count; ++i) {
      list.append(static_cast<int>(attrs[i]));
    }
    return WithRet(ret, list, count);
  });
  m.def("get_cann_attribute", [](int attr) {
    int32_t value = 0;
    aclError ret = aclGetCannAttribute(static_cast<aclCannAttr>(attr), &value);
    return WithRet(ret, value);
  });
  m.def("get_device_capability", [](uint32_t device, int info) {
    int64_t value = 0;
    aclError ret = aclGetDeviceCapability(device, static_cast<aclDeviceInfo>(info), &value);
    return WithRet(ret, value);
  });
  m.def("float16_to_float", [](uint16_t value) { return aclFloat16ToFloat(value); });
  m.def("float_to_float16", [](float value) { return static_cast<uint16_t>(aclFloatToFloat16(value)); });
  m.def("data_type_size", [](int dtype) { return aclDataTypeSize(static_cast<aclDataType>(dtype)); });
  m.def("app_log", [](int level, const std::string& message) {
    ACL_APP_LOG(static_cast<aclLogLevel>(level), "%s", message.c_str());
  });
  m.def("get_recent_err_msg", [] { return Str(aclGetRecentErrMsg()); });
}

void DefineDataBuffers(py::module_& m) {
  m.def("create_data_buffer", [](Addr data, size_t size) { return ToInt(aclCreateDataBuffer(As<void>(data), size)); });
  m.def("destroy_data_buffer",
        [](Addr buffer) { return static_cast<int>(aclDestroyDataBuffer(As<const aclDataBuffer>(buffer))); });
  m.def("update_data_buffer", [](Addr buffer, Addr data, size_t size) {
    return static_cast<int>(aclUpdateDataBuffer(As<aclDataBuffer>(buffer), As<void>(data), size));
  });
  m.def("get_data_buffer_addr",
        [](Addr buffer) { return ToInt(aclGetDataBufferAddr(As<const aclDataBuffer>(buffer))); });
  m.def("get_data_buffer_size",
        [](Addr buffer) { return static_cast<size_t>(aclGetDataBufferSize(As<const aclDataBuffer>(buffer))); });
  m.def("get_data_buffer_size_v2", [](Addr buffer) { return aclGetDataBufferSizeV2(As<const aclDataBuffer>(buffer)); });
}

void DefineTensorDescs(py::module_& m) {
  m.def("create_tensor_desc", [](int dtype, const py::list& dims_list, int format) {
    std::vector<int64_t> dims = DimsFromList(dims_list);
    return ToInt(aclCreateTensorDesc(static_cast<aclDataType>(dtype), static_cast<int>(dims.size()),
                                     dims.empty() ? nullptr : dims.data(), static_cast<aclFormat>(format)));
  });
  m.def("destroy_tensor_desc", [](Addr desc) { aclDestroyTensorDesc(As<const aclTensorDesc>(desc)); });
  m.def("get_tensor_desc_type",
        [](Addr desc) { return static_cast<int>(aclGetTensorDescType(As<const aclTensorDesc>(desc))); });
  m.def("get_tensor_desc_format",
        [](Addr desc) { return static_cast<int>(aclGetTensorDescFormat(As<const aclTensorDesc>(desc))); });
  m.def("get_tensor_desc_size", [](Addr desc) { return aclGetTensorDescSize(As<const aclTensorDesc>(desc)); });
  m.def("get_tensor_desc_element_count",
        [](Addr desc) { return aclGetTensorDescElementCount(As<const aclTensorDesc>(desc)); });
  m.def("get_tensor_desc_num_dims", [](Addr desc) { return aclGetTensorDescNumDims(As<const aclTensorDesc>(desc)); });
  m.def("get_tensor_desc_dim",
        [](Addr desc, size_t index) { return aclGetTensorDescDim(As<const aclTensorDesc>(desc), index); });
  m.def("get_tensor_desc_dim_v2", [](Addr desc, size_t index) {
    int64_t dim = 0;
    aclError ret = aclGetTensorDescDimV2(As<const aclTensorDesc>(desc), index, &dim);
    return WithRet(ret, dim);
  });
  m.def("get_tensor_desc_dim_range", [](Addr desc, size_t index, size_t count) -> py::tuple {
    constexpr size_t kMaxRange = 4096;  // CANN's bound on what it allocates for the answer
    if (count > kMaxRange) {
      return WithRet(ACL_ERROR_INVALID_PARAM, py::none());
    }
    std::vector<int64_t> range(count + 1);
    aclError ret = aclGetTensorDescDimRange(As<const aclTensorDesc>(desc), index, count, range.data());
    if (ret != ACL_SUCCESS) {
      return WithRet(ret, py::none());
    }
    range.resize(count);
    return WithRet(ret, py::cast(range));
  });
  m.def("get_tensor_desc_name", [](Addr desc) { return Str(aclGetTensorDescName(As<aclTensorDesc>(desc))); });
  m.def("set_tensor_desc_name",
        [](Addr desc, const std::string& name) { aclSetTensorDescName(As<aclTensorDesc>(desc), name.c_str()); });
  m.def("trans_tensor_desc_format", [](Addr desc, int format) {
    aclTensorDesc* out = nullptr;
    aclError ret = aclTransTensorDescFormat(As<const aclTensorDesc>(desc), static_cast<aclFormat>(format), &out);
    return WithRet(ret, ToInt(out));
  });
  using FormatSetter = aclError (*)(aclTensorDesc*, aclFormat);
  const std::pair<const char*, FormatSetter> format_setters[] = {
      {"set_tensor_storage_format", aclSetTensorStorageFormat},
      {"set_tensor_format", aclSetTensorFormat},
      {"set_tensor_origin_format", aclSetTensorOriginFormat},
  };
  for (const auto& [name, setter] : format_setters) {
    m.def(name, [setter = setter](Addr desc, int format) {
      return static_cast<int>(setter(As<aclTensorDesc>(desc), static_cast<aclFormat>(format)));
    });
  }
  using ShapeSetter = aclError (*)(aclTensorDesc*, int, const int64_t*);
  const std::pair<const char*, ShapeSetter> shape_setters[] = {
      {"set_tensor_storage_shape", aclSetTensorStorageShape},
      {"set_tensor_shape", aclSetTensorShape},
      {"set_tensor_origin_shape", aclSetTensorOriginShape},
  };
  for (const auto& [name, setter] : shape_setters) {
    m.def(name, [setter = setter](Addr desc, const py::list& dims_list) {
      std::vector<int64_t> dims = DimsFromList(dims_list);
      return static_cast<int>(
          setter(As<aclTensorDesc>(desc), static_cast<int>(dims.size()), dims.empty() ? nullptr : dims.data()));
    });
  }
  m.def("set_tensor_shape_range", [](Addr desc, const py::list& ranges) {
    auto pairs = PairsFromList(ranges, "acl.set_tensor_shape_range");
    return static_cast<int>(aclSetTensorShapeRange(
        As<aclTensorDesc>(desc), pairs.size(), reinterpret_cast<int64_t(*)[ACL_TENSOR_SHAPE_RANGE_NUM]>(pairs.data())));
  });
  m.def("set_tensor_value_range", [](Addr desc, const py::list& ranges) {
    auto pairs = PairsFromList(ranges, "acl.set_tensor_value_range");
    return static_cast<int>(aclSetTensorValueRange(
        As<aclTensorDesc>(desc), pairs.size(), reinterpret_cast<int64_t(*)[ACL_TENSOR_VALUE_RANGE_NUM]>(pairs.data())));
  });
  m.def("set_tensor_dynamic_input", [](Addr desc, const std::string& name) {
    return static_cast<int>(aclSetTensorDynamicInput(As<aclTensorDesc>(desc), name.c_str()));
  });
  m.def("set_tensor_const", [](Addr desc, Addr data, size_t size) {
    return static_cast<int>(aclSetTensorConst(As<aclTensorDesc>(desc), As<void>(data), size));
  });
  m.def("set_tensor_place_ment", [](Addr desc, int mem_type) {
    return static_cast<int>(aclSetTensorPlaceMent(As<aclTensorDesc>(desc), static_cast<aclMemType>(mem_type)));
  });
  m.def("get_tensor_desc_address",
        [](Addr desc) { return ToInt(aclGetTensorDescAddress(As<const aclTensorDesc>(desc))); });
  m.def("get_tensor_desc_by_index",
        [](Addr desc, size_t index) { return ToInt(aclGetTensorDescByIndex(As<aclTensorDesc>(desc), index)); });
}

}  // namespace

void DefineTop(py::module_& acl) {
  DefineLifecycleAndVersions(acl);
  DefineDataBuffers(acl);
  DefineTensorDescs(acl);
}

}  // namespace pyacl
