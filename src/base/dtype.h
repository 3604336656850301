// The one table of data types (aclDataType) and formats: sizes, names, conversions between the half-precision
// encodings and float, and element loads/stores in a common compute type. Every layer asks here (the C API's
// aclDataTypeSize, the runtime's built-in reduce, random-number and overflow tasks, the operators), so a
// type's size is written down once. Private to npurt.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "acl/acl_base_rt.h"

namespace npurt {

// Size in bytes of one element of the types npurt computes on: the floating types (fp16, bf16, fp32, double),
// 8- to 64-bit integers and bool; 0 for every other value (a type npurt cannot load or store).
size_t DTypeSize(int32_t dtype);
// CANN's answer for aclDataTypeSize, for any int: also the packed and narrow types that npurt only stores
// (int4 and uint1 count a byte, the fp8 family 1, complex32 4, complex128 16); 0 for ACL_DT_UNDEFINED and
// ACL_STRING; 8 for int64, uint64, double, complex64 and every other value, as CANN's default branch.
size_t AclDataTypeSize(int32_t dtype);
const char* DTypeName(int32_t dtype);
const char* FormatName(int32_t format);
bool IsFloating(int32_t dtype);  // fp32/fp16/bf16/double
bool IsInteger(int32_t dtype);
// Checks `count` elements of type `dtype` at `data` for Inf/NaN (integer types never are).
bool HasNonFinite(const void* data, size_t count, int32_t dtype);

// IEEE half <-> float (round to nearest even; Inf/NaN preserved).
inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t man = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      exp = 127 - 15 + 1;
      while ((man & 0x400) == 0) {
        man <<= 1;
        --exp;
      }
      man &= 0x3ff;
      bits = sign | (exp << 23) | (man << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (man << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (man << 13);
  }
  return std::bit_cast<float>(bits);
}

inline uint16_t FloatToHalf(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return sign | (ax > 0x7f800000u ? 0x7e00 : 0x7c00);  // NaN / Inf
  if (ax >= 0x477ff000u) return sign | 0x7c00;                                   // overflow -> Inf
  if (ax < 0x38800000u) {                                                         // subnormal or zero
    // Adding 0.5 (as float) aligns the mantissa so the FPU rounds to the half subnormal grid.
    const float r = std::bit_cast<float>(ax) + 0.5f;
    return sign | static_cast<uint16_t>(std::bit_cast<uint32_t>(r) - 0x3f000000u);
  }
  const uint32_t odd = (ax >> 13) & 1;
  return sign | static_cast<uint16_t>((ax + 0xc8000fffu + odd) >> 13);
}

inline float Bf16ToFloat(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

inline uint16_t FloatToBf16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40);  // quiet NaN
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

// Loads element i of a buffer of `dtype` as double / stores a double (with the dtype's rounding and,
// for integers, saturation-free C conversion after truncation toward zero).
double LoadAsDouble(const void* base, int32_t dtype, size_t i);
void StoreFromDouble(void* base, int32_t dtype, size_t i, double v);

}  // namespace npurt
