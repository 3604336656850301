// Entry points: batched copies (aclrtMemcpyBatch and its V2 / Async forms).
//
// Every copy is validated (arrays, attribute ranges, locations against the pointers, sizes against
// destMax and the allocations) before any byte moves; on failure *failIndex names the first bad copy
// (SIZE_MAX when the failure is not tied to one copy).
#include <cstdint>

#include "acl/acl.h"
#include "api/api_common.h"
#include "core/device.h"
#include "core/memory/memory_ops.h"
#include "core/stream.h"

using npurt::Err;

namespace {

constexpr size_t kNoIndex = SIZE_MAX;

npurt::Status CheckLocation(const aclrtMemLocation& loc, const npurt::core::MemSpan& span, const char* what) {
  if (loc.type == ACL_MEM_LOCATION_TYPE_DEVICE) {
    if (span.device == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} {} is host memory, its location says device", what, span.ptr);
    if (static_cast<uint32_t>(span.device->id()) != loc.id) {
      return Err(ACL_ERROR_INVALID_PARAM, "{} {} is memory of device {}, its location says device {}", what, span.ptr,
                 span.device->id(), loc.id);
    }
    return npurt::Status::Ok();
  }
  if (loc.type == ACL_MEM_LOCATION_TYPE_HOST || loc.type == ACL_MEM_LOCATION_TYPE_HOST_NUMA) {
    if (span.device != nullptr) {
      return Err(ACL_ERROR_INVALID_PARAM, "{} {} is memory of device {}, its location says host", what, span.ptr,
                 span.device->id());
    }
    return npurt::Status::Ok();
  }
  return Err(ACL_ERROR_INVALID_PARAM, "{} location type {} is not HOST, HOST_NUMA or DEVICE", what,
             static_cast<int>(loc.type));
}

aclError Batch(const char* fn, void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
               aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs, size_t* failIndex,
               aclrtStream stream, bool async) {
  if (failIndex != nullptr) *failIndex = kNoIndex;
  auto fail = [&](size_t index, npurt::Status st) {
    if (failIndex != nullptr) *failIndex = index;
    return npurt::api::Report(fn, index == kNoIndex ? st : std::move(st).WithContext(fmt::format("copy {}", index).c_str()));
  };
  if (dsts == nullptr || destMaxs == nullptr || srcs == nullptr || sizes == nullptr || attrs == nullptr ||
      attrsIndexes == nullptr) {
    return fail(kNoIndex, Err(ACL_ERROR_INVALID_PARAM, "dsts, destMaxs, srcs, sizes, attrs and attrsIndexes must "
                              "all be non-null"));
  }
  if (numBatches == 0 || numAttrs == 0 || numAttrs > numBatches) {
    return fail(kNoIndex, Err(ACL_ERROR_INVALID_PARAM, "numBatches ({}) and numAttrs ({}) must be positive, with "
                              "numAttrs <= numBatches", numBatches, numAttrs));
  }
  if (attrsIndexes[0] != 0) {
    return fail(kNoIndex, Err(ACL_ERROR_INVALID_PARAM, "attrsIndexes[0] is {}, must be 0", attrsIndexes[0]));
  }
  for (size_t k = 1; k < numAttrs; ++k) {
    if (attrsIndexes[k] <= attrsIndexes[k - 1] || attrsIndexes[k] >= numBatches) {
      return fail(kNoIndex, Err(ACL_ERROR_INVALID_PARAM, "attrsIndexes[{}] = {} is not increasing within [0, {})", k,
                                attrsIndexes[k], numBatches));
    }
  }
  npurt::core::Stream* s = nullptr;
  if (async) {
    auto r = npurt::api::ResolveStream(stream);
    if (!r.ok()) return fail(kNoIndex, r.status());
    s = r.value();
  }
  size_t k = 0;
  for (size_t i = 0; i < numBatches; ++i) {
    while (k + 1 < numAttrs && attrsIndexes[k + 1] <= i) ++k;
    if (sizes[i] > destMaxs[i]) {
      return fail(i, Err(ACL_ERROR_INVALID_PARAM, "size {} is larger than destMax {}", sizes[i], destMaxs[i]));
    }
    auto d = npurt::core::ResolveSpan(dsts[i], sizes[i], "dst");
    if (!d.ok()) return fail(i, d.status());
    auto sp = npurt::core::ResolveSpan(srcs[i], sizes[i], "src");
    if (!sp.ok()) return fail(i, sp.status());
    npurt::Status st = CheckLocation(attrs[k].dstLoc, d.value(), "dst");
    if (st.ok()) st = CheckLocation(attrs[k].srcLoc, sp.value(), "src");
    if (!st.ok()) return fail(i, st);
  }
  for (size_t i = 0; i < numBatches; ++i) {
    npurt::Status st = npurt::core::Memcpy(dsts[i], destMaxs[i], srcs[i], sizes[i], ACL_MEMCPY_DEFAULT, s);
    if (!st.ok()) return fail(i, st);
  }
  return ACL_SUCCESS;
}

}  // namespace

aclError aclrtMemcpyBatch(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                          aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs, size_t* failIndex) {
  NPURT_HANDLE_SCOPE();
  if (failIndex == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "failIndex is a null pointer"));
  }
  return Batch(__func__, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex, nullptr,
               false);
}

aclError aclrtMemcpyBatchV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                            aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs) {
  NPURT_HANDLE_SCOPE();
  return Batch(__func__, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, nullptr, nullptr,
               false);
}

aclError aclrtMemcpyBatchAsync(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                               aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs, size_t* failIndex,
                               aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (failIndex == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "failIndex is a null pointer"));
  }
  return Batch(__func__, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex, stream,
               true);
}

aclError aclrtMemcpyBatchAsyncV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                                 aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs,
                                 aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Batch(__func__, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, nullptr, stream, true);
}
