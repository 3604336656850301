#include "ops/op_prof.h"

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/stream.h"

namespace npurt::ops {
namespace {

void AppendTensors(std::string* out, const std::vector<TensorSpec>& specs) {
  for (size_t i = 0; i < specs.size(); ++i) {
    if (i > 0) out->push_back(';');
    fmt::format_to(std::back_inserter(*out), "{}:{}:{}", specs[i].dtype, specs[i].format,
                   fmt::join(specs[i].dims, ","));
  }
}

// The interned ids of the strings of an op seen before, per thread, so that a profiled launch loop does
// not format and intern the same description at every launch. An entry is valid while its op lives (a
// weak reference: a freed op's address can be reused by another op, whose entry then misses).
struct CachedIds {
  std::weak_ptr<const CompiledOp> op;
  const char* name;
  uint32_t block_num;
  uint64_t name_id;
  uint64_t detail_id;
};

}  // namespace

std::string OpProfileDetail(const CompiledOp& op, uint32_t block_num) {
  std::string out = fmt::format("{}|{}|", op.type, block_num);
  AppendTensors(&out, op.inputs);
  out.push_back('|');
  AppendTensors(&out, op.outputs);
  return out;
}

void TagOpTaskSlow(const CompiledOpRef& op, const char* name, uint32_t block_num, uint32_t* task_id) {
  if (*task_id == 0) *task_id = core::NextTaskId();
  thread_local std::unordered_map<const CompiledOp*, CachedIds> cache;
  auto it = cache.find(op.get());
  if (it == cache.end() || it->second.op.expired() || it->second.name != name ||
      it->second.block_num != block_num) {
    if (cache.size() > 1024) cache.clear();  // bounded: a program compiling ever new shapes
    const std::string_view shown = name != nullptr && name[0] != '\0' ? std::string_view(name) : op->type;
    CachedIds ids{op, name, block_num, dfx::ProfString(shown), dfx::ProfString(OpProfileDetail(*op, block_num))};
    it = cache.insert_or_assign(op.get(), std::move(ids)).first;
  }
  dfx::ProfRecordOpInfo(*task_id, it->second.name_id, it->second.detail_id);
}

}  // namespace npurt::ops
