#include "base/op_attrs.h"

#include <cstring>

#include "acl/acl_base_rt.h"

namespace npurt {
namespace {

// Lengths prefix every string so that no attribute value can imitate a separator.
void PutString(const std::string& s, std::string* out) {
  out->append(std::to_string(s.size()));
  out->push_back(':');
  out->append(s);
}

struct Serializer {
  std::string* out;
  void operator()(bool v) { out->append(v ? "b1" : "b0"); }
  void operator()(int64_t v) { out->append("i" + std::to_string(v)); }
  void operator()(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    out->append("f" + std::to_string(bits));
  }
  void operator()(const std::string& v) {
    out->push_back('s');
    PutString(v, out);
  }
  void operator()(DataTypeValue v) { out->append("t" + std::to_string(v.v)); }
  template <typename T>
  void operator()(const std::vector<T>& v) {
    out->append("l" + std::to_string(v.size()) + "[");
    for (const auto& e : v) {
      if constexpr (std::is_same_v<T, uint8_t>) {
        (*this)(e != 0);
      } else if constexpr (std::is_same_v<T, int32_t>) {
        (*this)(DataTypeValue{e});
      } else {
        (*this)(e);
      }
      out->push_back(',');
    }
    out->push_back(']');
  }
};

Status TypeError(std::string_view name, const char* want) {
  return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "attribute '{}' must be {}", name, want);
}

}  // namespace

void SerializeAttrs(const AttrMap& attrs, std::string* out) {
  for (const auto& [name, value] : attrs) {
    PutString(name, out);
    out->push_back('=');
    std::visit(Serializer{out}, value);
    out->push_back(';');
  }
}

bool Has(const AttrMap& a, std::string_view name) { return a.find(name) != a.end(); }

StatusOr<bool> GetBool(const AttrMap& a, std::string_view name, bool def) {
  auto it = a.find(name);
  if (it == a.end()) return def;
  if (auto* b = std::get_if<bool>(&it->second)) return *b;
  if (auto* i = std::get_if<int64_t>(&it->second)) return *i != 0;
  return TypeError(name, "a bool (aclopSetAttrBool)");
}

StatusOr<int64_t> GetInt(const AttrMap& a, std::string_view name, int64_t def) {
  auto it = a.find(name);
  if (it == a.end()) return def;
  if (auto* i = std::get_if<int64_t>(&it->second)) return *i;
  if (auto* b = std::get_if<bool>(&it->second)) return static_cast<int64_t>(*b);
  return TypeError(name, "an int (aclopSetAttrInt)");
}

StatusOr<float> GetFloat(const AttrMap& a, std::string_view name, float def) {
  auto it = a.find(name);
  if (it == a.end()) return def;
  if (auto* f = std::get_if<float>(&it->second)) return *f;
  if (auto* i = std::get_if<int64_t>(&it->second)) return static_cast<float>(*i);
  return TypeError(name, "a float (aclopSetAttrFloat)");
}

StatusOr<std::string> GetString(const AttrMap& a, std::string_view name, const std::string& def) {
  auto it = a.find(name);
  if (it == a.end()) return def;
  if (auto* s = std::get_if<std::string>(&it->second)) return *s;
  return TypeError(name, "a string (aclopSetAttrString)");
}

StatusOr<int32_t> GetDataType(const AttrMap& a, std::string_view name, int32_t def) {
  auto it = a.find(name);
  if (it == a.end()) return def;
  if (auto* t = std::get_if<DataTypeValue>(&it->second)) return t->v;
  if (auto* i = std::get_if<int64_t>(&it->second)) return static_cast<int32_t>(*i);
  return TypeError(name, "a data type (aclopSetAttrDataType)");
}

StatusOr<std::vector<int64_t>> GetInts(const AttrMap& a, std::string_view name, std::vector<int64_t> def) {
  auto it = a.find(name);
  if (it == a.end()) return def;
  if (auto* v = std::get_if<std::vector<int64_t>>(&it->second)) return *v;
  if (auto* i = std::get_if<int64_t>(&it->second)) return std::vector<int64_t>{*i};
  return TypeError(name, "a list of ints (aclopSetAttrListInt)");
}

}  // namespace npurt
