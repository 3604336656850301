// Base definitions shared by every ACL header: export and deprecation markers, opaque handle types,
// aclError and the ACL-layer error codes, data types and formats, data buffers, fp16 helpers, the
// application log entry point and a few process-wide queries.
//
// Only <stdint.h> and <stddef.h> are included, so this header compiles as C99 and as C++11 on its own.
// Everything here is ABI: type layouts, enumerator values and error codes match the ACL runtime.
// The /* ==== [group] ... ==== */ markers sort exported functions into the topics of the coverage report
// (tools/gen_api.py); every ACL_FUNC_VISIBILITY declaration must follow one.
#ifndef NPURT_ACL_ACL_BASE_RT_H
#define NPURT_ACL_ACL_BASE_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Entry points are exported only while the runtime library itself is built (it defines
// FUNC_VISIBILITY); for user code the marker expands to nothing.
#ifdef FUNC_VISIBILITY
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#else
#define ACL_FUNC_VISIBILITY
#endif

// Deprecated entry points stay exported; the attribute only warns callers at compile time.
#if defined(__GNUC__) && (__GNUC__ >= 6)
#define ACL_DEPRECATED __attribute__((deprecated))
#define ACL_DEPRECATED_MESSAGE(message) __attribute__((deprecated(message)))
#else
#define ACL_DEPRECATED
#define ACL_DEPRECATED_MESSAGE(message)
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Handles and scalar types                                                                       */
/* ---------------------------------------------------------------------------------------------- */

typedef void* aclrtStream;          // ordered queue of device work
typedef void* aclmdlRITask;         // one task inside a captured model running instance
typedef void* aclrtEvent;           // marker recorded in a stream, waited on or timed
typedef void* aclrtContext;         // per-device execution context
typedef void* aclrtNotify;          // lightweight device-side signal between streams
typedef void* aclrtCntNotify;       // counting notify
typedef void* aclrtLabel;           // jump target for stream control flow
typedef void* aclrtLabelList;       // array of labels for indexed jumps
typedef void* aclrtMbuf;            // shared-memory message buffer
typedef int aclError;               // ACL_SUCCESS (0) or one of the ACL_ERROR_* codes
typedef uint16_t aclFloat16;        // IEEE half-precision value stored as raw bits
typedef struct aclDataBuffer aclDataBuffer;  // (pointer, size) pair describing user memory
typedef void* aclrtAllocatorDesc;   // description of a user allocator (acl_rt_allocator.h)
typedef void* aclrtAllocator;       // user allocator object
typedef void* aclrtAllocatorBlock;  // block handed out by a user allocator
typedef void* aclrtAllocatorAddr;   // address hint for a user allocator
typedef void* aclrtTaskGrp;         // group of captured tasks that can be updated together

/* ---------------------------------------------------------------------------------------------- */
/* ACL-layer error codes (static const int so that they can label switch cases in C++)            */
/* ---------------------------------------------------------------------------------------------- */

static const int ACL_ERROR_NONE = 0;
static const int ACL_SUCCESS = 0;

