// Host functions that launch the kernels of sync_kernels.cpp (built by ascendc_library) and atomic_kernels.cpp.
#pragma once

#include <cstdint>

// SyncAll (sync_kernels.cpp). Each returns the launch's aclError.
int32_t SyncTwoPhase(uint32_t blocks, void* stream, const int32_t* x, int32_t* partial, int32_t* out, uint32_t per_block,
                     uint32_t rounds);
int32_t SyncSoft(uint32_t blocks, void* stream, const int32_t* x, int32_t* partial, int32_t* out, int32_t* ws,
                 uint32_t used);
int32_t SyncTrapBeforeBarrier(uint32_t blocks, void* stream, int32_t* out, uint32_t bad_block);
int32_t SyncSkipBarrier(uint32_t blocks, void* stream, int32_t* out, uint32_t skip_block);
int32_t SyncSpinBeforeBarrier(uint32_t blocks, void* stream, int32_t* out, uint32_t spin_block);
int32_t SyncLimitedCount(uint32_t blocks, void* stream, int32_t* out);
int32_t SyncUnmarked(uint32_t blocks, void* stream, int32_t* out);

// Atomic copies to global memory (atomic_kernels.cpp): every block combines `n` elements of src (its own
// slice, src + block * n) into dst[0..n).
int32_t AtomicAddF32(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n);
int32_t AtomicAddF16(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n);
int32_t AtomicAddBf16(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n);
int32_t AtomicAddS32(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n);
int32_t AtomicAddS16(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n);
int32_t AtomicAddS8(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n);
int32_t AtomicMaxF32(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n);
int32_t AtomicMinS32(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n);
int32_t AtomicMaxF16(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n);
// DataCopyPad (byte rows, `n` not a multiple of 8) and strided DataCopy (rows of 8 floats with a gap of 8
// in global memory: dst[r * 16 + c] for c < 8) with atomic add of floats; then SetAtomicNone and a plain
// copy of block 0's slice into dst2 (atomics are off again).
int32_t AtomicAddPadF32(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t n);
int32_t AtomicAddStridedF32(uint32_t blocks, void* stream, const void* src, void* dst, uint32_t rows, void* dst2);
