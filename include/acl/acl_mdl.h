// The offline-model API (aclmdl*): describe, load, configure and run compiled models (.om files),
// feed them through datasets of data buffers, select gears of dynamic-shape models, set dynamic AIPP
// (image pre-processing inside the model) parameters, and work with bundles of models that share
// variable weights.
//
// Typical use: aclmdlLoadFromFile -> aclmdlCreateDesc + aclmdlGetDesc -> one aclmdlDataset of device
// buffers for the inputs and one for the outputs (sizes from aclmdlGet{Input,Output}SizeByIndex) ->
// aclmdlExecute (or aclmdlExecuteAsync on a stream) -> aclmdlUnload. Load, execution and unload of a
// model must happen in the same context, and one model id must not run on two streams at once.
//
// Every macro value, enumerator value, structure layout and signature here is ABI-compatible with
// the ACL model API. Functions returning aclError report bad arguments with ACL_ERROR_INVALID_PARAM and
// pass graph-engine codes (ACL_ERROR_GE_*, error_codes/ge_error_codes.h) through; getters returning a
// count, pointer, format or data type return 0 / NULL / ACL_FORMAT_UNDEFINED / ACL_DT_UNDEFINED on bad
// input. The model-dump switches (aclmdlInitDump, aclmdlSetDump, aclmdlFinalizeDump) are in acl_rt.h.
// The /* ==== [group] ... ==== */ lines sort the functions into the topics of docs/api-coverage.md
// (tools/gen_api.py); every exported declaration must follow one.
#ifndef NPURT_ACL_ACL_MDL_H
#define NPURT_ACL_ACL_MDL_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Limits, special names and flags                                                                */
/* ---------------------------------------------------------------------------------------------- */

#define ACL_DIM_ENDPOINTS 2          // [min, max] of one dimension in aclmdlIODimsRange
#define ACL_MAX_DIM_CNT 128          // capacity of aclmdlIODims.dims
#define ACL_MAX_TENSOR_NAME_LEN 128  // size of aclmdlIODims.name, terminating NUL included
#define ACL_MAX_BATCH_NUM 128        // capacity of aclmdlBatch.batch
#define ACL_MAX_HW_NUM 128           // capacity of aclmdlHW.hw
#define ACL_MAX_SHAPE_COUNT 128      // capacity of aclAippInfo.outDims
#define ACL_INVALID_NODE_INDEX 0xFFFFFFFF  // "no such input" (e.g. no attached dynamic-AIPP input)

// Name of the extra (last) input of a gear model that carries the selected batch / HW / dims gear.
#define ACL_DYNAMIC_TENSOR_NAME "ascend_mbatch_shape_data"
// Name of the extra input that carries the dynamic-AIPP parameter block (see aclmdlSetInputAIPP).
#define ACL_DYNAMIC_AIPP_NAME "ascend_dynamic_aipp_data"
// The one operator attribute aclmdlGetOpAttr answers: the original (pre-fusion) operator names.
#define ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES "_datadump_original_op_names"

// ACL_MODEL_STREAM_FLAG_HEAD / ACL_MODEL_STREAM_FLAG_DEFAULT (model-stream flags) come from acl_rt.h.

/* ---------------------------------------------------------------------------------------------- */
/* Handles introduced by this header (all opaque)                                                 */
/* ---------------------------------------------------------------------------------------------- */

typedef struct aclmdlDataset aclmdlDataset;                    // ordered list of data buffers (+ descriptors)
typedef struct aclmdlDesc aclmdlDesc;                          // inputs, outputs and gears of a model
typedef struct aclmdlAIPP aclmdlAIPP;                          // dynamic-AIPP parameters for N images
typedef struct aclAippExtendInfo aclAippExtendInfo;            // reserved extension of aclAippInfo
typedef struct aclmdlConfigHandle aclmdlConfigHandle;          // options of aclmdlLoadWithConfig
typedef struct aclmdlExecConfigHandle aclmdlExecConfigHandle;  // options of aclmdlExecuteV2 / AsyncV2
typedef struct aclmdlBundleQueryInfo aclmdlBundleQueryInfo;    // sizes read from a bundle file
typedef void* aclmdlModel;                                     // a model compiled in this process

