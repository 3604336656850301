// Ascend C TBufPool for the sim: a piece of the pipe's memory (unified buffer, or L1 for A1/B1/C1 pools)
// that TPipe::InitBufPool carves out, or that shares another pool's start and length, and from which
// TBufPool::InitBuffer gives queues and TBufs their buffers one after another (32-byte rounded) and
// TBufPool::InitBufPool carves (or shares) inner pools. Asking a pool for more bytes than it has, or a
// pool for more buffers than its bufIDSize, fails the kernel. Reset ends the pool's use for now: its
// buffers stay where they are (the sim has no pending events to settle).
// EXTERN_IMPL_BUFPOOL(EXT, POSITION, BUFID_SIZE) gives a user class the members of a custom pool (Init,
// Reset, GetBufHandle, GetCurAddr / SetCurAddr, GetCurBufSize / SetCurBufSize): the class places its
// queues' and TBufs' buffers itself through their InitStartBufHandle / InitBufHandle, at unified-buffer
// byte addresses inside the pool (custom pools are unified-buffer pools here).
// Part of kernel_operator.h (through pipe.h).
#pragma once

#include "npurt_kernel/pipe.h"

namespace AscendC {
namespace npurt_detail {

struct BufPoolBase {
  constexpr BufPoolBase(TPosition p, uint32_t ids) : pos(p), id_size(ids) {}

  TPosition pos;
  uint32_t id_size;
  uint8_t* base = nullptr;
  uint32_t len = 0;
  uint32_t used = 0;       // bytes handed out from the start
  uint32_t bufs = 0;       // buffers handed out (custom pools: what SetCurBufSize says)

  void CheckReady(const char* what) const {
    if (base == nullptr) Fail("%s: the TBufPool has not been set up (TPipe::InitBufPool)", what);
  }
  void InitFromPipe(uint32_t bytes) {
    if (id_size == 0 || id_size > kMaxQueueBuffers) Fail("TBufPool: bufIDSize %u (1..%u)", id_size, kMaxQueueBuffers);
    const LocalMem mem = MemOf(pos);
    base = mem == LocalMem::kUB ? CarveUnifiedBuffer(bytes, "TPipe::InitBufPool")
                                : CarveCubeBuffer(mem, bytes, "TPipe::InitBufPool");
    len = bytes;
    used = bufs = 0;
  }
  void InitShared(uint32_t bytes, const BufPoolBase& other) {
    other.CheckReady("InitBufPool (shared)");
    if (bytes > other.len) Fail("InitBufPool: a %u-byte pool cannot share a %u-byte one", bytes, other.len);
    if (id_size > other.id_size) Fail("InitBufPool: bufIDSize %u above the shared pool's %u", id_size, other.id_size);
    base = other.base;
    len = bytes;
    used = bufs = 0;
  }
  // `bytes` (32-byte rounded) for `count` buffers, from the pool's free part.
  uint8_t* Take(uint64_t bytes, uint32_t count, const char* what) {
    CheckReady(what);
    const uint64_t rounded = (bytes + 31) / 32 * 32;
    if (used + rounded > len) {
      Fail("%s: %llu bytes asked of a TBufPool with %u of its %u bytes left", what,
           static_cast<unsigned long long>(rounded), len - used, len);
    }
    if (bufs + count > id_size) Fail("%s: the TBufPool has room for %u buffers (bufIDSize)", what, id_size);
    uint8_t* p = base + used;
    used += static_cast<uint32_t>(rounded);
    bufs += count;
    return p;
  }
  // The pool's memory as unified-buffer byte addresses (custom pools).
  uint32_t UbAddress(uint32_t offset) const {
    return static_cast<uint32_t>(base + offset - static_cast<uint8_t*>(Block()->ub_base));
  }
};

inline uint8_t* PoolAddress(const BufPoolBase& pool, uint32_t addr, uint32_t len, const char* what) {
  pool.CheckReady(what);
  if (MemOf(pool.pos) != LocalMem::kUB) Fail("%s: custom TBufPools over the cube's memories are not modelled", what);
  auto* p = static_cast<uint8_t*>(Block()->ub_base) + addr;
  if (p < pool.base || p + len > pool.base + pool.len) {
    Fail("%s: %u bytes at UB address %u are outside the TBufPool [%u, %u)", what, len, addr, pool.UbAddress(0),
         pool.UbAddress(pool.len));
  }
  return p;
}

}  // namespace npurt_detail

template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
 public:
  __aicore__ inline TBufPool() = default;

