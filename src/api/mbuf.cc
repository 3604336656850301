// Entry points: message buffers (aclrt*Buf*). The acltdt*Buf* names of acl_tdt_queue.h forward here.
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/tdt/mbuf.h"

using npurt::Err;
using npurt::core::Mbuf;

aclError aclrtAllocBuf(aclrtMbuf* buf, size_t size) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(buf);
  NPURT_API_ASSIGN(b, Mbuf::Create(size));
  *buf = b;
  return ACL_SUCCESS;
}

aclError aclrtFreeBuf(aclrtMbuf buf) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(b, Mbuf::Resolve(buf, "buf"));
  NPURT_API_CHECK(b->Free());
  return ACL_SUCCESS;
}

aclError aclrtGetBufData(const aclrtMbuf buf, void** dataPtr, size_t* size) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(dataPtr);
  NPURT_API_NOT_NULL(size);
  NPURT_API_ASSIGN(b, Mbuf::Resolve(buf, "buf"));
  *dataPtr = b->data();
  *size = b->capacity();
  return ACL_SUCCESS;
}

aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t* len) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(len);
  NPURT_API_ASSIGN(b, Mbuf::Resolve(buf, "buf"));
  *len = b->data_len();
  return ACL_SUCCESS;
}

aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(b, Mbuf::Resolve(buf, "buf"));
  NPURT_API_CHECK(b->SetDataLen(len));
  return ACL_SUCCESS;
}

aclError aclrtGetBufUserData(const aclrtMbuf buf, void* dataPtr, size_t size, size_t offset) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(dataPtr);
  NPURT_API_ASSIGN(b, Mbuf::Resolve(buf, "buf"));
  NPURT_API_CHECK(b->GetUserData(dataPtr, size, offset));
  return ACL_SUCCESS;
}

aclError aclrtSetBufUserData(aclrtMbuf buf, const void* dataPtr, size_t size, size_t offset) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(dataPtr);
  NPURT_API_ASSIGN(b, Mbuf::Resolve(buf, "buf"));
  NPURT_API_CHECK(b->SetUserData(dataPtr, size, offset));
  return ACL_SUCCESS;
}

aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf* newBuf) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(newBuf);
  NPURT_API_ASSIGN(b, Mbuf::Resolve(buf, "buf"));
  NPURT_API_ASSIGN(copy, b->CopyRef());
  *newBuf = copy;
  return ACL_SUCCESS;
}

aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(head, Mbuf::Resolve(headBuf, "headBuf"));
  NPURT_API_ASSIGN(b, Mbuf::Resolve(buf, "buf"));
  NPURT_API_CHECK(head->Append(b));
  return ACL_SUCCESS;
}

aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t* num) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(num);
  NPURT_API_ASSIGN(head, Mbuf::Resolve(headBuf, "headBuf"));
  *num = head->ChainNum();
  return ACL_SUCCESS;
}

aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf* buf) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(buf);
  NPURT_API_ASSIGN(head, Mbuf::Resolve(headBuf, "headBuf"));
  NPURT_API_ASSIGN(member, head->ChainAt(index));
  *buf = member;
  return ACL_SUCCESS;
}
