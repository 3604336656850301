#include "hccl/rank_table.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/parse_uint.h"
#include "hccl/hccl_types.h"

namespace npurt::hccl {
namespace {

constexpr size_t kMaxPath = 4096;
constexpr size_t kMaxBytes = 16u << 20;

// HCCL writes every value as a string; numbers are accepted too.
StatusOr<uint64_t> NumberField(const nlohmann::json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end()) return Err(HCCL_E_PARA, "rank table: {} has no \"{}\"", where, key);
  uint64_t v = 0;
  if (it->is_number_unsigned()) return it->get<uint64_t>();
  if (it->is_string() && ParseDecimalUint(it->get<std::string>(), &v)) return v;
  return Err(HCCL_E_PARA, "rank table: {}'s \"{}\" is {}, not a non-negative integer", where, key, it->dump());
}

std::string StringField(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

uint64_t Fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

StatusOr<RankTable> ParseRankTable(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Err(HCCL_E_PARA, "rank table: the file is not a JSON object");
  const std::string status = StringField(j, "status");
  if (status != "completed") {
    return Err(HCCL_E_PARA, "rank table: \"status\" is \"{}\"; only a \"completed\" table can be used", status);
  }
  RankTable table;
  table.version = StringField(j, "version");
  if (table.version != "1.0" && table.version != "1.2") {
    return Err(HCCL_E_PARA, "rank table: \"version\" is \"{}\"; npurt reads versions \"1.0\" and \"1.2\"", table.version);
  }
  auto servers = j.find("server_list");
  if (servers == j.end() || !servers->is_array() || servers->empty()) {
    return Err(HCCL_E_PARA, "rank table: \"server_list\" is missing or empty");
  }
  if (j.contains("server_count")) {
    auto count = NumberField(j, "server_count", "the table");
    if (!count.ok()) return count.status();
    if (count.value() != servers->size()) {
      return Err(HCCL_E_PARA, "rank table: \"server_count\" is {} but \"server_list\" has {} servers", count.value(),
                 servers->size());
    }
  }
  std::vector<RankTableEntry> entries;
  for (size_t s = 0; s < servers->size(); ++s) {
    const nlohmann::json& server = (*servers)[s];
    const std::string where = fmt::format("server_list[{}]", s);
    if (!server.is_object()) return Err(HCCL_E_PARA, "rank table: {} is not an object", where);
    const std::string server_id = StringField(server, "server_id");
    if (server_id.empty() || server_id.size() > 64) {
      return Err(HCCL_E_PARA, "rank table: {} has no \"server_id\" of 1 to 64 characters", where);
    }
    auto devices = server.find("device");
    if (devices == server.end() || !devices->is_array() || devices->empty()) {
      return Err(HCCL_E_PARA, "rank table: {} (\"{}\") lists no \"device\"", where, server_id);
    }
    for (size_t d = 0; d < devices->size(); ++d) {
      const nlohmann::json& dev = (*devices)[d];
      const std::string dwhere = fmt::format("{}.device[{}]", where, d);
      if (!dev.is_object()) return Err(HCCL_E_PARA, "rank table: {} is not an object", dwhere);
      auto rank = NumberField(dev, "rank_id", dwhere);
      if (!rank.ok()) return rank.status();
      auto device = NumberField(dev, "device_id", dwhere);
      if (!device.ok()) return device.status();
      RankTableEntry e;
      e.rank = static_cast<uint32_t>(rank.value());
      e.device = static_cast<int32_t>(device.value());
      e.server_id = server_id;
      e.host_ip = StringField(server, "host_ip");
      if (dev.contains("host_port")) {
        auto port = NumberField(dev, "host_port", dwhere);
        if (!port.ok()) return port.status();
        if (port.value() < 1 || port.value() > 65535) return Err(HCCL_E_PARA, "rank table: {}'s host_port {} is not a port", dwhere, port.value());
        e.host_port = static_cast<uint16_t>(port.value());
      }
      if (rank.value() > 1'000'000 || device.value() > 1'000'000) return Err(HCCL_E_PARA, "rank table: {} has an absurd id", dwhere);
      entries.push_back(e);
    }
  }
  table.ranks.resize(entries.size());
  std::vector<bool> seen(entries.size(), false);
  for (const RankTableEntry& e : entries) {
    if (e.rank >= entries.size()) {
      return Err(HCCL_E_PARA, "rank table: rank_id {} is out of range; {} ranks must be numbered 0..{}", e.rank, entries.size(),
                 entries.size() - 1);
    }
    if (seen[e.rank]) return Err(HCCL_E_PARA, "rank table: rank_id {} appears twice", e.rank);
    seen[e.rank] = true;
    table.ranks[e.rank] = e;
  }
  table.digest = Fnv1a(text);
  return table;
}

StatusOr<RankTable> ReadRankTable(const char* path) {
  if (strnlen(path, kMaxPath) >= kMaxPath) return Err(HCCL_E_PARA, "clusterInfo: the path is longer than {} bytes", kMaxPath - 1);
  std::ifstream in(path, std::ios::binary);
  if (!in) return Err(HCCL_E_OPEN_FILE_FAILURE, "rank table {} cannot be opened", path);
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > kMaxBytes) return Err(HCCL_E_PARA, "rank table {} is larger than {} bytes", path, kMaxBytes);
  auto table = ParseRankTable(text.str());
  if (!table.ok()) return Err(table.status().code(), "{} ({})", table.status().message(), path);
  return table;
}

}  // namespace npurt::hccl
