// acl.rt: virtual memory management (reserve, physical allocations, map), shareable handles, IPC memory and
// uncorrectable-error (UCE) records.
#include <algorithm>
#include <iterator>

#include "rt_defs.h"

namespace pyacl::rt {
namespace {

// aclrtPhysicalMemProp from CANN's dict {"handleType", "allocationType", "memAttr",
// "location": {"id", "type"}, "reserve"}; "reserve" may be left out.
aclrtPhysicalMemProp PropFromDict(const py::handle& object) {
  const std::string what = "the physical memory prop";
  py::dict dict = AsDict(object, what);
  aclrtPhysicalMemProp prop{};
  prop.handleType = static_cast<aclrtMemHandleType>(RequiredInt<int>(dict, "handleType", what));
  prop.allocationType = static_cast<aclrtMemAllocationType>(RequiredInt<int>(dict, "allocationType", what));
  prop.memAttr = static_cast<aclrtMemAttr>(RequiredInt<int>(dict, "memAttr", what));
  const std::string location_what = what + "['location']";
  py::dict location = AsDict(Required(dict, "location", what), location_what);
  prop.location.id = RequiredInt<uint32_t>(location, "id", location_what);
  prop.location.type = static_cast<aclrtMemLocationType>(RequiredInt<int>(location, "type", location_what));
  prop.reserve = OptionalInt<uint64_t>(dict, "reserve", 0, what);
  return prop;
}

py::dict UceInfoDict(const aclrtMemUceInfo& info) {
  py::dict dict;
  dict["addr"] = ToInt(info.addr);
  dict["len"] = info.len;
  dict["reserved"] = ListOf(info.reserved, std::size(info.reserved));
  return dict;
}

aclrtMemUceInfo UceInfoFromDict(const py::handle& object, const std::string& what) {
  py::dict dict = AsDict(object, what);
  aclrtMemUceInfo info{};
  info.addr = As<void>(RequiredInt<Addr>(dict, "addr", what));
  info.len = RequiredInt<size_t>(dict, "len", what);
  if (dict.contains("reserved")) FillArray(dict["reserved"], info.reserved, std::size(info.reserved), what);
  return info;
}

void DefineVirtualMemory(py::module_& rt) {
  rt.def("reserve_mem_address", [](size_t size, size_t alignment, Addr expect, uint64_t flags) {
    void* ptr = nullptr;
    aclError ret = aclrtReserveMemAddress(&ptr, size, alignment, As<void>(expect), flags);
    return WithRet(ret, ToInt(ptr));
  }, py::arg("size"), py::arg("alignment"), py::arg("expect_ptr"), py::arg("flags"));
  rt.def("release_mem_address", [](Addr ptr) { return Ret(aclrtReleaseMemAddress(As<void>(ptr))); },
         py::arg("vir_ptr"));
  rt.def("malloc_physical", [](size_t size, const py::object& prop, uint64_t flags) {
    aclrtPhysicalMemProp c_prop = PropFromDict(prop);
    aclrtDrvMemHandle handle = nullptr;
    aclError ret = aclrtMallocPhysical(&handle, size, &c_prop, flags);
    return WithRet(ret, ToInt(handle));
  }, py::arg("size"), py::arg("prop"), py::arg("flags"));
  rt.def("free_physical", [](Addr handle) { return Ret(aclrtFreePhysical(As<void>(handle))); }, py::arg("handle"));
  rt.def("map_mem", [](Addr ptr, size_t size, size_t offset, Addr handle, uint64_t flags) {
    return Ret(aclrtMapMem(As<void>(ptr), size, offset, As<void>(handle), flags));
  }, py::arg("vir_ptr"), py::arg("size"), py::arg("offset"), py::arg("handle"), py::arg("flags"));
  rt.def("unmap_mem", [](Addr ptr) { return Ret(aclrtUnmapMem(As<void>(ptr))); }, py::arg("vir_ptr"));
  rt.def("mem_get_allocation_granularity", [](const py::object& prop, int option) {
    aclrtPhysicalMemProp c_prop = PropFromDict(prop);
    size_t granularity = 0;
    aclError ret = aclrtMemGetAllocationGranularity(&c_prop, static_cast<aclrtMemGranularityOptions>(option),
                                                    &granularity);
    return WithRet(ret, granularity);
  }, py::arg("prop"), py::arg("option"));
}

void DefineSharing(py::module_& rt) {
  rt.def("mem_export_to_shareable_handle", [](Addr handle, int type, uint64_t flags) {
    uint64_t shareable = 0;
    aclError ret = aclrtMemExportToShareableHandle(As<void>(handle), static_cast<aclrtMemHandleType>(type), flags,
                                                   &shareable);
    return WithRet(ret, shareable);
  }, py::arg("handle"), py::arg("handle_type"), py::arg("flags"));
  rt.def("device_get_bare_tgid", [] {
    int32_t pid = 0;
    aclError ret = aclrtDeviceGetBareTgid(&pid);
    return WithRet(ret, pid);
  });
  rt.def("mem_set_pid_to_shareable_handle", [](uint64_t shareable, const py::object& pids) {
    std::vector<int32_t> values = IntList<int32_t>(pids, "pids");
    return Ret(aclrtMemSetPidToShareableHandle(shareable, values.data(), values.size()));
  }, py::arg("shareable_handle"), py::arg("pids"));
  rt.def("mem_import_from_shareable_handle", [](uint64_t shareable, int32_t device) {
    aclrtDrvMemHandle handle = nullptr;
    aclError ret = aclrtMemImportFromShareableHandle(shareable, device, &handle);
    return WithRet(ret, ToInt(handle));
  }, py::arg("shareable_handle"), py::arg("device_id"));

  rt.def("ipc_mem_get_export_key", [](Addr ptr, size_t size, size_t len, uint64_t flags) {
    if (len >= kMaxKeyLen) throw py::value_error("key len should be less than 1024");
    std::vector<char> key(len + 1, '\0');
    aclError ret = aclrtIpcMemGetExportKey(As<void>(ptr), size, key.data(), len, flags);
    return WithRet(ret, Str(key.data()));
  }, py::arg("dev_ptr"), py::arg("size"), py::arg("len"), py::arg("flags"));
  rt.def("ipc_mem_set_import_pid", [](const std::string& key, const py::object& pids) {
    std::vector<int32_t> values = IntList<int32_t>(pids, "pids");
    return Ret(aclrtIpcMemSetImportPid(key.c_str(), values.data(), values.size()));
  }, py::arg("key"), py::arg("pids"));
  rt.def("ipc_mem_import_by_key", [](const std::string& key, uint64_t flags) {
    void* ptr = nullptr;
    aclError ret = aclrtIpcMemImportByKey(&ptr, key.c_str(), flags);
    return WithRet(ret, ToInt(ptr));
  }, py::arg("key"), py::arg("flags"));
  rt.def("ipc_mem_close", [](const std::string& key) { return Ret(aclrtIpcMemClose(key.c_str())); },
         py::arg("key"));
}

void DefineUce(py::module_& rt) {
  // `([{"addr", "len", "reserved"}, ...], ret)`: at most array_size records.
  rt.def("get_mem_uce_info", [](int32_t device, size_t array_size) {
    if (array_size > MAX_MEM_UCE_INFO_ARRAY_SIZE) {
      throw py::value_error("array_size should be at most " + std::to_string(MAX_MEM_UCE_INFO_ARRAY_SIZE));
    }
    std::vector<aclrtMemUceInfo> infos(array_size);
    size_t count = 0;
    aclError ret = aclrtGetMemUceInfo(device, infos.data(), array_size, &count);
    py::list list;
    for (size_t i = 0; i < std::min(count, array_size); ++i) list.append(UceInfoDict(infos[i]));
    return WithRet(ret, list);
  }, py::arg("device_id"), py::arg("array_size"));
  rt.def("mem_uce_repair", [](int32_t device, const py::object& records) {
    py::sequence list = AsList(records, "the UCE records");
    std::vector<aclrtMemUceInfo> infos;
    for (size_t i = 0; i < py::len(list); ++i) {
      py::object item = list[i];
      infos.push_back(UceInfoFromDict(item, "the UCE records[" + std::to_string(i) + "]"));
    }
    return Ret(aclrtMemUceRepair(device, infos.data(), infos.size()));
  }, py::arg("device_id"), py::arg("mem_uce_info_array"));
}

}  // namespace

void DefineVmm(py::module_& rt) {
  DefineVirtualMemory(rt);
  DefineSharing(rt);
  DefineUce(rt);
}

}  // namespace pyacl::rt
