// acl.rt: devices (selection, counts, attributes, peers, health, resource limits, id mappings), device-wide
// synchronisation, operator timeouts and the last-error queries.
#include "rt_defs.h"

namespace pyacl::rt {
namespace {

py::dict UtilizationDict(const aclrtUtilizationInfo& info) {
  py::dict dict;
  dict["cube_utilization"] = info.cubeUtilization;
  dict["vector_utilization"] = info.vectorUtilization;
  dict["aicpu_utilization"] = info.aicpuUtilization;
  dict["memory_utilization"] = info.memoryUtilization;
  dict["utilization_extend"] = ToInt(info.utilizationExtend);
  return dict;
}

void DefineSelection(py::module_& rt) {
  rt.def("set_device", [](int32_t device) { return Ret(aclrtSetDevice(device)); }, py::arg("device_id"));
  // Resetting a device destroys its streams, which first drain: a callback still queued on one needs the GIL.
  rt.def("reset_device", [](int32_t device) { return Ret(aclrtResetDevice(device)); }, py::arg("device_id"),
         ReleaseGil());
  rt.def("reset_device_force", [](int32_t device) { return Ret(aclrtResetDeviceForce(device)); },
         py::arg("device_id"), ReleaseGil());
  rt.def("get_device", [] {
    int32_t device = 0;
    aclError ret = aclrtGetDevice(&device);
    return WithRet(ret, device);
  });
  rt.def("get_device_count", [] {
    uint32_t count = 0;
    aclError ret = aclrtGetDeviceCount(&count);
    return WithRet(ret, count);
  });
  rt.def("get_run_mode", [] {
    aclrtRunMode mode = ACL_HOST;
    aclError ret = aclrtGetRunMode(&mode);
    return WithRet(ret, static_cast<int>(mode));
  });
  rt.def("set_ts_device", [](int ts) { return Ret(aclrtSetTsDevice(static_cast<aclrtTsId>(ts))); },
         py::arg("ts_id"));
  rt.def("set_device_sat_mode", [](int mode) {
    return Ret(aclrtSetDeviceSatMode(static_cast<aclrtFloatOverflowMode>(mode)));
  }, py::arg("mode"));
  rt.def("get_device_sat_mode", [] {
    aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_SATURATION;
    aclError ret = aclrtGetDeviceSatMode(&mode);
    return WithRet(ret, static_cast<int>(mode));
  });
  rt.def("synchronize_device", [] { return Ret(aclrtSynchronizeDevice()); }, ReleaseGil());
  rt.def("synchronize_device_with_timeout", [](int32_t timeout) {
    return Ret(aclrtSynchronizeDeviceWithTimeout(timeout));
  }, py::arg("timeout"), ReleaseGil());
  rt.def("device_task_abort", [](int32_t device, uint32_t timeout) {
    return Ret(aclrtDeviceTaskAbort(device, timeout));
  }, py::arg("device_id"), py::arg("timeout"), ReleaseGil());
}

void DefineDeviceAttributes(py::module_& rt) {
  rt.def("get_device_info", [](uint32_t device, int attr) {
    int64_t value = 0;
    aclError ret = aclrtGetDeviceInfo(device, static_cast<aclrtDevAttr>(attr), &value);
    return WithRet(ret, value);
  }, py::arg("device_id"), py::arg("attr"));
  rt.def("get_device_capability", [](int32_t device, int feature) {
    int32_t value = 0;
    aclError ret = aclrtGetDeviceCapability(device, static_cast<aclrtDevFeatureType>(feature), &value);
    return WithRet(ret, value);
  }, py::arg("device_id"), py::arg("dev_feature_type"));
  rt.def("device_get_stream_priority_range", [] {
    int32_t least = 0;
    int32_t greatest = 0;
    aclError ret = aclrtDeviceGetStreamPriorityRange(&least, &greatest);
    return WithRet(ret, least, greatest);
  });
  rt.def("get_device_utilization_rate", [](int32_t device) {
    aclrtUtilizationInfo info{};
    aclError ret = aclrtGetDeviceUtilizationRate(device, &info);
    return WithRet(ret, UtilizationDict(info));
  }, py::arg("device_id"));
  rt.def("query_device_status", [](int32_t device) {
    aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_END;
    aclError ret = aclrtQueryDeviceStatus(device, &status);
    return WithRet(ret, static_cast<uint32_t>(status));
  }, py::arg("device_id"));
  rt.def("device_get_uuid", [](int32_t device) {
    aclrtUuid uuid{};
    aclError ret = aclrtDeviceGetUuid(device, &uuid);
    py::dict dict;
    // The bytes as 0..255: a UUID's bytes are unsigned whatever the signedness of char.
    dict["bytes"] = ListOf(reinterpret_cast<const uint8_t*>(uuid.bytes), sizeof(uuid.bytes));
    return WithRet(ret, dict);
  }, py::arg("device_id"));
  rt.def("get_devices_topo", [](uint32_t device, uint32_t other) {
    uint64_t value = 0;
    aclError ret = aclrtGetDevicesTopo(device, other, &value);
    return WithRet(ret, value);
  }, py::arg("device_id"), py::arg("other_device_id"));
}

void DefineResLimitsAndIds(py::module_& rt) {
  rt.def("get_device_res_limit", [](int32_t device, int type) {
    uint32_t value = 0;
    aclError ret = aclrtGetDeviceResLimit(device, static_cast<aclrtDevResLimitType>(type), &value);
    return WithRet(ret, value);
  }, py::arg("device_id"), py::arg("type"));
  rt.def("set_device_res_limit", [](int32_t device, int type, uint32_t value) {
    return Ret(aclrtSetDeviceResLimit(device, static_cast<aclrtDevResLimitType>(type), value));
  }, py::arg("device_id"), py::arg("type"), py::arg("value"));
  rt.def("reset_device_res_limit", [](int32_t device) { return Ret(aclrtResetDeviceResLimit(device)); },
         py::arg("device_id"));

  // The four id mappings share one shape: `(mapped_id, ret) = f(id)`.
  using IdMap = aclError (*)(int32_t, int32_t*);
  struct Mapping {
    const char* name;
    IdMap fn;
  };
  for (const Mapping& m : {Mapping{"get_logic_dev_id_by_user_dev_id", &aclrtGetLogicDevIdByUserDevId},
                           Mapping{"get_user_dev_id_by_logic_dev_id", &aclrtGetUserDevIdByLogicDevId},
                           Mapping{"get_logic_dev_id_by_phy_dev_id", &aclrtGetLogicDevIdByPhyDevId},
                           Mapping{"get_phy_dev_id_by_logic_dev_id", &aclrtGetPhyDevIdByLogicDevId}}) {
    IdMap fn = m.fn;
    rt.def(m.name, [fn](int32_t id) {
      int32_t mapped = 0;
      aclError ret = fn(id, &mapped);
      return WithRet(ret, mapped);
    }, py::arg("device_id"));
  }
}

void DefinePeers(py::module_& rt) {
  rt.def("device_can_access_peer", [](int32_t device, int32_t peer) {
    int32_t can = 0;
    aclError ret = aclrtDeviceCanAccessPeer(&can, device, peer);
    return WithRet(ret, can);
  }, py::arg("device_id"), py::arg("peer_device_id"));
  rt.def("device_enable_peer_access", [](int32_t peer, uint32_t flags) {
    return Ret(aclrtDeviceEnablePeerAccess(peer, flags));
  }, py::arg("peer_device_id"), py::arg("flags"));
  rt.def("device_disable_peer_access", [](int32_t peer) { return Ret(aclrtDeviceDisablePeerAccess(peer)); },
         py::arg("peer_device_id"));
  rt.def("device_peer_access_status", [](int32_t device, int32_t peer) {
    int32_t status = 0;
    aclError ret = aclrtDevicePeerAccessStatus(device, peer, &status);
    return WithRet(ret, status);
  }, py::arg("device_id"), py::arg("peer_device_id"));
}

void DefineTimeoutsAndErrors(py::module_& rt) {
  rt.def("set_op_wait_timeout", [](uint32_t timeout) { return Ret(aclrtSetOpWaitTimeout(timeout)); },
         py::arg("timeout"));
  rt.def("set_op_execute_time_out", [](uint32_t timeout) { return Ret(aclrtSetOpExecuteTimeOut(timeout)); },
         py::arg("timeout"));
  rt.def("set_op_execute_timeout_v2", [](uint64_t timeout) {
    uint64_t actual = 0;
    aclError ret = aclrtSetOpExecuteTimeOutV2(timeout, &actual);
    return WithRet(ret, actual);
  }, py::arg("timeout"));
  rt.def("get_op_timeout_interval", [] {
    uint64_t interval = 0;
    aclError ret = aclrtGetOpTimeOutInterval(&interval);
    return WithRet(ret, interval);
  });
  rt.def("get_op_execute_timeout", [] {
    uint32_t timeout = 0;
    aclError ret = aclrtGetOpExecuteTimeout(&timeout);
    return WithRet(ret, timeout);
  });
  rt.def("peek_at_last_error", [](int level) {
    return Ret(aclrtPeekAtLastError(static_cast<aclrtLastErrLevel>(level)));
  }, py::arg("level"));
  rt.def("get_last_error", [](int level) { return Ret(aclrtGetLastError(static_cast<aclrtLastErrLevel>(level))); },
         py::arg("level"));
}

}  // namespace

void DefineDevice(py::module_& rt) {
  DefineSelection(rt);
  DefineDeviceAttributes(rt);
  DefineResLimitsAndIds(rt);
  DefinePeers(rt);
  DefineTimeoutsAndErrors(rt);
}

}  // namespace pyacl::rt
