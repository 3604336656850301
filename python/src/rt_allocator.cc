// acl.rt: user allocators. A program describes its allocator with Python callables; the runtime calls them
// (on whichever thread needs workspace) through C trampolines that take the GIL. As in CANN's pyACL there is
// one callable per kind for the whole process, the last one set.
#include <array>

#include "rt_defs.h"

namespace pyacl::rt {
namespace {

enum Slot { kAlloc, kFree, kAllocAdvise, kGetAddrFromBlock, kSlotCount };

// The callables, read and written only under the GIL; never destroyed, so that a runtime thread calling in
// at exit finds them valid.
py::object& Callable(Slot slot) {
  static auto* slots = new std::array<py::object, kSlotCount>();
  return (*slots)[slot];
}

// Calls the slot's callable; its result (an address as an int, or None) is the C callback's pointer.
// Exceptions, and results of another type, are reported as unraisable and give a null pointer.
template <class... Args>
void* CallForAddress(Slot slot, Args... args) {
  if (!PythonAlive()) return nullptr;
  try {
    py::gil_scoped_acquire gil;
    py::object callable = Callable(slot);
    if (!callable) return nullptr;
    try {
      py::object result = callable(args...);
      return result.is_none() ? nullptr : As<void>(py::cast<Addr>(result));
    } catch (py::error_already_set& error) {
      error.discard_as_unraisable("pyACL allocator callback");
    } catch (const py::cast_error&) {
      PyErr_SetString(PyExc_TypeError, "a pyACL allocator callback must return an address (int) or None");
      PyErr_WriteUnraisable(callable.ptr());
    }
  } catch (...) {  // NOLINT(bugprone-empty-catch): the runtime's thread must not unwind into C
  }
  return nullptr;
}

void* AllocTrampoline(aclrtAllocator allocator, size_t size) {
  return CallForAddress(kAlloc, ToInt(allocator), size);
}

void FreeTrampoline(aclrtAllocator allocator, aclrtAllocatorBlock block) {
  (void)CallForAddress(kFree, ToInt(allocator), ToInt(block));
}

void* AllocAdviseTrampoline(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr) {
  return CallForAddress(kAllocAdvise, ToInt(allocator), size, ToInt(addr));
}

void* GetAddrFromBlockTrampoline(aclrtAllocatorBlock block) {
  return CallForAddress(kGetAddrFromBlock, ToInt(block));
}

// set_*_func_to_desc(desc, fn): registers the trampoline, and on success makes fn the slot's callable.
template <class Trampoline>
void DefineSetter(py::module_& rt, const char* name, Slot slot, aclError (*set)(aclrtAllocatorDesc, Trampoline),
                  Trampoline trampoline) {
  rt.def(name, [slot, set, trampoline](Addr desc, const py::object& fn) {
    if (!PyCallable_Check(fn.ptr())) throw py::type_error(std::string("allocator callback must be callable"));
    aclError ret = set(As<void>(desc), trampoline);
    if (ret == ACL_SUCCESS) Callable(slot) = fn;
    return Ret(ret);
  }, py::arg("allocator_desc"), py::arg("fn"));
}

}  // namespace

void DefineAllocator(py::module_& rt) {
  rt.def("allocator_create_desc", [] { return ToInt(aclrtAllocatorCreateDesc()); });
  rt.def("allocator_destroy_desc", [](Addr desc) { return Ret(aclrtAllocatorDestroyDesc(As<void>(desc))); },
         py::arg("allocator_desc"));
  rt.def("allocator_set_obj_to_desc", [](Addr desc, Addr allocator) {
    return Ret(aclrtAllocatorSetObjToDesc(As<void>(desc), As<void>(allocator)));
  }, py::arg("allocator_desc"), py::arg("allocator"));
  DefineSetter<aclrtAllocatorAllocFunc>(rt, "allocator_set_alloc_func_to_desc", kAlloc,
                                        &aclrtAllocatorSetAllocFuncToDesc, &AllocTrampoline);
  DefineSetter<aclrtAllocatorFreeFunc>(rt, "allocator_set_free_func_to_desc", kFree,
                                       &aclrtAllocatorSetFreeFuncToDesc, &FreeTrampoline);
  DefineSetter<aclrtAllocatorAllocAdviseFunc>(rt, "allocator_set_alloc_advise_func_to_desc", kAllocAdvise,
                                              &aclrtAllocatorSetAllocAdviseFuncToDesc, &AllocAdviseTrampoline);
  DefineSetter<aclrtAllocatorGetAddrFromBlockFunc>(rt, "allocator_set_get_addr_from_block_func_to_desc",
                                                   kGetAddrFromBlock, &aclrtAllocatorSetGetAddrFromBlockFuncToDesc,
                                                   &GetAddrFromBlockTrampoline);
  rt.def("allocator_register", [](Addr stream, Addr desc) {
    return Ret(aclrtAllocatorRegister(As<void>(stream), As<void>(desc)));
  }, py::arg("stream"), py::arg("allocator_desc"));
  rt.def("allocator_unregister", [](Addr stream) { return Ret(aclrtAllocatorUnregister(As<void>(stream))); },
         py::arg("stream"));
}

}  // namespace pyacl::rt