/* ============================================================================================== */
/* ==== [mdl_desc] Offline models: descriptions ==== */
/* ============================================================================================== */

// Name and shape of one model input or output. Dimensions that vary at run time are -1. A name that
// does not fit is replaced by a generated one that aclmdlGetTensorRealName maps back.
typedef struct aclmdlIODims {
    char name[ACL_MAX_TENSOR_NAME_LEN];
    size_t dimCount;
    int64_t dims[ACL_MAX_DIM_CNT];
} aclmdlIODims;

// [min, max] of every dimension of a shape-range input (max -1: unbounded).
typedef struct aclmdlIODimsRange {
    size_t rangeCount;
    int64_t range[ACL_MAX_DIM_CNT][ACL_DIM_ENDPOINTS];
} aclmdlIODimsRange;

ACL_FUNC_VISIBILITY aclmdlDesc* aclmdlCreateDesc(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc* modelDesc);

// Fills a description from a loaded model.
ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc* modelDesc, uint32_t modelId);
// Fills a description from a model file or a model in host memory, without loading it.
ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromFile(aclmdlDesc* modelDesc, const char* modelPath);
ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromMem(aclmdlDesc* modelDesc, const void* model, size_t modelSize);

// Counts include the hidden gear-selector and dynamic-AIPP inputs.
ACL_FUNC_VISIBILITY size_t aclmdlGetNumInputs(aclmdlDesc* modelDesc);
ACL_FUNC_VISIBILITY size_t aclmdlGetNumOutputs(aclmdlDesc* modelDesc);
// Bytes of an input or output; gear models report their largest gear (0 for a bad index).
ACL_FUNC_VISIBILITY size_t aclmdlGetInputSizeByIndex(aclmdlDesc* modelDesc, size_t index);
ACL_FUNC_VISIBILITY size_t aclmdlGetOutputSizeByIndex(aclmdlDesc* modelDesc, size_t index);

// Shape of an input as the user supplies it (for a static-AIPP input: the source image).
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims);
// As aclmdlGetInputDims, except that for a static-AIPP input the dims are those whose element count
// times the element size equals aclmdlGetInputSizeByIndex.
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsV2(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsRange(const aclmdlDesc* modelDesc, size_t index,
                                                     aclmdlIODimsRange* dimsRange);
// Compile-time shape of an output (the largest gear for gear models).
ACL_FUNC_VISIBILITY aclError aclmdlGetOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims);
// Shape of an output for the gear last selected (as aclmdlGetOutputDims when none was).
ACL_FUNC_VISIBILITY aclError aclmdlGetCurOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims);

// String value of an operator attribute; only ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES is answered.
// The string lives as long as the description.
ACL_FUNC_VISIBILITY const char* aclmdlGetOpAttr(aclmdlDesc* modelDesc, const char* opName, const char* attr);

