// Types shared by every HCCL header: result codes, communicator handles, reduction operators and
// element types, the opaque root-info blob, the communicator configuration structure and the enums
// used by point-to-point batches, logging and fault recovery.
//
// Everything here is ABI: enumerator values, structure layouts and sizes match the HCCL/HCOMM
// headers (hcomm include/hccl/hccl_types.h, config version 10). Only <stdint.h> and <stddef.h> are
// included, so the header compiles as C99 and as C++11 on its own.
#ifndef NPURT_HCCL_HCCL_TYPES_H
#define NPURT_HCCL_HCCL_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Every HCCL entry point carries this marker. It exports the symbol only while the runtime library
// itself is built (the build defines FUNC_VISIBILITY); for user code it expands to nothing.
#ifndef HCCL_API
#ifdef FUNC_VISIBILITY
#define HCCL_API __attribute__((visibility("default")))
#else
#define HCCL_API
#endif
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Result codes                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

// What every HCCL call returns. HcclGetErrorString turns a code into a short message.
// HCCL_E_RESERVED is only an end marker and differs between HCCL releases (22 in old headers, 1042
// here), so never compare a result against it.
typedef enum {
    HCCL_SUCCESS = 0,
    HCCL_E_PARA = 1,                // an argument is out of range or inconsistent
    HCCL_E_PTR = 2,                 // a required pointer (buffer, handle, stream) is NULL
    HCCL_E_MEMORY = 3,
    HCCL_E_INTERNAL = 4,
    HCCL_E_NOT_SUPPORT = 5,         // unsupported data type, reduce op or feature
    HCCL_E_NOT_FOUND = 6,
    HCCL_E_UNAVAIL = 7,             // resource busy or already in use (e.g. a second init on one device)
    HCCL_E_SYSCALL = 8,
    HCCL_E_TIMEOUT = 9,
    HCCL_E_OPEN_FILE_FAILURE = 10,
    HCCL_E_TCP_CONNECT = 11,
    HCCL_E_ROCE_CONNECT = 12,
    HCCL_E_TCP_TRANSFER = 13,
    HCCL_E_ROCE_TRANSFER = 14,
    HCCL_E_RUNTIME = 15,            // an ACL runtime call failed
    HCCL_E_DRV = 16,
    HCCL_E_PROFILING = 17,
    HCCL_E_CCE = 18,
    HCCL_E_NETWORK = 19,
    HCCL_E_AGAIN = 20,              // try again later (e.g. destroying a communicator that is in use)
    HCCL_E_REMOTE = 21,             // a peer reported an error completion
    HCCL_E_SUSPENDING = 22,         // the communicator is suspended
    HCCL_E_OPRETRY_FAIL = 23,
    HCCL_E_OOM = 24,
    HCCL_E_IN_STATUS = 1041,        // details are in a separately returned status
    HCCL_E_RESERVED
} HcclResult;

/* ---------------------------------------------------------------------------------------------- */
/* Handles (all opaque)                                                                           */
/* ---------------------------------------------------------------------------------------------- */

typedef void* HcclComm;             // one rank's view of a communicator
typedef void* HcclConn;             // connection to a peer
typedef void* HcclCommSymWindow;    // registered symmetric memory window

/* ---------------------------------------------------------------------------------------------- */
/* Reduction operators and element types                                                          */
/* ---------------------------------------------------------------------------------------------- */

// Reduction applied element-wise by AllReduce, Reduce, ReduceScatter and ReduceScatterV. There is
// no average: frameworks sum and then divide themselves.
typedef enum {
    HCCL_REDUCE_SUM = 0,
    HCCL_REDUCE_PROD = 1,
    HCCL_REDUCE_MAX = 2,
    HCCL_REDUCE_MIN = 3,
    HCCL_REDUCE_RESERVED = 255
} HcclReduceOp;

