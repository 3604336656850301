// acl_tdt_queue.h: TDT queues of message buffers (mbufs), routes that forward a queue's buffers to other
// queues, and the acltdt names of the mbuf functions of acl_rt.h. npurt exports these functions from
// libascendcl.so and from the filter library libacl_tdt_queue.so. See docs/tdt.md.
//
// On the simulated device the queues live in the process and are shared by its threads: a queue id is
// valid in every thread until acltdtDestroyQueue. Sharing a queue with another process
// (acltdtGrantQueue to a foreign pid) is refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT. Timeouts are in
// milliseconds: -1 waits without limit, 0 does not wait.
// The /* ==== [group] ... ==== */ line sorts the functions into docs/api-coverage.md (tools/gen_api.py).
#ifndef NPURT_ACL_ACL_TDT_QUEUE_H
#define NPURT_ACL_ACL_TDT_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

// Permission bits of acltdtGrantQueue and acltdtAttachQueue.
#define ACL_TDT_QUEUE_PERMISSION_MANAGE 1
#define ACL_TDT_QUEUE_PERMISSION_DEQUEUE 2
#define ACL_TDT_QUEUE_PERMISSION_ENQUEUE 4

// Route states (ACL_TDT_QUEUE_ROUTE_STATUS_INT32).
#define ACL_TDT_QUEUE_ROUTE_UNBIND 0
#define ACL_TDT_QUEUE_ROUTE_BIND 1
#define ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL 2

typedef void* acltdtBuf;  // a message buffer; the same objects as aclrtMbuf

typedef struct tagMemQueueAttr acltdtQueueAttr;                            // name and depth of a new queue
typedef struct acltdtQueueRouteList acltdtQueueRouteList;                  // ordered routes
typedef struct acltdtQueueRouteQueryInfo acltdtQueueRouteQueryInfo;        // which routes a query selects
typedef struct acltdtQueueRoute acltdtQueueRoute;                          // source queue -> destination queue

typedef enum {
    ACL_TDT_QUEUE_NAME_PTR = 0,   // param: a const char* (len = sizeof(char*)); at most 127 characters
    ACL_TDT_QUEUE_DEPTH_UINT32    // param: uint32_t, buffers the queue holds (default 8)
} acltdtQueueAttrType;

typedef enum {
    ACL_TDT_QUEUE_ROUTE_SRC_UINT32 = 0,
    ACL_TDT_QUEUE_ROUTE_DST_UINT32,
    ACL_TDT_QUEUE_ROUTE_STATUS_INT32
} acltdtQueueRouteParamType;

typedef enum {
    ACL_TDT_QUEUE_ROUTE_QUERY_SRC = 0,           // routes leaving the source id
    ACL_TDT_QUEUE_ROUTE_QUERY_DST = 1,           // routes reaching the destination id
    ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST = 2,   // the route between both ids
    ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL = 100     // routes in state ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL
} acltdtQueueRouteQueryMode;

typedef enum {
    ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM = 0,     // value: acltdtQueueRouteQueryMode
    ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32,     // value: uint32_t
    ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32      // value: uint32_t
} acltdtQueueRouteQueryInfoParamType;

typedef enum { ACL_TDT_NORMAL_MEM = 0, ACL_TDT_DVPP_MEM } acltdtAllocBufType;

/* ==== [tdt] TDT channels and queues ==== */

// Queues. Enqueue hands the buffer to the queue (do not free it afterwards); dequeue hands the oldest
// one to the caller, who frees it. A full queue fails with ACL_ERROR_RT_QUEUE_FULL, an empty one with
// ACL_ERROR_RT_QUEUE_EMPTY, once the timeout passes.
ACL_FUNC_VISIBILITY aclError acltdtCreateQueue(const acltdtQueueAttr* attr, uint32_t* qid);
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueue(uint32_t qid);
ACL_FUNC_VISIBILITY aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtDequeue(uint32_t qid, acltdtBuf* buf, int32_t timeout);
// Copies dataSize bytes and userDataSize (at most 96) bytes of user data into a new buffer and enqueues
// it; rsv is reserved (0).
ACL_FUNC_VISIBILITY aclError acltdtEnqueueData(uint32_t qid, const void* data, size_t dataSize, const void* userData,
                                               size_t userDataSize, int32_t timeout, uint32_t rsv);
