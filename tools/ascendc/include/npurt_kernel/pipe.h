// Ascend C memory management for the sim: TPipe carves the core's unified buffer (UB) into the buffers
// of TQue/TQueBind queues and TBuf scratch buffers (and the cube's L1/L0A/L0B/L0C/BT/FB into those of
// the cube positions, npurt_kernel/local_memory.h). The UB capacity is the simulated core's (192 KiB,
// as on Ascend 910B vector cores): asking for more fails the kernel with a clear message, as the real
// hardware would fail the launch. Part of kernel_operator.h.
//
// Queue semantics on the sim: a block runs its pipes (MTE2 copy-in, vector, MTE3 copy-out) in program
// order, so EnQue/DeQue never wait; they only move buffers between "allocated", "queued" and "free", and
// misuse that would hang a real core (allocating from an exhausted queue, dequeuing an empty one) fails
// the kernel instead.
#pragma once

#include "npurt_kernel/tensor.h"

namespace AscendC {

class TPipe;

namespace npurt_detail {

constexpr uint32_t kMaxQueueBuffers = 16;

// The buffers of one queue: `num` buffers of `len` bytes each.
class QueueBuffers {
 public:
  void Init(uint8_t* base, uint32_t num, uint32_t len) {
    base_ = base;
    num_ = num;
    len_ = len;
    for (uint32_t i = 0; i < kMaxQueueBuffers; ++i) state_[i] = kFree;
    head_ = count_ = 0;
  }
  bool initialized() const { return base_ != nullptr; }
  uint32_t len() const { return len_; }

  uint8_t* Alloc(const char* who) {
    if (base_ == nullptr) Fail("%s::AllocTensor on a queue that TPipe::InitBuffer has not set up", who);
    for (uint32_t i = 0; i < num_; ++i) {
      if (state_[i] == kFree) {
        state_[i] = kAllocated;
        return base_ + static_cast<size_t>(i) * len_;
      }
    }
    Fail("%s::AllocTensor: all %u buffers of the queue are in use (a missing FreeTensor would hang a real core)",
         who, num_);
  }
  void Free(const void* addr, const char* who) {
    const uint32_t i = Index(addr, who);
    if (state_[i] == kFree) Fail("%s::FreeTensor of a buffer that is already free", who);
    state_[i] = kFree;
  }
  void Push(const void* addr, const char* who) {
    const uint32_t i = Index(addr, who);
    if (count_ == num_) Fail("%s::EnQue: the queue already holds %u tensors", who, num_);
    state_[i] = kQueued;
    order_[(head_ + count_) % num_] = i;
    ++count_;
  }
  uint8_t* Pop(const char* who) {
    if (count_ == 0) Fail("%s::DeQue on an empty queue (a real core would wait forever)", who);
    const uint32_t i = order_[head_];
    head_ = (head_ + 1) % num_;
    --count_;
    state_[i] = kAllocated;
    return base_ + static_cast<size_t>(i) * len_;
  }
  uint32_t queued() const { return count_; }
  uint32_t vacant() const {
    uint32_t n = 0;
    for (uint32_t i = 0; i < num_; ++i) n += state_[i] == kFree ? 1u : 0u;
    return n;
  }
  void FreeAll() {
    for (uint32_t i = 0; i < num_; ++i) state_[i] = kFree;
    head_ = count_ = 0;
  }

 private:
  enum State : uint8_t { kFree, kAllocated, kQueued };
  uint32_t Index(const void* addr, const char* who) const {
    const auto off = static_cast<size_t>(static_cast<const uint8_t*>(addr) - base_);
    if (base_ == nullptr || static_cast<const uint8_t*>(addr) < base_ || off >= static_cast<size_t>(num_) * len_ ||
        off % len_ != 0) {
      Fail("%s: tensor %p is not a buffer of this queue", who, addr);
    }
    return static_cast<uint32_t>(off / len_);
  }

