// Kernels of the conformance suite's kernel tests (built into a fatbin with ascendc_fatbin_library):
// block indexing, argument packing, the launch paths, printing, and ordering/concurrency probes.
#include <time.h>

#include "kernel_operator.h"

extern "C" __global__ __aicore__ void cts_empty() {}

// out[3 * i ...] = {GetBlockIdx(), GetBlockNum(), block_idx} for block i (block index minus offset).
extern "C" __global__ __aicore__ void cts_block_ids(__gm__ uint32_t* out, uint32_t offset) {
  const int64_t idx = AscendC::GetBlockIdx();
  __gm__ uint32_t* slot = out + 3 * (idx - offset);
  slot[0] = static_cast<uint32_t>(idx);
  slot[1] = static_cast<uint32_t>(AscendC::GetBlockNum());
  slot[2] = static_cast<uint32_t>(block_idx);
}

// Every parameter written back, byte for byte, in order, to `out` (packing of mixed widths).
extern "C" __global__ __aicore__ void cts_mixed_args(__gm__ uint8_t* out, uint8_t a, int16_t b, uint32_t c,
                                                     uint64_t d, float e, __gm__ int32_t* ptr, double f, int8_t g) {
  size_t off = 0;
  auto put = [&](const void* p, size_t n) {
    for (size_t i = 0; i < n; ++i) out[off + i] = static_cast<const uint8_t*>(p)[i];
    off += n;
  };
  put(&a, sizeof a);
  put(&b, sizeof b);
  put(&c, sizeof c);
  put(&d, sizeof d);
  put(&e, sizeof e);
  put(&ptr, sizeof ptr);
  put(&f, sizeof f);
  put(&g, sizeof g);
  ptr[0] = 0x5eed;  // the pointer parameter is usable as device memory
}

// z = x + y over n floats, blocks taking equal contiguous slices (plain scalar loop).
extern "C" __global__ __aicore__ void cts_vec_add(__gm__ float* x, __gm__ float* y, __gm__ float* z, uint32_t n) {
  const uint64_t blocks = AscendC::GetBlockNum();
  const uint64_t per = (n + blocks - 1) / blocks;
  const uint64_t begin = per * AscendC::GetBlockIdx();
  const uint64_t end = begin + per < n ? begin + per : n;
  for (uint64_t i = begin; i < end; ++i) z[i] = x[i] + y[i];
}

// The tiled half-precision add of the CANN samples, with the total length and tile count passed through
// placeholders (pointers to device copies of host values).
namespace {
constexpr int32_t kBufferNum = 2;
class TiledAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tiles) {
    block_len_ = total / AscendC::GetBlockNum();
    tiles_ = tiles;
    tile_len_ = block_len_ / tiles / kBufferNum;
    x_.SetGlobalBuffer((__gm__ half*)x + block_len_ * AscendC::GetBlockIdx(), block_len_);
    y_.SetGlobalBuffer((__gm__ half*)y + block_len_ * AscendC::GetBlockIdx(), block_len_);
    z_.SetGlobalBuffer((__gm__ half*)z + block_len_ * AscendC::GetBlockIdx(), block_len_);
    pipe_.InitBuffer(in_x_, kBufferNum, tile_len_ * sizeof(half));
    pipe_.InitBuffer(in_y_, kBufferNum, tile_len_ * sizeof(half));
    pipe_.InitBuffer(out_z_, kBufferNum, tile_len_ * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tiles_ * kBufferNum; ++i) {
      AscendC::LocalTensor<half> x = in_x_.AllocTensor<half>();
      AscendC::LocalTensor<half> y = in_y_.AllocTensor<half>();
      AscendC::DataCopy(x, x_[i * tile_len_], tile_len_);
      AscendC::DataCopy(y, y_[i * tile_len_], tile_len_);
      in_x_.EnQue(x);
      in_y_.EnQue(y);
      AscendC::LocalTensor<half> xi = in_x_.DeQue<half>();
      AscendC::LocalTensor<half> yi = in_y_.DeQue<half>();
      AscendC::LocalTensor<half> z = out_z_.AllocTensor<half>();
      AscendC::Add(z, xi, yi, tile_len_);
      out_z_.EnQue<half>(z);
      in_x_.FreeTensor(xi);
      in_y_.FreeTensor(yi);
      AscendC::LocalTensor<half> zo = out_z_.DeQue<half>();
      AscendC::DataCopy(z_[i * tile_len_], zo, tile_len_);
      out_z_.FreeTensor(zo);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> in_x_, in_y_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> out_z_;
  AscendC::GlobalTensor<half> x_, y_, z_;
  uint32_t block_len_ = 0, tiles_ = 0, tile_len_ = 0;
};
}  // namespace

extern "C" __global__ __aicore__ void cts_tiled_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, __gm__ int32_t* total,
                                                    __gm__ int32_t* tiles) {
  TiledAdd op;
  op.Init(x, y, z, static_cast<uint32_t>(*total), static_cast<uint32_t>(*tiles));
  op.Process();
}

// Prints one line per block, and a line split over two printf calls.
extern "C" __global__ __aicore__ void cts_print(uint32_t value) {
  AscendC::printf("value %u from block %ld of %ld\n", value, static_cast<long>(AscendC::GetBlockIdx()),
                  static_cast<long>(AscendC::GetBlockNum()));
  AscendC::printf("split ");
  AscendC::printf("line %u\n", value + 1);
}

// Ordering probe: waits `spins` iterations, then stores `value` to *word (release).
extern "C" __global__ __aicore__ void cts_store_after(__gm__ uint32_t* word, uint32_t value, uint64_t spins) {
  volatile uint64_t sink = 0;
  for (uint64_t i = 0; i < spins; ++i) sink = sink + i;
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

// Ordering probe: copies *word to *out when it starts.
extern "C" __global__ __aicore__ void cts_load(__gm__ uint32_t* word, __gm__ uint32_t* out) {
  *out = __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

// Concurrency probe: raises flags[me], then waits (bounded) for flags[1 - me]; result[me] = 1 if it saw it.
extern "C" __global__ __aicore__ void cts_rendezvous(__gm__ uint32_t* flags, __gm__ uint32_t* result, uint32_t me,
                                                     uint64_t max_ns) {
  __atomic_store_n(flags + me, 1u, __ATOMIC_RELEASE);
  timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    if (__atomic_load_n(flags + (1 - me), __ATOMIC_ACQUIRE) != 0) {
      result[me] = 1;
      return;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    const uint64_t ns = static_cast<uint64_t>(now.tv_sec - start.tv_sec) * 1000000000ull + now.tv_nsec - start.tv_nsec;
    if (ns > max_ns) {
      result[me] = 2;
      return;
    }
  }
}

// Raises *started (a 64-bit word, for aclrtValueWait), then runs until *stop becomes non-zero.
extern "C" __global__ __aicore__ void cts_spin_started(__gm__ uint64_t* started, __gm__ uint32_t* stop) {
  if (AscendC::GetBlockIdx() == 0) __atomic_store_n(started, uint64_t{1}, __ATOMIC_RELEASE);
  while (__atomic_load_n(stop, __ATOMIC_ACQUIRE) == 0) {
  }
}

// Runs until *stop becomes non-zero (the timeout tests never set it).
extern "C" __global__ __aicore__ void cts_spin(__gm__ uint32_t* stop) {
  while (__atomic_load_n(stop, __ATOMIC_ACQUIRE) == 0) {
  }
}
