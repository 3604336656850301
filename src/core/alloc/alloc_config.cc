#include "core/alloc/alloc_config.h"

#include <cstdlib>

#include "acl/acl_base_rt.h"
#include "base/env.h"
#include "dfx/log.h"

namespace npurt::core {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

Status ParseBool(std::string_view key, std::string_view v, bool* out) {
  if (v == "True" || v == "true" || v == "1") {
    *out = true;
  } else if (v == "False" || v == "false" || v == "0") {
    *out = false;
  } else {
    return Err(ACL_ERROR_INVALID_PARAM, "NPURT_ALLOC_CONF: {} takes True or False, not '{}'", key, v);
  }
  return Status::Ok();
}

Status ParseUint(std::string_view key, std::string_view v, uint64_t lo, uint64_t hi, uint64_t* out) {
  std::string s(v);
  char* end = nullptr;
  const unsigned long long n = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || end == nullptr || *end != '\0' || s[0] == '-' || n < lo || n > hi) {
    return Err(ACL_ERROR_INVALID_PARAM, "NPURT_ALLOC_CONF: {} takes an integer in [{}, {}], not '{}'", key, lo, hi,
               v);
  }
  *out = n;
  return Status::Ok();
}

}  // namespace

StatusOr<AllocatorConfig> ParseAllocatorConfig(std::string_view text) {
  AllocatorConfig c;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    std::string_view item = Trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (item.empty()) continue;
    const size_t colon = item.find(':');
    if (colon == std::string_view::npos) {
      return Err(ACL_ERROR_INVALID_PARAM, "NPURT_ALLOC_CONF: '{}' is not a key:value pair", item);
    }
    const std::string_view key = Trim(item.substr(0, colon));
    const std::string_view value = Trim(item.substr(colon + 1));
    uint64_t n = 0;
    if (key == "expandable_segments") {
      NPURT_RETURN_IF_ERROR(ParseBool(key, value, &c.expandable_segments));
      c.expandable_segments_set = true;
    } else if (key == "max_split_size_mb") {
      // Below the large-segment size the knob would forbid splitting ordinary segments (PyTorch's limit).
      NPURT_RETURN_IF_ERROR(ParseUint(key, value, 20, 1ull << 30, &n));
      c.max_split_size = n << 20;
    } else if (key == "garbage_collection_threshold") {
      std::string s(value);
      char* end = nullptr;
      const double f = std::strtod(s.c_str(), &end);
      if (s.empty() || *end != '\0' || !(f > 0.0 && f < 1.0)) {
        return Err(ACL_ERROR_INVALID_PARAM,
                   "NPURT_ALLOC_CONF: garbage_collection_threshold takes a number in (0, 1), not '{}'", value);
      }
      c.gc_threshold = f;
    } else if (key == "segment_size_mb") {
      NPURT_RETURN_IF_ERROR(ParseUint(key, value, 2, 1024, &n));
      c.large_segment_size = ((n + 1) / 2 * 2) << 20;  // whole 2 MiB pages
    } else if (key == "roundup_power2_divisions") {
      NPURT_RETURN_IF_ERROR(ParseUint(key, value, 1, 64, &n));
      if ((n & (n - 1)) != 0) {
        return Err(ACL_ERROR_INVALID_PARAM, "NPURT_ALLOC_CONF: roundup_power2_divisions must be a power of two, not {}",
                   n);
      }
      c.roundup_power2_divisions = static_cast<uint32_t>(n);
    } else if (key == "thread_cache") {
      NPURT_RETURN_IF_ERROR(ParseBool(key, value, &c.thread_cache));
    } else if (key == "thread_cache_kb") {
      NPURT_RETURN_IF_ERROR(ParseUint(key, value, 64, 65536, &n));
      c.thread_cache_bytes = n << 10;
    } else if (key == "record_sites") {
      NPURT_RETURN_IF_ERROR(ParseBool(key, value, &c.record_sites));
    } else if (key == "history") {
      NPURT_RETURN_IF_ERROR(ParseUint(key, value, 0, 1u << 24, &n));
      c.history = static_cast<uint32_t>(n);
    } else if (key == "debug_checks") {
      NPURT_RETURN_IF_ERROR(ParseBool(key, value, &c.debug_checks));
    } else {
      return Err(ACL_ERROR_INVALID_PARAM,
                 "NPURT_ALLOC_CONF: unknown key '{}' (known: expandable_segments, max_split_size_mb, "
                 "garbage_collection_threshold, segment_size_mb, roundup_power2_divisions, thread_cache, "
                 "thread_cache_kb, record_sites, history, debug_checks)",
                 key);
    }
  }
  return c;
}

const AllocatorConfig& AllocatorConfigFromEnvironment() {
  static const AllocatorConfig config = [] {
    const char* text = npurt::env::Raw(npurt::env::Var::kAllocConf);
    if (text == nullptr) return AllocatorConfig();
    auto parsed = ParseAllocatorConfig(text);
    if (!parsed.ok()) {
      NPURT_LOG_ERROR("RUNTIME", "{}; using the default allocator settings", parsed.status().message());
      return AllocatorConfig();
    }
    NPURT_LOG_INFO("RUNTIME", "allocator configuration: {}", FormatAllocatorConfig(parsed.value()));
    return parsed.value();
  }();
  return config;
}

std::string FormatAllocatorConfig(const AllocatorConfig& c) {
  auto b = [](bool v) { return v ? "True" : "False"; };
  return fmt::format(
      "expandable_segments:{},max_split_size_mb:{},garbage_collection_threshold:{},segment_size_mb:{},"
      "roundup_power2_divisions:{},thread_cache:{},thread_cache_kb:{},record_sites:{},history:{},debug_checks:{}",
      b(c.expandable_segments), c.max_split_size == UINT64_MAX ? 0 : c.max_split_size >> 20, c.gc_threshold,
      c.large_segment_size >> 20, c.roundup_power2_divisions, b(c.thread_cache), c.thread_cache_bytes >> 10,
      b(c.record_sites), c.history, b(c.debug_checks));
}

}  // namespace npurt::core