  uint8_t* base_ = nullptr;
  uint32_t num_ = 0;
  uint32_t len_ = 0;
  State state_[kMaxQueueBuffers] = {};
  uint32_t order_[kMaxQueueBuffers] = {};
  uint32_t head_ = 0;
  uint32_t count_ = 0;
};

// Hands out `bytes` (rounded up to 32) of the running core's unified buffer.
inline uint8_t* CarveUnifiedBuffer(uint64_t bytes, const char* what) {
  const npurt_kernel_block* b = Block();
  const uint64_t rounded = (bytes + 31) / 32 * 32;
  if (g_state.ub_used + rounded > b->ub_size) {
    Fail("%s: %llu bytes requested, but only %llu of the core's %llu-byte unified buffer are left", what,
         static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(b->ub_size - g_state.ub_used),
         static_cast<unsigned long long>(b->ub_size));
  }
  uint8_t* p = static_cast<uint8_t*>(b->ub_base) + g_state.ub_used;
  g_state.ub_used += rounded;
  return p;
}

}  // namespace npurt_detail

// A queue between two pipes (src -> dst), holding up to `depth` tensors.
template <TPosition src, TPosition dst, int32_t depth, auto... config>
class TQueBind {
 public:
  __aicore__ inline TQueBind() = default;

  template <typename T>
  __aicore__ inline LocalTensor<T> AllocTensor() {
    return LocalTensor<T>(reinterpret_cast<T*>(bufs_.Alloc("TQue")), bufs_.len() / sizeof(T), src);
  }
  template <typename T>
  __aicore__ inline void FreeTensor(LocalTensor<T>& tensor) {
    bufs_.Free(tensor.GetPhyAddr(), "TQue");
  }
  template <typename T>
  __aicore__ inline bool EnQue(const LocalTensor<T>& tensor) {
    bufs_.Push(tensor.GetPhyAddr(), "TQue");
    return true;
  }
  template <typename T>
  __aicore__ inline LocalTensor<T> DeQue() {
    return LocalTensor<T>(reinterpret_cast<T*>(bufs_.Pop("TQue")), bufs_.len() / sizeof(T), dst);
  }
  __aicore__ inline bool VacantInQue() const { return bufs_.vacant() != 0; }
  __aicore__ inline bool HasTensorInQue() const { return bufs_.queued() != 0; }
  __aicore__ inline int32_t GetTensorCountInQue() const { return static_cast<int32_t>(bufs_.queued()); }
  __aicore__ inline bool HasIdleBuffer() const { return bufs_.vacant() != 0; }
  __aicore__ inline void FreeAllEvent() {}

 private:
  friend class TPipe;
  npurt_detail::QueueBuffers bufs_;
};

template <TPosition pos, int32_t depth, auto... config>
class TQue : public TQueBind<pos, pos, depth, config...> {};

// A scratch buffer for intermediate results (no queue).
template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  __aicore__ inline TBuf() = default;

  template <typename T>
  __aicore__ inline LocalTensor<T> Get() {
    Check();
    return LocalTensor<T>(reinterpret_cast<T*>(base_), len_ / sizeof(T), pos);
  }
  template <typename T>
  __aicore__ inline LocalTensor<T> Get(uint32_t count) {
    Check();
    if (count * sizeof(T) > len_) npurt_detail::Fail("TBuf::Get(%u): the buffer holds %u bytes", count, len_);
    return LocalTensor<T>(reinterpret_cast<T*>(base_), count, pos);
  }
  // The queue-style spellings CANN's TBuf also takes (it derives from the queue class): AllocTensor is the
  // whole buffer, as Get(); FreeTensor gives nothing back (the buffer lives as long as the pipe) and checks
  // that the tensor is this buffer's.
  template <typename T>
  __aicore__ inline LocalTensor<T> AllocTensor() {
    return Get<T>();
  }
  template <typename T>
  __aicore__ inline void FreeTensor(const LocalTensor<T>& tensor) {
    Check();
    const uint8_t* p = reinterpret_cast<const uint8_t*>(tensor.GetPhyAddr());
    if (p < base_ || p >= base_ + len_) npurt_detail::Fail("TBuf::FreeTensor: the tensor is not in this buffer");
  }
  template <typename T>
  __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t count, uint32_t byte_offset) {
    Check();
    if (byte_offset + count * sizeof(T) > len_) {
      npurt_detail::Fail("TBuf::GetWithOffset(%u, %u): the buffer holds %u bytes", count, byte_offset, len_);
    }
    return LocalTensor<T>(reinterpret_cast<T*>(base_ + byte_offset), count, pos);
  }

 private:
  friend class TPipe;
  void Check() const {
    if (base_ == nullptr) npurt_detail::Fail("TBuf::Get on a buffer that TPipe::InitBuffer has not set up");
  }
  uint8_t* base_ = nullptr;
  uint32_t len_ = 0;
};