// Tensor names (valid as long as the description), formats and data types by index.
ACL_FUNC_VISIBILITY const char* aclmdlGetInputNameByIndex(const aclmdlDesc* modelDesc, size_t index);
ACL_FUNC_VISIBILITY const char* aclmdlGetOutputNameByIndex(const aclmdlDesc* modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclFormat aclmdlGetInputFormat(const aclmdlDesc* modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclFormat aclmdlGetOutputFormat(const aclmdlDesc* modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclDataType aclmdlGetInputDataType(const aclmdlDesc* modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclDataType aclmdlGetOutputDataType(const aclmdlDesc* modelDesc, size_t index);
// Index of the tensor with exactly this name; ACL_ERROR_INVALID_PARAM when there is none.
ACL_FUNC_VISIBILITY aclError aclmdlGetInputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index);
ACL_FUNC_VISIBILITY aclError aclmdlGetOutputIndexByName(const aclmdlDesc* modelDesc, const char* name,
                                                        size_t* index);
// The real tensor name behind a name reported in aclmdlIODims.name, or NULL.
ACL_FUNC_VISIBILITY const char* aclmdlGetTensorRealName(const aclmdlDesc* modelDesc, const char* name);

/* ============================================================================================== */
/* ==== [mdl_dataset] Offline models: datasets ==== */
/* ============================================================================================== */

// A dataset lists the buffers of a model's inputs or outputs in index order. Destroying it frees
// neither the data buffers nor their memory.
ACL_FUNC_VISIBILITY aclmdlDataset* aclmdlCreateDataset(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDataset(const aclmdlDataset* dataset);
ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset* dataset, aclDataBuffer* dataBuffer);
// Attaches a copy of a tensor descriptor to buffer `index` (the actual shape of a shape-range input).
ACL_FUNC_VISIBILITY aclError aclmdlSetDatasetTensorDesc(aclmdlDataset* dataset, aclTensorDesc* tensorDesc,
                                                        size_t index);
// The descriptor of buffer `index`; after a dynamic-shape model ran, outputs carry their real shapes.
ACL_FUNC_VISIBILITY aclTensorDesc* aclmdlGetDatasetTensorDesc(const aclmdlDataset* dataset, size_t index);
ACL_FUNC_VISIBILITY size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset* dataset);
ACL_FUNC_VISIBILITY aclDataBuffer* aclmdlGetDatasetBuffer(const aclmdlDataset* dataset, size_t index);

/* ============================================================================================== */
/* ==== [mdl_load] Offline models: loading, unloading and size queries ==== */
/* ============================================================================================== */

// Partition sizes of an executable model file (aclmdlQueryExeOMDesc).
typedef struct aclmdlExeOMDesc {
    size_t workSize;
    size_t weightSize;
    size_t modelDescSize;
    size_t kernelSize;
    size_t kernelArgsSize;
    size_t staticTaskSize;
    size_t dynamicTaskSize;
    size_t fifoTaskSize;
    size_t reserved[8];
} aclmdlExeOMDesc;

// Loads a model; the runtime allocates its work and weight memory. Returns a process-unique id.
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char* modelPath, uint32_t* modelId);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void* model, size_t modelSize, uint32_t* modelId);
// Loads into caller-owned device memory (sizes from aclmdlQuerySize); a NULL pointer leaves that part
// to the runtime. The memory must outlive the model.
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(const char* modelPath, uint32_t* modelId, void* workPtr,
                                                       size_t workSize, void* weightPtr, size_t weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithMem(const void* model, size_t modelSize, uint32_t* modelId,
                                                      void* workPtr, size_t workSize, void* weightPtr,
                                                      size_t weightSize);
// Loads a model whose inputs and outputs are bound to queues (acl_tdt_queue.h).
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithQ(const char* modelPath, uint32_t* modelId, const uint32_t* inputQ,
                                                     size_t inputQNum, const uint32_t* outputQ, size_t outputQNum);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithQ(const void* model, size_t modelSize, uint32_t* modelId,
                                                    const uint32_t* inputQ, size_t inputQNum,
                                                    const uint32_t* outputQ, size_t outputQNum);
// Loads a model compiled in this process.
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromModel(const aclmdlModel* model, const aclmdlConfigHandle* handle,
                                                 uint32_t* modelId);
// Releases everything the load allocated (bundle members: aclmdlBundleUnloadModel).
ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId);

