// npurt's race-detector entry points (include/npurt/racecheck.h).
#include "npurt/racecheck.h"

#include <cstring>

#include "api/api_common.h"
#include "core/racecheck/racecheck.h"

namespace rc = npurt::core::racecheck;

aclError npurtRacecheckSetEnabled(int enable) {
  NPURT_HANDLE_SCOPE();
  rc::SetEnabled(enable != 0);
  return ACL_SUCCESS;
}

int npurtRacecheckEnabled(void) {
  NPURT_HANDLE_SCOPE();
  return rc::On() ? 1 : 0;
}

size_t npurtRacecheckReportCount(void) {
  NPURT_HANDLE_SCOPE();
  return rc::Reports().size();
}

aclError npurtRacecheckGetReport(size_t index, char* buf, size_t len, size_t* textLen) {
  NPURT_HANDLE_SCOPE();
  if (buf == nullptr && len > 0) {
    return npurt::api::Report(__func__,
                              npurt::Err(ACL_ERROR_INVALID_PARAM, "buf is a null pointer but len is {}", len));
  }
  const std::vector<std::string> reports = rc::Reports();
  if (index >= reports.size()) {
    return npurt::api::Report(__func__, npurt::Err(ACL_ERROR_INVALID_PARAM, "report {} does not exist ({} reported)",
                                                   index, reports.size()));
  }
  const std::string& text = reports[index];
  if (textLen != nullptr) *textLen = text.size();
  if (len > 0) {
    const size_t n = std::min(len - 1, text.size());
    std::memcpy(buf, text.data(), n);
    buf[n] = '\0';
  }
  return ACL_SUCCESS;
}

aclError npurtRacecheckClearReports(void) {
  NPURT_HANDLE_SCOPE();
  rc::ClearReports();
  return ACL_SUCCESS;
}
