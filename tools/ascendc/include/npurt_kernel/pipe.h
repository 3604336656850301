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
#include "npurt_kernel/sys_var.h"

namespace AscendC {

class TPipe;
template <TPosition pos, uint32_t bufIDSize>
class TBufPool;
// A custom TBufPool's handle of one of its buffers (EXTERN_IMPL_BUFPOOL, npurt_kernel/tbuf_pool.h).
using TBufHandle = uint8_t*;
namespace npurt_detail {
struct BufPoolBase;
uint8_t* PoolAddress(const BufPoolBase& pool, uint32_t addr, uint32_t len, const char* what);
}  // namespace npurt_detail

// The id of a hardware synchronisation event (SetFlag/WaitFlag).
using TEventID = int8_t;

namespace npurt_detail {

constexpr uint32_t kMaxQueueBuffers = 16;

// The buffers of one queue: `num` buffers of `len` bytes each.
class QueueBuffers {
 public:
  void Init(uint8_t* base, uint32_t num, uint32_t len) {
    Prepare(num, len);
    for (uint32_t i = 0; i < num; ++i) addr_[i] = base + static_cast<size_t>(i) * len;
  }
  // `num` buffers of `len` bytes whose addresses SetAddr gives one by one (a custom TBufPool's
  // InitStartBufHandle / InitBufHandle, npurt_kernel/tbuf_pool.h).
  void Prepare(uint32_t num, uint32_t len) {
    if (num == 0 || num > kMaxQueueBuffers) Fail("TQue: %u buffers (1..%u supported)", num, kMaxQueueBuffers);
    num_ = num;
    len_ = len;
    for (uint32_t i = 0; i < kMaxQueueBuffers; ++i) {
      state_[i] = kFree;
      addr_[i] = nullptr;
    }
    head_ = count_ = 0;
  }
  void SetAddr(uint32_t i, uint8_t* addr) {
    if (i >= num_) Fail("TQue: buffer %u of a queue of %u", i, num_);
    addr_[i] = addr;
  }
  bool initialized() const { return num_ != 0 && addr_[0] != nullptr; }
  uint32_t len() const { return len_; }

  uint8_t* Alloc(const char* who) {
    if (!initialized()) Fail("%s::AllocTensor on a queue that TPipe::InitBuffer has not set up", who);
    for (uint32_t i = 0; i < num_; ++i) {
      if (state_[i] == kFree) {
        if (addr_[i] == nullptr) Fail("%s::AllocTensor: buffer %u was given no address (InitBufHandle)", who, i);
        state_[i] = kAllocated;
        return addr_[i];
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
    return addr_[i];
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
    for (uint32_t i = 0; i < num_; ++i) {
      if (addr_[i] != nullptr && addr_[i] == static_cast<const uint8_t*>(addr)) return i;
    }
    Fail("%s: tensor %p is not a buffer of this queue", who, addr);
  }

  uint8_t* addr_[kMaxQueueBuffers] = {};
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

  // A custom TBufPool (EXTERN_IMPL_BUFPOOL) gives the queue `num` buffers of `len` bytes, then each its
  // address in the pool (`addr`: the unified-buffer byte address, as GetCurAddr counts).
  __aicore__ inline void InitStartBufHandle(TBufHandle /*start*/, uint8_t num, uint32_t len) { bufs_.Prepare(num, len); }
  template <class Pool>
  __aicore__ inline void InitBufHandle(Pool* pool, uint32_t index, TBufHandle /*start*/, uint32_t addr, uint32_t len) {
    bufs_.SetAddr(index, npurt_detail::PoolAddress(pool->npurt_pool_, addr, len, "TQue::InitBufHandle"));
  }

 private:
  friend class TPipe;
  template <TPosition, uint32_t>
  friend class TBufPool;
  npurt_detail::QueueBuffers bufs_;
};

template <TPosition pos, int32_t depth, auto... config>
class TQue : public TQueBind<pos, pos, depth, config...> {};

// A queue into TSCM, the part of L1 a vector core fills for the cube (Matmul operands in TPosition::TSCM).
template <TPosition pos, int32_t depth = 1, auto... config>
using TSCM = TQueBind<pos, TPosition::TSCM, depth, config...>;

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

  // A custom TBufPool (EXTERN_IMPL_BUFPOOL) gives the buffer its `len` bytes at UB byte address `addr`.
  __aicore__ inline void InitStartBufHandle(TBufHandle /*start*/, uint8_t num, uint32_t len) {
    if (num != 1) npurt_detail::Fail("TBuf::InitStartBufHandle: a TBuf has one buffer (got %u)", num);
    len_ = len;
  }
  template <class Pool>
  __aicore__ inline void InitBufHandle(Pool* pool, uint32_t index, TBufHandle /*start*/, uint32_t addr, uint32_t len) {
    if (index != 0) npurt_detail::Fail("TBuf::InitBufHandle: a TBuf has one buffer (index %u)", index);
    base_ = npurt_detail::PoolAddress(pool->npurt_pool_, addr, len, "TBuf::InitBufHandle");
    len_ = len;
  }

 private:
  friend class TPipe;
  template <TPosition, uint32_t>
  friend class TBufPool;
  void Check() const {
    if (base_ == nullptr) npurt_detail::Fail("TBuf::Get on a buffer that TPipe::InitBuffer has not set up");
  }
  uint8_t* base_ = nullptr;
  uint32_t len_ = 0;
};

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
  // A TBufPool (or a custom one, EXTERN_IMPL_BUFPOOL) of `len` bytes carved from the pipe's memory of the
  // pool's position; or sharing the start and length of `shareBuf` (len must fit in it).
  template <class T>
  __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len) {
    bufPool.npurt_pool_.InitFromPipe(len);
    return true;
  }
  template <class T, class U>
  __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf) {
    bufPool.npurt_pool_.InitShared(len, shareBuf.npurt_pool_);
    return true;
  }

