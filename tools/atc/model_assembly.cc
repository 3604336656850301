#include "model_assembly.h"

#include <algorithm>
#include <numeric>

#include "atc_options.h"
#include "weight_packing.h"

namespace npurt::atc {
namespace {


int32_t Find(std::vector<int32_t>& parent, int32_t x) {
  while (parent[static_cast<size_t>(x)] != x) {
    parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
    x = parent[static_cast<size_t>(x)];
  }
  return x;
}

}  // namespace

StatusOr<AssembledModel> AssembleModel(const Graph& g, const AssemblyOptions& opts) {
  AssembledModel out;
  om::ModelDef& def = out.def;
  // Tensors that the model keeps, renumbered in first-reference order.
  std::vector<int32_t> remap(g.tensors.size(), -1);
  std::vector<int32_t> kept;
  auto keep = [&](int32_t t) {
    if (t >= 0 && remap[static_cast<size_t>(t)] < 0) {
      remap[static_cast<size_t>(t)] = static_cast<int32_t>(kept.size());
      kept.push_back(t);
    }
  };
  for (int32_t t : g.inputs) keep(t);
  for (const Node& n : g.nodes) {
    for (int32_t t : n.inputs) keep(t);
    for (int32_t t : n.outputs) keep(t);
  }
  for (int32_t t : g.outputs) keep(t);
  const size_t nt = kept.size();
  std::vector<om::Region> region(nt, om::Region::kArena);
  def.tensors.resize(nt);
  for (size_t i = 0; i < nt; ++i) {
    const Tensor& src = g.tensors[static_cast<size_t>(kept[i])];
    om::TensorDef& d = def.tensors[i];
    d.name = src.name;
    d.spec = src.spec;
    d.bytes = src.spec.bytes();
    if (d.bytes > (uint64_t{1} << 44)) {
      return Err(kFail, "tensor {} {} has {} bytes, more than npurt can place", d.name, DimsString(src.spec.dims), d.bytes);
    }
    if (src.kind == TensorKind::kConstant) region[i] = om::Region::kWeight;
  }
  for (size_t k = 0; k < g.inputs.size(); ++k) {
    const auto i = static_cast<size_t>(remap[static_cast<size_t>(g.inputs[k])]);
    region[i] = om::Region::kInput;
    def.tensors[i].io_index = static_cast<uint32_t>(k);
    def.inputs.push_back(static_cast<int32_t>(i));
  }
  for (size_t k = 0; k < g.outputs.size(); ++k) {
    const auto i = static_cast<size_t>(remap[static_cast<size_t>(g.outputs[k])]);
    if (region[i] != om::Region::kArena) {
      return Err(kFail, "internal error: output {} is also a {}", def.tensors[i].name, om::RegionName(region[i]));
    }
    region[i] = om::Region::kOutput;
    def.tensors[i].io_index = static_cast<uint32_t>(k);
    def.outputs.push_back(static_cast<int32_t>(i));
  }
  for (size_t i = 0; i < nt; ++i) def.tensors[i].region = region[i];

  // Nodes, and views: a Reshape between two arena tensors gives its output its input's buffer.
  const bool multi_stream = opts.streams != nullptr && opts.streams->stream_count > 1 &&
                            opts.streams->stream.size() == g.nodes.size();
  if (multi_stream) def.stream_count = opts.streams->stream_count;
  std::vector<int32_t> parent(nt);
  std::iota(parent.begin(), parent.end(), 0);
  for (const Node& n : g.nodes) {
    om::NodeDef d;
    d.name = n.name;
    d.source_type = n.source_type;
    d.op_type = n.op_type;
    d.attrs = n.attrs;
    d.origin_names = n.origin_names;
    for (int32_t t : n.inputs) d.inputs.push_back(t < 0 ? -1 : remap[static_cast<size_t>(t)]);
    for (int32_t t : n.outputs) d.outputs.push_back(remap[static_cast<size_t>(t)]);
    if (multi_stream) {
      const size_t k = def.nodes.size();
      d.stream = opts.streams->stream[k];
      d.waits = opts.streams->waits[k];
    }
    if (n.view_candidate && d.inputs.size() == 1 && d.outputs.size() == 1 && !g.Slotted(n)) {
      const auto in = static_cast<size_t>(d.inputs[0]), o = static_cast<size_t>(d.outputs[0]);
      if (region[in] == om::Region::kArena && region[o] == om::Region::kArena) {
        parent[o] = Find(parent, static_cast<int32_t>(in));
        ++out.views;
      }
    }
    def.nodes.push_back(std::move(d));
  }

  // Lifetimes of the arena buffers (one per view group), over node steps.
  std::vector<int32_t> buffer_of(nt, -1);
  std::vector<PlanBuffer> buffers;
  std::vector<std::vector<int32_t>> uses;  // per buffer: the steps that write or read it
  auto touch = [&](size_t t, int32_t step) {
    if (region[t] != om::Region::kArena) return;
    const auto root = static_cast<size_t>(Find(parent, static_cast<int32_t>(t)));
    if (buffer_of[root] < 0) {
      buffer_of[root] = static_cast<int32_t>(buffers.size());
      buffers.push_back(PlanBuffer{def.tensors[root].bytes, step, step});
      uses.emplace_back();
    }
    PlanBuffer& b = buffers[static_cast<size_t>(buffer_of[root])];
    b.first = std::min(b.first, step);
    b.last = std::max(b.last, step);
    uses[static_cast<size_t>(buffer_of[root])].push_back(step);
  };
  for (size_t s = 0; s < def.nodes.size(); ++s) {
    for (int32_t t : def.nodes[s].outputs) touch(static_cast<size_t>(t), static_cast<int32_t>(s));
    for (int32_t t : def.nodes[s].inputs) {
      if (t >= 0) touch(static_cast<size_t>(t), static_cast<int32_t>(s));
    }
  }
  // Several streams: a buffer stays live up to the last node that is not ordered after all its uses (such a
  // node may run while the buffer is still read or written on another stream), so the interval rule keeps
  // every buffer another stream may touch at the same time apart from it.
  if (multi_stream) {
    const std::vector<std::vector<bool>> after = OrderedAfter(g, *opts.streams);
    const auto steps = static_cast<int32_t>(def.nodes.size());
    for (size_t b = 0; b < buffers.size(); ++b) {
      for (int32_t s = steps - 1; s > buffers[b].last; --s) {
        bool ordered = true;
        for (int32_t u : uses[b]) ordered = ordered && (u == s || after[static_cast<size_t>(s)][static_cast<size_t>(u)]);
        if (!ordered) {
          buffers[b].last = s;
          break;
        }
      }
    }
  }
  out.plan = PlanMemory(buffers, om::kTensorAlign, opts.disable_reuse);
  def.arena_size = out.plan.arena;
  def.plan_lower_bound = out.plan.lower_bound;
  def.plan_no_reuse = out.plan.no_reuse;
  for (size_t i = 0; i < nt; ++i) {
    if (region[i] != om::Region::kArena) continue;
    const auto root = static_cast<size_t>(Find(parent, static_cast<int32_t>(i)));
    def.tensors[i].offset = out.plan.offsets[static_cast<size_t>(buffer_of[root])];
  }
  // Shape slots, after the planned buffers: each data-dependent tensor's actual dims (rank int64s), live for
  // the whole execution (its consumers and the output descriptors read them).
  uint64_t slots_at = (def.arena_size + 7) / 8 * 8;
  for (size_t i = 0; i < nt; ++i) {
    const Tensor& src = g.tensors[static_cast<size_t>(kept[i])];
    if (!src.data_dependent) continue;
    def.tensors[i].shape_slot = static_cast<int64_t>(slots_at);
    def.tensors[i].varying_dims = src.varying_dims;
    slots_at += std::max<size_t>(src.spec.rank(), 1) * sizeof(int64_t);  // a scalar's: one word, never written
    def.arena_size = (slots_at + om::kTensorAlign - 1) / om::kTensorAlign * om::kTensorAlign;
  }

  // The weight region.
  WeightPacker own;
  WeightPacker& packer = opts.packer != nullptr ? *opts.packer : own;
  const uint64_t saved_before = packer.deduplicated_bytes();
  uint64_t total = packer.region().size();
  for (size_t i = 0; i < nt; ++i) {
    const ConstBytes& bytes = g.tensors[static_cast<size_t>(kept[i])].data;
    if (region[i] == om::Region::kWeight && !packer.Known(bytes)) total += bytes.size() + om::kTensorAlign;
  }
  packer.Reserve(total);
  for (size_t i = 0; i < nt; ++i) {
    if (region[i] != om::Region::kWeight) continue;
    def.tensors[i].offset = packer.Add(g.tensors[static_cast<size_t>(kept[i])].data);
  }
  out.weights_deduplicated = packer.deduplicated_bytes() - saved_before;
  if (opts.packer != nullptr) return out;
  out.weights = packer.TakeRegion();
  const uint64_t padded = (out.weights.size() + om::kTensorAlign - 1) / om::kTensorAlign * om::kTensorAlign;
  out.weights.resize(padded, 0);
  def.weight_size = out.weights.size();
  return out;
}

}  // namespace npurt::atc
