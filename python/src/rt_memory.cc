// acl.rt: device and host memory (malloc family, free, flush/invalidate, mem info), copies and fills
// (memcpy*, memset*, copy descriptors, value write/wait, cache operations, reduce), pointer attributes and
// host registration.
#include <iterator>

#include "rt_defs.h"

namespace pyacl::rt {
namespace {

// aclrtMallocConfig read from CANN's dict {"numAttrs": n, "attrs": [{"attr": type, "value": {...}}, ...]};
// an empty dict (or None) means no configuration. The storage lives as long as this object.
class MallocConfig {
 public:
  explicit MallocConfig(const py::object& object) {
    if (object.is_none()) return;
    const std::string what = "the malloc config";
    py::dict dict = AsDict(object, what);
    if (dict.empty()) return;
    py::sequence list = AsList(Required(dict, "attrs", what), what + "['attrs']");
    const size_t count = py::len(list);
    if (dict.contains("numAttrs") && RequiredInt<size_t>(dict, "numAttrs", what) != count) {
      throw py::value_error(what + "['numAttrs'] does not match the length of its 'attrs' list");
    }
    attrs_.resize(count);
    for (size_t i = 0; i < count; ++i) {
      const std::string item_what = what + "['attrs'][" + std::to_string(i) + "]";
      py::dict item = AsDict(list[i], item_what);
      attrs_[i].attr = static_cast<aclrtMallocAttrType>(RequiredInt<int>(item, "attr", item_what));
      attrs_[i].value = ValueFromDict(Required(item, "value", item_what), item_what + "['value']");
    }
    cfg_.attrs = attrs_.data();
    cfg_.numAttrs = count;
    present_ = true;
  }
  aclrtMallocConfig* get() { return present_ ? &cfg_ : nullptr; }

 private:
  // The union holds whichever member the dict names (CANN's keys, plus npurt's vaFlag).
  static aclrtMallocAttrValue ValueFromDict(const py::handle& object, const std::string& what) {
    py::dict dict = AsDict(object, what);
    aclrtMallocAttrValue value{};
    if (dict.contains("moduleId")) {
      value.moduleId = RequiredInt<uint16_t>(dict, "moduleId", what);
    } else if (dict.contains("deviceId")) {
      value.deviceId = RequiredInt<uint32_t>(dict, "deviceId", what);
    } else if (dict.contains("vaFlag")) {
      value.vaFlag = RequiredInt<uint32_t>(dict, "vaFlag", what);
    } else if (dict.contains("rsv")) {
      FillArray(dict["rsv"], value.rsv, std::size(value.rsv), what + "['rsv']");
    } else {
      throw py::value_error(what + " has none of the keys 'moduleId', 'deviceId', 'vaFlag', 'rsv'");
    }
    return value;
  }

