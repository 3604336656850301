// A runtime-compilation program (aclrtcProg): source text, the headers it may include, the name
// expressions asked for, and after a successful compile the kernel binary, the lowered names and the log.
//
// Thread safety: the calls lock the program, so misuse from two threads cannot corrupt it. Lifetime: the
// user's handle is the one reference (aclrtcDestroyProg invalidates and releases it); pointers handed out
// (lowered names) live as long as the program.
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "core/rtc/rtc_program.h is private to the npurt runtime"
#endif

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "base/handle.h"
#include "base/status.h"
#include "core/rtc/rtc_name_expr.h"

namespace npurt::core::rtc {

class RtcProgram final : public HandleObject {
 public:
  RtcProgram(std::string file_name, std::string source, std::vector<std::pair<std::string, std::string>> headers);

  // Before the compile only (ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION); an expression that is not a
  // (qualified) name with optional template arguments is ACL_ERROR_RTC_NAME_EXPR_NOT_VALID.
  Status AddNameExpr(const std::string& expr);
  // Compiles (again, if it was compiled before): the binary, the lowered names of the name expressions
  // and the log replace the earlier ones; a failure leaves no binary and the reason in the log.
  Status Compile(const std::vector<std::string>& options);

  // The binary of the last successful compile (ACL_ERROR_RTC_INVALID_PROG if there is none).
  StatusOr<size_t> BinarySize() const;
  Status CopyBinary(char* out) const;
  // The table name of an added name expression, owned by the program.
  StatusOr<const char*> LoweredName(const std::string& expr) const;
  // The log of the last compile, with its terminating NUL counted.
  size_t LogSize() const;
  void CopyLog(char* out) const;

 private:
  ~RtcProgram() override = default;

  mutable std::mutex mu_;
  const std::string file_name_;
  const std::string source_;
  const std::vector<std::pair<std::string, std::string>> headers_;
  std::vector<std::pair<std::string, NameExpr>> name_exprs_;  // (as the user wrote it, parsed)
  bool compiled_ = false;  // a compile was attempted: no more name expressions
  std::vector<char> binary_;
  std::map<std::string, std::string> lowered_;  // name expression as written -> table name
  std::string log_;
};

}  // namespace npurt::core::rtc
