#include "mappers.h"

#include <algorithm>
#include <map>

#include "base/dtype.h"

namespace npurt::atc {
namespace {

const std::map<std::string, MapFn>& Table() {
  static const std::map<std::string, MapFn>* t = [] {
    std::vector<std::pair<std::string, MapFn>> list;
    AddNnMappers(&list);
    AddTensorMappers(&list);
    return new std::map<std::string, MapFn>(list.begin(), list.end());
  }();
  return *t;
}

}  // namespace

MapFn FindMapper(const std::string& op_type) {
  auto it = Table().find(op_type);
  return it == Table().end() ? nullptr : it->second;
}

std::vector<std::string> SupportedOnnxOps() {
  std::vector<std::string> v;
  for (const auto& [name, fn] : Table()) v.push_back(name);
  return v;
}

Status MapFail(const std::string& reason) { return Status(1, reason); }

HostTensor ScalarOf(int32_t dtype, double value) {
  HostTensor t;
  t.dtype = dtype;
  t.bytes.assign(DTypeSize(dtype), 0);
  StoreFromDouble(t.bytes.data(), dtype, 0, value);
  return t;
}

}  // namespace npurt::atc