// 1xxxxx: the caller passed a bad argument or called in the wrong state.
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_WRITE_FILE = 100004;
static const int ACL_ERROR_INVALID_FILE_SIZE = 100005;
static const int ACL_ERROR_PARSE_FILE = 100006;
static const int ACL_ERROR_FILE_MISSING_ATTR = 100007;
static const int ACL_ERROR_FILE_ATTR_INVALID = 100008;
static const int ACL_ERROR_INVALID_DUMP_CONFIG = 100009;
static const int ACL_ERROR_INVALID_PROFILING_CONFIG = 100010;
static const int ACL_ERROR_INVALID_MODEL_ID = 100011;
static const int ACL_ERROR_DESERIALIZE_MODEL = 100012;
static const int ACL_ERROR_PARSE_MODEL = 100013;
static const int ACL_ERROR_READ_MODEL_FAILURE = 100014;
static const int ACL_ERROR_MODEL_SIZE_INVALID = 100015;
static const int ACL_ERROR_MODEL_MISSING_ATTR = 100016;
static const int ACL_ERROR_MODEL_INPUT_NOT_MATCH = 100017;
static const int ACL_ERROR_MODEL_OUTPUT_NOT_MATCH = 100018;
static const int ACL_ERROR_MODEL_NOT_DYNAMIC = 100019;
static const int ACL_ERROR_OP_TYPE_NOT_MATCH = 100020;
static const int ACL_ERROR_OP_INPUT_NOT_MATCH = 100021;
static const int ACL_ERROR_OP_OUTPUT_NOT_MATCH = 100022;
static const int ACL_ERROR_OP_ATTR_NOT_MATCH = 100023;
static const int ACL_ERROR_OP_NOT_FOUND = 100024;
static const int ACL_ERROR_OP_LOAD_FAILED = 100025;
static const int ACL_ERROR_UNSUPPORTED_DATA_TYPE = 100026;
static const int ACL_ERROR_FORMAT_NOT_MATCH = 100027;
static const int ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED = 100028;
static const int ACL_ERROR_KERNEL_NOT_FOUND = 100029;
static const int ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED = 100030;
static const int ACL_ERROR_KERNEL_ALREADY_REGISTERED = 100031;
static const int ACL_ERROR_INVALID_QUEUE_ID = 100032;
static const int ACL_ERROR_REPEAT_SUBSCRIBE = 100033;
static const int ACL_ERROR_STREAM_NOT_SUBSCRIBE = 100034;
static const int ACL_ERROR_THREAD_NOT_SUBSCRIBE = 100035;
static const int ACL_ERROR_WAIT_CALLBACK_TIMEOUT = 100036;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;
static const int ACL_ERROR_NOT_STATIC_AIPP = 100038;
static const int ACL_ERROR_COMPILING_STUB_MODE = 100039;
static const int ACL_ERROR_GROUP_NOT_SET = 100040;
static const int ACL_ERROR_GROUP_NOT_CREATE = 100041;
static const int ACL_ERROR_PROF_ALREADY_RUN = 100042;
static const int ACL_ERROR_PROF_NOT_RUN = 100043;
static const int ACL_ERROR_DUMP_ALREADY_RUN = 100044;
static const int ACL_ERROR_DUMP_NOT_RUN = 100045;
static const int ACL_ERROR_PROF_REPEAT_SUBSCRIBE = 148046;
static const int ACL_ERROR_PROF_API_CONFLICT = 148047;
static const int ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG = 148048;
static const int ACL_ERROR_INVALID_OPP_PATH = 148049;
static const int ACL_ERROR_OP_UNSUPPORTED_DYNAMIC = 148050;
static const int ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED = 148051;
static const int ACL_ERROR_UNSUPPORTED_JPEG = 148052;
static const int ACL_ERROR_INVALID_BUNDLE_MODEL_ID = 148053;

// 2xxxxx: a resource ran out or the feature is not available here.
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_API_NOT_SUPPORT = 200001;
static const int ACL_ERROR_INVALID_DEVICE = 200002;
static const int ACL_ERROR_MEMORY_ADDRESS_UNALIGNED = 200003;
static const int ACL_ERROR_RESOURCE_NOT_MATCH = 200004;
static const int ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005;
static const int ACL_ERROR_FEATURE_UNSUPPORTED = 200006;
static const int ACL_ERROR_PROF_MODULES_UNSUPPORTED = 200007;

// 3xxxxx: storage limits.
static const int ACL_ERROR_STORAGE_OVER_LIMIT = 300000;

// 5xxxxx: failure inside a lower layer.
static const int ACL_ERROR_INTERNAL_ERROR = 500000;
static const int ACL_ERROR_FAILURE = 500001;
static const int ACL_ERROR_GE_FAILURE = 500002;
static const int ACL_ERROR_RT_FAILURE = 500003;
static const int ACL_ERROR_DRV_FAILURE = 500004;
static const int ACL_ERROR_PROFILING_FAILURE = 500005;

