// acl.prof: profiling (acl_prof.h): the init/config/start/stop session, model subscriptions and the readers of
// their operator records, step timestamps, and msproftx stamps, marks and ranges. The operator records come from
// the pipe given to create_subscribe_config; a program reads them into bytes and passes their address
// (acl.util.bytes_to_ptr) and length to the get_op_* readers.
#include <string>
#include <vector>

#include "acl/acl_prof.h"
#include "pyacl.h"

namespace pyacl {
namespace {

// CANN's pyACL refuses type and name lengths above this before allocating the buffer for them.
constexpr size_t kMaxOpStringLength = 4096;

Addr CreateConfig(const std::vector<uint32_t>& device_ids, int aicore_metrics, Addr aicore_events,
                  uint64_t data_type_config) {
  std::vector<uint32_t> ids(device_ids);
  ids.push_back(0);  // never a null array, even for no devices
  return ToInt(aclprofCreateConfig(ids.data(), static_cast<uint32_t>(device_ids.size()),
                                   static_cast<aclprofAicoreMetrics>(aicore_metrics),
                                   As<const aclprofAicoreEvents>(aicore_events), data_type_config));
}

// The pipe's fd is read when the config is created, so a local copy is all the C call needs.
Addr CreateSubscribeConfig(int8_t time_info_switch, int aicore_metrics, int fd) {
  return ToInt(aclprofCreateSubscribeConfig(time_info_switch, static_cast<aclprofAicoreMetrics>(aicore_metrics), &fd));
}

using LenGetter = aclError (*)(const void*, size_t, uint32_t, size_t*);
using StrGetter = aclError (*)(const void*, size_t, uint32_t, char*, size_t);

// get_op_type / get_op_name: the caller gives the buffer length (from get_op_*_len).
py::tuple GetString(StrGetter get, Addr op_info, size_t op_info_len, uint32_t index, size_t length) {
  if (length > kMaxOpStringLength) return WithRet(ACL_ERROR_INVALID_PARAM, std::string());
  std::vector<char> text(length + 1, '\0');
  const aclError ret = get(As<const void>(op_info), op_info_len, index, text.data(), length);
  return WithRet(ret, std::string(text.data()));
}

// get_op_type_v2 / get_op_name_v2: the length is asked first; (None, ret) when that fails.
py::tuple GetStringV2(LenGetter get_len, StrGetter get, Addr op_info, size_t op_info_len, uint32_t index) {
  size_t length = 0;
  aclError ret = get_len(As<const void>(op_info), op_info_len, index, &length);
  if (ret != ACL_SUCCESS) return WithRet(ret, py::none());
  std::vector<char> text(length + 1, '\0');
  ret = get(As<const void>(op_info), op_info_len, index, text.data(), length);
  return WithRet(ret, std::string(text.data()));
}

py::tuple GetLength(LenGetter get_len, Addr op_info, size_t op_info_len, uint32_t index) {
  size_t length = 0;
  const aclError ret = get_len(As<const void>(op_info), op_info_len, index, &length);
  return WithRet(ret, length);
}

void DefineSession(py::module_& prof) {
  prof.def(
      "init", [](const std::string& path) { return aclprofInit(path.c_str(), path.size()); },
      py::arg("profiler_result_path"));
  // Stopping a session and finalising write the collected data out: they may wait on the device.
  prof.def(
      "finalize", [] { return aclprofFinalize(); }, ReleaseGil());
  prof.def("create_config", &CreateConfig, py::arg("device_id_list"), py::arg("aicore_metrics"),
           py::arg("aicore_events"), py::arg("data_type_config"));
  prof.def(
      "destroy_config", [](Addr config) { return aclprofDestroyConfig(As<const aclprofConfig>(config)); },
      py::arg("config"));
  prof.def(
      "start", [](Addr config) { return aclprofStart(As<const aclprofConfig>(config)); }, ReleaseGil(),
      py::arg("config"));
  prof.def(
      "stop", [](Addr config) { return aclprofStop(As<const aclprofConfig>(config)); }, ReleaseGil(),
      py::arg("config"));
  prof.def(
      "set_config",
      [](int config_type, const std::string& config) {
        return aclprofSetConfig(static_cast<aclprofConfigType>(config_type), config.c_str(), config.size());
      },
      py::arg("config_type"), py::arg("config"));
}

void DefineSubscription(py::module_& prof) {
  prof.def(
      "model_subscribe",
      [](uint32_t model_id, Addr config) {
        return aclprofModelSubscribe(model_id, As<const aclprofSubscribeConfig>(config));
      },
      py::arg("model_id"), py::arg("subscribe_config"));
  auto unsubscribe = [](uint32_t model_id) { return aclprofModelUnSubscribe(model_id); };
  prof.def("model_unsubscribe", unsubscribe, py::arg("model_id"));
  prof.def("model_un_subscribe", unsubscribe, py::arg("model_id"));  // CANN's earlier spelling, kept by CANN too
  prof.def("create_subscribe_config", &CreateSubscribeConfig, py::arg("time_info_switch"), py::arg("aicore_metrics"),
           py::arg("fd"));
  prof.def(
      "destroy_subscribe_config",
      [](Addr config) { return aclprofDestroySubscribeConfig(As<const aclprofSubscribeConfig>(config)); },
      py::arg("subscribe_config"));
  prof.def("get_op_desc_size", [] {
    size_t size = 0;
    const aclError ret = aclprofGetOpDescSize(&size);
    return WithRet(ret, size);
  });
  prof.def(
      "get_op_num",
      [](Addr op_info, size_t op_info_len) {
        uint32_t number = 0;
        const aclError ret = aclprofGetOpNum(As<const void>(op_info), op_info_len, &number);
        return WithRet(ret, number);
      },
      py::arg("op_info"), py::arg("op_info_len"));
  prof.def(
      "get_op_type",
      [](Addr op_info, size_t op_info_len, uint32_t index, size_t length) {
        return GetString(&aclprofGetOpType, op_info, op_info_len, index, length);
      },
      py::arg("op_info"), py::arg("op_info_len"), py::arg("index"), py::arg("op_type_len"));
  prof.def(
      "get_op_name",
      [](Addr op_info, size_t op_info_len, uint32_t index, size_t length) {
        return GetString(&aclprofGetOpName, op_info, op_info_len, index, length);
      },
      py::arg("op_info"), py::arg("op_info_len"), py::arg("index"), py::arg("op_name_len"));
  prof.def(
      "get_op_type_v2",
      [](Addr op_info, size_t op_info_len, uint32_t index) {
        return GetStringV2(&aclprofGetOpTypeLen, &aclprofGetOpType, op_info, op_info_len, index);
      },
      py::arg("op_info"), py::arg("op_info_len"), py::arg("index"));
  prof.def(
      "get_op_name_v2",
      [](Addr op_info, size_t op_info_len, uint32_t index) {
        return GetStringV2(&aclprofGetOpNameLen, &aclprofGetOpName, op_info, op_info_len, index);
      },
      py::arg("op_info"), py::arg("op_info_len"), py::arg("index"));
  prof.def(
      "get_op_type_len",
      [](Addr op_info, size_t op_info_len, uint32_t index) {
        return GetLength(&aclprofGetOpTypeLen, op_info, op_info_len, index);
      },
      py::arg("op_info"), py::arg("op_info_len"), py::arg("index"));
  prof.def(
      "get_op_name_len",
      [](Addr op_info, size_t op_info_len, uint32_t index) {
        return GetLength(&aclprofGetOpNameLen, op_info, op_info_len, index);
      },
      py::arg("op_info"), py::arg("op_info_len"), py::arg("index"));
  prof.def(
      "get_op_start",
      [](Addr op_info, size_t op_info_len, uint32_t index) {
        return aclprofGetOpStart(As<const void>(op_info), op_info_len, index);
      },
      py::arg("op_info"), py::arg("op_info_len"), py::arg("index"));
  prof.def(
      "get_op_end",
      [](Addr op_info, size_t op_info_len, uint32_t index) {
        return aclprofGetOpEnd(As<const void>(op_info), op_info_len, index);
      },
      py::arg("op_info"), py::arg("op_info_len"), py::arg("index"));
  prof.def(
      "get_op_duration",
      [](Addr op_info, size_t op_info_len, uint32_t index) {
        return aclprofGetOpDuration(As<const void>(op_info), op_info_len, index);
      },
      py::arg("op_info"), py::arg("op_info_len"), py::arg("index"));
  prof.def(
      "get_model_id",
      [](Addr op_info, size_t op_info_len, uint32_t index) {
        return aclprofGetModelId(As<const void>(op_info), op_info_len, index);
      },
      py::arg("op_info"), py::arg("op_info_len"), py::arg("index"));
}

void DefineStepsAndStamps(py::module_& prof) {
  prof.def(
      "get_step_timestamp",
      [](Addr step_info, int tag, Addr stream) {
        return aclprofGetStepTimestamp(As<aclprofStepInfo>(step_info), static_cast<aclprofStepTag>(tag),
                                       As<void>(stream));
      },
      py::arg("step_info"), py::arg("tag"), py::arg("stream"));
  prof.def("create_step_info", [] { return ToInt(aclprofCreateStepInfo()); });
  prof.def(
      "destroy_step_info", [](Addr step_info) { aclprofDestroyStepInfo(As<aclprofStepInfo>(step_info)); },
      py::arg("step_info"));
  prof.def("create_stamp", [] { return ToInt(aclprofCreateStamp()); });
  prof.def(
      "destroy_stamp", [](Addr stamp) { aclprofDestroyStamp(As<void>(stamp)); }, py::arg("stamp"));
  prof.def(
      "push", [](Addr stamp) { return aclprofPush(As<void>(stamp)); }, py::arg("stamp"));
  prof.def("pop", [] { return aclprofPop(); });
  prof.def(
      "range_start",
      [](Addr stamp) {
        uint32_t range_id = 0;
        const aclError ret = aclprofRangeStart(As<void>(stamp), &range_id);
        return WithRet(ret, range_id);
      },
      py::arg("stamp"));
  prof.def(
      "range_stop", [](uint32_t range_id) { return aclprofRangeStop(range_id); }, py::arg("range_id"));
  // msg_len is the caller's, as in C; the C function reads at most up to the string's terminating NUL.
  prof.def(
      "set_stamp_trace_message",
      [](Addr stamp, const std::string& msg, uint32_t msg_len) {
        return aclprofSetStampTraceMessage(As<void>(stamp), msg.c_str(), msg_len);
      },
      py::arg("stamp"), py::arg("msg"), py::arg("msg_len"));
  prof.def(
      "mark", [](Addr stamp) { return aclprofMark(As<void>(stamp)); }, py::arg("stamp"));
  prof.def(
      "mark_ex",
      [](const std::string& msg, Addr stream) { return aclprofMarkEx(msg.c_str(), msg.size(), As<void>(stream)); },
      py::arg("msg"), py::arg("stream"));
}

}  // namespace

void DefineProf(py::module_& prof) {
  DefineSession(prof);
  DefineSubscription(prof);
  DefineStepsAndStamps(prof);
}

}  // namespace pyacl
