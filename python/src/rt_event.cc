// acl.rt: events (record, query, wait, time), stream synchronisation and notifies. Everything that blocks the
// calling thread releases the GIL, so a callback thread (process_report) or any other Python thread runs.
#include "rt_defs.h"

namespace pyacl::rt {
namespace {

// The longest export key a caller may ask for (CANN's limit too).

void DefineSynchronization(py::module_& rt) {
  rt.def("synchronize_stream", [](Addr stream) { return Ret(aclrtSynchronizeStream(As<void>(stream))); },
         py::arg("stream"), ReleaseGil());
  rt.def("synchronize_stream_with_timeout", [](Addr stream, int32_t timeout) {
    return Ret(aclrtSynchronizeStreamWithTimeout(As<void>(stream), timeout));
  }, py::arg("stream"), py::arg("timeout"), ReleaseGil());
  rt.def("stream_wait_event", [](Addr stream, Addr event) {
    return Ret(aclrtStreamWaitEvent(As<void>(stream), As<void>(event)));
  }, py::arg("stream"), py::arg("event"), ReleaseGil());
  rt.def("get_thread_last_task_id", [] {
    uint32_t task = 0;
    aclError ret = aclrtGetThreadLastTaskId(&task);
    return WithRet(ret, task);
  });
}

void DefineEvents(py::module_& rt) {
  rt.def("create_event", [] {
    aclrtEvent event = nullptr;
    aclError ret = aclrtCreateEvent(&event);
    return WithRet(ret, ToInt(event));
  });
  rt.def("create_event_with_flag", [](uint32_t flag) {
    aclrtEvent event = nullptr;
    aclError ret = aclrtCreateEventWithFlag(&event, flag);
    return WithRet(ret, ToInt(event));
  }, py::arg("flag"));
  rt.def("create_event_ex_with_flag", [](uint32_t flag) {
    aclrtEvent event = nullptr;
    aclError ret = aclrtCreateEventExWithFlag(&event, flag);
    return WithRet(ret, ToInt(event));
  }, py::arg("flag"));
  rt.def("destroy_event", [](Addr event) { return Ret(aclrtDestroyEvent(As<void>(event))); }, py::arg("event"));
  rt.def("record_event", [](Addr event, Addr stream) {
    return Ret(aclrtRecordEvent(As<void>(event), As<void>(stream)));
  }, py::arg("event"), py::arg("stream"));
  rt.def("reset_event", [](Addr event, Addr stream) {
    return Ret(aclrtResetEvent(As<void>(event), As<void>(stream)));
  }, py::arg("event"), py::arg("stream"));
  // CANN's pyACL keeps query_event (deprecated for query_event_status) under its historical name.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  rt.def("query_event", [](Addr event) {
    aclrtEventStatus status = ACL_EVENT_STATUS_RESERVED;
    aclError ret = aclrtQueryEvent(As<void>(event), &status);
    return WithRet(ret, static_cast<uint32_t>(status));
  }, py::arg("event"));
#pragma GCC diagnostic pop
  rt.def("query_event_status", [](Addr event) {
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    aclError ret = aclrtQueryEventStatus(As<void>(event), &status);
    return WithRet(ret, static_cast<uint32_t>(status));
  }, py::arg("event"));
  rt.def("query_event_wait_status", [](Addr event) {
    aclrtEventWaitStatus status = ACL_EVENT_WAIT_STATUS_RESERVED;
    aclError ret = aclrtQueryEventWaitStatus(As<void>(event), &status);
    return WithRet(ret, static_cast<uint32_t>(status));
  }, py::arg("event"));
  rt.def("synchronize_event", [](Addr event) { return Ret(aclrtSynchronizeEvent(As<void>(event))); },
         py::arg("event"), ReleaseGil());
  rt.def("synchronize_event_with_timeout", [](Addr event, int32_t timeout) {
    return Ret(aclrtSynchronizeEventWithTimeout(As<void>(event), timeout));
  }, py::arg("event"), py::arg("timeout"), ReleaseGil());
  rt.def("event_elapsed_time", [](Addr start, Addr end) {
    float ms = 0.0F;
    aclError ret = aclrtEventElapsedTime(&ms, As<void>(start), As<void>(end));
    return WithRet(ret, ms);
  }, py::arg("start"), py::arg("end"));
  rt.def("event_get_timestamp", [](Addr event) {
    uint64_t timestamp = 0;
    aclError ret = aclrtEventGetTimestamp(As<void>(event), &timestamp);
    return WithRet(ret, timestamp);
  }, py::arg("event"));
  rt.def("get_event_id", [](Addr event) {
    uint32_t id = 0;
    aclError ret = aclrtGetEventId(As<void>(event), &id);
    return WithRet(ret, id);
  }, py::arg("event"));
  rt.def("get_event_avail_num", [] {
    uint32_t count = 0;
    aclError ret = aclrtGetEventAvailNum(&count);
    return WithRet(ret, count);
  });
}

