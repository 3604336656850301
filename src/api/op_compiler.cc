// Entry points: the operator compiler (acl_op_compiler.h). Compiling fills the op compile cache.
#include <array>
#include <cstring>
#include <mutex>
#include <string>

#include "acl/acl_op_compiler.h"
#include "acl/error_codes/rt_error_codes.h"
#include "api/api_common.h"
#include "api/op_common.h"
#include "dfx/log.h"
#include "ops/compile_cache.h"
#include "ops/tensor_desc.h"

using npurt::Err;

namespace {

constexpr int kNumOpts = ACL_OP_DEBUG_OPTION + 1;
std::mutex g_opts_mu;
std::array<std::string, kNumOpts> g_opts;

// The enums come through the C ABI with any int inside: read them with RawEnum (fuzz_op_compile found
// the out-of-range loads, undefined behaviour in C++).
// Called with RawEnum(engineType), RawEnum(compileFlag): even passing the enum by value loads it.
npurt::Status CheckEngine(int engine, int flag) {
  if (engine < ACL_ENGINE_SYS || engine > ACL_ENGINE_VECTOR) {
    return Err(ACL_ERROR_INVALID_PARAM, "engineType {} is not an aclopEngineType", engine);
  }
  if (flag != ACL_COMPILE_SYS && flag != ACL_COMPILE_UNREGISTERED) {
    return Err(ACL_ERROR_INVALID_PARAM, "compileFlag {} is not an aclopCompileType", flag);
  }
  if (flag == ACL_COMPILE_UNREGISTERED) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               "ACL_COMPILE_UNREGISTERED (operators from an opPath) is not supported; npurt compiles built-in operators");
  }
  return npurt::Status::Ok();
}

npurt::Status CheckOpt(int opt) {
  if (opt < 0 || opt >= kNumOpts) {
    return Err(ACL_ERROR_INVALID_PARAM, "compile option {} is not an aclCompileOpt", opt);
  }
  return npurt::Status::Ok();
}

// A dynamic-shape compile (CANN compiles one kernel for a range of shapes): npurt's kernels are compiled per
// concrete shape by the op compile cache when an execution first meets the shape, so here the operator is
// validated at a representative shape: each -1 dim at its range's lower bound (aclSetTensorShapeRange), else 1.
// Unknown-rank inputs (-2) cannot be represented: the call is then checked for what does not depend on
// shapes only (a known operator type).
npurt::Status CompileDynamic(npurt::api::UnwrappedCall* u, const aclTensorDesc* const inputDesc[],
                             const aclTensorDesc* const outputDesc[]) {
  bool unknown_rank = false;
  auto represent = [&](const aclTensorDesc* handle, npurt::TensorSpec* spec) {
    const npurt::ops::TensorDesc* d = npurt::ops::TensorDesc::From(handle);
    unknown_rank = unknown_rank || (d != nullptr && d->unknown_rank);
    for (size_t k = 0; k < spec->dims.size(); ++k) {
      if (spec->dims[k] >= 0) continue;
      const int64_t lo = d != nullptr && k < d->shape_range.size() ? d->shape_range[k][0] : 1;
      spec->dims[k] = lo >= 1 ? lo : 1;
    }
  };
  for (size_t i = 0; i < u->call.inputs.size(); ++i) represent(inputDesc[i], &u->call.inputs[i]);
  for (auto& r : u->call.requested) {
    for (int64_t& d : r.dims) d = d >= 0 ? d : -1;  // outputs: inferred from the representative inputs
  }
  (void)outputDesc;
  if (unknown_rank) {
    // Only the operator type can be checked: an unknown type fails before any shape is looked at.
    for (auto& in : u->call.inputs) in.dims = {1};
    auto probe = npurt::ops::InferOp(u->call);
    if (!probe.ok() && probe.status().code() == ACL_ERROR_OP_NOT_FOUND) return probe.status();
    NPURT_LOG_INFO("OP", "aclopCompile {} with unknown-rank inputs: each concrete shape compiles on first execution",
                   u->call.type);
    return npurt::Status::Ok();
  }
  auto op = npurt::ops::CompileCache::Get().GetOrCompile(u->call);
  if (!op.ok()) {
    return Err(op.status().code(), "{} (validated with every -1 dim at its range's lower bound, or 1)",
               op.status().message());
  }
  NPURT_LOG_INFO("OP", "aclopCompile {} with dynamic shapes: validated; each concrete shape compiles on its first "
                 "execution and stays in the op compile cache", u->call.type);
  return npurt::Status::Ok();
}

}  // namespace

aclError aclopCompile(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[], int numOutputs,
                      const aclTensorDesc* const outputDesc[], const aclopAttr* attr, aclopEngineType engineType,
                      aclopCompileType compileFlag, const char* opPath) {
  NPURT_HANDLE_SCOPE();
  (void)opPath;
  NPURT_API_CHECK(CheckEngine(npurt::RawEnum(engineType), npurt::RawEnum(compileFlag)));
  npurt::api::UnwrappedCall u;
  NPURT_API_CHECK(npurt::api::Unwrap(opType, numInputs, inputDesc, numOutputs, outputDesc, attr, &u));
  bool dynamic = false;
  for (int i = 0; i < numInputs; ++i) {
    const npurt::ops::TensorDesc* d = npurt::ops::TensorDesc::From(inputDesc[i]);
    dynamic = dynamic || u.call.inputs[static_cast<size_t>(i)].dynamic() || (d != nullptr && d->unknown_rank);
  }
  if (dynamic) {
    NPURT_API_CHECK(CompileDynamic(&u, inputDesc, outputDesc));
    return ACL_SUCCESS;
  }
  NPURT_API_ASSIGN(op, npurt::ops::CompileCache::Get().GetOrCompile(u.call));
  (void)op;
  return ACL_SUCCESS;
}

