// Rank tables (HcclCommInitClusterInfo): the JSON file that lists the servers and their devices with a
// rank each, in HCCL's "1.0" and "1.2" formats (every value a JSON string). Checked as HCCL does: status
// "completed", a known version, rank ids 0..N-1 each once, device ids that are numbers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace npurt::hccl {

struct RankTableEntry {
  uint32_t rank = 0;
  int32_t device = 0;
  std::string server_id;
  std::string host_ip;     // the server's host_ip ("" when absent)
  uint16_t host_port = 0;  // the device's host_port (0 when absent)
};

struct RankTable {
  std::string version;
  std::vector<RankTableEntry> ranks;  // indexed by rank id
  uint64_t digest = 0;                // of the file's bytes: names the job
};

// Reads and checks the file (at most 4096 bytes of path; at most 16 MiB of JSON).
StatusOr<RankTable> ReadRankTable(const char* path);
StatusOr<RankTable> ParseRankTable(const std::string& json_text);

}  // namespace npurt::hccl
