// Host function of cube_sparse_kernels.cpp: LoadDataWithSparse and MmadWithSparse.
#pragma once

#include <cstdint>

// a: A (int8) in L0A's zZ layout (m aligned to 16 rows, k aligned to 32 columns); b: the dense B (k / 2 rows)
// in zN; idx: its index matrix (128 bytes per B fractal); c: the m x n int32 result in NZ (m aligned to 16).
// twice: a second MmadWithSparse with cmatrixInitVal false (C = 2 A x B).
int32_t CubeSparseMm(void* stream, void* a, void* b, void* idx, void* c, uint32_t m, uint32_t n, uint32_t k,
                     uint32_t twice);