// Element types. Counts passed to the ops are numbers of these elements, never bytes. The size of
// one element is given after each value; 13 is unused.
typedef enum {
    HCCL_DATA_TYPE_INT8 = 0,        // 1 byte
    HCCL_DATA_TYPE_INT16 = 1,       // 2
    HCCL_DATA_TYPE_INT32 = 2,       // 4
    HCCL_DATA_TYPE_FP16 = 3,        // 2
    HCCL_DATA_TYPE_FP32 = 4,        // 4
    HCCL_DATA_TYPE_INT64 = 5,       // 8
    HCCL_DATA_TYPE_UINT64 = 6,      // 8
    HCCL_DATA_TYPE_UINT8 = 7,       // 1
    HCCL_DATA_TYPE_UINT16 = 8,      // 2
    HCCL_DATA_TYPE_UINT32 = 9,      // 4
    HCCL_DATA_TYPE_FP64 = 10,       // 8
    HCCL_DATA_TYPE_BFP16 = 11,      // 2 (bfloat16)
    HCCL_DATA_TYPE_INT128 = 12,     // 16
    HCCL_DATA_TYPE_HIF8 = 14,       // 1
    HCCL_DATA_TYPE_FP8E4M3 = 15,    // 1
    HCCL_DATA_TYPE_FP8E5M2 = 16,    // 1
    HCCL_DATA_TYPE_FP8E8M0 = 17,    // 1
    HCCL_DATA_TYPE_RESERVED = 255
} HcclDataType;

/* ---------------------------------------------------------------------------------------------- */
/* Process-wide settings (HcclSetConfig / HcclGetConfig)                                          */
/* ---------------------------------------------------------------------------------------------- */

// HCCL_DETERMINISTIC takes 0 (off), 1 (deterministic reductions) or 2 (deterministic and
// order-preserving).
typedef enum {
    HCCL_DETERMINISTIC = 0,
    HCCL_CONFIG_RESERVED
} HcclConfig;

// Value of one setting. The real header declares only the union tag; the typedef lets C code use the
// bare name as C++ code can.
typedef union HcclConfigValue {
    int32_t value;
} HcclConfigValue;

/* ---------------------------------------------------------------------------------------------- */
/* Constants                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

// HCCL declares these as namespace-scope "const uint32_t" objects. C++ keeps exactly that (const
// objects at namespace scope have internal linkage there and are constant expressions). C cannot use
// such an object as an array size and would define it in every translation unit, so C gets macros of
// the same value and type instead. Either way `char name[COMM_NAME_MAX_LENGTH];` works.
#ifdef __cplusplus
static const uint32_t HCCL_ROOT_INFO_BYTES = 4108;                   // size of HcclRootInfo
static const uint32_t COMM_NAME_MAX_LENGTH = 128;                    // communicator name, with its NUL
static const uint32_t BUFFER_NAME_MAX_LENGTH = 128;                  // shared buffer name
static const uint32_t UDI_MAX_LENGTH = 128;                          // user data string
static const uint32_t HCCL_COMM_ALGO_MAX_LENGTH = 1600;              // algorithm selection string
static const uint32_t HCCL_COMM_RETRY_ENABLE_MAX_LENGTH = 50;        // retry switch string
static const uint32_t HCCL_COMM_RETRY_PARAMS_MAX_LENGTH = 128;       // retry parameter string

static const uint32_t HCCL_COMM_CONFIG_INFO_BYTES = 24;              // header at the start of HcclCommConfig
static const uint32_t HCCL_COMM_CONFIG_MAGIC_WORD = 0xf0f0f0f0U;     // marks an initialised config
static const uint32_t HCCL_COMM_CONFIG_VERSION = 10;                 // layout version written by HcclCommConfigInit
static const uint32_t HCCL_COMM_DEFAULT_BUFFSIZE = 200;              // MB, when neither config nor env set it
static const uint32_t HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET = 0xffffffffU;
static const uint32_t HCCL_COMM_DEFAULT_DETERMINISTIC = 0;
static const uint32_t HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET = 0xffffffffU;
static const uint32_t HCCL_COMM_DEFAULT_OP_EXPANSION_MODE = 0;
static const uint32_t HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET = 0xffffffffU;
static const uint32_t HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET = 0xffffffffU;
static const int32_t HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET = -1;      // all bits set, as a signed field
static const uint32_t HCCL_COMM_QOS_CONFIG_NOT_SET = 0xffffffffU;
static const uint32_t HCCL_COMM_HCCL_QOS_CONFIG_NOT_SET = 0xffffffffU;  // older spelling (torch_npu copy)
static const uint64_t HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE = 16;     // GB per rank for symmetric windows
#else
#define HCCL_ROOT_INFO_BYTES 4108U
#define COMM_NAME_MAX_LENGTH 128U
#define BUFFER_NAME_MAX_LENGTH 128U
#define UDI_MAX_LENGTH 128U
#define HCCL_COMM_ALGO_MAX_LENGTH 1600U
#define HCCL_COMM_RETRY_ENABLE_MAX_LENGTH 50U
#define HCCL_COMM_RETRY_PARAMS_MAX_LENGTH 128U

#define HCCL_COMM_CONFIG_INFO_BYTES 24U
#define HCCL_COMM_CONFIG_MAGIC_WORD 0xf0f0f0f0U
#define HCCL_COMM_CONFIG_VERSION 10U
#define HCCL_COMM_DEFAULT_BUFFSIZE 200U
#define HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_DEFAULT_DETERMINISTIC 0U
#define HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_DEFAULT_OP_EXPANSION_MODE 0U
#define HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET ((int32_t)-1)
#define HCCL_COMM_QOS_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_HCCL_QOS_CONFIG_NOT_SET 0xffffffffU
#define HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE ((uint64_t)16U)
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Root info                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

// Rendezvous token made by HcclGetRootInfo on the root rank. The application copies all 4108 bytes
// unchanged to every other rank (MPI broadcast, key-value store, shared memory) and passes them to
// HcclCommInitRootInfo. The contents are private to the library.
typedef struct HcclRootInfoDef {
    char internal[HCCL_ROOT_INFO_BYTES];
} HcclRootInfo;

/* ---------------------------------------------------------------------------------------------- */
/* Communicator configuration                                                                     */
/* ---------------------------------------------------------------------------------------------- */