// Work and weight memory a model needs, read from the file or buffer without loading it.
ACL_FUNC_VISIBILITY aclError aclmdlQuerySize(const char* fileName, size_t* workSize, size_t* weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlQuerySizeFromMem(const void* model, size_t modelSize, size_t* workSize,
                                                    size_t* weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlQueryExeOMDesc(const char* fileName, aclmdlExeOMDesc* mdlPartitionSize);

/* ============================================================================================== */
/* ==== [mdl_config] Offline models: load configuration ==== */
/* ============================================================================================== */

// Values of ACL_MDL_LOAD_TYPE_SIZET: where aclmdlLoadWithConfig takes the model from.
#define ACL_MDL_LOAD_FROM_FILE 1
#define ACL_MDL_LOAD_FROM_FILE_WITH_MEM 2
#define ACL_MDL_LOAD_FROM_MEM 3
#define ACL_MDL_LOAD_FROM_MEM_WITH_MEM 4
#define ACL_MDL_LOAD_FROM_FILE_WITH_Q 5
#define ACL_MDL_LOAD_FROM_MEM_WITH_Q 6

// Values of ACL_MDL_WORKSPACE_MEM_OPTIMIZE.
#define ACL_WORKSPACE_MEM_OPTIMIZE_DEFAULT 0
#define ACL_WORKSPACE_MEM_OPTIMIZE_INPUTOUTPUT 1

// Options of a load configuration. The suffix gives the value's type (_INT32: int32_t, _SIZET:
// size_t, _PTR: a pointer, passed by its address); aclmdlSetConfigOpt's valueSize must equal its size.
// Path attributes are copied; memory attributes only remember the address.
typedef enum {
    ACL_MDL_PRIORITY_INT32 = 0,
    ACL_MDL_LOAD_TYPE_SIZET,
    ACL_MDL_PATH_PTR,
    ACL_MDL_MEM_ADDR_PTR,
    ACL_MDL_MEM_SIZET,
    ACL_MDL_WEIGHT_ADDR_PTR,
    ACL_MDL_WEIGHT_SIZET,
    ACL_MDL_WORKSPACE_ADDR_PTR,
    ACL_MDL_WORKSPACE_SIZET,
    ACL_MDL_INPUTQ_NUM_SIZET,
    ACL_MDL_INPUTQ_ADDR_PTR,
    ACL_MDL_OUTPUTQ_NUM_SIZET,
    ACL_MDL_OUTPUTQ_ADDR_PTR,
    ACL_MDL_WORKSPACE_MEM_OPTIMIZE,
    ACL_MDL_WEIGHT_PATH_PTR,
    ACL_MDL_MODEL_DESC_PTR,
    ACL_MDL_MODEL_DESC_SIZET,
    ACL_MDL_KERNEL_PTR,
    ACL_MDL_KERNEL_SIZET,
    ACL_MDL_KERNEL_ARGS_PTR,
    ACL_MDL_KERNEL_ARGS_SIZET,
    ACL_MDL_STATIC_TASK_PTR,
    ACL_MDL_STATIC_TASK_SIZET,
    ACL_MDL_DYNAMIC_TASK_PTR,
    ACL_MDL_DYNAMIC_TASK_SIZET,
    ACL_MDL_MEM_MALLOC_POLICY_SIZET,
    ACL_MDL_FIFO_PTR,
    ACL_MDL_FIFO_SIZET,
    ACL_MDL_WITHOUT_GRAPH_INT32,
    ACL_NPU_PERF_MODE,
    ACL_MDL_RESERVED = 0xFFFF
} aclmdlConfigAttr;

ACL_FUNC_VISIBILITY aclmdlConfigHandle* aclmdlCreateConfigHandle(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle* handle);
ACL_FUNC_VISIBILITY aclError aclmdlSetConfigOpt(aclmdlConfigHandle* handle, aclmdlConfigAttr attr,
                                                const void* attrValue, size_t valueSize);
// Supplies device memory that already holds one external weight file (name without directory; size a
// multiple of 32 bytes). The memory must outlive the model.
ACL_FUNC_VISIBILITY aclError aclmdlSetExternalWeightAddress(aclmdlConfigHandle* handle, const char* weightFileName,
                                                            void* devPtr, size_t size);
// Loads the model the configuration names (ACL_MDL_LOAD_TYPE_SIZET and the matching attributes).
ACL_FUNC_VISIBILITY aclError aclmdlLoadWithConfig(const aclmdlConfigHandle* handle, uint32_t* modelId);

/* ============================================================================================== */
/* ==== [mdl_exec] Offline models: execution ==== */
/* ============================================================================================== */

// Options of an execution configuration (aclmdlSetExecConfigOpt). The timeouts are int32_t
// milliseconds, -1 (the default) meaning "wait forever". Values 4 to 7 are reserved.
typedef enum {
    ACL_MDL_STREAM_SYNC_TIMEOUT = 0,
    ACL_MDL_EVENT_SYNC_TIMEOUT,
    ACL_MDL_WORK_ADDR_PTR,
    ACL_MDL_WORK_SIZET,
    ACL_MDL_MPAIMID_SIZET,
    ACL_MDL_AICQOS_SIZET,
    ACL_MDL_AICOST_SIZET,
    ACL_MDL_MEC_TIMETHR_SIZET,
    ACL_MDL_EXEC_PRIORITY_INT32,
    ACL_MDL_NPU_PERF_MODE
} aclmdlExecConfigAttr;

// Attributes of a loaded model (aclmdlSetAttribute / aclmdlGetAttribute).
typedef enum { ACL_MDL_ATTR_PRIORITY_INT32 = 0 } aclmdlAttr;

typedef union {
    uint32_t mdlPriority;  // smaller is more urgent; 0 by default
    uint32_t reserved[8];
} aclmdlAttrValue_t;

// Runs a model and waits for it. An output buffer created with no memory (aclCreateDataBuffer(NULL, 0))
// receives memory allocated by the runtime, which the caller then owns.
ACL_FUNC_VISIBILITY aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output);
// Enqueues a run on a stream; every output buffer must have memory.
ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output,
                                                aclrtStream stream);
