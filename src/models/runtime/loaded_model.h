// A loaded offline model (aclmdlLoad*): the verified model, its weights in device memory (uploaded once),
// its feature-map arena, and its operators compiled by the operator backend of the runtime's driver and
// recorded once as a model RI (core/model_ri) on the model's stream. An execution binds the user's input
// and output buffers in place (zero copy: the replay first writes their addresses into the operators'
// argument table in device memory) and replays the RI on the caller's stream. Nothing is allocated,
// compiled or validated again per execution beyond the user's buffers.
//
// Memory (docs/models.md, "Memory"):
//   weights  the weight region of the .om, at the offsets atc planned: the runtime's or the user's
//            (aclmdlLoadFrom*WithMem), read-only while the model lives
//   arena    the feature maps, at the offsets of atc's plan (tensors with disjoint lifetimes share bytes):
//            the runtime's or the user's work memory
//   args     the argument table: every operator's input and output addresses, patched per execution for
//            the model's inputs and outputs
//
// Gears (gear_table.h): each gear is recorded as its own RI over the same weights and arena (sized for the
// largest gear by atc); an execution replays the gear its dataset selected, the default (largest) when
// none was chosen. Switching gears costs nothing beyond the replay.
//
// Dynamic shapes (om::DynamicKind::kShape): the model holds its source graph; an execution with input
// shapes it has not met compiles the graph for them (shape_compiler.h), uploads the constants no earlier
// shape had, records an RI, and keeps it in a cache of recent shapes (LRU, NPURT_MODEL_SHAPE_CACHE entries,
// default 32). Shapes met before replay their RI like a static model. The arena is shared and grows when
// a shape needs more (the shapes recorded against the smaller one are re-recorded when next used, without
// compiling again).
//
// Lifetime: the recorded tasks keep what they point at (records, argument table, memory) until the RI's
// last replay finished; Unload drops the model's references and never waits for the device.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <span>
#include <thread>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "base/tensor_spec.h"
#include "core/model_ri/model_ri.h"
#include "core/operators.h"
#include "models/om/om_reader.h"
#include "models/runtime/gear_table.h"
#include "models/runtime/static_aipp.h"

namespace npurt::core {
class Context;
class Event;
class Stream;
}  // namespace npurt::core

namespace npurt::models {
struct NodeRecord;

struct IoDesc {
  std::string name;
  TensorSpec spec;
  uint64_t bytes = 0;
  // An input pre-processed by static AIPP: the image as aclmdlGetInputDims shows it ([N, C, H, W]); `spec`
  // is the buffer (aclmdlGetInputDimsV2). Empty: both views are `spec`.
  std::vector<int64_t> image_dims;
};

// Memory the caller provides (aclmdlLoadFrom*WithMem); null: the runtime allocates that part.
struct LoadMemory {
  void* work = nullptr;
  size_t work_size = 0;
  void* weight = nullptr;
  size_t weight_size = 0;
};

// An execution's output dims, for models whose output shapes are known per execution only: a dynamic-shape
// model's (known when the execution is queued) and a model's whose output dims depend on the data (known when
// the device computed them: a host task queued after the execution, in stream order, reads their shape slots).
// `done` runs once the dims are final: at once, or on the device's host-work engine.
struct OutputShapes {
  std::vector<std::vector<int64_t>> dims;  // per output
  std::function<void(const OutputShapes&)> done;  // may be empty
};

// One user buffer of a dataset.
struct UserBuffer {
  void* data = nullptr;
  size_t size = 0;
};

struct ModelResources;
class ShapeCompilerSession;

// Where the weight region's offsets live in device memory: chunks by their first offset (a static model's
// one chunk at 0; a dynamic-shape model adds one per compile that brought new constants).
struct WeightChunks {
  std::vector<std::pair<uint64_t, uint8_t*>> chunks;  // ascending first offsets
  uint8_t* At(uint64_t offset) const;
};

// A dynamic-shape model's cache of compiled shapes, as counted so far: logged at each compile and when the
// model unloads (msprof counts the same events, op_compile_cache_*.csv).
struct ShapeCacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;  // compiles
  uint64_t evictions = 0;
  size_t cached = 0;
  size_t capacity = 0;
  uint64_t arena_bytes = 0;   // the shared arena now
  uint64_t weight_bytes = 0;  // every constant uploaded
  double compile_ms = 0;      // all compiles together
  uint64_t ops_built = 0;     // operators built for the shapes compiled (records included)
  uint64_t ops_retiled = 0;   // ... of which re-tiled the kernel of another shape rather than compiled
  uint64_t ops_specialized = 0;  // re-tiled operators compiled for their shapes since (the shapes recurred)
};

