// npurt-alloc-replay: replays allocation traces through npurt's caching allocator and prints the
// fragmentation figures, with and without expandable segments (see replay.h for the trace format).
//
//   npurt-alloc-replay [--conf <NPURT_ALLOC_CONF value>] [--json] trace...
//
// Every trace is replayed twice: with the configuration given (default: the defaults), and with the
// same configuration and expandable_segments flipped, so the two figures always come side by side.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "replay.h"

namespace {

int Usage() {
  std::fprintf(stderr,
               "usage: npurt-alloc-replay [--conf <NPURT_ALLOC_CONF value>] [--json] trace...\n"
               "  replays each trace (lines 'a <id> <bytes> [stream]' / 'f <id> [stream]') and prints peak\n"
               "  allocated, peak reserved and their ratio, with and without expandable segments\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string conf;
  bool json = false;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--conf") == 0 && i + 1 < argc) {
      conf = argv[++i];
    } else if (std::strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0 || argv[i][0] == '-') {
      return Usage();
    } else {
      paths.emplace_back(argv[i]);
    }
  }
  if (paths.empty()) return Usage();
  auto config = npurt::core::ParseAllocatorConfig(conf);
  if (!config.ok()) {
    std::fprintf(stderr, "npurt-alloc-replay: %s\n", config.status().message().c_str());
    return 2;
  }
  int rc = 0;
  if (json) std::printf("{\n");
  for (size_t n = 0; n < paths.size(); ++n) {
    auto trace = npurt::tools::LoadTrace(paths[n]);
    if (!trace.ok()) {
      std::fprintf(stderr, "npurt-alloc-replay: %s\n", trace.status().message().c_str());
      rc = 1;
      continue;
    }
    npurt::core::AllocatorConfig flipped = config.value();
    flipped.expandable_segments = !flipped.expandable_segments;
    const npurt::core::AllocatorConfig& with = config->expandable_segments ? config.value() : flipped;
    const npurt::core::AllocatorConfig& without = config->expandable_segments ? flipped : config.value();
    auto a = npurt::tools::Replay(trace.value(), with);
    auto b = npurt::tools::Replay(trace.value(), without);
    if (!a.ok() || !b.ok()) {
      std::fprintf(stderr, "npurt-alloc-replay: %s\n", (!a.ok() ? a.status() : b.status()).message().c_str());
      rc = 1;
      continue;
    }
    const auto& t = trace.value();
    if (json) {
      std::printf("  \"%s\": {\"events\": %zu, \"peak_allocated\": %llu, \"peak_reserved_expandable\": %llu, "
                  "\"frag_ratio_expandable\": %.4f, \"peak_reserved_fixed\": %llu, \"frag_ratio_fixed\": %.4f}%s\n",
                  t.name.c_str(), t.events.size(), static_cast<unsigned long long>(a->peak_allocated),
                  static_cast<unsigned long long>(a->peak_reserved), a->frag_ratio,
                  static_cast<unsigned long long>(b->peak_reserved), b->frag_ratio, n + 1 < paths.size() ? "," : "");
    } else {
      std::printf("%s: %zu events (%llu allocations), peak allocated %.2f MiB\n", t.name.c_str(), t.events.size(),
                  static_cast<unsigned long long>(a->allocs), double(a->peak_allocated) / double(1 << 20));
      std::printf("  expandable segments: peak reserved %.2f MiB, frag_ratio %.3f (%llu pages mapped, %.0f ns/event)\n",
                  double(a->peak_reserved) / double(1 << 20), a->frag_ratio,
                  static_cast<unsigned long long>(a->page_maps), a->ns_per_event);
      std::printf("  fixed segments:      peak reserved %.2f MiB, frag_ratio %.3f (%llu segments, %.0f ns/event)\n",
                  double(b->peak_reserved) / double(1 << 20), b->frag_ratio,
                  static_cast<unsigned long long>(b->segments), b->ns_per_event);
    }
  }
  if (json) std::printf("}\n");
  return rc;
}
