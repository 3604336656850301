#include "core/dump/dump_writer.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

#include <fmt/format.h>

#include "base/wall_clock.h"
#include "dfx/plog_file.h"

namespace npurt::core::dump {
namespace {

std::atomic<acldumpMessageCallback> g_callback{nullptr};
constexpr size_t kChunk = 1u << 20;

// Hands `parts` (concatenated) to `cb` in chunks of at most kChunk bytes.
bool ToCallback(acldumpMessageCallback cb, const std::string& path, const std::vector<std::pair<const void*, size_t>>& parts) {
  size_t total = 0;
  for (const auto& p : parts) total += p.second;
  std::vector<uint8_t> buf(sizeof(acldumpChunk) + std::min(kChunk, std::max<size_t>(total, 1)));
  auto* chunk = reinterpret_cast<acldumpChunk*>(buf.data());
  size_t off = 0;
  size_t part = 0;
  size_t in_part = 0;
  do {
    const size_t n = std::min(kChunk, total - off);
    std::memset(chunk, 0, sizeof(acldumpChunk));
    std::snprintf(chunk->fileName, sizeof chunk->fileName, "%s", path.c_str());
    chunk->bufLen = static_cast<uint32_t>(n);
    chunk->offset = static_cast<int64_t>(off);
    chunk->isLastChunk = off + n >= total ? 1 : 0;
    for (size_t filled = 0; filled < n;) {
      const size_t take = std::min(n - filled, parts[part].second - in_part);
      std::memcpy(chunk->dataBuf + filled, static_cast<const uint8_t*>(parts[part].first) + in_part, take);
      filled += take;
      in_part += take;
      if (in_part == parts[part].second) {
        ++part;
        in_part = 0;
      }
    }
    if (cb(chunk, static_cast<int32_t>(sizeof(acldumpChunk) + n)) != 0) return false;
    off += n;
  } while (off < total);
  return true;
}

}  // namespace

void SetCallback(acldumpMessageCallback callback) { g_callback.store(callback, std::memory_order_release); }
bool HasCallback() { return g_callback.load(std::memory_order_acquire) != nullptr; }

bool Emit(const std::string& path, const void* data, size_t size, const std::string& head) {
  std::vector<std::pair<const void*, size_t>> parts;
  if (!head.empty()) parts.emplace_back(head.data(), head.size());
  parts.emplace_back(data, size);
  if (acldumpMessageCallback cb = g_callback.load(std::memory_order_acquire)) return ToCallback(cb, path, parts);
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0 && !dfx::MakeDirs(path.substr(0, slash))) return false;
  std::FILE* f = std::fopen(path.c_str(), "we");
  if (f == nullptr) return false;
  bool ok = true;
  for (const auto& [p, n] : parts) ok = ok && (n == 0 || std::fwrite(p, 1, n, f) == n);
  return std::fclose(f) == 0 && ok;
}

std::string TimeStamp() { return CompactStamp(NowLocal(), 6); }

}  // namespace npurt::core::dump