// As aclmdlExecute / aclmdlExecuteAsync, with the options of an execution configuration.
ACL_FUNC_VISIBILITY aclError aclmdlExecuteV2(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output,
                                             aclrtStream stream, const aclmdlExecConfigHandle* handle);
ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsyncV2(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output,
                                                  aclrtStream stream, const aclmdlExecConfigHandle* handle);

ACL_FUNC_VISIBILITY aclmdlExecConfigHandle* aclmdlCreateExecConfigHandle(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyExecConfigHandle(const aclmdlExecConfigHandle* handle);
ACL_FUNC_VISIBILITY aclError aclmdlSetExecConfigOpt(aclmdlExecConfigHandle* handle, aclmdlExecConfigAttr attr,
                                                    const void* attrValue, size_t valueSize);

ACL_FUNC_VISIBILITY aclError aclmdlSetAttribute(uint32_t modelId, aclmdlAttr attr, aclmdlAttrValue_t* attrValue);
ACL_FUNC_VISIBILITY aclError aclmdlGetAttribute(uint32_t modelId, aclmdlAttr attr, aclmdlAttrValue_t* attrValue);

/* ============================================================================================== */
/* ==== [mdl_dynamic] Offline models: dynamic batch, image size and dims ==== */
/* ============================================================================================== */

// The batch-size gears of a model (batchCount 0: not a dynamic-batch model).
typedef struct aclmdlBatch {
    size_t batchCount;
    uint64_t batch[ACL_MAX_BATCH_NUM];
} aclmdlBatch;

// The image-size gears of a model, as {height, width} pairs.
typedef struct aclmdlHW {
    size_t hwCount;
    uint64_t hw[ACL_MAX_HW_NUM][2];
} aclmdlHW;

// Select the gear of the next run of a dataset. `index` is the index of the ACL_DYNAMIC_TENSOR_NAME
// input; the value must be one of the compiled gears. Without a selection the largest gear runs.
ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                                       uint64_t batchSize);
ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                                    uint64_t height, uint64_t width);
// dims holds the dimensions of all inputs concatenated, in the model's input order.
ACL_FUNC_VISIBILITY aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                                       const aclmdlIODims* dims);

ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicBatch(const aclmdlDesc* modelDesc, aclmdlBatch* batch);
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicHW(const aclmdlDesc* modelDesc, size_t index, aclmdlHW* hw);
// Dims gears: `index` must be (size_t)-1. aclmdlGetInputDynamicDims fills gearCount entries, one per
// gear, each holding the concatenated dims of all inputs.
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc* modelDesc, size_t index,
                                                            size_t* gearCount);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims,
                                                       size_t gearCount);

