// acl.rt: streams (create, destroy, query, abort, ids), their attributes and overflow/failure switches, and
// stream resource limits.
#include <iterator>

#include "rt_defs.h"

namespace pyacl::rt {
namespace {

// The union member each aclrtStreamAttr uses, by CANN's dict key. Attributes CANN's pyACL does not name
// (cache-op info, priority) also read and write "reserved", CANN's spelling for the raw words.
const char* AttrKey(int attr) {
  switch (attr) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
      return "failureMode";
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
      return "overflowSwitch";
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
      return "userCustomTag";
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
      return "cacheOpInfoSwitch";
    case ACL_STREAM_ATTR_PRIORITY:
      return "streamPriority";
    default:
      return nullptr;
  }
}

aclrtStreamAttrValue AttrValueFromDict(int attr, const py::handle& object) {
  const std::string what = "the stream attribute value";
  py::dict dict = AsDict(object, what);
  aclrtStreamAttrValue value{};
  const char* key = AttrKey(attr);
  const bool named = key != nullptr && dict.contains(key);
  if (named && attr == ACL_STREAM_ATTR_FAILURE_MODE) {
    value.failureMode = RequiredInt<uint64_t>(dict, key, what);
  } else if (named) {
    // Every other named member is a uint32 at the union's start.
    value.reserve[0] = RequiredInt<uint32_t>(dict, key, what);
  } else if (dict.contains("reserved")) {
    FillArray(dict["reserved"], value.reserve, std::size(value.reserve), what + "['reserved']");
  } else {
    throw py::value_error(what + " has no key '" + (key != nullptr ? key : "reserved") + "'");
  }
  return value;
}

py::dict AttrValueToDict(int attr, const aclrtStreamAttrValue& value) {
  py::dict dict;
  switch (attr) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
      dict["failureMode"] = value.failureMode;
      break;
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
      dict["overflowSwitch"] = value.overflowSwitch;
      break;
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
      dict["userCustomTag"] = value.userCustomTag;
      break;
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
      dict["cacheOpInfoSwitch"] = value.cacheOpInfoSwitch;
      dict["reserved"] = ListOf(value.reserve, std::size(value.reserve));
      break;
    case ACL_STREAM_ATTR_PRIORITY:
      dict["streamPriority"] = value.streamPriority;
      dict["reserved"] = ListOf(value.reserve, std::size(value.reserve));
      break;
    default:
      dict["reserved"] = ListOf(value.reserve, std::size(value.reserve));
  }
  return dict;
}

void DefineLifecycle(py::module_& rt) {
  rt.def("create_stream", [] {
    aclrtStream stream = nullptr;
    aclError ret = aclrtCreateStream(&stream);
    return WithRet(ret, ToInt(stream));
  });
  rt.def("create_stream_with_config", [](uint32_t priority, uint32_t flag) {
    aclrtStream stream = nullptr;
    aclError ret = aclrtCreateStreamWithConfig(&stream, priority, flag);
    return WithRet(ret, ToInt(stream));
  }, py::arg("priority"), py::arg("flag"));
  // Destroying a stream waits for its tasks, a report callback among them, which needs the GIL to run.
  rt.def("destroy_stream", [](Addr stream) { return Ret(aclrtDestroyStream(As<void>(stream))); }, py::arg("stream"),
         ReleaseGil());
  rt.def("destroy_stream_force", [](Addr stream) { return Ret(aclrtDestroyStreamForce(As<void>(stream))); },
         py::arg("stream"), ReleaseGil());
  rt.def("stream_abort", [](Addr stream) { return Ret(aclrtStreamAbort(As<void>(stream))); }, py::arg("stream"),
         ReleaseGil());
  rt.def("stream_query", [](Addr stream) {
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    aclError ret = aclrtStreamQuery(As<void>(stream), &status);
    return WithRet(ret, static_cast<uint32_t>(status));
  }, py::arg("stream"));
  rt.def("stream_get_id", [](Addr stream) {
    int32_t id = 0;
    aclError ret = aclrtStreamGetId(As<void>(stream), &id);
    return WithRet(ret, id);
  }, py::arg("stream"));
  rt.def("get_stream_available_num", [] {
    uint32_t count = 0;
    aclError ret = aclrtGetStreamAvailableNum(&count);
    return WithRet(ret, count);
  });
}

void DefineStreamAttributes(py::module_& rt) {
  rt.def("set_stream_overflow_switch", [](Addr stream, uint32_t flag) {
    return Ret(aclrtSetStreamOverflowSwitch(As<void>(stream), flag));
  }, py::arg("stream"), py::arg("flag"));
  rt.def("get_stream_overflow_switch", [](Addr stream) {
    uint32_t flag = 0;
    aclError ret = aclrtGetStreamOverflowSwitch(As<void>(stream), &flag);
    return WithRet(ret, flag);
  }, py::arg("stream"));
  rt.def("set_stream_failure_mode", [](Addr stream, uint64_t mode) {
    return Ret(aclrtSetStreamFailureMode(As<void>(stream), mode));
  }, py::arg("stream"), py::arg("mode"));
  rt.def("set_stream_attribute", [](Addr stream, int attr, const py::object& value) {
    aclrtStreamAttrValue c_value = AttrValueFromDict(attr, value);
    return Ret(aclrtSetStreamAttribute(As<void>(stream), static_cast<aclrtStreamAttr>(attr), &c_value));
  }, py::arg("stream"), py::arg("stm_attr_type"), py::arg("value"));
  rt.def("get_stream_attribute", [](Addr stream, int attr) {
    aclrtStreamAttrValue value{};
    aclError ret = aclrtGetStreamAttribute(As<void>(stream), static_cast<aclrtStreamAttr>(attr), &value);
    return WithRet(ret, AttrValueToDict(attr, value));
  }, py::arg("stream"), py::arg("stm_attr_type"));
}

void DefineResLimits(py::module_& rt) {
  rt.def("get_stream_res_limit", [](Addr stream, int type) {
    uint32_t value = 0;
    aclError ret = aclrtGetStreamResLimit(As<void>(stream), static_cast<aclrtDevResLimitType>(type), &value);
    return WithRet(ret, value);
  }, py::arg("stream"), py::arg("type"));
  rt.def("set_stream_res_limit", [](Addr stream, int type, uint32_t value) {
    return Ret(aclrtSetStreamResLimit(As<void>(stream), static_cast<aclrtDevResLimitType>(type), value));
  }, py::arg("stream"), py::arg("type"), py::arg("value"));
  rt.def("reset_stream_res_limit", [](Addr stream) { return Ret(aclrtResetStreamResLimit(As<void>(stream))); },
         py::arg("stream"));
  rt.def("use_stream_res_in_current_thread", [](Addr stream) {
    return Ret(aclrtUseStreamResInCurrentThread(As<void>(stream)));
  }, py::arg("stream"));
  rt.def("unuse_stream_res_in_current_thread", [](Addr stream) {
    return Ret(aclrtUnuseStreamResInCurrentThread(As<void>(stream)));
  }, py::arg("stream"));
  rt.def("get_res_in_current_thread", [](int type) {
    uint32_t value = 0;
    aclError ret = aclrtGetResInCurrentThread(static_cast<aclrtDevResLimitType>(type), &value);
    return WithRet(ret, value);
  }, py::arg("type"));
}

}  // namespace

void DefineStream(py::module_& rt) {
  DefineLifecycle(rt);
  DefineStreamAttributes(rt);
  DefineResLimits(rt);
}

}  // namespace pyacl::rt
