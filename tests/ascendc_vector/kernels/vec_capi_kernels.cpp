// Test kernels of Ascend C's C API (c_api/asc_simd.h): `__ubuf__` arrays, byte and burst copies, the count
// and high-dimension (repeat / stride / mask register) forms of the vector functions. Each block takes its
// own `n`-element slice of the global buffers.
#include "c_api/asc_simd.h"

constexpr uint32_t kCapiMax = 2048;  // elements of one block's slice (a multiple of 64)

// z = op(x, y) in count form (op: 0 add, 1 sub, 2 mul, 3 div, 4 max, 5 min; +8: the *_sync form).
extern "C" __global__ __aicore__ void capi_binary_f32(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n, uint32_t op) {
  asc_init();
  __ubuf__ float xl[kCapiMax];
  __ubuf__ float yl[kCapiMax];
  __ubuf__ float zl[kCapiMax];
  const int64_t off = asc_get_block_idx() * n;
  asc_copy_gm2ub_sync(xl, reinterpret_cast<__gm__ float*>(x) + off, n * sizeof(float));
  asc_copy_gm2ub_sync(yl, reinterpret_cast<__gm__ float*>(y) + off, n * sizeof(float));
  switch (op) {
    case 0: asc_add(zl, xl, yl, n); break;
    case 1: asc_sub(zl, xl, yl, n); break;
    case 2: asc_mul(zl, xl, yl, n); break;
    case 3: asc_div(zl, xl, yl, n); break;
    case 4: asc_max(zl, xl, yl, n); break;
    case 5: asc_min(zl, xl, yl, n); break;
    case 8: asc_add_sync(zl, xl, yl, n); break;
    default: asc_mul_sync(zl, xl, yl, n); break;
  }
  asc_sync();
  asc_copy_ub2gm_sync(reinterpret_cast<__gm__ float*>(z) + off, zl, n * sizeof(float));
}

// z = x + y in half (count form), in place: x's array receives the sum.
extern "C" __global__ __aicore__ void capi_add_f16(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
  asc_init();
  __ubuf__ half xl[kCapiMax];
  __ubuf__ half yl[kCapiMax];
  asc_copy_gm2ub(xl, reinterpret_cast<__gm__ half*>(x), n * sizeof(half));
  asc_copy_gm2ub(yl, reinterpret_cast<__gm__ half*>(y), n * sizeof(half));
  asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0);
  asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0);
  asc_add(xl, xl, yl, n);
  asc_copy_ub2gm(reinterpret_cast<__gm__ half*>(z), xl, n * sizeof(half));
}

// z (holding its initial values) = x + y in the high-dimension form: `repeat` repeats with the strides, under
// the mask register (mask_high, mask_low).
extern "C" __global__ __aicore__ void capi_add_level0(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n, uint32_t repeat,
                                                      uint32_t blk, uint32_t rep, uint64_t mask_high,
                                                      uint64_t mask_low) {
  asc_init();
  __ubuf__ float xl[kCapiMax];
  __ubuf__ float yl[kCapiMax];
  __ubuf__ float zl[kCapiMax];
  asc_copy_gm2ub(xl, reinterpret_cast<__gm__ float*>(x), n * sizeof(float));
  asc_copy_gm2ub(yl, reinterpret_cast<__gm__ float*>(y), n * sizeof(float));
  asc_copy_gm2ub(zl, reinterpret_cast<__gm__ float*>(z), n * sizeof(float));
  asc_set_vector_mask(mask_high, mask_low);
  asc_add(zl, xl, yl, static_cast<uint8_t>(repeat), blk, blk, blk, rep, rep, rep);
  asc_copy_ub2gm(reinterpret_cast<__gm__ float*>(z), zl, n * sizeof(float));
}

// z = f(x) (op: 0 add_scalar, 1 mul_scalar, 2 max_scalar, 3 exp, 4 relu, 5 abs, 6 sqrt of |x|, 7 duplicate).
extern "C" __global__ __aicore__ void capi_unary_f32(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t op, float v) {
  asc_init();
  __ubuf__ float xl[kCapiMax];
  __ubuf__ float zl[kCapiMax];
  asc_copy_gm2ub_sync(xl, reinterpret_cast<__gm__ float*>(x), n * sizeof(float));
  switch (op) {
    case 0: asc_add_scalar(zl, xl, v, n); break;
    case 1: asc_mul_scalar(zl, xl, v, n); break;
    case 2: asc_max_scalar_sync(zl, xl, v, n); break;
    case 3: asc_exp(zl, xl, n); break;
    case 4: asc_relu(zl, xl, n); break;
    case 5: asc_abs(zl, xl, n); break;
    case 6: asc_abs(xl, xl, n); asc_sqrt_sync(zl, xl, n); break;
    default: asc_duplicate(zl, v, n); break;
  }
  asc_copy_ub2gm_sync(reinterpret_cast<__gm__ float*>(z), zl, n * sizeof(float));
}

// Burst copies: n_burst bursts of burst_len 32-byte blocks from x with src_gap blocks between them into the UB
// (dst_gap between them there), then back to z contiguously-with-gaps in the same pattern.
extern "C" __global__ __aicore__ void capi_burst_copy(GM_ADDR x, GM_ADDR z, uint32_t n_burst, uint32_t burst_len,
                                                      uint32_t src_gap, uint32_t dst_gap) {
  asc_init();
  __ubuf__ float ub[kCapiMax];
  asc_duplicate(ub, -1.0f, kCapiMax);
  asc_copy_gm2ub(ub, reinterpret_cast<__gm__ float*>(x), static_cast<uint16_t>(n_burst),
                 static_cast<uint16_t>(burst_len), static_cast<uint16_t>(src_gap), static_cast<uint16_t>(dst_gap));
  asc_copy_ub2gm(reinterpret_cast<__gm__ float*>(z), ub, kCapiMax * sizeof(float));
}

// Reads past the end of a `__ubuf__` array's thread stack: the kernel fails with the function's name.
extern "C" __global__ __aicore__ void capi_bad_pointer(GM_ADDR x) {
  asc_init();
  __ubuf__ float xl[64];
  asc_copy_gm2ub_sync(xl, reinterpret_cast<__gm__ float*>(x), 64 * sizeof(float));
  asc_add(xl, xl, reinterpret_cast<__ubuf__ float*>(x), 64);  // x is global memory, not a local operand
}
