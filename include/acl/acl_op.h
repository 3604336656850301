// Single-operator execution (aclop*): run one built-in operator ("Add", "MatMul", "Conv2D", ...) on a
// stream, described by arrays of tensor descriptors and data buffers plus an attribute set.
//
// npurt compiles built-in operators on first use (see acl_op_compiler.h): no model file is needed, so
// aclopSetModelDir/aclopLoad accept a directory or buffer and only record it. Every operator runs
// asynchronously, in order, on the given stream (NULL = the current context's default stream); data
// buffers must be device memory large enough for their descriptors. docs/operators.md lists the
// operators, their inputs, attributes and data types.
#ifndef NPURT_ACL_ACL_OP_H
#define NPURT_ACL_ACL_OP_H

#include "acl_base_rt.h"
#include "acl_base_mdl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclopHandle aclopHandle;          // a compiled operator bound to fixed descriptors
typedef struct aclopAttr aclopAttr;              // named attributes of an operator
typedef struct aclopKernelDesc aclopKernelDesc;  // kernel choice made by a custom compile function

typedef void (*aclDataDeallocator)(void* data, size_t length);

typedef enum aclEngineType {
    ACL_ENGINE_SYS = 0,
    ACL_ENGINE_AICORE = 1,
    ACL_ENGINE_VECTOR = 2,
} aclopEngineType;

typedef aclError (*aclopCompileFunc)(int numInputs, const aclTensorDesc* const inputDesc[], int numOutputs,
                                     const aclTensorDesc* const outputDesc[], const aclopAttr* opAttr,
                                     aclopKernelDesc* aclopKernelDesc);

/* ==== [op] Single operators ==== */

// Records the directory of offline single-op models. Built-in operators need none.
ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char* modelDir);
// Accepts an offline single-op model buffer (recorded; built-in operators need none).
ACL_FUNC_VISIBILITY aclError aclopLoad(const void* model, size_t modelSize);

ACL_FUNC_VISIBILITY aclopAttr* aclopCreateAttr(void);
ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr* attr);
// Setters replace an attribute of the same name (whatever its previous type).
ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr* attr, const char* attrName, uint8_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr* attr, const char* attrName, int64_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr* attr, const char* attrName, float attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr* attr, const char* attrName, const char* attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr* attr, const char* attrName, aclDataType attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListDataType(aclopAttr* attr, const char* attrName, int numValues,
                                                      const aclDataType values[]);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(aclopAttr* attr, const char* attrName, int numValues,
                                                  const uint8_t* values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr* attr, const char* attrName, int numValues,
                                                 const int64_t* values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr* attr, const char* attrName, int numValues,
                                                   const float* values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListString(aclopAttr* attr, const char* attrName, int numValues,
                                                    const char** values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListListInt(aclopAttr* attr, const char* attrName, int numLists,
                                                     const int* numValues, const int64_t* const values[]);

// Runs an operator (compiled on first use, then found in the compile cache).
ACL_DEPRECATED_MESSAGE("aclopExecute is deprecated, use aclopExecuteV2 instead")
ACL_FUNC_VISIBILITY aclError aclopExecute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                                          const aclDataBuffer* const inputs[], int numOutputs,
                                          const aclTensorDesc* const outputDesc[], aclDataBuffer* const outputs[],
                                          const aclopAttr* attr, aclrtStream stream);
// As aclopExecute; output descriptors whose shape has dynamic (-1) dims receive the inferred shape.
ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                                            aclDataBuffer* inputs[], int numOutputs, aclTensorDesc* outputDesc[],
                                            aclDataBuffer* outputs[], aclopAttr* attr, aclrtStream stream);

// Compiles once and binds the result to a handle: aclopExecWithHandle then skips the cache lookup.
ACL_FUNC_VISIBILITY aclError aclopCreateHandle(const char* opType, int numInputs,
                                               const aclTensorDesc* const inputDesc[], int numOutputs,
                                               const aclTensorDesc* const outputDesc[], const aclopAttr* opAttr,
                                               aclopHandle** handle);
ACL_FUNC_VISIBILITY void aclopDestroyHandle(aclopHandle* handle);
ACL_FUNC_VISIBILITY aclError aclopExecWithHandle(aclopHandle* handle, int numInputs,
                                                 const aclDataBuffer* const inputs[], int numOutputs,
                                                 aclDataBuffer* const outputs[], aclrtStream stream);

// Converts srcBuffer (srcDesc) to dstDesc's data type (same shape). `truncate` is accepted for
// compatibility; float-to-integer conversions round toward zero, others round to nearest even.
ACL_FUNC_VISIBILITY aclError aclopCast(const aclTensorDesc* srcDesc, const aclDataBuffer* srcBuffer,
                                       const aclTensorDesc* dstDesc, aclDataBuffer* dstBuffer, uint8_t truncate,
                                       aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclopCreateHandleForCast(aclTensorDesc* srcDesc, aclTensorDesc* dstDesc,
                                                      uint8_t truncate, aclopHandle** handle);

// Custom kernels: not supported by npurt yet (they need the AI-core kernel engine); these return
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT with a message.
ACL_FUNC_VISIBILITY aclError aclopCreateKernel(const char* opType, const char* kernelId, const char* kernelName,
                                               void* binData, int binSize, aclopEngineType enginetype,
                                               aclDataDeallocator deallocator);
ACL_FUNC_VISIBILITY aclError aclopRegisterCompileFunc(const char* opType, aclopCompileFunc func);
ACL_FUNC_VISIBILITY aclError aclopUnregisterCompileFunc(const char* opType);
ACL_FUNC_VISIBILITY aclError aclopSetKernelArgs(aclopKernelDesc* kernelDesc, const char* kernelId,
                                                uint32_t blockDim, const void* args, uint32_t argSize);
ACL_FUNC_VISIBILITY aclError aclopSetKernelWorkspaceSizes(aclopKernelDesc* kernelDesc, int numWorkspaces,
                                                          size_t* workspaceSizes);

// Re-validates (and recompiles if needed) an operator for new descriptors, as a later execute would.
ACL_FUNC_VISIBILITY aclError aclopUpdateParams(const char* opType, int numInputs,
                                               const aclTensorDesc* const inputDesc[], int numOutputs,
                                               const aclTensorDesc* const outputDesc[], const aclopAttr* attr);
// Bounds the number of operators queued but not yet run (accepted; the stream rings bound it already).
ACL_FUNC_VISIBILITY aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum);
// Computes the output shapes of an operator into outputDesc (inputs may be NULL).
ACL_FUNC_VISIBILITY aclError aclopInferShape(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                                             aclDataBuffer* inputs[], int numOutputs, aclTensorDesc* outputDesc[],
                                             aclopAttr* attr);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACL_ACL_OP_H
