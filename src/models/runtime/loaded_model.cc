#include "models/runtime/loaded_model.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>

#include <fmt/ranges.h>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/ge_error_codes.h"
#include "base/clock.h"
#include "core/alloc/device_allocator.h"
#include "core/context.h"
#include "core/device.h"
#include "core/dump/tensor_dump.h"
#include "core/kernel/builtin_tasks.h"
#include "core/memory/memory_ops.h"
#include "core/operators.h"
#include "core/runtime.h"
#include "core/sync/event.h"
#include "core/stream.h"
#include "dfx/log.h"
#include "dfx/profiler.h"
#include "models/runtime/model_resources.h"
#include "models/runtime/shape_compiler.h"
#include "models/soc_compat.h"

namespace npurt::models {

namespace {

// The node's tensor addresses as this replay binds them: the argument table lives in device memory, and a
// model input or output slot is patched for each execution.
std::vector<const void*> NodeAddresses(const NodeRecord& r) {
  std::vector<const void*> addresses(r.in_specs.size() + r.out_specs.size() + 1, nullptr);
  const size_t n = r.in_specs.size() + r.out_specs.size();
  if (Status read = core::ReadMemory(r.args, n * sizeof(void*), addresses.data(), "arguments"); !read.ok()) {
    NPURT_LOG_ERROR("DUMP", "cannot read the arguments of model node {}: {}", r.name, read.message());
    std::fill(addresses.begin(), addresses.end(), nullptr);
  }
  return addresses;
}

// Each execution writes with the configuration recorded at load, while a tensor dump is still on: after
// aclmdlFinalizeDump (or aclFinalize) the recorded work writes nothing.
void DumpNodeInputs(void* arg) {
  auto* r = static_cast<NodeRecord*>(arg);
  r->dumping = (core::dump::Switches() & core::dump::kTensors) != 0;
  if (r->dumping) core::dump::DumpInputs(*r->dump, r->in_specs, NodeAddresses(*r).data());
}

void DumpNodeOutputs(void* arg) {
  auto* r = static_cast<NodeRecord*>(arg);
  if (!r->dumping) return;
  core::dump::DumpOutputs(*r->dump, r->out_specs, NodeAddresses(*r).data() + r->in_specs.size(),
                          r->dispatch.status() == 0);
}

}  // namespace

namespace {

void FreeResources(ModelResources* res) {
  // The compiled operators first: an operator built with constant inputs may point into the weights.
  res->nodes.clear();
  // A destroyed context (or a reset device) already reclaimed its memory.
  if (res->context->alive()) {
    for (void* p : res->owned) (void)res->context->device()->allocator().Free(p, nullptr, 0);
  }
  res->context->Release();
  for (ModelResources* held : res->holds) ReleaseResources(held);
  delete res;
}

}  // namespace

ModelResources* NewResources(core::Context* ctx) {
  auto* res = new ModelResources();
  ctx->Retain();
  res->context = ctx;
  return res;
}

void ReleaseResources(void* arg) {
  auto* res = static_cast<ModelResources*>(arg);
  if (res->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) FreeResources(res);
}

uint8_t* WeightChunks::At(uint64_t offset) const {
  auto it = std::upper_bound(chunks.begin(), chunks.end(), offset,
                             [](uint64_t o, const std::pair<uint64_t, uint8_t*>& c) { return o < c.first; });
  if (it == chunks.begin()) return nullptr;
  --it;
  return it->second + (offset - it->first);
}

StatusOr<void*> AllocateFor(ModelResources* res, uint64_t bytes) {
  core::AllocRequest r;
  r.size = bytes == 0 ? 1 : bytes;
  r.policy = ACL_MEM_MALLOC_HUGE_FIRST;
  r.owner = res->context;
  auto p = res->context->device()->allocator().Allocate(r);
  if (!p.ok()) {
    return Err(ACL_ERROR_GE_MEMORY_ALLOCATION, "cannot allocate {} bytes of device memory for the model: {}", bytes,
               p.status().message());
  }
  res->owned.push_back(p.value());
  return p.value();
}

namespace {

// Cleanups of the dump tasks around a node (the records live as long as the resources): nothing to free, except
// that the last node's output dump, the RI's last task, holds the resources' reference.
void KeepNode(void*) {}
void ReleaseFromNode(void* arg) { ReleaseResources(static_cast<NodeRecord*>(arg)->release); }

// Caller-provided memory: device memory of this device, large enough.
Status CheckUserMemory(void* ptr, size_t size, uint64_t need, const char* what, core::Device* device,
                       const std::string& source) {
  if (size < need) {
    return Err(ACL_ERROR_GE_PARAM_INVALID, "{} size of model {} is {}, but the size given is {}", what, source, need,
               size);
  }
  auto span = core::ResolveSpanFor(ptr, need == 0 ? 1 : need, what, true);
  if (!span.ok()) return span.status();
  if (span.value().device != device) {
    return Err(ACL_ERROR_GE_PARAM_INVALID, "the {} memory given for model {} is not device memory of device {}", what,
               source, device->id());
  }
  return Status::Ok();
}

// "<op type>|<block num>|<inputs>|<outputs>", each tensor "<dtype>:<format>:<dims>" (dfx/prof_record.h kOpInfo).
std::string ProfileDetail(const om::ModelDef& def, const om::NodeDef& n, uint32_t blocks) {
  std::string out = fmt::format("{}|{}|", n.op_type, blocks);
  auto append = [&](const std::vector<int32_t>& ids) {
    bool first = true;
    for (int32_t t : ids) {
      if (t < 0) continue;
      const TensorSpec& s = def.tensors[t].spec;
      fmt::format_to(std::back_inserter(out), "{}{}:{}:{}", first ? "" : ";", s.dtype, s.format, fmt::join(s.dims, ","));
      first = false;
    }
  };
  append(n.inputs);
  out.push_back('|');
  append(n.outputs);
  return out;
}

std::string Bytes(uint64_t n) {
  if (n >= (1ull << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(n) / (1 << 20));
  if (n >= 1024) return fmt::format("{:.1f} KiB", static_cast<double>(n) / 1024);
  return fmt::format("{} B", n);
}

}  // namespace

void ApplyGearsToIo(const GearTable& t, std::vector<IoDesc>* inputs, std::vector<IoDesc>* outputs) {
  if (!t.dynamic()) return;
  for (size_t k = 0; k < t.templates.size(); ++k) (*inputs)[t.template_inputs[k]].spec.dims = t.templates[k].dims;
  auto widest = [](std::vector<IoDesc>* list, const std::vector<std::vector<std::vector<int64_t>>>& per_gear) {
    for (size_t i = 0; i < list->size(); ++i) {
      for (const auto& gear : per_gear) {
        TensorSpec s = (*list)[i].spec;
        s.dims = gear[i];
        (*list)[i].bytes = std::max<uint64_t>((*list)[i].bytes, s.bytes());
      }
    }
  };
  widest(inputs, t.input_dims);
  widest(outputs, t.output_dims);
}

void ApplyAippToIo(const std::vector<StaticAipp>& aipp, std::vector<IoDesc>* inputs) {
  for (const StaticAipp& a : aipp) {
    if (a.input < inputs->size()) (*inputs)[a.input].image_dims = a.image_dims;
  }
}

std::map<std::string, std::string, std::less<>> OriginNames(const om::ModelDef& def) {
  std::map<std::string, std::string, std::less<>> names;
  for (const om::NodeDef& n : def.nodes) {
    std::string joined;
    for (const std::string& o : n.origin_names) joined += (joined.empty() ? "" : ",") + o;
    names.emplace(n.name, joined.empty() ? n.name : joined);
  }
  return names;
}

StatusOr<std::unique_ptr<LoadedModel>> LoadedModel::Load(const om::ModelFile& file, const LoadMemory& memory,
                                                         const std::string& source, uint32_t id) {
  const om::ModelDef& def = file.def;
  auto ctx_or = core::RequireContext();
  if (!ctx_or.ok()) return ctx_or.status();
  core::Context* ctx = ctx_or.value();
  core::Device* device = ctx->device();
  if (!def.soc_version.empty() && !IsAscendSoc(def.soc_version)) {
    return Err(ACL_ERROR_GE_PARAM_INVALID, "model {} was built for SoC '{}', which is no Ascend SoC", source,
               def.soc_version);
  }
  // A dynamic-shape model's weight part is its source graph; its compiled graphs upload shape_weight_size.
  const bool shapes = def.dynamic_kind == om::DynamicKind::kShape;
  const uint64_t weight_bytes = shapes ? def.shape_weight_size : def.weight_size;
  if (memory.weight != nullptr) {
    NPURT_RETURN_IF_ERROR(CheckUserMemory(memory.weight, memory.weight_size, weight_bytes, "weight", device, source));
  }
  if (memory.work != nullptr) {
    NPURT_RETURN_IF_ERROR(CheckUserMemory(memory.work, memory.work_size, def.arena_size, "work", device, source));
  }

  std::unique_ptr<LoadedModel> m(new LoadedModel());
  m->id_ = id;
  m->name_ = def.name;
  m->source_ = source;
  m->arena_size_ = def.arena_size;
  m->weight_size_ = weight_bytes;
  m->node_count_ = def.nodes.size();
  m->origin_names_ = OriginNames(def);
  m->gears_ = MakeGearTable(def);
  for (int32_t t : def.inputs) m->inputs_.push_back({def.tensors[t].name, def.tensors[t].spec, def.tensors[t].bytes, {}});
  for (int32_t t : def.outputs) {
    // An output whose dims follow the data: -1 there (its bytes stay the bound's, what its buffer must hold).
    TensorSpec spec = def.tensors[t].spec;
    for (size_t k = 0; k < spec.dims.size() && k < 64; ++k) {
      if ((def.tensors[t].varying_dims >> k) & 1) spec.dims[k] = -1;
    }
    m->outputs_.push_back({def.tensors[t].name, spec, def.tensors[t].bytes, {}});
  }
  ApplyGearsToIo(m->gears_, &m->inputs_, &m->outputs_);
  m->aipp_ = FindStaticAipp(def);
  ApplyAippToIo(m->aipp_, &m->inputs_);
  auto stream_or = core::Stream::Create(ctx, core::StreamOptions{});
  if (!stream_or.ok()) return stream_or.status();
  m->stream_ = stream_or.value();
  m->stream_->Retain();

  m->context_ = ctx;
  ctx->Retain();

  // Until the RIs hold references, `res` is Load's to free (on failure); Load's own reference goes when
  // it returns.
  ModelResources* res = NewResources(ctx);
  struct Guard {
    ModelResources* res;
    ~Guard() { ReleaseResources(res); }
  } guard{res};
  if (shapes) {
    NPURT_RETURN_IF_ERROR(m->LoadShapeModel(file, memory, res));
    return m;
  }

  // 1. Memory: weights (uploaded once), the arena (every gear plans into it).
  uint8_t* weights = static_cast<uint8_t*>(memory.weight);
  if (weights == nullptr && def.weight_size > 0) {
    auto p = AllocateFor(res, def.weight_size);
    if (!p.ok()) return p.status();
    weights = static_cast<uint8_t*>(p.value());
  }
  if (def.weight_size > 0) NPURT_RETURN_IF_ERROR(core::WriteMemory(weights, file.weights, def.weight_size, "weights"));
  uint8_t* arena = static_cast<uint8_t*>(memory.work);
  if (arena == nullptr && def.arena_size > 0) {
    auto p = AllocateFor(res, def.arena_size);
    if (!p.ok()) return p.status();
    arena = static_cast<uint8_t*>(p.value());
  }

  // Outputs whose dims depend on the data are read from their shape slots after each execution, by a host task
  // outside the RI: the next execution waits for it like a gear model's (order_event_).
  for (const om::TensorDef& t : def.tensors) m->data_dependent_outputs_ |= t.region == om::Region::kOutput && t.data_dependent();
  for (const om::GearDef& g : def.gears) {
    for (const om::TensorDef& t : g.tensors) m->data_dependent_outputs_ |= t.region == om::Region::kOutput && t.data_dependent();
  }
  if (m->gears_.dynamic() || m->data_dependent_outputs_) {
    auto ev = core::Event::Create(ctx, 0, true);
    if (!ev.ok()) return ev.status();
    m->order_event_ = ev.value();
  }

  // 2. Each gear (a static model: the one graph) compiled and recorded.
  const size_t gear_count = m->gears_.dynamic() ? def.gears.size() : 1;
  res->nodes.resize(gear_count);
  m->runs_.resize(gear_count);
  const WeightChunks chunks{{{0, weights}}};
  for (size_t g = 0; g < gear_count; ++g) {
    if (!m->gears_.dynamic()) {
      NPURT_RETURN_IF_ERROR(m->Record(def, "", chunks, arena, res, 0, &m->runs_[0]));
    } else {
      NPURT_RETURN_IF_ERROR(m->Record(om::GearModel(def, g), fmt::format("gear {}", g), chunks, arena, res, g,
                                      &m->runs_[g]));
    }
  }
  NPURT_LOG_INFO("MODEL", "model {} loaded from {}: {} operators, {} inputs, {} outputs, weights {}{}, arena {}{}{}",
                 id, source, def.nodes.size(), def.inputs.size(), def.outputs.size(), Bytes(def.weight_size),
                 memory.weight != nullptr ? " (user memory)" : "", Bytes(def.arena_size),
                 memory.work != nullptr ? " (user memory)" : "",
                 m->gears_.dynamic() ? fmt::format(", {} gears {} (default {})", om::DynamicKindName(def.dynamic_kind),
                                                   m->gears_.Describe(), def.default_gear)
                                     : std::string());
  return m;
}

NodeCallSpecs SpecsOf(const om::ModelDef& def, const om::NodeDef& n, const WeightChunks& weights, bool host_visible) {
  NodeCallSpecs s;
  // Weights are constant while the model lives: the backend may pack them once (hal::OpRequest::constants).
  // It reads them through the host, so only where the device's memory is host-visible.
  for (int32_t t : n.inputs) {
    s.in.push_back(t < 0 ? TensorSpec{} : def.tensors[t].spec);
    const bool weight = t >= 0 && def.tensors[t].region == om::Region::kWeight && host_visible;
    s.constants.push_back(weight ? weights.At(def.tensors[t].offset) : nullptr);
    s.any_constant = s.any_constant || weight;
  }
  for (int32_t t : n.outputs) s.out.push_back(def.tensors[t].spec);
  return s;
}

namespace {

// Whether node n tiles per run at shapes kept on the device (it reads or writes a tensor with a shape slot).
bool Slotted(const om::ModelDef& def, const om::NodeDef& n) {
  for (int32_t t : n.inputs) {
    if (t >= 0 && def.tensors[t].data_dependent()) return true;
  }
  for (int32_t t : n.outputs) {
    if (def.tensors[t].data_dependent()) return true;
  }
  return false;
}

}  // namespace

// Compiles `def`'s graph and records it as an RI on the model's stream, its argument table in device memory
// of its own. A slotted node's entries are followed by its shape slots' addresses (hal::Dispatch::shapes): the
// arena's slot of each data-dependent tensor, and for each static tensor it reads a constant slot (its dims,
// written once into memory the record owns).
Status LoadedModel::Record(const om::ModelDef& def, const std::string& label, const WeightChunks& weights,
                           uint8_t* arena, ModelResources* res, size_t slot_index, GearRun* run_out,
                           NodePrograms* programs) {
  core::Device* device = context_->device();
  const std::string& source = source_;
  GearRun& run = *run_out;
  run.input_slots.resize(def.inputs.size());
  run.output_slots.resize(def.outputs.size());
  for (int32_t t : def.inputs) run.input_bytes.push_back(def.tensors[t].bytes);
  for (int32_t t : def.outputs) {
    const om::TensorDef& td = def.tensors[t];
    run.output_bytes.push_back(td.bytes);
    run.output_dims.push_back(td.spec.dims);
    run.output_shape_slots.push_back(td.data_dependent() ? reinterpret_cast<const int64_t*>(arena + td.shape_slot)
                                                         : nullptr);
    run.data_dependent_outputs = run.data_dependent_outputs || td.data_dependent();
  }
  // Output dims that depend on the data are read back by the host from their slots (DeliverOutputShapes).
  if (run.data_dependent_outputs && !device->info().caps.host_visible_memory) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "{}: its output dims depend on the data, and the host cannot read "
               "them back from device {}, whose memory it does not address", source, device->id());
  }
  const std::string where = label.empty() ? "model " + source : fmt::format("model {} ({})", source, label);
  size_t slots = 0;
  std::vector<int64_t> static_dims;          // the constant slots' values
  std::vector<int64_t> static_slot(def.tensors.size(), -1);  // per tensor: its constant slot's first word
  for (const om::NodeDef& n : def.nodes) {
    slots += n.inputs.size() + n.outputs.size();
    if (!Slotted(def, n)) continue;
    slots += n.inputs.size() + n.outputs.size();
    for (int32_t t : n.inputs) {
      if (t < 0 || def.tensors[t].data_dependent() || static_slot[t] >= 0) continue;
      static_slot[t] = static_cast<int64_t>(static_dims.size());
      const auto& dims = def.tensors[t].spec.dims;
      static_dims.insert(static_dims.end(), dims.begin(), dims.end());
      if (dims.empty()) static_dims.push_back(0);  // a scalar's slot: a valid address, never read
    }
  }
  int64_t* static_slots = nullptr;
  if (!static_dims.empty()) {
    auto p = AllocateFor(res, static_dims.size() * sizeof(int64_t));
    if (!p.ok()) return p.status();
    static_slots = static_cast<int64_t*>(p.value());
    NPURT_RETURN_IF_ERROR(core::WriteMemory(static_slots, static_dims.data(), static_dims.size() * sizeof(int64_t),
                                            "shape slots"));
  }
  auto table_or = AllocateFor(res, slots * sizeof(void*));
  if (!table_or.ok()) return table_or.status();
  auto* table = static_cast<void**>(table_or.value());
  std::vector<void*> host_table(slots, nullptr);

