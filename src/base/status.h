// Status: the result of every internal operation. OK is code 0 with no message and costs nothing;
// an error carries an ACL error code (aclError numbering) and a human-readable reason that the API
// layer hands to aclGetRecentErrMsg().
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace npurt {

// The integer inside an enum-typed value that came through the C ABI: callers may pass any int, and
// reading an out-of-range value as the enum type is undefined behaviour (UBSan's -fsanitize=enum).
template <typename E>
inline int RawEnum(const E& e) {
  static_assert(sizeof(E) == sizeof(int), "enum with int representation");
  int v;
  __builtin_memcpy(&v, &e, sizeof v);
  return v;
}

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(int32_t code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == 0; }
  int32_t code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefixes the message with context ("aclrtMemcpy: ..."), keeping the code.
  Status WithContext(const char* context) && {
    if (!ok()) message_ = std::string(context) + ": " + message_;
    return std::move(*this);
  }

 private:
  int32_t code_ = 0;
  std::string message_;
};

// Builds an error status with a fmt-style message: Err(ACL_ERROR_INVALID_PARAM, "size {} is 0", n).
template <typename... Args>
Status Err(int32_t code, fmt::format_string<Args...> format, Args&&... args) {
  return Status(code, fmt::format(format, std::forward<Args>(args)...));
}

// A value or an error.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design
  StatusOr(T value) : value_(std::move(value)) {}          // NOLINT: implicit by design

  bool ok() const { return status_.ok(); }
  const Status& status() const& { return status_; }
  Status status() && { return std::move(status_); }
  T& value() { return value_; }
  const T& value() const { return value_; }
  T* operator->() { return &value_; }
  T& operator*() { return value_; }

 private:
  Status status_;
  T value_{};
};

#define NPURT_RETURN_IF_ERROR(expr)          \
  do {                                       \
    ::npurt::Status npurt_status_ = (expr);  \
    if (!npurt_status_.ok()) return npurt_status_; \
  } while (0)

}  // namespace npurt
