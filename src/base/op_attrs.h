// Operator attributes as values: named, typed attributes (the contents of an aclopAttr). Kernels read them
// through typed getters that fail with ACL_ERROR_OP_ATTR_NOT_MATCH on a type mismatch; the canonical
// serialization is part of the compile-cache key. The operator layer and a driver's operator backend
// (hal/op_backend.h) exchange them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/status.h"

namespace npurt {

struct DataTypeValue {
  int32_t v;
  bool operator==(const DataTypeValue&) const = default;
};

using AttrValue = std::variant<bool, int64_t, float, std::string, DataTypeValue, std::vector<uint8_t>,
                               std::vector<int64_t>, std::vector<float>, std::vector<std::string>,
                               std::vector<int32_t> /* list of data types */,
                               std::vector<std::vector<int64_t>>>;

using AttrMap = std::map<std::string, AttrValue, std::less<>>;

// Appends a canonical, unambiguous text form of `attrs` (sorted by name) to `out`.
void SerializeAttrs(const AttrMap& attrs, std::string* out);

// Typed reads with defaults. A present attribute of another type is an error naming the attribute.
// Integer reads accept bool; float reads accept int.
StatusOr<bool> GetBool(const AttrMap& a, std::string_view name, bool def);
StatusOr<int64_t> GetInt(const AttrMap& a, std::string_view name, int64_t def);
StatusOr<float> GetFloat(const AttrMap& a, std::string_view name, float def);
StatusOr<std::string> GetString(const AttrMap& a, std::string_view name, const std::string& def);
StatusOr<int32_t> GetDataType(const AttrMap& a, std::string_view name, int32_t def);
StatusOr<std::vector<int64_t>> GetInts(const AttrMap& a, std::string_view name, std::vector<int64_t> def);
bool Has(const AttrMap& a, std::string_view name);

}  // namespace npurt