void DefineNotifies(py::module_& rt) {
  rt.def("create_notify", [](uint64_t flag) {
    aclrtNotify notify = nullptr;
    aclError ret = aclrtCreateNotify(&notify, flag);
    return WithRet(ret, ToInt(notify));
  }, py::arg("flag"));
  rt.def("destroy_notify", [](Addr notify) { return Ret(aclrtDestroyNotify(As<void>(notify))); },
         py::arg("notify"));
  rt.def("record_notify", [](Addr notify, Addr stream) {
    return Ret(aclrtRecordNotify(As<void>(notify), As<void>(stream)));
  }, py::arg("notify"), py::arg("stream"));
  // Enqueues the wait on the stream; the calling thread does not block.
  rt.def("wait_and_reset_notify", [](Addr notify, Addr stream, uint32_t timeout) {
    return Ret(aclrtWaitAndResetNotify(As<void>(notify), As<void>(stream), timeout));
  }, py::arg("notify"), py::arg("stream"), py::arg("timeout"));
  rt.def("get_notify_id", [](Addr notify) {
    uint32_t id = 0;
    aclError ret = aclrtGetNotifyId(As<void>(notify), &id);
    return WithRet(ret, id);
  }, py::arg("notify"));
  rt.def("notify_batch_reset", [](const py::object& notifies) {
    std::vector<Addr> addresses = IntList<Addr>(notifies, "notifies");
    std::vector<aclrtNotify> handles;
    handles.reserve(addresses.size());
    for (Addr address : addresses) handles.push_back(As<void>(address));
    return Ret(aclrtNotifyBatchReset(handles.data(), handles.size()));
  }, py::arg("notifies"));
  rt.def("notify_get_export_key", [](Addr notify, size_t len, uint64_t flags) {
    if (len >= kMaxKeyLen) throw py::value_error("key len should be less than 1024");
    std::vector<char> key(len + 1, '\0');
    aclError ret = aclrtNotifyGetExportKey(As<void>(notify), key.data(), len, flags);
    return WithRet(ret, Str(key.data()));
  }, py::arg("notify"), py::arg("len"), py::arg("flags"));
  rt.def("notify_set_import_pid", [](Addr notify, const py::object& pids) {
    std::vector<int32_t> values = IntList<int32_t>(pids, "pids");
    return Ret(aclrtNotifySetImportPid(As<void>(notify), values.data(), values.size()));
  }, py::arg("notify"), py::arg("pids"));
  rt.def("notify_import_by_key", [](const std::string& key, uint64_t flags) {
    aclrtNotify notify = nullptr;
    aclError ret = aclrtNotifyImportByKey(&notify, key.c_str(), flags);
    return WithRet(ret, ToInt(notify));
  }, py::arg("key"), py::arg("flags"));
}

}  // namespace

void DefineEvent(py::module_& rt) {
  DefineSynchronization(rt);
  DefineEvents(rt);
  DefineNotifies(rt);
}

}  // namespace pyacl::rt
