// The CRC-32 (zlib's) of the container's parts (om_format.h): one definition for the writer, the reader and
// the fuzz target that recomputes a mutated file's checksums.
#pragma once

#include <zlib.h>

#include <cstdint>

namespace npurt::om {

inline uint32_t Crc32(const void* data, uint64_t size) {
  uLong crc = crc32(0L, Z_NULL, 0);
  const auto* p = static_cast<const Bytef*>(data);
  while (size > 0) {  // zlib's length is a uInt
    const uInt chunk = size > (1u << 30) ? (1u << 30) : static_cast<uInt>(size);
    crc = crc32(crc, p, chunk);
    p += chunk;
    size -= chunk;
  }
  return static_cast<uint32_t>(crc);
}

}  // namespace npurt::om
