// Ascend C tensors for the sim: GlobalTensor (global memory = device memory) and LocalTensor (a piece of
// the core's unified buffer). Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/base.h"
#include "npurt_kernel/int4b.h"

namespace AscendC {

// A tensor's layout and shape as the library APIs read it (LocalTensor::SetShapeInfo): the shape the data
// is stored in and the original (valid) shape, up to K_MAX_SHAPE_DIM dimensions each.
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
constexpr uint32_t K_MAX_SHAPE_DIM = 8;

struct ShapeInfo {
  __aicore__ inline ShapeInfo() = default;
  __aicore__ inline ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[], uint8_t inputOriginalShapeDim,
                              const uint32_t inputOriginalShape[], DataFormat inputFormat)
      : shapeDim(inputShapeDim), originalShapeDim(inputOriginalShapeDim), dataFormat(inputFormat) {
    if (inputShapeDim > K_MAX_SHAPE_DIM || inputOriginalShapeDim > K_MAX_SHAPE_DIM) {
      npurt_detail::Fail("ShapeInfo: %u / %u dimensions, at most %u", inputShapeDim, inputOriginalShapeDim,
                         K_MAX_SHAPE_DIM);
    }
    for (uint8_t i = 0; i < inputShapeDim; ++i) shape[i] = inputShape[i];
    for (uint8_t i = 0; i < inputOriginalShapeDim; ++i) originalShape[i] = inputOriginalShape[i];
  }
  // The original shape is the shape.
  __aicore__ inline ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[], DataFormat inputFormat)
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
  __aicore__ inline ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[])
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, DataFormat::ND) {}

  uint8_t shapeDim = 0;
  uint8_t originalShapeDim = 0;
  uint32_t shape[K_MAX_SHAPE_DIM] = {};
  uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;
};