  // Every operator compiled by the backend, its outputs checked against what the model says.
  if (res->nodes.size() <= slot_index) res->nodes.resize(slot_index + 1);
  std::vector<NodeRecord>& records = res->nodes[slot_index];
  records.resize(def.nodes.size());
  size_t slot = 0;
  auto bind = [&](int32_t t, size_t at) {
    const om::TensorDef& td = def.tensors[t];
    switch (td.region) {
      case om::Region::kArena: host_table[at] = arena + td.offset; break;
      case om::Region::kWeight: host_table[at] = weights.At(td.offset); break;
      case om::Region::kInput: run.input_slots[td.io_index].push_back(&table[at]); break;
      case om::Region::kOutput: run.output_slots[td.io_index].push_back(&table[at]); break;
    }
  };
  std::vector<size_t> first_slot(def.nodes.size());
  const bool host_visible = device->info().caps.host_visible_memory;
  if (programs != nullptr) {
    programs->programs.resize(def.nodes.size());
    programs->retiled.resize(def.nodes.size(), false);
  }
  for (size_t i = 0; i < def.nodes.size(); ++i) {
    const om::NodeDef& n = def.nodes[i];
    NodeCallSpecs specs = SpecsOf(def, n, weights, host_visible);
    std::vector<TensorSpec>& in_specs = specs.in;
    std::vector<TensorSpec>& out_specs = specs.out;
    std::shared_ptr<const core::OperatorProgram> program = programs != nullptr ? programs->programs[i] : nullptr;
    const bool slotted = Slotted(def, n);
    if (program == nullptr) {
      auto built = BuildNode(n, in_specs, out_specs, specs.any_constant ? &specs.constants : nullptr, where, slotted);
      if (!built.ok()) return std::move(built).status();
      program = std::move(built.value().program);
      if (programs != nullptr) {
        programs->programs[i] = program;
        programs->retiled[i] = built.value().reused;
      }
    }
    records[i].name = n.name;
    records[i].program = std::move(program);
    records[i].in_specs = std::move(in_specs);
    records[i].out_specs = std::move(out_specs);
    records[i].args = &table[slot];
    first_slot[i] = slot;
    for (int32_t t : n.inputs) {
      if (t >= 0) bind(t, slot);
      ++slot;
    }
    for (int32_t t : n.outputs) bind(t, slot++);
    if (!slotted) continue;
    for (int32_t t : n.inputs) {
      if (t >= 0) {
        const om::TensorDef& td = def.tensors[t];
        host_table[slot] = td.data_dependent() ? static_cast<void*>(arena + td.shape_slot)
                                               : static_cast<void*>(static_slots + static_slot[t]);
      }
      ++slot;
    }
    for (int32_t t : n.outputs) host_table[slot++] = arena + def.tensors[t].shape_slot;
  }
  if (slots > 0) NPURT_RETURN_IF_ERROR(core::WriteMemory(table, host_table.data(), slots * sizeof(void*), "arguments"));
  return Capture(def, label, res, table, slots, first_slot, records, run_out);
}