/* ---------------------------------------------------------------------------------------------- */
/* Enumerations                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

// Element types of tensors. Gaps in the numbering are values reserved by ACL.
typedef enum {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
    ACL_INT4 = 29,
    ACL_UINT1 = 30,
    ACL_COMPLEX32 = 33,
    ACL_HIFLOAT8 = 34,
    ACL_FLOAT8_E5M2 = 35,
    ACL_FLOAT8_E4M3FN = 36,
    ACL_FLOAT8_E8M0 = 37,
    ACL_FLOAT6_E3M2 = 38,
    ACL_FLOAT6_E2M3 = 39,
    ACL_FLOAT4_E2M1 = 40,
    ACL_FLOAT4_E1M2 = 41,
} aclDataType;

// Memory layouts of tensors (note ACL_FRACTAL_Z_3D has no FORMAT_ infix).
typedef enum {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_NC1HWC0_C04 = 12,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NDC1HWC0 = 32,
    ACL_FRACTAL_Z_3D = 33,
    ACL_FORMAT_NC = 35,
    ACL_FORMAT_NCL = 47,
    ACL_FORMAT_FRACTAL_NZ_C0_16 = 50,
    ACL_FORMAT_FRACTAL_NZ_C0_32 = 51,
    ACL_FORMAT_FRACTAL_NZ_C0_2 = 52,
    ACL_FORMAT_FRACTAL_NZ_C0_4 = 53,
    ACL_FORMAT_FRACTAL_NZ_C0_8 = 54,
} aclFormat;

// Severity of an application log line (aclAppLog / ACL_APP_LOG).
typedef enum {
    ACL_DEBUG = 0,
    ACL_INFO = 1,
    ACL_WARNING = 2,
    ACL_ERROR = 3,
} aclLogLevel;

// Where a buffer lives.
typedef enum {
    ACL_MEMTYPE_DEVICE = 0,
    ACL_MEMTYPE_HOST = 1,
    ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT = 2,
} aclMemType;

// Process- or context-wide options for aclrtSetSysParamOpt / aclrtCtxSetSysParamOpt.
// ACL_OPT_DETERMINISTIC takes 0 (off), 1 (deterministic), 2 (strong consistency), 3 (batch consistency).
typedef enum {
    ACL_OPT_DETERMINISTIC = 0,
    ACL_OPT_ENABLE_DEBUG_KERNEL = 1,
    ACL_OPT_STRONG_CONSISTENCY ACL_DEPRECATED_MESSAGE(
        "ACL_OPT_STRONG_CONSISTENCY is deprecated, use ACL_OPT_DETERMINISTIC with value 2 instead") = 2,
    ACL_OPT_ENABLE_KERNEL_EARLY_START = 3
} aclSysParamOpt;

// Installation-wide capabilities queried with aclGetCannAttribute.
typedef enum {
    ACL_CANN_ATTR_UNDEFINED = -1,
    ACL_CANN_ATTR_INF_NAN = 0,
    ACL_CANN_ATTR_BF16 = 1,
    ACL_CANN_ATTR_JIT_COMPILE = 2
} aclCannAttr;

// Device capabilities queried with aclGetDeviceCapability.
typedef enum {
    ACL_DEVICE_INFO_UNDEFINED = -1,
    ACL_DEVICE_INFO_AI_CORE_NUM = 0,
    ACL_DEVICE_INFO_VECTOR_CORE_NUM = 1,
    ACL_DEVICE_INFO_L2_SIZE = 2
} aclDeviceInfo;

/* ==== [misc] Half-precision helpers, data buffers, logging ==== */

// Widens an fp16 value. Exponent 31 is read as an ordinary number: +Inf gives 65536, -Inf gives
// -65536 and NaN gives 98304, matching devices that only implement saturation.
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);

// Narrows to fp16 with saturation: NaN and +Inf become 65504 (0x7BFF), -Inf becomes -65504 (0xFBFF).
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

// Wraps caller-owned memory (usually from aclrtMalloc); (NULL, 0) is allowed for empty buffers.
// Returns NULL when out of memory.
ACL_FUNC_VISIBILITY aclDataBuffer* aclCreateDataBuffer(void* data, size_t size);

// Frees the wrapper only; the memory it points to still belongs to the caller.
ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer);

// Points the buffer at new memory. The previous memory is not freed.
ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size);

// Address held by the buffer.
ACL_FUNC_VISIBILITY void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer);

// Size held by the buffer, truncated to 32 bits.
ACL_DEPRECATED_MESSAGE("aclGetDataBufferSize is deprecated, use aclGetDataBufferSizeV2 instead")
ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer);

// Size held by the buffer.
ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer);

// Bytes per element of a data type (0 for ACL_DT_UNDEFINED and ACL_STRING).
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

// Writes one printf-style line to the application log; usually called through ACL_APP_LOG.
// The formatted text is cut at 1024 bytes and marked as truncated.
ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line,
                                   const char* fmt, ...);

// Logs with the caller's function, file and line filled in.
#define ACL_APP_LOG(level, fmt, ...) aclAppLog(level, __FUNCTION__, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

/* ==== [device] SoC and device capabilities ==== */

// Name of the SoC the runtime drives (for example "Ascend910B1"); NULL on failure.
ACL_FUNC_VISIBILITY const char* aclrtGetSocName(void);

// Reads one capability of a device (core counts, L2 size).
ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value);

/* ==== [init] Installation attributes ==== */

// Array of the CANN attributes available in this installation and its length. The array is owned by
// the runtime.
ACL_FUNC_VISIBILITY aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num);

// Sets *value to 1 when the attribute is available, 0 otherwise.
ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACL_ACL_BASE_RT_H
