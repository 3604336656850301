#include "core/tdt/tdt_dataset.h"

#include <cstring>
#include <new>

#include "acl/acl.h"

namespace npurt::core {

namespace {
bool IsPayloadType(acltdtTensorType t) {
  return t == ACL_TENSOR_DATA_TENSOR || t == ACL_TENSOR_DATA_SLICE_TENSOR || t == ACL_TENSOR_DATA_END_TENSOR;
}
}  // namespace

StatusOr<TdtDataItem*> TdtDataItem::Create(acltdtTensorType type, const int64_t* dims, size_t dim_num,
                                           aclDataType data_type, void* data, size_t size) {
  if (type < ACL_TENSOR_DATA_TENSOR || type > ACL_TENSOR_DATA_END_TENSOR) {
    return Err(ACL_ERROR_INVALID_PARAM, "tdtType {} is not a valid acltdtTensorType", static_cast<int>(type));
  }
  if ((dims == nullptr) != (dim_num == 0)) {
    return Err(ACL_ERROR_INVALID_PARAM, "dims and dimNum disagree (dims {}, dimNum {})", static_cast<const void*>(dims),
               dim_num);
  }
  if (dim_num > kMaxDims) return Err(ACL_ERROR_INVALID_PARAM, "dimNum {} exceeds {}", dim_num, kMaxDims);
  if (!IsPayloadType(type) && dims != nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "a mark (tdtType {}) takes no dims", static_cast<int>(type));
  }
  if (data == nullptr && size != 0) return Err(ACL_ERROR_INVALID_PARAM, "data is a null pointer but size is {}", size);
  TdtDataItem* item = NewHandle<TdtDataItem>();
  if (item == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for data items");
  item->type_ = type;
  if (IsPayloadType(type)) {
    item->data_type_ = data_type;
    item->dims_.assign(dims, dims + dim_num);
    item->data_ = data;
    item->size_ = size;
  }
  return item;
}

StatusOr<TdtDataItem*> TdtDataItem::FromMessage(TdtItemMessage&& message) {
  TdtDataItem* item = NewHandle<TdtDataItem>();
  if (item == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for data items");
  item->type_ = message.type;
  item->data_type_ = message.data_type;
  item->dims_ = std::move(message.dims);
  item->owned_ = std::move(message.bytes);
  item->size_ = item->owned_.size();
  item->data_ = item->owned_.empty() ? nullptr : item->owned_.data();
  item->slice_num_ = message.slice_num;
  item->slice_id_ = message.slice_id;
  return item;
}

TdtItemMessage TdtDataItem::ToMessage() const {
  TdtItemMessage m;
  m.type = type_;
  m.data_type = data_type_;
  m.dims = dims_;
  if (size_ != 0) m.bytes.assign(static_cast<const uint8_t*>(data_), static_cast<const uint8_t*>(data_) + size_);
  m.slice_num = slice_num_;
  m.slice_id = slice_id_;
  return m;
}

void TdtDataItem::Destroy() {
  if (Invalidate()) Release();
}

StatusOr<TdtDataset*> TdtDataset::Create() {
  TdtDataset* ds = NewHandle<TdtDataset>();
  if (ds == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for datasets");
  return ds;
}

Status TdtDataset::Add(TdtDataItem* item) {
  if (owns_items_) {
    return Err(ACL_ERROR_FEATURE_UNSUPPORTED, "the dataset holds received items; add items to a new dataset");
  }
  item->Retain();
  items_.push_back(item);
  return Status::Ok();
}

TdtDataItem* TdtDataset::At(size_t index) const {
  return index < items_.size() && items_[index]->alive() ? items_[index] : nullptr;
}

StatusOr<TdtMessage> TdtDataset::ToMessage() const {
  if (items_.empty()) return Err(ACL_ERROR_INVALID_PARAM, "the dataset has no items");
  TdtMessage m;
  m.name = name_;
  m.items.reserve(items_.size());
  for (size_t i = 0; i < items_.size(); ++i) {
    TdtDataItem* item = At(i);
    if (item == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "item {} of the dataset was destroyed", i);
    m.items.push_back(item->ToMessage());
  }
  return m;
}

Status TdtDataset::Fill(TdtMessage&& message) {
  std::vector<TdtDataItem*> items;
  items.reserve(message.items.size());
  for (TdtItemMessage& im : message.items) {
    auto item = TdtDataItem::FromMessage(std::move(im));
    if (!item.ok()) {
      for (TdtDataItem* p : items) p->Destroy();
      return item.status();
    }
    items.push_back(item.value());
  }
  for (TdtDataItem* p : items) p->Retain();
  ReleaseItems();
  items_ = std::move(items);
  owns_items_ = true;
  name_ = std::move(message.name);
  return Status::Ok();
}

// Every listed item carries a reference of the dataset, so a slot the user destroyed is never reused
// while listed here: alive() tells a destroyed item apart.
void TdtDataset::ReleaseItems() {
  for (TdtDataItem* item : items_) {
    if (owns_items_) item->Destroy();
    item->Release();
  }
  items_.clear();
  owns_items_ = false;
}

void TdtDataset::Destroy() {
  if (!Invalidate()) return;
  ReleaseItems();
  Release();
}

}  // namespace npurt::core
