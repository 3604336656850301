// Kernel assertions for the sim: assert(expr), assert(expr, fmt, args...), ascendc_assert (the same) and
// ASSERT. Part of kernel_operator.h.
//
// A failed assertion prints "[ASSERT] file:line: : Assertion `expr' failed. message" from the block, as
// CANN's kernel assert prints it, and fails the kernel: the launch fails with the vector-core (AI-core)
// exception and that message, instead of aborting the process as the C library's assert would, on every
// device at once. As with CANN, -DASCENDC_DUMP=0 compiles assertions out; NDEBUG does not. The macros
// are in kernel_assert_macro.h, which kernel_operator.h includes again at each inclusion: a source that
// includes <cassert> between two inclusions of kernel_operator.h (the kernel generator puts one before the
// source) gets the kernel's assert back at the second.
#pragma once

#include "npurt_kernel/base.h"

namespace AscendC::npurt_detail {

// `text` is the macro's arguments as written ("expr" or "expr, fmt, args"): the expression is the text
// before the first comma outside parentheses, brackets, braces and quotes.
inline size_t AssertExprLength(const char* text) {
  int depth = 0;
  char quote = 0;
  size_t i = 0;
  for (; text[i] != '\0'; ++i) {
    const char ch = text[i];
    if (quote != 0) {
      if (ch == '\\' && text[i + 1] != '\0') ++i;
      else if (ch == quote) quote = 0;
    } else if (ch == '"' || ch == '\'') {
      quote = ch;
    } else if (ch == '(' || ch == '[' || ch == '{') {
      ++depth;
    } else if (ch == ')' || ch == ']' || ch == '}') {
      --depth;
    } else if (ch == ',' && depth == 0) {
      break;
    }
  }
  return i;
}

template <typename... Args>
[[noreturn]] inline void AssertFailed(const char* file, int line, const char* text, const char* fmt, Args... args) {
  char detail[512] = "";
  if (fmt != nullptr) {
    if constexpr (sizeof...(Args) == 0) {
      std::snprintf(detail, sizeof detail, " %s", fmt);
    } else {
      detail[0] = ' ';
      std::snprintf(detail + 1, sizeof detail - 1, fmt, args...);
    }
  }
  size_t n = std::strlen(detail);
  while (n > 0 && detail[n - 1] == '\n') detail[--n] = '\0';
  const int expr_len = static_cast<int>(AssertExprLength(text));
  // The C library's layout (file:line: function: Assertion `expr' failed.), the function left empty as
  // CANN's device assert leaves it; a message follows.
  PrintV("[ASSERT] %s:%d: : Assertion `%.*s' failed.%s\n", file, line, expr_len, text, detail);
  Fail("[ASSERT] %s:%d: : Assertion `%.*s' failed.%s", file, line, expr_len, text, detail);
}

template <typename... Args>
inline void AssertCheck(const char* file, int line, const char* text, bool cond, Args... args) {
  if (!cond) AssertFailed(file, line, text, args...);
}
inline void AssertCheck(const char* file, int line, const char* text, bool cond) {
  if (!cond) AssertFailed(file, line, text, nullptr);
}

}  // namespace AscendC::npurt_detail

#include "npurt_kernel/kernel_assert_macro.h"
