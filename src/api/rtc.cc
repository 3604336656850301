// Entry points: runtime compilation of kernels (acl/acl_rt_compile.h, libacl_rtc.so; core/rtc/).
#include <string>
#include <utility>
#include <vector>

#include "acl/acl_rt_compile.h"
#include "api/api_common.h"
#include "core/handle_tags.h"
#include "core/rtc/rtc_program.h"

using npurt::Err;
using npurt::core::rtc::RtcProgram;

namespace {

npurt::StatusOr<RtcProgram*> ResolveProgram(aclrtcProg prog) {
  if (prog == nullptr) return Err(ACL_ERROR_RTC_INVALID_PROG, "prog is a null pointer");
  RtcProgram* p = npurt::LookupHandle<RtcProgram>(prog, npurt::handle_tags::kRtcProgram);
  if (p == nullptr) return Err(ACL_ERROR_RTC_INVALID_PROG, "prog {} is not a live aclrtcProg", prog);
  return p;
}

// aclrtc reports a bad argument other than the program as ACL_ERROR_RTC_INVALID_INPUT.
#define NPURT_RTC_NOT_NULL(ptr)                                                                                \
  do {                                                                                                         \
    if ((ptr) == nullptr) {                                                                                    \
      return ::npurt::api::Report(__func__, Err(ACL_ERROR_RTC_INVALID_INPUT, "{} is a null pointer", #ptr)); \
    }                                                                                                          \
  } while (0)

// The (include name, text) pairs of aclrtcCreateProg's header arrays.
npurt::StatusOr<std::vector<std::pair<std::string, std::string>>> Headers(int count, const char** headers,
                                                                          const char** names) {
  std::vector<std::pair<std::string, std::string>> out;
  if (count < 0) return Err(ACL_ERROR_RTC_INVALID_INPUT, "numHeaders {} is negative", count);
  if (count > 0 && (headers == nullptr || names == nullptr)) {
    return Err(ACL_ERROR_RTC_INVALID_INPUT, "numHeaders is {} but headers or includeNames is a null pointer", count);
  }
  for (int i = 0; i < count; ++i) {
    if (headers[i] == nullptr || names[i] == nullptr) {
      return Err(ACL_ERROR_RTC_INVALID_INPUT, "headers[{}] or includeNames[{}] is a null pointer", i, i);
    }
    out.emplace_back(names[i], headers[i]);
  }
  return out;
}

// The source's file name: the program name's last path component, "default_program" when there is none.
std::string FileName(const char* name) {
  std::string n = name != nullptr ? name : "";
  n = n.substr(n.find_last_of('/') == std::string::npos ? 0 : n.find_last_of('/') + 1);
  return n.empty() || n == "." || n == ".." ? "default_program" : n;
}

}  // namespace

aclError aclrtcCreateProg(aclrtcProg* prog, const char* src, const char* name, int numHeaders, const char** headers,
                          const char** includeNames) {
  NPURT_HANDLE_SCOPE();
  NPURT_RTC_NOT_NULL(prog);
  NPURT_RTC_NOT_NULL(src);
  NPURT_API_ASSIGN(list, Headers(numHeaders, headers, includeNames));
  RtcProgram* p = npurt::NewHandle<RtcProgram>(FileName(name), src, std::move(list));
  if (p == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RTC_PROG_CREATION_FAILURE, "no handle slot for the program"));
  }
  *prog = p;
  return ACL_SUCCESS;
}

aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char** options) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(p, ResolveProgram(prog));
  if (numOptions < 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RTC_INVALID_INPUT, "numOptions {} is negative", numOptions));
  }
  if (numOptions > 0) NPURT_RTC_NOT_NULL(options);
  std::vector<std::string> opts;
  for (int i = 0; i < numOptions; ++i) {
    if (options[i] == nullptr) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_RTC_INVALID_INPUT, "options[{}] is a null pointer", i));
    }
    opts.emplace_back(options[i]);
  }
  NPURT_API_CHECK(p->Compile(opts));
  return ACL_SUCCESS;
}

aclError aclrtcDestroyProg(aclrtcProg* prog) {
  NPURT_HANDLE_SCOPE();
  NPURT_RTC_NOT_NULL(prog);
  NPURT_API_ASSIGN(p, ResolveProgram(*prog));
  if (!p->Invalidate()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RTC_INVALID_PROG, "prog {} is already destroyed", *prog));
  }
  p->Release();
  *prog = nullptr;
  return ACL_SUCCESS;
}

aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t* binDataSizeRet) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(p, ResolveProgram(prog));
  NPURT_RTC_NOT_NULL(binDataSizeRet);
  NPURT_API_ASSIGN(size, p->BinarySize());
  *binDataSizeRet = size;
  return ACL_SUCCESS;
}

aclError aclrtcGetBinData(aclrtcProg prog, char* binData) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(p, ResolveProgram(prog));
  NPURT_RTC_NOT_NULL(binData);
  NPURT_API_CHECK(p->CopyBinary(binData));
  return ACL_SUCCESS;
}

aclError aclrtcAddNameExpr(aclrtcProg prog, const char* nameExpression) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(p, ResolveProgram(prog));
  NPURT_RTC_NOT_NULL(nameExpression);
  NPURT_API_CHECK(p->AddNameExpr(nameExpression));
  return ACL_SUCCESS;
}

aclError aclrtcGetLoweredName(aclrtcProg prog, const char* nameExpression, const char** loweredName) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(p, ResolveProgram(prog));
  NPURT_RTC_NOT_NULL(nameExpression);
  NPURT_RTC_NOT_NULL(loweredName);
  NPURT_API_ASSIGN(name, p->LoweredName(nameExpression));
  *loweredName = name;
  return ACL_SUCCESS;
}

aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t* logSizeRet) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(p, ResolveProgram(prog));
  NPURT_RTC_NOT_NULL(logSizeRet);
  *logSizeRet = p->LogSize();
  return ACL_SUCCESS;
}

aclError aclrtcGetCompileLog(aclrtcProg prog, char* log) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(p, ResolveProgram(prog));
  NPURT_RTC_NOT_NULL(log);
  p->CopyLog(log);
  return ACL_SUCCESS;
}