StatusOr<core::OperatorBuild> LoadedModel::BuildNode(const om::NodeDef& n, const std::vector<TensorSpec>& in_specs,
                                                     const std::vector<TensorSpec>& out_specs,
                                                     const std::vector<const void*>* constants,
                                                     const std::string& where, bool slotted) {
  core::OperatorCall call{n.op_type, &in_specs, &out_specs, &n.attrs, true, constants};
  call.shape_slots = slotted;  // tiled per run at the dims its slots hold: its own executable, never a family's
  // A dynamic-shape model's operator with weights may re-tile the kernel its family got at another shape
  // (op_families_); the compile cache does the same for those without.
  std::string family;
  if (compiler_ != nullptr && constants != nullptr && !slotted) {
    family = core::OperatorFamilyKey(call);
    for (const void* c : *constants) family += fmt::format("|{}", c);
    if (auto it = op_families_.find(family); it != op_families_.end()) call.reuse = it->second.get();
  }
  // Without constants through the op compile cache: a dynamic-shape model's shapes, its re-records and other
  // models then share the compiles of equal operators.
  const uint64_t build_t0 = compiler_ != nullptr ? NowNs() : 0;
  auto built = core::BuildOperatorCached(call);
  if (!built.ok()) {
    return Err(built.status().code(), "{}: node {} ({} from {}) does not compile: {}", where, n.name, n.op_type,
               n.source_type, built.status().message());
  }
  const auto& inferred = built.value().outputs;
  for (size_t o = 0; o < out_specs.size(); ++o) {
    if (o >= inferred.size() || inferred[o].dtype != out_specs[o].dtype || inferred[o].dims != out_specs[o].dims) {
      return Err(ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED, "{}: node {} ({}) computes output {} as {}, the "
                 "model says {}", where, n.name, n.op_type, o,
                 o < inferred.size() ? Describe(inferred[o]) : std::string("nothing"), Describe(out_specs[o]));
    }
  }
  if (compiler_ != nullptr) {
    if (!family.empty()) op_families_[family] = built.value().program;
    const bool reused = built.value().reused;
    dfx::ProfRecordOpCache(ops_row_, reused ? 3 : 1, NowNs() - build_t0);
    std::lock_guard<std::mutex> lock(stats_mu_);
    ++stats_.ops_built;
    if (reused) ++stats_.ops_retiled;
  }
  return built;
}