// What a node's operator is built from: its input and output specs and, where the device's memory is
// host-visible, its weight inputs' addresses (constants the backend may pack once; null for the others).
struct NodeCallSpecs {
  std::vector<TensorSpec> in, out;
  std::vector<const void*> constants;
  bool any_constant = false;
};
NodeCallSpecs SpecsOf(const om::ModelDef& def, const om::NodeDef& n, const WeightChunks& weights, bool host_visible);

// Every node's source nodes, comma-separated (its own name when nothing was fused into it).
std::map<std::string, std::string, std::less<>> OriginNames(const om::ModelDef& def);

// A gear model's inputs and outputs as its description reports them: templated inputs with -1 where the
// gears set the dim, and every size the largest over the gears (what programs allocate). Static: unchanged.
void ApplyGearsToIo(const GearTable& t, std::vector<IoDesc>* inputs, std::vector<IoDesc>* outputs);
// The image view of inputs with static AIPP (IoDesc::image_dims).
void ApplyAippToIo(const std::vector<StaticAipp>& aipp, std::vector<IoDesc>* inputs);

class LoadedModel {
 public:
  // Loads a verified model into the calling thread's current context. `source` names it in messages.
  static StatusOr<std::unique_ptr<LoadedModel>> Load(const om::ModelFile& file, const LoadMemory& memory,
                                                     const std::string& source, uint32_t id);
  ~LoadedModel();
  LoadedModel(const LoadedModel&) = delete;
  LoadedModel& operator=(const LoadedModel&) = delete;

  uint32_t id() const { return id_; }
  const std::string& name() const { return name_; }
  // Inputs and outputs as the description reports them: a gear model's templated inputs have -1 where the
  // gears differ; sizes are the largest gear's.
  const std::vector<IoDesc>& inputs() const { return inputs_; }
  const std::vector<IoDesc>& outputs() const { return outputs_; }
  core::Context* context() const { return context_; }
  uint64_t arena_size() const { return arena_size_; }
  uint64_t weight_size() const { return weight_size_; }
  size_t node_count() const { return node_count_; }
  const GearTable& gears() const { return gears_; }
  const std::vector<StaticAipp>& aipp() const { return aipp_; }
  // The gear of the last aclmdlSetDynamic*/SetInputDynamicDims call on this model (-1: none yet), for
  // aclmdlGetCurOutputDims.
  int32_t current_gear() const { return current_gear_.load(std::memory_order_relaxed); }
  void set_current_gear(size_t g) { current_gear_.store(static_cast<int32_t>(g), std::memory_order_relaxed); }
  const std::map<std::string, std::string, std::less<>>& origin_names() const { return origin_names_; }
  // aclmdlSetAttribute's priority (0 highest .. 7): recorded and reported; the simulated NPU schedules
  // the model's operators in stream order whatever it is.
  uint32_t priority() const { return priority_.load(std::memory_order_relaxed); }
  void set_priority(uint32_t p) { priority_.store(p, std::memory_order_relaxed); }

  // Enqueues one execution of gear `gear` (-1: the default) on `stream`: checks the buffers (count, size,
  // device memory of the model's device), then replays. Executions of one model run one after another,
  // whichever streams they were queued on (CANN forbids overlapping ones; npurt orders them).
  // A dynamic-shape model takes each input's dims in `shapes` (an empty list: the input's static dims; null for
  // other models). `output_shapes` (optional; see per_execution_output_shapes) receives each output's dims.
  Status ExecuteAsync(const std::vector<UserBuffer>& inputs, const std::vector<UserBuffer>& outputs,
                      core::Stream* stream, int32_t gear = -1, const std::vector<std::vector<int64_t>>* shapes = nullptr,
                      const std::shared_ptr<OutputShapes>& output_shapes = nullptr);
  // On the model's own stream; waits up to timeout_ms (-1: forever) for the result.
  Status Execute(const std::vector<UserBuffer>& inputs, const std::vector<UserBuffer>& outputs, int32_t timeout_ms,
                 int32_t gear = -1, const std::vector<std::vector<int64_t>>* shapes = nullptr,
                 const std::shared_ptr<OutputShapes>& output_shapes = nullptr);
  // Whether an execution's output dims may differ from the description's (dynamic shapes, or outputs whose dims
  // depend on the data): the API then asks for them (OutputShapes) and sets the output dataset's descriptors.
  bool per_execution_output_shapes() const { return gears_.shapes() || data_dependent_outputs_; }

