// acl.util: moving data between Python objects and addresses, and the threads pyACL programs use to process
// callback reports.
#include <pthread.h>
#include <pybind11/numpy.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include "pyacl.h"

namespace pyacl {
namespace {

// The functions CANN deprecates warn as CANN's do (a Warning, once per call site by Python's filters).
void WarnDeprecated(const char* message) {
  if (PyErr_WarnEx(PyExc_Warning, message, 1) != 0) {
    throw py::error_already_set();  // warnings turned into errors (-W error)
  }
}

// A user-supplied address is read or aliased only if [address, address + size) is mapped: mincore fails
// with ENOMEM on any unmapped page. So a wrong int raises ValueError instead of killing the interpreter.
void CheckMapped(Addr address, size_t size, const char* function) {
  if (size == 0) {
    return;
  }
  if (address == 0) {
    throw py::value_error(std::string(function) + ": the address is null");
  }
  const auto page = static_cast<Addr>(sysconf(_SC_PAGESIZE));
  if (address + size < address) {
    throw py::value_error(std::string(function) + ": address + size overflows");
  }
  const Addr first = address & ~(page - 1);
  const Addr length = address + size - first;
  std::vector<unsigned char> residency((length + page - 1) / page);
  if (mincore(reinterpret_cast<void*>(first), length, residency.data()) != 0 && errno == ENOMEM) {
    throw py::value_error(std::string(function) + ": [" + std::to_string(address) + ", +" + std::to_string(size) +
                          ") is not mapped memory of this process");
  }
}

// The ndarray behind an argument, or ValueError (CANN accepts ndarrays only).
py::array NdArray(const py::handle& object, const char* function) {
  if (!py::isinstance<py::array>(object)) {
    throw py::value_error(std::string(function) + " needs a numpy.ndarray");
  }
  return py::reinterpret_borrow<py::array>(object);
}

void DefineConversions(py::module_& m) {
  m.def("bytes_to_ptr", [](const py::handle& object) {
    if (!PyBytes_Check(object.ptr())) {
      throw py::value_error("acl.util.bytes_to_ptr needs a bytes object");
    }
    return ToInt(PyBytes_AsString(object.ptr()));
  });
  m.def("ptr_to_bytes", [](Addr address, size_t size) {
    CheckMapped(address, size, "acl.util.ptr_to_bytes");
    return py::bytes(size == 0 ? "" : As<const char>(address), size);
  });
  m.def("numpy_to_ptr", [](const py::handle& object) {
    WarnDeprecated("acl.util.numpy_to_ptr will be deprecated. Please use acl.util.bytes_to_ptr instead.");
    py::array array = NdArray(object, "acl.util.numpy_to_ptr");
    if ((array.flags() & py::array::c_style) == 0) {
      WarnDeprecated("The input ndarray is discontiguous. Please use acl.util.bytes_to_ptr instead.");
    }
    return ToInt(array.data());
  });
  m.def("numpy_contiguous_to_ptr", [](const py::handle& object) {
    WarnDeprecated("acl.util.numpy_contiguous_to_ptr will be deprecated. Please use acl.util.bytes_to_ptr instead.");
    py::array array = NdArray(object, "acl.util.numpy_contiguous_to_ptr");
    py::array contiguous = py::array::ensure(array, py::array::c_style);
    if (!contiguous) {
      throw py::error_already_set();
    }
    return py::make_tuple(ToInt(contiguous.data()), contiguous);
  });
  // An ndarray that aliases `address` (writeable, owning nothing: the memory must outlive it).
  // The module is the arrays' base object, as in CANN (a borrowed handle: the module outlives its arrays).
  py::handle base = m;
  m.def("ptr_to_numpy", [base](Addr address, const py::tuple& shape, int npy_type) {
    WarnDeprecated("acl.util.ptr_to_numpy will be deprecated. Please use acl.util.ptr_to_bytes instead.");
    std::vector<py::ssize_t> dims;
    size_t count = 1;
    for (const py::handle dim : shape) {
      if (!PyLong_Check(dim.ptr())) {
        throw py::type_error("acl.util.ptr_to_numpy: the shape must be a tuple of ints");
      }
      const auto d = py::cast<py::ssize_t>(dim);
      if (d < 0) {
        throw py::value_error("acl.util.ptr_to_numpy: a negative dimension");
      }
      dims.push_back(d);
      count *= static_cast<size_t>(d);
    }
    py::dtype dtype(npy_type);
    CheckMapped(address, count * static_cast<size_t>(dtype.itemsize()), "acl.util.ptr_to_numpy");
    return py::array(dtype, dims, {}, As<void>(address), base);
  });
}

// Threads started for Python: the pthread id is what acl.rt.subscribe_report takes (aclrtSubscribeReport
// matches the thread that calls aclrtProcessReport by pthread_self()). An exception the function raises is
// printed when it happens and raised again, as RuntimeError, by stop_thread.
struct PyThread {
  py::object function;
  py::object args;
  std::string error;  // filled by the thread, read after the join
};
std::mutex g_threads_mutex;
std::map<pthread_t, PyThread*> g_threads;

void* RunPyThread(void* opaque) {
  auto* thread = static_cast<PyThread*>(opaque);
  py::gil_scoped_acquire gil;
  try {
    if (thread->args.is_none()) {
      thread->function();
    } else {
      thread->function(thread->args);
    }
  } catch (py::error_already_set& error) {
    thread->error = std::string("exception=") + py::str(error.type().attr("__name__")).cast<std::string>() +
                    ",msg=" + py::str(error.value()).cast<std::string>();
    error.discard_as_unraisable("acl.util.start_thread function");
  }
  return nullptr;
}

void DefineThreads(py::module_& m) {
  m.def("start_thread", [](py::object function, py::object args) {
    if (!PyCallable_Check(function.ptr())) {
      throw py::type_error("acl.util.start_thread: the first argument must be callable");
    }
    auto* thread = new PyThread{std::move(function), std::move(args), {}};
    pthread_t id{};
    int err = 0;
    {
      // The new thread takes the GIL first thing: let it, while this one registers it.
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(g_threads_mutex);
      err = pthread_create(&id, nullptr, RunPyThread, thread);
      if (err == 0) {
        g_threads[id] = thread;
      }
    }
    if (err != 0) {
      delete thread;
      return py::make_tuple(0, err);
    }
    return py::make_tuple(static_cast<uint64_t>(id), 0);
  });
  // ret is pthread_join's; an id this module did not start (or joined already) is ESRCH, not a crash.
  m.def("stop_thread", [](uint64_t id) {
    PyThread* thread = nullptr;
    {
      std::lock_guard<std::mutex> lock(g_threads_mutex);
      auto it = g_threads.find(static_cast<pthread_t>(id));
      if (it == g_threads.end()) {
        return static_cast<int>(ESRCH);
      }
      thread = it->second;
      g_threads.erase(it);
    }
    int err = 0;
    {
      py::gil_scoped_release release;
      err = pthread_join(static_cast<pthread_t>(id), nullptr);
    }
    std::string error = std::move(thread->error);
    delete thread;
    if (!error.empty()) {
      throw std::runtime_error(error);
    }
    return err;
  });
}

}  // namespace

void DefineUtil(py::module_& util) {
  DefineConversions(util);
  DefineThreads(util);
}

}  // namespace pyacl
