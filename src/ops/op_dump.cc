#include "ops/op_dump.h"

#include <mutex>
#include <set>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/dtype.h"
#include "core/dump/dump_config.h"
#include "core/dump/dump_writer.h"
#include "dfx/log.h"

namespace npurt::ops {
namespace {

// aclopStartDumpArgs: one operator info file per operator type and tensor signature.
void WriteOpInfo(const CompiledOp& op, const char* name, const std::string& dir) {
  nlohmann::json doc;
  doc["op_type"] = op.type;
  doc["op_name"] = name;
  auto describe = [](const std::vector<TensorSpec>& specs) {
    nlohmann::json list = nlohmann::json::array();
    for (const TensorSpec& s : specs) {
      list.push_back({{"data_type", DTypeName(s.dtype)}, {"format", FormatName(s.format)}, {"shape", s.dims}});
    }
    return list;
  };
  doc["inputs"] = describe(op.inputs);
  doc["outputs"] = describe(op.outputs);
  const std::string text = doc.dump(2) + "\n";
  const std::string path = fmt::format("{}/{}_{:016x}.json", dir, op.type, std::hash<std::string>{}(doc.dump()));
  static std::mutex mu;
  static std::set<std::string>* written = new std::set<std::string>();
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!written->insert(path).second) return;
  }
  if (!core::dump::Emit(path, text.data(), text.size())) {
    NPURT_LOG_ERROR("DUMP", "cannot write the operator info file {}", path);
  }
}

}  // namespace

OpDumpPlanPtr PlanOpDump(const CompiledOp& op, const char* name, core::Stream* stream, uint32_t* task_id) {
  const uint32_t on = core::dump::Switches();
  if (name == nullptr || name[0] == '\0') name = op.type.c_str();
  if (on & core::dump::kArgs) {
    const std::string dir = core::dump::ArgsPath();
    if (!dir.empty()) WriteOpInfo(op, name, dir);
  }
  return core::dump::PlanTensorDump(op.type, name, stream, task_id);
}

void DumpOpInputs(OpDumpPlan& plan, const CompiledOp& op, const BoundBuffers& bound) {
  core::dump::DumpInputs(plan, op.inputs, bound.inputs.data());
}

void DumpOpOutputs(OpDumpPlan& plan, const CompiledOp& op, const BoundBuffers& bound, bool ran) {
  core::dump::DumpOutputs(plan, op.outputs, bound.outputs.data(), ran);
}

}  // namespace npurt::ops