// Records the bound nodes as an RI on the model's stream.
Status LoadedModel::Capture(const om::ModelDef& def, const std::string& label, ModelResources* res, void** table,
                            size_t slots, const std::vector<size_t>& first_slot, std::vector<NodeRecord>& records,
                            GearRun* run_out) {
  core::Device* device = context_->device();
  const std::string& source = source_;
  GearRun& run = *run_out;
  // Recorded once on the model's stream.
  auto ri_or = core::ModelRI::Create(context_, core::ModelRI::State::kEmpty);
  if (!ri_or.ok()) return ri_or.status();
  run.ri = ri_or.value();
  run.ri->SetName(label.empty() ? fmt::format("model {} {}", id_, source)
                                : fmt::format("model {} {} {}", id_, source, label));
  // A graph whose operators run on several streams (its nodes' `stream`, ordered across streams by `waits`):
  // the model's other streams, created when a graph first needs them (a dynamic-shape model's compiled graphs
  // may need more than its first).
  while (branch_streams_.size() + 1 < def.stream_count) {
    auto branch = core::Stream::Create(context_, core::StreamOptions{});
    if (!branch.ok()) return branch.status();
    branch.value()->Retain();
    branch_streams_.push_back(branch.value());
  }
  NPURT_RETURN_IF_ERROR(run.ri->BeginCapture(stream_, core::CaptureMode::kThreadLocal));
  // Several streams: each joins the capture at its first node (waiting for an event recorded on the model's
  // stream at the start), a node that another stream waits for records an event after it, and every stream
  // joins the model's stream again at the end. The events only shape the capture (the RI keeps the order they
  // made); they go when the record is done.
  std::vector<core::Event*> events;
  struct EventsGuard {
    std::vector<core::Event*>& events;
    ~EventsGuard() {
      for (core::Event* e : events) e->Destroy();
    }
  } events_guard{events};
  auto new_event = [&]() -> StatusOr<core::Event*> {
    auto e = core::Event::Create(context_, 0, true);
    if (e.ok()) events.push_back(e.value());
    return e;
  };
  const uint64_t wait_ms = core::Runtime::Get().op_wait_timeout_ms.load();
  std::vector<core::Event*> after(def.nodes.size(), nullptr);  // per node another stream waits for
  std::vector<bool> joined(def.stream_count, false);
  joined[0] = true;
  core::Event* fork = nullptr;
  if (def.stream_count > 1) {
    for (const om::NodeDef& n : def.nodes) {
      for (uint32_t w : n.waits) {
        if (def.nodes[w].stream == n.stream || after[w] != nullptr) continue;
        auto e = new_event();
        if (!e.ok()) return e.status();
        after[w] = e.value();
      }
    }
    auto e = new_event();
    if (!e.ok()) return e.status();
    fork = e.value();
    NPURT_RETURN_IF_ERROR(fork->Record(stream_));
  }
  for (size_t i = 0; i < def.nodes.size(); ++i) {
    const om::NodeDef& n = def.nodes[i];
    NodeRecord& r = records[i];
    core::Stream* on = n.stream == 0 ? stream_ : branch_streams_[n.stream - 1];
    if (!joined[n.stream]) {
      NPURT_RETURN_IF_ERROR(fork->StreamWait(on, static_cast<int64_t>(wait_ms)));
      joined[n.stream] = true;
    }
    for (uint32_t w : n.waits) {
      if (after[w] != nullptr) NPURT_RETURN_IF_ERROR(after[w]->StreamWait(on, static_cast<int64_t>(wait_ms)));
    }
    const size_t s = first_slot[i];
    const size_t io = n.inputs.size() + n.outputs.size();
    int64_t* const* shapes = Slotted(def, n) ? reinterpret_cast<int64_t* const*>(&table[s + io]) : nullptr;
    r.dispatch.Bind(*r.program, const_cast<const void* const*>(&table[s]), static_cast<uint32_t>(n.inputs.size()),
                    &table[s + n.inputs.size()], static_cast<uint32_t>(n.outputs.size()), on, r.name.c_str(),
                    shapes);
    const bool last = i + 1 == def.nodes.size();
    // Profiled programs see each operator under its source name and type (op_summary, the timeline): the
    // replays run the recorded tasks, whose ids are these.
    uint32_t task_id = 0;
    if (core::dump::Switches() != 0) [[unlikely]] {
      r.dump = core::dump::PlanTensorDump(n.op_type, n.name.c_str(), on, &task_id);
    }
    if (dfx::ProfOn(dfx::prof_bits::kAnyTaskTime)) {
      if (task_id == 0) task_id = core::NextTaskId();
      dfx::ProfRecordOpInfo(task_id, dfx::ProfString(n.name),
                            dfx::ProfString(ProfileDetail(def, n, device->info().aicore_count)));
    }
    // The last task holds a reference to the resources until the RI's last replay is done.
    if (last) res->refs.fetch_add(1, std::memory_order_relaxed);
    if (r.dump == nullptr) {
      core::SubmitOperator(on, &r.dispatch, last ? &ReleaseResources : nullptr, last ? res : nullptr, task_id);
      if (after[i] != nullptr) NPURT_RETURN_IF_ERROR(after[i]->Record(on));
      continue;
    }
    // With a dump the node's output dump is its last task, so the last node's holds the resources' reference.
    r.release = last ? res : nullptr;
    core::SubmitHostWorkTask(on, &DumpNodeInputs, &r, &KeepNode);
    core::SubmitOperator(on, &r.dispatch, nullptr, nullptr, task_id);
    core::SubmitHostWorkTask(on, &DumpNodeOutputs, &r, last ? &ReleaseFromNode : &KeepNode);
    if (after[i] != nullptr) NPURT_RETURN_IF_ERROR(after[i]->Record(on));
  }
  // Every other stream joins the model's stream again, so the replay ends when all of them did.
  for (uint32_t b = 1; b < def.stream_count; ++b) {
    if (!joined[b]) continue;
    auto e = new_event();
    if (!e.ok()) return e.status();
    NPURT_RETURN_IF_ERROR(e.value()->Record(branch_streams_[b - 1]));
    NPURT_RETURN_IF_ERROR(e.value()->StreamWait(stream_, static_cast<int64_t>(wait_ms)));
  }
  bool ended = false;
  NPURT_RETURN_IF_ERROR(run.ri->EndCapture(stream_, &ended));
  patches_.reserve(std::max(patches_.capacity(), slots));
  return Status::Ok();
}

