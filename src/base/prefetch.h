// Cache-line prefetches for lines that another thread hands over.
#pragma once

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace npurt {

// Prefetch for writing: fetches the line in exclusive state, so that a store to a line another core last
// wrote (or still holds) does not wait for it. PREFETCHW where the CPU has it; a read prefetch elsewhere.
inline void PrefetchForWrite(const void* p) {
#if defined(__x86_64__)
  static const bool has_prefetchw = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid(0x80000001, &a, &b, &c, &d) != 0 && (c & bit_PRFCHW) != 0;
  }();
  if (has_prefetchw) {
    asm volatile("prefetchw %0" : : "m"(*static_cast<const char*>(p)));
    return;
  }
#endif
  __builtin_prefetch(p, 1, 3);
}

// Prefetches the lines of [p, p + bytes) for reading, all at once: a thread that is about to read a
// structure another core wrote then waits for one miss instead of one per line.
inline void PrefetchLines(const void* p, unsigned long bytes) {
  const auto* c = static_cast<const char*>(p);
  const auto first = reinterpret_cast<unsigned long>(c) & ~63ul;
  for (unsigned long line = first; line < reinterpret_cast<unsigned long>(c) + bytes; line += 64) {
    __builtin_prefetch(reinterpret_cast<const void*>(line), 0, 3);
  }
}

}  // namespace npurt