 private:
  // One recorded graph: a static model's, or one gear's.
  struct GearRun {
    core::ModelRI* ri = nullptr;
    // Where each model input / output is bound: argument-table words (device addresses) per io index.
    std::vector<std::vector<void*>> input_slots;
    std::vector<std::vector<void*>> output_slots;
    std::vector<uint64_t> input_bytes;  // what this gear reads of each input
    std::vector<uint64_t> output_bytes;
    // Per output, its dims as compiled and, for one whose dims depend on the data, its shape slot (device
    // memory the execution writes; null: static).
    std::vector<std::vector<int64_t>> output_dims;
    std::vector<const int64_t*> output_shape_slots;
    bool data_dependent_outputs = false;
  };

  // One set of input shapes of a dynamic-shape model, compiled; run.ri null: not recorded (yet, or again
  // after the arena grew).
  // A dynamic-shape model's programs for one compiled shape's nodes (kept across its re-records).
  struct NodePrograms {
    std::vector<std::shared_ptr<const core::OperatorProgram>> programs;  // per node; null: build it
    std::vector<bool> retiled;                                           // per node: re-tiles another's code
  };

  struct ShapeVariant {
    std::vector<std::vector<int64_t>> dims;
    om::ModelDef def;
    GearRun run;
    ModelResources* res = nullptr;  // its records and argument table (a reference)
    uint64_t last_use = 0;
    NodePrograms programs;  // built at its first record; a re-record (the arena grew) only binds them
    uint32_t hits = 0;      // executions that found it compiled
    bool specializing = false;  // its re-tiled operators are queued (or were) for compiles of their own
  };

  // Compiles of their own for a compiled shape's re-tiled operators, on the model's specialising thread
  // (shape_specialize.cc): queued at the shape's first hit, adopted (the shape re-recorded with
  // them) by the execution after they are done. So a new shape is met fast (its kernels re-tiled from another
  // shape's) and a shape that recurs runs kernels compiled for it.
  struct SpecializeJob {
    std::vector<std::vector<int64_t>> dims;
    std::shared_ptr<const om::ModelDef> def;
    std::vector<size_t> nodes;                          // the re-tiled ones
    std::vector<NodeCallSpecs> specs;                   // per entry of `nodes`: what Record built it from
    std::vector<std::shared_ptr<const core::OperatorProgram>> built;  // per node of the def (the result)
  };
  static constexpr uint32_t kSpecializeAtHit = 1;  // the first execution that finds it compiled

  LoadedModel() = default;
  Status CheckBuffers(const std::vector<UserBuffer>& buffers, const GearRun& run, bool outputs) const;
  // Compiles `def`'s graph and records it into `run` (`label`: "gear 2", "shapes [1,32]", or empty),
  // its node records in res->nodes[slot]. `programs` (a dynamic-shape model's): programs to use instead
  // of building, and where those built go.
  Status Record(const om::ModelDef& def, const std::string& label, const WeightChunks& weights, uint8_t* arena,
                ModelResources* res, size_t slot, GearRun* run, NodePrograms* programs = nullptr);
  // One node's operator built (Record's): re-tiled from its family where a dynamic-shape model has one, its
  // outputs checked against the model's.
  StatusOr<core::OperatorBuild> BuildNode(const om::NodeDef& n, const std::vector<TensorSpec>& in_specs,
                                          const std::vector<TensorSpec>& out_specs,
                                          const std::vector<const void*>* constants, const std::string& where,
                                          bool slotted = false);
  // After an execution of `run` was queued: its output dims into `out` (a host task after it, in stream order,
  // for dims that depend on the data).
  void DeliverOutputShapes(const GearRun& run, core::Stream* stream, const std::shared_ptr<OutputShapes>& out);
  // Record's second half: the bound nodes captured as an RI on the model's stream.
  Status Capture(const om::ModelDef& def, const std::string& label, ModelResources* res, void** table, size_t slots,
                 const std::vector<size_t>& first_slot, std::vector<NodeRecord>& records, GearRun* run);
  Status LaunchRun(const GearRun& run, const std::vector<UserBuffer>& inputs, const std::vector<UserBuffer>& outputs,
                   core::Stream* stream, const std::shared_ptr<OutputShapes>& output_shapes);  // exec_mu_ held
  // Dynamic shapes (exec_mu_ held).
  Status LoadShapeModel(const om::ModelFile& file, const LoadMemory& memory, ModelResources* res);
  StatusOr<std::vector<std::vector<int64_t>>> ResolveShapes(const std::vector<std::vector<int64_t>>* shapes) const;
  StatusOr<ShapeVariant*> VariantFor(const std::vector<std::vector<int64_t>>& dims);
  Status UploadWeights(uint64_t offset, std::span<const uint8_t> fresh);
  Status GrowArena(uint64_t need);
  Status RecordVariant(ShapeVariant* v);
  void DropRecording(ShapeVariant* v);
  void LogShapeCache() const;  // at unload
  void StartSpecializing();    // the specialising thread, which first warms the backend (at load)
  void QueueSpecialization(ShapeVariant* v);
  void AdoptSpecialized();     // exec_mu_ held
  void SpecializeLoop();       // the specialising thread
  void StopSpecializing();     // joins it (before the model's memory goes)

