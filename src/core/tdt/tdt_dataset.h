// TDT data items and datasets (core): the messages of TDT channels (acl_tdt.h).
//
// An item the user creates borrows its bytes; an item a receive creates owns a copy. A dataset lists
// items without owning the ones the user added; the items a receive put in it are its own and are
// destroyed with it (or first by the user: the dataset holds a reference to each item it lists).
// Thread safety: like CANN's, items and datasets are not locked; a channel copies what it sends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_tdt.h"
#include "base/handle.h"
#include "base/status.h"
#include "core/handle_tags.h"

namespace npurt::core {

// What a channel carries for one item: a self-contained copy.
struct TdtItemMessage {
  acltdtTensorType type = ACL_TENSOR_DATA_UNDEFINED;
  aclDataType data_type = ACL_DT_UNDEFINED;
  std::vector<int64_t> dims;
  std::vector<uint8_t> bytes;
  size_t slice_num = 0;
  size_t slice_id = 0;
};

struct TdtMessage {
  std::string name;
  std::vector<TdtItemMessage> items;
};

class TdtDataItem final : public HandleObject {
 public:
  static constexpr size_t kMaxDims = 128;
  static StatusOr<TdtDataItem*> Create(acltdtTensorType type, const int64_t* dims, size_t dim_num,
                                       aclDataType data_type, void* data, size_t size);
  // An item owning a copy of a received one.
  static StatusOr<TdtDataItem*> FromMessage(TdtItemMessage&& message);
  static TdtDataItem* Lookup(const void* handle) { return LookupHandle<TdtDataItem>(handle, handle_tags::kTdtDataItem); }

  acltdtTensorType type() const { return type_; }
  aclDataType data_type() const { return data_type_; }
  void* data() const { return data_; }
  size_t size() const { return size_; }
  const std::vector<int64_t>& dims() const { return dims_; }
  size_t slice_num() const { return slice_num_; }
  size_t slice_id() const { return slice_id_; }
  TdtItemMessage ToMessage() const;
  void Destroy();

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  TdtDataItem() : HandleObject(handle_tags::kTdtDataItem) {}
  ~TdtDataItem() override = default;

  acltdtTensorType type_ = ACL_TENSOR_DATA_UNDEFINED;
  aclDataType data_type_ = ACL_DT_UNDEFINED;
  std::vector<int64_t> dims_;
  void* data_ = nullptr;
  size_t size_ = 0;
  std::vector<uint8_t> owned_;  // the bytes of a received item (data_ points into it)
  size_t slice_num_ = 0;
  size_t slice_id_ = 0;
};

class TdtDataset final : public HandleObject {
 public:
  static StatusOr<TdtDataset*> Create();
  static TdtDataset* Lookup(const void* handle) { return LookupHandle<TdtDataset>(handle, handle_tags::kTdtDataset); }

  Status Add(TdtDataItem* item);
  size_t size() const { return items_.size(); }
  // The index-th item, or nullptr if out of range or destroyed since.
  TdtDataItem* At(size_t index) const;
  const std::string& name() const { return name_; }
  // Copies every item (all must be live) for sending.
  StatusOr<TdtMessage> ToMessage() const;
  // Replaces the contents by the received message's items (owned by the dataset).
  Status Fill(TdtMessage&& message);
  void Destroy();

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  TdtDataset() : HandleObject(handle_tags::kTdtDataset) {}
  ~TdtDataset() override = default;
  void ReleaseItems();

  std::vector<TdtDataItem*> items_;  // each retained by the dataset
  bool owns_items_ = false;   // filled by a receive
  std::string name_;
};

}  // namespace npurt::core