// Options for the *Config init functions. Always prepare it with HcclCommConfigInit (hccl_comm.h),
// then change only the fields you need; all ranks of one communicator must pass the same values.
// The first 24 bytes hold a header (struct size, magic word, version) that lets the library accept
// structures compiled against older, shorter layouts. A field set in here overrides the matching
// environment variable, which overrides the built-in default.
typedef struct HcclCommConfigDef {
    char reserved[HCCL_COMM_CONFIG_INFO_BYTES];             // header written by HcclCommConfigInit; do not touch
    uint32_t hcclBufferSize;                                // staging buffer in MB (>= 1); like HCCL_BUFFSIZE
    uint32_t hcclDeterministic;                             // 0, 1 or 2; like HCCL_DETERMINISTIC
    char hcclCommName[COMM_NAME_MAX_LENGTH];                // unique name; generated when left empty
    char hcclUdi[UDI_MAX_LENGTH];                           // free-form user data
    uint32_t hcclOpExpansionMode;                           // where ops are expanded (HcclOpExpansionMode)
    uint32_t hcclRdmaTrafficClass;                          // RDMA traffic class
    uint32_t hcclRdmaServiceLevel;                          // RDMA service level
    uint32_t hcclWorldRankID;                               // rank in the job, a scheduling hint
    uint64_t hcclJobID;                                     // job id, a scheduling hint
    uint8_t aclGraphZeroCopyEnable;                         // 1: zero-copy inside captured graphs
    int32_t hcclExecTimeOut;                                // seconds; like HCCL_EXEC_TIMEOUT
    char hcclAlgo[HCCL_COMM_ALGO_MAX_LENGTH];               // like HCCL_ALGO, e.g. "level0:NA;level1:ring"
    char hcclRetryEnable[HCCL_COMM_RETRY_ENABLE_MAX_LENGTH];  // e.g. "L1:1, L2:0"
    char hcclRetryParams[HCCL_COMM_RETRY_PARAMS_MAX_LENGTH];  // e.g. "MaxCnt:3, HoldTime:5000, IntervalTime:1000"
    char hcclBufferName[BUFFER_NAME_MAX_LENGTH];            // communicators with one name share one buffer
    uint32_t hcclQos;                                       // QoS level
    uint64_t hcclSymWinMaxMemSizePerRank;                   // GB reserved for symmetric windows
} HcclCommConfig;