  template <TPosition src, TPosition dst, int32_t depth, auto... config>
  __aicore__ inline bool InitBuffer(TQueBind<src, dst, depth, config...>& que, uint8_t num, uint32_t len) {
    if (num == 0 || num > npurt_detail::kMaxQueueBuffers) {
      npurt_detail::Fail("TBufPool::InitBuffer: %u buffers for a queue (1..%u)", num, npurt_detail::kMaxQueueBuffers);
    }
    const uint32_t rounded = (len + 31) / 32 * 32;
    que.bufs_.Init(npurt_pool_.Take(uint64_t{num} * rounded, num, "TBufPool::InitBuffer"), num, rounded);
    return true;
  }
  template <TPosition bufPos>
  __aicore__ inline bool InitBuffer(TBuf<bufPos>& buf, uint32_t len) {
    buf.base_ = npurt_pool_.Take(len, 1, "TBufPool::InitBuffer");
    buf.len_ = len;
    return true;
  }
  // An inner pool carved from this one, or sharing shareBuf's start and length.
  template <class T>
  __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len) {
    npurt_detail::BufPoolBase& inner = bufPool.npurt_pool_;
    if (inner.id_size == 0 || inner.id_size > npurt_detail::kMaxQueueBuffers) {
      npurt_detail::Fail("TBufPool: bufIDSize %u (1..%u)", inner.id_size, npurt_detail::kMaxQueueBuffers);
    }
    inner.base = npurt_pool_.Take(len, 0, "TBufPool::InitBufPool");
    inner.len = len;
    inner.used = inner.bufs = 0;
    return true;
  }
  template <class T, class U>
  __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf) {
    bufPool.npurt_pool_.InitShared(len, shareBuf.npurt_pool_);
    return true;
  }
  __aicore__ inline void Reset() {}

  npurt_detail::BufPoolBase npurt_pool_{pos, bufIDSize};
};

}  // namespace AscendC

// The members of a custom TBufPool class (see above), placed in the class's public part.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                               \
  AscendC::npurt_detail::BufPoolBase npurt_pool_{POSITION, BUFID_SIZE};                                     \
  uint8_t npurt_handles_[BUFID_SIZE] = {};                                                                  \
  __aicore__ inline void Init() {                                                                           \
    npurt_pool_.used = 0;                                                                                   \
    npurt_pool_.bufs = 0;                                                                                   \
  }                                                                                                         \
  __aicore__ inline void Reset() {                                                                          \
    npurt_pool_.used = 0;                                                                                   \
    npurt_pool_.bufs = 0;                                                                                   \
  }                                                                                                         \
  __aicore__ inline AscendC::TBufHandle GetBufHandle(uint8_t offset) {                                      \
    if (offset >= (BUFID_SIZE)) {                                                                           \
      AscendC::npurt_detail::Fail(#EXT_BUFPOOL "::GetBufHandle(%u): the pool has %u buffers", offset,      \
                                  static_cast<uint32_t>(BUFID_SIZE));                                       \
    }                                                                                                       \
    return &npurt_handles_[offset];                                                                         \
  }                                                                                                         \
  __aicore__ inline uint32_t GetCurAddr() { return npurt_pool_.UbAddress(npurt_pool_.used); }              \
  __aicore__ inline void SetCurAddr(uint32_t curAddr) {                                                     \
    npurt_pool_.CheckReady(#EXT_BUFPOOL "::SetCurAddr");                                                   \
    const uint32_t start = npurt_pool_.UbAddress(0);                                                        \
    if (curAddr < start || curAddr - start > npurt_pool_.len) {                                             \
      AscendC::npurt_detail::Fail(#EXT_BUFPOOL "::SetCurAddr(%u): outside the pool [%u, %u]", curAddr,      \
                                  start, start + npurt_pool_.len);                                          \
    }                                                                                                       \
    npurt_pool_.used = curAddr - start;                                                                     \
  }                                                                                                         \
  __aicore__ inline uint8_t GetCurBufSize() { return static_cast<uint8_t>(npurt_pool_.bufs); }             \
  __aicore__ inline void SetCurBufSize(uint8_t curBufSize) {                                                \
    if (curBufSize > (BUFID_SIZE)) {                                                                        \
      AscendC::npurt_detail::Fail(#EXT_BUFPOOL "::SetCurBufSize(%u): the pool has %u buffers", curBufSize, \
                                  static_cast<uint32_t>(BUFID_SIZE));                                       \
    }                                                                                                       \
    npurt_pool_.bufs = curBufSize;                                                                          \
  }
