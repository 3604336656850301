// Writes to memory that another core reads, leaving unchanged words alone.
//
// A store to a cache line that another core holds (it read the line since it was last written) first
// takes the line away from that core: the writer waits for the transfer at its next locked instruction
// (which drains its stores), and the reader misses when it next reads the line. A structure that is
// rewritten with mostly the same values each time (a launch record reused by the next launch of the same
// kernel, a queue cell reused for the same kind of task) is written only where it changed, so both cores
// keep their copies of the lines that did not. Reading a line both cores share costs nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace npurt {

template <typename T, typename U>
inline void StoreIfChanged(T& field, const U& value) {
  const T v = value;
  if (field != v) field = v;
}

// Copies `bytes` from `src` to `dst`, storing only the 8-byte words that differ (and the tail, if any,
// when it differs). Returns which words it stored: bit w for word w (words from the 64th on, and the
// tail, report as bit 63).
inline uint64_t CopyChangedWords(void* dst, const void* src, size_t bytes) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  uint64_t written = 0;
  size_t off = 0;
  for (; off + sizeof(uint64_t) <= bytes; off += sizeof(uint64_t)) {
    uint64_t have;
    uint64_t want;
    std::memcpy(&have, d + off, sizeof have);
    std::memcpy(&want, s + off, sizeof want);
    if (have != want) {
      std::memcpy(d + off, &want, sizeof want);
      const size_t word = off / sizeof(uint64_t);
      written |= uint64_t{1} << (word < 63 ? word : 63);
    }
  }
  if (off < bytes && std::memcmp(d + off, s + off, bytes - off) != 0) {
    std::memcpy(d + off, s + off, bytes - off);
    written |= uint64_t{1} << 63;
  }
  return written;
}

}  // namespace npurt
