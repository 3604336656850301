#include "drivers/host/ops/kernels/post_ops.h"

#include <limits>
#include <string>
#include <variant>

#include "acl/acl_base_rt.h"

namespace npurt::drivers::host {
namespace {

struct Named {
  const char* name;
  dnnl::algorithm alg;
  float alpha;
};

// The eltwise post-ops by name, with their fixed oneDNN parameters (swish's alpha is its sigmoid's slope).
constexpr Named kEltwise[] = {
    {"relu", dnnl::algorithm::eltwise_relu, 0.0f},
    {"sigmoid", dnnl::algorithm::eltwise_logistic, 0.0f},
    {"swish", dnnl::algorithm::eltwise_swish, 1.0f},
    {"gelu_erf", dnnl::algorithm::eltwise_gelu_erf, 0.0f},
    {"gelu_tanh", dnnl::algorithm::eltwise_gelu_tanh, 0.0f},
    {"tanh", dnnl::algorithm::eltwise_tanh, 0.0f},
};

constexpr const char* kNames = "relu, clip, sigmoid, swish, gelu_erf, gelu_tanh, tanh, add";

}  // namespace

StatusOr<PostOpChain> ReadPostOps(const OpBuild& b) {
  PostOpChain chain;
  auto it = b.attrs->find("post_ops");
  if (it == b.attrs->end()) return chain;
  const auto* names = std::get_if<std::vector<std::string>>(&it->second);
  if (names == nullptr) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: attribute post_ops must be a list of strings (aclopSetAttrListString)",
               b.type);
  }
  for (const std::string& name : *names) {
    PostOp op;
    bool known = false;
    for (const Named& e : kEltwise) {
      if (name == e.name) {
        op.alg = e.alg;
        op.alpha = e.alpha;
        known = true;
      }
    }
    if (name == "clip") {
      auto lo = GetFloat(*b.attrs, "clip_min", -std::numeric_limits<float>::infinity());
      if (!lo.ok()) return lo.status();
      auto hi = GetFloat(*b.attrs, "clip_max", std::numeric_limits<float>::infinity());
      if (!hi.ok()) return hi.status();
      if (!(lo.value() <= hi.value())) {
        return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: post-op clip: clip_min {} is not below clip_max {}", b.type,
                   lo.value(), hi.value());
      }
      op.alg = dnnl::algorithm::eltwise_clip;
      op.alpha = lo.value();
      op.beta = hi.value();
      known = true;
    } else if (name == "add") {
      if (chain.has_add()) return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: post-op add may appear once in post_ops", b.type);
      op.add = true;
      chain.add_index = static_cast<int>(chain.ops.size());
      known = true;
    }
    if (!known) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: unknown post-op '{}' in post_ops; supported: {}", b.type, name,
                 kNames);
    }
    chain.ops.push_back(op);
  }
  return chain;
}

StatusOr<TrailingInputs> LocateTrailingInputs(const OpBuild& b, size_t fixed, bool bias_allowed,
                                              const PostOpChain& chain) {
  const size_t n = b.inputs.size();
  const size_t most = fixed + (bias_allowed ? 1 : 0) + (chain.has_add() ? 1 : 0);
  if (n < fixed + (chain.has_add() ? 1 : 0) || n > most) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: {} input(s) given; the operator takes {}{}{}", b.type, n, fixed,
               bias_allowed ? ", an optional bias" : "",
               chain.has_add() ? " and the addend of post-op add (the last input)" : " (post_ops has no add)");
  }
  TrailingInputs at;
  size_t rest = n - fixed;
  if (chain.has_add()) {
    at.addend = static_cast<int>(n - 1);
    --rest;
    if (b.inputs[n - 1].dtype == ACL_DT_UNDEFINED) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: the addend of post-op add (input {}) is absent", b.type, n - 1);
    }
  }
  if (rest == 1 && b.inputs[fixed].dtype != ACL_DT_UNDEFINED) at.bias = static_cast<int>(fixed);
  return at;
}

Status CheckAddend(const OpBuild& b, int input, const TensorSpec& output) {
  const TensorSpec& s = b.inputs[static_cast<size_t>(input)];
  if (s.dtype != output.dtype || s.dims != output.dims) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: the addend of post-op add (input {}) is {}; it must be {}{} like y",
               b.type, input, DTypeName(s.dtype) + DimsString(s.dims), DTypeName(output.dtype),
               DimsString(output.dims));
  }
  return Status::Ok();
}

void AppendPostOps(const PostOpChain& chain, const dnnl::memory::desc& addend, dnnl::post_ops& po, bool add_as_sum) {
  for (const PostOp& op : chain.ops) {
    if (op.add && add_as_sum) {
      po.append_sum(1.0f);
    } else if (op.add) {
      po.append_binary(dnnl::algorithm::binary_add, addend);
    } else {
      po.append_eltwise(1.0f, op.alg, op.alpha, op.beta);
    }
  }
}

}  // namespace npurt::drivers::host