  uint32_t id_ = 0;
  std::string name_;
  std::vector<IoDesc> inputs_;
  std::vector<IoDesc> outputs_;
  uint64_t arena_size_ = 0;
  uint64_t weight_size_ = 0;
  size_t node_count_ = 0;
  std::map<std::string, std::string, std::less<>> origin_names_;
  core::Context* context_ = nullptr;  // retained
  core::Stream* stream_ = nullptr;    // the model's stream (recording, synchronous executions); retained
  std::vector<core::Stream*> branch_streams_;  // a multi-stream model's streams 1.. (Capture joins them); retained
  GearTable gears_;
  std::vector<StaticAipp> aipp_;
  std::vector<GearRun> runs_;  // one per gear (a static model: one)
  std::atomic<int32_t> current_gear_{-1};
  bool data_dependent_outputs_ = false;  // a static or gear model's outputs with shape slots
  // A gear model's executions share one arena but replay different RIs, which do not order each other: the
  // last execution's stream and an event recorded after it, which an execution on another stream waits for
  // (exec_mu_). A static model's single RI orders its replays itself.
  core::Event* order_event_ = nullptr;
  const core::Stream* last_stream_ = nullptr;
  std::atomic<uint32_t> priority_{0};
  std::mutex exec_mu_;
  std::vector<core::ModelRI::Patch> patches_;  // reused per execution (exec_mu_)
  std::string source_;

  // Dynamic shapes (exec_mu_).
  std::unique_ptr<ShapeCompilerSession> compiler_;
  std::map<std::vector<std::vector<int64_t>>, std::unique_ptr<ShapeVariant>> variants_;
  ModelResources* shared_res_ = nullptr;  // the weight chunks (a reference, until the model goes)
  ModelResources* arena_res_ = nullptr;   // the arena (a reference; null: the user's work memory or none yet)
  LoadMemory user_memory_;
  uint8_t* arena_ = nullptr;
  uint64_t arena_capacity_ = 0;
  WeightChunks weights_;
  std::vector<uint8_t> pending_weights_;  // compiled constants a failed upload left (uploaded before the next)
  uint64_t pending_offset_ = 0;
  uint64_t use_clock_ = 0;
  size_t shape_capacity_ = 32;
  std::string cache_row_;  // the model's row in msprof's op_compile_cache CSV
  std::string ops_row_;    // ... and its operators' row (built, re-tiled)
  // Each operator family's latest program with the model's weights as constants (core::OperatorFamilyKey and
  // the constants' addresses), which the next shape's build may re-tile; families without constants are the
  // op compile cache's. Kept while the model is loaded (one program per family).
  std::unordered_map<std::string, std::shared_ptr<const core::OperatorProgram>> op_families_;
  // The specialising thread (started by the first job) and its queues (spec_mu_).
  std::thread spec_thread_;
  std::mutex spec_mu_;
  std::condition_variable spec_cv_;
  std::deque<SpecializeJob> spec_queue_;
  std::vector<SpecializeJob> spec_done_;
  std::atomic<bool> spec_ready_{false};  // spec_done_ has jobs (read without the lock by each execution)
  bool spec_stop_ = false;
  mutable std::mutex stats_mu_;
  ShapeCacheStats stats_;
};

}  // namespace npurt::models
