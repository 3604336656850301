// Shared by the acl.op files (op.cc, op_attr.cc, op_compile.cc): the lists of descriptors and buffers that
// Python passes become the C arrays the aclop* functions read.
#pragma once

#include <climits>
#include <string>
#include <vector>

#include "pyacl.h"

namespace pyacl {

using AddrList = std::vector<Addr>;

// A list of handles as the C array of pointers. One null entry past the end, so that the array is never a null
// pointer even for an empty list (an operator without inputs).
template <class T>
std::vector<T*> PtrArray(const AddrList& addrs) {
  std::vector<T*> out(addrs.size() + 1, nullptr);
  for (size_t i = 0; i < addrs.size(); ++i) out[i] = As<T>(addrs[i]);
  return out;
}

// A list length as the C API's int count (ValueError past INT_MAX).
inline int Count(size_t n, const char* what) {
  if (n > static_cast<size_t>(INT_MAX)) throw py::value_error(std::string(what) + " has too many entries");
  return static_cast<int>(n);
}

// The C API reads one count of entries from both arrays of a pair (descriptors and their buffers): lists of
// different lengths would make it read past the end of the shorter one, so they are refused here.
inline int PairCount(const char* fn, const AddrList& descs, const char* descs_name, const AddrList& buffers,
                     const char* buffers_name) {
  if (descs.size() != buffers.size()) {
    throw py::value_error(std::string(fn) + ": " + descs_name + " has " + std::to_string(descs.size()) +
                          " entries but " + buffers_name + " has " + std::to_string(buffers.size()));
  }
  return Count(descs.size(), descs_name);
}

// The operands of one operator call as the aclop* functions take them: the descriptor and buffer lists as C
// arrays, with their counts (each pair checked by PairCount).
struct Operands {
  int num_inputs = 0;
  int num_outputs = 0;
  std::vector<aclTensorDesc*> in_descs;
  std::vector<aclDataBuffer*> in_bufs;
  std::vector<aclTensorDesc*> out_descs;
  std::vector<aclDataBuffer*> out_bufs;
};
inline Operands OperandsOf(const char* fn, const AddrList& input_descs, const AddrList& inputs,
                           const AddrList& output_descs, const AddrList& outputs) {
  Operands o;
  o.num_inputs = PairCount(fn, input_descs, "input_desc", inputs, "inputs");
  o.num_outputs = PairCount(fn, output_descs, "output_desc", outputs, "outputs");
  o.in_descs = PtrArray<aclTensorDesc>(input_descs);
  o.in_bufs = PtrArray<aclDataBuffer>(inputs);
  o.out_descs = PtrArray<aclTensorDesc>(output_descs);
  o.out_bufs = PtrArray<aclDataBuffer>(outputs);
  return o;
}

// Parts of acl.op, each in its own file.
void DefineOpAttr(py::module_& op);     // create_attr, destroy_attr, set_attr_* (op_attr.cc)
void DefineOpCompile(py::module_& op);  // compile*, compile functions, kernels, update_params (op_compile.cc)

}  // namespace pyacl
