// Host functions of kernel_cts_chevron.cpp: each launches its kernel with <<<>>> and returns the
// launch's aclError.
#pragma once

#include <cstdint>

int32_t CtsChevronFill(uint32_t blocks, void* stream, uint32_t* out, uint32_t base);
int32_t CtsChevronScale(uint32_t blocks, void* stream, float* data, float factor, uint32_t n);
int32_t CtsChevronTrap(void* stream, uint32_t* out);
