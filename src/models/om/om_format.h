// The .om container: a fixed header, the model (FlatBuffers, npurt_om.fbs), then the weight region's
// bytes exactly as they go to device memory. Every field is little-endian.
//
//   offset 0     FileHeader (64 bytes)
//   offset 64    the FlatBuffers model, model_size bytes
//   weights_off  the weight region (aligned to kWeightsFileAlign), weights_size bytes
//
// Both parts carry a CRC-32 so that a mutated byte anywhere is refused on load, and a truncated file is
// caught by the sizes before anything is parsed.
#pragma once

#include <cstdint>

namespace npurt::om {

inline constexpr char kMagic[8] = {'N', 'P', 'U', 'R', 'T', 'O', 'M', '\0'};
// What this loader reads (2: gears, 3: single-op models, 4: dynamic shapes, 5: shape slots); newer files are refused.
inline constexpr uint32_t kFormatVersion = 5;
inline constexpr uint64_t kWeightsFileAlign = 4096;
// What the loader recognises and refuses by name: a CANN OM1 model starts with the bytes "IMOD" (its
// ModelFileHeader's magic 0x444F4D49), an OM2 model is a zip archive ("PK\3\4").
inline constexpr char kCannOm1Magic[4] = {'I', 'M', 'O', 'D'};
inline constexpr char kZipMagic[4] = {'P', 'K', '\3', '\4'};

struct FileHeader {
  char magic[8];
  uint32_t format_version;
  uint32_t header_size;  // sizeof(FileHeader)
  uint64_t model_offset;
  uint64_t model_size;
  uint64_t weights_offset;
  uint64_t weights_size;
  uint32_t model_crc32;
  uint32_t weights_crc32;
  uint32_t flags;  // 0
  uint32_t header_crc32;  // of the 60 bytes before it
};
static_assert(sizeof(FileHeader) == 64, "the header is 64 bytes");

}  // namespace npurt::om
