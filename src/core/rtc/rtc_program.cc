#include "core/rtc/rtc_program.h"

#include <algorithm>
#include <cstring>

#include "acl/acl_rt_compile.h"
#include "core/handle_tags.h"
#include "core/rtc/rtc_compiler.h"
#include "core/rtc/rtc_options.h"

namespace npurt::core::rtc {

RtcProgram::RtcProgram(std::string file_name, std::string source,
                       std::vector<std::pair<std::string, std::string>> headers)
    : HandleObject(handle_tags::kRtcProgram),
      file_name_(std::move(file_name)),
      source_(std::move(source)),
      headers_(std::move(headers)) {}

Status RtcProgram::AddNameExpr(const std::string& expr) {
  std::lock_guard lock(mu_);
  if (compiled_) {
    return Err(ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION,
               "name expression '{}' is added after aclrtcCompileProg: add name expressions before compiling", expr);
  }
  auto parsed = ParseNameExpr(expr);
  if (!parsed.has_value()) {
    return Err(ACL_ERROR_RTC_NAME_EXPR_NOT_VALID,
               "'{}' is not a name expression (a kernel's [namespace::]name with optional <template arguments>)", expr);
  }
  const bool known = std::any_of(name_exprs_.begin(), name_exprs_.end(), [&](const auto& e) { return e.first == expr; });
  if (!known) name_exprs_.emplace_back(expr, std::move(*parsed));
  return Status::Ok();
}

Status RtcProgram::Compile(const std::vector<std::string>& options) {
  std::lock_guard lock(mu_);
  compiled_ = true;
  binary_.clear();
  lowered_.clear();
  log_.clear();
  auto checked = CheckOptions(options);
  if (!checked.ok()) {
    log_ = "aclrtc: error: " + checked.status().message() + "\n";
    return checked.status();
  }
  CompileInput in{file_name_, source_, headers_, std::move(checked).value(), {}};
  for (const auto& [text, expr] : name_exprs_) {
    const std::pair<std::string, std::string> instance{expr.kernel, expr.targs};
    if (!expr.targs.empty() && std::find(in.instances.begin(), in.instances.end(), instance) == in.instances.end()) {
      in.instances.push_back(instance);
    }
  }
  CompileOutput out;
  Status st = RunCompiler(in, out);
  log_ = std::move(out.log);
  if (!st.ok()) return st;
  std::map<std::string, std::string> lowered;
  for (const auto& [text, expr] : name_exprs_) {
    auto name = ResolveLoweredName(expr, out.kernels);
    if (!name.has_value()) {
      std::string kernels;
      for (const std::string& k : out.kernels) kernels += (kernels.empty() ? "" : ", ") + k;
      log_ += "aclrtc: error: name expression '" + text + "' names no kernel of " + file_name_ + " (its kernels: " +
              (kernels.empty() ? "none" : kernels) + ")\n";
      return Err(ACL_ERROR_RTC_NAME_EXPR_NOT_VALID, "name expression '{}' names no kernel of {} (its kernels: {})",
                 text, file_name_, kernels.empty() ? "none" : kernels);
    }
    lowered[text] = *name;
  }
  lowered_ = std::move(lowered);
  binary_ = std::move(out.binary);
  return Status::Ok();
}

StatusOr<size_t> RtcProgram::BinarySize() const {
  std::lock_guard lock(mu_);
  if (binary_.empty()) {
    return Err(ACL_ERROR_RTC_INVALID_PROG, "program {} has no binary: aclrtcCompileProg has not succeeded on it",
               file_name_);
  }
  return binary_.size();
}

Status RtcProgram::CopyBinary(char* out) const {
  std::lock_guard lock(mu_);
  if (binary_.empty()) {
    return Err(ACL_ERROR_RTC_INVALID_PROG, "program {} has no binary: aclrtcCompileProg has not succeeded on it",
               file_name_);
  }
  std::memcpy(out, binary_.data(), binary_.size());
  return Status::Ok();
}

StatusOr<const char*> RtcProgram::LoweredName(const std::string& expr) const {
  std::lock_guard lock(mu_);
  const bool added = std::any_of(name_exprs_.begin(), name_exprs_.end(), [&](const auto& e) { return e.first == expr; });
  if (!added) {
    return Err(ACL_ERROR_RTC_NAME_EXPR_NOT_VALID,
               "name expression '{}' was not added with aclrtcAddNameExpr (the same string is needed)", expr);
  }
  auto it = lowered_.find(expr);
  if (it == lowered_.end()) {
    return Err(ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION,
               "name expression '{}' has no lowered name: aclrtcCompileProg has not succeeded on {}", expr, file_name_);
  }
  return it->second.c_str();
}

size_t RtcProgram::LogSize() const {
  std::lock_guard lock(mu_);
  return log_.size() + 1;
}

void RtcProgram::CopyLog(char* out) const {
  std::lock_guard lock(mu_);
  std::memcpy(out, log_.c_str(), log_.size() + 1);
}

}  // namespace npurt::core::rtc