// Dequeues the oldest buffer into data (dataSize must hold it; else nothing is dequeued) and its user data.
ACL_FUNC_VISIBILITY aclError acltdtDequeueData(uint32_t qid, void* data, size_t dataSize, size_t* retDataSize,
                                               void* userData, size_t userDataSize, int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission, int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtAttachQueue(uint32_t qid, int32_t timeout, uint32_t* permission);

// Routes: while bound, every buffer that enters the source queue moves on to the destination queue(s).
ACL_FUNC_VISIBILITY aclError acltdtBindQueueRoutes(acltdtQueueRouteList* qRouteList);
ACL_FUNC_VISIBILITY aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList* qRouteList);
ACL_FUNC_VISIBILITY aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo* queryInfo,
                                                    acltdtQueueRouteList* qRouteList);

// Buffers (the acl_rt.h mbuf functions under their TDT names). type is an acltdtAllocBufType.
ACL_FUNC_VISIBILITY aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf* buf);
ACL_FUNC_VISIBILITY aclError acltdtFreeBuf(acltdtBuf buf);
ACL_FUNC_VISIBILITY aclError acltdtGetBufData(const acltdtBuf buf, void** dataPtr, size_t* size);
ACL_FUNC_VISIBILITY aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len);
ACL_FUNC_VISIBILITY aclError acltdtGetBufDataLen(acltdtBuf buf, size_t* len);
ACL_FUNC_VISIBILITY aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf);
ACL_FUNC_VISIBILITY aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t* num);
ACL_FUNC_VISIBILITY aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index, acltdtBuf* buf);
ACL_FUNC_VISIBILITY aclError acltdtGetBufUserData(const acltdtBuf buf, void* dataPtr, size_t size, size_t offset);
ACL_FUNC_VISIBILITY aclError acltdtSetBufUserData(acltdtBuf buf, const void* dataPtr, size_t size, size_t offset);
ACL_FUNC_VISIBILITY aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf* newBuf);

// Queue attributes.
ACL_FUNC_VISIBILITY acltdtQueueAttr* acltdtCreateQueueAttr(void);
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueAttr(const acltdtQueueAttr* attr);
ACL_FUNC_VISIBILITY aclError acltdtSetQueueAttr(acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                                                const void* param);
ACL_FUNC_VISIBILITY aclError acltdtGetQueueAttr(const acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len,
                                                size_t* paramRetSize, void* param);

// Routes and route lists.
ACL_FUNC_VISIBILITY acltdtQueueRoute* acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId);
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRoute(const acltdtQueueRoute* route);
ACL_FUNC_VISIBILITY aclError acltdtGetQueueRouteParam(const acltdtQueueRoute* route, acltdtQueueRouteParamType type,
                                                      size_t len, size_t* paramRetSize, void* param);
ACL_FUNC_VISIBILITY acltdtQueueRouteList* acltdtCreateQueueRouteList(void);
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList* routeList);
// Copies route into the list.
ACL_FUNC_VISIBILITY aclError acltdtAddQueueRoute(acltdtQueueRouteList* routeList, const acltdtQueueRoute* route);
// Copies the index-th route of the list into route (a route from acltdtCreateQueueRoute).
ACL_FUNC_VISIBILITY aclError acltdtGetQueueRoute(const acltdtQueueRouteList* routeList, size_t index,
                                                 acltdtQueueRoute* route);
ACL_FUNC_VISIBILITY size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList* routeList);
ACL_FUNC_VISIBILITY acltdtQueueRouteQueryInfo* acltdtCreateQueueRouteQueryInfo(void);
ACL_FUNC_VISIBILITY aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo* info);
ACL_FUNC_VISIBILITY aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo* param,
                                                          acltdtQueueRouteQueryInfoParamType type, size_t len,
                                                          const void* value);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACL_ACL_TDT_QUEUE_H