// L2 cache hints (GlobalTensor::SetL2CacheHint): the sim has no L2 cache, so they are accepted and change
// nothing. CacheRwMode is reserved by CANN (only the default is meaningful).
enum class CacheMode : uint8_t { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1 };
enum CacheRwMode { READ = 1, WRITE = 2, RW = 3 };

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;

  __aicore__ inline GlobalTensor() = default;

  // Points the tensor at `size` elements of device memory (size 0: unknown extent).
  __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer, uint64_t size) {
    addr_ = buffer;
    size_ = size;
  }
  __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer) { SetGlobalBuffer(buffer, 0); }

  __aicore__ inline __gm__ T* GetPhyAddr() const { return addr_; }
  __aicore__ inline __gm__ T* GetPhyAddr(uint64_t offset) const { return (*this)[offset].addr_; }
  __aicore__ inline uint64_t GetSize() const { return size_; }

  // The tensor starting `offset` elements further.
  __aicore__ inline GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor t;
    if constexpr (npurt_detail::kIsInt4<T>) {  // two elements a byte: a sub-tensor starts on a byte
      if (offset % 2 != 0) {
        npurt_detail::Fail("GlobalTensor<int4b_t>[%llu]: an odd offset is inside a byte",
                           static_cast<unsigned long long>(offset));
      }
      t.addr_ = addr_ + offset / 2;
    } else {
      t.addr_ = addr_ + offset;
    }
    t.size_ = size_ > offset ? size_ - offset : 0;
    return t;
  }

  __aicore__ inline T GetValue(uint64_t offset) const {
    static_assert(!npurt_detail::kIsInt4<T>, "GlobalTensor<int4b_t>::GetValue is not modelled on the sim");
    npurt_detail::CheckGlobal(addr_ + offset, sizeof(T), false, "GlobalTensor::GetValue");
    return addr_[offset];
  }
  __aicore__ inline void SetValue(uint64_t offset, T value) const {
    static_assert(!npurt_detail::kIsInt4<T>, "GlobalTensor<int4b_t>::SetValue is not modelled on the sim");
    npurt_detail::CheckGlobal(addr_ + offset, sizeof(T), true, "GlobalTensor::SetValue");
    addr_[offset] = value;
  }
  __aicore__ inline T& operator()(uint64_t offset) const {
    static_assert(!npurt_detail::kIsInt4<T>, "GlobalTensor<int4b_t>::operator() is not modelled on the sim");
    return addr_[offset];
  }

  // L2 cache policy hints have no effect on the sim.
  template <CacheRwMode rwMode = CacheRwMode::RW>
  __aicore__ inline void SetL2CacheHint(CacheMode mode) {
    (void)mode;
  }

 private:
  __gm__ T* addr_ = nullptr;
  uint64_t size_ = 0;
};

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;

  __aicore__ inline LocalTensor() = default;
  __aicore__ inline LocalTensor(T* addr, uint32_t size, TPosition pos = TPosition::VECCALC)
      : addr_(addr), size_(size), pos_(pos) {}
  // Static-tensor programming: `length` elements at byte `address` of the unified buffer (checked against it;
  // npurt_kernel/static_tensor.h).
  __aicore__ inline LocalTensor(TPosition pos, uint32_t address, uint32_t length);

  __aicore__ inline T* GetPhyAddr() const { return addr_; }
  __aicore__ inline T* GetPhyAddr(uint32_t offset) const { return (*this)[offset].addr_; }
  // Elements in the tensor.
  __aicore__ inline uint32_t GetSize() const { return size_; }
  __aicore__ inline uint32_t GetLength() const {
    return static_cast<uint32_t>(uint64_t{size_} * npurt_detail::kElemBits<T> / 8);
  }
  __aicore__ inline void SetSize(uint32_t size) { size_ = size; }
  __aicore__ inline TPosition GetPosition() const { return pos_; }

  __aicore__ inline LocalTensor operator[](uint32_t offset) const {
    if constexpr (npurt_detail::kIsInt4<T>) {  // two elements a byte: a sub-tensor starts on a byte
      if (offset % 2 != 0) npurt_detail::Fail("LocalTensor<int4b_t>[%u]: an odd offset is inside a byte", offset);
      return LocalTensor(addr_ + offset / 2, size_ > offset ? size_ - offset : 0, pos_);
    } else {
      return LocalTensor(addr_ + offset, size_ > offset ? size_ - offset : 0, pos_);
    }
  }

  __aicore__ inline T GetValue(uint32_t offset) const {
    static_assert(!npurt_detail::kIsInt4<T>, "LocalTensor<int4b_t>::GetValue is not modelled on the sim");
    if (offset >= size_) npurt_detail::Fail("LocalTensor::GetValue(%u) past the tensor's %u elements", offset, size_);
    return addr_[offset];
  }
  __aicore__ inline void SetValue(uint32_t offset, T value) const {
    static_assert(!npurt_detail::kIsInt4<T>, "LocalTensor<int4b_t>::SetValue is not modelled on the sim");
    if (offset >= size_) npurt_detail::Fail("LocalTensor::SetValue(%u) past the tensor's %u elements", offset, size_);
    addr_[offset] = value;
  }
  __aicore__ inline T& operator()(uint32_t offset) const {
    static_assert(!npurt_detail::kIsInt4<T>, "LocalTensor<int4b_t>::operator() is not modelled on the sim");
    return addr_[offset];
  }

  // The same buffer seen as elements of another type.
  template <typename U>
  __aicore__ inline LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(reinterpret_cast<U*>(addr_),
                          static_cast<uint32_t>(uint64_t{size_} * npurt_detail::kElemBits<T> / npurt_detail::kElemBits<U>),
                          pos_);
  }

  // The shape the library APIs read (AscendAntiQuant's scale shape, RmsNorm's input ...): part of the tensor
  // object (a copy carries it; operator[] and ReinterpretCast views start without one).
  __aicore__ inline void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_info_ = shapeInfo; }
  __aicore__ inline ShapeInfo GetShapeInfo() const { return shape_info_; }

 private:
  T* addr_ = nullptr;
  uint32_t size_ = 0;
  TPosition pos_ = TPosition::VECCALC;
  ShapeInfo shape_info_;
};

}  // namespace AscendC