/* ============================================================================================== */
/* ==== [mdl_aipp] Offline models: AIPP image pre-processing ==== */
/* ============================================================================================== */

// Image formats an AIPP input accepts.
typedef enum {
    ACL_YUV420SP_U8 = 1,
    ACL_XRGB8888_U8 = 2,
    ACL_RGB888_U8 = 3,
    ACL_YUV400_U8 = 4,
    ACL_NC1HWC0DI_FP16 = 5,
    ACL_NC1HWC0DI_S8 = 6,
    ACL_ARGB8888_U8 = 7,
    ACL_YUYV_U8 = 8,
    ACL_YUV422SP_U8 = 9,
    ACL_AYUV444_U8 = 10,
    ACL_RAW10 = 11,
    ACL_RAW12 = 12,
    ACL_RAW16 = 13,
    ACL_RAW24 = 14,
    ACL_AIPP_RESERVED = 0xFFFF,
} aclAippInputFormat;

// How an input relates to AIPP (aclmdlGetAippType). ACL_DYNAMIC_AIPP_NODE is the parameter input itself.
typedef enum {
    ACL_DATA_WITHOUT_AIPP = 0,
    ACL_DATA_WITH_STATIC_AIPP,
    ACL_DATA_WITH_DYNAMIC_AIPP,
    ACL_DYNAMIC_AIPP_NODE
} aclmdlInputAippType;

// Shape and size of an AIPP input before and after pre-processing.
typedef struct aclAippDims {
    aclmdlIODims srcDims;
    size_t srcSize;
    aclmdlIODims aippOutdims;
    size_t aippOutSize;
} aclAippDims;

// Static AIPP configuration compiled into a model (aclmdlGetFirstAippInfo). The *Switch fields are 0/1.
typedef struct aclAippInfo {
    aclAippInputFormat inputFormat;
    int32_t srcImageSizeW;
    int32_t srcImageSizeH;
    int8_t cropSwitch;
    int32_t loadStartPosW;
    int32_t loadStartPosH;
    int32_t cropSizeW;
    int32_t cropSizeH;
    int8_t resizeSwitch;
    int32_t resizeOutputW;
    int32_t resizeOutputH;
    int8_t paddingSwitch;
    int32_t leftPaddingSize;
    int32_t rightPaddingSize;
    int32_t topPaddingSize;
    int32_t bottomPaddingSize;
    int8_t cscSwitch;
    int8_t rbuvSwapSwitch;
    int8_t axSwapSwitch;
    int8_t singleLineMode;
    // Colour-space conversion matrix and biases.
    int32_t matrixR0C0;
    int32_t matrixR0C1;
    int32_t matrixR0C2;
    int32_t matrixR1C0;
    int32_t matrixR1C1;
    int32_t matrixR1C2;
    int32_t matrixR2C0;
    int32_t matrixR2C1;
    int32_t matrixR2C2;
    int32_t outputBias0;
    int32_t outputBias1;
    int32_t outputBias2;
    int32_t inputBias0;
    int32_t inputBias1;
    int32_t inputBias2;
    // Normalization per channel: (pixel - mean - min) * varReci.
    int32_t meanChn0;
    int32_t meanChn1;
    int32_t meanChn2;
    int32_t meanChn3;
    float minChn0;
    float minChn1;
    float minChn2;
    float minChn3;
    float varReciChn0;
    float varReciChn1;
    float varReciChn2;
    float varReciChn3;
    aclFormat srcFormat;
    aclDataType srcDatatype;
    size_t srcDimNum;
    size_t shapeCount;  // entries of outDims in use (one per gear)
    aclAippDims outDims[ACL_MAX_SHAPE_COUNT];
    aclAippExtendInfo* aippExtend;  // reserved, NULL
} aclAippInfo;

// Dynamic-AIPP parameters for batchSize images; every per-image setter takes the image's batchIndex.
ACL_FUNC_VISIBILITY aclmdlAIPP* aclmdlCreateAIPP(uint64_t batchSize);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyAIPP(const aclmdlAIPP* aippParmsSet);
// Bytes of the ACL_DYNAMIC_AIPP_NAME input buffer for batchSize images.
ACL_FUNC_VISIBILITY aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t* size);