// Configuration items in the order they were introduced. HcclGetCommConfigCapability returns a
// number N; item e is understood by the library when e < N.
typedef enum {
    HCCL_COMM_CONFIG_BUFFER_SIZE = 0,
    HCCL_COMM_CONFIG_DETERMINISTIC = 1,
    HCCL_COMM_CONFIG_COMM_NAME = 2,
    HCCL_COMM_CONFIG_OP_EXPANSION_MODE = 3,
    HCCL_COMM_CONFIG_SUPPORT_INIT_BY_ENV = 4,
    HCCL_COMM_CONFIG_WORLD_RANKID = 5,
    HCCL_COMM_CONFIG_JOBID = 6,
    HCCL_COMM_CONFIG_ACLGRAPH_ZEROCOPY_ENABLE = 7,
    HCCL_COMM_CONFIG_EXEC_TIMEOUT = 8,
    HCCL_COMM_CONFIG_ALGO = 9,
    HCCL_COMM_CONFIG_RETRY = 10,
    HCCL_COMM_CONFIG_BUFFER_NAME = 11,
    HCCL_COMM_CONFIG_RESERVED
} HcclCommConfigCapability;

/* ---------------------------------------------------------------------------------------------- */
/* Point-to-point batches (HcclBatchSendRecv)                                                     */
/* ---------------------------------------------------------------------------------------------- */

typedef enum {
    HCCL_SEND = 0,
    HCCL_RECV = 1,
    HCCL_SEND_RECV_RESERVED
} HcclSendRecvType;

// One transfer of a batch: send `count` elements of `dataType` from `buf` to `remoteRank`, or receive
// them from there into `buf`. The buffer is only borrowed for the duration of the operation.
typedef struct HcclSendRecvItemDef {
    HcclSendRecvType sendRecvType;
    void* buf;
    uint64_t count;
    HcclDataType dataType;
    uint32_t remoteRank;
} HcclSendRecvItem;

/* ---------------------------------------------------------------------------------------------- */
/* Operation kinds, communicator state                                                            */
/* ---------------------------------------------------------------------------------------------- */

// Kinds of operation, as named in logs and profiling records.
typedef enum {
    HCCL_CMD_INVALID = 0,
    HCCL_CMD_BROADCAST = 1,
    HCCL_CMD_ALLREDUCE,
    HCCL_CMD_REDUCE,
    HCCL_CMD_SEND,
    HCCL_CMD_RECEIVE,
    HCCL_CMD_ALLGATHER,
    HCCL_CMD_REDUCE_SCATTER,
    HCCL_CMD_ALLTOALLV,
    HCCL_CMD_ALLTOALLVC,
    HCCL_CMD_ALLTOALL,
    HCCL_CMD_GATHER,
    HCCL_CMD_SCATTER,
    HCCL_CMD_BATCH_SEND_RECV,
    HCCL_CMD_BATCH_PUT,
    HCCL_CMD_BATCH_GET,
    HCCL_CMD_ALLGATHER_V,
    HCCL_CMD_REDUCE_SCATTER_V,
    HCCL_CMD_BATCH_WRITE,
    HCCL_CMD_HALF_ALLTOALLV = 20,   // 19 is skipped
    HCCL_CMD_ALL,
    HCCL_CMD_FINALIZE = 100,
    HCCL_CMD_INTER_GROUP_SYNC,
    HCCL_CMD_INIT,
    HCCL_CMD_BARRIER,
    HCCL_CMD_MAX
} HcclCMDType;

// State reported by HcclCommGetStatus.
typedef enum {
    HCCL_COMM_STATUS_READY = 0,
    HCCL_COMM_STATUS_SUSPENDING = 1,
    HCCL_COMM_STATUS_INVALID = 254,
    HCCL_COMM_STATUS_RESERVED = 255
} HcclCommStatus;

// Moment at which a callback registered with HcclCommRegCommStateCallback runs.
typedef enum {
    HCCL_COMM_STATE_PHASE_INVALID = -1,
    HCCL_COMM_STATE_PHASE_DESTROY_PRE = 0,   // before HcclCommDestroy releases the communicator
    HCCL_COMM_STATE_PHASE_DESTROY_POST = 1,  // after it has been released
    HCCL_COMM_STATE_PHASE_RESUME_PRE = 2,    // before HcclCommResume rebuilds its resources
    HCCL_COMM_STATE_PHASE_RESUME_POST = 3    // after they have been rebuilt
} HcclCommStatePhase;

#ifdef __cplusplus
}
#endif

#endif  // NPURT_HCCL_HCCL_TYPES_H
