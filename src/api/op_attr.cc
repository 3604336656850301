// Entry points: operator attributes (aclopCreateAttr, aclopSetAttr*).
#include <cstring>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "api/api_common.h"
#include "ops/op_attr.h"

using npurt::Err;
using npurt::AttrValue;
using npurt::ops::OpAttr;

namespace {

aclError Set(const char* fn, aclopAttr* attr, const char* name, AttrValue value) {
  OpAttr* a = OpAttr::From(attr);
  if (a == nullptr) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live operator attribute set",
                                      static_cast<const void*>(attr)));
  }
  if (name == nullptr || name[0] == '\0') {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "attrName is null or empty"));
  }
  a->attrs.insert_or_assign(std::string(name), std::move(value));
  return ACL_SUCCESS;
}

aclError BadList(const char* fn, int n) {
  return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "numValues {} with a null values array", n));
}

}  // namespace

aclopAttr* aclopCreateAttr(void) {
  NPURT_HANDLE_SCOPE();
  auto* a = npurt::NewHandle<OpAttr>();
  if (a == nullptr) (void)npurt::api::Report(__func__, Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of handle slots"));
  return reinterpret_cast<aclopAttr*>(a);
}

void aclopDestroyAttr(const aclopAttr* attr) {
  NPURT_HANDLE_SCOPE();
  OpAttr* a = OpAttr::From(attr);
  if (a == nullptr) {
    if (attr != nullptr) {
      (void)npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live operator attribute set",
                                             static_cast<const void*>(attr)));
    }
    return;
  }
  if (a->Invalidate()) a->Release();
}

aclError aclopSetAttrBool(aclopAttr* attr, const char* attrName, uint8_t attrValue) {
  NPURT_HANDLE_SCOPE();
  return Set(__func__, attr, attrName, attrValue != 0);
}

aclError aclopSetAttrInt(aclopAttr* attr, const char* attrName, int64_t attrValue) {
  NPURT_HANDLE_SCOPE();
  return Set(__func__, attr, attrName, attrValue);
}

aclError aclopSetAttrFloat(aclopAttr* attr, const char* attrName, float attrValue) {
  NPURT_HANDLE_SCOPE();
  return Set(__func__, attr, attrName, attrValue);
}

aclError aclopSetAttrString(aclopAttr* attr, const char* attrName, const char* attrValue) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(attrValue);
  return Set(__func__, attr, attrName, std::string(attrValue));
}

aclError aclopSetAttrDataType(aclopAttr* attr, const char* attrName, aclDataType attrValue) {
  NPURT_HANDLE_SCOPE();
  return Set(__func__, attr, attrName, npurt::DataTypeValue{npurt::RawEnum(attrValue)});
}

aclError aclopSetAttrListDataType(aclopAttr* attr, const char* attrName, int numValues, const aclDataType values[]) {
  NPURT_HANDLE_SCOPE();
  if (numValues < 0 || (numValues > 0 && values == nullptr)) return BadList(__func__, numValues);
  // Copied as ints: the values may be any int (from C), and loading one as aclDataType is undefined.
  std::vector<int32_t> v(static_cast<size_t>(numValues));
  static_assert(sizeof(aclDataType) == sizeof(int32_t));
  if (numValues > 0) std::memcpy(v.data(), values, v.size() * sizeof(int32_t));
  return Set(__func__, attr, attrName, std::move(v));
}

aclError aclopSetAttrListBool(aclopAttr* attr, const char* attrName, int numValues, const uint8_t* values) {
  NPURT_HANDLE_SCOPE();
  if (numValues < 0 || (numValues > 0 && values == nullptr)) return BadList(__func__, numValues);
  std::vector<uint8_t> v(values, values + numValues);
  return Set(__func__, attr, attrName, std::move(v));
}

aclError aclopSetAttrListInt(aclopAttr* attr, const char* attrName, int numValues, const int64_t* values) {
  NPURT_HANDLE_SCOPE();
  if (numValues < 0 || (numValues > 0 && values == nullptr)) return BadList(__func__, numValues);
  std::vector<int64_t> v(values, values + numValues);
  return Set(__func__, attr, attrName, std::move(v));
}

aclError aclopSetAttrListFloat(aclopAttr* attr, const char* attrName, int numValues, const float* values) {
  NPURT_HANDLE_SCOPE();
  if (numValues < 0 || (numValues > 0 && values == nullptr)) return BadList(__func__, numValues);
  std::vector<float> v(values, values + numValues);
  return Set(__func__, attr, attrName, std::move(v));
}

aclError aclopSetAttrListString(aclopAttr* attr, const char* attrName, int numValues, const char** values) {
  NPURT_HANDLE_SCOPE();
  if (numValues < 0 || (numValues > 0 && values == nullptr)) return BadList(__func__, numValues);
  std::vector<std::string> v;
  for (int i = 0; i < numValues; ++i) {
    if (values[i] == nullptr) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "values[{}] is a null pointer", i));
    }
    v.emplace_back(values[i]);
  }
  return Set(__func__, attr, attrName, std::move(v));
}

aclError aclopSetAttrListListInt(aclopAttr* attr, const char* attrName, int numLists, const int* numValues,
                                 const int64_t* const values[]) {
  NPURT_HANDLE_SCOPE();
  if (numLists < 0 || (numLists > 0 && (numValues == nullptr || values == nullptr))) return BadList(__func__, numLists);
  std::vector<std::vector<int64_t>> v;
  for (int i = 0; i < numLists; ++i) {
    if (numValues[i] < 0 || (numValues[i] > 0 && values[i] == nullptr)) return BadList(__func__, numValues[i]);
    v.emplace_back(values[i], values[i] + numValues[i]);
  }
  return Set(__func__, attr, attrName, std::move(v));
}