LoadedModel::~LoadedModel() {
  StopSpecializing();  // its builds read the weights and the def the model holds
  if (order_event_ != nullptr && context_ != nullptr && context_->alive()) order_event_->Destroy();
  for (GearRun& run : runs_) {
    if (run.ri != nullptr) run.ri->Destroy();  // the resources go with the last replay
  }
  if (gears_.shapes()) LogShapeCache();
  for (auto& [dims, v] : variants_) DropRecording(v.get());
  if (arena_res_ != nullptr) ReleaseResources(arena_res_);
  if (shared_res_ != nullptr) ReleaseResources(shared_res_);
  for (core::Stream* b : branch_streams_) {
    if (b->alive() && context_ != nullptr && context_->alive()) b->Destroy(false);
    b->Release();
  }
  if (stream_ != nullptr) {
    if (stream_->alive() && context_ != nullptr && context_->alive()) stream_->Destroy(false);
    stream_->Release();
  }
  if (context_ != nullptr) context_->Release();
}

Status LoadedModel::CheckBuffers(const std::vector<UserBuffer>& buffers, const GearRun& run, bool outputs) const {
  const char* what = outputs ? "output" : "input";
  const std::vector<IoDesc>& descs = outputs ? outputs_ : inputs_;
  const std::vector<uint64_t>& needs = outputs ? run.output_bytes : run.input_bytes;
  if (buffers.size() != descs.size()) {
    return Err(ACL_ERROR_GE_FAILURE, "model {} has {} {}s, the dataset holds {} buffers", id_, descs.size(), what,
               buffers.size());
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    const UserBuffer& b = buffers[i];
    const IoDesc& d = descs[i];
    const uint64_t need = needs[i];
    if (b.data == nullptr) {
      return Err(ACL_ERROR_INVALID_PARAM, "{} {} ({}) of model {} has no memory (a null data buffer address)", what, i,
                 d.name, id_);
    }
    // An input may be larger than this gear reads, up to the largest gear's size (CANN: only a buffer larger
    // than the model input is refused). An unbounded dynamic-shape input has no largest size (0).
    if (!outputs && b.size > d.bytes && !(gears_.shapes() && d.bytes == 0)) {
      return Err(ACL_ERROR_GE_FAILURE, "input {} ({}) of model {} has {} bytes, more than the {} bytes it takes ({})", i,
                 d.name, id_, b.size, d.bytes, Describe(d.spec));
    }
    if (b.size < need) {
      return Err(ACL_ERROR_GE_PARAM_INVALID, "{} {} ({}) of model {} has {} bytes; it needs {} ({}{})", what, i, d.name,
                 id_, b.size, need, Describe(d.spec),
                 gears_.dynamic()  ? fmt::format(", in the gear this execution runs")
                 : gears_.shapes() ? fmt::format(", at the shapes this execution gives")
                                   : std::string());
    }
    auto span = core::ResolveSpanFor(b.data, need == 0 ? 1 : need, what, outputs);
    if (!span.ok()) {
      return Err(ACL_ERROR_INVALID_PARAM, "{} {} ({}) of model {}: {}", what, i, d.name, id_, span.status().message());
    }
    if (span.value().device != context_->device()) {
      return Err(ACL_ERROR_INVALID_PARAM,
                 "{} {} ({}) of model {} is {}; the model reads and writes device memory of device {} (aclrtMalloc)",
                 what, i, d.name, id_,
                 span.value().device == nullptr ? std::string("host memory")
                                                : fmt::format("memory of device {}", span.value().device->id()),
                 context_->device()->id());
    }
  }
  return Status::Ok();
}

