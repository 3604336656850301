// Host functions of gen_launch.cpp (each returns the launch's aclError).
#pragma once

#include <cstdint>

int32_t GenScaleFloat(uint32_t blocks, void* stream, void* x, void* y, float factor, uint32_t n);
int32_t GenScaleInt(uint32_t blocks, void* stream, void* x, void* y, int32_t factor, uint32_t n);
int32_t GenPlain(uint32_t blocks, void* stream, void* out, uint32_t value);
int32_t GenInHeader(uint32_t blocks, void* stream, void* out, uint32_t value);
int32_t GenMix12(uint32_t blocks, void* stream, void* out);
int32_t GenMix10(uint32_t blocks, void* stream, void* out);
// which: 0 a __vector__ kernel, 1 a __cube__ kernel, 2 KERNEL_TYPE_AIC_ONLY; each traps.
int32_t GenTrap(int which, void* stream, void* out);