// Settings shared by all images.
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPInputFormat(aclmdlAIPP* aippParmsSet, aclAippInputFormat inputFormat);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCscParams(aclmdlAIPP* aippParmsSet, int8_t cscSwitch, int16_t cscMatrixR0C0,
                                                    int16_t cscMatrixR0C1, int16_t cscMatrixR0C2,
                                                    int16_t cscMatrixR1C0, int16_t cscMatrixR1C1,
                                                    int16_t cscMatrixR1C2, int16_t cscMatrixR2C0,
                                                    int16_t cscMatrixR2C1, int16_t cscMatrixR2C2,
                                                    uint8_t cscOutputBiasR0, uint8_t cscOutputBiasR1,
                                                    uint8_t cscOutputBiasR2, uint8_t cscInputBiasR0,
                                                    uint8_t cscInputBiasR1, uint8_t cscInputBiasR2);
// Swaps R with B (U with V), and RGBA with ARGB (YUVA with AYUV).
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP* aippParmsSet, int8_t rbuvSwapSwitch);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP* aippParmsSet, int8_t axSwapSwitch);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP* aippParmsSet, int32_t srcImageSizeW,
                                                       int32_t srcImageSizeH);

// Per-image settings: resize, crop, padding, and normalization.
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPScfParams(aclmdlAIPP* aippParmsSet, int8_t scfSwitch, int32_t scfInputSizeW,
                                                    int32_t scfInputSizeH, int32_t scfOutputSizeW,
                                                    int32_t scfOutputSizeH, uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCropParams(aclmdlAIPP* aippParmsSet, int8_t cropSwitch, int32_t cropStartPosW,
                                                     int32_t cropStartPosH, int32_t cropSizeW, int32_t cropSizeH,
                                                     uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPPaddingParams(aclmdlAIPP* aippParmsSet, int8_t paddingSwitch,
                                                        int32_t paddingSizeTop, int32_t paddingSizeBottom,
                                                        int32_t paddingSizeLeft, int32_t paddingSizeRight,
                                                        uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMean(aclmdlAIPP* aippParmsSet, int16_t dtcPixelMeanChn0,
                                                       int16_t dtcPixelMeanChn1, int16_t dtcPixelMeanChn2,
                                                       int16_t dtcPixelMeanChn3, uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP* aippParmsSet, float dtcPixelMinChn0,
                                                      float dtcPixelMinChn1, float dtcPixelMinChn2,
                                                      float dtcPixelMinChn3, uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPPixelVarReci(aclmdlAIPP* aippParmsSet, float dtcPixelVarReciChn0,
                                                       float dtcPixelVarReciChn1, float dtcPixelVarReciChn2,
                                                       float dtcPixelVarReciChn3, uint64_t batchIndex);

// Writes the parameters into a dataset: aclmdlSetInputAIPP addresses the ACL_DYNAMIC_AIPP_NODE input,
// aclmdlSetAIPPByInputIndex the data input (ACL_DATA_WITH_DYNAMIC_AIPP) it belongs to.
ACL_FUNC_VISIBILITY aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                                const aclmdlAIPP* aippParmsSet);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPByInputIndex(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                                       const aclmdlAIPP* aippParmsSet);
// The AIPP kind of an input and, for ACL_DATA_WITH_DYNAMIC_AIPP, the index of its parameter input
// (otherwise ACL_INVALID_NODE_INDEX).
ACL_FUNC_VISIBILITY aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType* type,
                                               size_t* dynamicAttachedDataIndex);
// The static AIPP configuration of an input; ACL_ERROR_GE_AIPP_NOT_EXIST when it has none.
ACL_FUNC_VISIBILITY aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo* aippInfo);

/* ============================================================================================== */
/* ==== [mdl_bundle] Offline models: bundles ==== */
/* ============================================================================================== */

// A bundle file holds several models that share variable weights. aclmdlBundleLoadFrom* loads the
// bundle with all its members (their model ids: aclmdlBundleGetModelId); aclmdlBundleInitFrom* below
// only opens it, and aclmdlBundleLoadModel* then loads members one at a time.
ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadFromFile(const char* modelPath, uint32_t* bundleId);
ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadFromMem(const void* model, size_t modelSize, uint32_t* bundleId);
ACL_FUNC_VISIBILITY aclError aclmdlBundleUnload(uint32_t bundleId);
ACL_FUNC_VISIBILITY aclError aclmdlBundleGetModelNum(uint32_t bundleId, size_t* modelNum);
ACL_FUNC_VISIBILITY aclError aclmdlBundleGetModelId(uint32_t bundleId, size_t index, uint32_t* modelId);

// Sizes of a bundle read without loading it.
ACL_FUNC_VISIBILITY aclmdlBundleQueryInfo* aclmdlBundleCreateQueryInfo(void);
ACL_FUNC_VISIBILITY aclError aclmdlBundleDestroyQueryInfo(aclmdlBundleQueryInfo* queryInfo);
ACL_FUNC_VISIBILITY aclError aclmdlBundleQueryInfoFromFile(const char* fileName, aclmdlBundleQueryInfo* queryInfo);
ACL_FUNC_VISIBILITY aclError aclmdlBundleQueryInfoFromMem(const void* model, size_t modelSize,
                                                          aclmdlBundleQueryInfo* queryInfo);
ACL_FUNC_VISIBILITY aclError aclmdlBundleGetQueryModelNum(const aclmdlBundleQueryInfo* queryInfo, size_t* modelNum);
ACL_FUNC_VISIBILITY aclError aclmdlBundleGetVarWeightSize(const aclmdlBundleQueryInfo* queryInfo,
                                                          size_t* variableWeightSize);
ACL_FUNC_VISIBILITY aclError aclmdlBundleGetSize(const aclmdlBundleQueryInfo* queryInfo, size_t index, size_t* workSize,
                                                 size_t* constWeightSize);

// Opens a bundle without loading its members; varWeightPtr (may be NULL) is caller-owned device memory
// for the shared variable weights.
ACL_FUNC_VISIBILITY aclError aclmdlBundleInitFromFile(const char* modelPath, void* varWeightPtr, size_t varWeightSize,
                                                      uint32_t* bundleId);
ACL_FUNC_VISIBILITY aclError aclmdlBundleInitFromMem(const void* model, size_t modelSize, void* varWeightPtr,
                                                     size_t varWeightSize, uint32_t* bundleId);
// Loads member `index` of an opened bundle.
ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadModel(uint32_t bundleId, size_t index, uint32_t* modelId);
ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadModelWithMem(uint32_t bundleId, size_t index, void* workPtr,
                                                          size_t workSize, void* weightPtr, size_t weightSize,
                                                          uint32_t* modelId);
ACL_FUNC_VISIBILITY aclError aclmdlBundleLoadModelWithConfig(uint32_t bundleId, size_t index,
                                                             aclmdlConfigHandle* handle, uint32_t* modelId);
ACL_FUNC_VISIBILITY aclError aclmdlBundleUnloadModel(uint32_t bundleId, uint32_t modelId);

/* ============================================================================================== */
/* ==== [mdl_other] Offline models: fault diagnosis and recovery ==== */
/* ============================================================================================== */

// After a device exception (ids from aclrtGet*FromExceptionInfo): the failing operator's name (into
// opName, opNameLen bytes) and newly created arrays of its input and output descriptors.
ACL_FUNC_VISIBILITY aclError aclmdlCreateAndGetOpDesc(uint32_t deviceId, uint32_t streamId, uint32_t taskId,
                                                      char* opName, size_t opNameLen, aclTensorDesc** inputDesc,
                                                      size_t* numInputs, aclTensorDesc** outputDesc,
                                                      size_t* numOutputs);
// Re-issues the collective-communication tasks of a device after a fault.
ACL_FUNC_VISIBILITY aclError aclRecoverAllHcclTasks(int32_t deviceId);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACL_ACL_MDL_H