  std::vector<aclrtMallocAttribute> attrs_;
  aclrtMallocConfig cfg_{};
  bool present_ = false;
};

py::dict PtrAttributesDict(const aclrtPtrAttributes& attributes) {
  py::dict location;
  location["id"] = attributes.location.id;
  location["type"] = static_cast<uint32_t>(attributes.location.type);
  py::dict dict;
  dict["location"] = location;
  dict["page_size"] = attributes.pageSize;
  dict["rsv"] = ListOf(attributes.rsv, std::size(attributes.rsv));
  return dict;
}

void DefineAllocation(py::module_& rt) {
  // The three device allocators of one shape: `(ptr, ret) = f(size, policy)`.
  using Malloc = aclError (*)(void**, size_t, aclrtMemMallocPolicy);
  struct Allocator {
    const char* name;
    Malloc fn;
  };
  for (const Allocator& a : {Allocator{"malloc", &aclrtMalloc}, Allocator{"malloc_align32", &aclrtMallocAlign32},
                             Allocator{"malloc_cached", &aclrtMallocCached}}) {
    Malloc fn = a.fn;
    rt.def(a.name, [fn](size_t size, int policy) {
      void* ptr = nullptr;
      aclError ret = fn(&ptr, size, static_cast<aclrtMemMallocPolicy>(policy));
      return WithRet(ret, ToInt(ptr));
    }, py::arg("size"), py::arg("policy"));
  }
  rt.def("malloc_with_cfg", [](size_t size, int policy, const py::object& cfg) {
    MallocConfig config(cfg);
    void* ptr = nullptr;
    aclError ret = aclrtMallocWithCfg(&ptr, size, static_cast<aclrtMemMallocPolicy>(policy), config.get());
    return WithRet(ret, ToInt(ptr));
  }, py::arg("size"), py::arg("policy"), py::arg("cfg"));
  rt.def("malloc_for_task_scheduler", [](size_t size, int policy, const py::object& cfg) {
    MallocConfig config(cfg);
    void* ptr = nullptr;
    aclError ret = aclrtMallocForTaskScheduler(&ptr, size, static_cast<aclrtMemMallocPolicy>(policy), config.get());
    return WithRet(ret, ToInt(ptr));
  }, py::arg("size"), py::arg("policy"), py::arg("cfg"));
  rt.def("free", [](Addr ptr) { return Ret(aclrtFree(As<void>(ptr))); }, py::arg("dev_ptr"));
  rt.def("malloc_host", [](size_t size) {
    void* ptr = nullptr;
    aclError ret = aclrtMallocHost(&ptr, size);
    return WithRet(ret, ToInt(ptr));
  }, py::arg("size"));
  rt.def("malloc_host_with_cfg", [](uint64_t size, const py::object& cfg) {
    MallocConfig config(cfg);
    void* ptr = nullptr;
    aclError ret = aclrtMallocHostWithCfg(&ptr, size, config.get());
    return WithRet(ret, ToInt(ptr));
  }, py::arg("size"), py::arg("cfg"));
  rt.def("free_host", [](Addr ptr) { return Ret(aclrtFreeHost(As<void>(ptr))); }, py::arg("host_ptr"));
  rt.def("mem_flush", [](Addr ptr, size_t size) { return Ret(aclrtMemFlush(As<void>(ptr), size)); },
         py::arg("dev_ptr"), py::arg("size"));
  rt.def("mem_invalidate", [](Addr ptr, size_t size) { return Ret(aclrtMemInvalidate(As<void>(ptr), size)); },
         py::arg("dev_ptr"), py::arg("size"));
  rt.def("get_mem_info", [](int attr) {
    size_t free = 0;
    size_t total = 0;
    aclError ret = aclrtGetMemInfo(static_cast<aclrtMemAttr>(attr), &free, &total);
    return WithRet(ret, free, total);
  }, py::arg("attr"));
}

void DefineCopies(py::module_& rt) {
  // Synchronous, and like CANN's it keeps the GIL: it waits for no stream, only for the copy itself.
  rt.def("memcpy", [](Addr dst, size_t dst_max, Addr src, size_t count, int kind) {
    return Ret(aclrtMemcpy(As<void>(dst), dst_max, As<const void>(src), count, static_cast<aclrtMemcpyKind>(kind)));
  }, py::arg("dst"), py::arg("dest_max"), py::arg("src"), py::arg("count"), py::arg("kind"));
  rt.def("memcpy_async", [](Addr dst, size_t dst_max, Addr src, size_t count, int kind, Addr stream) {
    return Ret(aclrtMemcpyAsync(As<void>(dst), dst_max, As<const void>(src), count,
                                static_cast<aclrtMemcpyKind>(kind), As<void>(stream)));
  }, py::arg("dst"), py::arg("dest_max"), py::arg("src"), py::arg("count"), py::arg("kind"), py::arg("stream"));
  // CANN's pyACL keeps memcpy_async_with_condition although the C function is deprecated.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  rt.def("memcpy_async_with_condition", [](Addr dst, size_t dst_max, Addr src, size_t count, int kind, Addr stream) {
    return Ret(aclrtMemcpyAsyncWithCondition(As<void>(dst), dst_max, As<const void>(src), count,
                                             static_cast<aclrtMemcpyKind>(kind), As<void>(stream)));
  }, py::arg("dst"), py::arg("dest_max"), py::arg("src"), py::arg("count"), py::arg("kind"), py::arg("stream"));
#pragma GCC diagnostic pop
  rt.def("memcpy2d", [](Addr dst, size_t dpitch, Addr src, size_t spitch, size_t width, size_t height, int kind) {
    return Ret(aclrtMemcpy2d(As<void>(dst), dpitch, As<const void>(src), spitch, width, height,
                             static_cast<aclrtMemcpyKind>(kind)));
  }, py::arg("dst"), py::arg("dpitch"), py::arg("src"), py::arg("spitch"), py::arg("width"), py::arg("height"),
     py::arg("kind"));
  rt.def("memcpy2d_async", [](Addr dst, size_t dpitch, Addr src, size_t spitch, size_t width, size_t height,
                              int kind, Addr stream) {
    return Ret(aclrtMemcpy2dAsync(As<void>(dst), dpitch, As<const void>(src), spitch, width, height,
                                  static_cast<aclrtMemcpyKind>(kind), As<void>(stream)));
  }, py::arg("dst"), py::arg("dpitch"), py::arg("src"), py::arg("spitch"), py::arg("width"), py::arg("height"),
     py::arg("kind"), py::arg("stream"));
  rt.def("memset", [](Addr ptr, size_t max_count, int32_t value, size_t count) {
    return Ret(aclrtMemset(As<void>(ptr), max_count, value, count));
  }, py::arg("dev_ptr"), py::arg("max_count"), py::arg("value"), py::arg("count"));
  rt.def("memset_async", [](Addr ptr, size_t max_count, int32_t value, size_t count, Addr stream) {
    return Ret(aclrtMemsetAsync(As<void>(ptr), max_count, value, count, As<void>(stream)));
  }, py::arg("dev_ptr"), py::arg("max_count"), py::arg("value"), py::arg("count"), py::arg("stream"));

