// acl.op attributes (aclopAttr): create_attr, destroy_attr and the set_attr_* setters. Every setter returns
// the bare ret, except set_attr_data_type and set_attr_list_data_type, which return (attr, ret) as in CANN's
// pyACL. List values are Python lists; other sequences (numpy arrays) are still taken, with the warning CANN
// gives, because CANN's pyACL read numpy arrays there before it asked for lists.
#include <string>
#include <vector>

#include "op_common.h"

namespace pyacl {
namespace {

template <class T>
std::vector<T> ListValues(py::handle values, const char* fn, const char* what) {
  if (!py::isinstance<py::list>(values)) {
    if (PyErr_WarnEx(PyExc_Warning, (std::string("acl.op.") + fn + ": values should be a list").c_str(), 1) != 0) {
      throw py::error_already_set();  // warnings turned into errors
    }
  }
  try {
    return values.cast<std::vector<T>>();
  } catch (const py::cast_error&) {
    throw py::type_error(std::string("acl.op.") + fn + ": values must be a list of " + what);
  }
}

aclError SetListBool(Addr attr, const std::string& name, py::handle values) {
  const auto v = ListValues<uint8_t>(values, "set_attr_list_bool", "bools");
  return aclopSetAttrListBool(As<aclopAttr>(attr), name.c_str(), Count(v.size(), "values"), v.data());
}

aclError SetListInt(Addr attr, const std::string& name, py::handle values) {
  const auto v = ListValues<int64_t>(values, "set_attr_list_int", "ints");
  return aclopSetAttrListInt(As<aclopAttr>(attr), name.c_str(), Count(v.size(), "values"), v.data());
}

aclError SetListFloat(Addr attr, const std::string& name, py::handle values) {
  const auto v = ListValues<float>(values, "set_attr_list_float", "floats");
  return aclopSetAttrListFloat(As<aclopAttr>(attr), name.c_str(), Count(v.size(), "values"), v.data());
}

aclError SetListString(Addr attr, const std::string& name, const std::vector<std::string>& values) {
  std::vector<const char*> ptrs(values.size() + 1, nullptr);
  for (size_t i = 0; i < values.size(); ++i) ptrs[i] = values[i].c_str();
  return aclopSetAttrListString(As<aclopAttr>(attr), name.c_str(), Count(values.size(), "values"), ptrs.data());
}

aclError SetListListInt(Addr attr, const std::string& name, py::handle values) {
  const auto lists = ListValues<std::vector<int64_t>>(values, "set_attr_list_list_int", "lists of ints");
  std::vector<int> counts(lists.size() + 1, 0);
  std::vector<const int64_t*> ptrs(lists.size() + 1, nullptr);
  for (size_t i = 0; i < lists.size(); ++i) {
    counts[i] = Count(lists[i].size(), "values[i]");
    ptrs[i] = lists[i].data();
  }
  return aclopSetAttrListListInt(As<aclopAttr>(attr), name.c_str(), Count(lists.size(), "values"), counts.data(),
                                 ptrs.data());
}

py::tuple SetDataType(Addr attr, const std::string& name, int data_type) {
  const aclError ret = aclopSetAttrDataType(As<aclopAttr>(attr), name.c_str(), static_cast<aclDataType>(data_type));
  return WithRet(ret, attr);
}

py::tuple SetListDataType(Addr attr, const std::string& name, const std::vector<int>& values) {
  std::vector<aclDataType> types(values.size() + 1, ACL_DT_UNDEFINED);
  for (size_t i = 0; i < values.size(); ++i) types[i] = static_cast<aclDataType>(values[i]);
  const aclError ret =
      aclopSetAttrListDataType(As<aclopAttr>(attr), name.c_str(), Count(values.size(), "values"), types.data());
  return WithRet(ret, attr);
}

}  // namespace

void DefineOpAttr(py::module_& op) {
  op.def("create_attr", [] { return ToInt(aclopCreateAttr()); });
  op.def(
      "destroy_attr", [](Addr attr) { aclopDestroyAttr(As<const aclopAttr>(attr)); }, py::arg("attr"));
  op.def(
      "set_attr_bool",
      [](Addr attr, const std::string& name, uint8_t value) {
        return aclopSetAttrBool(As<aclopAttr>(attr), name.c_str(), value);
      },
      py::arg("attr"), py::arg("attr_name"), py::arg("attr_value"));
  op.def(
      "set_attr_int",
      [](Addr attr, const std::string& name, int64_t value) {
        return aclopSetAttrInt(As<aclopAttr>(attr), name.c_str(), value);
      },
      py::arg("attr"), py::arg("attr_name"), py::arg("attr_value"));
  op.def(
      "set_attr_float",
      [](Addr attr, const std::string& name, float value) {
        return aclopSetAttrFloat(As<aclopAttr>(attr), name.c_str(), value);
      },
      py::arg("attr"), py::arg("attr_name"), py::arg("attr_value"));
  op.def(
      "set_attr_string",
      [](Addr attr, const std::string& name, const std::string& value) {
        return aclopSetAttrString(As<aclopAttr>(attr), name.c_str(), value.c_str());
      },
      py::arg("attr"), py::arg("attr_name"), py::arg("attr_value"));
  op.def("set_attr_list_bool", &SetListBool, py::arg("attr"), py::arg("attr_name"), py::arg("values"));
  op.def("set_attr_list_int", &SetListInt, py::arg("attr"), py::arg("attr_name"), py::arg("values"));
  op.def("set_attr_list_float", &SetListFloat, py::arg("attr"), py::arg("attr_name"), py::arg("values"));
  op.def("set_attr_list_string", &SetListString, py::arg("attr"), py::arg("attr_name"), py::arg("values"));
  op.def("set_attr_list_list_int", &SetListListInt, py::arg("attr"), py::arg("attr_name"), py::arg("values"));
  op.def("set_attr_data_type", &SetDataType, py::arg("attr"), py::arg("attr_name"), py::arg("attr_value"));
  op.def("set_attr_list_data_type", &SetListDataType, py::arg("attr"), py::arg("attr_name"), py::arg("values"));
}

}  // namespace pyacl
