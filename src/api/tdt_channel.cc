// Entry points: TDT data items, datasets and channels (acl_tdt.h). Functions that return a handle or a
// value report a bad argument through aclGetRecentErrMsg and return NULL / 0 / UNDEFINED.
#include "acl/acl_tdt.h"

#include "acl/acl.h"
#include "api/api_common.h"
#include "core/runtime.h"
#include "core/tdt/tdt_channel.h"
#include "core/tdt/tdt_dataset.h"

using npurt::Err;
using npurt::core::TdtChannel;
using npurt::core::TdtDataItem;
using npurt::core::TdtDataset;

namespace {

npurt::StatusOr<TdtDataItem*> ResolveItem(const acltdtDataItem* item) {
  if (item == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "dataItem is a null pointer");
  TdtDataItem* i = TdtDataItem::Lookup(item);
  if (i == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "dataItem {} is not a live data item", static_cast<const void*>(item));
  return i;
}

npurt::StatusOr<TdtDataset*> ResolveDataset(const acltdtDataset* dataset) {
  if (dataset == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "dataset is a null pointer");
  TdtDataset* d = TdtDataset::Lookup(dataset);
  if (d == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "dataset {} is not a live dataset", static_cast<const void*>(dataset));
  return d;
}

npurt::StatusOr<npurt::Ref<TdtChannel>> ResolveChannel(const acltdtChannelHandle* handle) {
  if (handle == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "handle is a null pointer");
  TdtChannel* c = TdtChannel::Lookup(handle);
  if (c == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "handle {} is not a live channel", static_cast<const void*>(handle));
  // Held for the call: a send or receive may wait while another thread destroys the handle.
  return npurt::Ref<TdtChannel>(c);
}

// For the getters that cannot return an error code: records it and yields `fallback`.
template <typename V, typename F>
V ItemGetter(const char* function, const acltdtDataItem* item, V fallback, F get) {
  auto i = ResolveItem(item);
  if (!i.ok()) {
    (void)npurt::api::Report(function, i.status());
    return fallback;
  }
  return get(i.value());
}

acltdtChannelHandle* CreateChannel(const char* function, uint32_t deviceId, const char* name, size_t capacity) {
  auto count = npurt::core::Runtime::Get().DeviceCount();
  if (!count.ok()) {
    (void)npurt::api::Report(function, count.status());
    return nullptr;
  }
  if (deviceId >= count.value()) {
    (void)npurt::api::Report(function, Err(ACL_ERROR_INVALID_PARAM, "deviceId {} is not below the device count {}",
                                           deviceId, count.value()));
    return nullptr;
  }
  auto ch = TdtChannel::Create(deviceId, name, capacity);
  if (!ch.ok()) {
    (void)npurt::api::Report(function, ch.status());
    return nullptr;
  }
  return reinterpret_cast<acltdtChannelHandle*>(ch.value());
}

}  // namespace

acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem) {
  NPURT_HANDLE_SCOPE();
  return ItemGetter(__func__, dataItem, ACL_TENSOR_DATA_UNDEFINED, [](TdtDataItem* i) { return i->type(); });
}

aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem) {
  NPURT_HANDLE_SCOPE();
  return ItemGetter(__func__, dataItem, ACL_DT_UNDEFINED, [](TdtDataItem* i) { return i->data_type(); });
}

void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem) {
  NPURT_HANDLE_SCOPE();
  return ItemGetter(__func__, dataItem, static_cast<void*>(nullptr), [](TdtDataItem* i) { return i->data(); });
}

size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem) {
  NPURT_HANDLE_SCOPE();
  return ItemGetter(__func__, dataItem, size_t{0}, [](TdtDataItem* i) { return i->size(); });
}

size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem) {
  NPURT_HANDLE_SCOPE();
  return ItemGetter(__func__, dataItem, size_t{0}, [](TdtDataItem* i) { return i->dims().size(); });
}

aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem, size_t* sliceNum, size_t* sliceId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(sliceNum);
  NPURT_API_NOT_NULL(sliceId);
  NPURT_API_ASSIGN(item, ResolveItem(dataItem));
  *sliceNum = item->slice_num();
  *sliceId = item->slice_id();
  return ACL_SUCCESS;
}

aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims, size_t dimNum) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(item, ResolveItem(dataItem));
  if ((dims == nullptr) != (dimNum == 0)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dims and dimNum disagree (dimNum {})", dimNum));
  }
  const auto& d = item->dims();
  if (dimNum < d.size()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dimNum {} is less than the item's {} dims",
                                            dimNum, d.size()));
  }
  for (size_t i = 0; i < d.size(); ++i) dims[i] = d[i];
  return ACL_SUCCESS;
}

acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t* dims, size_t dimNum,
                                     aclDataType dataType, void* data, size_t size) {
  NPURT_HANDLE_SCOPE();
  auto item = TdtDataItem::Create(tdtType, dims, dimNum, dataType, data, size);
  if (!item.ok()) {
    (void)npurt::api::Report(__func__, item.status());
    return nullptr;
  }
  return reinterpret_cast<acltdtDataItem*>(item.value());
}

aclError acltdtDestroyDataItem(acltdtDataItem* dataItem) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(item, ResolveItem(dataItem));
  item->Destroy();
  return ACL_SUCCESS;
}

acltdtDataset* acltdtCreateDataset(void) {
  NPURT_HANDLE_SCOPE();
  auto ds = TdtDataset::Create();
  if (!ds.ok()) {
    (void)npurt::api::Report(__func__, ds.status());
    return nullptr;
  }
  return reinterpret_cast<acltdtDataset*>(ds.value());
}

aclError acltdtDestroyDataset(acltdtDataset* dataset) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(ds, ResolveDataset(dataset));
  ds->Destroy();
  return ACL_SUCCESS;
}

acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index) {
  NPURT_HANDLE_SCOPE();
  auto ds = ResolveDataset(dataset);
  if (!ds.ok()) {
    (void)npurt::api::Report(__func__, ds.status());
    return nullptr;
  }
  TdtDataItem* item = ds.value()->At(index);
  if (item == nullptr) {
    (void)npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "index {} is not a live item of the {}-item dataset",
                                           index, ds.value()->size()));
  }
  return reinterpret_cast<acltdtDataItem*>(item);
}

aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(ds, ResolveDataset(dataset));
  NPURT_API_ASSIGN(item, ResolveItem(dataItem));
  NPURT_API_CHECK(ds->Add(item));
  return ACL_SUCCESS;
}

size_t acltdtGetDatasetSize(const acltdtDataset* dataset) {
  NPURT_HANDLE_SCOPE();
  auto ds = ResolveDataset(dataset);
  if (!ds.ok()) {
    (void)npurt::api::Report(__func__, ds.status());
    return 0;
  }
  return ds.value()->size();
}

const char* acltdtGetDatasetName(const acltdtDataset* dataset) {
  NPURT_HANDLE_SCOPE();
  auto ds = ResolveDataset(dataset);
  if (!ds.ok()) {
    (void)npurt::api::Report(__func__, ds.status());
    return nullptr;
  }
  return ds.value()->name().c_str();
}

acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name) {
  NPURT_HANDLE_SCOPE();
  return CreateChannel(__func__, deviceId, name, TdtChannel::kUnlimited);
}

acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId, const char* name, size_t capacity) {
  NPURT_HANDLE_SCOPE();
  return CreateChannel(__func__, deviceId, name, capacity);
}

aclError acltdtStopChannel(acltdtChannelHandle* handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(ch, ResolveChannel(handle));
  ch->Stop();
  return ACL_SUCCESS;
}

aclError acltdtDestroyChannel(acltdtChannelHandle* handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(ch, ResolveChannel(handle));
  ch->Destroy();
  return ACL_SUCCESS;
}

aclError acltdtCleanChannel(acltdtChannelHandle* handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(ch, ResolveChannel(handle));
  ch->Clean();
  return ACL_SUCCESS;
}

aclError acltdtSendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset, int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_ASSIGN(ch, ResolveChannel(handle));
  NPURT_API_ASSIGN(ds, ResolveDataset(dataset));
  NPURT_API_ASSIGN(message, ds->ToMessage());
  NPURT_API_CHECK(ch->Send(std::move(message), timeout));
  return ACL_SUCCESS;
}

aclError acltdtReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset, int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_ASSIGN(ch, ResolveChannel(handle));
  NPURT_API_ASSIGN(ds, ResolveDataset(dataset));
  NPURT_API_ASSIGN(message, ch->Receive(timeout));
  NPURT_API_CHECK(ds->Fill(std::move(message)));
  return ACL_SUCCESS;
}

aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle, size_t* size) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(size);
  NPURT_API_ASSIGN(ch, ResolveChannel(handle));
  *size = ch->Size();
  return ACL_SUCCESS;
}
