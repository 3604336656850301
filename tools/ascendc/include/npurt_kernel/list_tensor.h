// Ascend C ListTensorDesc / TensorDesc for the sim: reading a list of tensors (a dynamic number of
// inputs) that the host laid out in global memory as
//   uint64 ptrOffset                      byte offset of the pointer array from the start
//   per tensor: uint64 (dim | index << 32), then dim uint64 shape values
//   at ptrOffset: one uint64 data address per tensor
// The descriptors fill [8, ptrOffset) and are walked in order; GetSize is their count. `length` (bytes)
// and `shapeSize` (pointers), when given, are checked against the layout; a layout that does not parse
// fails the kernel. Part of kernel_operator.h (also reached through kernel_operator_list_tensor_intf.h).
#pragma once

#include "npurt_kernel/tensor.h"

namespace AscendC {

template <class T>
class TensorDesc {
 public:
  __aicore__ inline TensorDesc() = default;
  __aicore__ inline ~TensorDesc() = default;
  // Where GetDesc writes the shape (room for the tensor's dim values).
  __aicore__ inline void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
  __aicore__ inline uint64_t GetDim() { return dim_; }
  __aicore__ inline uint64_t GetIndex() { return index_; }
  __aicore__ inline uint64_t GetShape(uint32_t offset) {
    if (shape_ == nullptr || offset >= dim_) {
      npurt_detail::Fail("TensorDesc::GetShape(%u): the tensor has %llu dimensions%s", offset,
                         static_cast<unsigned long long>(dim_), shape_ == nullptr ? " and no shape address" : "");
    }
    return shape_[offset];
  }
  __aicore__ inline T* GetDataPtr() { return data_; }
  __aicore__ inline GlobalTensor<T> GetDataObj() {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(data_);
    return g;
  }

 private:
  friend class ListTensorDesc;
  uint64_t* shape_ = nullptr;
  uint64_t dim_ = 0;
  uint64_t index_ = 0;
  T* data_ = nullptr;
};

class ListTensorDesc {
 public:
  __aicore__ inline ListTensorDesc() = default;
  __aicore__ inline ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }
  __aicore__ inline void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    base_ = static_cast<const uint64_t*>(data);
    npurt_detail::CheckGlobal(base_, 8, false, "ListTensorDesc");
    const uint64_t ptr_offset = base_[0];
    if (ptr_offset % 8 != 0 || ptr_offset < 8) {
      npurt_detail::Fail("ListTensorDesc: pointer offset %llu is not a multiple of 8 past the header",
                         static_cast<unsigned long long>(ptr_offset));
    }
    ptrs_ = base_ + ptr_offset / 8;
    npurt_detail::CheckGlobal(base_, ptr_offset, false, "ListTensorDesc");
    count_ = 0;
    for (uint64_t w = 1; w < ptr_offset / 8;) {
      const uint64_t dim = base_[w] & 0xffffffffu;
      w += 1 + dim;
      if (w > ptr_offset / 8) npurt_detail::Fail("ListTensorDesc: descriptor %u runs past the pointer array", count_);
      ++count_;
    }
    if (shapeSize != 0xffffffff && shapeSize != count_) {
      npurt_detail::Fail("ListTensorDesc: %u descriptors, shapeSize says %u", count_, shapeSize);
    }
    if (length != 0xffffffff && length != ptr_offset + uint64_t{count_} * 8) {
      npurt_detail::Fail("ListTensorDesc: the layout is %llu bytes, length says %u",
                         static_cast<unsigned long long>(ptr_offset + uint64_t{count_} * 8), length);
    }
    npurt_detail::CheckGlobal(ptrs_, uint64_t{count_} * 8, false, "ListTensorDesc");
  }
  template <class T>
  __aicore__ inline void GetDesc(TensorDesc<T>& desc, uint32_t index) {
    const uint64_t* d = Descriptor(index);
    desc.dim_ = d[0] & 0xffffffffu;
    desc.index_ = d[0] >> 32;
    if (desc.shape_ == nullptr) npurt_detail::Fail("ListTensorDesc::GetDesc: call TensorDesc::SetShapeAddr first");
    for (uint64_t i = 0; i < desc.dim_; ++i) desc.shape_[i] = d[1 + i];
    desc.data_ = GetDataPtr<T>(index);
  }
  template <class T>
  __aicore__ inline T* GetDataPtr(uint32_t index) {
    Check(index);
    return reinterpret_cast<T*>(static_cast<uintptr_t>(ptrs_[index]));
  }
  __aicore__ inline uint32_t GetSize() { return count_; }

 private:
  void Check(uint32_t index) const {
    if (base_ == nullptr) npurt_detail::Fail("ListTensorDesc: used before Init");
    if (index >= count_) npurt_detail::Fail("ListTensorDesc: index %u of %u tensors", index, count_);
  }
  const uint64_t* Descriptor(uint32_t index) const {
    Check(index);
    uint64_t w = 1;
    for (uint32_t i = 0; i < index; ++i) w += 1 + (base_[w] & 0xffffffffu);
    return base_ + w;
  }
  const uint64_t* base_ = nullptr;
  const uint64_t* ptrs_ = nullptr;
  uint32_t count_ = 0;
};

}  // namespace AscendC
