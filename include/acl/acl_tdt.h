// acl_tdt.h: tensor data transfer (TDT) channels. A channel is a named FIFO of datasets; a dataset is an
// ordered list of data items, each one tensor (shape, element type, bytes) or a control mark (end of
// sequence, abnormal end). npurt exports these functions from libascendcl.so and from the filter library
// libacl_tdt_channel.so (one runtime per process whichever is linked). See docs/tdt.md.
//
// On the simulated device a channel lives in the process: every handle created with the same device and
// name is one end of the same FIFO, so one thread may send while another receives. Timeouts are in
// milliseconds: -1 waits without limit, 0 does not wait.
// The /* ==== [group] ... ==== */ line sorts the functions into docs/api-coverage.md (tools/gen_api.py).
#ifndef NPURT_ACL_ACL_TDT_H
#define NPURT_ACL_ACL_TDT_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

// What a data item carries.
typedef enum acltdtTensorType {
    ACL_TENSOR_DATA_UNDEFINED = -1,
    ACL_TENSOR_DATA_TENSOR,           // an ordinary tensor
    ACL_TENSOR_DATA_END_OF_SEQUENCE,  // the sender has no more data (no payload)
    ACL_TENSOR_DATA_ABNORMAL,         // the sender stopped on an error (no payload)
    ACL_TENSOR_DATA_SLICE_TENSOR,     // one slice of a tensor sent in parts
    ACL_TENSOR_DATA_END_TENSOR        // the last slice of a tensor sent in parts
} acltdtTensorType;

typedef struct acltdtDataItem acltdtDataItem;            // one tensor or mark
typedef struct acltdtDataset acltdtDataset;              // ordered data items, sent as one message
typedef struct acltdtChannelHandle acltdtChannelHandle;  // one end of a named channel

/* ==== [tdt] TDT channels and queues ==== */

// Data items. The getters return ACL_TENSOR_DATA_UNDEFINED, ACL_DT_UNDEFINED, NULL or 0 for a bad item.
ACL_FUNC_VISIBILITY acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem);
// Which slice of how many this item is (0 and 0 for an item that was not sliced).
ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem, size_t* sliceNum,
                                                        size_t* sliceId);
// Copies the item's dimensions; dims must hold dimNum >= acltdtGetDimNumFromItem values.
ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims, size_t dimNum);
// Wraps size bytes at data (borrowed: they must stay valid while the item is used) as an item. A mark
// (any type but ACL_TENSOR_DATA_TENSOR) takes no dims. Returns NULL on bad arguments (aclGetRecentErrMsg).
ACL_FUNC_VISIBILITY acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t* dims,
                                                         size_t dimNum, aclDataType dataType, void* data,
                                                         size_t size);
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem* dataItem);

// Datasets. A dataset does not own the items added to it; the items a receive puts in it are the
// dataset's own and go with it (or with the next receive into it); items cannot be added to such a one.
ACL_FUNC_VISIBILITY acltdtDataset* acltdtCreateDataset(void);
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset* dataset);
ACL_FUNC_VISIBILITY acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index);
ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset* dataset);
ACL_FUNC_VISIBILITY const char* acltdtGetDatasetName(const acltdtDataset* dataset);

// Channels. The plain channel has no capacity limit; the capacity-limited one holds at most capacity
// datasets, and a send to a full one waits (ACL_ERROR_RT_QUEUE_FULL once the timeout passes).
ACL_FUNC_VISIBILITY acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name);
ACL_FUNC_VISIBILITY acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId, const char* name,
                                                                         size_t capacity);
// Wakes every send and receive waiting on the channel; they fail, and so do later ones.
ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle* handle);
ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle* handle);
// Drops every dataset waiting in the channel.
ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle* handle);
// Copies the dataset's items into the channel.
ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset,
                                              int32_t timeout);
// Takes the oldest dataset (ACL_ERROR_RT_QUEUE_EMPTY once the timeout passes) into dataset.
ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset,
                                                 int32_t timeout);
// Number of datasets waiting in the channel.
ACL_FUNC_VISIBILITY aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle, size_t* size);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACL_ACL_TDT_H
