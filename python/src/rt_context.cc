// acl.rt: contexts (create, destroy, current, default stream), system parameter options, overflow status,
// and device resource groups.
#include <algorithm>
#include <array>

#include "rt_defs.h"

namespace pyacl::rt {
namespace {

void DefineContexts(py::module_& rt) {
  rt.def("create_context", [](int32_t device) {
    aclrtContext context = nullptr;
    aclError ret = aclrtCreateContext(&context, device);
    return WithRet(ret, ToInt(context));
  }, py::arg("device_id"));
  // Destroying a context destroys its streams, which drain first (a queued callback may need the GIL).
  rt.def("destroy_context", [](Addr context) { return Ret(aclrtDestroyContext(As<void>(context))); },
         py::arg("context"), ReleaseGil());
  rt.def("set_context", [](Addr context) { return Ret(aclrtSetCurrentContext(As<void>(context))); },
         py::arg("context"));
  rt.def("get_context", [] {
    aclrtContext context = nullptr;
    aclError ret = aclrtGetCurrentContext(&context);
    return WithRet(ret, ToInt(context));
  });
  rt.def("ctx_get_current_default_stream", [] {
    aclrtStream stream = nullptr;
    aclError ret = aclrtCtxGetCurrentDefaultStream(&stream);
    return WithRet(ret, ToInt(stream));
  });
  rt.def("get_primary_ctx_state", [](int32_t device) {
    uint32_t flags = 0;
    int32_t active = 0;
    aclError ret = aclrtGetPrimaryCtxState(device, &flags, &active);
    return WithRet(ret, active, flags);  // CANN's order: active first
  }, py::arg("device_id"));
  rt.def("get_overflow_status", [](Addr output, size_t size, Addr stream) {
    return Ret(aclrtGetOverflowStatus(As<void>(output), size, As<void>(stream)));
  }, py::arg("output_addr"), py::arg("output_size"), py::arg("stream"));
  rt.def("reset_overflow_status", [](Addr stream) { return Ret(aclrtResetOverflowStatus(As<void>(stream))); },
         py::arg("stream"));
}

void DefineSysParams(py::module_& rt) {
  rt.def("ctx_set_sys_param_opt", [](int opt, int64_t value) {
    return Ret(aclrtCtxSetSysParamOpt(static_cast<aclSysParamOpt>(opt), value));
  }, py::arg("opt"), py::arg("value"));
  rt.def("ctx_get_sys_param_opt", [](int opt) {
    int64_t value = 0;
    aclError ret = aclrtCtxGetSysParamOpt(static_cast<aclSysParamOpt>(opt), &value);
    return WithRet(ret, value);
  }, py::arg("opt"));
  rt.def("set_sys_param_opt", [](int opt, int64_t value) {
    return Ret(aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(opt), value));
  }, py::arg("opt"), py::arg("value"));
  rt.def("get_sys_param_opt", [](int opt) {
    int64_t value = 0;
    aclError ret = aclrtGetSysParamOpt(static_cast<aclSysParamOpt>(opt), &value);
    return WithRet(ret, value);
  }, py::arg("opt"));
}

void DefineGroups(py::module_& rt) {
  rt.def("set_group", [](int32_t group) { return Ret(aclrtSetGroup(group)); }, py::arg("group_id"));
  // CANN's wrapper parses one (unused) int argument; programs written for it pass one, others none.
  rt.def("get_group_count", [](uint32_t /*unused*/) {
    uint32_t count = 0;
    aclError ret = aclrtGetGroupCount(&count);
    return WithRet(ret, count);
  }, py::arg("count") = 0);
  rt.def("create_group_info", [] { return ToInt(aclrtCreateGroupInfo()); });
  rt.def("destroy_group_info", [](Addr info) { return Ret(aclrtDestroyGroupInfo(As<aclrtGroupInfo>(info))); },
         py::arg("group_info"));
  rt.def("get_all_group_info", [](Addr info) { return Ret(aclrtGetAllGroupInfo(As<aclrtGroupInfo>(info))); },
         py::arg("group_info"));
  // `(values, ret)`: the attribute's int32 values. CANN raises RuntimeError on failure; here the failure is
  // the return code, with an empty list, as everywhere else in pyACL.
  rt.def("get_group_info_detail", [](Addr info, int32_t group, int attr) {
    std::array<int32_t, 256> values{};
    size_t bytes = 0;
    aclError ret = aclrtGetGroupInfoDetail(As<const aclrtGroupInfo>(info), group, static_cast<aclrtGroupAttr>(attr),
                                           values.data(), sizeof(values), &bytes);
    py::list list;
    if (ret == ACL_SUCCESS) list = ListOf(values.data(), std::min(bytes / sizeof(int32_t), values.size()));
    return WithRet(ret, list);
  }, py::arg("group_info"), py::arg("group_id"), py::arg("attr"));
}

}  // namespace

void DefineContext(py::module_& rt) {
  DefineContexts(rt);
  DefineSysParams(rt);
  DefineGroups(rt);
}

}  // namespace pyacl::rt
