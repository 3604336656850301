// aclmdlRIDebugJsonPrint / aclmdlRIDebugPrint: the structure of a graph, for people.
#include <cstdio>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "core/model_ri/model_ri.h"
#include "core/stream.h"
#include "dfx/log.h"

namespace npurt::core {
namespace {

const char* TypeName(aclmdlRITaskType type) {
  switch (type) {
    case ACL_MODEL_RI_TASK_KERNEL: return "KERNEL";
    case ACL_MODEL_RI_TASK_EVENT_RECORD: return "EVENT_RECORD";
    case ACL_MODEL_RI_TASK_EVENT_WAIT: return "EVENT_WAIT";
    case ACL_MODEL_RI_TASK_EVENT_RESET: return "EVENT_RESET";
    case ACL_MODEL_RI_TASK_VALUE_WRITE: return "VALUE_WRITE";
    case ACL_MODEL_RI_TASK_VALUE_WAIT: return "VALUE_WAIT";
    default: return "DEFAULT";
  }
}

const char* KindName(hal::TaskKind kind) {
  static const char* const kNames[] = {"NOP",       "COPY",       "COPY2D", "FILL8",   "FILL32",
                                       "HOST_FUNC", "FLAG_SIGNAL", "FLAG_WAIT", "VALUE_WRITE", "VALUE_WAIT",
                                       "FAIL",      "COMPUTE",    "KERNEL", "BATCH"};
  const auto i = static_cast<size_t>(kind);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "UNKNOWN";
}

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out;
}

}  // namespace

Status ModelRI::WriteJson(const char* path, bool verbose) {
  std::string json;
  {
    std::lock_guard<std::mutex> lock(mu_);
    json = fmt::format("{{\n  \"modelRIId\": {},\n  \"name\": \"{}\",\n  \"streamNum\": {},\n  \"streams\": [", id_,
                       Escape(name_), streams_.size());
    for (size_t s = 0; s < streams_.size(); ++s) {
      const ModelRIStream& gs = *streams_[s];
      json += fmt::format("{}\n    {{\"streamId\": {}, \"head\": {}, \"taskNum\": {}", s == 0 ? "" : ",",
                          gs.origin->id(), s == head_ ? "true" : "false", gs.nodes.size());
      if (verbose) {
        json += ", \"tasks\": [";
        for (size_t i = 0; i < gs.nodes.size(); ++i) {
          const ModelRINode& n = gs.nodes[i];
          const hal::Task& t = gs.tasks[n.first];
          json += fmt::format("{}\n      {{\"seqId\": {}, \"taskId\": {}, \"type\": \"{}\", \"kind\": \"{}\"", i == 0 ? "" : ",",
                              i, t.id, TypeName(n.type), KindName(t.kind));
          if (t.kind == hal::TaskKind::kKernel) {
            json += fmt::format(", \"kernel\": \"{}\", \"numBlocks\": {}", Escape(t.kernel->name), t.kernel->num_blocks);
          }
          json += "}";
        }
        json += "\n    ]";
      }
      json += "}";
    }
    json += "\n  ]\n}\n";
  }
  FILE* f = std::fopen(path, "w");
  if (f == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "cannot open '{}' for writing", path);
  const bool ok = std::fwrite(json.data(), 1, json.size(), f) == json.size();
  if (std::fclose(f) != 0 || !ok) return Err(ACL_ERROR_INVALID_PARAM, "cannot write '{}'", path);
  return Status::Ok();
}

void ModelRI::LogSummary() {
  std::lock_guard<std::mutex> lock(mu_);
  NPURT_LOG_INFO("RUNTIME", "model instance {} '{}': {} streams", id_, name_, streams_.size());
  for (const auto& gs : streams_) {
    NPURT_LOG_INFO("RUNTIME", "  stream {}: {} tasks", gs->origin->id(), gs->nodes.size());
  }
}

}  // namespace npurt::core
