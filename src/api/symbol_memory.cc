// Entry points: device global variables of loaded kernel code (symbols).
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/memory/mem_symbols.h"
#include "core/stream.h"

using npurt::core::SymbolRegistry;

aclError aclrtGetSymbolAddress(const void* symbol, void** devPtr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(devPtr);
  NPURT_API_ASSIGN(s, SymbolRegistry::Get().Find(symbol));
  *devPtr = s.address;
  return ACL_SUCCESS;
}

aclError aclrtGetSymbolSize(const void* symbol, size_t* size) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(size);
  NPURT_API_ASSIGN(s, SymbolRegistry::Get().Find(symbol));
  *size = s.size;
  return ACL_SUCCESS;
}

aclError aclrtMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, aclrtMemcpyKind kind) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::CopyToSymbol(symbol, src, count, offset, kind, nullptr));
  return ACL_SUCCESS;
}

aclError aclrtMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                  aclrtMemcpyKind kind, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::CopyToSymbol(symbol, src, count, offset, kind, s));
  return ACL_SUCCESS;
}

aclError aclrtMemcpyFromSymbol(void* dst, size_t dstMax, const void* symbol, size_t count, size_t offset,
                               aclrtMemcpyKind kind) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::CopyFromSymbol(dst, dstMax, symbol, count, offset, kind, nullptr));
  return ACL_SUCCESS;
}

aclError aclrtMemcpyFromSymbolAsync(void* dst, size_t dstMax, const void* symbol, size_t count, size_t offset,
                                    aclrtMemcpyKind kind, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::CopyFromSymbol(dst, dstMax, symbol, count, offset, kind, s));
  return ACL_SUCCESS;
}
