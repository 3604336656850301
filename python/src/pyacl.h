// pyACL's conventions in one place (docs/python.md, "Conventions"): every handle and pointer crosses the
// boundary as a Python int; a C function's out-parameters come back first, in C order, and its aclError last;
// structs become dicts; argument errors raise TypeError (pybind11's conversion), API errors are return codes.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace pyacl {

namespace py = pybind11;

// A handle, a device or host pointer, a stream: what Python sees is the address as an int (CANN's "k").
using Addr = std::uintptr_t;

template <class T>
T* As(Addr address) {
  return reinterpret_cast<T*>(address);
}
template <class T>
Addr ToInt(T* pointer) {
  return reinterpret_cast<Addr>(pointer);
}
// For pointers to const.
template <class T>
Addr ToInt(const T* pointer) {
  return reinterpret_cast<Addr>(pointer);
}

// An index argument. CANN parses indices as C unsigned longs without range checks, so the documented -1
// ("(size_t)-1": the dims gears of aclmdlGetInputDynamicDims) arrives as SIZE_MAX; a Python int taken as
// int64 and converted does the same.
using Index = long long;
inline size_t AsIndex(Index index) { return static_cast<size_t>(index); }

// `(outs..., ret)`: the tuple every function with out-parameters returns.
template <class... Outs>
py::tuple WithRet(aclError ret, Outs&&... outs) {
  return py::make_tuple(std::forward<Outs>(outs)..., static_cast<int>(ret));
}

// Functions that block (synchronise, wait, process reports) release the GIL, so other Python threads (a
// callback thread among them) run meanwhile: `m.def("...", f, kReleaseGil)`.
using ReleaseGil = py::call_guard<py::gil_scoped_release>;

// A C string that may be null, as Python str ("" for null, as pyACL does).
inline std::string Str(const char* text) { return text == nullptr ? std::string() : std::string(text); }

// Whether a runtime thread may still take the GIL: not once the interpreter is finalizing, when taking it
// would end the (runtime-owned) thread instead of returning.
inline bool PythonAlive() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsInitialized() != 0 && Py_IsFinalizing() == 0;
#else
  return Py_IsInitialized() != 0 && _Py_IsFinalizing() == 0;
#endif
}

// Calls a Python callable from a runtime thread: takes the GIL, and reports an exception the callable raises
// (printed with its traceback, as Python does for an exception in a thread) instead of letting it escape
// into C.
template <class... Args>
void CallFromRuntime(const py::object& callable, Args&&... args) {
  py::gil_scoped_acquire gil;
  try {
    callable(std::forward<Args>(args)...);
  } catch (py::error_already_set& error) {
    error.discard_as_unraisable("pyACL callback");
  }
}

// The submodules, one file each.
void DefineTop(py::module_& acl);          // acl.*: init, versions, data buffers, tensor descs, logs (top.cc)
void DefineRt(py::module_& rt);            // acl.rt.* (rt_*.cc)
void DefineMdl(py::module_& mdl);          // acl.mdl.* (mdl*.cc)
void DefineOp(py::module_& op);            // acl.op.* (op.cc)
void DefineUtil(py::module_& util);        // acl.util.* (util.cc)
void DefineProf(py::module_& prof);        // acl.prof.* (prof.cc)
void DefineBlas(py::module_& blas);        // acl.blas.* (blas.cc)
void DefineMedia(py::module_& media);      // acl.media.dvpp_*: DVPP V1 (media.cc)
void DefineUnsupported(py::module_& acl);  // acl.media's video, acl.himpi, acl.fv: refused with a reason (module.cc)

}  // namespace pyacl
