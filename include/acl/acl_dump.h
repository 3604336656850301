/*
 * acl_dump.h: data dump (CANN's acl/acl_dump.h): exception dumps saved on demand or when a task fails,
 * the dump paths, and the operator-argument dump switch. npurt exports these functions from
 * libascendcl.so and the filter library libascend_dump.so. See docs/profiling.md ("Dumps").
 */
#ifndef INC_EXTERNAL_ACL_DUMP_H_
#define INC_EXTERNAL_ACL_DUMP_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"

#ifndef ACL_DUMP_API
#define ACL_DUMP_API ACL_FUNC_VISIBILITY
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096

/* One piece of dump data handed to a callback registered with acldumpRegCallback. */
typedef struct acldumpChunk {
    char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH]; /* absolute path of the dump file this data belongs to */
    uint32_t bufLen;                              /* bytes in dataBuf */
    uint32_t isLastChunk;                         /* 1 for the file's last chunk */
    int64_t offset;                               /* offset in the file, -1 = append */
    int32_t flag;                                 /* reserved */
    uint8_t dataBuf[1];                           /* bufLen bytes (declared [0] in CANN) */
} acldumpChunk;

#define ACL_OP_DUMP_OP_AICORE_ARGS 0x00000001U

typedef enum acldumpType {
    AIC_ERR_BRIEF_DUMP = 1,  /* exception dump: arguments and buffers of the failed task */
    AIC_ERR_NORM_DUMP = 2,
    AIC_ERR_DETAIL_DUMP = 3,
    DATA_DUMP = 4,
    OVERFLOW_DUMP = 5
} acldumpType;

#define ACL_DUMP_MAX_SHAPE_NUM 25

typedef enum acldumpTensorType {
    ACL_DUMP_TENSOR_INPUT = 0,
    ACL_DUMP_TENSOR_OUTPUT,
    ACL_DUMP_TENSOR_WORKSPACE
} acldumpTensorType;

typedef enum acldumpTensorAddressType {
    ACL_DUMP_ADDR_PTR = 0,  /* tensorAddr points at the data address */
    ACL_DUMP_ADDR_PTR_PTR,  /* two dereferences reach the data */
    ACL_DUMP_ADDR_RAW       /* tensorAddr is the data address */
} acldumpTensorAddressType;

typedef enum acldumpTensorPlacement {
    ACL_DUMP_PLACEMENT_DEVICE = 0,
    ACL_DUMP_PLACEMENT_HOST,
    ACL_DUMP_PLACEMENT_END
} acldumpTensorPlacement;

typedef struct acldumpTensorInfo {
    acldumpTensorType type;
    size_t tensorSize;                            /* bytes */
    int32_t format;                               /* aclFormat */
    int32_t dataType;                             /* aclDataType */
    int64_t* tensorAddr;
    acldumpTensorAddressType addrType;
    acldumpTensorPlacement placement;
    uint32_t argsOffset;
    uint32_t shapeNum;                            /* <= ACL_DUMP_MAX_SHAPE_NUM */
    uint32_t originShapeNum;
    uint64_t shape[ACL_DUMP_MAX_SHAPE_NUM];
    uint64_t originShape[ACL_DUMP_MAX_SHAPE_NUM];
} acldumpTensorInfo;

/* ==== [dump] Data dump ==== */

/* Routes dump data to `messageCallback` instead of files (flag reserved, 0). */
typedef int32_t (*acldumpMessageCallback)(const acldumpChunk* chunk, int32_t len);
ACL_FUNC_VISIBILITY aclError acldumpRegCallback(acldumpMessageCallback messageCallback, int32_t flag);
ACL_FUNC_VISIBILITY void acldumpUnregCallback(void);
/* Operator-argument dump of every kernel launch to `path` (dumpType ACL_OP_DUMP_OP_AICORE_ARGS). */
ACL_FUNC_VISIBILITY aclError aclopStartDumpArgs(uint32_t dumpType, const char* path);
ACL_FUNC_VISIBILITY aclError aclopStopDumpArgs(uint32_t dumpType);
/* The directory a dump type writes to (NULL if unknown). */
ACL_FUNC_VISIBILITY const char* acldumpGetPath(acldumpType dumpType);
/* Saves the given tensors (read from the device) and a tag under the exception dump path, as a failed
 * task's dump would be: <path>/<fileName>.<pid>.<time>.dump plus a .json description. */
ACL_FUNC_VISIBILITY aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag,
                                                      const acldumpTensorInfo* tensors, size_t tensorCount);
/* Writes the exception dump directory of the current device (…/extra-info/data-dump/<device>). */
ACL_FUNC_VISIBILITY aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_DUMP_H_ */
