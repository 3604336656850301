// acl.rt: report callbacks (subscribe_report, launch_callback, process_report) and the task-exception
// callback with its info getters. The Python callables run on runtime threads, under the GIL; no C++
// exception leaves a function the C runtime calls.
#include <memory>

#include "rt_defs.h"

namespace pyacl::rt {
namespace {

// What launch_callback hands the runtime: `fn(args)`, owned by the runtime from a successful launch until
// the call, which frees it. A callback the runtime drops without calling (its stream unsubscribed first)
// keeps its two references: leaking them is safe, freeing them without knowing is not.
struct LaunchedCallback {
  py::object fn;
  py::object args;
};

void RunLaunchedCallback(void* user_data) {
  if (!PythonAlive()) return;  // the interpreter is going: nothing to call, and nothing safe to free
  try {
    py::gil_scoped_acquire gil;
    // Freed under the GIL, since dropping the references may run Python code (finalizers).
    std::unique_ptr<LaunchedCallback> callback(static_cast<LaunchedCallback*>(user_data));
    CallFromRuntime(callback->fn, callback->args);
  } catch (...) {  // NOLINT(bugprone-empty-catch): the runtime's thread must not unwind into C
  }
}

// The callable set with set_exception_info_callback, or an empty object. Read and written only under the
// GIL; never destroyed, so that a runtime thread reporting a failure at exit finds it valid.
py::object& ExceptionCallable() {
  static auto* callable = new py::object();
  return *callable;
}

void RunExceptionCallback(aclrtExceptionInfo* info) {
  if (!PythonAlive()) return;
  try {
    py::gil_scoped_acquire gil;
    py::object callable = ExceptionCallable();  // a reference of our own: the callable may replace itself
    if (callable) CallFromRuntime(callable, ToInt(info));
  } catch (...) {  // NOLINT(bugprone-empty-catch): the runtime's thread must not unwind into C
  }
}

void DefineReports(py::module_& rt) {
  // thread_id is the pthread id (pthread_self) of the thread that calls process_report: what
  // acl.util.start_thread returns, or threading.get_ident() in that thread.
  rt.def("subscribe_report", [](uint64_t thread_id, Addr stream) {
    return Ret(aclrtSubscribeReport(thread_id, As<void>(stream)));
  }, py::arg("thread_id"), py::arg("stream"));
  rt.def("unsubscribe_report", [](uint64_t thread_id, Addr stream) {
    return Ret(aclrtUnSubscribeReport(thread_id, As<void>(stream)));
  }, py::arg("thread_id"), py::arg("stream"));
  // Waits for callbacks and runs them on this thread; each takes the GIL for its call.
  rt.def("process_report", [](int32_t timeout) { return Ret(aclrtProcessReport(timeout)); }, py::arg("timeout"),
         ReleaseGil());
  // fn(args) runs on the subscribed thread once the work queued before it on stream has finished. The GIL is
  // kept here: the launch only enqueues, and the callback cannot start before this returns.
  rt.def("launch_callback", [](py::object fn, py::object args, int block_type, Addr stream) {
    if (!PyCallable_Check(fn.ptr())) throw py::type_error("launch_callback: fn must be callable");
    auto callback = std::make_unique<LaunchedCallback>(LaunchedCallback{std::move(fn), std::move(args)});
    aclError ret = aclrtLaunchCallback(&RunLaunchedCallback, callback.get(),
                                       static_cast<aclrtCallbackBlockType>(block_type), As<void>(stream));
    if (ret == ACL_SUCCESS) (void)callback.release();  // the runtime owns it now
    return Ret(ret);
  }, py::arg("fn"), py::arg("args"), py::arg("block_type"), py::arg("stream"));
}

void DefineExceptions(py::module_& rt) {
  // CANN's pyACL keeps this legacy single-callback setter (deprecated in C for the Register/Unregister pair).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  // fn(info) with info the aclrtExceptionInfo pointer as an int, valid during the call only; None (or no
  // argument) removes the callback.
  rt.def("set_exception_info_callback", [](const py::object& fn) {
    if (fn.is_none()) {
      aclError ret = aclrtSetExceptionInfoCallback(nullptr);
      ExceptionCallable() = py::object();
      return Ret(ret);
    }
    if (!PyCallable_Check(fn.ptr())) {
      throw py::type_error("set_exception_info_callback: fn must be callable or None");
    }
    ExceptionCallable() = fn;  // before the registration, so that a failure reported meanwhile finds it
    return Ret(aclrtSetExceptionInfoCallback(&RunExceptionCallback));
  }, py::arg("fn") = py::none());
#pragma GCC diagnostic pop

  using Getter = uint32_t (*)(const aclrtExceptionInfo*);
  struct Field {
    const char* name;
    Getter fn;
  };
  for (const Field& f : {Field{"get_error_code_from_exception_info", &aclrtGetErrorCodeFromExceptionInfo},
                         Field{"get_task_id_from_exception_info", &aclrtGetTaskIdFromExceptionInfo},
                         Field{"get_stream_id_from_exception_info", &aclrtGetStreamIdFromExceptionInfo},
                         Field{"get_thread_id_from_exception_info", &aclrtGetThreadIdFromExceptionInfo},
                         Field{"get_device_id_from_exception_info", &aclrtGetDeviceIdFromExceptionInfo}}) {
    Getter fn = f.fn;
    rt.def(f.name, [fn](Addr info) { return fn(As<const aclrtExceptionInfo>(info)); }, py::arg("info"));
  }
}

}  // namespace

void DefineCallback(py::module_& rt) {
  DefineReports(rt);
  DefineExceptions(rt);
}

}  // namespace pyacl::rt