// An event ID as TPipe hands it out (SetFlag / WaitFlag take it).
using TEventID = int8_t;

// Owns the core's unified buffer for one kernel.
class TPipe {
 public:
  // A block's pipe starts with the cube memories free (the unified buffer is freed by the block's entry).
  __aicore__ inline TPipe() {
    Current() = this;
    npurt_detail::ResetCubeBuffers();
  }
  __aicore__ inline ~TPipe() {
    if (Current() == this) Current() = nullptr;
  }

  // `num` buffers of `len` bytes for a queue.
  template <TPosition src, TPosition dst, int32_t depth, auto... config>
  __aicore__ inline bool InitBuffer(TQueBind<src, dst, depth, config...>& que, uint8_t num, uint32_t len) {
    if (num == 0 || num > npurt_detail::kMaxQueueBuffers) {
      npurt_detail::Fail("TPipe::InitBuffer: %u buffers for a queue (1..%u supported)", num,
                         npurt_detail::kMaxQueueBuffers);
    }
    const uint32_t rounded = (len + 31) / 32 * 32;
    const npurt_detail::LocalMem mem = npurt_detail::QueueMemOf(src, dst);
    uint8_t* base = mem == npurt_detail::LocalMem::kUB
                        ? npurt_detail::CarveUnifiedBuffer(static_cast<uint64_t>(num) * rounded, "TPipe::InitBuffer")
                        : npurt_detail::CarveCubeBuffer(mem, static_cast<uint64_t>(num) * rounded, "TPipe::InitBuffer");
    que.bufs_.Init(base, num, rounded);
    return true;
  }
  // A scratch buffer of `len` bytes.
  template <TPosition pos>
  __aicore__ inline bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
    const npurt_detail::LocalMem mem = npurt_detail::MemOf(pos);
    buf.base_ = mem == npurt_detail::LocalMem::kUB ? npurt_detail::CarveUnifiedBuffer(len, "TPipe::InitBuffer")
                                                   : npurt_detail::CarveCubeBuffer(mem, len, "TPipe::InitBuffer");
    buf.len_ = len;
    return true;
  }
  // Gives the whole unified buffer back (queues set up before must not be used afterwards).
  __aicore__ inline void Reset() {
    npurt_detail::g_state.ub_used = 0;
    npurt_detail::ResetCubeBuffers();
  }
  __aicore__ inline void Destroy() { Reset(); }
  __aicore__ inline void Init() {}

  // Event IDs for SetFlag / WaitFlag between pipes. The sim runs a core's pipes in program order, so every
  // flag is already satisfied when it is waited for: any ID serves, and the pipe hands out 0.
  __aicore__ inline TEventID FetchEventID(HardEvent evt) {
    (void)evt;
    return 0;
  }
  template <HardEvent evt>
  __aicore__ inline TEventID FetchEventID() {
    return 0;
  }
  template <HardEvent evt>
  __aicore__ inline TEventID AllocEventID() {
    return 0;
  }
  template <HardEvent evt>
  __aicore__ inline void ReleaseEventID(TEventID id) {
    (void)id;
  }

  static TPipe*& Current() {
    static thread_local TPipe* pipe = nullptr;
    return pipe;
  }
};

__aicore__ inline TPipe* GetTPipePtr() { return TPipe::Current(); }

}  // namespace AscendC

// CANN's kernels call GetTPipePtr() without a namespace (GetTPipePtr()->FetchEventID(...)).
using AscendC::GetTPipePtr;
