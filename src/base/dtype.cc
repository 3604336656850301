#include "base/dtype.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace npurt {

size_t DTypeSize(int32_t dtype) {
  switch (dtype) {
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: return 8;
    default: return 0;
  }
}

size_t AclDataTypeSize(int32_t dtype) {
  switch (dtype) {
    case ACL_DT_UNDEFINED: case ACL_STRING: return 0;
    case ACL_INT4: case ACL_UINT1: case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0: return 1;
    case ACL_COMPLEX32: return 4;
    case ACL_COMPLEX128: return 16;
    default: {
      const size_t size = DTypeSize(dtype);
      return size != 0 ? size : 8;
    }
  }
}

const char* DTypeName(int32_t dtype) {
  switch (dtype) {
    case ACL_FLOAT: return "float32";
    case ACL_FLOAT16: return "float16";
    case ACL_BF16: return "bfloat16";
    case ACL_INT8: return "int8";
    case ACL_INT16: return "int16";
    case ACL_INT32: return "int32";
    case ACL_INT64: return "int64";
    case ACL_UINT8: return "uint8";
    case ACL_UINT16: return "uint16";
    case ACL_UINT32: return "uint32";
    case ACL_UINT64: return "uint64";
    case ACL_DOUBLE: return "float64";
    case ACL_BOOL: return "bool";
    case ACL_DT_UNDEFINED: return "undefined";
    default: return "an unsupported data type";
  }
}

const char* FormatName(int32_t format) {
  switch (format) {
    case ACL_FORMAT_ND: return "ND";
    case ACL_FORMAT_NCHW: return "NCHW";
    case ACL_FORMAT_NHWC: return "NHWC";
    case ACL_FORMAT_NC: return "NC";
    case ACL_FORMAT_NCL: return "NCL";
    case ACL_FORMAT_HWCN: return "HWCN";
    case ACL_FORMAT_NCDHW: return "NCDHW";
    case ACL_FORMAT_NDHWC: return "NDHWC";
    case ACL_FORMAT_NC1HWC0: return "NC1HWC0";
    case ACL_FORMAT_FRACTAL_Z: return "FRACTAL_Z";
    case ACL_FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
    case ACL_FORMAT_UNDEFINED: return "UNDEFINED";
    default: return "an unsupported format";
  }
}

bool IsFloating(int32_t dtype) {
  return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16 || dtype == ACL_DOUBLE;
}

bool IsInteger(int32_t dtype) {
  switch (dtype) {
    case ACL_INT8: case ACL_INT16: case ACL_INT32: case ACL_INT64:
    case ACL_UINT8: case ACL_UINT16: case ACL_UINT32: case ACL_UINT64: return true;
    default: return false;
  }
}

namespace {
// Element i of a typed buffer that need not be aligned for T (a scalar's value bytes, a host argument).
template <typename T>
T Load(const void* base, size_t i) {
  T v;
  std::memcpy(&v, static_cast<const uint8_t*>(base) + i * sizeof(T), sizeof(T));
  return v;
}
}  // namespace

double LoadAsDouble(const void* base, int32_t dtype, size_t i) {
  switch (dtype) {
    case ACL_FLOAT: return Load<float>(base, i);
    case ACL_FLOAT16: return HalfToFloat(Load<uint16_t>(base, i));
    case ACL_BF16: return Bf16ToFloat(Load<uint16_t>(base, i));
    case ACL_DOUBLE: return Load<double>(base, i);
    case ACL_INT8: return Load<int8_t>(base, i);
    case ACL_INT16: return Load<int16_t>(base, i);
    case ACL_INT32: return Load<int32_t>(base, i);
    case ACL_INT64: return static_cast<double>(Load<int64_t>(base, i));
    case ACL_UINT8: return Load<uint8_t>(base, i);
    case ACL_UINT16: return Load<uint16_t>(base, i);
    case ACL_UINT32: return Load<uint32_t>(base, i);
    case ACL_UINT64: return static_cast<double>(Load<uint64_t>(base, i));
    case ACL_BOOL: return Load<uint8_t>(base, i) != 0 ? 1.0 : 0.0;
    default: return 0.0;
  }
}

namespace {
// Float-to-integer conversion that never invokes undefined behaviour: NaN -> 0, out of range clamps.
template <typename I>
I ToInt(double v) {
  if (std::isnan(v)) return 0;
  constexpr double lo = static_cast<double>(std::numeric_limits<I>::min());
  constexpr double hi = static_cast<double>(std::numeric_limits<I>::max());
  if (v <= lo) return std::numeric_limits<I>::min();
  if (v >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}
}  // namespace

void StoreFromDouble(void* base, int32_t dtype, size_t i, double v) {
  switch (dtype) {
    case ACL_FLOAT: static_cast<float*>(base)[i] = static_cast<float>(v); break;
    case ACL_FLOAT16: static_cast<uint16_t*>(base)[i] = FloatToHalf(static_cast<float>(v)); break;
    case ACL_BF16: static_cast<uint16_t*>(base)[i] = FloatToBf16(static_cast<float>(v)); break;
    case ACL_DOUBLE: static_cast<double*>(base)[i] = v; break;
    case ACL_INT8: static_cast<int8_t*>(base)[i] = ToInt<int8_t>(v); break;
    case ACL_INT16: static_cast<int16_t*>(base)[i] = ToInt<int16_t>(v); break;
    case ACL_INT32: static_cast<int32_t*>(base)[i] = ToInt<int32_t>(v); break;
    case ACL_INT64: static_cast<int64_t*>(base)[i] = ToInt<int64_t>(v); break;
    case ACL_UINT8: static_cast<uint8_t*>(base)[i] = ToInt<uint8_t>(v); break;
    case ACL_UINT16: static_cast<uint16_t*>(base)[i] = ToInt<uint16_t>(v); break;
    case ACL_UINT32: static_cast<uint32_t*>(base)[i] = ToInt<uint32_t>(v); break;
    case ACL_UINT64: static_cast<uint64_t*>(base)[i] = ToInt<uint64_t>(v); break;
    case ACL_BOOL: static_cast<uint8_t*>(base)[i] = v != 0.0 ? 1 : 0; break;
    default: break;
  }
}

namespace {

template <typename Load>
bool AnyNonFinite(const void* data, size_t count, size_t elem, Load load) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < count; ++i) {
    if (!std::isfinite(load(p + i * elem))) return true;
  }
  return false;
}

}  // namespace

bool HasNonFinite(const void* data, size_t count, int32_t dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return AnyNonFinite(data, count, 4, [](const uint8_t* p) {
        float v;
        std::memcpy(&v, p, 4);
        return v;
      });
    case ACL_DOUBLE:
      return AnyNonFinite(data, count, 8, [](const uint8_t* p) {
        double v;
        std::memcpy(&v, p, 8);
        return v;
      });
    case ACL_FLOAT16:
    case ACL_BF16:
      return AnyNonFinite(data, count, 2, [dtype](const uint8_t* p) {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return dtype == ACL_FLOAT16 ? HalfToFloat(v) : Bf16ToFloat(v);
      });
    default:
      return false;
  }
}

}  // namespace npurt