aclError aclopCompileAndExecute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                                const aclDataBuffer* const inputs[], int numOutputs,
                                const aclTensorDesc* const outputDesc[], aclDataBuffer* const outputs[],
                                const aclopAttr* attr, aclopEngineType engineType, aclopCompileType compileFlag,
                                const char* opPath, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  (void)opPath;
  NPURT_API_CHECK(CheckEngine(npurt::RawEnum(engineType), npurt::RawEnum(compileFlag)));
  NPURT_API_CHECK(npurt::api::ExecuteOp(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                                        stream, false));
  return ACL_SUCCESS;
}

aclError aclopCompileAndExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[], aclDataBuffer* inputs[],
                                  int numOutputs, aclTensorDesc* outputDesc[], aclDataBuffer* outputs[],
                                  aclopAttr* attr, aclopEngineType engineType, aclopCompileType compileFlag,
                                  const char* opPath, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  (void)opPath;
  NPURT_API_CHECK(CheckEngine(npurt::RawEnum(engineType), npurt::RawEnum(compileFlag)));
  NPURT_API_CHECK(npurt::api::ExecuteOp(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                                        stream, true));
  return ACL_SUCCESS;
}

aclError aclSetCompileopt(aclCompileOpt opt, const char* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(CheckOpt(npurt::RawEnum(opt)));
  NPURT_API_NOT_NULL(value);
  if (opt == ACL_OP_COMPILER_CACHE_MODE) {
    const std::string v = value;
    npurt::ops::CacheMode mode;
    if (v == "enable") {
      mode = npurt::ops::CacheMode::kEnable;
    } else if (v == "disable") {
      mode = npurt::ops::CacheMode::kDisable;
    } else if (v == "force") {
      mode = npurt::ops::CacheMode::kForce;
    } else {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                              "ACL_OP_COMPILER_CACHE_MODE '{}': use enable, disable or force", v));
    }
    npurt::ops::CompileCache::Get().SetMode(mode);
  }
  std::lock_guard<std::mutex> lock(g_opts_mu);
  g_opts[opt] = value;
  return ACL_SUCCESS;
}

size_t aclGetCompileoptSize(aclCompileOpt opt) {
  NPURT_HANDLE_SCOPE();
  if (!CheckOpt(npurt::RawEnum(opt)).ok()) {
    (void)npurt::api::Report(__func__, CheckOpt(npurt::RawEnum(opt)));
    return 0;
  }
  std::lock_guard<std::mutex> lock(g_opts_mu);
  return g_opts[opt].size() + 1;
}

aclError aclGetCompileopt(aclCompileOpt opt, char* value, size_t length) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(CheckOpt(npurt::RawEnum(opt)));
  NPURT_API_NOT_NULL(value);
  std::lock_guard<std::mutex> lock(g_opts_mu);
  const std::string& v = g_opts[opt];
  if (length < v.size() + 1) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "length {} is too small for the value ({} bytes "
                                            "with its NUL; see aclGetCompileoptSize)", length, v.size() + 1));
  }
  std::memcpy(value, v.c_str(), v.size() + 1);
  return ACL_SUCCESS;
}

aclError aclopSetCompileFlag(aclOpCompileFlag flag) {
  NPURT_HANDLE_SCOPE();
  if (flag != ACL_OP_COMPILE_DEFAULT && flag != ACL_OP_COMPILE_FUZZ) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flag {} is not an aclOpCompileFlag",
                                            static_cast<int>(flag)));
  }
  return ACL_SUCCESS;
}

aclError aclGenGraphAndDumpForOp(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                                 const aclDataBuffer* const inputs[], int numOutputs,
                                 const aclTensorDesc* const outputDesc[], aclDataBuffer* const outputs[],
                                 const aclopAttr* attr, aclopEngineType engineType, const char* graphDumpPath,
                                 const aclGraphDumpOption* graphDumpOpt) {
  NPURT_HANDLE_SCOPE();
  (void)opType, (void)numInputs, (void)inputDesc, (void)inputs, (void)numOutputs, (void)outputDesc, (void)outputs;
  (void)attr, (void)engineType, (void)graphDumpPath, (void)graphDumpOpt;
  return npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                          "graph dumps of single operators are not supported by npurt"));
}

aclGraphDumpOption* aclCreateGraphDumpOpt(void) {
  NPURT_HANDLE_SCOPE();
  (void)npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                         "graph dumps of single operators are not supported by npurt"));
  return nullptr;
}

aclError aclDestroyGraphDumpOpt(const aclGraphDumpOption* graphDumpOpt) {
  NPURT_HANDLE_SCOPE();
  (void)graphDumpOpt;
  return npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                          "graph dumps of single operators are not supported by npurt"));
}