  // Gives the whole unified buffer back (queues set up before must not be used afterwards).
  __aicore__ inline void Reset() {
    npurt_detail::g_state.ub_used = 0;
    npurt_detail::ResetCubeBuffers();
  }
  __aicore__ inline void Destroy() { Reset(); }
  __aicore__ inline void Init() {}

  // Event ids for SetFlag/WaitFlag: 8 per kind of HardEvent, as on the NPU. AllocEventID takes the lowest
  // free one (running out would hang a real core: the kernel fails), ReleaseEventID gives it back;
  // FetchEventID names the id AllocEventID would take, without taking it. The flags themselves do not
  // wait on the sim (base.h), so only the bookkeeping is modelled.
  template <HardEvent evt>
  __aicore__ inline TEventID AllocEventID() {
    const TEventID id = FetchEventID(evt);
    if (id < 0) npurt_detail::Fail("TPipe::AllocEventID: all 8 event ids of HardEvent %d are in use", int(evt));
    event_used_[static_cast<size_t>(evt)] |= static_cast<uint8_t>(1u << id);
    return id;
  }
  template <HardEvent evt>
  __aicore__ inline void ReleaseEventID(TEventID id) {
    if (id < 0 || id >= 8 || (event_used_[static_cast<size_t>(evt)] & (1u << id)) == 0) {
      npurt_detail::Fail("TPipe::ReleaseEventID(%d): not an id that AllocEventID handed out", int(id));
    }
    event_used_[static_cast<size_t>(evt)] &= static_cast<uint8_t>(~(1u << id));
  }
  template <HardEvent evt>
  __aicore__ inline TEventID FetchEventID() {
    return FetchEventID(evt);
  }
  __aicore__ inline TEventID FetchEventID(HardEvent evt) {
    const uint8_t used = event_used_[static_cast<size_t>(evt)];
    for (int id = 0; id < 8; ++id) {
      if ((used & (1u << id)) == 0) return static_cast<TEventID>(id);
    }
    return -1;
  }

  static TPipe*& Current() {
    static thread_local TPipe* pipe = nullptr;
    return pipe;
  }

 private:
  uint8_t event_used_[static_cast<size_t>(HardEvent::MAX)] = {};
};

__aicore__ inline TPipe* GetTPipePtr() { return TPipe::Current(); }

// PopStackBuffer: the unified buffer past everything the pipe has carved so far (the library APIs' default
// scratch space), as a tensor of whole T elements; nothing is reserved, so a later InitBuffer overlaps it, as
// on the NPU. Only the unified buffer's positions (VECIN, VECOUT, VECCALC / LCM) are modelled.
template <typename T, TPosition pos>
__aicore__ inline bool PopStackBuffer(LocalTensor<T>& popLocal) {
  static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::VECCALC,
                "PopStackBuffer: only the unified buffer's positions (VECIN, VECOUT, VECCALC / LCM) are modelled");
  const npurt_kernel_block* b = npurt_detail::Block();
  const uint64_t left = b->ub_size - npurt_detail::g_state.ub_used;
  popLocal = LocalTensor<T>(reinterpret_cast<T*>(static_cast<uint8_t*>(b->ub_base) + npurt_detail::g_state.ub_used),
                            static_cast<uint32_t>(left / sizeof(T)), pos);
  return true;
}

}  // namespace AscendC

// CANN declares GetTPipePtr outside the AscendC namespace: kernels call it unqualified.
using AscendC::GetTPipePtr;

#include "npurt_kernel/tbuf_pool.h"
