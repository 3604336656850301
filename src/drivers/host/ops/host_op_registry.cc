// The table of built-in operators, filled once from each kernel family, and shared build helpers.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>

#include "acl/acl_base_rt.h"
#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host {
namespace {

class Registry final : public OpTable {
 public:
  Registry() {
    RegisterElementwiseOps(*this);
    RegisterNnOps(*this);
    RegisterMatmulOps(*this);
    RegisterDataOps(*this);
    RegisterDataDependentOps(*this);
  }
  void Add(const OpSchema& schema) override {
    owned_.push_back(std::make_unique<OpSchema>(schema));
    by_name_[schema.name] = owned_.back().get();
  }
  void Alias(const char* alias, const char* name) override { by_name_[alias] = by_name_.at(name); }
  const OpSchema* Find(std::string_view type) const {
    auto it = by_name_.find(type);
    return it == by_name_.end() ? nullptr : it->second;
  }
  std::vector<const OpSchema*> All() const {
    std::vector<const OpSchema*> v;
    for (const auto& s : owned_) v.push_back(s.get());
    return v;
  }
  std::vector<std::string> TypeNames() const {
    std::vector<std::string> v;
    for (const auto& [name, schema] : by_name_) v.push_back(name);
    return v;
  }
  std::string Names() const {
    std::string s;
    for (const auto& [name, schema] : by_name_) {
      if (!s.empty()) s += ", ";
      s += name;
    }
    return s;
  }

 private:
  std::vector<std::unique_ptr<OpSchema>> owned_;
  std::map<std::string, const OpSchema*, std::less<>> by_name_;
};

const Registry& Get() {
  static const Registry* r = new Registry();
  return *r;
}

}  // namespace

const OpSchema* FindOp(std::string_view type) { return Get().Find(type); }
std::vector<const OpSchema*> AllOps() { return Get().All(); }
std::string SupportedOpList() { return Get().Names(); }
std::vector<std::string> OpTypeNames() { return Get().TypeNames(); }

Status ExpectDTypes(const OpBuild& b, size_t input, std::initializer_list<int32_t> allowed) {
  const int32_t dt = b.inputs[input].dtype;
  if (std::find(allowed.begin(), allowed.end(), dt) != allowed.end()) return Status::Ok();
  std::string names;
  for (int32_t a : allowed) {
    if (!names.empty()) names += ", ";
    names += DTypeName(a);
  }
  return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: input {} has data type {}; supported: {}", b.type, input,
             DTypeName(dt), names);
}

Status SameDType(const OpBuild& b, size_t a, size_t c) {
  if (b.inputs[a].dtype == b.inputs[c].dtype) return Status::Ok();
  return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: inputs {} and {} must have the same data type ({} vs {})", b.type,
             a, c, DTypeName(b.inputs[a].dtype), DTypeName(b.inputs[c].dtype));
}

StatusOr<int64_t> NormAxis(const OpBuild& b, int64_t axis, size_t rank) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= std::max<int64_t>(r, 1)) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: axis {} is out of range for rank {}", b.type, axis, rank);
  }
  return axis < 0 ? axis + r : axis;
}

StatusOr<std::vector<int64_t>> BroadcastShapes(const OpBuild& b, const std::vector<int64_t>& x,
                                               const std::vector<int64_t>& y) {
  const size_t rank = std::max(x.size(), y.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t dx = i < rank - x.size() ? 1 : x[i - (rank - x.size())];
    const int64_t dy = i < rank - y.size() ? 1 : y[i - (rank - y.size())];
    if (dx != dy && dx != 1 && dy != 1) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: shapes {} and {} cannot be broadcast together", b.type,
                 DimsString(x), DimsString(y));
    }
    out[i] = dx == 1 ? dy : dx;
  }
  return out;
}

int32_t RequestedDType(const OpBuild& b, size_t output, int32_t fallback) {
  if (output < b.requested.size() && b.requested[output].dtype != ACL_DT_UNDEFINED) return b.requested[output].dtype;
  return fallback;
}

int32_t RequestedFormat(const OpBuild& b, size_t output, int32_t fallback) {
  if (output < b.requested.size() && b.requested[output].format != ACL_FORMAT_UNDEFINED) {
    return b.requested[output].format;
  }
  return fallback;
}

void* Scratch(size_t bytes, int slot) {
  struct Buf {
    void* p = nullptr;
    size_t size = 0;
    ~Buf() { std::free(p); }
  };
  thread_local Buf bufs[4];
  Buf& b = bufs[slot & 3];
  if (b.size < bytes) {
    std::free(b.p);
    const size_t want = std::max<size_t>(bytes, 4096);
    b.p = std::aligned_alloc(64, (want + 63) / 64 * 64);
    b.size = b.p != nullptr ? want : 0;
  }
  return b.p;
}

}  // namespace npurt::drivers::host
