// Entry points: single-operator execution (acl_op.h).
#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "api/api_common.h"
#include "api/op_common.h"
#include "api/op_models.h"
#include "dfx/log.h"
#include "ops/compile_cache.h"
#include "ops/tensor_desc.h"

using npurt::Err;
using npurt::api::OpHandle;

namespace {

aclError NoCustomKernels(const char* fn) {
  return npurt::api::Report(fn, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                    "{}: custom operator kernels are not supported by npurt yet (they need the AI-core "
                                    "kernel engine); use the built-in operators listed in docs/operators.md", fn));
}

}  // namespace

aclError aclopSetModelDir(const char* modelDir) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(modelDir);
  size_t loaded = 0;
  NPURT_API_CHECK(npurt::api::LoadOpModelDir(modelDir, &loaded));
  NPURT_LOG_INFO("OP", "aclopSetModelDir: {} single-operator model(s) loaded from '{}'", loaded, modelDir);
  return ACL_SUCCESS;
}

aclError aclopLoad(const void* model, size_t modelSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(model);
  if (modelSize == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "modelSize is 0"));
  NPURT_API_CHECK(npurt::api::LoadOpModel(model, modelSize, "in memory"));
  return ACL_SUCCESS;
}

aclError aclopExecute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      const aclDataBuffer* const inputs[], int numOutputs, const aclTensorDesc* const outputDesc[],
                      aclDataBuffer* const outputs[], const aclopAttr* attr, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::api::ExecuteOp(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                                        stream, /*update_outputs=*/false));
  return ACL_SUCCESS;
}

aclError aclopExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[], aclDataBuffer* inputs[],
                        int numOutputs, aclTensorDesc* outputDesc[], aclDataBuffer* outputs[], aclopAttr* attr,
                        aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::api::ExecuteOp(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                                        stream, /*update_outputs=*/true));
  return ACL_SUCCESS;
}

aclError aclopCreateHandle(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[], int numOutputs,
                           const aclTensorDesc* const outputDesc[], const aclopAttr* opAttr, aclopHandle** handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(handle);
  npurt::api::UnwrappedCall u;
  NPURT_API_CHECK(npurt::api::Unwrap(opType, numInputs, inputDesc, numOutputs, outputDesc, opAttr, &u));
  NPURT_API_ASSIGN(op, npurt::ops::CompileCache::Get().GetOrCompile(u.call));
  NPURT_API_ASSIGN(h, npurt::api::NewOpHandle(op));
  *handle = h;
  return ACL_SUCCESS;
}

void aclopDestroyHandle(aclopHandle* handle) {
  NPURT_HANDLE_SCOPE();
  OpHandle* h = OpHandle::From(handle);
  if (h == nullptr) {
    if (handle != nullptr) {
      (void)npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live operator handle",
                                             static_cast<const void*>(handle)));
    }
    return;
  }
  if (h->Invalidate()) h->Release();
}

aclError aclopExecWithHandle(aclopHandle* handle, int numInputs, const aclDataBuffer* const inputs[], int numOutputs,
                             aclDataBuffer* const outputs[], aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  OpHandle* h = OpHandle::From(handle);
  if (h == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live operator handle",
                                            static_cast<const void*>(handle)));
  }
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  std::vector<npurt::ops::UserBuffer> ins, outs;
  NPURT_API_CHECK(npurt::api::ToUserBuffers("inputs", numInputs, inputs, &ins));
  NPURT_API_CHECK(npurt::api::ToUserBuffers("outputs", numOutputs, outputs, &outs));
  npurt::ops::BoundBuffers bound;
  NPURT_API_CHECK(npurt::ops::BindBuffers(*h->op, ins, outs, s, &bound));
  NPURT_API_CHECK(npurt::ops::Launch(h->op, std::move(bound), s));
  return ACL_SUCCESS;
}

aclError aclopCast(const aclTensorDesc* srcDesc, const aclDataBuffer* srcBuffer, const aclTensorDesc* dstDesc,
                   aclDataBuffer* dstBuffer, uint8_t truncate, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  (void)truncate;  // float -> integer always truncates toward zero; other conversions round to nearest
  const aclTensorDesc* in[] = {srcDesc};
  const aclTensorDesc* out[] = {dstDesc};
  const aclDataBuffer* ib[] = {srcBuffer};
  aclDataBuffer* ob[] = {dstBuffer};
  NPURT_API_CHECK(npurt::api::ExecuteOp("Cast", 1, in, ib, 1, out, ob, nullptr, stream, false));
  return ACL_SUCCESS;
}

