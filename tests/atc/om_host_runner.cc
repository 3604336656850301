#include "om_host_runner.h"

#include <cstdlib>
#include <cstring>
#include <memory>

#include "core/operators.h"
#include "models/om/om_reader.h"

namespace npurt::atc::testing {
namespace {

struct AlignedFree {
  void operator()(uint8_t* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<uint8_t[], AlignedFree>;

Buffer Alloc(uint64_t bytes) {
  const uint64_t n = (std::max<uint64_t>(bytes, 64) + 63) / 64 * 64;
  auto* p = static_cast<uint8_t*>(std::aligned_alloc(64, n));
  if (p != nullptr) std::memset(p, 0, n);
  return Buffer(p);
}

}  // namespace

Status RunOmOnHost(const std::string& om_path, const std::vector<std::vector<uint8_t>>& inputs,
                   std::vector<std::vector<uint8_t>>* outputs, size_t gear) {
  std::string image;
  NPURT_RETURN_IF_ERROR(om::ReadFileBytes(om_path, &image));
  auto file = om::ReadModel(image.data(), image.size(), om_path);
  if (!file.ok()) return std::move(file).status();
  const om::ModelDef d = om::GearModel(file->def, file->def.dynamic_kind == om::DynamicKind::kNone ? 0 : gear);
  if (inputs.size() != d.inputs.size()) return Status(1, "wrong number of inputs");
  Buffer arena = Alloc(d.arena_size), weights = Alloc(d.weight_size);
  std::memcpy(weights.get(), file->weights, d.weight_size);
  std::vector<Buffer> in_bufs, out_bufs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const om::TensorDef& t = d.tensors[static_cast<size_t>(d.inputs[i])];
    if (inputs[i].size() != t.bytes) return Status(1, "input " + std::to_string(i) + " has the wrong size");
    in_bufs.push_back(Alloc(t.bytes));
    std::memcpy(in_bufs.back().get(), inputs[i].data(), t.bytes);
  }
  for (int32_t o : d.outputs) out_bufs.push_back(Alloc(d.tensors[static_cast<size_t>(o)].bytes));
  auto addr = [&](int32_t id) -> uint8_t* {
    const om::TensorDef& t = d.tensors[static_cast<size_t>(id)];
    switch (t.region) {
      case om::Region::kArena: return arena.get() + t.offset;
      case om::Region::kWeight: return weights.get() + t.offset;
      case om::Region::kInput: return in_bufs[t.io_index].get();
      case om::Region::kOutput: return out_bufs[t.io_index].get();
    }
    return nullptr;
  };
  for (const om::NodeDef& n : d.nodes) {
    std::vector<TensorSpec> in_specs, req;
    std::vector<const void*> ins;
    std::vector<void*> outs;
    for (int32_t t : n.inputs) {
      in_specs.push_back(d.tensors[static_cast<size_t>(t)].spec);
      ins.push_back(addr(t));
    }
    for (int32_t t : n.outputs) {
      req.push_back(d.tensors[static_cast<size_t>(t)].spec);
      outs.push_back(addr(t));
    }
    core::OperatorCall call{n.op_type, &in_specs, &req, &n.attrs, true};
    auto built = core::BuildOperator(call);
    if (!built.ok()) return Status(1, n.name + ": " + built.status().message());
    NPURT_RETURN_IF_ERROR(core::RunOperatorNow(*built->program, ins.data(), static_cast<uint32_t>(ins.size()),
                                               outs.data(), static_cast<uint32_t>(outs.size()), 2, n.name.c_str()));
  }
  outputs->clear();
  for (size_t i = 0; i < d.outputs.size(); ++i) {
    const uint64_t bytes = d.tensors[static_cast<size_t>(d.outputs[i])].bytes;
    outputs->emplace_back(out_bufs[i].get(), out_bufs[i].get() + bytes);
  }
  return Status::Ok();
}

}  // namespace npurt::atc::testing
