// Entry points: data buffers, data type sizes, fp16/bf16 conversions. Usable before aclInit.
#include <cmath>
#include <cstring>
#include <mutex>
#include <unordered_set>

#include "acl/acl.h"
#include "api/api_common.h"
#include "api/mdl_common.h"
#include "base/dtype.h"

struct aclDataBuffer {
  void* data;
  size_t size;
};

namespace {

// Data buffers are plain structs the user holds; a registry lets destroy/update reject pointers that
// are not live buffers instead of freeing foreign memory.
std::mutex g_buffers_mu;
std::unordered_set<const aclDataBuffer*>& Buffers() {
  static auto* s = new std::unordered_set<const aclDataBuffer*>();
  return *s;
}

bool IsBuffer(const aclDataBuffer* b) {
  std::lock_guard<std::mutex> lock(g_buffers_mu);
  return Buffers().count(b) != 0;
}

}  // namespace

namespace npurt::api::mdl {
bool DataBufferLive(const aclDataBuffer* b) { return b != nullptr && IsBuffer(b); }
}  // namespace npurt::api::mdl

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  NPURT_HANDLE_SCOPE();
  auto* b = new aclDataBuffer{data, size};
  std::lock_guard<std::mutex> lock(g_buffers_mu);
  Buffers().insert(b);
  return b;
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(dataBuffer);
  {
    std::lock_guard<std::mutex> lock(g_buffers_mu);
    if (Buffers().erase(dataBuffer) == 0) {
      return npurt::api::Report(__func__, npurt::Err(ACL_ERROR_INVALID_PARAM,
                                                     "{} is not a live data buffer", static_cast<const void*>(dataBuffer)));
    }
  }
  delete dataBuffer;
  return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(dataBuffer);
  if (!IsBuffer(dataBuffer)) {
    return npurt::api::Report(__func__, npurt::Err(ACL_ERROR_INVALID_PARAM, "{} is not a live data buffer",
                                                   static_cast<const void*>(dataBuffer)));
  }
  dataBuffer->data = data;
  dataBuffer->size = size;
  return ACL_SUCCESS;
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  NPURT_HANDLE_SCOPE();
  if (dataBuffer == nullptr || !IsBuffer(dataBuffer)) return nullptr;
  return dataBuffer->data;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
  NPURT_HANDLE_SCOPE();
  if (dataBuffer == nullptr || !IsBuffer(dataBuffer)) return 0;
  return static_cast<uint32_t>(dataBuffer->size);
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  NPURT_HANDLE_SCOPE();
  if (dataBuffer == nullptr || !IsBuffer(dataBuffer)) return 0;
  return dataBuffer->size;
}

size_t aclDataTypeSize(aclDataType dataType) {
  NPURT_HANDLE_SCOPE();
  // Any int may come through the C ABI: the raw value (loading it as the enum is undefined).
  return npurt::AclDataTypeSize(npurt::RawEnum(dataType));
}

// fp16 conversions follow the saturating behaviour of current CANN: NaN and +-Inf become +-65504 when
// converting to fp16, and an fp16 with the all-ones exponent is read as a normal number.
float aclFloat16ToFloat(aclFloat16 value) {
  NPURT_HANDLE_SCOPE();
  const uint32_t sign = (value >> 15) & 1u;
  const uint32_t exp = (value >> 10) & 0x1fu;
  const uint32_t mant = value & 0x3ffu;
  float magnitude;
  if (exp == 0) {
    magnitude = std::ldexp(static_cast<float>(mant), -24);
  } else {
    magnitude = std::ldexp(static_cast<float>(mant | 0x400u), static_cast<int>(exp) - 25);
  }
  return sign ? -magnitude : magnitude;
}

aclFloat16 aclFloatToFloat16(float value) {
  NPURT_HANDLE_SCOPE();
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  if (std::isnan(value) || std::isinf(value)) return static_cast<aclFloat16>(sign | 0x7bffu);
  const float a = std::fabs(value);
  if (a >= 65520.0f) return static_cast<aclFloat16>(sign | 0x7bffu);  // beyond fp16 max: saturate
  // Round to nearest even through the float's bits.
  int32_t exp = static_cast<int32_t>((bits >> 23) & 0xffu) - 127 + 15;
  uint32_t mant = bits & 0x7fffffu;
  if (exp <= 0) {
    if (exp < -10) return sign;  // underflows to zero
    mant |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1);
    const uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return static_cast<aclFloat16>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;  // may carry into the exponent: correct
  return static_cast<aclFloat16>(sign | half);
}
