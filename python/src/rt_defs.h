// acl.rt's internals: the per-area Define functions that DefineRt (rt_module.cc) calls, and the helpers
// they share to read CANN's struct dicts and lists from Python objects, validated before any C call.
#pragma once

#include <string>
#include <vector>

#include "pyacl.h"

namespace pyacl::rt {

void DefineDevice(py::module_& rt);     // devices, peers, run mode, timeouts, last errors (rt_device.cc)
void DefineContext(py::module_& rt);    // contexts, sys params, overflow status, groups (rt_context.cc)
void DefineStream(py::module_& rt);     // streams, their attributes and resource limits (rt_stream.cc)
void DefineEvent(py::module_& rt);      // events, notifies, waits (rt_event.cc)
void DefineMemory(py::module_& rt);     // malloc/free, memcpy/memset, mem info, host register (rt_memory.cc)
void DefineVmm(py::module_& rt);        // virtual memory, shareable handles, IPC, UCE (rt_vmm.cc)
void DefineCallback(py::module_& rt);   // report callbacks, exception info (rt_callback.cc)
void DefineKernel(py::module_& rt);     // binaries, functions, kernel args and launches (rt_kernel.cc)
void DefineAllocator(py::module_& rt);  // user allocators (rt_allocator.cc)

// The longest notify or IPC key a caller may ask for (CANN's limit too).
constexpr size_t kMaxKeyLen = 1024;

// `int(ret)`: what a wrapper of `aclError f(...)` with no out-parameters returns.
inline int Ret(aclError ret) { return static_cast<int>(ret); }

// A value a struct dict or list holds, as T; a value that is not an int in T's range raises TypeError
// naming what it is (pybind11's own cast would raise RuntimeError).
template <class T>
T CastItem(const py::handle& item, const std::string& what) {
  try {
    return py::cast<T>(item);
  } catch (const py::cast_error&) {
    throw py::type_error(what + " must be an int in the range of its C type, not " + Py_TYPE(item.ptr())->tp_name);
  }
}

// `object` as a dict, or TypeError.
inline py::dict AsDict(const py::handle& object, const std::string& what) {
  if (!py::isinstance<py::dict>(object)) throw py::type_error(what + " must be a dict");
  return py::reinterpret_borrow<py::dict>(object);
}

// `object` as a list (CANN accepts a tuple nowhere a list is expected, we accept both), or TypeError.
inline py::sequence AsList(const py::handle& object, const std::string& what) {
  if (!py::isinstance<py::list>(object) && !py::isinstance<py::tuple>(object)) {
    throw py::type_error(what + " must be a list");
  }
  return py::reinterpret_borrow<py::sequence>(object);
}

// dict[key], or ValueError naming the missing key.
inline py::object Required(const py::dict& dict, const char* key, const std::string& what) {
  if (!dict.contains(key)) throw py::value_error(what + " has no key '" + key + "'");
  return dict[key];
}

// dict[key] as T, or ValueError (missing) / TypeError (not an int of T's range).
template <class T>
T RequiredInt(const py::dict& dict, const char* key, const std::string& what) {
  return CastItem<T>(Required(dict, key, what), what + "['" + key + "']");
}

// dict[key] as T, `fallback` where the key is absent (reserved fields CANN programs often leave out).
template <class T>
T OptionalInt(const py::dict& dict, const char* key, T fallback, const std::string& what) {
  if (!dict.contains(key)) return fallback;
  return CastItem<T>(dict[key], what + "['" + key + "']");
}

// A list of ints as T, every element checked.
template <class T>
std::vector<T> IntList(const py::handle& object, const std::string& what) {
  py::sequence list = AsList(object, what);
  std::vector<T> values;
  values.reserve(py::len(list));
  for (size_t i = 0; i < py::len(list); ++i) {
    py::object item = list[i];
    values.push_back(CastItem<T>(item, what + "[" + std::to_string(i) + "]"));
  }
  return values;
}

// A fixed-size C array filled from a list of at most n ints (the rest stays zero).
template <class T>
void FillArray(const py::handle& object, T* out, size_t n, const std::string& what) {
  std::vector<T> values = IntList<T>(object, what);
  if (values.size() > n) {
    throw py::value_error(what + " has " + std::to_string(values.size()) + " elements, at most " +
                          std::to_string(n) + " fit");
  }
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
}

// A C array as a Python list of ints.
template <class T>
py::list ListOf(const T* values, size_t n) {
  py::list list;
  for (size_t i = 0; i < n; ++i) list.append(values[i]);
  return list;
}

}  // namespace pyacl::rt
