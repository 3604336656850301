// Tensor descriptions (aclTensorDesc): the data type, format and shape of one operator input or
// output, plus optional names, shape ranges, storage layout and constant data. Single operators
// (acl_op.h), the operator compiler (acl_op_compiler.h) and CBLAS take arrays of these descriptors.
//
// A descriptor is a handle: it is created by aclCreateTensorDesc and must be released with
// aclDestroyTensorDesc. Functions given a pointer that is not a live descriptor fail with
// ACL_ERROR_INVALID_PARAM (or return NULL / 0 / ACL_DT_UNDEFINED) instead of touching foreign memory.
#ifndef NPURT_ACL_ACL_BASE_MDL_H
#define NPURT_ACL_ACL_BASE_MDL_H

#include "acl_base_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclTensorDesc aclTensorDesc;  // dtype + format + shape of a tensor

#define ACL_TENSOR_SHAPE_RANGE_NUM 2  // [min, max] per dimension
#define ACL_TENSOR_VALUE_RANGE_NUM 2  // [min, max] per value
#define ACL_UNKNOWN_RANK 0xFFFFFFFFFFFFFFFE  // aclGetTensorDescNumDims of a descriptor of rank -2

/* ==== [tensor] Tensor descriptors ==== */

// Creates a descriptor. numDims 0 (dims may be NULL) is a scalar; dims may hold -1 (dynamic) and a
// single -2 (unknown rank). Returns NULL on bad input (negative numDims, NULL dims with numDims > 0).
ACL_FUNC_VISIBILITY aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims,
                                                       aclFormat format);
ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc* desc);
// Shape ranges of dynamic dimensions: dimsCount rows of [min, max].
ACL_FUNC_VISIBILITY aclError aclSetTensorShapeRange(aclTensorDesc* desc, size_t dimsCount,
                                                    int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]);
ACL_FUNC_VISIBILITY aclError aclSetTensorValueRange(aclTensorDesc* desc, size_t valueCount,
                                                    int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM]);
ACL_FUNC_VISIBILITY aclDataType aclGetTensorDescType(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc);
// Bytes of the tensor: element count x aclDataTypeSize (0 for dynamic shapes).
ACL_FUNC_VISIBILITY size_t aclGetTensorDescSize(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY size_t aclGetTensorDescElementCount(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc* desc);
ACL_DEPRECATED_MESSAGE("aclGetTensorDescDim is deprecated, use aclGetTensorDescDimV2 instead")
ACL_FUNC_VISIBILITY int64_t aclGetTensorDescDim(const aclTensorDesc* desc, size_t index);
ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize);
// Copies [min, max] of dimension `index` into dimRange (dimRangeNum must be >= 2).
ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimRange(const aclTensorDesc* desc, size_t index, size_t dimRangeNum,
                                                      int64_t* dimRange);
ACL_FUNC_VISIBILITY void aclSetTensorDescName(aclTensorDesc* desc, const char* name);
// The name ("" when unnamed; NULL for a bad descriptor). Valid until the descriptor changes.
ACL_FUNC_VISIBILITY const char* aclGetTensorDescName(aclTensorDesc* desc);
// Converts a descriptor to another format (NCHW <-> NHWC permute the dims; ND keeps them).
ACL_FUNC_VISIBILITY aclError aclTransTensorDescFormat(const aclTensorDesc* srcDesc, aclFormat dstFormat,
                                                      aclTensorDesc** dstDesc);
ACL_DEPRECATED_MESSAGE("aclSetTensorStorageFormat is deprecated, use aclSetTensorFormat instead")
ACL_FUNC_VISIBILITY aclError aclSetTensorStorageFormat(aclTensorDesc* desc, aclFormat format);
ACL_DEPRECATED_MESSAGE("aclSetTensorStorageShape is deprecated, use aclSetTensorShape instead")
ACL_FUNC_VISIBILITY aclError aclSetTensorStorageShape(aclTensorDesc* desc, int numDims, const int64_t* dims);
ACL_FUNC_VISIBILITY aclError aclSetTensorFormat(aclTensorDesc* desc, aclFormat format);
ACL_FUNC_VISIBILITY aclError aclSetTensorShape(aclTensorDesc* desc, int numDims, const int64_t* dims);
ACL_FUNC_VISIBILITY aclError aclSetTensorOriginFormat(aclTensorDesc* desc, aclFormat format);
ACL_FUNC_VISIBILITY aclError aclSetTensorOriginShape(aclTensorDesc* desc, int numDims, const int64_t* dims);
// Element `index` of an array of descriptors (pointer arithmetic over a live array; NULL on a bad one).
ACL_FUNC_VISIBILITY aclTensorDesc* aclGetTensorDescByIndex(aclTensorDesc* desc, size_t index);
// The constant data attached by aclSetTensorConst, or NULL.
ACL_FUNC_VISIBILITY void* aclGetTensorDescAddress(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY aclError aclSetTensorDynamicInput(aclTensorDesc* desc, const char* dynamicInputName);
// Marks the tensor constant with a host copy of `length` bytes (the runtime keeps its own copy).
ACL_FUNC_VISIBILITY aclError aclSetTensorConst(aclTensorDesc* desc, void* dataBuffer, size_t length);
ACL_FUNC_VISIBILITY aclError aclSetTensorPlaceMent(aclTensorDesc* desc, aclMemType memType);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACL_ACL_BASE_MDL_H
