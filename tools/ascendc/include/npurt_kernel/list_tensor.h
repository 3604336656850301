// ListTensorDesc / TensorDesc for the sim: a kernel's view of a tensor list that the host lays out in global
// memory (an operator's dynamic input, as aclnn passes it):
//
//   word 0                 ptrOffset: bytes from the list's start to its data pointers
//   then, per tensor i     one word: dim (low 32 bits) and index (high 32 bits), then dim words of shape
//   at ptrOffset           one word per tensor: the address of its data
//
// Every word is read from the list as given; a list that does not parse (a zero or out-of-range ptrOffset, a
// descriptor running past it, a length or count that disagrees with the constructor's check values, an index
// past the end) fails the kernel with what was wrong. Part of kernel_operator.h, and of
// kernel_operator_list_tensor_intf.h, where CANN declares it.
#pragma once

#include "npurt_kernel/tensor.h"

namespace AscendC {

template <class T>
class TensorDesc {
 public:
  __aicore__ TensorDesc() = default;
  // Where GetDesc writes the tensor's shape (dim words).
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
    uint64_t n = dim_ == 0 ? 0 : 1;
    for (uint64_t i = 0; i < dim_; ++i) n *= shape_[i];
    g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(data_), n);
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
  static constexpr uint32_t kMaxTensors = 1024;

  __aicore__ ListTensorDesc() = default;
  // length (the list's bytes) and shapeSize (its tensors) are checked when given.
  __aicore__ ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }
  __aicore__ inline void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    words_ = reinterpret_cast<const uint64_t*>(data);
    if (words_ == nullptr) npurt_detail::Fail("ListTensorDesc: null list address");
    const uint64_t ptr_offset = words_[0];
    if (ptr_offset < 8 || ptr_offset % 8 != 0 || ptr_offset / 8 > 1 + 2ull * kMaxTensors * 64) {
      npurt_detail::Fail("ListTensorDesc: ptrOffset %llu is not a multiple of 8 bytes past the first word",
                         static_cast<unsigned long long>(ptr_offset));
    }
    ptrs_ = ptr_offset / 8;
    count_ = 0;
    for (uint64_t pos = 1; pos < ptrs_;) {
      const uint64_t dim = words_[pos] & 0xffffffffu;
      if (count_ == kMaxTensors || pos + 1 + dim > ptrs_) {
        npurt_detail::Fail("ListTensorDesc: tensor %u's descriptor (%llu dimensions) runs past ptrOffset %llu", count_,
                           static_cast<unsigned long long>(dim), static_cast<unsigned long long>(ptr_offset));
      }
      desc_[count_++] = static_cast<uint32_t>(pos);
      pos += 1 + dim;
    }
    if (shapeSize != 0xffffffff && shapeSize != count_) {
      npurt_detail::Fail("ListTensorDesc: the list describes %u tensors, shapeSize says %u", count_, shapeSize);
    }
    if (length != 0xffffffff && length != ptr_offset + uint64_t{count_} * 8) {
      npurt_detail::Fail("ListTensorDesc: the list is %llu bytes (%u tensors), length says %u",
                         static_cast<unsigned long long>(ptr_offset + uint64_t{count_} * 8), count_, length);
    }
  }
  template <class T>
  __aicore__ inline void GetDesc(TensorDesc<T>& desc, uint32_t index) {
    Check(index, "GetDesc");
    if (desc.shape_ == nullptr) npurt_detail::Fail("ListTensorDesc::GetDesc: call TensorDesc::SetShapeAddr first");
    const uint64_t head = words_[desc_[index]];
    desc.dim_ = head & 0xffffffffu;
    desc.index_ = head >> 32;
    for (uint64_t i = 0; i < desc.dim_; ++i) desc.shape_[i] = words_[desc_[index] + 1 + i];
    desc.data_ = GetDataPtr<T>(index);
  }
  template <class T>
  __aicore__ inline T* GetDataPtr(uint32_t index) {
    Check(index, "GetDataPtr");
    return reinterpret_cast<T*>(static_cast<uintptr_t>(words_[ptrs_ + index]));
  }
  __aicore__ inline uint32_t GetSize() { return count_; }

 private:
  void Check(uint32_t index, const char* what) const {
    if (words_ == nullptr) npurt_detail::Fail("ListTensorDesc::%s: the list was not initialised", what);
    if (index >= count_) npurt_detail::Fail("ListTensorDesc::%s(%u): the list holds %u tensors", what, index, count_);
  }
  const uint64_t* words_ = nullptr;
  uint64_t ptrs_ = 0;  // word index of the data pointers
  uint32_t count_ = 0;
  uint32_t desc_[kMaxTensors] = {};
};

}  // namespace AscendC
