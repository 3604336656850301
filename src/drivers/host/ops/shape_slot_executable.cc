#include "drivers/host/ops/shape_slot_executable.h"

#include <algorithm>
#include <limits>
#include <mutex>

#include "acl/error_codes/rt_error_codes.h"
#include "base/dtype.h"

namespace npurt::drivers::host {
namespace {

constexpr size_t kKernelsKept = 16;

// Whether `dims` (read from a slot) describe at most `bound`'s bytes, without overflowing on forged values.
bool FitsBound(const std::vector<int64_t>& dims, const TensorSpec& bound) {
  uint64_t n = 1;
  for (int64_t v : dims) {
    if (v < 0) return false;
    if (v != 0 && n > std::numeric_limits<uint64_t>::max() / 16 / static_cast<uint64_t>(v)) return false;
    n *= static_cast<uint64_t>(v);
  }
  return n * DTypeSize(bound.dtype) <= bound.bytes();
}

class ShapeSlotExecutable final : public hal::Executable {
 public:
  ShapeSlotExecutable(const hal::OpRequest& r, std::vector<TensorSpec> outputs,
                      std::shared_ptr<const hal::Executable> bound, KernelAtFn kernel_at)
      : type_(r.type), attrs_(*r.attrs), in_(*r.inputs), out_(std::move(outputs)), bound_(std::move(bound)),
        kernel_at_(kernel_at) {
    if (r.constants != nullptr) constants_ = *r.constants;
  }

  int32_t Run(hal::Dispatch& d, std::string* message) const override {
    if (d.shapes == nullptr || d.num_inputs != in_.size() || d.num_outputs != out_.size()) {
      *message = fmt::format("{}: built for shape slots with {} inputs and {} outputs, dispatched with {} and {}{}",
                             type_, in_.size(), out_.size(), d.num_inputs, d.num_outputs,
                             d.shapes == nullptr ? " and no shape slots" : "");
      return ACL_ERROR_RT_PARAM_INVALID;
    }
    std::vector<std::vector<int64_t>> dims(in_.size());
    for (size_t i = 0; i < in_.size(); ++i) {
      const TensorSpec& bound = in_[i];
      if (bound.dtype == ACL_DT_UNDEFINED) continue;  // an optional input left out
      const int64_t* slot = d.shapes[i];
      if (slot == nullptr) {
        *message = fmt::format("{}: input {} has no shape slot", type_, i);
        return ACL_ERROR_RT_PARAM_INVALID;
      }
      dims[i].assign(slot, slot + bound.rank());
      if (!FitsBound(dims[i], bound)) {
        *message = fmt::format("{}: input {}'s shape slot says {}, which does not fit the {} its buffer was planned "
                               "for", type_, i, DimsString(dims[i]), Describe(bound));
        return ACL_ERROR_RT_PARAM_INVALID;
      }
    }
    auto tiled = TiledFor(std::move(dims));
    if (!tiled.ok()) {
      *message = tiled.status().message();
      return tiled.status().code();
    }
    const Tiled& t = *tiled.value();
    for (size_t k = 0; k < out_.size(); ++k) {
      int64_t* slot = d.shapes[in_.size() + k];
      if (slot == nullptr) {
        *message = fmt::format("{}: output {} has no shape slot", type_, k);
        return ACL_ERROR_RT_PARAM_INVALID;
      }
      std::copy(t.outputs[k].dims.begin(), t.outputs[k].dims.end(), slot);
    }
    // The kernel runs with the same buffers and slots (NonZero writes its count after the dims above).
    hal::Dispatch inner = d;
    inner.executable = t.executable.get();
    const int32_t rc = t.executable->Run(inner, message);
    d.overflowed = inner.overflowed;
    return rc;
  }

 private:
  struct Tiled {
    std::vector<std::vector<int64_t>> dims;  // the inputs' (the key)
    std::shared_ptr<const hal::Executable> executable;
    std::vector<TensorSpec> outputs;
  };

  // The kernel for these input dims: kept, the bound kernel, or built now (the bound kernel re-tiled where the
  // backend can).
  StatusOr<std::shared_ptr<const Tiled>> TiledFor(std::vector<std::vector<int64_t>> dims) const {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t k = 0; k < kept_.size(); ++k) {
      if (kept_[k]->dims != dims) continue;
      std::rotate(kept_.begin() + static_cast<ptrdiff_t>(k), kept_.begin() + static_cast<ptrdiff_t>(k) + 1,
                  kept_.end());
      return kept_.back();
    }
    auto t = std::make_shared<Tiled>();
    bool at_bound = true;
    std::vector<TensorSpec> specs = in_;
    for (size_t i = 0; i < specs.size(); ++i) {
      if (specs[i].dtype == ACL_DT_UNDEFINED) continue;
      at_bound = at_bound && specs[i].dims == dims[i];
      specs[i].dims = dims[i];
    }
    if (at_bound) {
      t->executable = bound_;
      t->outputs = out_;
    } else {
      std::vector<TensorSpec> requested;
      for (const TensorSpec& o : out_) requested.push_back(TensorSpec{o.dtype, o.format, {}});
      hal::OpRequest r;
      r.type = type_;
      r.inputs = &specs;
      r.requested = &requested;
      r.attrs = &attrs_;
      r.constants = constants_.empty() ? nullptr : &constants_;
      r.reuse = bound_.get();
      r.shape_slots = true;
      auto built = kernel_at_(r);
      if (!built.ok()) {
        return Err(built.status().code(), "{} at the shapes this run's slots hold: {}", type_,
                   built.status().message());
      }
      for (size_t k = 0; k < out_.size(); ++k) {
        const TensorSpec* o = k < built->outputs.size() ? &built->outputs[k] : nullptr;
        if (o == nullptr || o->rank() != out_[k].rank() || o->dtype != out_[k].dtype || !FitsBound(o->dims, out_[k])) {
          return Err(ACL_ERROR_RT_PARAM_INVALID, "{}: at the shapes this run's slots hold, output {} is {}, which does "
                     "not fit the {} its buffer was planned for", type_, k,
                     o == nullptr ? std::string("missing") : Describe(*o), Describe(out_[k]));
        }
      }
      t->executable = std::move(built->executable);
      t->outputs = std::move(built->outputs);
    }
    t->dims = std::move(dims);
    if (kept_.size() == kKernelsKept) kept_.erase(kept_.begin());
    kept_.push_back(std::move(t));
    return kept_.back();
  }

  std::string type_;
  AttrMap attrs_;
  std::vector<TensorSpec> in_, out_;  // the bounds
  std::vector<const void*> constants_;
  std::shared_ptr<const hal::Executable> bound_;
  KernelAtFn kernel_at_;
  mutable std::mutex mu_;
  mutable std::vector<std::shared_ptr<const Tiled>> kept_;  // least recently used first
};

}  // namespace

StatusOr<hal::OpBuilt> BuildShapeSlotted(const hal::OpRequest& request, KernelAtFn kernel_at) {
  auto bound = kernel_at(request);
  if (!bound.ok() || bound->executable == nullptr) return bound;
  hal::OpBuilt out;
  out.outputs = bound->outputs;
  std::shared_ptr<const hal::Executable> shared = std::move(bound->executable);
  out.executable = std::make_unique<ShapeSlotExecutable>(request, out.outputs, std::move(shared), kernel_at);
  return out;
}

}  // namespace npurt::drivers::host