  rt.def("get_memcpy_desc_size", [](int kind) {
    size_t size = 0;
    aclError ret = aclrtGetMemcpyDescSize(static_cast<aclrtMemcpyKind>(kind), &size);
    return WithRet(ret, size);
  }, py::arg("kind"));
  // `(desc, ret)`: CANN hands the descriptor back.
  rt.def("set_memcpy_desc", [](Addr desc, int kind, Addr src, Addr dst, size_t count, Addr config) {
    aclError ret = aclrtSetMemcpyDesc(As<void>(desc), static_cast<aclrtMemcpyKind>(kind), As<void>(src),
                                      As<void>(dst), count, As<void>(config));
    return WithRet(ret, desc);
  }, py::arg("desc"), py::arg("kind"), py::arg("src_addr"), py::arg("dst_addr"), py::arg("count"),
     py::arg("config"));
  rt.def("memcpy_async_with_desc", [](Addr desc, int kind, Addr stream) {
    return Ret(aclrtMemcpyAsyncWithDesc(As<void>(desc), static_cast<aclrtMemcpyKind>(kind), As<void>(stream)));
  }, py::arg("desc"), py::arg("kind"), py::arg("stream"));

  rt.def("value_write", [](Addr addr, uint64_t value, uint32_t flag, Addr stream) {
    return Ret(aclrtValueWrite(As<void>(addr), value, flag, As<void>(stream)));
  }, py::arg("dev_addr"), py::arg("value"), py::arg("flag"), py::arg("stream"));
  rt.def("value_wait", [](Addr addr, uint64_t value, uint32_t flag, Addr stream) {
    return Ret(aclrtValueWait(As<void>(addr), value, flag, As<void>(stream)));
  }, py::arg("dev_addr"), py::arg("value"), py::arg("flag"), py::arg("stream"));
  rt.def("cmo_async", [](Addr src, size_t size, int type, Addr stream) {
    return Ret(aclrtCmoAsync(As<void>(src), size, static_cast<aclrtCmoType>(type), As<void>(stream)));
  }, py::arg("src"), py::arg("size"), py::arg("cmo_type"), py::arg("stream"));
  rt.def("reduce_async", [](Addr dst, Addr src, uint64_t count, int kind, int type, Addr stream, Addr reserve) {
    return Ret(aclrtReduceAsync(As<void>(dst), As<const void>(src), count, static_cast<aclrtReduceKind>(kind),
                                static_cast<aclDataType>(type), As<void>(stream), As<void>(reserve)));
  }, py::arg("dst"), py::arg("src"), py::arg("count"), py::arg("kind"), py::arg("type"), py::arg("stream"),
     py::arg("reserve") = 0);
}

void DefinePointersAndRegistration(py::module_& rt) {
  rt.def("pointer_get_attributes", [](Addr ptr) {
    aclrtPtrAttributes attributes{};
    aclError ret = aclrtPointerGetAttributes(As<const void>(ptr), &attributes);
    return WithRet(ret, PtrAttributesDict(attributes));
  }, py::arg("ptr"));
  rt.def("host_register", [](Addr ptr, uint64_t size, int type) {
    void* dev = nullptr;
    aclError ret = aclrtHostRegister(As<void>(ptr), size, static_cast<aclrtHostRegisterType>(type), &dev);
    return WithRet(ret, ToInt(dev));
  }, py::arg("ptr"), py::arg("size"), py::arg("type"));
  rt.def("host_register_v2", [](Addr ptr, uint64_t size, uint32_t flag) {
    return Ret(aclrtHostRegisterV2(As<void>(ptr), size, flag));
  }, py::arg("ptr"), py::arg("size"), py::arg("flag"));
  rt.def("host_unregister", [](Addr ptr) { return Ret(aclrtHostUnregister(As<void>(ptr))); }, py::arg("ptr"));
  rt.def("host_get_device_pointer", [](Addr host, uint32_t flag) {
    void* dev = nullptr;
    aclError ret = aclrtHostGetDevicePointer(As<void>(host), &dev, flag);
    return WithRet(ret, ToInt(dev));
  }, py::arg("host_ptr"), py::arg("flag"));
}

}  // namespace

void DefineMemory(py::module_& rt) {
  DefineAllocation(rt);
  DefineCopies(rt);
  DefinePointersAndRegistration(rt);
}

}  // namespace pyacl::rt