namespace {

// The host task that reads an execution's data-dependent output dims from their shape slots.
struct ShapeReadback {
  std::vector<const int64_t*> slots;  // per output (null: static)
  std::shared_ptr<OutputShapes> out;
};

void ReadBackShapes(void* arg) {
  auto* r = static_cast<ShapeReadback*>(arg);
  for (size_t i = 0; i < r->slots.size(); ++i) {
    // Device memory the host reads (Record refuses such outputs on devices whose memory is not host-visible).
    if (r->slots[i] != nullptr) r->out->dims[i].assign(r->slots[i], r->slots[i] + r->out->dims[i].size());
  }
  if (r->out->done) r->out->done(*r->out);
}

}  // namespace

void LoadedModel::DeliverOutputShapes(const GearRun& run, core::Stream* stream,
                                      const std::shared_ptr<OutputShapes>& out) {
  if (out == nullptr) return;
  out->dims = run.output_dims;
  if (!run.data_dependent_outputs) {
    if (out->done) out->done(*out);
    return;
  }
  core::SubmitHostWork(stream, &ReadBackShapes, new ShapeReadback{run.output_shape_slots, out});
}

Status LoadedModel::ExecuteAsync(const std::vector<UserBuffer>& inputs, const std::vector<UserBuffer>& outputs,
                                 core::Stream* stream, int32_t gear, const std::vector<std::vector<int64_t>>* shapes,
                                 const std::shared_ptr<OutputShapes>& output_shapes) {
  if (gears_.shapes()) {
    std::lock_guard<std::mutex> lock(exec_mu_);
    auto dims = ResolveShapes(shapes);
    if (!dims.ok()) return dims.status();
    auto v = VariantFor(dims.value());
    if (!v.ok()) return v.status();
    const GearRun& run = v.value()->run;
    NPURT_RETURN_IF_ERROR(CheckBuffers(inputs, run, false));
    NPURT_RETURN_IF_ERROR(CheckBuffers(outputs, run, true));
    return LaunchRun(run, inputs, outputs, stream, output_shapes);
  }
  size_t g = 0;
  if (gears_.dynamic()) {
    g = gear < 0 ? gears_.default_gear : static_cast<size_t>(gear);
    if (g >= runs_.size()) {
      return Err(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, "model {} has {} gears, not gear {}", id_, runs_.size(), g);
    }
  }
  const GearRun& run = runs_[g];
  NPURT_RETURN_IF_ERROR(CheckBuffers(inputs, run, false));
  NPURT_RETURN_IF_ERROR(CheckBuffers(outputs, run, true));
  std::lock_guard<std::mutex> lock(exec_mu_);
  return LaunchRun(run, inputs, outputs, stream, output_shapes);
}