aclError aclopCreateHandleForCast(aclTensorDesc* srcDesc, aclTensorDesc* dstDesc, uint8_t truncate,
                                  aclopHandle** handle) {
  NPURT_HANDLE_SCOPE();
  (void)truncate;
  const aclTensorDesc* in[] = {srcDesc};
  const aclTensorDesc* out[] = {dstDesc};
  return aclopCreateHandle("Cast", 1, in, 1, out, nullptr, handle);
}

aclError aclopCreateKernel(const char* opType, const char* kernelId, const char* kernelName, void* binData, int binSize,
                           aclopEngineType enginetype, aclDataDeallocator deallocator) {
  NPURT_HANDLE_SCOPE();
  (void)opType, (void)kernelId, (void)kernelName, (void)binData, (void)binSize, (void)enginetype, (void)deallocator;
  return NoCustomKernels(__func__);
}

aclError aclopRegisterCompileFunc(const char* opType, aclopCompileFunc func) {
  NPURT_HANDLE_SCOPE();
  (void)opType, (void)func;
  return NoCustomKernels(__func__);
}

aclError aclopUnregisterCompileFunc(const char* opType) {
  NPURT_HANDLE_SCOPE();
  (void)opType;
  return NoCustomKernels(__func__);
}

aclError aclopSetKernelArgs(aclopKernelDesc* kernelDesc, const char* kernelId, uint32_t blockDim, const void* args,
                            uint32_t argSize) {
  NPURT_HANDLE_SCOPE();
  (void)kernelDesc, (void)kernelId, (void)blockDim, (void)args, (void)argSize;
  return NoCustomKernels(__func__);
}

aclError aclopSetKernelWorkspaceSizes(aclopKernelDesc* kernelDesc, int numWorkspaces, size_t* workspaceSizes) {
  NPURT_HANDLE_SCOPE();
  (void)kernelDesc, (void)numWorkspaces, (void)workspaceSizes;
  return NoCustomKernels(__func__);
}

aclError aclopUpdateParams(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[], int numOutputs,
                           const aclTensorDesc* const outputDesc[], const aclopAttr* attr) {
  NPURT_HANDLE_SCOPE();
  npurt::api::UnwrappedCall u;
  NPURT_API_CHECK(npurt::api::Unwrap(opType, numInputs, inputDesc, numOutputs, outputDesc, attr, &u));
  NPURT_API_ASSIGN(op, npurt::ops::CompileCache::Get().GetOrCompile(u.call));
  (void)op;
  return ACL_SUCCESS;
}

aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum) {
  NPURT_HANDLE_SCOPE();
  if (maxOpNum == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "maxOpNum is 0"));
  return ACL_SUCCESS;
}

aclError aclopInferShape(const char* opType, int numInputs, aclTensorDesc* inputDesc[], aclDataBuffer* inputs[],
                         int numOutputs, aclTensorDesc* outputDesc[], aclopAttr* attr) {
  NPURT_HANDLE_SCOPE();
  (void)inputs;  // shapes never depend on input values for npurt's operators
  npurt::api::UnwrappedCall u;
  NPURT_API_CHECK(npurt::api::Unwrap(opType, numInputs, inputDesc, numOutputs, outputDesc, attr, &u));
  NPURT_API_ASSIGN(outs, npurt::ops::InferOp(u.call));
  if (outs.size() != static_cast<size_t>(numOutputs)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "{}: {} output(s) given, the operator "
                                            "produces {}", opType, numOutputs, outs.size()));
  }
  for (int i = 0; i < numOutputs; ++i) {
    auto* d = npurt::ops::TensorDesc::From(outputDesc[i]);
    d->spec.dims = outs[i].dims;
    d->unknown_rank = false;
    if (d->spec.dtype == ACL_DT_UNDEFINED) d->spec.dtype = outs[i].dtype;
  }
  return ACL_SUCCESS;
}
