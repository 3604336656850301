// Host functions of kernel_cts_chevron.cpp: each launches its kernel with <<<>>> and returns the
// launch's aclError.
#pragma once

#include <cstdint>

// A tiling structure passed by value to cts_chevron_tiled: aclrtlaunch_cts_chevron_tiled takes it by pointer, as
// CANN's generated launchers take struct parameters; <<<>>> takes it as the kernel does, by value.
struct CtsChevronTiling {
  uint32_t base;
  uint32_t step;
};

int32_t CtsChevronFill(uint32_t blocks, void* stream, uint32_t* out, uint32_t base);
int32_t CtsChevronTiled(uint32_t blocks, void* stream, uint32_t* out, CtsChevronTiling tiling);
int32_t CtsChevronScale(uint32_t blocks, void* stream, float* data, float factor, uint32_t n);
int32_t CtsChevronTrap(void* stream, uint32_t* out);
