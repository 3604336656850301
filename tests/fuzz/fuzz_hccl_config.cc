// Fuzz target: HCCL's configuration parsers, where a program's or a cluster's files and bytes come in: the
// rank table of HcclCommInitClusterInfo (src/hccl/rank_table.cc: JSON, every value a string, ranks 0..N-1
// once each) and the 4108-byte root info of HcclCommInitRootInfo (src/hccl/root_info.cc: magic, version,
// the listener's address). Both must refuse anything malformed with a message, never crash; what they
// accept must be well formed (ranks in order, a port and a numeric address).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "hccl/rank_table.h"
#include "hccl/root_info.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto table = npurt::hccl::ParseRankTable(text);
  if (table.ok()) {
    const auto& ranks = table.value().ranks;
    if (ranks.empty()) std::abort();
    for (size_t i = 0; i < ranks.size(); ++i) {
      if (ranks[i].rank != i) std::abort();  // indexed by rank id, each once
    }
  } else if (table.status().message().empty()) {
    std::abort();  // a refusal says why
  }
  // The same bytes as a root info (zero-padded or cut to its size), with npurt's magic in front half the time
  // so that the fields behind it are reached.
  HcclRootInfo root;
  std::memset(&root, 0, sizeof(root));
  std::memcpy(root.internal, data, std::min(size, sizeof(root.internal)));
  if (size > 0 && (data[0] & 1) != 0) std::memcpy(root.internal, "NPURTRI1\x01\x00\x00\x00", 12);
  auto info = npurt::hccl::DecodeRootInfo(&root);
  if (info.ok() && (info.value().port == 0 || info.value().ip.empty())) std::abort();
  return 0;
}
