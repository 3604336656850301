// utils/debug/asc_printf.h for npurt's simulated NPU: CANN 9's kernel printf.
//
// A kernel source that includes this header prints with `printf(...)` (also AscendC::printf and PRINTF),
// and each line a block prints starts with the block that printed it, as CANN 9 shows kernel output:
//
//   [AIV Block 3/8] Hello World!!!
//
// ("AIC" on a cube kernel or a mixed kernel's cube part; the index and count are GetBlockIdx() and the
// launch's vector participants, or its blocks for the cube part). A line made of several printf calls gets
// one prefix. Sources that include only kernel_operator.h keep AscendC::printf's output as written, without
// the prefix (what CANN 8's samples show and npurt's own tests expect). -DASCENDC_DUMP=0 turns kernel
// printing off.
//
// Kernels are host code here, where `printf("text\n")` with no argument would pick the C library's printf
// over any overload; so this header makes `printf(` a macro for npurt_asc_printf, declared in the global
// namespace, in AscendC and in std (a `std::printf(...)` in the same source keeps working). Outside a
// kernel (host code of the same source) npurt_asc_printf is the C library's printf.
#pragma once

#include <stdio.h>

#include <cstdarg>
#include <cstdio>
#include <type_traits>

#include "kernel_operator.h"

namespace AscendC::npurt_detail {

inline void EmitPrint(const char* text, size_t len) {
  const npurt_kernel_block* b = g_state.block;
  if (b != nullptr && b->services->print != nullptr) {
    b->services->print(text, len);
  } else {
    std::fwrite(text, 1, len, stdout);
  }
}

// Prints `format` from the running block, the block's prefix before each line it starts.
inline int AscPrintC(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  if (g_state.block == nullptr) {  // host code
    const int n = std::vprintf(format, ap);
    va_end(ap);
    return n;
  }
  char text[4096];
  const int n = std::vsnprintf(text, sizeof text, format, ap);
  va_end(ap);
  if (n < 0) return n;
  const size_t len = static_cast<size_t>(n) < sizeof text ? static_cast<size_t>(n) : sizeof text - 1;
  char prefix[64];
  const bool cube = OnCubePart();
  const long long idx = static_cast<long long>(GetBlockIdx());
  const long long num = static_cast<long long>(cube ? GetBlockNum() : GetBlockNum() * GetSubBlockNum());
  const int plen = std::snprintf(prefix, sizeof prefix, "[%s Block %lld/%lld] ", cube ? "AIC" : "AIV", idx, num);
  size_t start = 0;
  while (start < len) {
    if (!g_state.print_midline) EmitPrint(prefix, static_cast<size_t>(plen));
    const char* nl = static_cast<const char*>(std::memchr(text + start, '\n', len - start));
    const size_t end = nl != nullptr ? static_cast<size_t>(nl - text) + 1 : len;
    EmitPrint(text + start, end - start);
    g_state.print_midline = nl == nullptr;
    start = end;
  }
  return n;
}

// half and bfloat16_t print with %f: they pass through `...` as double.
template <typename A>
inline auto AscPrintArg(A a) {
  if constexpr (std::is_same_v<A, half> || std::is_same_v<A, bfloat16_t>) {
    return static_cast<double>(static_cast<float>(a));
  } else {
    return a;
  }
}

}  // namespace AscendC::npurt_detail

template <typename... Args>
inline int npurt_asc_printf(const char* format, Args... args) {
#if defined(ASCENDC_DUMP) && (ASCENDC_DUMP == 0)
  if (AscendC::npurt_detail::g_state.block != nullptr) return 0;
#endif
  return AscendC::npurt_detail::AscPrintC(format, AscendC::npurt_detail::AscPrintArg(args)...);
}

namespace AscendC {
using ::npurt_asc_printf;
}  // namespace AscendC
namespace std {
using ::npurt_asc_printf;
}  // namespace std

#define printf(...) npurt_asc_printf(__VA_ARGS__)