Status LoadedModel::LaunchRun(const GearRun& run, const std::vector<UserBuffer>& inputs,
                              const std::vector<UserBuffer>& outputs, core::Stream* stream,
                              const std::shared_ptr<OutputShapes>& output_shapes) {
  patches_.clear();
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (void* w : run.input_slots[i]) patches_.push_back({w, reinterpret_cast<uintptr_t>(inputs[i].data)});
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    for (void* w : run.output_slots[i]) patches_.push_back({w, reinterpret_cast<uintptr_t>(outputs[i].data)});
  }
  if (order_event_ == nullptr) {
    NPURT_RETURN_IF_ERROR(run.ri->LaunchPatched(stream, patches_.data(), patches_.size()));
    DeliverOutputShapes(run, stream, output_shapes);
    return Status::Ok();
  }
  // Gears, shapes and data-dependent outputs: after the previous execution (and its reading of output shape
  // slots), whichever stream and graph it had.
  if (last_stream_ != nullptr && last_stream_ != stream) {
    const uint64_t wait_ms = core::Runtime::Get().op_wait_timeout_ms.load();
    NPURT_RETURN_IF_ERROR(order_event_->StreamWait(stream, static_cast<int64_t>(wait_ms)));
  }
  NPURT_RETURN_IF_ERROR(run.ri->LaunchPatched(stream, patches_.data(), patches_.size()));
  DeliverOutputShapes(run, stream, output_shapes);
  last_stream_ = stream;
  return order_event_->Record(stream);
}

Status LoadedModel::Execute(const std::vector<UserBuffer>& inputs, const std::vector<UserBuffer>& outputs,
                            int32_t timeout_ms, int32_t gear, const std::vector<std::vector<int64_t>>* shapes,
                            const std::shared_ptr<OutputShapes>& output_shapes) {
  NPURT_RETURN_IF_ERROR(ExecuteAsync(inputs, outputs, stream_, gear, shapes, output_shapes));
  auto st = stream_->Synchronize(timeout_ms);
  if (!st.ok()) {
    return Err(st.code() == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT ? ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT : st.code(),
               "execution of model {} failed: {}", id_, st.message());
  }
  return Status::Ok();
}

}  // namespace npurt::models
